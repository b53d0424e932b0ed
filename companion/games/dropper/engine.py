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
from typing import NamedTuple

from companion.games.dropper.position import OTHER, DropperPosition

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
    me, them = pos.side, OTHER[pos.side]
    chars = list(pos.board)
    if x >= 0:
        chars[x] = me
        chars[y] = them
    if f >= 0:
        chars[f] = me
    return DropperPosition("".join(chars), them)


def successors(pos: DropperPosition) -> frozenset[DropperPosition]:
    """Every position one legal turn reaches (one per turn: rules 8.4)."""
    g = pos.grid
    b = board_of(pos)
    me, them = pos.side, OTHER[pos.side]
    s = pos.board
    new = DropperPosition
    last = g.length - 1
    out: list[DropperPosition] = []
    add = out.append
    free = b.free
    if not b.droppable:
        while free:
            top = free.bit_length() - 1
            free ^= 1 << top
            k = last - top
            add(new(s[:k] + me + s[k + 1:], them))
        return frozenset(out)
    neighbours, around = g.neighbours, g.around
    empty = b.empty
    xs = b.droppable
    while xs:
        top = xs.bit_length() - 1
        xs ^= 1 << top
        x = last - top
        ys = neighbours[x] & empty
        while ys:
            top = ys.bit_length() - 1
            ys ^= 1 << top
            y = last - top
            if x < y:
                t = s[:x] + me + s[x + 1:y] + them + s[y + 1:]
            else:
                t = s[:y] + them + s[y + 1:x] + me + s[x + 1:]
            left = free & ~around[y]
            if not left:
                add(new(t, them))
                continue
            while left:
                top = left.bit_length() - 1
                left ^= 1 << top
                k = last - top
                add(new(t[:k] + me + t[k + 1:], them))
    return frozenset(out)


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
