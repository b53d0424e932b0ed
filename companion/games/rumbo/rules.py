"""Rumbo behind the games interface: :class:`RumboRules` and ``RULES``."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from typing import ClassVar

from companion.games.base import Option, OptionError, Outcome, RulesBase, check_count
from companion.games.rumbo import advice, engine
from companion.games.rumbo.builder import RumboBuilder
from companion.games.rumbo.geometry import MAX_SIZE, MIN_SIZE
from companion.games.rumbo.position import HORIZONTAL, VERTICAL, RumboPosition, parse, parse_komi
from companion.games.rumbo.turns import (
    Effects,
    all_turns,
    effects,
    play_turn,
    read_turn,
    seating,
)
from companion.limits import is_digits

LOGGER = logging.getLogger(__name__)

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
        if not is_digits(size_text) or not MIN_SIZE <= int(size_text) <= MAX_SIZE:
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
        return all_turns(pos)

    def canonical_turn(self, pos: RumboPosition, turn: str) -> str:
        return read_turn(pos, turn).text

    def play(self, pos: RumboPosition, turn: str) -> RumboPosition:
        return play_turn(pos, turn)

    def successors(self, pos: RumboPosition, *, limit: int | None = None,
                   ) -> frozenset[RumboPosition]:
        if pos.side in ("k", "s"):
            found = frozenset(self.play(pos, turn) for turn in self.turns(pos))
        elif pos.full:
            found = frozenset()
        else:
            found = frozenset(engine.successors(pos))  # one a point: bounded by the board
        check_count(len(found), limit, "positions")
        return found

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


RULES = RumboRules()
"""The game, as the registry loads it."""
