"""``raindrop replay GAME.pgn``: step through a recorded game, action by action."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

import chess

from companion.cli import CommandError
from companion.cli.render import render_board
from companion.notation import ImportedGame, PgnError, board_from_rfen, decode_pgn, read_pgn

LOGGER = logging.getLogger(__name__)

KEYS = "Enter: next   b: back   s: start   e: end   NUMBER: go to that action   q: quit"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "replay", help="step through a game saved as PGN",
        description="Replay a Raindropchess PGN action for action (flips that placed "
                    "nothing included). " + KEYS)
    parser.add_argument("pgn", help="the PGN file (UTF-8, or Latin-1 as the PGN standard "
                                     "has it)")
    parser.add_argument("--game", type=int, default=1, metavar="N",
                        help="which game of a file holding several (default: the first)")
    parser.add_argument("--all", action="store_true", help="print every position and exit")
    parser.add_argument("--no-color", action="store_true", help="no ANSI colours")
    parser.set_defaults(func=run)


def load(path: str, number: int = 1) -> ImportedGame:
    file = Path(path)
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        raise CommandError(f"no such file: {file}") from None
    except OSError as error:
        raise CommandError(f"cannot read {file}: {error}") from None
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
    imported = load(args.pgn, args.game)
    color = not args.no_color
    headers = imported.headers
    if imported.games > 1:
        print(f"Game {imported.number} of {imported.games} in the file (--game N for "
              f"another).")
    print(f"{headers.get('White', '?')} - {headers.get('Black', '?')}, "
          f"{headers.get('Date', '?')}: {headers.get('Result', '*')}"
          + ("" if imported.exact else "  (no deck order recorded: flips replayed as "
                                      "written)"))
    total = len(imported.steps)
    if args.all:
        for index in range(total + 1):
            show(imported, index, color=color)
            print()
        return 0
    index = 0
    show(imported, index, color=color)
    print(KEYS)
    for line in sys.stdin:
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
        elif key.isdigit():
            index = max(0, min(total, int(key)))
        else:
            print(f"Not understood: {line.strip()!r}. {KEYS}")
            continue
        show(imported, index, color=color)
    return 0
