"""A toy game for testing the games interface, session and commands generically.

"Row": a 1 x N row of cells; players put a stone on any empty cell, one a turn;
putting a stone next to your own stone scores a point. Full row: most points
wins, equal is a draw. Turn text: the cell (``c1``). Position text:
``row CELLS SIDE`` (``row b.w.. w``). Small, but with a builder of one step, a
claim (``resign`` is not a claim; ``draw`` is offered when the row is half full).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import ClassVar, Self

from companion.games import IllegalTurn, Option, Outcome, PositionError, RulesBase, Step

LETTERS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class RowPosition:
    stones: str
    side: str  # "b" / "w"
    drawn: bool = False

    @property
    def to_move(self) -> str:
        return "black" if self.side == "b" else "white"

    def text(self) -> str:
        return f"row {self.stones} {self.side}" + (" =" if self.drawn else "")

    def cells(self) -> Mapping[str, str]:
        return {f"{LETTERS[i]}1": c for i, c in enumerate(self.stones)}


def _score(stones: str, colour: str) -> int:
    return sum(1 for a, b in itertools.pairwise(stones) if a == b == colour)


@dataclass(frozen=True)
class RowBuilder:
    start: RowPosition
    position: RowPosition
    steps: tuple[Step, ...] = ()

    @property
    def message(self) -> str:
        return "confirm the turn" if self.complete else "put a stone on an empty cell"

    @property
    def complete(self) -> bool:
        return bool(self.steps)

    def next_steps(self) -> tuple[Step, ...]:
        if self.steps:
            return ()
        colour = self.position.side
        return tuple(Step(cell, {cell: colour}) for cell in RULES.turns(self.position))

    def add(self, step: Step | str) -> Self:
        text = step if isinstance(step, str) else step.text
        for candidate in self.next_steps():
            if candidate.text == text.strip().lower():
                after = RULES.play(self.position, candidate.text)
                return type(self)(self.start, after, (*self.steps, candidate))
        raise IllegalTurn(f"{text!r} is not a legal step here")

    def turn(self) -> str:
        if not self.steps:
            raise IllegalTurn("the turn is not complete: put a stone first")
        return self.steps[0].text


class RowRules(RulesBase[RowPosition]):
    name: ClassVar[str] = "row"
    title: ClassVar[str] = "Row"
    pitch: ClassVar[str] = "A toy for tests."
    players: ClassVar[tuple[str, str]] = ("black", "white")
    options: ClassVar[Mapping[str, Option]] = {
        "size": Option("5", None, "cells in the row, 2 to 26"),
        "first": Option("b", ("b", "w"), "who moves first"),
    }

    def start(self, **options: str) -> RowPosition:
        values = self.check_options(options)
        size = int(values["size"]) if values["size"].isdigit() else 0
        if not 2 <= size <= 26:
            from companion.games import OptionError
            raise OptionError(f"row: size={values['size']!r} must be 2 to 26")
        return RowPosition("." * size, values["first"])

    def parse(self, text: str) -> RowPosition:
        fields = text.split()
        if len(fields) not in (3, 4) or fields[0] != "row":
            raise PositionError("expected 'row CELLS SIDE [=]'")
        if not fields[1] or set(fields[1]) - set(".bw") or len(fields[1]) > 26:
            raise PositionError(f"cells field {fields[1]!r}: only '.', 'b', 'w'")
        if fields[2] not in ("b", "w"):
            raise PositionError(f"side field {fields[2]!r}: 'b' or 'w'")
        if len(fields) == 4 and fields[3] != "=":
            raise PositionError(f"draw field {fields[3]!r}: only '='")
        return RowPosition(fields[1], fields[2], len(fields) == 4)

    def turns(self, pos: RowPosition) -> Iterator[str]:
        if self.outcome(pos) is not None:
            return
        for i, c in enumerate(pos.stones):
            if c == ".":
                yield f"{LETTERS[i]}1"

    def canonical_turn(self, pos: RowPosition, turn: str) -> str:
        text = turn.strip().lower()
        if text not in set(self.turns(pos)):
            raise IllegalTurn(f"{turn!r} is not a legal turn (put a stone on an empty cell)")
        return text

    def play(self, pos: RowPosition, turn: str) -> RowPosition:
        text = self.canonical_turn(pos, turn)
        i = LETTERS.index(text[0])
        stones = pos.stones[:i] + pos.side + pos.stones[i + 1:]
        return RowPosition(stones, "w" if pos.side == "b" else "b")

    def outcome(self, pos: RowPosition) -> Outcome | None:
        if pos.drawn:
            return Outcome(None, {}, "drawn by claim")
        if "." in pos.stones:
            return None
        b, w = _score(pos.stones, "b"), _score(pos.stones, "w")
        winner = None if b == w else ("black" if b > w else "white")
        return Outcome(winner, {"black": b, "white": w}, f"black {b}, white {w}")

    def builder(self, pos: RowPosition) -> RowBuilder:
        return RowBuilder(pos, pos)

    def claims(self, pos: RowPosition) -> tuple[str, ...]:
        if self.outcome(pos) is None and pos.stones.count(".") * 2 <= len(pos.stones):
            return ("draw",)
        return ()

    def claim(self, pos: RowPosition, claim: str) -> RowPosition:
        if claim not in self.claims(pos):
            return super().claim(pos, claim)
        return RowPosition(pos.stones, pos.side, True)

    def diagram(self, pos: RowPosition) -> str:
        return " ".join(pos.stones) + "\n" + " ".join(LETTERS[: len(pos.stones)])


RULES = RowRules()
