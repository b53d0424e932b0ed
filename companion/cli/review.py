"""``raindrop review FILE``: the engine's look back at a finished (or stopped) game.

FILE is a Raindropchess PGN, an abstract game's record, or a journal of either kind. The
engine analyses every position once at a bounded budget (``--seconds`` or
``--playouts`` a position) and prints its estimate after each turn and each turn's mark
(good, inaccuracy, mistake, blunder: by the chance it gave away) with the better turn
(:mod:`companion.table.review`). The terminal's ``review`` command, at the end of a
game, prints the same for the game just played (:func:`review_lines`).
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable
from pathlib import Path

from companion.cli import CommandError
from companion.cli.companion_terminal import playouts_option
from companion.cli.replay import read
from companion.engine.contract import Budget
from companion.engine.levels import DEFAULT_LEVEL, Level, LevelError, level
from companion.games.record import RecordError, read_record
from companion.games.resume import is_games_journal, session_from_contents
from companion.journal import JournalError, read_entries
from companion.limits import LimitError, count_arg, parse_decimal
from companion.notation import PgnError, decode_pgn, read_pgn
from companion.resume import game_from_contents, read_journal
from companion.table.review import (
    REVIEW_SECONDS,
    Review,
    ReviewError,
    Timeline,
    review,
    timeline_of_game,
    timeline_of_session,
)

LOGGER = logging.getLogger(__name__)

MAX_REVIEW_SECONDS = 60.0
"""The most time ``--seconds`` may give one position."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "review", help="the engine's review of a game: its estimate after each turn, and "
                       "each turn marked (good, inaccuracy, mistake, blunder)",
        description="Review a saved game (a Raindropchess PGN, an abstract game's record, "
                    "or a journal of either): the engine analyses every position once, "
                    "prints its estimate after each turn (the first side's expected score), "
                    "marks each turn by the chance it gave away (inaccuracy from 5%%, "
                    "mistake from 10%%, blunder from 20%%) and shows the better turn. It "
                    "takes about SECONDS times the number of turns.")
    parser.add_argument("file", help="a PGN, a record (.txt) or a journal (.rdj)")
    parser.add_argument("--game", type=count_arg("the game's number", low=1, high=10**6),
                        default=1, metavar="N",
                        help="which game of a PGN file holding several (default: the first)")
    parser.add_argument("--level", type=_level, default=level(DEFAULT_LEVEL), metavar="N",
                        help=f"the engine's level 1-5 for the review (default "
                             f"{DEFAULT_LEVEL})")
    parser.add_argument("--seconds", type=_seconds, default=REVIEW_SECONDS, metavar="S",
                        help=f"the engine's time for each position (default "
                             f"{REVIEW_SECONDS:g}; at most {MAX_REVIEW_SECONDS:g})")
    parser.add_argument("--playouts", type=playouts_option, metavar="N",
                        help="search N playouts a position instead of a time: the same "
                             "review on any machine")
    parser.add_argument("--seed", type=count_arg("the seed", high=2**63 - 1, digits=19),
                        default=0, metavar="N",
                        help="the engine's seed (default 0)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    timeline = load_timeline(args.file, args.game)
    if not timeline.plies:
        raise CommandError(f"cannot review: {args.file} has no turns to review")
    budget = Budget(seconds=None, playouts=args.playouts) if args.playouts is not None \
        else Budget(seconds=args.seconds)
    each = f"{args.playouts} playouts" if args.playouts is not None else \
        f"{args.seconds:g} s"
    print(f"Reviewing {len(timeline.plies)} turns ({len(timeline.plies) + 1} positions, "
          f"{each} each at level {args.level.number}, {args.level.name})...", flush=True)
    progress = _progress_on(sys.stderr)
    for line in review_lines(timeline, budget=budget, chosen_level=args.level,
                             seed=args.seed, progress=progress):
        print(line)
    return 0


def review_lines(timeline: Timeline, *, budget: Budget, chosen_level: Level | None = None,
                 seed: int = 0, progress: Callable[[int, int], None] | None = None
                 ) -> list[str]:
    """The review of ``timeline`` as the terminal prints it; :class:`CommandError` if it
    cannot be reviewed (no turns, no engine for the game)."""
    try:
        done: Review = review(timeline, budget=budget, chosen_level=chosen_level, seed=seed,
                              progress=progress)
    except ReviewError as error:
        raise CommandError(f"cannot review: {error}") from None
    return done.lines()


def load_timeline(path: str, number: int = 1) -> Timeline:
    """The game in ``path`` (PGN, record or journal) as the review reads it; a
    :class:`CommandError` naming what is wrong with the file."""
    file = Path(path)
    data = read(path)   # a regular file, bounded; CommandError naming the problem
    if b"\0" in data:
        raise CommandError(f"{file} is not a text file, so not a game's PGN, record or "
                           f"journal")
    text = decode_pgn(data)
    head = text.lstrip("\ufeff \t\r\n")
    if not head:
        raise CommandError(f"{file} is empty")
    if head.startswith("[Game "):
        try:
            return timeline_of_session(read_record(text).session)
        except RecordError as error:
            raise CommandError(f"{file}: {error}") from None
    if head.startswith("[") or head.startswith("1."):
        try:
            return timeline_of_game(read_pgn(text, number=number).game)
        except PgnError as error:
            raise CommandError(f"{file}: {error}") from None
    return _journal_timeline(file)


def _journal_timeline(file: Path) -> Timeline:
    try:
        contents = read_entries(file)
        if is_games_journal(contents.header):
            return timeline_of_session(session_from_contents(contents))
        return timeline_of_game(game_from_contents(read_journal(file)))
    except JournalError as error:
        raise CommandError(f"{file} is neither a PGN, a record nor a readable journal: "
                           f"{str(error).rstrip('.')}") from None


def _progress_on(stream: object) -> Callable[[int, int], None] | None:
    """Progress on one rewritten line where ``stream`` is a terminal (else nothing)."""
    isatty = getattr(stream, "isatty", None)
    if not callable(isatty) or not isatty():
        return None

    def show(done: int, total: int) -> None:
        end = "\n" if done == total else ""
        print(f"\r  {done}/{total} positions", end=end, file=sys.stderr, flush=True)

    return show


def _level(text: str) -> Level:
    try:
        return level(text)
    except LevelError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _seconds(text: str) -> float:
    try:
        value = parse_decimal(text, "the seconds", high=MAX_REVIEW_SECONDS)
    except LimitError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"the seconds must be more than 0, not {text.strip()}")
    return value
