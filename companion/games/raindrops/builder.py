"""The step-wise turn builder: one placement (or one slide) at a time.

Each step lifts a piece and puts it down (``b1-d1``); the builder offers
only steps after which a legal end is still possible, says when the player
may stop, and refuses anything else with the rule it breaks.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Self

from companion.games.base import IllegalTurn, Step
from companion.games.raindrops.engine import expand, viable
from companion.games.raindrops.geometry import bits
from companion.games.raindrops.position import SIDE_NAMES, RaindropsPosition
from companion.games.raindrops.turns import (
    Chain,
    apply_step,
    opening,
    parse_turn,
    path_text,
    step_text,
    stop_reason,
)
from companion.games.raindrops.units import Context, slides

LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True)
class RaindropsBuilder:
    """A Raindrops turn being built. Immutable: :meth:`add` returns a new builder."""

    ctx: Context = field(repr=False, compare=False)
    chain: Chain
    steps: tuple[Step, ...] = ()

    @classmethod
    def new(cls, pos: RaindropsPosition) -> RaindropsBuilder:
        ctx = Context(pos)
        return cls(ctx, opening(ctx))

    @property
    def start(self) -> RaindropsPosition:
        return self.ctx.pos

    @property
    def position(self) -> RaindropsPosition:
        """The board after the steps so far; the other side to move once the turn may end."""
        after = self.ctx.position_after(self.chain.state[0])
        if self.complete:
            return after
        return RaindropsPosition(after.size, after.board, self.ctx.pos.side)

    @property
    def complete(self) -> bool:
        return bool(self.chain.path) and self.chain.legal

    @property
    def message(self) -> str:
        names = self.ctx.g.names
        colour = SIDE_NAMES[self.ctx.pos.side].capitalize()
        chain = self.chain
        if chain.plan is None:
            return (f"{colour} to move: slide a singleton along its row or column, or lift a "
                    "piece of a group and place it on one of the group's rows or columns")
        if chain.ended:
            return f"the turn has ended ({chain.ended}): confirm it"
        own, _, last, dirs, _ = chain.state
        ahead = sorted({x for d in dirs if (x := self.ctx.g.next_point[d][last]) >= 0
                        and not own >> x & 1})
        where = " or ".join(names[x] for x in ahead)
        if chain.legal:
            if not self.next_steps():
                return "confirm the turn"
            return f"confirm the turn, or go on: lift a piece of the group and place it on {where}"
        why = stop_reason(self.ctx, chain)
        return f"go on: lift a piece of the group and place it on {where} ({why})"

    def next_steps(self) -> tuple[Step, ...]:
        ctx = self.ctx
        chain = self.chain
        if chain.ended:
            return ()
        found: list[tuple[int, int]] = []
        if chain.plan is None:
            for plan in ctx.plans:
                if plan.singleton:
                    s = plan.mask.bit_length() - 1
                    found.extend((s, to) for to, _ in slides(ctx, plan))
                    continue
                for child in expand(ctx, plan, (ctx.own, plan.mask, -1, (), False)):
                    q, at, own2, group2, go, reduced, legal, _ = child
                    if viable(ctx, plan, (own2, group2, at, go, reduced), legal):
                        found.append((q, at))
        else:
            plan = chain.plan
            for child in expand(ctx, plan, chain.state):
                q, at, own2, group2, go, reduced, legal, _ = child
                if viable(ctx, plan, (own2, group2, at, go, reduced), legal):
                    found.append((q, at))
        found.sort()
        return tuple(self._step(q, at) for q, at in found)

    def _step(self, frm: int, to: int) -> Step:
        ctx = self.ctx
        names = ctx.g.names
        colour = ctx.pos.side
        changes = {names[frm]: ".", names[to]: colour}
        note = f"move the {SIDE_NAMES[colour]} piece from {names[frm]} to {names[to]}"
        if ctx.enemy >> to & 1:
            unit = ctx.enemy_unit_at[to]
            for x in bits(unit & ~(1 << to)):
                changes[names[x]] = "."
            note += f", capturing the enemy unit of {unit.bit_count()}"
        return Step(step_text(ctx, frm, to), changes, note)

    def add(self, step: Step | str) -> Self:
        text = (step if isinstance(step, str) else step.text).strip().lower()
        parsed = parse_turn(self.ctx, text)
        if len(parsed) != 1:
            raise IllegalTurn(f"{text!r}: add one step at a time")
        frm, sep, to = parsed[0]
        chain = apply_step(self.ctx, self.chain, frm, sep, to)
        offered = {s.text: s for s in self.next_steps()}
        canonical = step_text(self.ctx, frm, to)
        if canonical not in offered:
            raise IllegalTurn(f"{canonical} keeps to the placement rules, but no legal turn can "
                              f"end after it ({stop_reason(self.ctx, chain)})")
        return type(self)(self.ctx, chain, (*self.steps, offered[canonical]))

    def turn(self) -> str:
        if not self.complete:
            raise IllegalTurn(f"the turn is not complete: {stop_reason(self.ctx, self.chain)}")
        return path_text(self.ctx, self.chain.path)
