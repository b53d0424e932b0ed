"""``raindrop resume [JOURNAL]``: continue a game after quitting, a crash or ``kill -9``."""

from __future__ import annotations

import argparse
import logging

from companion.cli import CommandError
from companion.cli.companion_terminal import add_companion_options
from companion.cli.keep_options import keep_option
from companion.cli.play import (
    TerminalSession,
    add_display_options,
    check_board_option,
)
from companion.cli.terminal_time import make_now
from companion.games.resume import is_games_journal
from companion.journal import JournalError, journal_header, latest_journal
from companion.resume import resume

LOGGER = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "resume", help="continue a saved game (the latest, or the journal named)",
        description="Rebuild a game from its journal (position, history, decks, clock) and "
                    "play on. A torn last entry (a crash during a write) is cut, with a "
                    "warning; the original is kept beside it. Other damage is refused, the "
                    "file left as it is, unless --cut. A journal in use by another session "
                    "is refused.")
    parser.add_argument("journal", nargs="?", help="a journal file (default: the latest game)")
    parser.add_argument("--cut", action="store_true",
                        help="resume a damaged journal from its last good entry, cutting "
                             "the rest (the whole file is kept beside it as NAME.damaged-N)")
    add_companion_options(parser, seats=False)
    add_display_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Resume the game: who plays which side (a person, the companion at its level), the
    hint limit and the hints used come back from the journal."""
    check_board_option(args.board)
    keep = keep_option(args)
    now, fake = make_now()
    try:
        path = args.journal if args.journal else latest_journal(args.data_dir)
        if is_games_journal(journal_header(path)):
            from companion.cli.play_games import resume_game

            if keep is not None:
                raise CommandError("--keep-frames keeps frames of Raindropchess games only")

            return resume_game(path, now=now, fake=fake, board=args.board, voice=args.voice,
                               cut=args.cut)
        resumed = resume(path, now=now, cut=args.cut)
    except JournalError as error:
        hint = "" if args.journal else (" To resume another game, name its journal: "
                                        "raindrop resume PATH.rdj")
        raise CommandError(f"cannot resume: {str(error).rstrip('.')}.{hint}") from None
    except OSError as error:
        raise CommandError(f"cannot resume: {error}") from None
    session = TerminalSession(resumed.game, resumed.journal, color=not args.no_color,
                              fake=fake, voice=args.voice)
    for warning in resumed.warnings:
        session.say(f"Warning: {warning}")
    game = resumed.game
    session.say(f"Resumed the game after {len(game.actions())} action(s).")
    history = game.san_history()
    if history:
        session.say("History: " + " ".join(history[-12:]) + (" ..." if len(history) > 12
                                                           else ""))
    return session.run(board_spec=args.board or "sim", keep=keep)
