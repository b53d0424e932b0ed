"""A Dropper position and its text: ``dropper <board> <side>``.

The board field is kept as written (rows from the top down, ``/`` between
rows, ``.`` ``w`` ``b``), so the canonical text costs nothing and two
positions are equal exactly when their texts are. The stones as bit masks
(see :mod:`companion.games.dropper.geometry`) are worked out on first use.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from companion.games.base import PositionError
from companion.games.dropper.geometry import (
    BLACK_BITS,
    MAX_SIDE,
    WHITE_BITS,
    Grid,
    grid,
)

LOGGER = logging.getLogger(__name__)

NAME = "dropper"
SIDES = {"w": "white", "b": "black"}
OTHER = {"w": "b", "b": "w"}


@dataclass(frozen=True)
class DropperPosition:
    """A board and the side to move. Build it with :func:`parse_position`
    (or the rules' ``start``/``play``): the constructor trusts its fields."""

    board: str
    """The board field of the position text."""
    side: str
    """``"w"`` or ``"b"``: the side to move."""

    @property
    def to_move(self) -> str:
        return SIDES[self.side]

    def text(self) -> str:
        return f"{NAME} {self.board} {self.side}"

    def __str__(self) -> str:
        return self.text()

    @cached_property
    def grid(self) -> Grid:
        board = self.board
        width = board.find("/")
        if width < 0:
            return grid(len(board), 1)
        return grid(width, (len(board) + 1) // (width + 1))

    @property
    def width(self) -> int:
        return self.grid.width

    @property
    def height(self) -> int:
        return self.grid.height

    @cached_property
    def black(self) -> int:
        """Black's stones as a bit mask."""
        return int(self.board.translate(BLACK_BITS), 2)

    @cached_property
    def white(self) -> int:
        """White's stones as a bit mask."""
        return int(self.board.translate(WHITE_BITS), 2)

    def cells(self) -> Mapping[str, str]:
        """Every point (``"a1"``...) and its content: ``"."``, ``"w"`` or ``"b"``."""
        names = self.grid.names
        return {names[k]: c for k, c in enumerate(self.board) if c != "/"}

    def at(self, point: str) -> str:
        """The content of one point (``"."``, ``"w"``, ``"b"``); ``KeyError`` if off the board."""
        return self.board[self.grid.index[point]]


def parse_position(text: str) -> DropperPosition:
    """Read a position text; :class:`PositionError` names the bad field.

    Surrounding and repeated whitespace is accepted; everything else must be
    exactly as the rules file writes it (section 9).
    """
    fields = text.split()
    if not fields:
        raise PositionError("empty position text (expected 'dropper BOARD SIDE')")
    if fields[0] != NAME:
        hint = " (the name is written in lower case)" if fields[0].lower() == NAME else ""
        raise PositionError(f"name field: expected {NAME!r}, got {fields[0]!r}{hint}")
    if len(fields) != 3:
        raise PositionError(
            f"expected 3 fields 'dropper BOARD SIDE', got {len(fields)}: {text.strip()!r}")
    board, side = fields[1], fields[2]
    if side not in SIDES:
        raise PositionError(f"side field: expected 'w' or 'b', got {side!r}")
    rows = board.split("/")
    if not 1 <= len(rows) <= MAX_SIDE:
        raise PositionError(
            f"board field: {len(rows)} rows; a board has 1 to {MAX_SIDE} rows")
    width = len(rows[0])
    for number, row in enumerate(rows):
        name = f"row {len(rows) - number} (the {_ordinal(number + 1)} from the top)"
        if not row:
            raise PositionError(f"board field: {name} is empty")
        for char in row:
            if char not in ".wb":
                hint = (" (stones are written in lower case)" if char in "WB"
                        else " (only '.', 'w' and 'b'; no run-length numbers)")
                raise PositionError(f"board field: {name} has {char!r}{hint}")
        if len(row) != width:
            raise PositionError(
                f"board field: {name} has {len(row)} points, the top row {width}; "
                "all rows must be equally long")
    if width > MAX_SIDE:
        raise PositionError(
            f"board field: rows of {width} points; a board is 1 to {MAX_SIDE} points wide")
    return DropperPosition(board, side)


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"
