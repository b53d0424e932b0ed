"""A Dropper turn built one physical act at a time.

The acts, in order (section 4 of the rules):

1. *tap* the opponent stone X to drop on: text ``"d5"``, nothing on the
   board changes yet;
2. *push* it to the empty neighbour Y: text ``">c5"``; the opponent stone
   moves to Y and the mover's new stone stands on X, so the step's changes
   are ``{Y: opponent, X: mover}``;
3. *free stone* F, when a free point remains after the drop: text ``"+g5"``,
   changes ``{F: mover}``.

When no drop is possible the turn is a single free stone: text ``"d5"``,
changes ``{d5: mover}``. Joined, the step texts are the turn text.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Self

from companion.games.base import IllegalTurn, Step
from companion.games.dropper.engine import board_of
from companion.games.dropper.position import OTHER, DropperPosition
from companion.games.dropper.turns import colour_name, normalise

LOGGER = logging.getLogger(__name__)

PART = re.compile(r"[>+]?[a-z][0-9]{1,9}")

TAP, PUSH, FREE, DONE, OVER, FREE_ONLY = "tap", "push", "free", "done", "over", "free-only"


@dataclass(frozen=True)
class DropperBuilder:
    """An immutable, partly built turn; :meth:`add` returns the builder one step on."""

    start: DropperPosition
    position: DropperPosition
    steps: tuple[Step, ...] = ()
    x: int = -1
    """The dropped-on point's index, once tapped."""
    y: int = -1
    """The push point's index, once pushed."""

    @property
    def stage(self) -> str:
        """What comes next: ``tap``, ``push``, ``free``, ``free-only``, ``done`` or ``over``."""
        b = board_of(self.start)
        if not self.steps:
            if b.droppable:
                return TAP
            return FREE_ONLY if b.free else OVER
        if self.x < 0 or len(self.steps) == 3:
            return DONE
        if self.y < 0:
            return PUSH
        if len(self.steps) == 2 and b.free & ~self.start.grid.around[self.y]:
            return FREE
        return DONE

    @property
    def complete(self) -> bool:
        return self.stage == DONE

    @property
    def message(self) -> str:
        start = self.start
        g = start.grid
        mover, opponent = colour_name(start.side), colour_name(OTHER[start.side])
        stage = self.stage
        if stage == TAP:
            return (f"{mover}: drop on a {opponent} stone: tap a {opponent} stone "
                    "that has an empty neighbour")
        if stage == PUSH:
            x = g.names[self.x]
            return (f"{mover}: push the {opponent} stone on {x} to an empty neighbour; "
                    f"{mover}'s new stone goes on {x}")
        if stage == FREE:
            return (f"{mover}: put a free stone on a point whose neighbours are all empty "
                    f"({len(self.next_steps())} such points)")
        if stage == FREE_ONLY:
            return (f"{mover}: no {opponent} stone can be dropped on; put a free stone "
                    "on a point whose neighbours are all empty")
        if stage == OVER:
            return f"the game is over: {mover} has no turn"
        return f"the turn is complete: {self.turn()}"

    def next_steps(self) -> tuple[Step, ...]:
        start = self.start
        g = start.grid
        names = g.names
        b = board_of(start)
        me, them = start.side, OTHER[start.side]
        mover, opponent = colour_name(me), colour_name(them)
        stage = self.stage
        if stage == TAP:
            return tuple(
                Step(names[x], {}, f"drop on the {opponent} stone on {names[x]}")
                for x in g.indexes(b.droppable))
        if stage == PUSH:
            x = names[self.x]
            return tuple(
                Step(f">{names[y]}", {names[y]: them, x: me},
                     f"push the {opponent} stone from {x} to {names[y]} "
                     f"and put a {mover} stone on {x}")
                for y in g.indexes(g.neighbours[self.x] & b.empty))
        if stage == FREE:
            left = b.free & ~g.around[self.y]
            return tuple(
                Step(f"+{names[f]}", {names[f]: me}, f"put a free {mover} stone on {names[f]}")
                for f in g.indexes(left))
        if stage == FREE_ONLY:
            return tuple(
                Step(names[f], {names[f]: me}, f"put a free {mover} stone on {names[f]}")
                for f in g.indexes(b.free))
        return ()

    def add(self, step: Step | str) -> Self:
        """One more step (a :class:`Step` or its text). A text may hold several
        steps (``"d5>c5"``); the ``>`` and ``+`` marks may be left out."""
        text = step.text if isinstance(step, Step) else step
        bare = normalise(self.start, text)
        parts = PART.findall(bare)
        if not parts or "".join(parts) != bare:
            raise IllegalTurn(
                f"{text.strip()!r} is not a step: expected a point such as d5 "
                "(or >c5 for the push, +g5 for the free stone)")
        builder = self
        for part in parts:
            builder = builder._add_one(part)
        return builder

    def _add_one(self, part: str) -> Self:
        stage = self.stage
        if stage in (DONE, OVER):
            raise IllegalTurn(f"{part!r}: {self.message}; no more steps")
        mark = {PUSH: ">", FREE: "+"}.get(stage, "")
        if part[0] in ">+" and part[0] != mark:
            wanted = {TAP: "tap the stone to drop on", PUSH: "the push (>Y)",
                      FREE: "the free stone (+F)", FREE_ONLY: "a free stone"}[stage]
            raise IllegalTurn(f"{part!r} is out of order: next is {wanted}")
        point = part.lstrip(">+")
        for candidate in self.next_steps():
            if candidate.text.lstrip(">+") == point:
                return self._after(candidate)
        raise IllegalTurn(self._refusal(stage, point))

    def _after(self, step: Step) -> Self:
        g = self.start.grid
        chars = list(self.position.board)
        for cell, content in step.changes.items():
            chars[g.index[cell]] = content
        stage = self.stage
        x = g.index[step.text] if stage == TAP else self.x
        y = g.index[step.text[1:]] if stage == PUSH else self.y
        steps = (*self.steps, step)
        board = "".join(chars)
        builder = type(self)(self.start, DropperPosition(board, self.start.side), steps, x, y)
        if builder.stage == DONE:
            # the turn is over: the board now shows the position the turn reaches
            after = DropperPosition(board, OTHER[self.start.side])
            return type(self)(self.start, after, steps, x, y)
        return builder

    def _refusal(self, stage: str, point: str) -> str:
        start = self.start
        g = start.grid
        mover, opponent = colour_name(start.side), colour_name(OTHER[start.side])
        if point not in g.index:
            return f"{point} is off the {g.width} x {g.height} board"
        content = self.position.at(point)
        if stage == TAP:
            if content != OTHER[start.side]:
                what = "is empty" if content == "." else f"holds {mover}'s own stone"
                return f"cannot drop on {point}: it {what}; tap a {opponent} stone"
            return (f"cannot drop on {point}: the {opponent} stone there has no empty "
                    "neighbour to be pushed to")
        if stage == PUSH:
            x = g.names[self.x]
            if not g.neighbours[self.x] & g.bit(g.index[point]):
                return f"cannot push the stone on {x} to {point}: {point} is not next to {x}"
            return f"cannot push the stone on {x} to {point}: {point} is not empty"
        if content != ".":
            return f"the free stone cannot go on {point}: it holds a stone"
        return (f"the free stone cannot go on {point}: a neighbour holds a stone "
                "(a free point and all its neighbours are empty)")

    def turn(self) -> str:
        if not self.complete:
            raise IllegalTurn(f"the turn is not complete: {self.message}")
        return "".join(step.text for step in self.steps)
