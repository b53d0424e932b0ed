"""A Dropper position and its text: ``dropper <board> <side>``.

A position is one integer: each colour's stones as a bit mask on the board's
:class:`~companion.games.dropper.geometry.Grid` (one bit a character of the board
text), the side to move and the board size, packed as
``white << (L + SHIFT) | black << SHIFT | side << 11 | size << 1 | 1`` (``L``
the length of the board text). Equal integers are exactly equal texts, and a
successor costs one integer, so listing them makes no text at all: the board
text is written from the masks on first use (a position read from text keeps
the text it was read from, in a bounded cache).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

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

SHIFT = 12
"""Bits below the black mask: the marker bit, the size (10 bits), the side."""
SIDE_BIT = 1 << 11
_SIZE_MASK = 0x7FE
_GRIDS: dict[int, Grid] = {}


def size_code(g: Grid) -> int:
    """The grid's size in the packed position (``(width - 1) * 26 + height - 1``)."""
    code = (g.width - 1) * MAX_SIDE + g.height - 1
    _GRIDS.setdefault(code, g)
    return code


def grid_of(board: str) -> Grid:
    """The grid of a board field (its rows' length and count)."""
    width = board.find("/")
    if width < 0:
        return grid(len(board), 1)
    return grid(width, (len(board) + 1) // (width + 1))


_new = int.__new__

BOARDS_KEPT = 65536
"""Board texts kept for positions (positions hold no text of their own)."""
_BOARDS: dict[int, str] = {}


class DropperPosition(int):
    """A board and the side to move, packed in one integer (see the module's text).

    ``DropperPosition(board, side)`` reads a board field (trusted: build one from
    text with :func:`parse_position`); :meth:`of` makes one from masks.
    """

    __slots__ = ()

    def __new__(cls, board: str, side: str) -> DropperPosition:
        pos = cls.of(int(board.translate(WHITE_BITS), 2), int(board.translate(BLACK_BITS), 2),
                     side, grid_of(board))
        _BOARDS[int(pos)] = board
        return pos

    @classmethod
    def of(cls, white: int, black: int, side: str, g: Grid) -> DropperPosition:
        """The position of these masks (no checks)."""
        return _new(cls, packed(white, black, side, g))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (self.board, self.side)

    def __repr__(self) -> str:
        return f"DropperPosition({self.board!r}, {self.side!r})"

    def __format__(self, spec: str) -> str:
        return format(self.text(), spec)

    @property
    def grid(self) -> Grid:
        return _GRIDS[(self & _SIZE_MASK) >> 1]

    @property
    def white(self) -> int:
        """White's stones as a bit mask."""
        return int(self) >> (SHIFT + _GRIDS[(self & _SIZE_MASK) >> 1].length)

    @property
    def black(self) -> int:
        """Black's stones as a bit mask."""
        return (int(self) >> SHIFT) & ((1 << _GRIDS[(self & _SIZE_MASK) >> 1].length) - 1)

    @property
    def side(self) -> str:
        """``"w"`` or ``"b"``: the side to move."""
        return "b" if self & SIDE_BIT else "w"

    @property
    def board(self) -> str:
        """The board field of the position text (written from the masks, kept a while)."""
        key = int(self)
        board = _BOARDS.get(key)
        if board is None:
            if len(_BOARDS) >= BOARDS_KEPT:
                _BOARDS.clear()
            board = _BOARDS[key] = write_board(self.white, self.black, self.grid)
        return board

    @property
    def to_move(self) -> str:
        return SIDES[self.side]

    def text(self) -> str:
        return f"{NAME} {self.board} {self.side}"

    def __str__(self) -> str:
        return self.text()

    @property
    def width(self) -> int:
        return self.grid.width

    @property
    def height(self) -> int:
        return self.grid.height

    def cells(self) -> Mapping[str, str]:
        """Every point (``"a1"``...) and its content: ``"."``, ``"w"`` or ``"b"``."""
        names = self.grid.names
        return {names[k]: c for k, c in enumerate(self.board) if c != "/"}

    def at(self, point: str) -> str:
        """The content of one point (``"."``, ``"w"``, ``"b"``); ``KeyError`` if off the board."""
        return self.board[self.grid.index[point]]


def packed(white: int, black: int, side: str, g: Grid) -> int:
    """The integer of a position (see the module's text)."""
    return ((white << g.length | black) << SHIFT | (SIDE_BIT if side == "b" else 0)
            | size_code(g) << 1 | 1)


_DIGITS = str.maketrans("0124", ".wb/")


def write_board(white: int, black: int, g: Grid) -> str:
    """The board field of these masks.

    Each mask's binary digits read as hexadecimal put one bit in each digit;
    summed with weights 1, 2 and 4 (white, black, separator), the hexadecimal
    digits are the characters of the board.
    """
    length = g.length
    value = (int(format(white, f"0{length}b"), 16) + 2 * int(format(black, f"0{length}b"), 16)
             + 4 * int(format(g.separators, f"0{length}b"), 16))
    return format(value, f"0{length}x").translate(_DIGITS)


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
