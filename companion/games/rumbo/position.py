"""A Rumbo position: stones, the phase or side to move, the komi, the claims, the options,
and reading its text with every validity rule of the rules file (section 10).

The canonical text is ``rumbo STONES SIDE KOMI CLAIMS [OPTIONS]`` (rules file,
section 10). Two positions are equal exactly when their canonical texts are.
Reading is lenient where the rules file says a reader should be: extra whitespace
between fields, a leading ``+`` or leading zeros in the komi, options in any order.
Everything else that is wrong raises :class:`PositionError` naming the field.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from companion.games.base import PositionError
from companion.games.rumbo.geometry import MAX_SIZE, MIN_SIZE, Geometry, geometry
from companion.games.rumbo.groups import Groups, analyse

LOGGER = logging.getLogger(__name__)

NAME = "rumbo"

PROPOSER = "proposer"
"""``to_move`` in phase ``k``: the person who names the komi."""
CHOOSER = "chooser"
"""``to_move`` in phase ``s``: the person who picks a side."""
VERTICAL = "vertical"
HORIZONTAL = "horizontal"

MOVER: Mapping[str, str] = {"k": PROPOSER, "s": CHOOSER, "v": VERTICAL, "h": HORIZONTAL}
"""SIDE field -> ``to_move``."""

OPTION_NAMES = ("edgeholes", "nostraight")
"""The on/off options, in canonical (sorted) order."""


_new = object.__new__
_set = object.__setattr__


@dataclass(frozen=True)
class RumboPosition:
    """One position. Build it with :func:`parse` or the rules' ``start``.

    ``stones`` and ``claims`` are the STONES and CLAIMS fields of the position
    text as they are written: row N first, each row from column a, rows joined
    by ``/`` (see :mod:`companion.games.rumbo.geometry` for the indices).
    """

    size: int
    stones: str
    """``.`` empty, ``b`` black, ``w`` white."""
    side: str
    """``k`` (komi to name), ``s`` (side to choose), ``v`` or ``h`` (to place)."""
    komi: int | None
    """``None`` exactly in phase ``k``."""
    claims: str
    """``v`` / ``h``: the stone's group is claimed by that player; ``.`` otherwise."""
    edgeholes: bool = False
    nostraight: bool = False

    @classmethod
    def fast(cls, fields: dict[str, object], stones: str) -> RumboPosition:
        """A position of ``fields`` (every field but the stones, as in :meth:`__init__`)
        with ``stones``, made without the checks of the dataclass's constructor."""
        pos = _new(cls)
        values = dict(fields)
        values["stones"] = stones
        _set(pos, "__dict__", values)
        return pos

    def __hash__(self) -> int:
        return hash(self.stones)  # equal positions have equal stones

    @property
    def to_move(self) -> str:
        """``"proposer"`` (phase k), ``"chooser"`` (phase s), ``"vertical"`` or ``"horizontal"``."""
        return MOVER[self.side]

    @property
    def geometry(self) -> Geometry:
        return geometry(self.size)

    @property
    def setup(self) -> bool:
        """True in the setup phases (komi still to name, or side still to choose)."""
        return self.side in ("k", "s")

    @property
    def full(self) -> bool:
        """True when every point holds a stone: the game is over."""
        return "." not in self.stones

    @cached_property
    def groups(self) -> Groups:
        """The groups of the board (computed once)."""
        return analyse(self.stones, geometry(self.size))

    def text(self) -> str:
        """The canonical position text."""
        komi = "?" if self.komi is None else self.komi
        if self.edgeholes or self.nostraight:
            options = ",".join(name for name in OPTION_NAMES if getattr(self, name))
            return f"{NAME} {self.stones} {self.side} {komi} {self.claims} {options}"
        return f"{NAME} {self.stones} {self.side} {komi} {self.claims}"

    def cells(self) -> Mapping[str, str]:
        """Every point (``"a9"``...) and its stone: ``.``, ``b`` or ``w``; claims are not seen."""
        geo = geometry(self.size)
        return {geo.names[i]: self.stones[i] for i in geo.points}

    def stone(self, point: str) -> str:
        """The stone on a point (``"c3"``): ``.``, ``b`` or ``w``; ValueError for a bad point."""
        return self.stones[geometry(self.size).point(point)]

    def claim(self, point: str) -> str:
        """The claim mark on a point: ``v``, ``h`` or ``.``; ValueError for a bad point."""
        return self.claims[geometry(self.size).point(point)]

    def options(self) -> dict[str, str]:
        """The start options that rebuild this game's rules: ``size``, ``edgeholes``, ..."""
        values = {"size": str(self.size)}
        for name in OPTION_NAMES:
            values[name] = "on" if getattr(self, name) else "off"
        return values

    def __str__(self) -> str:
        return self.text()


# ----------------------------------------------------------------------
# Reading position text


_KOMI = re.compile(r"[+-]?[0-9]{1,9}")
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
