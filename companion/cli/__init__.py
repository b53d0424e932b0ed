"""The ``raindrop`` command.

Each subcommand lives in its own module with a ``register(subparsers)``
function. Commands whose code lives outside the core (``vision``, ``ui``)
register through the ``raindrop.commands`` entry-point group, so this package
never imports them directly.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Sequence
from importlib import metadata

LOGGER = logging.getLogger(__name__)

# Core subcommands, in the order ``raindrop --help`` lists them.
CORE_COMMANDS = (
    "companion.cli.check",
    "companion.cli.board",
    "companion.cli.play",
    "companion.cli.resume",
    "companion.cli.replay",
    "companion.cli.review",
    "companion.cli.games",
    "companion.cli.best",
)


class CommandError(Exception):
    """A command failed for a reason the user must read (printed without a traceback)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="raindrop",
        description="Raindropchess Companion: decks, rulings and board sensing for the table.",
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in CORE_COMMANDS:
        importlib.import_module(module_name).register(subparsers)
    for entry in metadata.entry_points(group="raindrop.commands"):
        try:
            register = entry.load()
        except ImportError as error:
            LOGGER.debug("command group %s unavailable: %s", entry.name, error)
            _register_missing(subparsers, entry.name, error)
            continue
        register(subparsers)
    return parser


def _register_missing(subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
                      name: str, error: ImportError) -> None:
    """A placeholder for a command group whose optional dependency is missing."""
    message = (
        f"'raindrop {name}' needs a missing dependency ({error.name}); "
        f"install the project's extras: pip install -e '.[all]'"
    )
    sub = subparsers.add_parser(name, help=f"(unavailable: {error.name} is not installed)")
    sub.add_argument("rest", nargs=argparse.REMAINDER)
    sub.set_defaults(func=lambda args: _fail(message))


def _fail(message: str) -> int:
    print(f"raindrop: {message}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    level = logging.WARNING - 10 * min(args.verbose, 2)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        result: int = func(args)
    except CommandError as error:
        return _fail(str(error))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _quiet_after_broken_pipe()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        return _quiet_after_broken_pipe()
    return result


def _quiet_after_broken_pipe() -> int:
    """The reader of our output went away (``raindrop ... | head``): stop quietly.

    Python's advice: point stdout at devnull so the flush at exit raises nothing.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
