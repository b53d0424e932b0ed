"""``raindrop app``: start the tablet app, or play the scripted demo and save a screenshot.

Kivy is imported only when the command runs, so ``raindrop --help`` and every
other command stay fast and free of Kivy's start-up output.
"""

from __future__ import annotations

import argparse
import logging
import re

from companion.cli.keep_options import add_keep_options, keep_option

LOGGER = logging.getLogger(__name__)

_SIZE = re.compile(r"^(\d{2,5})x(\d{2,5})$")


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x800"`` -> (1280, 800); argparse error otherwise."""
    match = _SIZE.match(text.strip().lower())
    if not match:
        raise argparse.ArgumentTypeError(f"size must be WIDTHxHEIGHT, e.g. 1280x800, not {text!r}")
    width, height = int(match.group(1)), int(match.group(2))
    if not (200 <= width <= 8000 and 200 <= height <= 8000):
        raise argparse.ArgumentTypeError(f"size {text!r} is out of range (200..8000 each side)")
    return width, height


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "app", help="start the tablet app (Kivy)",
        description="Start the Raindropchess tablet app. With --demo it plays a scripted game "
                    "on the simulated sensing board; with --screenshot it saves a picture of "
                    "the game screen and exits.")
    parser.add_argument("--board", default="sim", metavar="SPEC",
                        help="board for new games: screen, sim (default), serial[:PORT], "
                             "camera[:SOURCE]")
    add_keep_options(parser)
    parser.add_argument("--demo", nargs="?", const="raindropchess", default=None,
                        metavar="GAME",
                        help="play a scripted demo game: Raindropchess on the simulated "
                             "board (no GAME), or GAME (dropper, rumbo, raindrops, crumble) "
                             "by touches, to mid-play")
    parser.add_argument("--demo-turns", type=int, default=None, metavar="N",
                        help="with --demo GAME: play N turns (default: to mid-play); "
                             "--demo games shows the game shelf")
    parser.add_argument("--screenshot", metavar="FILE.png",
                        help="save a screenshot of the game screen (after the demo) and exit")
    parser.add_argument("--size", type=parse_size, default=None, metavar="WxH",
                        help="window size, e.g. 1280x800 (landscape) or 800x1280 (portrait)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ui.launch import launch

    keep_frames = keep_option(args)

    demo = args.demo
    if demo is not None and demo != "raindropchess":
        from companion import games

        try:
            if demo != "games":
                games.get(demo)
        except (KeyError, ImportError) as error:
            from companion.cli import CommandError

            raise CommandError(f"--demo {demo}: {error}") from None
        return launch(board=args.board, demo=False, screenshot=args.screenshot,
                      size=args.size, game=demo, turns=args.demo_turns)
    return launch(board=args.board, demo=demo is not None, screenshot=args.screenshot,
                  size=args.size, keep_frames=keep_frames)
