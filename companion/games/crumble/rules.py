"""Crumble behind the games interface: :class:`CrumbleRules` and ``RULES``."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from typing import ClassVar

from companion.games.base import IllegalTurn, Option, OptionError, Outcome, RulesBase, check_count
from companion.games.crumble.builder import CrumbleBuilder
from companion.games.crumble.diagram import draw
from companion.games.crumble.engine import all_turns, finished, successor_texts, turns_reaching
from companion.games.crumble.geometry import rect_text
from companion.games.crumble.position import (
    COLOUR_LETTER,
    MAX_SIZE,
    NAME,
    SIDE_NAME,
    CrumblePosition,
    State,
    read_state_and_board,
)
from companion.games.crumble.turns import play_turn
from companion.limits import is_digits

LOGGER = logging.getLogger(__name__)

OPPOSITE_SIDES = (1 | 4, 2 | 8)
"""Edge masks of a piece spanning the board: north and south, east and west."""

CLAIM_DRAW = "draw"
"""The one-big-piece claim (rules file, section 8.2)."""
AGREED = "agreed"
"""A draw by agreement, recorded like the claim (accepted by :meth:`CrumbleRules.claim`,
never listed by :meth:`CrumbleRules.claims`: it needs both players)."""


class CrumbleRules(RulesBase[CrumblePosition]):
    """Crumble (Adam Sandstedt), as ruled by the project's rules file."""

    name: ClassVar[str] = NAME
    title: ClassVar[str] = "Crumble"
    pitch: ClassVar[str] = ("Cut, glue and swap squares until one colour's chain "
                            "touches all four sides.")
    players: ClassVar[tuple[str, str]] = ("black", "white")
    options: ClassVar[Mapping[str, Option]] = {
        "width": Option("6", None, f"board width in unit squares, 1 to {MAX_SIZE}"),
        "height": Option("6", None, f"board height in unit squares, 1 to {MAX_SIZE}"),
        "topleft": Option("b", ("b", "w"), "the colour of the upper-left square"),
    }

    def start(self, **options: str) -> CrumblePosition:
        values = self.check_options(options)
        size = []
        for key in ("width", "height"):
            value = values[key]
            if not is_digits(value) or not 1 <= int(value) <= MAX_SIZE:
                raise OptionError(f"{NAME}: {key}={value!r} must be a whole number "
                                  f"from 1 to {MAX_SIZE}")
            size.append(int(value))
        width, height = size
        top = COLOUR_LETTER.index(values["topleft"])
        rects = []
        colours = []
        for y in range(height):
            for x in range(width):
                rects.append((2 * x, 2 * y, 2, 2))
                colours.append(top ^ ((x + (height - 1 - y)) & 1))
        state = State(width, height, 2, tuple(rects), bytes(colours), 0, "0",
                      (None, None, None, None))
        return CrumblePosition(state.text())

    def parse(self, text: str) -> CrumblePosition:
        state, board = read_state_and_board(text)
        pos = CrumblePosition(state.text())
        pos.__dict__["state"] = state  # cached_property storage: parsed once
        pos.__dict__["board"] = board
        return pos

    def turns(self, pos: CrumblePosition) -> Iterator[str]:
        """Every action, and for each one turn per swap end state (its shortest swap path).

        Swaps may backtrack without limit, so the legal turn texts are endless; these are
        the representatives, one per (board, swapping piece) end state."""
        return all_turns(pos)

    def play(self, pos: CrumblePosition, turn: str) -> CrumblePosition:
        return CrumblePosition(play_turn(pos, turn).text)

    def canonical_turn(self, pos: CrumblePosition, turn: str) -> str:
        return play_turn(pos, turn).turn

    def successors(self, pos: CrumblePosition, *, limit: int | None = None,
                   ) -> frozenset[CrumblePosition]:
        found: set[CrumblePosition] = set()
        for text in successor_texts(pos):
            found.add(CrumblePosition(text))
            check_count(len(found), limit, "positions")
        return frozenset(found)

    def turns_to(self, pos: CrumblePosition, target: CrumblePosition) -> tuple[str, ...]:
        return tuple(turns_reaching(pos, target))

    def outcome(self, pos: CrumblePosition) -> Outcome | None:
        winners = pos.winners
        if winners:
            colour = next(iter(winners))
            return Outcome(SIDE_NAME[colour], {},
                           f"{SIDE_NAME[colour].capitalize()}'s chain touches all four sides")
        draw_field = pos.state.draw
        if draw_field == "3":
            return Outcome(None, {}, "drawn by three draw turns in a row")
        if draw_field == "=":
            return Outcome(None, {}, "drawn by a claim or by agreement")
        return None

    def builder(self, pos: CrumblePosition) -> CrumbleBuilder:
        return CrumbleBuilder(pos, pos)

    def big_pieces(self, pos: CrumblePosition) -> tuple[str, ...]:
        """The mover's pieces touching two opposite board sides (``x,y,w,h``)."""
        state, board = pos.state, pos.board
        return tuple(
            rect_text(state.rects[i], state.scale)
            for i in range(len(state.rects))
            if state.colours[i] == state.side
            and any(board.edges[i] & m == m for m in OPPOSITE_SIDES))

    def claims(self, pos: CrumblePosition) -> tuple[str, ...]:
        """``("draw",)`` when the player to move owns one piece touching two opposite sides."""
        if finished(pos) or not self.big_pieces(pos):
            return ()
        return (CLAIM_DRAW,)

    def claim(self, pos: CrumblePosition, claim: str) -> CrumblePosition:
        """Apply the one-big-piece claim ``"draw"``, or ``"agreed"`` (see :meth:`agree_draw`)."""
        if claim == AGREED:
            return self.agree_draw(pos)
        if claim not in self.claims(pos):
            return super().claim(pos, claim)
        return self._drawn(pos)

    def agree_draw(self, pos: CrumblePosition) -> CrumblePosition:
        """The game drawn by agreement: the DRAW field becomes ``=`` (rules file, 8.2)."""
        if finished(pos):
            raise IllegalTurn("the game is over already")
        return self._drawn(pos)

    @staticmethod
    def _drawn(pos: CrumblePosition) -> CrumblePosition:
        fields = pos.text().split(" ")
        fields[4] = "="
        return CrumblePosition(" ".join(fields))

    def diagram(self, pos: CrumblePosition) -> str:
        return draw(pos.state)


RULES = CrumbleRules()
