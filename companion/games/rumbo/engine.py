"""Rumbo's placement: place, fill holes, claim (rules file, section 5).

Judged from the position's group tables (computed once per position), so a
placement costs a few neighbour look-ups: only the first stone's empty
neighbours can become holes, and only the first stone's own group and the
other-coloured groups touching it can lose their last liberty (section 11).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from companion.games.rumbo.geometry import DIRECTIONS, NONE
from companion.games.rumbo.position import HORIZONTAL, VERTICAL, RumboPosition

LOGGER = logging.getLogger(__name__)

N_BIT, E_BIT, S_BIT, W_BIT = 1, 2, 4, 8
"""Direction-set bits, in the order of :data:`DIRECTIONS`."""

_OWNERS = {
    N_BIT: "v", S_BIT: "v", E_BIT: "h", W_BIT: "h",
    N_BIT | E_BIT: "v", S_BIT | W_BIT: "v", N_BIT | W_BIT: "h", S_BIT | E_BIT: "h",
    N_BIT | S_BIT | E_BIT: "v", N_BIT | S_BIT | W_BIT: "v",
    E_BIT | W_BIT | N_BIT: "h", E_BIT | W_BIT | S_BIT: "h",
}
OWNER_DEFAULT: tuple[str, ...] = tuple(
    _OWNERS.get(bits, {N_BIT | S_BIT: "v", E_BIT | W_BIT: "h"}.get(bits, ""))
    for bits in range(16))
"""Direction-set bits -> ``"v"``, ``"h"`` or ``""`` (nobody): the table of section 6 (R10, R11)."""
OWNER_NOSTRAIGHT: tuple[str, ...] = tuple(_OWNERS.get(bits, "") for bits in range(16))
"""The same under the option ``nostraight``: N+S and E+W belong to nobody."""

PLAYER_OF = {"v": VERTICAL, "h": HORIZONTAL}
NEXT_SIDE = {"v": "h", "h": "v"}
OTHER = {"b": "w", "w": "b"}


def direction_name(bits: int) -> str:
    """``"N+E"``; ``"none"`` for the empty set."""
    return "+".join(d for i, d in enumerate(DIRECTIONS) if bits >> i & 1) or "none"


@dataclass(frozen=True)
class Death:
    """A group that lost its last liberty in a placement, judged by the table."""

    owner: str
    """``"v"``, ``"h"``, or ``""``: nobody owns its direction set, it stays unclaimed."""
    colour: str
    """``"b"`` or ``"w"``."""
    members: tuple[int, ...]
    """Its point indices, in reading order (after filling)."""
    directions: int
    """Its direction set as bits (:data:`N_BIT`...)."""


@dataclass(frozen=True)
class Placement:
    """What one placement did, in point indices."""

    point: int
    colour: str
    filled: tuple[int, ...]
    """Holes filled with ``colour``, in reading order."""
    deaths: tuple[Death, ...]
    """Groups that lost their last liberty: the first stone's own group first, if it did."""
    after: RumboPosition


def place(pos: RumboPosition, p: int, colour: str) -> Placement:
    """Play ``colour`` on the empty point ``p`` in the play phase (the caller checks legality)."""
    geo = pos.geometry
    stones = pos.stones
    groups = pos.groups
    of, liberties, members = groups.of, groups.liberties, groups.members
    toward = geo.toward[p]
    bit = 1 << p
    fills = _fills(pos, p, colour)
    fill_bits = 0
    for q in fills:
        fill_bits |= 1 << q
    own: set[int] = set()
    libs = 0
    own_dirs = 0
    for d, q in enumerate(toward):
        if q == NONE:
            continue
        s = stones[q]
        if s == colour:
            own.add(of[q])
            own_dirs |= 1 << d
        elif s == ".":
            if fill_bits >> q & 1:
                own_dirs |= 1 << d
            else:
                libs |= 1 << q
    for q in fills:
        for r in geo.neighbours[q]:
            if r != p:
                own.add(of[r])
    for g in own:
        libs |= liberties[g]
    libs &= ~(bit | fill_bits)
    table = OWNER_NOSTRAIGHT if pos.nostraight else OWNER_DEFAULT
    deaths: list[Death] = []
    if not libs:
        cells = {p, *fills}
        for g in own:
            cells.update(members[g])
        deaths.append(Death(table[own_dirs], colour, tuple(sorted(cells)), own_dirs))
    other = OTHER[colour]
    seen: set[int] = set()
    for q in toward:
        if q == NONE or stones[q] != other:
            continue
        g = of[q]
        if g in seen or liberties[g] != bit:
            continue
        seen.add(g)
        dirs = 0
        for d, r in enumerate(toward):
            if r != NONE and of[r] == g:
                dirs |= 1 << d
        deaths.append(Death(table[dirs], other, members[g], dirs))
    board = list(stones)
    board[p] = colour
    for q in fills:
        board[q] = colour
    claims = pos.claims
    if any(death.owner for death in deaths):
        marks = list(claims)
        for death in deaths:
            if death.owner:
                for q in death.members:
                    marks[q] = death.owner
        claims = "".join(marks)
    after = RumboPosition(pos.size, "".join(board), NEXT_SIDE[pos.side], pos.komi, claims,
                          pos.edgeholes, pos.nostraight)
    return Placement(p, colour, tuple(sorted(fills)), tuple(deaths), after)


def _fills(pos: RumboPosition, p: int, colour: str) -> list[int]:
    geo = pos.geometry
    stones = pos.stones
    edgeholes = pos.edgeholes
    fills: list[int] = []
    for q in geo.neighbours[p]:
        if stones[q] != "." or not (edgeholes or geo.interior[q]):
            continue
        if all(r == p or stones[r] == colour for r in geo.neighbours[q]):
            fills.append(q)
    return fills


def successors(pos: RumboPosition) -> set[RumboPosition]:
    """Every distinct position one placement reaches (play phase, board not full).

    The same judgement as :func:`place`, settled once per position for the
    common case: from the group tables, each empty point knows the holes a
    stone of each colour there would fill, whether it is the last liberty of a
    group, and whether a new stone there keeps a liberty; a placement that
    fills nothing and kills nothing (most of them) is then only the new stone
    written into the text. The others go through :func:`place`.
    """
    geo = pos.geometry
    stones = pos.stones
    groups = pos.groups
    of, liberties = groups.of, groups.liberties
    neighbours = geo.neighbours
    interior = geo.interior
    edgeholes = pos.edgeholes
    # Holes: an empty point q with exactly one empty neighbour p and every stone
    # neighbour of one colour c becomes a hole when c is placed on p.
    holes_at: dict[int, str] = {}
    for q, here in enumerate(stones):
        if here != "." or not (edgeholes or interior[q]):
            continue
        free = -1
        colours = set()
        for r in neighbours[q]:
            s = stones[r]
            if s == ".":
                if free >= 0:
                    break
                free = r
            else:
                colours.add(s)
        else:
            if free >= 0 and len(colours) == 1:
                holes_at[free] = holes_at.get(free, "") + colours.pop()
    # Atari: a group whose only liberty is p dies when the other colour is placed on p,
    # and may die with the new stone when the same colour is.
    atari: dict[int, str] = {}
    for gid, libs in enumerate(liberties):
        if libs and not libs & (libs - 1):
            p = libs.bit_length() - 1
            colour = stones[groups.members[gid][0]]
            atari[p] = atari.get(p, "") + colour
    found: set[RumboPosition] = set()
    add = found.add
    side = NEXT_SIDE[pos.side]
    template = {"size": pos.size, "side": side, "komi": pos.komi, "claims": pos.claims,
                "edgeholes": edgeholes, "nostraight": pos.nostraight}
    new = object.__new__
    keep = object.__setattr__  # positions made without the dataclass's checks
    cls = RumboPosition
    for p, here in enumerate(stones):
        if here != ".":
            continue
        head, tail = stones[:p], stones[p + 1:]
        near = neighbours[p]
        roomy = False  # an empty neighbour with another empty neighbour: a sure liberty
        for q in near:
            if stones[q] == "." and any(stones[r] == "." for r in neighbours[q] if r != p):
                roomy = True
                break
        holes = holes_at.get(p, "")
        dying = atari.get(p, "")
        for colour in "bw":
            if colour in holes or OTHER[colour] in dying:
                add(place(pos, p, colour).after)
                continue
            if not roomy:
                alive = any(stones[q] == "." for q in near) or any(
                    stones[q] == colour and liberties[of[q]] & ~(1 << p) for q in near)
                if not alive:
                    add(place(pos, p, colour).after)
                    continue
            made = new(cls)
            keep(made, "__dict__", {**template, "stones": head + colour + tail})
            add(made)
    return found
