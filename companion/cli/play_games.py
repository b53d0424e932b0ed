"""``raindrop play --game GAME``: a hot-seat game of an abstract game in the terminal.

Commands are read line by line from standard input, so scripts and tests can
drive a whole game through a pipe. A turn is typed whole (``d5>c5+g5``) or
built one step at a time (``d5``, then ``c5``...): each step is checked at
once and the legal next steps are shown. Every action is journaled; ``raindrop
resume`` continues after a crash or a quit. Nothing here knows any particular
game: it goes through :mod:`companion.games`.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from companion.cli import CommandError
from companion.cli.companion_terminal import (
    TerminalCompanion,
    TerminalInbox,
    companion_seed,
    is_terminal,
    table_settings,
)
from companion.cli.play_stones import follow, simulate
from companion.cli.terminal_time import make_now
from companion.clock import ClockSettings, ClockSettingsError
from companion.engine.contract import Budget
from companion.events import ClockTick, Flagged, Redone, Undone
from companion.games import GameRules, IllegalTurn, OptionError, TurnBuilder
from companion.games import get as get_game
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
from companion.limits import LimitError, parse_decimal, typed_lines
from companion.saving import write_new, write_replacing
from companion.sync.stone_session import is_stone_board
from companion.table import words as sentences
from companion.table.games_table import GamesTable, seat_names
from companion.table.hints import HINT_TURNS
from companion.table.review import timeline_of_session
from companion.table.runner import TableError
from companion.table.seats import TableSettings

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
  hint [N]             the engine's best N turns (default 3) with their chances,
                       within the game's hint limit (--hints)
  undo, redo           take back / replay the last turn (not after the game is over);
                       against the companion, undo takes back your last turn and its
                       reply together, and there is no redo
  claim [NAME]         make a claim the rules offer now (e.g. a draw)
  draw                 offer a draw, or accept the one offered
  draw offer|accept|decline
  resign               the side to move resigns (against the companion: you)
  pause, continue      stop and restart the clock
  board                draw the board again
  save [FILE]          write the game record (default: next to its journal)
  review               once the game is over: the engine's estimate after each turn,
                       each turn marked (good, inaccuracy, mistake, blunder) with the
                       better turn (raindrop review FILE does it for a saved game)
  help                 this text
  quit                 leave; the game stays saved: raindrop resume"""


def start_session(game: str, option_words: list[str], *, clock_text: str | None,
                  directory: str | None, now: Callable[[], float],
                  seats: Callable[[tuple[str, str]], TableSettings] | None = None,
                  ) -> tuple[GameSession, Journal]:
    """A new journaled session of ``game``; :class:`CommandError` for bad options.
    ``seats``: the game's seat names -> who sits where (default: two persons)."""
    clock = None
    if clock_text:
        try:
            clock = ClockSettings.parse(clock_text)
        except ClockSettingsError as error:
            raise CommandError(str(error)) from None
    try:
        options = parse_options(option_words)
        table = None
        if seats is not None:
            rules = get_game(game)
            names = seat_names(rules, rules.start(**options))
            settings = seats(names)
            if settings != TableSettings.hot_seat(names):   # else: as before seats were kept
                table = settings.to_dict()
        return new_session(game, options, clock=clock, directory=directory, now=now,
                           table=table)
    except (KeyError, OptionError) as error:
        raise CommandError(str(error)) from None
    except (OSError, JournalError) as error:
        raise CommandError(f"cannot create the game's journal: {error}") from None


def resume_game(path: str | Path, *, now: Callable[[], float], fake: Any = None,
                board: str | None = None, voice: bool = False, cut: bool = False) -> int:
    """``raindrop resume`` of an abstract game's journal (who sits where, the hint limit
    and the hints used come back from it)."""
    resumed = resume_session(path, now=now, cut=cut)
    terminal = GamesTerminal(resumed.session, journal_path=resumed.journal.path,
                             advance=_advancer(fake), voice=voice)
    for warning in resumed.warnings:
        terminal.say(f"Warning: {warning}")
    session = resumed.session
    terminal.say(f"Resumed the game of {session.rules.title} after {len(session.record)} "
                 f"action(s).")
    turns = session.turns
    if turns:
        terminal.say("Turns: " + " ".join(turns[-12:]) + (" ..." if len(turns) > 12 else ""))
    try:
        return play_on(terminal, board or "none")
    finally:
        resumed.journal.close()


def _advancer(fake: Any) -> Callable[[float], None] | None:
    if fake is None:
        return None

    def advance(seconds: float) -> None:
        fake.value += seconds

    return advance


def run_game(args: Any) -> int:
    """``raindrop play --game GAME [KEY=VALUE...]``."""
    board = args.board or "none"
    check_board(board, args.game)
    if getattr(args, "keep_frames", None):
        raise CommandError(f"--keep-frames keeps frames of Raindropchess games only, "
                           f"not of {args.game}")
    now, fake = make_now()
    session, journal = start_session(
        args.game, list(args.options), clock_text=args.clock, directory=args.data_dir,
        now=now, seats=lambda names: table_settings(args, names))
    terminal = GamesTerminal(session, journal_path=journal.path, advance=_advancer(fake),
                             voice=args.voice, seed=companion_seed(args),
                             hint_playouts=args.companion_playouts)
    terminal.say(f"New game of {session.rules.title}"
                 + (f" ({' '.join(f'{k}={v}' for k, v in session.options.items())})"
                    if session.options else "") + ". Type 'help' for the commands.")
    try:
        return play_on(terminal, board)
    finally:
        journal.close()


def check_board(board: str, game: str) -> None:
    """``--board`` for a stone game: none, sim, or a board it can follow."""
    if board not in ("none", "sim") and not is_stone_board(board):
        raise CommandError(f"--board {board}: {game} is played with typed turns, on the "
                           f"simulated board (sim), or followed with --board "
                           f"camera[:SOURCE] or serial[:PORT] (use --board none)")


def play_on(terminal: GamesTerminal, board: str) -> int:
    """Run the terminal with its board: none, the simulated board of stones, or a board
    it follows."""
    check_board(board, terminal.rules.name)
    if board == "none":
        return terminal.run()
    stop = simulate(terminal) if board == "sim" else follow(terminal, board)
    try:
        return terminal.run()
    finally:
        stop()


class GamesTerminal:
    """Reads commands, calls the session, prints what happened, for both players."""

    def __init__(self, session: GameSession, *, journal_path: Path | None = None,
                 out: TextIO | None = None, advance: Callable[[float], None] | None = None,
                 hint_budget: Budget | None = None, voice: bool = False, seed: int = 0,
                 hint_playouts: int | None = None) -> None:
        self.session = session
        self.rules: GameRules[Any] = session.rules
        self.journal_path = journal_path
        self.out = out or sys.stdout
        self.advance = advance
        self.voice = voice
        self.builder: TurnBuilder[Any] | None = None
        self.changed = True
        self.inbox = TerminalInbox(hold=False)
        self.sim: Any = None
        """The simulated board of stones (``--board sim``), if any."""
        self.board: Any = None
        """The board session following a board (simulated or real), if any."""
        self.call_lock: Any = contextlib.nullcontext()
        """Held while a posted call runs (a followed board's lock)."""
        self.record_saved = False
        self.prompt_open = False
        """The prompt is shown and nothing was typed after it yet."""
        session.subscribe(self.on_event)
        if hint_playouts is None and hint_budget is not None:
            hint_playouts = hint_budget.playouts
        self.table = GamesTable(session)
        self.companion = TerminalCompanion(self.table, say=self.say, post=self.post,
                                           voice=voice, seed=seed,
                                           hint_playouts=hint_playouts)

    def post(self, call: Callable[[], None]) -> None:
        """Run ``call`` on the terminal's loop (the companion's decisions come here)."""
        self.inbox.put(("call", call))

    def say(self, text: str = "") -> None:
        if self.prompt_open:   # something said while the prompt waits: on a line of its own
            self.prompt_open = False
            print(file=self.out)
        print(text, file=self.out, flush=True)

    # ------------------------------------------------------------------
    # Events -> words

    def on_event(self, event: SessionEvent) -> None:
        if self.companion.runner.playing is not None:
            if isinstance(event, TurnPlayed | Claimed | DrawOffer):
                self.changed = True   # the companion says its turn in its own words
                return
            if isinstance(event, GameEnded):   # said after the companion's words
                self.companion.held.append(lambda: self.show_event(event))
                return
        self.show_event(event)

    def show_event(self, event: SessionEvent) -> None:
        if isinstance(event, GameEnded) and self.voice:
            result = self.session.result
            if result is not None:
                self.companion.tell(sentences.result_sentence(result.winner, result.reason))
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
        if side != "over" and self.companion.runner.companion_to_act():
            side = "(the companion's turn)"   # undo, resign, help... still work
        print(f"{side}> ", end="", file=self.out, flush=True)
        self.prompt_open = True

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
        """The first turns, worked out lazily: only as many as are shown."""
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
        if self.sim is not None and self.sim.is_command(text):
            if not self.sim.handle_command(text):
                self.say(f"Board: {self.sim.last_message}")
            elif self.sim.last_message:
                self.say(self.sim.last_message)
            return True
        before = self.game_state()
        try:
            return self._dispatch(command, rest, text)
        except (IllegalTurn, SessionError, TableError, LimitError) as error:
            self.say(f"Not done: {error}")
        except (OSError, JournalError) as error:
            self.say(f"Not saved: {error}")
        finally:
            if self.sim is not None and self.game_state() != before:
                self.sim.set_cells(self.session.position.cells())  # the simulated hand
        return True

    def person_player(self) -> str | None:
        """Who a plain ``resign`` is for: the one person at the table against the
        companion (even on the companion's turn), else the side to move (``None``)."""
        persons = self.companion.settings.persons
        if not self.companion.seated or len(persons) != 1:
            return None
        return self.table.player_of(persons[0].name)

    def game_state(self) -> tuple[int, str]:
        return len(self.session.record), self.session.position.text()

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
            self.companion.runner.hint(count=count)
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
            if self.companion.seated and self.companion.settings.persons:
                self.companion.runner.undo()
            else:
                session.undo()
        elif command == "redo":
            self.builder = None
            if self.companion.seated:
                raise SessionError("redo is not offered against the companion: play your "
                                   "turn again")
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
            session.resign(rest or self.person_player())
        elif command == "pause":
            session.pause()
            self.changed = True
        elif command == "continue":
            session.resume_clock()
            self.changed = True
        elif command == "save":
            self.save(rest or None)
        elif command == "_wait" and self.advance is not None:
            self.advance(parse_decimal(rest, "the seconds", high=1e7))
        elif command == "make" and self.sim is not None:
            self.sim.set_cells(session.position.cells())
        elif command == "review":
            if not session.is_over:
                raise SessionError("review comes once the game is over")
            self.companion.review(timeline_of_session(session))
        elif session.is_over:
            self.say(f"The game is over ({session.result and session.result.reason}); "
                     f"'save' writes its record, 'quit' leaves.")
        elif self.companion.leading:
            self.say("Not now: make the companion's turn on the board first"
                     + (" (or type make: the simulated hand makes it)." if self.sim is not None
                        else "."))
        else:
            refusal = self.companion.refusal()
            if refusal is not None:
                self.say(f"Not now: {refusal}.")
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
        """``save FILE`` writes a new file only; plain ``save`` keeps the record beside
        the journal up to date (never the journal itself)."""
        text = write_record(self.session)
        try:
            if target is not None:
                path = write_new(Path(target).expanduser(), text)
            elif self.journal_path is not None:
                path = write_replacing(self.journal_path.with_suffix(".txt"), text,
                                       never=self.journal_path)
            else:
                raise SessionError("name a file: save FILE")
        except FileExistsError as error:
            self.say(f"Not saved: {error.filename} exists already; nothing was written "
                     f"(give a new file name).")
            return
        except (OSError, ValueError) as error:  # a folder missing, a name with a NUL...
            self.say(f"Not saved: cannot write {str(target or 'the record')[:80]!r}: "
                     f"{error}; nothing was written.")
            return
        self.say(f"Saved the record as {path}.")

    def run(self, lines: TextIO | None = None) -> int:
        """Read commands until the input ends (or ``quit``); the companion plays on
        meanwhile, and after the input ends until a person must act again."""
        source = lines or sys.stdin
        self.inbox.hold = not is_terminal(source)   # a script waits for the companion

        def read() -> None:
            for line, problem in typed_lines(source):   # a line too long: a problem
                self.inbox.put(("line", line) if problem is None else ("problem", problem))
            self.inbox.put(("eof", None))

        threading.Thread(target=read, name="stdin", daemon=True).start()
        try:
            self.companion.announce()
            self.draw()
            if not self.companion.waiting:
                self.prompt()
            self.companion.start()
            while not self.inbox.finished(self.companion.waiting):
                item = self.inbox.next(self.companion.waiting)
                if item is None:
                    if self.session.clock is not None:
                        self.session.tick()
                    continue
                kind, value = item
                if self.session.clock is not None:
                    self.session.tick()
                if kind == "call":
                    with self.call_lock:
                        value()
                elif kind == "problem":
                    self.prompt_open = False
                    self.say(f"Not understood: {value}.")
                else:
                    self.prompt_open = False
                    try:
                        keep = self.handle(value)
                    except BrokenPipeError:
                        return 0
                    if not keep:
                        break
                self.after_game()
                if self.changed:
                    self.draw()
                if kind == "line" or (self.companion.acted and not self.companion.waiting):
                    self.companion.acted = False
                    self.prompt()
        finally:
            self.companion.close()
        self.say()
        self.say("The game is saved: 'raindrop resume' continues it.")
        return 0

    def after_game(self) -> None:
        """With the companion at the table, a finished game's record is saved at once."""
        result = self.session.result
        if result is None or self.record_saved or not self.companion.seated:
            return
        self.record_saved = True
        try:
            self.save(None)
        except (OSError, SessionError) as error:
            self.say(f"The record could not be saved: {error}")




def _minutes(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"
