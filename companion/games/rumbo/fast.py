"""Rumbo on bit boards: the placement rule for the search, and fast successors.

Bit ``i`` is index ``i`` of the STONES field (see :mod:`companion.games.rumbo.geometry`):
row N first, ``N + 1`` characters a row with the ``/`` separator, which never
holds a stone, so a shift by one moves a stone sideways without wrapping and a
shift by ``N + 1`` moves it a row. A board is ``(black, white, vclaims, hclaims)``
masks; a placement fills holes, flood-fills only the groups that can die (the
first stone's own group and the other colour's groups touching it; rules file,
section 11) and marks the claims by the direction table.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import cache

from companion.games.rumbo.engine import OWNER_DEFAULT, OWNER_NOSTRAIGHT
from companion.games.rumbo.geometry import NONE, geometry

LOGGER = logging.getLogger(__name__)

Board = tuple[int, int, int, int]
"""``(black, white, vertical's claims, horizontal's claims)``."""


@dataclass(frozen=True, eq=False)
class Masks:
    """The bit tables of one board size and rule set."""

    size: int
    stride: int
    valid: int
    """Every point."""
    holeable: int
    """Points that can be holes (interior, or every point under ``edgeholes``)."""
    near: tuple[int, ...]
    """bit index -> mask of its orthogonal neighbours."""
    toward: tuple[tuple[int, int, int, int], ...]
    """bit index -> its neighbour's single-bit mask to the N, E, S, W (0 off the board)."""
    owner: tuple[str, ...]
    """direction-set bits -> ``"v"``, ``"h"`` or ``""``."""
    points: tuple[int, ...]
    """The bit index of every point, in reading order."""


@cache
def masks(size: int, edgeholes: bool = False, nostraight: bool = False) -> Masks:
    geo = geometry(size)
    length = size * (size + 1) - 1
    near = [0] * length
    toward: list[tuple[int, int, int, int]] = [(0, 0, 0, 0)] * length
    valid = 0
    holeable = 0
    for i in geo.points:
        valid |= 1 << i
        if edgeholes or geo.interior[i]:
            holeable |= 1 << i
        t = geo.toward[i]
        toward[i] = (0 if t[0] == NONE else 1 << t[0], 0 if t[1] == NONE else 1 << t[1],
                     0 if t[2] == NONE else 1 << t[2], 0 if t[3] == NONE else 1 << t[3])
        near[i] = toward[i][0] | toward[i][1] | toward[i][2] | toward[i][3]
    return Masks(size, size + 1, valid, holeable, tuple(near), tuple(toward),
                 OWNER_NOSTRAIGHT if nostraight else OWNER_DEFAULT, tuple(geo.points))


def flood(seed: int, within: int, stride: int) -> int:
    """The points of ``within`` orthogonally connected to ``seed``."""
    group = seed
    while True:
        grown = (group | group << 1 | group >> 1 | group << stride | group >> stride) & within
        if grown == group:
            return group
        group = grown


def place(board: Board, p: int, black: bool, m: Masks) -> Board:
    """The board after a stone (black if ``black``) on the empty point of bit index ``p``."""
    b, w, vc, hc = board
    bit = 1 << p
    own, other = (b | bit, w) if black else (w | bit, b)
    stride = m.stride
    empty = m.valid & ~(own | other)
    near = m.near
    around = near[p]
    holes = around & empty & m.holeable
    while holes:
        q = holes & -holes
        holes ^= q
        if not near[q.bit_length() - 1] & ~own:
            own |= q
            empty ^= q
    toward = m.toward[p]
    # the first stone's own group (alive at once when an empty point touches the stone)
    group = 0 if around & empty else flood(bit, own, stride)
    if group and not (group << 1 | group >> 1 | group << stride | group >> stride) & empty:
        dirs = ((toward[0] & group) and 1) | ((toward[1] & group) and 2) | (
            (toward[2] & group) and 4) | ((toward[3] & group) and 8)
        owner = m.owner[dirs]
        if owner == "v":
            vc |= group
        elif owner == "h":
            hc |= group
    touching = around & other
    while touching:
        q = touching & -touching
        if near[q.bit_length() - 1] & empty:  # a liberty of its own: alive
            touching ^= q
            continue
        g = flood(q, other, stride)
        touching &= ~g
        if (g << 1 | g >> 1 | g << stride | g >> stride) & empty:
            continue
        dirs = ((toward[0] & g) and 1) | ((toward[1] & g) and 2) | (
            (toward[2] & g) and 4) | ((toward[3] & g) and 8)
        owner = m.owner[dirs]
        if owner == "v":
            vc |= g
        elif owner == "h":
            hc |= g
    if black:
        return (own, other, vc, hc)
    return (other, own, vc, hc)


def board_of(stones: str, claims: str) -> Board:
    """The masks of the STONES and CLAIMS fields."""
    b = w = vc = hc = 0
    for i, (s, c) in enumerate(zip(stones, claims, strict=True)):
        if s == "b":
            b |= 1 << i
        elif s == "w":
            w |= 1 << i
        if c == "v":
            vc |= 1 << i
        elif c == "h":
            hc |= 1 << i
    return b, w, vc, hc


def fields_of(board: Board, m: Masks) -> tuple[str, str]:
    """The STONES and CLAIMS fields of a board."""
    b, w, vc, hc = board
    stones = []
    claims = []
    size = m.size
    stride = m.stride
    length = size * stride - 1
    for i in range(length):
        if i % stride == size:
            stones.append("/")
            claims.append("/")
            continue
        bit = 1 << i
        stones.append("b" if b & bit else "w" if w & bit else ".")
        claims.append("v" if vc & bit else "h" if hc & bit else ".")
    return "".join(stones), "".join(claims)
