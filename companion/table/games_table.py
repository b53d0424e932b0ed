"""The companion's view of an abstract game's :class:`~companion.games.session.GameSession`.

The seats are the game's sides, or, in a game whose sides are settled by a turn (Rumbo:
the proposer names the komi, the chooser picks a side), the two roles that move first;
once the side is chosen, each side is played by the seat that took it. The engine's
turns are played with :meth:`GameSession.play`, its claims with
:meth:`GameSession.claim`, its draw offers and answers likewise.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from companion.engine.contract import Analysis, Engine
from companion.engine.levels import Level
from companion.engine.registry import engine_for_game
from companion.events import ClockTick
from companion.games.base import GameRules, IllegalTurn, Position
from companion.games.record import seating_tags
from companion.games.session import GameSession, SessionEvent
from companion.table import words
from companion.table.budget import ClockView
from companion.table.hints import HintTurn
from companion.table.seats import TableSettings
from companion.table.tables import Played, Situation

LOGGER = logging.getLogger(__name__)


def seat_names(rules: GameRules[Any], start: Position) -> tuple[str, str]:
    """The two seats of a game starting at ``start``: its sides, or, where the start's
    mover is not a side (a role that settles the sides), that role and the next one."""
    first, second = rules.players
    mover = start.to_move
    if mover in rules.players:
        return first, second
    for turn in rules.turns(start):
        after = rules.play(start, turn).to_move
        if after != mover and after not in rules.players:
            return mover, after
        break
    return first, second


class GamesTable:
    """A :class:`~companion.table.tables.TableGame` over an abstract game's session."""

    def __init__(self, session: GameSession, settings: TableSettings | None = None) -> None:
        self.session = session
        self.rules: GameRules[Any] = session.rules
        self.names = seat_names(self.rules, session.start)
        self._settings = settings or TableSettings.from_dict(session.table, self.names)

    @property
    def game(self) -> str:
        return self.rules.name

    @property
    def settings(self) -> TableSettings:
        return self._settings

    @property
    def engine_options(self) -> Mapping[str, str]:
        return {}

    def engine(self) -> Engine:
        return engine_for_game(self.rules.name)

    # Seats -------------------------------------------------------------

    def seat_of(self, player: str) -> str:
        """The seat playing ``player`` (a side or a role)."""
        if player in self.names:
            return player
        seating = seating_tags(self.session).get("Seating", "")
        for item in seating.split():
            role, _, side = item.partition("=")
            if side == player and role in self.names:
                return role
        return player

    def player_of(self, seat: str) -> str:
        """The side or role ``seat`` plays now (what the session calls it)."""
        mover = self.session.to_move
        if self.seat_of(mover) == seat:
            return mover
        return self.session.opponent(mover) if mover in self.rules.players else seat

    # State -------------------------------------------------------------

    def key(self) -> tuple[int, str]:
        session = self.session
        return len(session.record), (f"{session.position.text()} {session.draw_offer} "
                                     f"{session.is_over}")

    def is_over(self) -> bool:
        return self.session.is_over

    def seat_to_move(self) -> str | None:
        return None if self.session.is_over else self.seat_of(self.session.to_move)

    def situation(self) -> Situation | None:
        session = self.session
        if session.is_over or (session.clock is not None and session.clock.paused):
            return None
        text = session.position.text()
        offer = session.draw_offer
        if offer is not None:
            answering = session.opponent(offer)
            return Situation(self.seat_of(answering), text, self.key(), answer_draw=True,
                             player=answering)
        return Situation(self.seat_of(session.to_move), text, self.key(),
                         claims=session.claims(),
                         may_offer=session.to_move in self.rules.players,
                         player=session.to_move)

    def claim_choice(self, engine: Engine, situation: Situation, level: Level,
                     seed: int) -> str | None:
        if not situation.claims:
            return None
        chooses = getattr(engine, "claim", None)
        if chooses is None:
            return None
        claim: str | None = chooses(situation.position, level=level, seed=seed)
        return claim if claim in situation.claims else None

    def offer_choice(self, engine: Engine, situation: Situation, level: Level,
                     seed: int) -> bool:
        offers = getattr(engine, "offers_draw", None)
        if not situation.may_offer or offers is None:
            return False
        return bool(offers(situation.position, level=level, seed=seed))

    # Acting ------------------------------------------------------------

    def play(self, seat: str, turn: str, analysis: Analysis | None) -> Played:
        session = self.session
        if session.is_over or self.seat_of(session.to_move) != seat:
            raise ValueError(f"it is not {seat}'s turn")
        before = session.position
        player = session.to_move
        description = words.games_description(self.rules, before, turn)
        after = session.play(turn)
        squares = words.changed_cells(before.cells(), after.cells())
        return Played(words.sentence(player, description), squares)

    def answer_draw(self, seat: str, accept: bool) -> str:
        side = self.player_of(seat)
        if accept:
            self.session.accept_draw(side)
        else:
            self.session.decline_draw(side)
        return words.draw_answer_sentence(side, accept)

    def claim(self, seat: str, claim: str) -> str:
        player = self.session.to_move
        self.session.claim(claim)
        return words.claim_sentence(player, claim)

    def offer_draw(self, seat: str) -> str:
        player = self.session.to_move
        self.session.offer_draw(player)
        return words.offer_sentence(player)

    def actors(self) -> list[str]:
        return [self.seat_of(player) for _, _, player in self.session.record]

    def can_undo(self) -> bool:
        return self.session.can_undo()

    def undo_one(self) -> None:
        self.session.undo()

    def clock(self, seat: str) -> ClockView | None:
        clock = self.session.clock
        if clock is None:
            return None
        slot = self.player_of(seat) == self.rules.players[0]  # the session's clock slots
        settings = clock.settings
        return ClockView(clock.remaining(slot), settings.increment + settings.delay)

    def hints_used(self, seat: str) -> int:
        return self.session.hints_used.get(seat, 0)

    def note_hint(self, seat: str) -> None:
        self.session.note_hint(seat)

    def hint_turns(self, analysis: Analysis, count: int
                   ) -> tuple[tuple[HintTurn, ...], tuple[str, ...]]:
        pos = self.rules.parse(analysis.position)
        mover = analysis.mover
        other = analysis.notes.get("opponent", "the opponent")
        turns = tuple(HintTurn(c.turn, words.games_description(self.rules, pos, c.turn),
                               words.estimate(c, mover, other), c.value)
                      for c in analysis.candidates[:count])
        squares: tuple[str, ...] = ()
        if turns:
            try:
                after = self.rules.play(pos, turns[0].turn)
                squares = words.changed_cells(pos.cells(), after.cells())
            except (IllegalTurn, ValueError):
                squares = ()
        return turns, squares

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        def on_event(event: SessionEvent) -> None:
            if not isinstance(event, ClockTick):
                listener()

        return self.session.subscribe(on_event)
