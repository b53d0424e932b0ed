"""``raindrop play``: a hot-seat game in the terminal, every action journaled.

Commands are read line by line from standard input (no raw terminal mode),
so scripts and tests can drive a whole game through a pipe. The same loop
serves ``raindrop resume``.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

import chess

from companion import events
from companion.cli import CommandError
from companion.cli.companion_terminal import (
    TerminalCompanion,
    TerminalInbox,
    add_companion_options,
    companion_seed,
    is_terminal,
    table_settings,
)
from companion.cli.keep_options import add_keep_options, keep_option
from companion.cli.render import render_board, square_names, status_lines
from companion.cli.terminal_time import FakeClock, make_now
from companion.clock import ClockSettings, ClockSettingsError
from companion.game import Game
from companion.journal import Journal, JournalError, games_dir
from companion.limits import count_arg, parse_count, parse_decimal, typed_lines
from companion.notation import write_pgn
from companion.resume import new_game
from companion.rules import (
    EXPLANATIONS,
    HouseRules,
    HouseRulesError,
    IllegalActionError,
    card_name,
    parse_card_letter,
)
from companion.rules.house import FAILED_RESCUE_CHOICES, JOKER_EFFECT_CHOICES, TOUCH_MOVE_CHOICES
from companion.saving import write_new, write_replacing
from companion.sensors.source import (
    BoardSourceError,
    PostedSource,
    available_sources,
    open_board_source,
)
from companion.sync import PhysicalBoardSession
from companion.table import words as sentences
from companion.table.chess_table import SEATS, ChessTable
from companion.table.hints import HINT_TURNS
from companion.table.review import timeline_of_game
from companion.table.seats import TableSettings

COMPANION_SAYS = (events.CardFlipped, events.PiecePlaced, events.MovePlayed, events.Promoted,
                  events.PieceRemoved, events.Check, events.RescueFailed)
"""The game's events of a turn the companion plays: it says the turn in its own words."""
COMPANION_TURN_COMMANDS = ("flip", "f", "remove", "choose", "takeback", "make")
"""Commands that act for the side to move: refused while the companion is to move."""
COMMANDS = ("help", "?", "h", "quit", "exit", "q", "undo", "redo", "hint", "verdict",
            "verify", "moves", "draw", "resign", "pause", "continue", "resume", "board",
            "show", "save", "export", "review", "_wait")
"""Commands that are not a turn (any other word is read as a move)."""

HELP = """\
Commands (one per line):
  flip                 flip the top card of your deck (f)
  e3  N@e4  e2e3  Nxe5  a7a8q
                       a placement (drop) or a move, in SAN or UCI; with a card
                       flipped, just its square (e4) places it
  remove SQUARE        remove an opposing piece (a remove-piece joker)
  undo                 take back one action; a flip taken back goes back into the
                       deck, shuffled (never once the game is over); against the
                       companion: your last turn and its reply together
  redo                 play again a move taken back (not against the companion)
  hint [N]             the engine's best N turns (default 3) and your chances,
                       within the game's hint limit (--hints)
  verdict, verify      is it checkmate? the leaflet's four conditions explained
  moves                list the legal moves
  draw                 claim a draw if you can, else accept an offer, else offer one
  draw offer|accept|decline|claim [white|black]
  resign [white|black] the side to move resigns (or the side named)
  pause, continue      stop and restart the clock
  board                draw the board again
  save [FILE]          write the game as PGN (default: next to its journal); never
                       the decks' order
  export [FILE]        once the game is over: the PGN with the decks' order, which
                       replays it exactly
  review               once the game is over: the engine's estimate after each turn,
                       each turn marked (good, inaccuracy, mistake, blunder) with the
                       better turn (raindrop review FILE does it for a saved game)
  help                 this text
  quit                 leave; the game stays saved: raindrop resume"""

BOARD_HELP = """With a board:
  choose N             answer the board's question (which action it saw)
  takeback             take back as the board shows (an earlier position)
  make                 (simulated board) the simulated hand makes the companion's
                       turn on the board, as the game shows it"""


# ----------------------------------------------------------------------
# Arguments


def add_display_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-color", action="store_true",
                        help="no ANSI colours (blue pieces are marked ~)")
    parser.add_argument("--data-dir", metavar="DIR",
                        help="where games are kept (default: $RAINDROP_DATA_DIR or the user "
                             "data directory)")
    parser.add_argument("--board", metavar="NAME[:ARG]", default=None,
                        help="the physical board: sim (the built-in simulated board: typed "
                             "moves are made on it by a simulated hand, and 'lift e2', "
                             "'place e3' act on it; a board of stones for the stone games: "
                             "'put d5 b'), serial[:PORT], camera[:ARG], or none (typed moves "
                             "only). Default: sim for Raindropchess, none for the other games")
    add_keep_options(parser)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "play", help="play a game in the terminal (hot seat), every action saved",
        description="A complete Raindropchess game for two players at one terminal. "
                    "Type 'help' in the game for the commands. Every action is journaled; "
                    "after a crash, 'raindrop resume' continues the game.")
    parser.add_argument("--game", default="raindropchess", metavar="GAME",
                        help="the game: raindropchess (default) or one of 'raindrop games "
                             "list', played on the screen with typed turns")
    parser.add_argument("options", nargs="*", metavar="KEY=VALUE",
                        help="with --game: the game's named options ('raindrop games options "
                             "GAME')")
    parser.add_argument("--seed", type=count_arg("the seed", high=2**63 - 1, digits=19),
                        metavar="SEED", help="shuffle the decks reproducibly from this "
                                             "number (default: a secure random shuffle)")
    parser.add_argument("--clock", metavar="MIN+SEC",
                        help="a chess clock: minutes each plus a Fischer increment "
                             "(10+5), or a simple delay (10d5)")
    rules = parser.add_argument_group("house rules")
    rules.add_argument("--jokers", type=count_arg("the number of jokers", high=2), default=0,
                       metavar="N",
                       help=EXPLANATIONS["jokers_per_deck"] + " Default 0.")
    rules.add_argument("--joker-effect", choices=JOKER_EFFECT_CHOICES, default="extra_turn",
                       help=EXPLANATIONS["joker_effect"] + " Default extra_turn.")
    rules.add_argument("--failed-rescue", choices=FAILED_RESCUE_CHOICES, default="lose",
                       help=EXPLANATIONS["failed_rescue"] + " Default lose.")
    rules.add_argument("--blue-pieces", default="QRBN", metavar="LETTERS",
                       help=EXPLANATIONS["blue_pieces"] + " Default QRBN.")
    rules.add_argument("--blue-returns-when-captured", action="store_true",
                       help=EXPLANATIONS["blue_returns_when_captured"])
    rules.add_argument("--touch-move", choices=TOUCH_MOVE_CHOICES, default="warn",
                       help=EXPLANATIONS["touch_move"] + " Default warn.")
    rules.add_argument("--coloured-bishop-cards", action="store_true",
                       help=EXPLANATIONS["coloured_bishop_cards"])
    add_companion_options(parser.add_argument_group("the companion"))
    add_display_options(parser)
    parser.set_defaults(func=run)


def rules_from_args(args: argparse.Namespace) -> HouseRules:
    try:
        return HouseRules(jokers_per_deck=args.jokers, joker_effect=args.joker_effect,
                          failed_rescue=args.failed_rescue, blue_pieces=args.blue_pieces,
                          blue_returns_when_captured=args.blue_returns_when_captured,
                          touch_move=args.touch_move,
                          coloured_bishop_cards=args.coloured_bishop_cards)
    except HouseRulesError as error:
        raise CommandError(str(error)) from None


def run(args: argparse.Namespace) -> int:
    if args.game.strip().lower() != "raindropchess":
        from companion.cli.play_games import run_game

        return run_game(args)
    if args.options:
        raise CommandError(f"unexpected {args.options[0]!r}: KEY=VALUE options go with "
                           f"--game (Raindropchess takes its house rules as --flags)")
    rules = rules_from_args(args)
    clock = None
    if args.clock:
        try:
            clock = ClockSettings.parse(args.clock)
        except ClockSettingsError as error:
            raise CommandError(str(error)) from None
    board = args.board or "sim"
    check_board_option(board)
    keep = keep_option(args)
    settings = table_settings(args, SEATS)
    now, fake = make_now()
    try:
        table = None if settings == TableSettings.hot_seat(SEATS) else settings.to_dict()
        game, journal = new_game(rules, seed=args.seed, clock=clock, directory=args.data_dir,
                                 now=now, table=table)
    except (OSError, JournalError) as error:
        raise CommandError(f"cannot create the game's journal: {error}") from None
    session = TerminalSession(game, journal, color=not args.no_color, fake=fake,
                              voice=args.voice, seed=companion_seed(args),
                              hint_playouts=args.companion_playouts)
    session.say("New game: every action is saved as it is played ('raindrop resume' "
                "continues it after a quit or a crash).")
    if clock is not None:
        session.say(f"Clock: {clock.describe()} each.")
    return session.run(board_spec=board, keep=keep)


def check_board_option(spec: str | None) -> None:
    """Fail early, clearly, when ``--board`` cannot work."""
    if spec is None or spec == "none":
        return
    name = spec.partition(":")[0]
    known = available_sources()
    if name not in known:
        raise CommandError(f"unknown board {name!r}; known boards: "
                           f"{', '.join(sorted(known))}, or none (typed moves only)")


# ----------------------------------------------------------------------
# The loop


class TerminalSession:
    """Reads commands, calls the game, prints what happened."""

    def __init__(self, game: Game, journal: Journal | None, *, color: bool = True,
                 fake: FakeClock | None = None, out: TextIO | None = None,
                 voice: bool = False, seed: int = 0, hint_playouts: int | None = None) -> None:
        self.game = game
        self.journal = journal
        self.color = color
        self.fake = fake
        self.out = out or sys.stdout
        self.changed = True
        self.last = chess.SquareSet()
        self.inbox = TerminalInbox(hold=not is_terminal(sys.stdin))
        self.board_session: Any = None
        self.sim: Any = None
        self.quiet = False  # the simulated board acts for a typed command: no chatter
        self.voice = voice
        self.prompt_open = False
        """The prompt is shown and nothing was typed after it yet."""
        game.subscribe(self.on_event)
        self.companion = TerminalCompanion(ChessTable(game), say=self.say, post=self.post,
                                           voice=voice, seed=seed,
                                           hint_playouts=hint_playouts)
        self.record_saved = False

    def say(self, text: str = "") -> None:
        if self.prompt_open:   # something said while the prompt waits: on a line of its own
            self.prompt_open = False
            print(file=self.out)
        print(text, file=self.out, flush=True)

    def post(self, call: Callable[[], None]) -> None:
        """Run ``call`` on the terminal's loop (a board source's callbacks come here)."""
        self.inbox.put(("call", call))

    # Events -> words, for both players.

    def on_event(self, event: events.GameEvent) -> None:
        if self.companion.runner.playing is not None:
            if isinstance(event, COMPANION_SAYS):
                self.remember_last(event)  # the companion says its turn in its own words
                return
            if isinstance(event, events.GameOver):   # said after the companion's words
                self.companion.held.append(lambda: self.show_event(event))
                return
        self.show_event(event)

    def show_event(self, event: events.GameEvent) -> None:
        if self.voice:
            self.tell_aloud(event)
        name = chess.COLOR_NAMES
        if isinstance(event, events.CardFlipped):
            side = name[event.color].capitalize()
            kind, _ = parse_card_letter(event.card)
            what = card_name(kind)
            self.say(f"*** {side} flips: {what.upper()} ({event.card}) ***   "
                     f"{event.cards_left} card(s) left")
            words = {
                "unplaceable": f"The {what} cannot be placed anywhere: it goes to the bottom "
                               f"of the deck and {side}'s turn ends (R8).",
                "returned": f"The {what} cannot lift the check: it goes to the bottom of the "
                            f"deck; {side} must lift the check with a chess move (R7).",
                "extra_turn": f"Joker: {side} takes another turn at once (R12).",
                "no_effect": f"Joker: nothing {side} may remove; the turn ends (R12).",
                "remove_piece": f"Joker: {side} removes an opposing piece: "
                                f"{square_names(event.targets)} (R12).",
                "place": f"Place it on: {square_names(event.targets)}",
            }
            text = words.get(event.outcome.value)
            if text:
                self.say(text)
        elif isinstance(event, events.PiecePlaced):
            self.say(f"{name[event.color].capitalize()} places {event.san}.")
            self.last = chess.SquareSet([event.move.to_square])
        elif isinstance(event, events.MovePlayed):
            self.say(f"{name[event.color].capitalize()} plays {event.san}.")
            self.last = chess.SquareSet([event.move.from_square, event.move.to_square])
        elif isinstance(event, events.Promoted):
            self.say(f"Promotion: the pawn on {chess.square_name(event.square)} becomes the "
                     f"blue {chess.piece_name(event.piece_type)}.")
        elif isinstance(event, events.PieceRemoved):
            self.say(f"{name[event.color].capitalize()} removes the "
                     f"{chess.piece_name(event.piece.piece_type)} on "
                     f"{chess.square_name(event.square)}.")
            self.last = chess.SquareSet([event.square])
        elif isinstance(event, events.Check):
            self.say(f"Check: {name[event.color].capitalize()}'s king is attacked from "
                     f"{square_names(event.checkers)}.")
        elif isinstance(event, events.RescueFailed):
            if event.lost:
                what = card_name(parse_card_letter(event.card)[0])
                self.say(f"The rescue flip failed: the {what} cannot block the check (R7).")
        elif isinstance(event, events.DrawOffered):
            self.say(f"{name[event.color].capitalize()} offers a draw "
                     f"({name[not event.color]}: draw accept / draw decline).")
        elif isinstance(event, events.DrawDeclined):
            self.say(f"{name[event.color].capitalize()} declines the draw.")
        elif isinstance(event, events.Flagged):
            self.say(f"{name[event.color].capitalize()}'s time is up.")
        elif isinstance(event, events.GameOver):
            self.say(f"GAME OVER: {event.outcome.describe()} ({event.outcome.result()}).")
            self.changed = True
        elif isinstance(event, events.Undone):
            self.say(f"Undone: {event.description}")
            self.last = chess.SquareSet()
        elif isinstance(event, events.Redone):
            self.say(f"Redone: {event.description}")
        elif isinstance(event, events.PositionChanged):
            self.changed = True

    def remember_last(self, event: events.GameEvent) -> None:
        if isinstance(event, events.PiecePlaced):
            self.last = chess.SquareSet([event.move.to_square])
        elif isinstance(event, events.MovePlayed):
            self.last = chess.SquareSet([event.move.from_square, event.move.to_square])
        elif isinstance(event, events.PieceRemoved):
            self.last = chess.SquareSet([event.square])

    def tell_aloud(self, event: events.GameEvent) -> None:
        """With ``--voice``: the flips, checks and verdict of the game, shown and spoken
        in the companion's sentences (its own turns it says itself)."""
        text = None
        if isinstance(event, events.CardFlipped):
            text = sentences.flip_sentence(event.color, event.card, event.outcome)
        elif isinstance(event, events.Check):
            text = sentences.check_sentence(event.color)
        elif isinstance(event, events.GameOver):
            text = sentences.verdict_sentence(event.outcome.describe())
        if text is not None:
            self.companion.tell(text)

    def draw(self) -> None:
        game = self.game
        targets = game.drop_targets() if game.pending else chess.SquareSet()
        self.say(render_board(game.board, color=self.color, targets=targets, last=self.last))
        for line in status_lines(game):
            self.say(line)
        self.changed = False

    def prompt(self) -> None:
        side: str = chess.COLOR_NAMES[self.game.turn] if not self.game.is_over else "over"
        if side != "over" and self.companion.runner.companion_to_act():
            side = "(the companion's turn)"   # undo, resign, help... still work
        print(f"{side}> ", end="", file=self.out, flush=True)
        self.prompt_open = True

    # Input.

    def _read_stdin(self) -> None:
        for line, problem in typed_lines(sys.stdin):
            if problem is not None:
                self.inbox.put(("call", functools.partial(self._unreadable, problem)))
                continue
            self.inbox.put(("line", line))
        self.inbox.put(("eof", None))

    def _unreadable(self, problem: str) -> None:
        self.say(f"Not understood: {problem}.")
        self.prompt()

    def run(self, *, board_spec: str | None = None, keep: tuple[Path, str] | None = None
            ) -> int:
        if board_spec is not None and board_spec != "none":
            self.open_board(board_spec, keep)
        reader = threading.Thread(target=self._read_stdin, name="stdin", daemon=True)
        reader.start()
        try:
            self.companion.announce()
            self.draw()
            if not self.companion.waiting:
                self.prompt()
            self.companion.start()
            while True:
                if self.inbox.finished(self.companion.waiting):
                    self.say()
                    self.say_saved()
                    return 0
                item = self.inbox.next(self.companion.waiting)
                if item is None:
                    self.tick()
                    continue
                kind, value = item
                if kind == "call":
                    value()
                elif kind == "line" and not self.handle_typed(value):
                    self.say_saved()
                    return 0
                self.tick()
                self.after_companion()
                if self.changed:
                    self.draw()
                if kind == "line" or (self.companion.acted and not self.companion.waiting):
                    self.companion.acted = False
                    self.prompt()
        finally:
            self.companion.close()
            if self.board_session is not None:
                self.board_session.stop()
            if self.journal is not None:
                self.journal.close()

    def handle_typed(self, line: str) -> bool:
        self.prompt_open = False
        return self.handle(line)

    def after_companion(self) -> None:
        """With the companion at the table, a finished game's record is saved at once."""
        if not self.game.is_over or self.record_saved or not self.companion.seated:
            return
        self.record_saved = True
        try:
            self.save(None, decks=True)
        except (OSError, ValueError) as error:
            self.say(f"The record could not be saved: {error}")

    def tick(self) -> None:
        if self.game.clock is not None and not self.game.is_over:
            self.game.tick()

    def say_saved(self) -> None:
        if self.journal is not None:
            self.say("The game is saved; continue it with 'raindrop resume'.")

    # Commands.

    def handle(self, line: str) -> bool:
        """Do one line of input; ``False`` to quit."""
        text = line.strip()
        if not text:
            return True
        words = text.split()
        command = words[0].lower()
        args = words[1:]
        try:
            if command in ("help", "?", "h"):
                self.show_help()
                return True
            # With a joker pending, "remove SQ" is its removal (checked, then done on the
            # simulated board); otherwise physical verbs go to the simulated board.
            joker_pending = (self.game.pending or "").upper() == "J"
            if self.sim is not None and not (command == "remove" and joker_pending) \
                    and self.sim.is_command(text):
                if not self.sim.handle_command(text):
                    self.say(f"Board: {self.sim.last_message}")
                elif self.sim.last_message:
                    self.say(self.sim.last_message)
                return True
            if command in ("quit", "exit", "q"):
                return False
            if (command in COMPANION_TURN_COMMANDS or command not in COMMANDS) \
                    and not (command == "make" and self.sim is not None):
                refusal = self.companion.refusal()
                if refusal is None and self.companion.leading:
                    refusal = ("make the companion's turn on the board first" + (
                        " (or type make: the simulated hand makes it)" if self.sim is not None
                        else ""))
                if refusal is not None:
                    self.say(f"Not now: {refusal}.")
                    return True
            if command in ("flip", "f"):
                self.game.flip()
            elif command == "undo":
                with self.board_follows():
                    if self.companion.seated and self.companion.settings.persons:
                        self.companion.runner.undo()
                    else:
                        self.game.undo()
            elif command == "redo":
                if self.companion.seated:
                    raise IllegalActionError("redo is not offered against the companion: "
                                             "play your turn again")
                with self.board_follows():
                    self.game.redo()
            elif command == "hint":
                count = int(args[0]) if args and args[0].isdigit() and 0 < int(args[0]) <= 10 \
                    else HINT_TURNS
                self.companion.runner.hint(count=count)
            elif command == "make" and self.sim is not None:
                self.sim.set_position(self.game.board)
            elif command in ("verdict", "verify"):
                self.say(self.game.mate_verdict().explain())
            elif command == "moves":
                self.show_moves()
            elif command == "draw":
                self.draw_command(args)
            elif command == "resign":
                self.game.resign(self.color_arg(args, self.person_color()))
            elif command == "pause":
                self.game.pause()
                self.say("Paused: the clock stands still. Type continue to go on.")
            elif command in ("continue", "resume"):
                self.game.resume()
            elif command in ("board", "show"):
                self.changed = True
            elif command == "save":
                self.save(args[0] if args else None)
            elif command == "export":
                self.save(args[0] if args else None, decks=True)
            elif command == "review":
                if not self.game.is_over:
                    raise IllegalActionError("review comes once the game is over")
                self.companion.review(timeline_of_game(self.game))
            elif command == "remove":
                if len(args) != 1:
                    raise IllegalActionError("remove needs one square, e.g. remove e5")
                self.remove_piece(self.square_arg(args[0]))
            elif command == "choose" and self.board_session is not None:
                self.board_session.choose(parse_count(args[0], "the choice") if args else 0)
            elif command == "takeback" and self.board_session is not None:
                self.board_session.accept_takeback()
            elif command == "_wait" and self.fake is not None:
                self.fake.value += parse_decimal(args[0], "the seconds", high=1e7)
            elif (self.game.pending is not None and self.game.pending.upper() == "J"
                  and len(text) in (2, 3) and text[-2:].lower() in chess.SQUARE_NAMES):
                self.remove_piece(chess.parse_square(text[-2:].lower()))
            elif self.sim is not None:
                self.play_on_board(text)
            else:
                self.game.play_text(text)
        except IllegalActionError as error:
            if str(error).startswith("cannot read"):
                self.say(f"Not a move or command: {text!r} ({error}). Type help for the "
                         f"commands.")
            else:
                self.say(f"Illegal: {error}")
        except JournalError as error:
            self.say(f"Not saved: {error}")
        except ValueError as error:
            self.say(f"Not understood: {error}")
        except OSError as error:
            self.say(f"Not done: the action could not be saved to the journal ({error}); "
                     f"the game is unchanged.")
        return True

    def show_help(self) -> None:
        """The game's commands in every mode, then those of the board in use."""
        self.say(HELP)
        if self.board_session is not None:
            self.say(BOARD_HELP)
        if self.sim is not None:
            self.say(getattr(sys.modules[type(self.sim).__module__], "HELP", ""))

    @contextlib.contextmanager
    def board_follows(self) -> Iterator[None]:
        """A takeback (or redo) typed with the simulated board: the simulated hand puts
        the pieces as the game now stands, so the board follows the game, quietly."""
        if self.sim is None:
            yield
            return
        self.quiet = True
        try:
            yield
            self.sim.set_position(self.game.board)
        finally:
            self.quiet = False
        result = self.board_session.last_result
        if result.kind.value not in ("in_sync", "committed", "waiting"):
            self.report(result)

    def person_color(self) -> chess.Color:
        """The side a person's ``resign``/``draw`` is for: the one person at the table
        against the companion, else the side to move."""
        persons = self.companion.settings.persons
        if self.companion.seated and len(persons) == 1:
            return chess.WHITE if persons[0].name == "white" else chess.BLACK
        return self.game.turn

    def color_arg(self, args: list[str], default: chess.Color) -> chess.Color:
        if not args:
            return default
        name = args[0].lower()
        if name in ("white", "w"):
            return chess.WHITE
        if name in ("black", "b"):
            return chess.BLACK
        raise ValueError(f"expected white or black, not {args[0]!r}")

    def square_arg(self, text: str) -> chess.Square:
        try:
            return chess.parse_square(text.lower())
        except ValueError:
            raise ValueError(f"{text!r} is not a square (a1 to h8)") from None

    def show_moves(self) -> None:
        board = self.game.board
        moves = self.game.legal_moves()
        parts = []
        if self.game.can_flip():
            parts.append("flip")
        parts.extend(board.san(m) for m in moves)
        if self.game.pending and self.game.pending.upper() == "J":
            parts.extend(f"remove {chess.square_name(sq)}" for sq in self.game.legal_removals())
        self.say("Legal: " + (", ".join(parts) if parts else "none"))

    def draw_command(self, args: list[str]) -> None:
        game = self.game
        sub = args[0].lower() if args else ""
        rest = args[1:]
        offer = game.draw_offer
        if sub == "":
            if game.can_claim_draw():
                sub = "claim"
            elif offer is not None:
                sub = "accept"
                rest = [chess.COLOR_NAMES[not offer]]
            else:
                sub = "offer"
        if sub == "offer":
            game.offer_draw(self.color_arg(rest, self.person_color()))
        elif sub == "accept":
            default = not offer if offer is not None else game.turn
            game.accept_draw(self.color_arg(rest, default))
        elif sub == "decline":
            default = not offer if offer is not None else game.turn
            game.decline_draw(self.color_arg(rest, default))
        elif sub == "claim":
            if not game.claim_draw():
                raise IllegalActionError(game.why_cannot_claim_draw() or "no draw to claim")
        else:
            raise ValueError(f"draw {sub!r}: use draw offer, accept, decline or claim")

    def save(self, target: str | None, *, decks: bool = False) -> None:
        """``save``: the game as PGN, never the decks' order; ``export`` (``decks``):
        with the decks' order, only once the game is over. Files are owner-only."""
        if decks and not self.game.is_over:
            raise IllegalActionError("export writes the decks' order, which would reveal "
                                     "the cards to come: only once the game is over (save "
                                     "writes the game without it)")
        text = write_pgn(self.game, include_decks=decks)
        suffix = "-export.pgn" if decks else ".pgn"
        try:
            if target is None:
                if self.journal is not None:
                    path = self.journal.path.with_name(self.journal.path.stem + suffix)
                else:
                    path = games_dir() / f"game{suffix}"
                path.parent.mkdir(parents=True, exist_ok=True)
                write_replacing(path, text,
                                never=self.journal.path if self.journal is not None else None)
            else:
                path = Path(target).expanduser()
                write_new(path, text)
        except FileExistsError:
            self.say(f"Not saved: {path} exists already; nothing was written (give a new "
                     f"file name).")
            return
        except (OSError, ValueError) as error:  # a folder missing, a name with a NUL...
            self.say(f"Not saved: cannot write {str(path)[:80]!r}: {error}; nothing was "
                     f"written.")
            return
        what = "with the decks' order" if decks else "without the decks' order"
        self.say(f"Saved the game as PGN ({what}): {path}")

    # A physical board.

    def play_on_board(self, text: str) -> None:
        """With the simulated board, a typed action is done by hand on it: the
        board's snapshots go through BoardSync, which plays it in the game. What the
        board reports on the way (a piece lifted, the action seen) is not shown:
        the game says what was played."""
        move = self.game.parse_move(text)
        self.quiet = True
        try:
            self.sim.perform(move, self.game.turn)
            result = self.board_session.last_result
            if result.kind.value == "ask":  # e.g. which blue piece: the typed move says
                for index, choice in enumerate(result.choices):
                    if choice.move == move and not choice.undo_count:
                        self.board_session.choose(index)
                        break
        finally:
            self.quiet = False
        result = self.board_session.last_result
        if result.kind.value not in ("in_sync", "committed", "waiting"):
            self.report(result)

    def report(self, result: Any) -> None:
        """What the board's sync says, for the players (nothing when all is well)."""
        if result.message and result.kind.value != "in_sync":
            self.say(f"Board: {result.message}")
        for index, choice in enumerate(getattr(result, "choices", ())):
            self.say(f"  choose {index}: {choice.label}")

    def remove_piece(self, square: chess.Square) -> None:
        """A joker's removal; with the simulated board, by taking the piece off it."""
        if self.sim is None:
            self.game.remove(square)
        elif square not in self.game.legal_removals():
            self.game.remove(square)  # raises with the reason, changes nothing
        else:
            self.quiet = True
            try:
                self.sim.remove(square)
            finally:
                self.quiet = False

    def open_board(self, spec: str, keep: tuple[Path, str] | None = None) -> None:
        check_board_option(spec)
        try:
            source = open_board_source(spec)
        except BoardSourceError as error:
            raise CommandError(str(error)) from None
        if keep is not None:
            keep_frames_in = getattr(source, "keep_frames_in", None)
            if keep_frames_in is None:
                raise CommandError(f"--keep-frames: the {spec} board has no frames to keep "
                                   "(use --board camera[:SOURCE])")
            try:
                keep_frames_in(*keep)
            except BoardSourceError as error:
                raise CommandError(str(error)) from None
            self.say(f"Keeping the camera's frame of every confirmed position in {keep[0]} "
                     f"(labels.json, board {keep[1]!r}).")
        if hasattr(source, "is_command") and hasattr(source, "handle_command"):
            self.sim = source  # typed physical actions go to the simulated board
            wrapped: Any = source
        else:
            wrapped = PostedSource(source, self.post)  # decided on the terminal's loop

        def on_result(result: Any) -> None:
            caught_up = (result.kind.value == "in_sync" and self.companion.leading
                         and self.board_session is not None
                         and self.board_session.sync.leading is None)
            if caught_up:
                self.companion.board_caught_up()
            if self.quiet or self.companion.auto_board is not None:
                return
            if caught_up:
                self.say(f"Board: {result.message}")
            else:
                self.report(result)

        def on_status(status: Any) -> None:
            self.say(f"Board {status.source}: {status.message or 'connected'}")

        self.board_session = PhysicalBoardSession(self.game, wrapped, on_result,
                                                  on_status=on_status,
                                                  touch_move=self.game.rules.touch_move)
        if self.sim is not None:
            from companion.sensors.simulated import SimPiece

            def pending_piece() -> SimPiece | None:  # 'place e4' sets the flipped card
                letter = self.game.pending
                if letter is None or letter.upper() not in "PNBRQK":
                    return None
                return SimPiece.of(chess.Piece.from_symbol(letter))

            self.sim.set_position(self.game.board)
            self.sim.supply = pending_piece
        self.board_session.start()
        self.companion.follow_board(self.board_session,
                                    self.sim_makes_it if self.sim is not None else None)

    def sim_makes_it(self) -> None:
        """Nobody at the table: the simulated hand makes the companion's turn (and the
        board's words, meant for the players, are not said)."""
        self.quiet = True
        try:
            self.sim.set_position(self.game.board)
        finally:
            self.quiet = False
