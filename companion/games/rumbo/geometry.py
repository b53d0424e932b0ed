"""Rumbo's board geometry: point names, neighbours and directions on an N x N board.

Points are numbered by their place in the STONES field of the position text
(rows joined by ``/``): index ``r * (N + 1) + c``, row ``r = 0`` being the top
row (row N) and column ``c = 0`` column ``a``; the indices ``r * (N + 1) + N``
are the ``/`` separators, which are no points. Keeping the field's own layout
makes writing a position's text a plain concatenation. The tables here are
built once per board size and shared.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import cache

LOGGER = logging.getLogger(__name__)

LETTERS = "abcdefghijklmnopqrstuvwxyz"
MIN_SIZE = 2
MAX_SIZE = 26

DIRECTIONS = ("N", "E", "S", "W")
"""Direction names in the order of the neighbour tables (north is up, towards row N)."""

NONE = -1
"""No neighbour in that direction (off the board)."""

_POINT = re.compile(r"([a-z])([0-9]{1,9})")


@dataclass(frozen=True)
class Geometry:
    """Point names and neighbour tables of one board size."""

    size: int
    points: tuple[int, ...]
    """The indices of the points, in reading order (the separators left out)."""
    names: tuple[str, ...]
    """Index -> point name (``"a9"``); ``""`` at a separator."""
    index: dict[str, int]
    """Point name -> index."""
    toward: tuple[tuple[int, int, int, int], ...]
    """Index -> its neighbour to the N, E, S, W (:data:`NONE` where off the board)."""
    neighbours: tuple[tuple[int, ...], ...]
    """Index -> its existing neighbours."""
    interior: tuple[bool, ...]
    """Index -> whether the point has four neighbours (edge points are never holes by default)."""

    def point(self, text: str) -> int:
        """The index of a point name (``"c3"``; case and leading zeros tolerated); ValueError."""
        match = _POINT.fullmatch(text.strip().lower())
        if match is None:
            raise ValueError(
                f"{text.strip()!r} is not a point (a column letter then a row number, like c3)")
        column = LETTERS.index(match.group(1))
        row = int(match.group(2))
        if column >= self.size or not 1 <= row <= self.size:
            last = f"{LETTERS[self.size - 1]}{self.size}"
            raise ValueError(
                f"point {match.group(1)}{row} is off the {self.size}x{self.size} board "
                f"(a1 to {last})")
        return (self.size - row) * (self.size + 1) + column


@cache
def geometry(size: int) -> Geometry:
    """The geometry of an N x N board, 2 <= N <= 26 (ValueError otherwise)."""
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"board size {size} is outside {MIN_SIZE} to {MAX_SIZE}")
    span = size + 1
    names: list[str] = []
    points: list[int] = []
    toward: list[tuple[int, int, int, int]] = []
    for r in range(size):
        for c in range(span):
            i = r * span + c
            if c == size:
                names.append("")
                toward.append((NONE, NONE, NONE, NONE))
                continue
            points.append(i)
            names.append(f"{LETTERS[c]}{size - r}")
            toward.append((
                i - span if r > 0 else NONE,
                i + 1 if c < size - 1 else NONE,
                i + span if r < size - 1 else NONE,
                i - 1 if c > 0 else NONE,
            ))
    names.pop()  # the last row has no separator after it
    toward.pop()
    return Geometry(
        size=size,
        points=tuple(points),
        names=tuple(names),
        index={name: i for i, name in enumerate(names) if name},
        toward=tuple(toward),
        neighbours=tuple(tuple(q for q in t if q != NONE) for t in toward),
        interior=tuple(name != "" and NONE not in t for name, t in zip(names, toward, strict=True)),
    )
