"""Raindrops (Luis Bolaños Mures, 2011) behind the games interface."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from typing import ClassVar

from companion.games.base import IllegalTurn, Option, OptionError, Outcome, RulesBase
from companion.games.raindrops.builder import RaindropsBuilder
from companion.games.raindrops.engine import all_finals, find_turn, has_turn, least_turns
from companion.games.raindrops.position import (
    OTHER,
    SIDE_NAMES,
    RaindropsPosition,
    diagram,
    parse_position,
    start_position,
)
from companion.games.raindrops.turns import path_text, play_path
from companion.games.raindrops.units import Context, engaged_units, unit_count
from companion.limits import is_digits

LOGGER = logging.getLogger(__name__)


class RaindropsRules(RulesBase[RaindropsPosition]):
    """The rules file ``raindrops.md``: units, engagement, slides and chains of placements."""

    name: ClassVar[str] = "raindrops"
    title: ClassVar[str] = "Raindrops"
    pitch: ClassVar[str] = ("Gather all your pieces into one connected unit: singletons slide "
                            "like rooks, groups crawl along their lines.")
    players: ClassVar[tuple[str, str]] = ("black", "white")
    options: ClassVar[Mapping[str, Option]] = {
        "size": Option("8", None, "points per side, 2 to 26 (the designer recommends 8 to 12)"),
        "layout": Option("full", ("full", "sparse"),
                         "full: a filled checkerboard (odd sizes: centre empty); "
                         "sparse: the Ayu-style start on every other point"),
        "a1": Option("black", ("black", "white"), "the colour of the piece on a1 (swaps colours)"),
    }

    def start(self, **options: str) -> RaindropsPosition:
        values = self.check_options(options)
        raw = values["size"]
        if not is_digits(raw) or not 2 <= int(raw) <= 26:
            raise OptionError(f"raindrops: size={raw!r} must be a whole number from 2 to 26")
        return start_position(int(raw), values["layout"], values["a1"])

    def parse(self, text: str) -> RaindropsPosition:
        return parse_position(text)

    def turns(self, pos: RaindropsPosition) -> Iterator[str]:
        """One canonical turn per successor position: its least turn text.

        Turns are compared step by step by (from-point, to-point), points in
        board order (a1, b1, ..., a2, ...). Other turn texts reaching the same
        position are legal too (:meth:`play` takes them) but are not listed.
        """
        if self._over(pos):
            return
        ctx = Context(pos)
        for path in least_turns(ctx):
            yield path_text(ctx, path)

    def _over(self, pos: RaindropsPosition) -> bool:
        """Decided by the unit counts (the no-legal-turn fallback never applies, section 8,
        and would leave no turn to list anyway)."""
        black = unit_count(pos, "b")
        white = unit_count(pos, "w")
        return black <= 1 or white <= 1

    def _playable(self, pos: RaindropsPosition) -> None:
        if self._over(pos):
            result = self.outcome(pos)
            reason = result.reason if result is not None else "no turn is left"
            raise IllegalTurn(f"the game is over: {reason}")

    def play(self, pos: RaindropsPosition, turn: str) -> RaindropsPosition:
        self._playable(pos)
        ctx = Context(pos)
        return ctx.position_after(play_path(ctx, turn).state[0])

    def canonical_turn(self, pos: RaindropsPosition, turn: str) -> str:
        """``turn`` checked step by step and written canonically (its own steps, not the least)."""
        self._playable(pos)
        ctx = Context(pos)
        return path_text(ctx, play_path(ctx, turn).path)

    def successors(self, pos: RaindropsPosition, *, limit: int | None = None,
                   ) -> frozenset[RaindropsPosition]:
        if self._over(pos):
            return frozenset()
        ctx = Context(pos)
        after = ctx.position_after
        owns = all_finals(ctx) if limit is None else all_finals(ctx, limit)
        return frozenset([after(own) for own in owns])

    def turns_to(self, pos: RaindropsPosition, target: RaindropsPosition) -> tuple[str, ...]:
        """The canonical turn (as :meth:`turns` lists it) reaching ``target``, or ``()``.

        A direct search: the two boards' difference fixes the line and what is
        left to lift and place; successors are never listed.
        """
        if self._over(pos):
            return ()
        ctx = Context(pos)
        path = find_turn(ctx, target)
        return () if path is None else (path_text(ctx, path),)

    def outcome(self, pos: RaindropsPosition) -> Outcome | None:
        black = unit_count(pos, "b")
        white = unit_count(pos, "w")
        scores: dict[str, int] = {}
        if black == 0 or white == 0:
            loser = "black" if black == 0 else "white"
            winner = "white" if black == 0 else "black"
            return Outcome(winner, scores, f"{loser.capitalize()} has no pieces")
        if black == 1 and white == 1:
            last = SIDE_NAMES[OTHER[pos.side]]
            return Outcome(last, scores,
                           f"both sides have one unit; {last.capitalize()} moved last and wins")
        if black == 1 or white == 1:
            winner = "black" if black == 1 else "white"
            return Outcome(winner, scores,
                           f"{winner.capitalize()}'s pieces form one connected unit")
        if not has_turn(Context(pos)):
            mover = pos.to_move
            return Outcome(SIDE_NAMES[OTHER[pos.side]], scores,
                           f"{mover.capitalize()} has no legal turn")
        return None

    def builder(self, pos: RaindropsPosition) -> RaindropsBuilder:
        return RaindropsBuilder.new(pos)

    def diagram(self, pos: RaindropsPosition) -> str:
        return diagram(pos)

    def engagement(self, pos: RaindropsPosition, colour: str) -> tuple[int, int]:
        """``(units, unengaged units)`` of ``"b"`` or ``"w"``: the quantity every turn lowers."""
        return engaged_units(pos, colour)


RULES = RaindropsRules()
