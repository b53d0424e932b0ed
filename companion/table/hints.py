"""What a hint shows: the best few turns with their chances in words, and the best turn's
cells or squares so a screen can draw it.

The limit per game is :class:`~companion.table.seats.HintPolicy` (off, 3 a game,
unlimited); the count is the session's (``hints_used``), journaled with each hint given,
so a resumed game keeps it.
"""

from __future__ import annotations

import dataclasses
import logging

from companion.engine.contract import Analysis

LOGGER = logging.getLogger(__name__)

HINT_TURNS = 3
"""Turns a hint lists."""


@dataclasses.dataclass(frozen=True)
class HintTurn:
    """One turn of a hint."""

    turn: str
    """The engine's turn text."""
    words: str
    """The turn in words (``"knight g1 to f3"``)."""
    chances: str
    """The mover's chances after it, in words."""
    value: float
    """The mover's expected score after it, 0 to 1."""


@dataclasses.dataclass(frozen=True)
class Hint:
    """A hint for ``seat`` at ``position``."""

    seat: str
    position: str
    turns: tuple[HintTurn, ...]
    """Best first."""
    squares: tuple[str, ...]
    """Where the best turn acts: a move's from and to squares, a placement's square, the
    cells a stone game's turn changes (empty for a flip)."""
    lines: tuple[str, ...]
    """The hint in sentences, as shown and spoken."""
    left: int | None
    """Hints this seat has left after this one (``None``: unlimited)."""
    analysis: Analysis

    @property
    def best(self) -> HintTurn:
        return self.turns[0]
