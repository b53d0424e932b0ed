"""Dropper's turn generation, on bit masks.

A turn is a drop (X>Y) when one is possible, then a free stone (+F) when a
free point remains after the drop; with no drop possible, a free stone alone
(section 4 of the rules). Everything here works on the board string and its
bit masks: the free points after a drop are the free points before it less
the pushed stone's neighbourhood (X was taken already), so one mask per
position serves every drop.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from functools import cache
from itertools import repeat
from typing import NamedTuple

from companion.games.dropper.geometry import Grid
from companion.games.dropper.position import SHIFT, SIDE_BIT, DropperPosition, size_code

LOGGER = logging.getLogger(__name__)


class Board(NamedTuple):
    """The masks a position's turns are worked out from."""

    mover: int
    """The stones of the side to move."""
    opponent: int
    empty: int
    free: int
    """Empty points whose neighbours are all empty."""
    droppable: int
    """Opponent stones with at least one empty neighbour."""


def board_of(pos: DropperPosition) -> Board:
    """The masks of ``pos``, from the mover's point of view."""
    g = pos.grid
    if pos.side == "w":
        mover, opponent = pos.white, pos.black
    else:
        mover, opponent = pos.black, pos.white
    taken = mover | opponent
    empty = g.valid & ~taken
    free = empty & ~g.dilate(taken)
    droppable = opponent & g.dilate(empty)
    return Board(mover, opponent, empty, free, droppable)


def drops(pos: DropperPosition) -> list[tuple[int, int]]:
    """Every legal drop as (X, Y) board-string indexes, X in board order."""
    g = pos.grid
    b = board_of(pos)
    neighbours = g.neighbours
    return [(x, y) for x in g.indexes(b.droppable)
            for y in g.indexes(neighbours[x] & b.empty)]


def turn_indexes(pos: DropperPosition) -> Iterator[tuple[int, int, int]]:
    """Every legal turn as (X, Y, F) indexes, ``-1`` for a part the turn lacks."""
    g = pos.grid
    b = board_of(pos)
    if not b.droppable:
        for f in g.indexes(b.free):
            yield -1, -1, f
        return
    neighbours, around, indexes = g.neighbours, g.around, g.indexes
    for x in indexes(b.droppable):
        for y in indexes(neighbours[x] & b.empty):
            left = b.free & ~around[y]
            if not left:
                yield x, y, -1
            for f in indexes(left):
                yield x, y, f


def turn_text(pos: DropperPosition, x: int, y: int, f: int) -> str:
    """The turn text of (X, Y, F) indexes."""
    names = pos.grid.names
    if x < 0:
        return names[f]
    if f < 0:
        return f"{names[x]}>{names[y]}"
    return f"{names[x]}>{names[y]}+{names[f]}"


def apply(pos: DropperPosition, x: int, y: int, f: int) -> DropperPosition:
    """The position after the (legal) turn (X, Y, F); no checks."""
    g = pos.grid
    last = g.length - 1
    gain = (1 << (last - x) if x >= 0 else 0) | (1 << (last - f) if f >= 0 else 0)
    lose = 1 << (last - x) if x >= 0 else 0
    push = 1 << (last - y) if y >= 0 else 0
    white, black = pos.white, pos.black
    if pos.side == "w":
        return DropperPosition.of(white | gain, (black & ~lose) | push, "b", g)
    return DropperPosition.of((white & ~lose) | push, black | gain, "w", g)


def successors(pos: DropperPosition) -> frozenset[DropperPosition]:
    """Every position one legal turn reaches (one per turn: rules 8.4).

    Works on the packed integer alone: a successor is the position's integer
    with the turn's bits changed, its text written only if asked for.
    """
    g = pos.grid
    length = g.length
    white, black = pos.white, pos.black
    s = g.stride
    taken = white | black
    empty = g.valid & ~taken
    d = taken | taken << 1 | taken >> 1
    free = empty & ~(d | d << s | d >> s)
    white_moves = pos.side == "w"
    # the packed fields: white at bit length + SHIFT, black at SHIFT
    tail = (0 if white_moves else SIDE_BIT) ^ SIDE_BIT | size_code(g) << 1 | 1
    if white_moves:
        mine_at, theirs_at, mine, theirs = length + SHIFT, SHIFT, white, black
    else:
        mine_at, theirs_at, mine, theirs = SHIFT, length + SHIFT, black, white
    e = empty | empty << 1 | empty >> 1
    droppable = theirs & (e | e << s | e >> s)
    values: list[int] = []  # the successors' packed integers
    push = values.append
    # the free points, each as the bit it sets in a successor
    frees = []
    free <<= mine_at
    while free:
        f = free & -free
        free ^= f
        frees.append(f)
    if not droppable:
        base = white << (length + SHIFT) | black << SHIFT | tail
        values = [base | f for f in frees]
    else:
        near, around = _tables(g)
        mine_part = mine << mine_at
        theirs_part = theirs << theirs_at
        extend = values.extend
        while droppable:
            x = droppable & -droppable
            droppable ^= x
            ys = near[x.bit_length() - 1] & empty
            gained = mine_part | x << mine_at | tail
            kept = theirs_part ^ x << theirs_at
            while ys:
                y = ys & -ys
                ys ^= y
                done = gained | kept | y << theirs_at
                if frees:
                    spoiled = around[y.bit_length() - 1] << mine_at
                    left = [done | f for f in frees if not f & spoiled]
                    if left:
                        extend(left)
                        continue
                push(done)
    return frozenset(map(int.__new__, repeat(DropperPosition), values))


@cache
def _tables(g: Grid) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per bit (not per index): the neighbours' mask and the point-and-neighbours mask."""
    last = g.length - 1
    near = [0] * g.length
    around = [0] * g.length
    for k in range(g.length):
        near[last - k] = g.neighbours[k]
        around[last - k] = g.around[k]
    return tuple(near), tuple(around)


def count_turns(pos: DropperPosition) -> int:
    """How many legal turns (= successors) ``pos`` has, without making them."""
    g = pos.grid
    b = board_of(pos)
    if not b.droppable:
        return b.free.bit_count()
    neighbours, around, free, empty = g.neighbours, g.around, b.free, b.empty
    total = 0
    for x in g.indexes(b.droppable):
        for y in g.indexes(neighbours[x] & empty):
            total += (free & ~around[y]).bit_count() or 1
    return total


def group_sizes(pos: DropperPosition, colour: str) -> list[int]:
    """The sizes of ``colour``'s orthogonally connected groups, largest first."""
    g = pos.grid
    stones = pos.white if colour == "w" else pos.black
    sizes = []
    while stones:
        group = 1 << (stones.bit_length() - 1)
        while True:
            grown = g.grow(group) & stones
            if grown == group:
                break
            group = grown
        stones &= ~group
        sizes.append(group.bit_count())
    sizes.sort(reverse=True)
    return sizes


def is_over(pos: DropperPosition) -> bool:
    """True when the side to move has no turn (no drop, no free point)."""
    b = board_of(pos)
    return not b.droppable and not b.free
