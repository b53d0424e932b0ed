"""The review after a game: the engine's estimate after each turn, each turn marked.

A game is first read into a :class:`Timeline` (its turns, each with the public position
before and after it), from a live session or a saved record of any game. :func:`review`
(or :class:`Reviewing`, off the caller's thread, with progress, stoppable) then analyses
every position once at a modest budget and says, for each turn:

- ``best``: the mover's expected score with the engine's best turn before it;
- ``played``: the mover's expected score with the turn played (the engine's own value
  of that turn when it is among the candidates it ranks, else the estimate of the
  position after it; a flip, whose card is chance, is judged by the engine's value of
  flipping, not by the card that came);
- ``lost``: the chance it gave away (``best - played``, never below 0), and its mark:
  ``good`` under 0.05, ``inaccuracy`` from 0.05, ``mistake`` from 0.10, ``blunder``
  from 0.20 (:data:`MARKS`);
- ``better``: the engine's best turn, where the turn played lost 0.05 or more.

The thresholds are expected score given away (0 to 1). Lichess marks a drop in winning
chances of 0.1 / 0.2 / 0.3 on its -1..1 scale, which is 0.05 / 0.10 / 0.15 on ours; the
blunder mark is set higher, at 0.20, because our engines' estimates at a review's
budget (a fraction of a second a position, Monte Carlo playouts) wobble by a few
hundredths between two searches, and a blunder should be one beyond doubt.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import chess

from companion.engine.background import Background
from companion.engine.contract import Analysis, Budget, Engine, EngineError
from companion.engine.levels import DEFAULT_LEVEL, Level, level
from companion.engine.registry import RAINDROPCHESS, engine_for_game
from companion.game import Game
from companion.games.base import GameRules
from companion.games.session import GameSession
from companion.rules import ActionKind, RaindropBoard
from companion.table import words
from companion.table.chess_table import SEATS as CHESS_SEATS
from companion.table.games_table import GamesTable, seat_names

LOGGER = logging.getLogger(__name__)

MARKS: tuple[tuple[float, str], ...] = (
    (0.20, "blunder"),
    (0.10, "mistake"),
    (0.05, "inaccuracy"),
)
"""Chance lost (at least) -> mark; below the last: ``good``."""
GOOD = "good"
REVIEW_SECONDS = 0.5
"""The default budget of one position's analysis."""


def mark_of(lost: float) -> str:
    for floor, name in MARKS:
        if lost + 1e-9 >= floor:   # 0.6 - 0.5 is 0.0999...: a tenth, a mistake
            return name
    return GOOD


class ReviewError(ValueError):
    """A game that cannot be reviewed (no turns, an unknown game)."""


@dataclasses.dataclass(frozen=True)
class Ply:
    """One turn of a game, between two public positions."""

    seat: str
    turn: str
    """The turn text as the engine writes it (``g8f6``, ``N@e4``, ``flip``, ``d5>c5+g5``)."""
    before: str
    after: str
    words: str
    """The turn in words."""
    chance: bool = False
    """What the turn led to was chance (a card flipped)."""


@dataclasses.dataclass(frozen=True)
class Timeline:
    """A game as the review reads it."""

    game: str
    seats: tuple[str, str]
    plies: tuple[Ply, ...]
    final: float | None
    """The first seat's score when the game ended on the board (1 win, 0.5 draw, 0
    loss), else ``None`` (a resignation, an agreement, a flag, or not over)."""
    options: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """House rules for the engine (Raindropchess)."""
    aliases: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """The engine's names of movers -> seats where they differ (Rumbo's sides -> roles)."""
    result: str = ""
    """The result sentence, if the game is over."""
    describe: Callable[[str, str], str] | None = None
    """(position, turn) -> the turn in words (the better turn's words); ``None``: its text."""

    def seat(self, mover: str) -> str:
        return self.aliases.get(mover, mover)


@dataclasses.dataclass(frozen=True)
class TurnReview:
    """What the review says of one turn."""

    number: int
    """The turn's number in the game, from 1."""
    seat: str
    turn: str
    words: str
    best: float
    """The mover's expected score with the engine's best turn."""
    played: float
    """The mover's expected score with the turn played."""
    lost: float
    mark: str
    better: str | None
    """The engine's best turn, where the turn played lost 0.05 or more."""
    better_words: str | None
    estimate: float
    """The first seat's expected score after the turn (the graph's point)."""
    approximate: bool = False
    """``played`` is an upper bound (a flip the engine did not rank among its best)."""

    def sentence(self) -> str:
        """``"12. Black: knight g8 to f6. A mistake: 14% given away; better: knight g8 to
        h6."``"""
        head = f"{self.number}. {words.sentence(self.seat, self.words)}"
        if self.mark == GOOD:
            return head
        lost = math.floor(self.lost * 100 + 1e-7)   # 9.8% given away is not yet 10%
        bound = "at least " if self.approximate else ""
        text = f"{head} {'An' if self.mark == 'inaccuracy' else 'A'} {self.mark}: " \
               f"{bound}{lost}% given away"
        if self.better_words:
            text += f"; better: {self.better_words}"
        return text + "."


@dataclasses.dataclass(frozen=True)
class Review:
    """A whole game reviewed."""

    game: str
    seats: tuple[str, str]
    start: float
    """The first seat's expected score at the start."""
    turns: tuple[TurnReview, ...]
    result: str
    complete: bool = True
    """``False`` when the review was stopped part-way (the turns reviewed so far)."""

    @property
    def graph(self) -> tuple[float, ...]:
        """The first seat's expected score at the start and after each turn."""
        return (self.start, *(turn.estimate for turn in self.turns))

    def counts(self, seat: str) -> dict[str, int]:
        """How many turns of ``seat`` got each mark."""
        counts = {name: 0 for name in (GOOD, *(name for _, name in reversed(MARKS)))}
        for turn in self.turns:
            if turn.seat == seat:
                counts[turn.mark] += 1
        return counts

    def lines(self) -> list[str]:
        """The review as text: a summary per seat, then every turn that was not good."""
        first = self.seats[0]
        lines = [f"Review of {self.game.capitalize()} ({len(self.turns)} turns): the "
                 f"estimate is "
                 f"{words.side_words(first)}'s expected score."]
        for seat in self.seats:
            counts = self.counts(seat)
            marks = ", ".join(f"{n} {plural_mark(name, n)}"
                              for name, n in counts.items() if name != GOOD and n)
            lines.append(f"{words.side_words(seat)}: {counts[GOOD]} good"
                         + (f", {marks}" if marks else "") + ".")
        for turn in self.turns:
            lines.append(f"{turn.sentence()}  [{words.side_words(first)} "
                         f"{round(turn.estimate * 100)}%]")
        if self.result:
            lines.append(self.result)
        lines.append(f"Graph of {words.side_words(first)}'s chance, from the start to the "
                     f"end: {sparkline(self.graph)}")
        if not self.complete:
            lines.append("(The review was stopped before its end.)")
        return lines


def sparkline(points: Sequence[float]) -> str:
    """Expected scores (0..1) as a line of bars, one a point: low ``▁``, high ``█``."""
    bars = "▁▂▃▄▅▆▇█"
    top = len(bars) - 1
    return "".join(bars[min(top, max(0, round(point * top)))] for point in points)


def plural_mark(mark: str, count: int) -> str:
    """A mark's name for ``count`` turns: "1 blunder", "2 inaccuracies" ("good" stays)."""
    if mark == GOOD:
        return mark
    if count == 1:
        return mark
    return mark[:-1] + "ies" if mark.endswith("y") else mark + "s"


# ----------------------------------------------------------------------
# Timelines


def timeline_of_game(game: Game) -> Timeline:
    """A Raindropchess game's timeline (a live game, or one replayed from a PGN)."""
    board = game.board
    actions = list(board.actions)
    rfens: list[str] = []
    turns: list[tuple[str, str, str, bool]] = []   # seat, turn, words, chance
    while board.actions:
        action = board.peek_action()
        board.pop()
        seat = chess.COLOR_NAMES[board.turn]
        if action.kind == ActionKind.FLIP:
            turn, said, chance = "flip", "flip a card", True
        elif action.kind == ActionKind.MOVE:
            assert action.move is not None
            turn, said, chance = action.move.uci(), words.move_description(board, action.move), \
                False
        else:
            assert action.square is not None
            turn = f"Jx{chess.square_name(action.square)}"
            said, chance = words.chess_description(board, turn), False
        turns.append((seat, turn, said, chance))
        rfens.append(board.rfen())
    turns.reverse()
    rfens.reverse()
    rfens.append(game.rfen())
    plies = tuple(Ply(seat, turn, rfens[i], rfens[i + 1], said, chance)
                  for i, (seat, turn, said, chance) in enumerate(turns))
    assert len(plies) == len(actions)
    outcome = game.outcome
    final = None
    board_outcome = game.board.outcome()
    if board_outcome is not None:
        final = 0.5 if board_outcome.winner is None else (
            1.0 if board_outcome.winner == chess.WHITE else 0.0)
    result = words.verdict_sentence(outcome.describe()) if outcome is not None else ""
    options = {key: str(value) for key, value in game.rules.differences().items()}
    rules = game.rules

    def describe(position: str, turn: str) -> str:
        return words.chess_description(RaindropBoard(position, rules=rules), turn)

    return Timeline(RAINDROPCHESS, CHESS_SEATS, plies, final, options, {}, result, describe)


def timeline_of_session(session: GameSession) -> Timeline:
    """An abstract game's timeline (a live session, or one replayed from a record)."""
    rules: GameRules[Any] = session.rules
    seats = seat_names(rules, session.start)
    table = GamesTable(session)
    positions = session.positions()
    plies = []
    for index, (kind, text, player) in enumerate(session.record):
        if kind != "turn":
            continue
        before = positions[index]
        plies.append(Ply(table.seat_of(player), text, before.text(),
                         positions[index + 1].text(),
                         words.games_description(rules, before, text)))
    final = None
    outcome = rules.outcome(session.position)
    if outcome is not None:
        winner = table.seat_of(outcome.winner) if outcome.winner else None
        final = 0.5 if winner is None else (1.0 if winner == seats[0] else 0.0)
    aliases = {side: table.seat_of(side) for side in rules.players
               if table.seat_of(side) != side}
    result = session.result
    said = words.result_sentence(result.winner, result.reason) if result is not None else ""

    def describe(position: str, turn: str) -> str:
        return words.games_description(rules, rules.parse(position), turn)

    return Timeline(rules.name, seats, tuple(plies), final, {}, aliases, said, describe)


# ----------------------------------------------------------------------
# Reviewing


ProgressCallback = Callable[[int, int], None]
"""(positions analysed, positions in all)."""


def review(timeline: Timeline, *, budget: Budget | None = None,
           chosen_level: Level | None = None, seed: int = 0,
           stop: threading.Event | None = None, progress: ProgressCallback | None = None,
           engine: Engine | None = None) -> Review:
    """Review a timeline (see the module's text); :class:`ReviewError` if it has no
    turns or no engine plays its game. Stopped, it returns the turns reviewed so far."""
    if not timeline.plies:
        raise ReviewError("the game has no turns to review")
    budget = budget or Budget(seconds=REVIEW_SECONDS)
    chosen_level = chosen_level or level(DEFAULT_LEVEL)
    try:
        engine = engine or engine_for_game(timeline.game, timeline.options)
    except EngineError as error:
        raise ReviewError(str(error)) from None
    positions = [timeline.plies[0].before, *(ply.after for ply in timeline.plies)]
    total = len(positions)
    analyses: list[Analysis | None] = []
    for index, position in enumerate(positions):
        if stop is not None and stop.is_set():
            break
        last = index == total - 1
        if last and timeline.final is not None:
            analyses.append(None)
        else:
            try:
                analyses.append(engine.analyse(position, level=chosen_level, budget=budget,
                                               seed=seed + index))
            except EngineError as error:
                LOGGER.info("review: position %d not analysed: %s", index, error)
                analyses.append(None)
        if progress is not None:
            progress(index + 1, total)
    return _marks(timeline, analyses)


def _value_for(timeline: Timeline, analysis: Analysis | None, seat: str, *,
               final: bool) -> float | None:
    """``seat``'s expected score at an analysed position (or the final score)."""
    if analysis is None:
        if final and timeline.final is not None:
            return timeline.final if seat == timeline.seats[0] else 1.0 - timeline.final
        return None
    best = max(candidate.value for candidate in analysis.candidates) \
        if analysis.candidates else analysis.value
    return best if timeline.seat(analysis.mover) == seat else 1.0 - best


def _marks(timeline: Timeline, analyses: Sequence[Analysis | None]) -> Review:
    first = timeline.seats[0]
    count = len(analyses)
    start = _value_for(timeline, analyses[0], first, final=count == 1) if analyses else None
    turns: list[TurnReview] = []
    previous = 0.5 if start is None else start
    for number, ply in enumerate(timeline.plies, start=1):
        if number >= count:
            break
        before, after = analyses[number - 1], analyses[number]
        last = number == len(timeline.plies)
        after_value = _value_for(timeline, after, ply.seat, final=last)
        estimate = _value_for(timeline, after, first, final=last)
        best_value = _value_for(timeline, before, ply.seat, final=False)
        played, approximate = after_value, False
        best_turn: str | None = None
        if before is not None and before.candidates:
            ranked = sorted(before.candidates, key=lambda c: -c.value)
            best_turn = ranked[0].turn
            same = [c for c in ranked if c.turn == ply.turn]
            if same:
                played = same[0].value if timeline.seat(before.mover) == ply.seat \
                    else 1.0 - same[0].value
            elif ply.chance:
                played, approximate = ranked[-1].value, True
        if best_value is None or played is None:
            lost = 0.0
            best_value = played if played is not None else previous
            played = best_value
        else:
            lost = max(0.0, best_value - played)
        mark = mark_of(lost)
        better = best_turn if mark != GOOD and best_turn and best_turn != ply.turn else None
        better_words = _better_words(timeline, ply, better) if better else None
        point = previous if estimate is None else estimate
        turns.append(TurnReview(number, ply.seat, ply.turn, ply.words, best_value, played,
                                lost, mark, better, better_words, point, approximate))
        previous = point
    return Review(timeline.game, timeline.seats, 0.5 if start is None else start,
                  tuple(turns), timeline.result, complete=len(turns) == len(timeline.plies))


def _better_words(timeline: Timeline, ply: Ply, turn: str) -> str:
    if timeline.describe is None:
        return turn
    try:
        return timeline.describe(ply.before, turn)
    except ValueError:
        return turn


class Reviewing(Background[Review]):
    """A review run off the caller's thread: started, watched, stopped at once.

    ``on_progress(done, total)`` and ``on_done(reviewing)`` run on the review's thread: a
    front end hands them to its own (Kivy: ``Clock.schedule_once``). :meth:`stop` stops
    after the position being analysed: :meth:`result` then holds the turns reviewed so far."""

    busy = "the review is still running"

    def __init__(self, timeline: Timeline, *, budget: Budget | None = None,
                 chosen_level: Level | None = None, seed: int = 0,
                 on_progress: ProgressCallback | None = None,
                 on_done: Callable[[Reviewing], None] | None = None) -> None:
        super().__init__("review", on_done)
        self.timeline = timeline
        self._budget = budget
        self._level = chosen_level
        self._seed = seed
        self._on_progress = on_progress
        self._progress = (0, len(timeline.plies) + 1)

    def start(self) -> Reviewing:
        self._begin()
        return self

    @property
    def progress(self) -> tuple[int, int]:
        """(positions analysed, positions in all)."""
        return self._progress

    def _report(self, done: int, total: int) -> None:
        self._progress = (done, total)
        if self._on_progress is not None:
            try:
                self._on_progress(done, total)
            except Exception:
                LOGGER.exception("review progress listener failed")

    def _work(self) -> Review:
        return review(self.timeline, budget=self._budget, chosen_level=self._level,
                      seed=self._seed, stop=self._stop, progress=self._report)
