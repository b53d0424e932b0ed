"""Raindrops positions: the board, the side to move, and the position text.

Text (rules file, section 6): ``raindrops <board> <side>``, the board's rows
from the top down separated by ``/``, one character per point (``b``, ``w``,
``.``), and ``b`` or ``w`` to move.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

from companion.games.base import PositionError
from companion.games.raindrops.geometry import LETTERS, geometry

LOGGER = logging.getLogger(__name__)

NAME = "raindrops"
SIDE_NAMES = {"b": "black", "w": "white"}
OTHER = {"b": "w", "w": "b"}
_ONES = {"b": str.maketrans("bw.", "100"), "w": str.maketrans("bw.", "010")}


@dataclass(frozen=True, slots=True)
class RaindropsPosition:
    """A board and the side to move. Equal exactly when the canonical texts are equal."""

    size: int
    board: str
    """``size * size`` characters, ``b``/``w``/``.``, from a1 along row 1, then row 2..."""
    side: str
    """``"b"`` or ``"w"``: the side to move."""

    @property
    def to_move(self) -> str:
        return SIDE_NAMES[self.side]

    def text(self) -> str:
        n, board = self.size, self.board
        rows = "/".join(board[r * n:(r + 1) * n] for r in range(n - 1, -1, -1))
        return f"{NAME} {rows} {self.side}"

    def __str__(self) -> str:
        return self.text()

    def cells(self) -> Mapping[str, str]:
        names = geometry(self.size).names
        return dict(zip(names, self.board, strict=True))

    def mask(self, colour: str) -> int:
        """The points holding ``colour`` (``"b"``/``"w"``) as a bit mask."""
        return int(self.board[::-1].translate(_ONES[colour]), 2)


def start_position(size: int, layout: str, a1: str) -> RaindropsPosition:
    """The start of section 1: ``full`` checkerboard (odd sizes: centre empty) or ``sparse``."""
    first, second = ("b", "w") if a1 == "black" else ("w", "b")
    cells: list[str] = []
    centre = size // 2 if size % 2 else -1
    for r in range(size):
        for c in range(size):
            if layout == "full":
                if r == centre and c == centre:
                    cells.append(".")
                else:
                    cells.append(first if (r + c) % 2 == 0 else second)
            elif (r + c) % 2 == 0:
                cells.append(".")
            else:
                cells.append(first if c % 2 == 0 else second)
    return RaindropsPosition(size, "".join(cells), "b")


def parse_position(text: str) -> RaindropsPosition:
    """Read a position text (extra whitespace allowed); :class:`PositionError` naming the field."""
    fields = text.split()
    if len(fields) != 3:
        raise PositionError(
            f"a Raindrops position has 3 fields 'raindrops BOARD SIDE', not {len(fields)}")
    name, board, side = fields
    if name != NAME:
        raise PositionError(f"name field {name!r}: must be {NAME!r} (lower case)")
    rows = board.split("/")
    n = len(rows)
    if not 2 <= n <= 26:
        raise PositionError(f"board field: {n} rows; the size must be 2 to 26")
    for i, row in enumerate(rows):
        if len(row) != n:
            raise PositionError(
                f"board field: row {n - i} has {len(row)} points, but the board has {n} rows "
                "(it must be square)")
        bad = set(row) - set("bw.")
        if bad:
            raise PositionError(
                f"board field: row {n - i} holds {sorted(bad)[0]!r}; points are 'b', 'w' or '.'")
    if side not in OTHER:
        raise PositionError(f"side field {side!r}: 'b' or 'w'")
    flat = "".join(reversed(rows))
    if "b" not in flat and "w" not in flat:
        raise PositionError("board field: the board holds no pieces at all")
    return RaindropsPosition(n, flat, side)


def diagram(pos: RaindropsPosition) -> str:
    """The board with row numbers on the left and column letters below."""
    n = pos.size
    lines = []
    for r in range(n - 1, -1, -1):
        row = pos.board[r * n:(r + 1) * n]
        lines.append(f"{r + 1:>2}  " + " ".join(row))
    lines.append("    " + " ".join(LETTERS[:n]))
    return "\n".join(lines)
