"""The companion's turn runner: it plays the companion's seats, off the caller's thread.

A :class:`CompanionRunner` watches one :class:`~companion.table.tables.TableGame`. When a
seat the companion holds must decide (its turn, or a draw offered to it), it starts the
decision on a thread of its own: a draw offer is answered with the engine's
``accepts_draw``, a claim the rules offer is made when the engine wants it (abstract
games: ``claim``; Raindropchess: a draw claim it would accept), a draw may be offered
(``offers_draw``, at most once in :data:`OFFER_GAP` actions), else the engine searches
the public position within the seat's budget (:func:`~companion.table.budget.turn_budget`:
its level's time, cut when its clock is short). The search reports progress, and stops
at once when the game changes under it (an undo, a resignation) or :meth:`stop` is
called.

The decision is handed back through ``post`` (the front end's way onto its own thread:
Kivy's ``Clock.schedule_once``, the terminal's queue) and played there through the
session's public API, if the game is still where it was. Every event
(:mod:`companion.table.events`) reaches the listeners on that thread too.

Undo with the companion at the table (:meth:`undo`) takes back whole turns: the
companion's reply and the person's last turn (a flip taken back goes back into its deck
unseen, as every takeback does). Redo is not offered: after an undo the person plays
again and the companion answers anew. Hints (:meth:`hint`) are searched the same way,
counted against the game's hint limit only once given.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from companion.engine.contract import Analysis, Budget, Engine, EngineError, Progress
from companion.engine.levels import DEFAULT_LEVEL, Level, level
from companion.table import words
from companion.table.budget import turn_budget
from companion.table.events import (
    CompanionAnswered,
    CompanionChose,
    CompanionClaimed,
    CompanionEvent,
    CompanionFailed,
    CompanionOffered,
    CompanionStopped,
    CompanionThinking,
    HintGiven,
    HintRefused,
    TakenBack,
)
from companion.table.hints import HINT_TURNS, Hint
from companion.table.seats import TableSettings
from companion.table.tables import Situation, TableGame

LOGGER = logging.getLogger(__name__)

OFFER_GAP = 20
"""Actions that must pass before the companion offers a draw again."""
PROGRESS_EVERY = 0.5
"""Seconds between two progress reports of one search."""

Post = Callable[[Callable[[], None]], None]
"""Runs a call on the front end's thread (soon, in order)."""
Listener = Callable[[CompanionEvent], None]

T = TypeVar("T")


class TableError(ValueError):
    """Something the runner refuses (an undo with nobody to take back for...)."""


@dataclass(frozen=True)
class Decision:
    """What the companion's thread decided."""

    kind: str
    """``"turn"``, ``"answer"``, ``"claim"`` or ``"offer"``."""
    analysis: Analysis | None = None
    accept: bool = False
    claim: str = ""


class _Job(Generic[T]):
    """One piece of work on its own thread; its end is posted to the front end."""

    def __init__(self, situation: Situation, work: Callable[[threading.Event], T],
                 done: Callable[[_Job[T]], None], post: Post, name: str) -> None:
        self.situation = situation
        self.stop_event = threading.Event()
        self.result: T | None = None
        self.error: BaseException | None = None
        self.finished = threading.Event()
        self.started = time.monotonic()
        self._work = work
        self._done = done
        self._post = post
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> _Job[T]:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stop_event.set()

    @property
    def stopped(self) -> bool:
        return self.stop_event.is_set()

    def _run(self) -> None:
        try:
            self.result = self._work(self.stop_event)
        except BaseException as error:  # handed to the front end's thread
            self.error = error
        finally:
            self.finished.set()
            self._post(lambda: self._done(self))


class CompanionRunner:
    """Plays the companion's seats of one game (see the module's text).

    ``post`` runs a call on the front end's thread; every method here is called on that
    thread. ``seed``: the base of every search's seed (each turn's seed adds the number of
    actions played, so a game replays the same under the same seed and playout budgets).
    ``hint_level``/``hint_playouts``: how hints are searched (default: level 3's time).
    ``auto``: decide by itself whenever the game changes (else call :meth:`update`).
    """

    def __init__(self, table: TableGame, *, post: Post, listener: Listener | None = None,
                 seed: int = 0, hint_level: Level | None = None,
                 hint_playouts: int | None = None, auto: bool = True,
                 progress_every: float = PROGRESS_EVERY) -> None:
        self.table = table
        self.seed = seed
        self.hint_level = hint_level or level(DEFAULT_LEVEL)
        self.hint_playouts = hint_playouts
        self.progress_every = progress_every
        self._post = post
        self._listeners: list[Listener] = [listener] if listener is not None else []
        self._job: _Job[Decision] | None = None
        self._hint_job: _Job[Analysis] | None = None
        self._hint_count = HINT_TURNS
        self._failed: tuple[int, str] | None = None
        self._offered: dict[str, int] = {}
        self._scheduled = False
        self._playing: str | None = None
        self._lock = threading.Lock()
        self._closed = False
        self._unsubscribe = table.subscribe(self._changed) if auto else None

    # ------------------------------------------------------------------
    # Reading

    @property
    def settings(self) -> TableSettings:
        return self.table.settings

    @property
    def thinking(self) -> bool:
        """Whether the companion is deciding now."""
        return self._job is not None

    @property
    def thinking_seat(self) -> str | None:
        return self._job.situation.seat if self._job is not None else None

    @property
    def hinting(self) -> bool:
        return self._hint_job is not None

    @property
    def playing(self) -> str | None:
        """The seat whose decision is being played on the game right now (a front end
        hearing the game's own events then knows they are the companion's)."""
        return self._playing

    def companion_to_act(self) -> bool:
        """Whether a seat the companion holds must decide now (its turn, a draw offer),
        and it can (the engine did not fail there)."""
        situation = self.table.situation()
        return situation is not None and self.table.settings.is_companion(situation.seat) \
            and self._failed != situation.key

    def persons_turn(self) -> bool:
        """Whether a person must act now (the game is on and no companion is deciding)."""
        situation = self.table.situation()
        return situation is not None and not self.table.settings.is_companion(situation.seat)

    def refusal(self, seat: str | None = None) -> str | None:
        """Why a person may not act now (the companion is to move, or thinking), or ``None``."""
        situation = self.table.situation()
        if situation is None:
            return None
        if self.table.settings.is_companion(situation.seat) and (
                seat is None or seat == situation.seat):
            side = words.side_words(situation.side)
            return (f"it is {side}'s turn: the companion is thinking (undo takes back your "
                    f"last turn, resign resigns)")
        return None

    # ------------------------------------------------------------------
    # Listening

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def _emit(self, event: CompanionEvent) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # a listener's bug must not stop the companion
                LOGGER.exception("a companion listener failed on %s", type(event).__name__)

    def _changed(self) -> None:
        """The game changed (on whatever thread): decide again on the front end's thread."""
        with self._lock:
            if self._scheduled or self._closed:
                return
            self._scheduled = True
        self._post(self._scheduled_update)

    def _scheduled_update(self) -> None:
        with self._lock:
            self._scheduled = False
        self.update()

    # ------------------------------------------------------------------
    # Deciding

    def update(self) -> None:
        """Start the companion's decision if one of its seats must decide now; stop a
        search whose position has gone (the game changed under it)."""
        if self._closed:
            return
        situation = self.table.situation()
        job = self._job
        if job is not None:
            if situation is not None and situation.key == job.situation.key:
                return  # still deciding this
            self._stop_job(job, "the game changed")
        hint = self._hint_job
        if hint is not None and (situation is None or situation.key != hint.situation.key):
            hint.stop()
            self._hint_job = None
        if situation is None or not self.table.settings.is_companion(situation.seat):
            return
        if self._failed == situation.key:
            return  # the engine failed here: a person must act (undo, resign)
        self._start(situation)

    def _start(self, situation: Situation) -> None:
        seat = self.table.settings.seat(situation.seat)
        chosen = seat.engine_level
        try:
            engine = self.table.engine()
        except EngineError as error:
            self._failed = situation.key
            self._emit(CompanionFailed(seat.name, f"The companion cannot play "
                                                  f"{self.table.game}: {error}."))
            return
        budget = turn_budget(chosen, clock=self.table.clock(seat.name), playouts=seat.playouts)
        seed = self.seed + situation.key[0]
        offered = self._offered.get(seat.name)
        may_offer = situation.may_offer and (offered is None
                                             or situation.key[0] - offered >= OFFER_GAP)
        last_report = [0.0]

        def progress(report: Progress) -> None:
            now = time.monotonic()
            if now - last_report[0] < self.progress_every:
                return
            last_report[0] = now
            event = CompanionThinking(seat.name, chosen.number,
                                      words.thinking_sentence(situation.side, chosen.number),
                                      report)
            self._post(lambda: self._report_progress(job, event))

        def work(stop: threading.Event) -> Decision:
            return self._decide(engine, situation, chosen, budget, seed, may_offer, stop,
                                progress)

        job: _Job[Decision] = _Job(situation, work, self._finish, self._post,
                                   f"companion-{seat.name}")
        self._job = job
        self._emit(CompanionThinking(seat.name, chosen.number,
                                     words.thinking_sentence(situation.side, chosen.number)))
        job.start()

    def _decide(self, engine: Engine, situation: Situation, chosen: Level, budget: Budget,
                seed: int, may_offer: bool, stop: threading.Event,
                progress: Callable[[Progress], None]) -> Decision:
        """The companion's thread: read only ``situation`` and the engine."""
        if situation.answer_draw:
            return Decision("answer", accept=engine.accepts_draw(
                situation.position, level=chosen, seed=seed))
        claim = self.table.claim_choice(engine, situation, chosen, seed)
        if claim is not None:
            return Decision("claim", claim=claim)
        if may_offer and not stop.is_set() and self.table.offer_choice(
                engine, situation, chosen, seed):
            return Decision("offer")
        analysis = engine.analyse(situation.position, level=chosen, budget=budget, seed=seed,
                                  stop=stop, progress=progress)
        return Decision("turn", analysis=analysis)

    def _report_progress(self, job: _Job[Decision], event: CompanionThinking) -> None:
        if job is self._job and not job.finished.is_set():
            self._emit(event)

    def _finish(self, job: _Job[Decision]) -> None:
        if job is not self._job or self._closed:
            return
        self._job = None
        seat = job.situation.seat
        if job.stopped:
            return
        if self.table.key() != job.situation.key:
            self.update()
            return
        if job.error is not None:
            self._fail(job.situation, f"the engine failed: {job.error}")
            return
        decision = job.result
        assert decision is not None
        self._playing = seat
        try:
            self._apply(seat, job.situation, decision)
        except ValueError as error:
            self._fail(job.situation, str(error))
            return
        finally:
            self._playing = None
        if self._unsubscribe is None:
            self.update()   # not listening to the game: decide the next at once

    def _apply(self, seat: str, situation: Situation, decision: Decision) -> None:
        table = self.table
        if decision.kind == "answer":
            said = table.answer_draw(seat, decision.accept)
            self._emit(CompanionAnswered(seat, decision.accept, said))
        elif decision.kind == "claim":
            said = table.claim(seat, decision.claim)
            self._emit(CompanionClaimed(seat, decision.claim, said))
        elif decision.kind == "offer":
            self._offered[seat] = situation.key[0]
            said = table.offer_draw(seat)
            self._emit(CompanionOffered(seat, said))
        else:
            analysis = decision.analysis
            assert analysis is not None
            turn = analysis.chosen.turn
            played = table.play(seat, turn, analysis)
            self._emit(CompanionChose(seat, turn, played.words, analysis, played.squares,
                                      situation.position))

    def _fail(self, situation: Situation, why: str) -> None:
        self._failed = situation.key
        LOGGER.warning("the companion could not play for %s: %s", situation.seat, why)
        self._emit(CompanionFailed(situation.seat,
                                   f"The companion could not play for "
                                   f"{words.side_words(situation.seat)}: {why}."))

    def _stop_job(self, job: _Job[Decision], reason: str) -> None:
        job.stop()
        if self._job is job:
            self._job = None
        self._emit(CompanionStopped(job.situation.seat, reason))

    def stop(self, reason: str = "stopped") -> None:
        """Stop the companion's search and any hint now (they end within moments)."""
        if self._job is not None:
            self._stop_job(self._job, reason)
        if self._hint_job is not None:
            self._hint_job.stop()
            self._hint_job = None

    def close(self) -> None:
        """Stop everything and stop listening to the game (the front end is closing)."""
        self.stop("closing")
        self._closed = True
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the running search's thread has ended (tests; its result is still
        to be posted). ``True`` if none runs or it ended in time."""
        job = self._job
        return job is None or job.finished.wait(timeout)

    # ------------------------------------------------------------------
    # Undo with the companion at the table

    def undo(self) -> TakenBack:
        """Take back the companion's reply and the person's last turn together (the
        search stops first); :class:`TableError` if nothing can be taken back."""
        table = self.table
        persons = {seat.name for seat in table.settings.persons}
        if not persons:
            raise TableError("no person sits at the table: there is no turn to take back")
        self.stop("undo")
        actors = table.actors()
        if not table.can_undo():
            raise TableError("nothing to take back" if not actors else
                             "the game is over: a result is final")
        count = replies = 0
        while actors and actors[-1] not in persons and table.can_undo():
            table.undo_one()
            actors.pop()
            count += 1
            replies += 1
        seat = actors[-1] if actors else ""
        while actors and actors[-1] == seat and table.can_undo():
            table.undo_one()
            actors.pop()
            count += 1
        if not count:
            raise TableError("nothing to take back")
        self._failed = None
        if seat and count > replies:
            what = f"{words.side_words(seat)}'s last turn" + (
                " and the companion's reply" if replies else "")
        else:
            what = "the companion's turn"
        event = TakenBack(seat, count, f"Taken back: {what} ({count} action"
                                       f"{'s' if count != 1 else ''}).")
        self._emit(event)
        return event

    # ------------------------------------------------------------------
    # Hints

    def hint(self, seat: str | None = None, count: int = HINT_TURNS) -> str | None:
        """Start a hint for ``seat`` (default: the seat to move); its answer comes as
        :class:`HintGiven`. Returns why it is refused (also sent as :class:`HintRefused`),
        or ``None`` when it was started."""
        table = self.table
        situation = table.situation()
        mover = table.seat_to_move()
        seat = seat or mover or ""
        reason: str | None = None
        if situation is None or mover is None:
            reason = "the game is over" if table.is_over() else "the game is paused"
        elif table.settings.is_companion(seat):
            reason = f"{words.side_words(seat)} is the companion's seat"
        elif seat != mover:
            reason = f"it is {words.side_words(mover)}'s turn, not {words.side_words(seat)}'s"
        elif self._hint_job is not None:
            reason = "a hint is being thought of already"
        else:
            reason = table.settings.hints.refusal(table.hints_used(seat))
        if reason is not None:
            self._emit(HintRefused(seat, f"No hint: {reason}."))
            return reason
        assert situation is not None
        try:
            engine = table.engine()
        except EngineError as error:
            self._emit(HintRefused(seat, f"No hint: {error}."))
            return str(error)
        chosen = self.hint_level
        budget = Budget.for_level(chosen, playouts=self.hint_playouts)
        seed = self.seed + situation.key[0]
        self._hint_count = max(1, count)

        def work(stop: threading.Event) -> Analysis:
            return engine.analyse(situation.position, level=chosen, budget=budget, seed=seed,
                                  stop=stop)

        hinted = Situation(seat, situation.position, situation.key)
        self._hint_job = _Job(hinted, work, self._hint_done, self._post, "companion-hint")
        self._hint_job.start()
        return None

    def _hint_done(self, job: _Job[Analysis]) -> None:
        if job is not self._hint_job or self._closed:
            return
        self._hint_job = None
        table = self.table
        seat = job.situation.seat
        if job.stopped or table.key() != job.situation.key:
            self._emit(HintRefused(seat, "No hint: the game moved on while it was thought "
                                         "of."))
            return
        if job.error is not None or job.result is None:
            self._emit(HintRefused(seat, f"No hint: {job.error}."))
            return
        analysis = job.result
        count = self._hint_count
        try:
            turns, squares = table.hint_turns(analysis, count)
            table.note_hint(seat)
        except ValueError as error:
            self._emit(HintRefused(seat, f"No hint: {error}."))
            return
        lines = words.hint_sentences(analysis, [turn.words for turn in turns], count)
        left = table.settings.hints.left(table.hints_used(seat))
        if left is not None:
            lines.append(f"Hints left: {left}.")
        self._emit(HintGiven(Hint(seat, analysis.position, turns, squares, tuple(lines), left,
                                  analysis)))
