"""Rumbo behind the games interface: start, parse, turns, play, successors, outcome, builder."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import ClassVar, Self

from companion.games.base import IllegalTurn, Option, OptionError, Outcome, RulesBase, Step
from companion.games.rumbo import advice, engine
from companion.games.rumbo.board import MAX_SIZE, MIN_SIZE
from companion.games.rumbo.parse import parse, parse_komi
from companion.games.rumbo.position import HORIZONTAL, VERTICAL, RumboPosition
from companion.games.rumbo.turns import Effects, effects, effects_of, expected, read_turn, seating

LOGGER = logging.getLogger(__name__)

_SIDE_NOTES = {
    "v": "the chooser takes Vertical (places first); the proposer plays Horizontal",
    "h": "the chooser takes Horizontal (gets the komi); the proposer plays Vertical",
}


class RumboRules(RulesBase[RumboPosition]):
    """Rumbo (Luis Bolaños Mures, 2016), exactly as ``docs/games/rumbo.md`` describes it.

    Extra public methods for the session and the app: :meth:`effects` (which
    holes a placement filled and which groups it claimed), :meth:`seating`
    (who plays which side after ``side=v|h``), :meth:`komi_advice`,
    :meth:`parity_advice`.
    """

    name: ClassVar[str] = "rumbo"
    title: ClassVar[str] = "Rumbo"
    pitch: ClassVar[str] = (
        "Place a stone of either colour; a group with no liberty goes to whoever its "
        "direction from the new stone favours.")
    players: ClassVar[tuple[str, str]] = (VERTICAL, HORIZONTAL)
    roles: ClassVar[tuple[str, str]] = ("proposer", "chooser")
    """``to_move`` during the setup: phase k's proposer, then phase s's chooser."""
    options: ClassVar[Mapping[str, Option]] = {
        "size": Option("9", None, f"board size N (N x N points), {MIN_SIZE} to {MAX_SIZE}"),
        "komi": Option(None, None,
                       "the komi agreed beforehand (-N*N to N*N); left out, the game starts "
                       "with the proposer naming it and the chooser picking a side"),
        "edgeholes": Option("off", ("off", "on"),
                            "edge and corner points can be holes too (all neighbours one colour)"),
        "nostraight": Option("off", ("off", "on"),
                             "N+S and E+W belong to nobody (strict reading of the post)"),
    }

    def start(self, **options: str) -> RumboPosition:
        values = self.check_options(options)
        size_text = values["size"]
        if not size_text.isdigit() or not MIN_SIZE <= int(size_text) <= MAX_SIZE:
            raise OptionError(
                f"rumbo: size={size_text!r} must be a whole number from {MIN_SIZE} to {MAX_SIZE}")
        size = int(size_text)
        komi: int | None = None
        if "komi" in values:
            try:
                komi = parse_komi(values["komi"], size)
            except ValueError as error:
                raise OptionError(f"rumbo: {error}") from None
        empty = "/".join(["." * size] * size)
        return RumboPosition(size, empty, "k" if komi is None else "v", komi, empty,
                             values["edgeholes"] == "on", values["nostraight"] == "on")

    def parse(self, text: str) -> RumboPosition:
        return parse(text)

    def turns(self, pos: RumboPosition) -> Iterator[str]:
        if pos.side == "k":
            limit = pos.size * pos.size
            for komi in range(-limit, limit + 1):
                yield f"komi={komi}"
        elif pos.side == "s":
            yield "side=v"
            yield "side=h"
        elif not pos.full:
            names = pos.geometry.names
            for p, stone in enumerate(pos.stones):
                if stone == ".":
                    yield f"b@{names[p]}"
                    yield f"w@{names[p]}"

    def canonical_turn(self, pos: RumboPosition, turn: str) -> str:
        return read_turn(pos, turn).text

    def play(self, pos: RumboPosition, turn: str) -> RumboPosition:
        read = read_turn(pos, turn)
        if read.kind == "komi":
            return RumboPosition(pos.size, pos.stones, "s", read.komi, pos.claims,
                                 pos.edgeholes, pos.nostraight)
        if read.kind == "side":
            return RumboPosition(pos.size, pos.stones, "v", pos.komi, pos.claims,
                                 pos.edgeholes, pos.nostraight)
        assert read.point is not None and read.colour is not None
        return engine.place(pos, read.point, read.colour).after

    def successors(self, pos: RumboPosition) -> frozenset[RumboPosition]:
        if pos.side in ("k", "s"):
            return frozenset(self.play(pos, turn) for turn in self.turns(pos))
        if pos.full:
            return frozenset()
        return frozenset(engine.successors(pos))

    def turns_to(self, pos: RumboPosition, target: RumboPosition) -> tuple[str, ...]:
        """The turns reaching ``target``: only placements on a point ``target`` newly fills."""
        if pos.side in ("k", "s") or pos.full:
            return super().turns_to(pos, target)
        if (target.size, target.komi, target.edgeholes, target.nostraight) != (
                pos.size, pos.komi, pos.edgeholes, pos.nostraight):
            return ()
        names = pos.geometry.names
        found = []
        for p, (before, after) in enumerate(zip(pos.stones, target.stones, strict=True)):
            if before == "." and after != "." and engine.place(pos, p, after).after == target:
                found.append(f"{after}@{names[p]}")
        return tuple(sorted(found))

    def outcome(self, pos: RumboPosition) -> Outcome | None:
        if pos.setup or not pos.full:
            return None
        vertical = pos.claims.count("v")
        stones = pos.claims.count("h")
        komi = pos.komi or 0
        horizontal = stones + komi
        unclaimed = pos.claims.count(".")
        winner = None if vertical == horizontal else (
            VERTICAL if vertical > horizontal else HORIZONTAL)
        detail = f"Vertical {vertical}, Horizontal {horizontal} ({stones} stones, komi {komi})"
        if unclaimed:
            detail += f"; {unclaimed} stone{'s' if unclaimed != 1 else ''} unclaimed"
        verdict = "a draw" if winner is None else f"{winner.capitalize()} wins"
        return Outcome(winner, {VERTICAL: vertical, HORIZONTAL: horizontal},
                       f"{verdict}: {detail}")

    def builder(self, pos: RumboPosition) -> RumboBuilder:
        return RumboBuilder(pos, pos)

    def diagram(self, pos: RumboPosition) -> str:
        return advice.diagram(pos)

    def effects(self, pos: RumboPosition, turn: str) -> Effects:
        """Which holes the placement ``turn`` fills and which groups die, claimed or not."""
        return effects(pos, turn)

    def seating(self, turn: str) -> dict[str, str]:
        """``{"chooser": side, "proposer": side}`` after the chooser's ``side=v|h``."""
        return seating(turn)

    def komi_advice(self, size: int, komi: int) -> str | None:
        """The parity warning for ``komi`` on an N x N board, or ``None`` when it is fine."""
        return advice.komi_advice(size, komi)

    def parity_advice(self, size: int) -> str:
        """What to show the proposer when the komi is to be named."""
        return advice.parity_advice(size)


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
        return tuple(self._step(turn) for turn in RULES.turns(self.start))

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
        return type(self)(self.start, RULES.play(self.start, made.text), (made,))

    def turn(self) -> str:
        if not self.steps:
            raise IllegalTurn("the turn is not complete: " + expected(self.start))
        return self.steps[0].text


RULES = RumboRules()
"""The game, as the registry loads it."""
