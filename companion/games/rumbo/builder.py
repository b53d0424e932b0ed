"""The Rumbo turn builder: a turn is one step (naming the komi, choosing a side, or a
placement), its note saying what it fills and claims."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Self

from companion.games.base import IllegalTurn, Step
from companion.games.rumbo import advice, engine
from companion.games.rumbo.position import RumboPosition
from companion.games.rumbo.turns import all_turns, effects_of, expected, play_turn, read_turn

LOGGER = logging.getLogger(__name__)

_SIDE_NOTES = {
    "v": "the chooser takes Vertical (places first); the proposer plays Horizontal",
    "h": "the chooser takes Horizontal (gets the komi); the proposer plays Vertical",
}



@dataclass(frozen=True)
class RumboBuilder:
    """A Rumbo turn as one step: naming the komi, choosing a side, or a placement.

    A placement step's ``changes`` hold the first stone and every hole it
    filled; its ``note`` says what was filled and which groups were claimed, by whom.
    """

    start: RumboPosition
    position: RumboPosition
    steps: tuple[Step, ...] = ()

    @property
    def message(self) -> str:
        if self.steps:
            return f"{self.steps[0].note}. Confirm the turn."
        pos = self.start
        if pos.full:
            return "The game is over: the board is full."
        if pos.side == "k":
            return "Proposer: " + advice.parity_advice(pos.size)
        if pos.side == "s":
            return (f"Chooser: the komi is {pos.komi}. Take a side: side=v (Vertical, places "
                    f"first) or side=h (Horizontal, gets the komi).")
        mover = "Vertical" if pos.side == "v" else "Horizontal"
        return f"{mover}: place a black or a white stone on an empty point (b@c3 or w@c3)."

    @property
    def complete(self) -> bool:
        return bool(self.steps)

    def next_steps(self) -> tuple[Step, ...]:
        if self.steps:
            return ()
        return tuple(self._step(turn) for turn in all_turns(self.start))

    def _step(self, turn: str) -> Step:
        pos = self.start
        read = read_turn(pos, turn)
        if read.kind == "komi":
            assert read.komi is not None
            warning = advice.komi_advice(pos.size, read.komi)
            note = f"the proposer names the komi {read.komi}"
            return Step(read.text, {}, note + (f" ({warning})" if warning else ""))
        if read.kind == "side":
            assert read.side is not None
            return Step(read.text, {}, _SIDE_NOTES[read.side])
        assert read.point is not None and read.colour is not None
        done = effects_of(pos, engine.place(pos, read.point, read.colour))
        return Step(read.text, done.changes(), done.note())

    def add(self, step: Step | str) -> Self:
        text = step if isinstance(step, str) else step.text
        if self.steps:
            raise IllegalTurn(
                f"{text.strip()!r}: the turn is already complete ({self.steps[0].text}); "
                f"confirm it or take the step back")
        if self.start.full:
            raise IllegalTurn(f"{text.strip()!r}: " + expected(self.start))
        made = self._step(text)
        return type(self)(self.start, play_turn(self.start, made.text), (made,))

    def turn(self) -> str:
        if not self.steps:
            raise IllegalTurn("the turn is not complete: " + expected(self.start))
        return self.steps[0].text
