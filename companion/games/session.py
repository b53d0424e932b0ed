"""A session of one abstract board game: turn flow, undo/redo, clock, events out.

The session is the one place that changes a game in progress. It holds the
positions reached (immutable, so undo is one step back in a list), checks
every turn with the game's rules before applying it, records every committed
action to a :class:`~companion.journal.JournalWriter` (the crash-safe journal) before
telling anyone, runs the clock, and sends frozen events to its listeners.

It knows nothing of any particular game: everything goes through the
:class:`~companion.games.GameRules` interface.

Rulings that are the session's (the same for every game, as for Raindropchess):

- A finished game is final. Once the board decides the result, or a player
  resigns, a draw is agreed or claimed, or a flag falls, ``undo`` is refused.
- ``redo`` replays only what was undone, and only until a new turn is played.
- A draw offer stands until the opponent accepts or declines it, or the
  offering side's opponent plays a turn (playing on declines it).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import chess

from companion.clock import Clock, ClockSettings
from companion.events import ClockTick, Flagged, Redone, Undone
from companion.games.base import GameRules, Outcome, Player, Position
from companion.journal import JournalWriter

LOGGER = logging.getLogger(__name__)

JOURNAL_GAME_FORMAT = "raindrop-games-journal"
JOURNAL_GAME_VERSION = 1


class SessionError(ValueError):
    """An action the session refuses (game over, nothing to undo...); the message says why."""


# ----------------------------------------------------------------------
# Events


@dataclasses.dataclass(frozen=True)
class TurnPlayed:
    """A player's turn was committed."""

    player: Player
    turn: str                        # canonical turn text
    position: str                    # the position text after it


@dataclasses.dataclass(frozen=True)
class Claimed:
    """A claim outside any turn (a draw claim) was made."""

    player: Player
    claim: str
    position: str


@dataclasses.dataclass(frozen=True)
class DrawOffer:
    player: Player                   # who offers
    declined: bool = False           # True: the offer was declined (or lapsed)


@dataclasses.dataclass(frozen=True)
class GameEnded:
    """The game is over; ``result`` is the winner's side or ``"draw"``."""

    result: str
    reason: str


@dataclasses.dataclass(frozen=True)
class PositionShown:
    """Sent after every committed change (undo and redo too): redraw."""

    position: str
    to_move: Player
    last_turn: str | None


SessionEvent = (TurnPlayed | Claimed | DrawOffer | GameEnded | PositionShown | Undone | Redone
                | ClockTick | Flagged)
Listener = Callable[[SessionEvent], None]


@dataclasses.dataclass(frozen=True)
class Result:
    """How a session ended."""

    winner: Player | None            # None: a draw
    reason: str                      # plain words
    by: str                          # "board", "resignation", "agreement", "claim", "time"
    scores: Mapping[Player, int] = dataclasses.field(default_factory=dict)

    @property
    def text(self) -> str:
        return self.winner if self.winner is not None else "draw"


@dataclasses.dataclass(frozen=True)
class _Entry:
    """One committed action on the history: a turn or a claim."""

    kind: str                        # "turn" or "claim"
    text: str                        # the turn text or the claim's name
    player: Player
    position: Position               # after it


class GameSession:
    """One game being played; every change goes through its methods."""

    def __init__(self, rules: GameRules[Any], start: Position, *,
                 options: Mapping[str, str] | None = None,
                 names: Mapping[Player, str] | None = None,
                 clock: ClockSettings | None = None,
                 now: Callable[[], float] | None = None,
                 journal: JournalWriter | None = None,
                 table: Mapping[str, Any] | None = None) -> None:
        import time

        self.rules = rules
        self.options: dict[str, str] = dict(options or {})
        self.names: dict[Player, str] = dict(names or {})
        self.table: dict[str, Any] = dict(table or {})
        """Who sits where and the hint limit, as :mod:`companion.table.seats` writes them
        (empty: two persons); kept in the journal's header."""
        self.hints_used: dict[str, int] = {}
        """Hints given to each seat so far (journaled, so a resumed game keeps them)."""
        self._start = start
        self._history: list[_Entry] = []
        self._redo: list[_Entry] = []
        self._ended: Result | None = None
        self._offer: Player | None = None
        self._listeners: list[Listener] = []
        self._replaying = False
        self._now = now or time.monotonic
        self.clock = Clock(clock, self._now) if clock is not None else None
        self._journal: JournalWriter | None = None
        self._check_start()
        if self.clock is not None and self.rules.outcome(start) is None:
            self.clock.start(self._slot(start.to_move))
        if journal is not None:
            self.attach_journal(journal)
            journal.begin(self.header())

    # ------------------------------------------------------------------
    # Reading

    @property
    def start(self) -> Position:
        return self._start

    @property
    def position(self) -> Position:
        return self._history[-1].position if self._history else self._start

    @property
    def to_move(self) -> Player:
        return self.position.to_move

    @property
    def turns(self) -> list[str]:
        """The turn texts played so far (claims are not turns)."""
        return [entry.text for entry in self._history if entry.kind == "turn"]

    @property
    def record(self) -> list[tuple[str, str, Player]]:
        """Every committed action in order: (kind, text, player)."""
        return [(entry.kind, entry.text, entry.player) for entry in self._history]

    def positions(self) -> list[Position]:
        """The start and every position after each action (for review)."""
        return [self._start, *(entry.position for entry in self._history)]

    @property
    def last_turn(self) -> str | None:
        for entry in reversed(self._history):
            if entry.kind == "turn":
                return entry.text
        return None

    @property
    def result(self) -> Result | None:
        """How the game ended, or ``None`` while it goes on."""
        if self._ended is not None:
            return self._ended
        outcome = self.rules.outcome(self.position)
        if outcome is None:
            return None
        return self._board_result(outcome)

    def _board_result(self, outcome: Outcome) -> Result:
        """The rules' outcome as a result: by a claim if a claim made it, else by the board."""
        by = "claim" if self._history and self._history[-1].kind == "claim" else "board"
        return Result(outcome.winner, outcome.reason or "the game is over", by,
                      dict(outcome.scores))

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def draw_offer(self) -> Player | None:
        return self._offer

    def can_undo(self) -> bool:
        return bool(self._history) and not self.is_over

    def why_cannot_undo(self) -> str | None:
        if self.is_over:
            result = self.result
            assert result is not None
            return f"the game is over ({result.reason}): a finished game cannot be taken back"
        if not self._history:
            return "nothing to undo"
        return None

    def can_redo(self) -> bool:
        return bool(self._redo) and not self.is_over

    def opponent(self, player: Player) -> Player:
        first, second = self.rules.players
        if player == first:
            return second
        if player == second:
            return first
        raise SessionError(f"{player!r} is not a side of {self.rules.title} "
                           f"(sides: {first}, {second})")

    def header(self) -> dict[str, Any]:
        """What the journal's first line records: enough to rebuild the session."""
        return {"format": JOURNAL_GAME_FORMAT, "version": JOURNAL_GAME_VERSION,
                "game": self.rules.name, "options": dict(self.options),
                "start": self._start.text(), "names": dict(self.names),
                "clock": self.clock.settings.to_dict() if self.clock is not None else None,
                **({"table": dict(self.table)} if self.table else {})}

    # ------------------------------------------------------------------
    # Listening

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def _emit(self, events: list[SessionEvent]) -> None:
        if self._replaying:
            return
        for event in events:
            for listener in list(self._listeners):
                listener(event)

    def attach_journal(self, journal: JournalWriter | None) -> None:
        self._journal = journal

    @contextmanager
    def replaying(self) -> Iterator[None]:
        """Apply recorded actions without recording them again or telling listeners."""
        self._replaying = True
        try:
            yield
        finally:
            self._replaying = False

    def _record(self, entry: dict[str, Any]) -> None:
        if self._journal is None or self._replaying:
            return
        if self.clock is not None:
            entry["clock"] = self.clock.state()
        self._journal.append(entry)

    # ------------------------------------------------------------------
    # Acting

    def _check_start(self) -> None:
        if self.rules.parse(self._start.text()) != self._start:
            raise SessionError("the start position does not read back as itself")

    def _ensure_playing(self) -> None:
        self._check_time()
        result = self.result
        if result is not None:
            raise SessionError(f"the game is over: {result.reason}")

    def _slot(self, player: Player) -> chess.Color:
        """The clock's slot for a side: the first side of the game is slot WHITE."""
        return chess.WHITE if player == self.rules.players[0] else chess.BLACK

    def _commit(self, entry: _Entry, record: dict[str, Any], events: list[SessionEvent]) -> None:
        before = self.position
        self._history.append(entry)
        try:
            self._record(record)
        except BaseException:
            self._history.pop()
            raise
        if self.clock is not None:
            if self.rules.outcome(entry.position) is not None:
                self.clock.stop()
            elif entry.position.to_move != before.to_move:
                self.clock.switch(self._slot(entry.position.to_move))
        self._after(events)

    def _after(self, events: list[SessionEvent]) -> None:
        position = self.position
        events.append(PositionShown(position.text(), position.to_move, self.last_turn))
        result = self.result
        if result is not None and not any(isinstance(e, GameEnded) for e in events):
            events.append(GameEnded(result.text, result.reason))
        self._emit(events)

    def play(self, turn: str) -> Position:
        """Play one whole turn for the side to move; :class:`IllegalTurn` or
        :class:`SessionError` if it cannot be played (nothing changes then)."""
        if not isinstance(turn, str):
            raise TypeError(f"a turn is its text (str), not {type(turn).__name__}")
        self._ensure_playing()
        position = self.position
        text = self.rules.canonical_turn(position, turn)
        after: Position = self.rules.play(position, text)
        player = position.to_move
        events: list[SessionEvent] = [TurnPlayed(player, text, after.text())]
        if self._offer is not None and self._offer != player:
            events.append(DrawOffer(self._offer, declined=True))
            self._offer = None
        self._commit(_Entry("turn", text, player, after), {"do": "turn", "turn": text}, events)
        self._redo.clear()
        return after

    def claim(self, claim: str) -> Position:
        """Make a claim the rules offer the side to move (e.g. ``"draw"``)."""
        self._ensure_playing()
        position = self.position
        after: Position = self.rules.claim(position, claim)
        player = position.to_move
        self._commit(_Entry("claim", claim, player, after),
                     {"do": "claim", "claim": claim, "player": player},
                     [Claimed(player, claim, after.text())])
        self._redo.clear()
        return after

    def claims(self) -> tuple[str, ...]:
        """The claims the side to move may make now."""
        if self.is_over:
            return ()
        return self.rules.claims(self.position)

    def undo(self) -> str:
        """Take back the last action (a turn or a claim); what was undone."""
        reason = self.why_cannot_undo()
        if reason is not None:
            raise SessionError(f"cannot undo: {reason}")
        entry = self._history.pop()
        try:
            self._record({"do": "undo"})
        except BaseException:
            self._history.append(entry)
            raise
        self._redo.append(entry)
        self._offer = None
        if self.clock is not None:
            self.clock.start(self._slot(self.position.to_move))
        self._after([Undone(f"{entry.player}: {entry.text}")])
        return entry.text

    def redo(self) -> str:
        """Replay the last undone action; what was redone."""
        self._ensure_playing()
        if not self._redo:
            raise SessionError("nothing to redo")
        entry = self._redo[-1]
        self._history.append(entry)
        try:
            self._record({"do": "redo"})
        except BaseException:
            self._history.pop()
            raise
        self._redo.pop()
        if self.clock is not None:
            if self.rules.outcome(entry.position) is not None:
                self.clock.stop()
            else:
                self.clock.start(self._slot(entry.position.to_move))
        self._after([Redone(f"{entry.player}: {entry.text}")])
        return entry.text

    def note_hint(self, seat: str) -> None:
        """Count a hint given to ``seat`` (journaled; it changes nothing in the game and is
        never taken back)."""
        self._ensure_playing()
        self._record({"do": "hint", "player": seat})
        self.hints_used[seat] = self.hints_used.get(seat, 0) + 1

    def offer_draw(self, player: Player | None = None) -> None:
        """``player`` (default: the side to move) offers a draw."""
        self._ensure_playing()
        side = player or self.to_move
        self.opponent(side)
        if self._offer == side:
            raise SessionError(f"{side} has offered a draw already")
        if self._offer is not None:
            self.accept_draw(side)
            return
        self._record({"do": "offer", "player": side})
        self._offer = side
        self._emit([DrawOffer(side)])

    def accept_draw(self, player: Player | None = None) -> None:
        """``player`` (default: the side not offering) accepts the standing offer."""
        self._ensure_playing()
        if self._offer is None:
            raise SessionError("no draw has been offered")
        side = player or self.opponent(self._offer)
        if side == self._offer:
            raise SessionError(f"{side} cannot accept their own offer")
        self._end(Result(None, f"draw agreed ({self._offer} offered, {side} accepted)",
                         "agreement"), {"do": "accept", "player": side})

    def decline_draw(self, player: Player | None = None) -> None:
        self._ensure_playing()
        if self._offer is None:
            raise SessionError("no draw has been offered")
        side = player or self.opponent(self._offer)
        if side == self._offer:
            raise SessionError(f"{side} cannot decline their own offer")
        self._record({"do": "decline", "player": side})
        offer, self._offer = self._offer, None
        self._emit([DrawOffer(offer, declined=True)])

    def resign(self, player: Player | None = None) -> None:
        """``player`` (default: the side to move) resigns."""
        self._ensure_playing()
        side = player or self.to_move
        winner = self.opponent(side)
        self._end(Result(winner, f"{side} resigned", "resignation"),
                  {"do": "resign", "player": side})

    def _end(self, result: Result, record: dict[str, Any]) -> None:
        self._record(record)
        self._ended = result
        self._offer = None
        self._redo.clear()
        if self.clock is not None:
            self.clock.stop()
        self._after([GameEnded(result.text, result.reason)])

    # ------------------------------------------------------------------
    # The clock

    def _check_time(self) -> None:
        if self.clock is None or self._ended is not None:
            return
        if self.rules.outcome(self.position) is not None:
            return
        flagged = self.clock.flagged()
        if flagged is None:
            return
        self.flag(self.rules.players[0] if flagged == chess.WHITE else self.rules.players[1])

    def flag(self, loser: Player) -> None:
        """``loser`` ran out of time (the clock here finds that itself; a journal or a
        record being replayed says so); :class:`SessionError` once the game is over."""
        if self._ended is not None:
            raise SessionError(f"the game is over already ({self._ended.reason})")
        winner = self.opponent(loser)
        self._record({"do": "flag", "player": loser})
        self._ended = Result(winner, f"{loser}'s time ran out", "time")
        if self.clock is not None:
            self.clock.stop()
        flagged = chess.WHITE if loser == self.rules.players[0] else chess.BLACK
        self._emit([Flagged(flagged), GameEnded(self._ended.text, self._ended.reason)])

    def tick(self) -> None:
        """Call now and then: reports the clock and ends the game on a fallen flag."""
        if self.clock is None:
            return
        self._check_time()
        first, second = (self.clock.remaining(chess.WHITE), self.clock.remaining(chess.BLACK))
        self._emit([ClockTick(first, second, self.clock.running)])

    def pause(self) -> None:
        if self.clock is not None and not self.is_over:
            self.clock.pause()
            self._record({"do": "pause"})

    def resume_clock(self) -> None:
        if self.clock is not None and not self.is_over:
            self.clock.resume()
            self._record({"do": "continue"})

    def __repr__(self) -> str:
        return (f"GameSession({self.rules.name}, {self.position.text()!r}, "
                f"turns={len(self.turns)}, result={self.result})")
