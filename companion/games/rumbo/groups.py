"""Groups of a Rumbo board: which stones are connected, and their liberties.

Computed once per position (and cached on it); the engine then judges every
placement from these tables without flood-filling again.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from companion.games.rumbo.geometry import Geometry

LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True)
class Groups:
    """The groups of one board. Group ids are 0, 1, ... in reading order of their first stone."""

    of: tuple[int, ...]
    """Index -> its group id, or -1 for an empty point or a separator."""
    members: tuple[tuple[int, ...], ...]
    """Group id -> its point indices, in reading order."""
    liberties: tuple[int, ...]
    """Group id -> its liberties as a bit mask (bit i: point i)."""


def analyse(stones: str, geo: Geometry) -> Groups:
    """Every group of ``stones`` (the STONES field: ``.``, ``b``, ``w``, rows joined by ``/``)."""
    of = [-1] * len(stones)
    members: list[tuple[int, ...]] = []
    liberties: list[int] = []
    neighbours = geo.neighbours
    for start, colour in enumerate(stones):
        if colour == "." or colour == "/" or of[start] >= 0:
            continue
        gid = len(members)
        of[start] = gid
        stack = [start]
        found = [start]
        libs = 0
        while stack:
            p = stack.pop()
            for q in neighbours[p]:
                s = stones[q]
                if s == ".":
                    libs |= 1 << q
                elif s == colour and of[q] < 0:
                    of[q] = gid
                    stack.append(q)
                    found.append(q)
        members.append(tuple(sorted(found)))
        liberties.append(libs)
    return Groups(tuple(of), tuple(members), tuple(liberties))
