"""The grid of a Dropper board: point names, neighbours and bit masks.

A board is kept exactly as its position text writes it: the rows from the
top down, separated by ``/``. Every character of that string, separators
included, is one bit of a Python integer (the first character is the highest
bit), so ``int(board.translate(...), 2)`` reads a colour's stones in one
call. The separators form a column of bits that never holds a stone: a shift
by one bit moves a stone sideways without wrapping round to the next row, and
a shift by ``stride`` bits moves it one row. :meth:`Grid.dilate` and friends
then answer "which points touch a stone" for the whole board at once.

An *index* ``k`` below is a position in the board string; its bit is
``length - 1 - k``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import cache

LOGGER = logging.getLogger(__name__)

LETTERS = "abcdefghijklmnopqrstuvwxyz"
MAX_SIDE = 26
"""Widths and heights run from 1 to 26 (rule R11)."""

BLACK_BITS = str.maketrans({".": "0", "/": "0", "w": "0", "b": "1"})
WHITE_BITS = str.maketrans({".": "0", "/": "0", "w": "1", "b": "0"})
POINT_BITS = str.maketrans({".": "1", "/": "0", "w": "1", "b": "1"})


@dataclass(frozen=True, eq=False)
class Grid:
    """Everything about a width x height board that does not depend on its stones."""

    width: int
    height: int
    stride: int = field(init=False)
    """Characters per row in the board string, the separator included."""
    length: int = field(init=False)
    """Characters in the board string."""
    valid: int = field(init=False, repr=False)
    """The bits of real points (not separators)."""
    names: tuple[str, ...] = field(init=False, repr=False)
    """Index -> point name (``""`` for a separator)."""
    index: dict[str, int] = field(init=False, repr=False, compare=False)
    """Point name -> index."""
    neighbours: tuple[int, ...] = field(init=False, repr=False)
    """Index -> bit mask of its (up to eight) neighbours."""
    around: tuple[int, ...] = field(init=False, repr=False)
    """Index -> bit mask of the point and its neighbours."""
    neighbour_indexes: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    """Index -> its neighbours' indexes, in the order a1, a2... of their names."""
    empty_board: str = field(init=False, repr=False)
    separators: int = field(init=False, repr=False)
    """The bits of the ``/`` characters."""

    def __post_init__(self) -> None:
        width, height = self.width, self.height
        stride = width + 1
        length = height * stride - 1
        names = [""] * length
        for line in range(height):
            for col in range(width):
                names[line * stride + col] = f"{LETTERS[col]}{height - line}"
        neighbours = [0] * length
        around = [0] * length
        nbr_indexes: list[tuple[int, ...]] = [()] * length
        for k, name in enumerate(names):
            if not name:
                continue
            line, col = divmod(k, stride)
            ks = []
            for dl in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if (dl or dc) and 0 <= line + dl < height and 0 <= col + dc < width:
                        ks.append((line + dl) * stride + col + dc)
            ks.sort(key=lambda j: (j % stride, -j))
            nbr_indexes[k] = tuple(ks)
            mask = 0
            for j in ks:
                mask |= 1 << (length - 1 - j)
            neighbours[k] = mask
            around[k] = mask | 1 << (length - 1 - k)
        set_ = object.__setattr__
        set_(self, "stride", stride)
        set_(self, "length", length)
        set_(self, "valid", sum(1 << (length - 1 - k) for k, n in enumerate(names) if n))
        set_(self, "names", tuple(names))
        set_(self, "index", {n: k for k, n in enumerate(names) if n})
        set_(self, "neighbours", tuple(neighbours))
        set_(self, "around", tuple(around))
        set_(self, "neighbour_indexes", tuple(nbr_indexes))
        set_(self, "empty_board", "/".join(["." * width] * height))
        set_(self, "separators", ((1 << length) - 1) & ~self.valid)

    def bit(self, k: int) -> int:
        """The bit mask of index ``k``."""
        return 1 << (self.length - 1 - k)

    def indexes(self, mask: int) -> list[int]:
        """The indexes of the bits of ``mask``, in board-string order."""
        out = []
        last = self.length - 1
        while mask:
            top = mask.bit_length() - 1
            out.append(last - top)
            mask ^= 1 << top
        return out

    def dilate(self, mask: int) -> int:
        """The points of ``mask`` and every point next to one (eight directions)."""
        d = mask | mask << 1 | mask >> 1
        s = self.stride
        return (d | d << s | d >> s) & self.valid

    def grow(self, mask: int) -> int:
        """The points of ``mask`` and every point orthogonally next to one."""
        s = self.stride
        return (mask | mask << 1 | mask >> 1 | mask << s | mask >> s) & self.valid


@cache
def grid(width: int, height: int) -> Grid:
    """The (shared) grid of a width x height board, 1 to 26 each way."""
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise ValueError(f"a board is 1 to {MAX_SIDE} points each way, not {width} x {height}")
    return Grid(width, height)
