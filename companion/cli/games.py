"""``raindrop games ...``: the abstract games' engines on the command line.

    raindrop games list                       the game names, one per line
    raindrop games start GAME [KEY=VALUE...]  the canonical start position
    raindrop games next --jsonl [--limit N]   positions on stdin -> one JSON object a line
    raindrop games turns POSITION [--limit N] the legal turn texts, one per line
    raindrop games play POSITION TURN...      the position after the turns
    raindrop games steps POSITION [STEP...]   the legal next steps after some steps

Every command goes through the :mod:`companion.games` interface; no game is
special-cased here.
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import sys
from typing import Any, TextIO

from companion import games
from companion.cli import CommandError
from companion.games import GameRules, IllegalTurn, OptionError, PositionError, Step, TooManyTurns
from companion.games.base import Position
from companion.games.record import parse_options
from companion.limits import (
    LISTING_LIMIT,
    MAX_LISTING_LIMIT,
    LimitError,
    bounded_lines,
    parse_count,
)

LOGGER = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "games", help="the abstract games' engines: start, turns, play, next",
        description="The engines of the abstract games (" + ", ".join(games.names()) + "). "
                    "Positions and turns are written as the games' rules pages say "
                    "(docs/games/). A position text holds spaces: quote it.")
    commands = parser.add_subparsers(dest="games_command", metavar="COMMAND")
    commands.required = True

    listing = commands.add_parser("list", help="the game names, one per line")
    listing.set_defaults(func=run_list)

    start = commands.add_parser("start", help="the canonical start position")
    start.add_argument("game", help="the game's name")
    start.add_argument("options", nargs="*", metavar="KEY=VALUE",
                       help="the game's named options (see 'raindrop games options GAME')")
    start.set_defaults(func=run_start)

    options = commands.add_parser("options", help="a game's named options, with defaults")
    options.add_argument("game", help="the game's name")
    options.set_defaults(func=run_options)

    successors = commands.add_parser(
        "next", help="every position one turn can reach, for positions read on stdin",
        description="Reads positions, one per line, on standard input. For each line writes "
                    'one JSON object on one line: {"position": canonical, "outcome": null, '
                    'the winner or "draw", "next": [every canonical position one complete '
                    'turn can reach, sorted]}, or {"position": the line, "error": message} '
                    "for a line that is not a valid position. Blank lines are skipped.")
    successors.add_argument("--jsonl", action="store_true", required=True,
                            help="JSON lines in and out (the only format)")
    successors.add_argument("--limit", type=_limit, default=LISTING_LIMIT, metavar="N",
                            help=f"answer a position with more than N successors with an "
                                 f"error instead (default {LISTING_LIMIT})")
    successors.set_defaults(func=run_next)

    turns = commands.add_parser(
        "turns", help="the legal turn texts, one per line",
        description="The legal turns, one per line, each the least text reaching its "
                    "position, in turn-text order; listed as they are found. Past the "
                    "limit the listing stops with an error (exit status 2).")
    turns.add_argument("position", nargs="+", help="the position text (quoted)")
    turns.add_argument("--limit", type=_limit, default=LISTING_LIMIT, metavar="N",
                       help=f"list at most N turns (default {LISTING_LIMIT})")
    turns.set_defaults(func=run_turns)

    play = commands.add_parser("play", help="the position after the turns")
    play.add_argument("position", help="the position text (quoted)")
    play.add_argument("turns", nargs="*", metavar="TURN", help="turn texts, in order")
    play.set_defaults(func=run_play)

    steps = commands.add_parser(
        "steps", help="build a turn step by step: the legal next steps after STEPs")
    steps.add_argument("position", help="the position text (quoted)")
    steps.add_argument("steps", nargs="*", metavar="STEP", help="the steps taken so far")
    steps.set_defaults(func=run_steps)


def _limit(text: str) -> int:
    try:
        return parse_count(text.strip(), "the limit", low=1, high=MAX_LISTING_LIMIT)
    except LimitError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def parse_position(text: str) -> tuple[GameRules[Any], Position]:
    """A position text of any game -> (its rules, the position); :class:`CommandError`."""
    try:
        rules = games.game_of(text)
        return rules, rules.parse(text)
    except PositionError as error:
        raise CommandError(f"not a valid position: {error}") from None


def outcome_text(rules: GameRules[Any], position: Position) -> str | None:
    outcome = rules.outcome(position)
    return None if outcome is None else outcome.result


def run_list(args: argparse.Namespace, out: TextIO | None = None) -> int:
    stream = out or sys.stdout
    for name in games.names():
        print(name, file=stream)
    return 0


def _rules(name: str) -> GameRules[Any]:
    try:
        return games.get(name)
    except games.UnknownGameError as error:
        raise CommandError(str(error)) from None


def run_start(args: argparse.Namespace) -> int:
    rules = _rules(args.game)
    try:
        position: Position = rules.start(**parse_options(args.options))
    except OptionError as error:
        raise CommandError(str(error)) from None
    print(position.text())
    return 0


def run_options(args: argparse.Namespace) -> int:
    rules = _rules(args.game)
    if not rules.options:
        print(f"{rules.name} has no options")
    for key, option in rules.options.items():
        default = "absent" if option.default is None else option.default
        choices = f" ({'|'.join(option.choices)})" if option.choices else ""
        print(f"{key}={default}{choices}  {option.help}")
    return 0


def next_record(line: str, limit: int = LISTING_LIMIT) -> dict[str, Any]:
    """One ``next --jsonl`` answer for one input line (an error past ``limit``)."""
    try:
        rules = games.game_of(line)
        position = rules.parse(line)
        successors = sorted(p.text() for p in rules.successors(position, limit=limit))
    except (PositionError, TooManyTurns) as error:
        return {"position": line, "error": str(error)}
    return {"position": position.text(), "outcome": outcome_text(rules, position),
            "next": successors}


def run_next(args: argparse.Namespace) -> int:
    out = sys.stdout
    stdin = getattr(sys.stdin, "buffer", None)  # a test's StringIO has none: in memory
    stream = stdin if stdin is not None else io.BytesIO(sys.stdin.read().encode("utf-8"))
    for line, problem in bounded_lines(stream):
        if problem is None and not line:
            continue
        if problem is not None:
            record: dict[str, Any] = {"position": line, "error": problem}
        else:
            try:
                record = next_record(line, args.limit)
            except Exception as error:  # one bad line never stops the stream (logged)
                LOGGER.exception("next: %r", line[:200])
                record = {"position": line, "error": f"internal error: {error}"}
        out.write(json.dumps(record, separators=(",", ":")) + "\n")
        out.flush()
    return 0


def run_turns(args: argparse.Namespace) -> int:
    """The turns as they are found, stopping with an error past the limit."""
    rules, position = parse_position(" ".join(args.position))
    for listed, turn in enumerate(rules.turns(position)):
        if listed == args.limit:
            sys.stdout.flush()
            raise CommandError(f"more than {args.limit} legal turns: the first {args.limit} "
                               f"were listed (--limit N lists more)")
        print(turn)
    return 0


def run_play(args: argparse.Namespace) -> int:
    rules, position = parse_position(args.position)
    for number, turn in enumerate(args.turns, start=1):
        outcome = rules.outcome(position)
        if outcome is not None:
            raise CommandError(f"turn {number} {turn!r}: the game is over already "
                               f"({outcome.reason or outcome.result})")
        try:
            position = rules.play(position, turn)
        except IllegalTurn as error:
            raise CommandError(f"turn {number} {turn!r} is illegal: {error}") from None
    print(position.text())
    return 0


def describe_step(step: Step) -> str:
    return f"{step.text}  {step.note}".rstrip()


def run_steps(args: argparse.Namespace) -> int:
    rules, position = parse_position(args.position)
    builder = rules.builder(position)
    for number, step in enumerate(args.steps, start=1):
        try:
            builder = builder.add(step)
        except IllegalTurn as error:
            raise CommandError(f"step {number} {step!r} is illegal: {error}") from None
    print(f"# {builder.message}")
    if builder.complete:
        print(f"# complete: {builder.turn()}")
    for step in builder.next_steps():
        print(describe_step(step))
    return 0
