"""``raindrop best``: the turn the engine chooses, for any game.

    raindrop best POSITION [--level N] [--seconds S] [--playouts N] [--seed N]
    raindrop best --jsonl [--level N] [--seconds S] [--playouts N] [--seed N]

The first prints the chosen turn (the game's turn text; in Raindropchess
``flip``, a placement ``N@e4`` or a chess move in UCI) and the engine's
estimate in words. The second reads positions on standard input, one a line,
any game, and writes one JSON object a line, in order, flushed after each::

    {"position": ..., "turn": ..., "after": ..., "value": ..., "playouts": ..., "seconds": ...}

``value`` is the mover's expected score (0 to 1); ``after`` is the position
after the turn, absent when chance decides it (a Raindropchess flip). A bad
line or a finished game gives ``{"position": line, "error": message}`` and
the stream goes on.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys
from collections.abc import Mapping
from typing import Any, BinaryIO, TextIO

from companion import limits
from companion.cli import CommandError
from companion.engine.contract import MAX_PLAYOUTS, MAX_SECONDS, Analysis, Budget, EngineError
from companion.engine.levels import DEFAULT_LEVEL, LEVELS, Level, LevelError, level
from companion.engine.registry import RAINDROPCHESS, engine_for, game_of
from companion.engine.words import chance_words
from companion.limits import bounded_lines

LOGGER = logging.getLogger(__name__)

MAX_LINE = limits.MAX_LINE
"""The longest position line ``--jsonl`` reads; a longer one is answered with an error."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    caps = ", ".join(f"{item.number}: {item.seconds:g} s" for item in LEVELS)
    parser = subparsers.add_parser(
        "best", help="the turn the engine chooses in a position, any game",
        description="The engine's choice for the side to move, in the game's turn text, and "
                    "its estimate. POSITION is an abstract game's position text or a "
                    f"Raindropchess RFEN (quote it). Levels 1 to 5 think at most {caps} a "
                    "turn; --seconds or --playouts replace the level's time.")
    parser.add_argument("position", nargs="?", help="the position (omit with --jsonl)")
    parser.add_argument("--jsonl", action="store_true",
                        help="read positions on stdin, one a line; write one JSON object a line")
    parser.add_argument("--level", type=_level_arg, default=level(DEFAULT_LEVEL),
                        metavar="N", help=f"1 to {len(LEVELS)} (default {DEFAULT_LEVEL})")
    parser.add_argument("--seconds", type=_seconds_arg, metavar="S",
                        help="think this long instead of the level's time")
    parser.add_argument("--playouts", type=_playouts_arg, metavar="N",
                        help="stop after this many playouts (repeatable on any machine)")
    parser.add_argument("--seed", type=_seed_arg, default=0, metavar="N",
                        help="the search's random seed (default 0)")
    parser.add_argument("--top", type=_top_arg, default=1, metavar="K",
                        help="also list the best K turns with their chances (default 1)")
    parser.add_argument("--rules", default="", metavar="KEY=VALUE[,KEY=VALUE]",
                        help="Raindropchess house rules, as 'raindrop check --rules' takes them")
    parser.set_defaults(func=run)


def _level_arg(text: str) -> Level:
    try:
        return level(text)
    except LevelError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _ascii_number(text: str, what: str, digits: int = 12) -> str:
    text = text.strip()
    if not text.isascii() or len(text) > digits + 8:
        raise argparse.ArgumentTypeError(f"{what} must be a plain number, not {text[:40]!r}")
    return text


def _seconds_arg(text: str) -> float:
    text = _ascii_number(text, "seconds")
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seconds must be a number, not {text!r}") from None
    if not math.isfinite(value) or not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"seconds must be more than 0 and at most {MAX_SECONDS:g}, not {text!r}")
    return value


def _int_arg(text: str, what: str, low: int, high: int) -> int:
    text = _ascii_number(text, what)
    if not text.lstrip("-").isdigit():
        raise argparse.ArgumentTypeError(f"{what} must be a whole number, not {text!r}")
    value = int(text)
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"{what} must be from {low} to {high}, not {text!r}")
    return value


def _playouts_arg(text: str) -> int:
    return _int_arg(text, "playouts", 1, MAX_PLAYOUTS)


def _seed_arg(text: str) -> int:
    return _int_arg(text, "the seed", 0, 2**63 - 1)


def _top_arg(text: str) -> int:
    return _int_arg(text, "top", 1, 20)


def _options(text: str) -> dict[str, str]:
    """``"a=b,c=d"`` -> ``{"a": "b", "c": "d"}``; :class:`CommandError` naming a bad item."""
    options: dict[str, str] = {}
    if not text.strip():
        return options
    if len(text) > 1000:
        raise CommandError("--rules is too long")
    for item in text.split(","):
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise CommandError(f"--rules items are KEY=VALUE, not {item.strip()!r}")
        options[key.strip()] = value.strip()
    return options


def run(args: argparse.Namespace) -> int:
    options = _options(args.rules)
    budget = Budget.for_level(args.level, seconds=args.seconds, playouts=args.playouts)
    if args.jsonl:
        if args.position is not None:
            raise CommandError("--jsonl reads positions on stdin: give no POSITION")
        return run_jsonl(sys.stdin.buffer, sys.stdout, args.level, budget, args.seed, options)
    if args.position is None:
        raise CommandError("give a POSITION (quoted), or --jsonl to read positions on stdin")
    try:
        analysis = analyse(args.position, args.level, budget, args.seed, options)
    except (EngineError, ValueError) as error:
        raise CommandError(str(error)) from None
    print(analysis.chosen.turn)
    print(estimate_words(analysis))
    if args.top > 1:
        for number, candidate in enumerate(analysis.candidates[:args.top], start=1):
            print(f"{number:2d}. {candidate.turn:<16} {round(candidate.value * 100):3d}%"
                  f"  ({candidate.visits} playouts)")
    return 0


def analyse(position: str, chosen_level: Level, budget: Budget, seed: int,
            options: Mapping[str, str]) -> Analysis:
    """The engine's analysis of one position text; :class:`EngineError` or ``ValueError``."""
    game = game_of(position)
    if game != RAINDROPCHESS and options:
        raise EngineError(f"--rules applies to Raindropchess only, not {game}")
    engine = engine_for(position, options)
    return engine.analyse(position, level=chosen_level, budget=budget, seed=seed)


def estimate_words(analysis: Analysis) -> str:
    """The chosen turn's estimate in words, for the mover and their opponent."""
    mover = analysis.mover
    other = analysis.notes.get("opponent", "the opponent")
    return chance_words(analysis.chosen.value, mover, other, proof=analysis.chosen.proof)


def run_jsonl(stream: BinaryIO, out: TextIO, chosen_level: Level, budget: Budget, seed: int,
              options: Mapping[str, str]) -> int:
    """Answer every line of ``stream`` on ``out``; one bad line never ends the stream."""
    for line, problem in bounded_lines(stream, MAX_LINE):
        if problem is None and not line:
            continue
        record: dict[str, Any]
        if problem is not None:
            record = {"position": line, "error": problem}
        else:
            try:
                analysis = analyse(line, chosen_level, budget, seed, options)
            except (EngineError, ValueError) as error:
                record = {"position": line, "error": str(error)}
            else:
                record = {"position": analysis.position, "turn": analysis.chosen.turn}
                if analysis.chosen.after is not None:
                    record["after"] = analysis.chosen.after
                record.update(value=round(analysis.chosen.value, 4),
                              playouts=analysis.playouts, seconds=round(analysis.seconds, 3))
        out.write(json.dumps(record) + "\n")
        out.flush()
    return 0
