"""The companion at a terminal game, for Raindropchess and the abstract games alike.

``raindrop play --companion SIDE[:LEVEL]`` (repeatable; ``both``) seats the companion;
:class:`TerminalCompanion` runs it (:class:`~companion.table.runner.CompanionRunner`)
beside the terminal's loop: its turns are searched off the input thread, a "thinking"
line shows while it searches, and its decisions come back through the loop's queue to be
played there. It says (and, with ``--voice``, speaks) what it does; a sensing board
follows its turns (:class:`~companion.table.lead.BoardLead`), or, with nobody at the
table, the simulated hand makes them.
"""

from __future__ import annotations

import argparse
import collections
import logging
import queue
import time
from collections.abc import Callable
from typing import Any

from companion.cli import CommandError
from companion.engine.contract import MAX_PLAYOUTS, Budget
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
from companion.table.lead import BoardLead, LedBoard
from companion.table.review import REVIEW_SECONDS, Reviewing, Timeline
from companion.table.runner import CompanionRunner, Post
from companion.table.seats import HintPolicy, SeatError, TableSettings, parse_companions
from companion.table.speech import NullSpeaker, SpeechQueue, desktop_speaker
from companion.table.tables import TableGame

LOGGER = logging.getLogger(__name__)

PROGRESS_LINES_EVERY = 2.0
"""Seconds between two "... N playouts" lines while the companion thinks."""


def add_companion_options(parser: argparse._ActionsContainer, *, seats: bool = True) -> None:
    """``--companion``, ``--companion-playouts``, ``--hints`` (new games) and ``--voice``."""
    if seats:
        parser.add_argument(
            "--companion", action="append", default=[], metavar="SIDE[:LEVEL]",
            help="the companion plays SIDE (white, black; a game's own sides, e.g. vertical; "
                 "Rumbo: proposer or chooser; both) at LEVEL 1-5 (default 3); repeatable")
        parser.add_argument(
            "--companion-playouts", type=playouts_option, metavar="N",
            help="the companion searches N playouts (nodes) a turn instead of its level's "
                 "time: the same game on any machine (tests, reproducible games)")
        parser.add_argument(
            "--hints", default="unlimited", metavar="off|3|unlimited",
            help="hints each person may ask a game: off, a number (3) or unlimited "
                 "(default); noted in the record")
    parser.add_argument("--voice", action="store_true",
                        help="the companion speaks what it shows (pyttsx3 with espeak-ng; "
                             "off by default)")


def playouts_option(text: str) -> int:
    """An option's playouts: a whole number from 1 to the engines' most."""
    value = text.strip()
    if not (value.isascii() and value.isdigit()) or not 1 <= int(value) <= MAX_PLAYOUTS:
        raise argparse.ArgumentTypeError(
            f"playouts must be a whole number from 1 to {MAX_PLAYOUTS}, not {text!r}")
    return int(value)


def table_settings(args: argparse.Namespace, names: tuple[str, str]) -> TableSettings:
    """The seats ``--companion`` asks for (``CommandError`` naming a bad word)."""
    try:
        return parse_companions(args.companion, names, playouts=args.companion_playouts,
                                hints=HintPolicy.parse(args.hints))
    except SeatError as error:
        raise CommandError(str(error)) from None


class TerminalCompanion:
    """The companion's side of one terminal game (see the module's text).

    ``say`` prints a line; ``post`` hands a call to the terminal's loop; ``voice``: speak.
    """

    def __init__(self, table: TableGame, *, say: Callable[[str], None], post: Post,
                 voice: bool = False, seed: int = 0, hint_playouts: int | None = None
                 ) -> None:
        self.table = table
        self.say = say
        self.speech: SpeechQueue | None = None
        if voice:
            speaker = desktop_speaker()
            if isinstance(speaker, NullSpeaker):
                say(f"Voice: {speaker.reason}.")
            else:
                self.speech = SpeechQueue(speaker, on_error=lambda why: post(
                    lambda: say(f"Voice: {why}.")))
        self.acted = False
        """Set when the companion did something the loop should redraw and prompt after."""
        self.auto_board: Callable[[], None] | None = None
        self.held: list[Callable[[], None]] = []
        """What the game said during the companion's turn and is to be said after its
        words (the verdict): the terminal holds it here."""
        self._last_progress = 0.0
        self._lead: BoardLead | None = None
        if hint_playouts is None:  # a game of fixed budgets keeps its hints quick too
            hint_playouts = next((seat.playouts for seat in table.settings.companions
                                  if seat.playouts), None)
        self.runner = CompanionRunner(table, post=post, listener=self.on_event, seed=seed,
                                      hint_playouts=hint_playouts)
        self._post = post
        self._review_playouts = hint_playouts
        self._reviewing: Reviewing | None = None

    # ------------------------------------------------------------------

    @property
    def settings(self) -> TableSettings:
        return self.table.settings

    @property
    def seated(self) -> bool:
        """Whether the companion holds a seat."""
        return bool(self.settings.companions)

    @property
    def waiting(self) -> bool:
        """Whether the game waits for the companion (it thinks, must decide, a hint is
        being searched, or the game reviewed)."""
        return (self.runner.thinking or self.runner.hinting or self.runner.companion_to_act()
                or self._reviewing is not None)

    @property
    def leading(self) -> bool:
        """Whether a sensing board is being led to the companion's turn."""
        return self._lead is not None and self._lead.leading

    def announce(self) -> None:
        """Say who sits where (when the companion does)."""
        if self.seated:
            self.say("At the table: " + self.settings.describe() + ".")

    def start(self) -> None:
        """Let the companion play if it is its turn."""
        self.runner.update()

    def follow_board(self, board: LedBoard | None, auto: Callable[[], None] | None) -> None:
        """A sensing board: the players make the companion's turns on it (``board``); or,
        with no person at the table, ``auto`` (the simulated hand) makes them."""
        if not self.seated:
            return
        if self.settings.persons and board is not None:
            self._lead = BoardLead(board)
            self.runner.subscribe(self._lead)
        elif not self.settings.persons:
            self.auto_board = auto

    def _say_held(self) -> None:
        held, self.held = self.held, []
        for call in held:
            call()

    def board_caught_up(self) -> None:
        if self._lead is not None:
            self._lead.done()

    def speak(self, text: str) -> None:
        if self.speech is not None:
            self.speech.say(text)

    def tell(self, text: str) -> None:
        """Show a sentence and speak it (the same words)."""
        self.say(text)
        self.speak(text)

    def refusal(self) -> str | None:
        return self.runner.refusal()

    def review(self, timeline: Timeline) -> None:
        """Review the game just played off the loop's thread (the terminal's ``review``):
        its lines come back through the loop. Each position gets the hints' playouts
        where the game has them (a game of fixed budgets), else half a second."""
        if self._reviewing is not None:
            self.say("The review is already running.")
            return
        playouts = self._review_playouts
        budget = Budget(playouts=playouts) if playouts else Budget(seconds=REVIEW_SECONDS)
        each = f"{playouts} playouts" if playouts else f"{REVIEW_SECONDS:g} s"
        self.say(f"Reviewing the game: {len(timeline.plies) + 1} positions, {each} each...")

        def done(job: Reviewing) -> None:
            self._post(lambda: self._reviewed(job))

        self._reviewing = Reviewing(timeline, budget=budget, seed=self.runner.seed,
                                    on_done=done).start()

    def _reviewed(self, job: Reviewing) -> None:
        self._reviewing = None
        try:
            result = job.result(timeout=0)
        except ValueError as error:   # ReviewError, EngineError: no review of this game
            self.say(f"No review: {error}.")
        else:
            for line in result.lines():
                self.say(line)
        self.acted = True

    def close(self) -> None:
        if self._reviewing is not None:
            self._reviewing.stop()
        self.runner.close()
        if self.speech is not None:
            self.speech.close(wait=3.0)

    # ------------------------------------------------------------------

    def on_event(self, event: CompanionEvent) -> None:
        if isinstance(event, CompanionThinking):
            if event.progress is None:
                self._last_progress = time.monotonic()
                self.say(event.words)
            elif time.monotonic() - self._last_progress >= PROGRESS_LINES_EVERY:
                self._last_progress = time.monotonic()
                best = event.progress.best
                self.say(f"  ... {event.progress.playouts} playouts"
                         + (f", best so far {best.turn}" if best is not None else ""))
            return
        if isinstance(event, CompanionChose):
            self.tell(event.words)
            self._say_held()
            if self.auto_board is not None:
                self.auto_board()
        elif isinstance(event, CompanionAnswered | CompanionClaimed | CompanionOffered):
            self.tell(event.words)
            self._say_held()
        elif isinstance(event, HintGiven):
            for line in event.hint.lines:
                self.tell(line)
            self.say("  (as typed: " + ", ".join(turn.turn for turn in event.hint.turns) + ")")
        elif isinstance(event, HintRefused | CompanionFailed | TakenBack):
            self.say(event.words)
        elif isinstance(event, CompanionStopped):
            LOGGER.info("the companion stopped thinking for %s: %s", event.seat, event.reason)
            return
        self.acted = True


def companion_seed(args: Any) -> int:
    """The base of the companion's search seeds: ``--seed``, else 0."""
    seed = getattr(args, "seed", None)
    return seed if isinstance(seed, int) else 0


def is_terminal(stream: Any) -> bool:
    """Whether ``stream`` is a terminal (a person types), not a file or a pipe."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class TerminalInbox:
    """What a terminal game handles next, in order: typed lines, problems with them, calls
    posted from other threads, and the end of input (``("eof", None)``).

    With ``hold`` (input from a file or a pipe) typed lines wait while the companion
    thinks, so a script plays in step with it; at a terminal they are read at once."""

    def __init__(self, hold: bool) -> None:
        self.queue: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.hold = hold
        self.ended = False
        """Standard input has ended: play goes on while the companion plays."""
        self._held: collections.deque[Any] = collections.deque()

    def put(self, item: tuple[str, Any]) -> None:
        self.queue.put(item)

    def finished(self, waiting: bool) -> bool:
        """Input has ended and nothing is left to handle (``waiting``: the companion's turn)."""
        return self.ended and not self._held and not waiting and self.queue.empty()

    def next(self, waiting: bool, timeout: float = 0.5) -> tuple[str, Any] | None:
        """The next item to handle, or ``None`` when there is none yet (time to tick)."""
        if self._held and not waiting:
            return "line", self._held.popleft()
        try:
            kind, value = self.queue.get(timeout=timeout)
        except queue.Empty:
            return None
        if kind == "eof":
            self.ended = True
            return None
        if kind == "line" and self.hold and (self._held or waiting):
            self._held.append(value)   # a script waits for the companion
            return None
        return kind, value
