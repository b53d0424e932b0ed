"""Reading Rumbo position text, with every validity rule of the rules file (section 10).

Lenient where the rules file says a reader should be: extra whitespace between
fields, a leading ``+`` or leading zeros in the komi, options in any order.
Everything else that is wrong raises :class:`PositionError` naming the field.
"""

from __future__ import annotations

import logging
import re

from companion.games.base import PositionError
from companion.games.rumbo.board import MAX_SIZE, MIN_SIZE, Geometry, geometry
from companion.games.rumbo.groups import Groups, analyse
from companion.games.rumbo.position import NAME, OPTION_NAMES, RumboPosition

LOGGER = logging.getLogger(__name__)

_KOMI = re.compile(r"[+-]?[0-9]+")
_COLOUR = {"b": "black", "w": "white"}


def parse_komi(text: str, size: int) -> int:
    """A komi written ``4``, ``-2``, ``+04``...; within -N*N..N*N; ValueError saying why not."""
    if not _KOMI.fullmatch(text):
        raise ValueError(f"komi {text!r} is not a whole number")
    komi = int(text)
    limit = size * size
    if not -limit <= komi <= limit:
        raise ValueError(
            f"komi {komi} is outside -{limit} to {limit} (N*N on {size}x{size})")
    return komi


def _grid(field: str, what: str, allowed: str, size: int | None) -> tuple[int, str]:
    rows = field.split("/")
    n = len(rows) if size is None else size
    if size is None and not MIN_SIZE <= n <= MAX_SIZE:
        raise PositionError(
            f"{what}: the board has {n} row{'s' if n != 1 else ''}; "
            f"{MIN_SIZE} to {MAX_SIZE} are allowed")
    if len(rows) != n:
        raise PositionError(
            f"{what}: {len(rows)} rows, but the stones field has {n} (the same shape is needed)")
    for r, row in enumerate(rows):
        if len(row) != n:
            raise PositionError(
                f"{what}: row {n - r} has {len(row)} points, expected {n} "
                f"(the board is square, {n}x{n})")
        for c, char in enumerate(row):
            if char not in allowed:
                point = f"{'abcdefghijklmnopqrstuvwxyz'[c]}{n - r}"
                listed = ", ".join(repr(a) for a in allowed)
                raise PositionError(
                    f"{what}: {char!r} at {point} is not allowed (only {listed})")
    return n, field


def is_hole(stones: str, q: int, geo: Geometry, edgeholes: bool) -> bool:
    """Whether ``q`` is a hole: empty, its neighbours one colour (four of them unless edgeholes)."""
    if stones[q] != "." or not (edgeholes or geo.interior[q]):
        return False
    around = {stones[r] for r in geo.neighbours[q]}
    return len(around) == 1 and "." not in around


def parse(text: str) -> RumboPosition:
    """The position a Rumbo position text describes; :class:`PositionError` naming the field."""
    fields = text.split()
    if not fields or fields[0] != NAME:
        got = fields[0] if fields else ""
        raise PositionError(f"name field: expected {NAME!r}, got {got!r}")
    if len(fields) not in (5, 6):
        raise PositionError(
            f"expected 5 or 6 fields (rumbo STONES SIDE KOMI CLAIMS [OPTIONS]), "
            f"got {len(fields)}")
    size, stones = _grid(fields[1], "stones field", ".bw", None)
    side = fields[2]
    if side not in ("k", "s", "v", "h"):
        raise PositionError(
            f"side field: {side!r} must be k (name the komi), s (choose a side), "
            f"v (Vertical) or h (Horizontal)")
    komi_text = fields[3]
    komi: int | None
    if komi_text == "?":
        if side != "k":
            raise PositionError(
                "komi field: '?' is only allowed while the komi is still to be named (side k)")
        komi = None
    else:
        if side == "k":
            raise PositionError(
                f"komi field: {komi_text!r} with side k; while the komi is to be named it is '?'")
        try:
            komi = parse_komi(komi_text, size)
        except ValueError as error:
            raise PositionError(f"komi field: {error}") from None
    _, claims = _grid(fields[4], "claims field", ".vh", size)
    for i, (stone, mark) in enumerate(zip(stones, claims, strict=True)):
        if mark != "." and mark != "/" and stone == ".":
            raise PositionError(
                f"claims field: a claim mark {mark!r} on the empty point {geometry(size).names[i]}")
    if side in ("k", "s") and ("b" in stones or "w" in stones):
        raise PositionError(
            f"stones field: the board must be empty during the setup (side {side})")
    options: set[str] = set()
    if len(fields) == 6:
        for name in fields[5].split(","):
            if name not in OPTION_NAMES:
                raise PositionError(
                    f"options field: unknown option {name!r} "
                    f"(known: {', '.join(OPTION_NAMES)})")
            if name in options:
                raise PositionError(f"options field: {name!r} is repeated")
            options.add(name)
    edgeholes = "edgeholes" in options
    groups = check_board(stones, claims, geometry(size), edgeholes)
    pos = RumboPosition(size, stones, side, komi, claims, edgeholes, "nostraight" in options)
    pos.__dict__["groups"] = groups  # the cached_property's slot: computed once, not twice
    return pos


def check_board(stones: str, claims: str, geo: Geometry, edgeholes: bool) -> Groups:
    """No hole, one mark per group, no claimed group with a liberty; :class:`PositionError`.

    Returns the board's groups.
    """
    rule = "" if edgeholes else " (edge points are never holes without edgeholes)"
    for q in geo.points:
        if is_hole(stones, q, geo, edgeholes):
            colour = _COLOUR[stones[geo.neighbours[q][0]]]
            raise PositionError(
                f"stones field: {geo.names[q]} is a hole (every neighbour is {colour}){rule}; "
                f"holes are filled at once, so none can remain after a turn")
    groups = analyse(stones, geo)
    for members, libs in zip(groups.members, groups.liberties, strict=True):
        marks = {claims[p] for p in members}
        where = geo.names[members[0]]
        if len(marks) > 1:
            listed = ", ".join(geo.names[p] for p in members[:8])
            more = ", ..." if len(members) > 8 else ""
            raise PositionError(
                f"claims field: the group at {where} ({listed}{more}) carries different "
                f"marks ({', '.join(repr(m) for m in sorted(marks))}); a claim marks every stone")
        if marks != {"."} and libs:
            liberty = geo.names[(libs & -libs).bit_length() - 1]
            raise PositionError(
                f"claims field: the group at {where} is claimed but still has a liberty "
                f"({liberty}); only groups without liberties are claimed")
    return groups
