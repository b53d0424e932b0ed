"""``--keep-frames DIR`` and ``--keep-board NAME``: a game on the camera keeps the frames
of the positions it confirms (vision.keep_frames), for ``raindrop play``, ``resume`` and
``app``. Only argparse here: registering the commands stays light."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.cli import CommandError


def add_keep_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--keep-frames", metavar="DIR",
                        help="with --board camera: keep the camera's frame of every position "
                             "the game confirms, labelled, in DIR (labels.json; "
                             "docs/camera.md, 'Keeping the camera's frames')")
    parser.add_argument("--keep-board", metavar="NAME", default="table",
                        help="with --keep-frames: the name of the physical board and set in "
                             "the labels and file names (default: table)")


def keep_option(args: argparse.Namespace) -> tuple[Path, str] | None:
    """``--keep-frames DIR`` and ``--keep-board NAME``, or None; ``--keep-frames`` keeps a
    camera's frames, so it needs ``--board camera`` (else :class:`CommandError`)."""
    if not getattr(args, "keep_frames", None):
        return None
    if (args.board or "").partition(":")[0] != "camera":
        raise CommandError("--keep-frames keeps the camera's frames: use it with "
                           "--board camera[:SOURCE]")
    return Path(args.keep_frames), args.keep_board
