"""``raindrop vision``'s arguments: markers, calibrate, classify, watch and kept.

Registered through the ``raindrop.commands`` entry point. Only the arguments live
here: every ``raindrop`` command builds its parser from this, so the commands' code
(:mod:`vision.cli`, with OpenCV and NumPy) is imported only when a ``vision``
subcommand runs.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from pathlib import Path

IMAGE_CORNERS = ("top-left", "top-right", "bottom-right", "bottom-left")


def _later(name: str) -> Callable[[argparse.Namespace], int]:
    """The subcommand ``name`` of :mod:`vision.cli`, imported when it runs."""
    def run(args: argparse.Namespace) -> int:
        command: Callable[[argparse.Namespace], int] = getattr(
            importlib.import_module("vision.cli"), name)
        return command(args)
    return run


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "vision", help="the camera board reader: markers, calibration, reading a photo",
        description="Set up and test the camera that watches the board.")
    sub = parser.add_subparsers(dest="vision_command", metavar="SUBCOMMAND", required=True)

    markers = sub.add_parser("markers", help="write the printable corner-marker sheet")
    markers.add_argument("--out", type=Path, default=Path("raindrop-markers.pdf"),
                         help="FILE.pdf or FILE.png (true size; print at 100%%)")
    markers.add_argument("--size", type=float, default=30.0, metavar="MM",
                         help="marker side in millimetres (default 30)")
    markers.set_defaults(func=_later("run_markers"))

    calibrate = sub.add_parser("calibrate", help="find the board and store where it is")
    calibrate.add_argument("source", help="camera number, video file, URL or a photo")
    calibrate.add_argument("--corners", metavar="X,Y,X,Y,X,Y,X,Y",
                           help="the board's outer corners by hand: a8, h8, h1, a1")
    calibrate.add_argument("--a1", choices=IMAGE_CORNERS,
                           help="which corner of the picture a1 is in (asked when needed)")
    calibrate.add_argument("--frames", type=int, default=150,
                           help="frames to try before giving up (default 150)")
    _calibration_option(calibrate)
    calibrate.set_defaults(func=_later("run_calibrate"))

    classify = sub.add_parser("classify", help="read the squares of one photo")
    classify.add_argument("image", type=Path, help="the photo")
    classify.add_argument("--corners", metavar="X,Y,X,Y,X,Y,X,Y",
                          help="outer corners of the squares in pixels: a8, h8, h1, a1")
    classify.add_argument("--reference", type=Path, metavar="EMPTY",
                          help="a photo of the empty board from the same camera position")
    classify.add_argument("--json", action="store_true",
                          help='print {"grid": [8 strings], ...} as JSON')
    classify.add_argument("--grid", metavar="points:N|cells:N",
                          help="read stones on a grid instead of chess pieces: points:19 (a Go "
                               "board's line crossings), cells:8 (a chessboard's squares), "
                               "points:9x13; --corners are then the grid's top-left, top-right, "
                               "bottom-right and bottom-left corner points (or cell corners)")
    _calibration_option(classify)
    classify.set_defaults(func=_later("run_classify"))

    watch = sub.add_parser("watch", help="print every settled board the camera sees")
    watch.add_argument("source", nargs="?", default="",
                       help="camera number (default 0), video file or URL")
    watch.add_argument("--seconds", type=float, default=0.0,
                       help="stop after this long (default: until Ctrl-C or the video ends)")
    watch.add_argument("--preview", type=Path, metavar="FILE.png",
                       help="keep writing the latest frame with the board drawn on it")
    watch.add_argument("--pieces-on", action="store_true",
                       help="pieces already stand on the board (do not take the first "
                            "view as the empty board)")
    _calibration_option(watch)
    watch.set_defaults(func=_later("run_watch"))

    kept = sub.add_parser("kept", help="list the frames a game kept, and draw their labels",
                          description="List the frames kept by 'raindrop play --board camera "
                                      "--keep-frames DIR' (or the app's --keep-frames), each "
                                      "with the position the game confirmed; with --draw, "
                                      "draw each frame's grid and pieces to look at before "
                                      "it joins the real-photo set.")
    kept.add_argument("folder", type=Path, help="the folder given to --keep-frames")
    kept.add_argument("--draw", type=Path, metavar="OUT",
                      help="write each frame with its grid and pieces as OUT/<frame>.png")
    kept.set_defaults(func=_later("run_kept"))


def _calibration_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--calibration", type=Path, metavar="FILE",
                        help="calibration file (default: camera.json in the user config "
                             "directory, or $RAINDROP_CONFIG_DIR)")
