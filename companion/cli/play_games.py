"""``raindrop play --game GAME``: a hot-seat game of an abstract game in the terminal.

Commands are read line by line from standard input, so scripts and tests can
drive a whole game through a pipe. A turn is typed whole (``d5>c5+g5``) or
built one step at a time (``d5``, then ``c5``...): each step is checked at
once and the legal next steps are shown. Every action is journaled; ``raindrop
resume`` continues after a crash or a quit. Nothing here knows any particular
game: it goes through :mod:`companion.games`.
"""

from __future__ import annotations

import itertools
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from companion.cli import CommandError
from companion.cli.hints import HINT_TURNS, show_hint
from companion.cli.play_stones import follow
from companion.cli.terminal_time import make_now
from companion.clock import ClockSettings, ClockSettingsError
from companion.engine.contract import Budget
from companion.events import ClockTick, Flagged, Redone, Undone
from companion.games import GameRules, IllegalTurn, OptionError, TurnBuilder
from companion.games.record import parse_options, write_record
from companion.games.resume import new_session, resume_session
from companion.games.session import (
    Claimed,
    DrawOffer,
    GameEnded,
    GameSession,
    SessionError,
    SessionEvent,
    TurnPlayed,
)
from companion.journal import Journal, JournalError
from companion.sync.stone_session import is_stone_board

LOGGER = logging.getLogger(__name__)

LIST_LIMIT = 40
"""At most this many turns or steps are listed at once (some games have hundreds of thousands)."""

NOTE_LIMIT = 6
"""Steps are listed with their notes when there are at most this many."""

HELP = """\
Commands (one per line):
  TURN                 a whole turn, as the game's rules page writes it
  STEP                 one step of a turn (e.g. the stone to drop on); the legal
                       next steps are shown after each, and the turn is played
                       when it cannot go on ('done' ends it where it may end)
  steps                the legal next steps of the turn being built
  back                 take back the last step of the turn being built
  cancel               drop the turn being built
  done                 play the turn built so far (when it may end here)
  turns                list legal turns (the first {limit})
  hint [N]             the engine's best N turns (default 3) with their chances
  undo, redo           take back / replay the last turn (not after the game is over)
  claim [NAME]         make a claim the rules offer now (e.g. a draw)
  draw                 offer a draw, or accept the one offered
  draw offer|accept|decline
  resign               the side to move resigns
  pause, continue      stop and restart the clock
  board                draw the board again
  save [FILE]          write the game record (default: next to its journal)
  help                 this text
  quit                 leave; the game stays saved: raindrop resume"""


def start_session(game: str, option_words: list[str], *, clock_text: str | None,
                  directory: str | None, now: Callable[[], float],
                  ) -> tuple[GameSession, Journal]:
    """A new journaled session of ``game``; :class:`CommandError` for bad options."""
    clock = None
    if clock_text:
        try:
            clock = ClockSettings.parse(clock_text)
        except ClockSettingsError as error:
            raise CommandError(str(error)) from None
    try:
        return new_session(game, parse_options(option_words), clock=clock,
                           directory=directory, now=now)
    except (KeyError, OptionError) as error:
        raise CommandError(str(error)) from None
    except (OSError, JournalError) as error:
        raise CommandError(f"cannot create the game's journal: {error}") from None


def resume_game(path: str | Path, *, now: Callable[[], float], fake: Any = None) -> int:
    """``raindrop resume`` of an abstract game's journal."""
    resumed = resume_session(path, now=now)
    terminal = GamesTerminal(resumed.session, journal_path=resumed.journal.path,
                             advance=_advancer(fake))
    for warning in resumed.warnings:
        terminal.say(f"Warning: {warning}")
    session = resumed.session
    terminal.say(f"Resumed the game of {session.rules.title} after {len(session.record)} "
                 f"action(s).")
    turns = session.turns
    if turns:
        terminal.say("Turns: " + " ".join(turns[-12:]) + (" ..." if len(turns) > 12 else ""))
    return terminal.run()


def _advancer(fake: Any) -> Callable[[float], None] | None:
    if fake is None:
        return None

    def advance(seconds: float) -> None:
        fake.value += seconds

    return advance


def run_game(args: Any) -> int:
    """``raindrop play --game GAME [KEY=VALUE...]``."""
    followed = args.board is not None and is_stone_board(args.board)
    if args.board not in (None, "none", "sim") and not followed:
        raise CommandError(f"--board {args.board}: {args.game} is played with typed turns "
                           f"or followed with --board camera[:SOURCE] or serial[:PORT] "
                           f"(use --board none)")
    if getattr(args, "keep_frames", None):
        raise CommandError(f"--keep-frames keeps frames of Raindropchess games only, "
                           f"not of {args.game}")
    now, fake = make_now()
    session, journal = start_session(args.game, list(args.options), clock_text=args.clock,
                            directory=args.data_dir, now=now)
    terminal = GamesTerminal(session, journal_path=journal.path, advance=_advancer(fake))
    terminal.say(f"New game of {session.rules.title}"
                 + (f" ({' '.join(f'{k}={v}' for k, v in session.options.items())})"
                    if session.options else "") + ". Type 'help' for the commands.")
    if followed:
        stop = follow(terminal, args.board)
        try:
            return terminal.run()
        finally:
            stop()
    return terminal.run()


class GamesTerminal:
    """Reads commands, calls the session, prints what happened, for both players."""

    def __init__(self, session: GameSession, *, journal_path: Path | None = None,
                 out: TextIO | None = None, advance: Callable[[float], None] | None = None,
                 hint_budget: Budget | None = None) -> None:
        self.session = session
        self.hint_budget = hint_budget
        """The hint's search budget (None: the default level's time)."""
        self.rules: GameRules[Any] = session.rules
        self.journal_path = journal_path
        self.out = out or sys.stdout
        self.advance = advance
        self.builder: TurnBuilder[Any] | None = None
        self.changed = True
        session.subscribe(self.on_event)

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    # ------------------------------------------------------------------
    # Events -> words

    def on_event(self, event: SessionEvent) -> None:
        if isinstance(event, TurnPlayed):
            self.say(f"{event.player.capitalize()} plays {event.turn}.")
        elif isinstance(event, Claimed):
            self.say(f"{event.player.capitalize()} claims: {event.claim}.")
        elif isinstance(event, DrawOffer):
            if event.declined:
                self.say(f"The draw offered by {event.player} is declined.")
            else:
                other = self.session.opponent(event.player)
                self.say(f"{event.player.capitalize()} offers a draw ({other}: 'draw accept' "
                         f"or 'draw decline'; playing on declines it).")
        elif isinstance(event, GameEnded):
            self.say(f"GAME OVER: {event.reason} ({event.result}).")
        elif isinstance(event, Undone):
            self.say(f"Undone: {event.description}")
        elif isinstance(event, Redone):
            self.say(f"Redone: {event.description}")
        elif isinstance(event, Flagged):
            self.say("Time is up.")
        elif isinstance(event, ClockTick):
            return
        self.changed = True

    # ------------------------------------------------------------------
    # Showing

    def status(self) -> list[str]:
        session = self.session
        lines: list[str] = []
        result = session.result
        if result is not None:
            lines.append(f"The game is over: {result.reason} ({result.text}).")
            scores = ", ".join(f"{k} {v}" for k, v in result.scores.items())
            if scores:
                lines.append(f"Score: {scores}.")
            return lines
        lines.append(f"{session.to_move.capitalize()} to move (turn {len(session.turns) + 1})."
                     + (f" Last turn: {session.last_turn}." if session.last_turn else ""))
        claims = session.claims()
        if claims:
            lines.append("You may claim: " + ", ".join(claims) + " ('claim NAME').")
        if session.draw_offer is not None:
            lines.append(f"{session.draw_offer.capitalize()} offers a draw.")
        clock = session.clock
        if clock is not None:
            first, second = self.rules.players
            lines.append(f"Clock: {first} {_minutes(clock.remaining(True))}, "
                         f"{second} {_minutes(clock.remaining(False))}"
                         + (" (paused)" if clock.paused else ""))
        if self.builder is not None and self.builder.steps:
            lines.append("Turn so far: " + " ".join(s.text for s in self.builder.steps)
                         + ". " + self.builder.message)
        return lines

    def draw(self) -> None:
        shown = self.builder.position if self.builder is not None else self.session.position
        self.say(self.rules.diagram(shown))
        for line in self.status():
            self.say(line)
        self.changed = False

    def prompt(self) -> None:
        side = self.session.to_move if not self.session.is_over else "over"
        print(f"{side}> ", end="", file=self.out, flush=True)

    def show_steps(self) -> None:
        builder = self.current_builder()
        steps = builder.next_steps()
        if builder.complete:
            self.say(f"The turn may end here: 'done' plays {builder.turn()}.")
        if not steps:
            self.say("No further step.")
            return
        noted = len(steps) <= NOTE_LIMIT  # a long list reads better as bare step texts
        shown = ", ".join(s.text + (f" ({s.note})" if s.note and noted else "")
                          for s in steps[:LIST_LIMIT])
        more = f" ... and {len(steps) - LIST_LIMIT} more" if len(steps) > LIST_LIMIT else ""
        self.say(f"{builder.message}. Next steps: {shown}{more}")

    def show_turns(self) -> None:
        found = list(itertools.islice(self.rules.turns(self.session.position), LIST_LIMIT + 1))
        if not found:
            self.say("No legal turn.")
            return
        more = " ..." if len(found) > LIST_LIMIT else ""
        self.say("Legal turns: " + " ".join(found[:LIST_LIMIT]) + more)

    # ------------------------------------------------------------------
    # Acting

    def current_builder(self) -> TurnBuilder[Any]:
        if self.builder is None:
            self.builder = self.rules.builder(self.session.position)
        return self.builder

    def commit_builder(self) -> None:
        builder = self.current_builder()
        turn = builder.turn()
        self.builder = None
        self.session.play(turn)

    def add_step(self, text: str) -> None:
        builder = self.current_builder().add(text)
        self.builder = builder
        self.changed = True
        step = builder.steps[-1]
        self.say(f"Step {step.text}" + (f": {step.note}." if step.note else "."))
        if builder.complete and not builder.next_steps():
            self.commit_builder()
        else:
            self.show_steps()

    def play_or_step(self, text: str) -> None:
        """A step if the turn's builder takes it, else a whole turn.

        Steps come first: where a turn may go on after what was typed (a Raindrops
        chain of placements), typing it step by step must be possible, and ``done``
        plays it as it stands; a typed whole turn the builder does not take as
        steps is played at once.
        """
        try:
            self.add_step(text)
            return
        except IllegalTurn as step_error:
            if self.builder is not None and self.builder.steps:
                raise
            try:
                self.session.play(text)
            except IllegalTurn as whole_error:
                raise whole_error from step_error
            self.builder = None

    def handle(self, line: str) -> bool:
        """One command; False to stop."""
        text = line.strip()
        if not text:
            return True
        word, _, rest = text.partition(" ")
        command = word.lower()
        rest = rest.strip()
        try:
            return self._dispatch(command, rest, text)
        except (IllegalTurn, SessionError) as error:
            self.say(f"Not done: {error}")
        except (OSError, JournalError) as error:
            self.say(f"Not saved: {error}")
        return True

    def _dispatch(self, command: str, rest: str, text: str) -> bool:
        session = self.session
        if command in ("quit", "exit", "q"):
            return False
        if command in ("help", "?"):
            self.say(HELP.format(limit=LIST_LIMIT))
        elif command == "board":
            self.changed = True
        elif command == "steps":
            self.show_steps()
        elif command == "turns":
            self.show_turns()
        elif command == "hint" and not session.is_over:
            count = int(rest) if rest.isdigit() and 0 < int(rest) <= 10 else HINT_TURNS
            show_hint(session.position.text(), self.say, count=count, budget=self.hint_budget)
        elif command == "back":
            if self.builder is None or not self.builder.steps:
                self.say("No step to take back.")
            else:
                rebuilt = self.rules.builder(session.position)
                for step in self.builder.steps[:-1]:
                    rebuilt = rebuilt.add(step)
                self.builder = rebuilt
                self.changed = True
        elif command == "cancel":
            self.builder = None
            self.changed = True
        elif command == "done":
            self.commit_builder()
        elif command == "undo":
            self.builder = None
            session.undo()
        elif command == "redo":
            self.builder = None
            session.redo()
        elif command == "claim":
            claims = session.claims()
            if not rest and len(claims) == 1:
                rest = claims[0]
            if not rest:
                self.say("Claim what? " + (", ".join(claims) if claims
                                            else "Nothing can be claimed now."))
            else:
                self.builder = None
                session.claim(rest)
        elif command == "draw":
            self._draw(rest)
        elif command == "resign":
            self.builder = None
            session.resign(rest or None)
        elif command == "pause":
            session.pause()
            self.changed = True
        elif command == "continue":
            session.resume_clock()
            self.changed = True
        elif command == "save":
            self.save(rest or None)
        elif command == "_wait" and self.advance is not None:
            self.advance(float(rest))
        elif session.is_over:
            self.say(f"The game is over ({session.result and session.result.reason}); "
                     f"'save' writes its record, 'quit' leaves.")
        else:
            self.play_or_step(text)
        return True

    def _draw(self, rest: str) -> None:
        session = self.session
        word = rest.lower()
        if word in ("", "offer") and session.draw_offer is None:
            session.offer_draw()
        elif word in ("", "accept"):
            session.accept_draw()
        elif word == "decline":
            session.decline_draw()
        else:
            self.say("draw [offer|accept|decline]")

    def save(self, target: str | None) -> None:
        if target is not None:
            path = Path(target)
        elif self.journal_path is not None:
            path = self.journal_path.with_suffix(".txt")
        else:
            raise SessionError("name a file: save FILE")
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(write_record(self.session), encoding="utf-8")
        temporary.replace(path)  # never a half-written record in place of a good one
        self.say(f"Saved the record as {path}.")

    def run(self, lines: TextIO | None = None) -> int:
        source = lines or sys.stdin
        self.draw()
        self.prompt()
        for line in source:
            if self.session.clock is not None:
                self.session.tick()
            try:
                keep = self.handle(line)
            except BrokenPipeError:
                return 0
            if not keep:
                break
            if self.changed:
                self.draw()
            self.prompt()
        self.say()
        self.say("The game is saved: 'raindrop resume' continues it.")
        return 0


def _minutes(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"
