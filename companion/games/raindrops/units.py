"""A position taken apart for the turn search: units, engagement (E1), singleton slides.

:class:`Context` holds the side to move's pieces and the enemy's as bit masks,
every unit, and a :class:`Plan` per unit of the mover: whether it is engaged
(the closed form E1 of the rules file, section 2) and which points and lines
can serve it. Everything is worked out once per position.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from companion.games.raindrops.geometry import Geometry, bits, geometry
from companion.games.raindrops.position import OTHER, RaindropsPosition

LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True)
class Plan:
    """One unit of the mover, worked out once per position."""

    mask: int
    engaged: bool
    goal: int
    """Engaged: the points where a placement joins or captures. Unengaged: the
    points whose row or column holds an E1 target (a piece there engages it)."""
    rule_rows: int
    """Every row and column of the unit (the movement lines of the rules)."""
    rule_cols: int
    row_ok: int
    """The unit's rows and columns a chain can usefully take (engaged: those
    holding a point of ``goal``)."""
    col_ok: int
    firsts: int
    """Candidate first placement points (on a useful line, next to the unit, not own)."""

    @property
    def singleton(self) -> bool:
        return self.mask & (self.mask - 1) == 0


@dataclass
class Context:
    """A position taken apart for the search: masks, units, plans."""

    pos: RaindropsPosition
    g: Geometry = field(init=False)
    own: int = field(init=False)
    enemy: int = field(init=False)
    plans: list[Plan] = field(init=False)
    unit_at: list[int] = field(init=False)
    """Point -> the mover's unit there (0 if none)."""
    enemy_unit_at: list[int] = field(init=False)
    dead: set[tuple[int, int, tuple[int, ...]]] = field(init=False, default_factory=set)
    """States :func:`viable` found to have no legal end (memo)."""
    _bytes: bytes = field(init=False, repr=False)
    _mine: int = field(init=False, repr=False)
    _other: str = field(init=False, repr=False)
    _unit_points: dict[int, list[int]] = field(init=False, repr=False, default_factory=dict)

    def __post_init__(self) -> None:
        pos = self.pos
        g = self.g = geometry(pos.size)
        own = self.own = pos.mask(pos.side)
        enemy = self.enemy = pos.mask(OTHER[pos.side])
        units = g.components(own)
        self.unit_at = [0] * (g.n * g.n)
        for u in units:
            for x in bits(u):
                self.unit_at[x] = u
        self.enemy_unit_at = [0] * (g.n * g.n)
        for u in g.components(enemy):
            for x in bits(u):
                self.enemy_unit_at[x] = u
        self.plans = [self._plan(u) for u in units]
        self._bytes = pos.board.encode("ascii")
        self._mine = ord(pos.side)
        self._other = OTHER[pos.side]

    def _plan(self, unit: int) -> Plan:
        g, own, enemy = self.g, self.own, self.enemy
        friends = own & ~unit
        near = g.dilate(friends)
        empty = g.full & ~own & ~enemy
        targets = enemy | friends | (near & empty)
        rows = 0
        cols = 0
        for row in g.rows:
            if unit & row:
                rows |= row
        for col in g.cols:
            if unit & col:
                cols |= col
        engaged = bool((rows | cols) & targets)
        if engaged:
            goal = enemy | (near & ~own)
            row_ok = 0
            col_ok = 0
            for row in g.rows:
                if row & rows and row & goal:
                    row_ok |= row
            for col in g.cols:
                if col & cols and col & goal:
                    col_ok |= col
        else:
            goal = g.lines_of(targets)
            row_ok, col_ok = rows, cols
        firsts = (row_ok | col_ok) & ~own & g.dilate(unit)
        return Plan(unit, engaged, goal, rows, cols, row_ok, col_ok, firsts)

    def plan_at(self, point: int) -> Plan | None:
        """The plan of the mover's unit on ``point``, if any."""
        unit = self.unit_at[point]
        for plan in self.plans:
            if plan.mask == unit:
                return plan
        return None

    def final_enemy(self, own: int) -> int:
        """The enemy pieces left once the mover's pieces are ``own`` (a capture removes a unit)."""
        hit = own & self.enemy
        if not hit:
            return self.enemy
        return self.enemy & ~self.enemy_unit_at[(hit & -hit).bit_length() - 1]

    def position_after(self, own: int) -> RaindropsPosition:
        """The position (other side to move) once the mover's pieces are ``own``."""
        board = bytearray(self._bytes)
        gone = self.own & ~own
        new = own & ~self.own
        while gone:
            low = gone & -gone
            board[low.bit_length() - 1] = 46
            gone ^= low
        hit = new & self.enemy
        if hit:
            unit = self.enemy_unit_at[(hit & -hit).bit_length() - 1]
            points = self._unit_points.get(unit)
            if points is None:
                points = self._unit_points[unit] = bits(unit)
            for x in points:
                board[x] = 46
        mine = self._mine
        while new:
            low = new & -new
            board[low.bit_length() - 1] = mine
            new ^= low
        return RaindropsPosition(self.pos.size, board.decode("ascii"), self._other)


def engaged_units(pos: RaindropsPosition, colour: str) -> tuple[int, int]:
    """``(units, unengaged units)`` of ``colour`` in ``pos`` (E1, for that colour)."""
    view = RaindropsPosition(pos.size, pos.board, colour)
    ctx = Context(view)
    return len(ctx.plans), sum(1 for plan in ctx.plans if not plan.engaged)


def unit_count(pos: RaindropsPosition, colour: str) -> int:
    """How many units ``colour`` has."""
    return len(geometry(pos.size).components(pos.mask(colour)))


def slides(ctx: Context, plan: Plan) -> list[tuple[int, int]]:
    """A singleton's legal slides as ``(to, own after)``, in point order."""
    g, own, enemy = ctx.g, ctx.own, ctx.enemy
    s = plan.mask.bit_length() - 1
    friends = own & ~plan.mask
    out: list[tuple[int, int]] = []
    for d in g.directions:
        nxt = g.next_point[d]
        x = nxt[s]
        while x >= 0:
            xb = 1 << x
            if own & xb:
                break
            if enemy & xb:
                out.append((x, own ^ plan.mask | xb))
                break
            if (g.neighbours[x] & friends) if plan.engaged else (plan.goal & xb):
                out.append((x, own ^ plan.mask | xb))
            x = nxt[x]
    out.sort()
    return out
