"""``raindrop replay GAME.pgn``: step through a recorded game, action by action."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable
from pathlib import Path

import chess

from companion.cli import CommandError
from companion.cli.render import render_board
from companion.games.record import RecordError, read_record
from companion.limits import (
    MAX_RECORD_BYTES,
    LimitError,
    count_arg,
    is_digits,
    read_file,
    typed_lines,
)
from companion.notation import ImportedGame, PgnError, board_from_rfen, decode_pgn, read_pgn

LOGGER = logging.getLogger(__name__)

KEYS = "Enter: next   b: back   s: start   e: end   NUMBER: go to that action   q: quit"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "replay", help="step through a saved game (a PGN, or an abstract game's record)",
        description="Replay a Raindropchess PGN action for action (flips that placed "
                    "nothing included), or the record of an abstract game (docs/games/"
                    "records.md) turn by turn. " + KEYS)
    parser.add_argument("pgn", help="the PGN file (UTF-8, or Latin-1 as the PGN standard "
                                     "has it)")
    parser.add_argument("--game", type=count_arg("the game's number", low=1, high=10**6),
                        default=1, metavar="N",
                        help="which game of a file holding several (default: the first)")
    parser.add_argument("--all", action="store_true", help="print every position and exit")
    parser.add_argument("--no-color", action="store_true", help="no ANSI colours")
    parser.set_defaults(func=run)


def read(path: str) -> bytes:
    """The file's bytes: a regular file of at most MAX_RECORD_BYTES; :class:`CommandError`."""
    file = Path(path)
    try:
        return read_file(file, MAX_RECORD_BYTES, "the file")
    except FileNotFoundError:
        raise CommandError(f"no such file: {file}") from None
    except LimitError as error:
        raise CommandError(str(error)) from None
    except OSError as error:
        raise CommandError(f"cannot read {file}: {error}") from None


def load(path: str, number: int = 1, data: bytes | None = None) -> ImportedGame:
    file = Path(path)
    if data is None:
        data = read(path)
    if b"\0" in data:
        raise CommandError(f"{file} is not a text file, so not a PGN")
    try:
        return read_pgn(decode_pgn(data), number=number)
    except PgnError as error:
        raise CommandError(f"{file}: {error}") from None


def show(imported: ImportedGame, index: int, *, color: bool) -> None:
    rules = imported.game.rules
    total = len(imported.steps)
    if index == 0:
        rfen = imported.start_rfen
        title = f"[0/{total}] the start"
        last = chess.SquareSet()
    else:
        step = imported.steps[index - 1]
        rfen = step.rfen
        title = f"[{index}/{total}] {chess.COLOR_NAMES[step.color].capitalize()}: {step.text}"
        last = chess.SquareSet()
    board = board_from_rfen(rfen, rules)
    print(title)
    print(render_board(board, color=color, last=last))
    print(rfen)
    if index == total and imported.game.outcome is not None:
        print(f"Result: {imported.game.outcome.describe()} ({imported.game.outcome.result()})")


def run(args: argparse.Namespace) -> int:
    data = read(args.pgn)
    games_record = _games_record(data)
    if games_record is not None:
        return run_games_record(games_record, args)
    imported = load(args.pgn, args.game, data)
    color = not args.no_color
    headers = imported.headers
    if imported.games > 1:
        print(f"Game {imported.number} of {imported.games} in the file (--game N for "
              f"another).")
    print(f"{headers.get('White', '?')} - {headers.get('Black', '?')}, "
          f"{headers.get('Date', '?')}: {headers.get('Result', '*')}"
          + ("" if imported.exact else "  (no deck order recorded: flips replayed as "
                                      "written)"))
    return step_through(len(imported.steps), lambda index: show(imported, index, color=color),
                        every=args.all)


def step_through(total: int, show_at: Callable[[int], None], *, every: bool) -> int:
    """Show position 0..total, stepping as the keys read on stdin say (or all at once)."""
    if every:
        for index in range(total + 1):
            show_at(index)
            print()
        return 0
    index = 0
    show_at(index)
    print(KEYS)
    for line, problem in typed_lines(sys.stdin):
        if problem is not None:
            print(f"Not understood: {problem}. {KEYS}")
            continue
        key = line.strip().lower()
        if key in ("q", "quit"):
            break
        if key == "":
            index = min(total, index + 1)
        elif key in ("b", "back"):
            index = max(0, index - 1)
        elif key in ("s", "start"):
            index = 0
        elif key in ("e", "end"):
            index = total
        elif is_digits(key):
            index = max(0, min(total, int(key)))
        else:
            print(f"Not understood: {line.strip()!r}. {KEYS}")
            continue
        show_at(index)
    return 0


# ----------------------------------------------------------------------
# Records of the abstract games (docs/games/records.md)


def _games_record(data: bytes) -> str | None:
    """The file's text if it is an abstract game's record (its first tag is [Game ...])."""
    text = decode_pgn(data) if b"\0" not in data else ""
    first = text.lstrip("\ufeff \t\r\n").split("\n", 1)[0]
    return text if first.startswith("[Game ") else None


def run_games_record(text: str, args: argparse.Namespace) -> int:
    try:
        record = read_record(text)
    except RecordError as error:
        raise CommandError(f"{args.pgn}: {error}") from None
    session = record.session
    rules = session.rules
    positions = session.positions()
    actions = session.record
    names = " - ".join(f"{session.names.get(p, '?')} ({p})" for p in rules.players)
    print(f"{rules.title}: {names}, {record.tags.get('Date', '?')}: "
          f"{record.tags.get('Result', '*')}")

    def show_at(index: int) -> None:
        if index == 0:
            print(f"[0/{len(actions)}] the start")
        else:
            kind, text, player = actions[index - 1]
            what = text if kind == "turn" else f"claims {text}"
            print(f"[{index}/{len(actions)}] {player.capitalize()}: {what}")
        print(rules.diagram(positions[index]))
        print(positions[index].text())
        result = session.result
        if index == len(actions) and result is not None:
            print(f"Result: {result.reason} ({result.text})")

    return step_through(len(actions), show_at, every=args.all)
