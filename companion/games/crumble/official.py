"""The official apps' move notation (placeholder, filled in below)."""
from __future__ import annotations


def to_official(pos: object, turn: str) -> str:
    raise NotImplementedError


def from_official(pos: object, notation: str) -> str:
    raise NotImplementedError
