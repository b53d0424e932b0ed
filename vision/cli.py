"""``raindrop vision``: markers, calibrate, classify and watch.

The arguments are in :mod:`vision.commands` (registered through the
``raindrop.commands`` entry point, which imports this module only when a
``vision`` subcommand runs); each subcommand returns an exit code and raises
``CommandError`` for what the user must fix.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import threading
import time
from pathlib import Path

import chess
import cv2
import numpy as np

from companion.cli import CommandError
from companion.sensors.snapshot import BoardSnapshot
from companion.sensors.source import SourceStatus
from vision.calibration import Calibration, load_calibration, save_calibration
from vision.commands import IMAGE_CORNERS
from vision.config import VisionConfig
from vision.errors import VisionError
from vision.geometry import BoardGeometry, Image, parse_corners, warp
from vision.locate import Located, locate
from vision.markers import write_sheet
from vision.reader import CameraBoardReader, open_capture, parse_source
from vision.sampling import make_sampler
from vision.square_reading import SquareReading
from vision.squares import read_squares

LOGGER = logging.getLogger(__name__)

_CORNER_POINTS = {"top-left": (0.0, 0.0), "top-right": (1.0, 0.0),
                  "bottom-right": (1.0, 1.0), "bottom-left": (0.0, 1.0)}


def _load(args: argparse.Namespace) -> Calibration | None:
    try:
        return load_calibration(args.calibration)
    except VisionError as error:
        raise CommandError(str(error)) from None


def format_grid(grid: tuple[str, ...] | list[str]) -> str:
    return "\n".join(grid)


# markers -----------------------------------------------------------------------

def run_markers(args: argparse.Namespace) -> int:
    try:
        write_sheet(args.out, args.size)
    except VisionError as error:
        raise CommandError(str(error)) from None
    except OSError as error:
        raise CommandError(f"cannot write {args.out}: {error.strerror}") from None
    print(f"wrote {args.out}: markers 0-3 for a8, h8, h1, a1, {args.size:g} mm; "
          "print at 100% scale")
    return 0


# calibrate ---------------------------------------------------------------------

def orient(geometry: BoardGeometry, a1_corner: str) -> BoardGeometry:
    """``geometry`` turned so a1 is the board corner nearest that corner of the picture."""
    w, h = geometry.image_size
    if not w or not h:
        xs = [p[0] for p in geometry.corners]
        ys = [p[1] for p in geometry.corners]
        w, h = int(max(xs)) + 1, int(max(ys)) + 1
    fx, fy = _CORNER_POINTS[a1_corner]
    target = (fx * w, fy * h)
    index = min(range(4), key=lambda i: (geometry.corners[i][0] - target[0]) ** 2
                + (geometry.corners[i][1] - target[1]) ** 2)
    return geometry.rotated((3 - index) % 4)


def _ask_a1() -> str:
    prompt = "Which corner of the picture is a1? [bottom-left/bottom-right/top-left/top-right] "
    while True:
        answer = input(prompt).strip().lower() or "bottom-left"
        for name in IMAGE_CORNERS:
            if name.startswith(answer) or (name.replace("-", "")[:2] == answer[:2] \
                    and len(answer) <= 2):
                return name
        print("please answer one of: " + ", ".join(IMAGE_CORNERS))


def _frames(source: str, limit: int):  # type: ignore[no-untyped-def]
    """Frames from a photo (one) or a video source (up to ``limit``)."""
    path = Path(source)
    if path.suffix.lower() in (".jpg", ".jpeg", ".png", ".bmp", ".webp") and path.exists():
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise CommandError(f"cannot read the image {source!r}")
        yield image
        return
    try:
        capture = open_capture(parse_source(source))
    except VisionError as error:
        raise CommandError(str(error)) from None
    try:
        for _ in range(limit):
            ok, frame = capture.read()
            if ok and frame is not None:
                yield frame
    finally:
        capture.release()


def run_calibrate(args: argparse.Namespace) -> int:
    config = VisionConfig()
    located: Located | None = None
    last_error = "no frame could be read"
    for frame in _frames(args.source, args.frames):
        h, w = frame.shape[:2]
        if args.corners:
            try:
                located = Located(BoardGeometry(parse_corners(args.corners), (w, h)), "manual")
            except VisionError as error:
                raise CommandError(str(error)) from None
            break
        try:
            located = locate(config, frame)
            break
        except VisionError as error:
            last_error = str(error)
    if located is None:
        raise CommandError(f"board not found in {args.source!r}: {last_error}")
    geometry = located.geometry
    if args.a1:
        geometry = orient(geometry, args.a1)
    elif not located.oriented:
        geometry = orient(geometry, _ask_a1() if sys.stdin.isatty() else "bottom-left")
    path = save_calibration(Calibration(geometry, located.method, args.source),
                            args.calibration)
    corners = ", ".join(f"{n} ({x:.0f}, {y:.0f})" for n, (x, y) in
                        zip(("a8", "h8", "h1", "a1"), geometry.corners, strict=True))
    print(f"board found ({located.method}): {corners}")
    print(f"saved to {path}")
    return 0


# classify ----------------------------------------------------------------------

def _read_image(path: Path, what: str = "image") -> Image:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        reason = "no such file" if not path.exists() else "not an image OpenCV can decode"
        raise CommandError(f"cannot read the {what} {str(path)!r}: {reason}")
    return np.asarray(image, np.uint8)


def classify_image(config: VisionConfig, image: Image, geometry: BoardGeometry,
                   reference: Image | None = None) -> SquareReading:
    """The reading of one photo with a known geometry (its grid rank 8 first)."""
    sampler = make_sampler(config, geometry)
    ref_warp = warp(config, reference, geometry) if reference is not None else None
    return read_squares(config, sampler, warp(config, image, geometry), ref_warp)


UNSURE_LISTED = 8  # more unsure squares than this are counted, not named


def unsure_names(config: VisionConfig, reading: SquareReading) -> list[str]:
    """The squares a photo read without a reference is unsure of, by name
    (``config.photo.photo_unsure_margin``), a8 first."""
    return [chess.square_name(chess.square(index % 8, 7 - index // 8))
            for index in reading.unsure(config.photo.photo_unsure_margin)]


def run_classify(args: argparse.Namespace) -> int:
    if args.grid:
        return run_classify_grid(args)
    config = VisionConfig()
    image = _read_image(args.image)
    h, w = image.shape[:2]
    found_here = False  # found by this photo's pattern of squares, not markers or calibration
    if args.corners:
        try:
            located = Located(BoardGeometry(parse_corners(args.corners), (w, h)), "manual")
        except VisionError as error:
            raise CommandError(str(error)) from None
    else:
        calibration = _load(args)
        if calibration is not None and calibration.geometry.image_size == (w, h):
            located = Located(calibration.geometry, calibration.method)
        else:
            try:
                located = locate(config, image)
            except VisionError as error:
                raise CommandError(f"{error}; or give the corners with --corners") from None
            found_here = located.method == "chessboard"
    reference = None
    if args.reference:
        reference = _read_image(args.reference, "reference image")
        if reference.shape != image.shape:
            raise CommandError("the reference photo must be the same size as the image")
    reading = classify_image(config, image, located.geometry, reference)
    grid = reading.grid
    unsure = unsure_names(config, reading) if reference is None else None
    if found_here and any(square != "." for row in grid for square in row):
        print("raindrop: note: the board was found by its pattern of squares, without corner "
              "markers: a1 is taken to be at the bottom left, and with pieces on the board "
              "its corners can be off by part of a square; for a reading to rely on, use the "
              "markers, calibrate on the empty board, or give --corners", file=sys.stderr)
    aspect = located.geometry.pixel_aspect()
    if aspect != 1.0:
        print(f"raindrop: note: by its corners the board was photographed with pixels "
              f"{aspect:.2f} times as tall as wide (a picture stretched to another shape, "
              f"as many photo sets do to 640 x 640); it is read that way", file=sys.stderr)
    if args.json:
        report = {"grid": list(grid), "method": located.method,
                  "corners_a8_h8_h1_a1": [list(p) for p in located.geometry.corners],
                  "pixel_aspect": round(aspect, 4)}
        if unsure is not None:
            report["unsure"] = unsure
            report["colours_unsure"] = reading.colours_unsure
        print(json.dumps(report))
    else:
        print(format_grid(grid))
        if unsure is not None and len(unsure) > UNSURE_LISTED:
            print(f"raindrop: note: the reading is unsure of {len(unsure)} squares: check "
                  f"that the board is where the corners or the calibration say (raindrop "
                  f"vision watch --preview) and that it has light enough", file=sys.stderr)
        elif unsure:
            print(f"raindrop: note: the reading is unsure of {', '.join(unsure)} (a piece "
                  f"there or not, only just): look at those squares", file=sys.stderr)
        if reference is None and reading.colours_unsure:
            print("raindrop: note: the reading could not tell the two armies apart by "
                  "this photo (it is sure of the pieces of one army only), so the colours "
                  "may be wrong: if both armies are on the board, check which pieces it "
                  "read white and which black (more even light, or a reference photo of "
                  "the empty board, helps)", file=sys.stderr)
    return 0


def run_classify_grid(args: argparse.Namespace) -> int:
    """``classify --grid``: every point or cell as '.', 'b' or 'w', top row first."""
    from vision.grid import GridConfig, GridGeometry, GridSpec, classify_grid
    from vision.grid_locate import locate_grid

    image = _read_image(args.image)
    h, w = image.shape[:2]
    try:
        spec = GridSpec.parse(args.grid)
        if args.corners:
            geometry = GridGeometry.from_text(spec, args.corners, (w, h))
            method = "manual"
        else:
            located = locate_grid(VisionConfig(), image, spec)
            geometry, method = located.geometry, located.method
    except VisionError as error:
        hint = "" if args.corners else "; or give the corners with --corners"
        raise CommandError(f"{error}{hint}") from None
    reference = None
    if args.reference:
        reference = _read_image(args.reference, "reference image")
        if reference.shape != image.shape:
            raise CommandError("the reference photo must be the same size as the image")
    grid = classify_grid(GridConfig(), image, geometry, reference).grid
    if args.json:
        print(json.dumps({"grid": list(grid), "method": method,
                          "corners": [[round(x, 2), round(y, 2)] for x, y in geometry.corners]}))
    else:
        print(format_grid(grid))
    return 0


# watch -------------------------------------------------------------------------

def draw_preview(reader: CameraBoardReader) -> Image | None:
    """The latest frame with the board's outline, a8 marked, and the reader's LED hint
    (targets green, squares to fix red, the last move blue) drawn on the squares."""
    frame = reader.last_frame
    if frame is None:
        return None
    image = frame.copy()
    if reader.located is None:
        return image
    geometry = reader.located.geometry
    pts = np.array(geometry.corners, np.int32).reshape(-1, 1, 2)
    cv2.polylines(image, [pts], True, (0, 200, 0), 2)
    a8 = geometry.corners[0]
    cv2.putText(image, "a8", (int(a8[0]) + 4, int(a8[1]) - 4),
                cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 200, 0), 2)
    board_to_image = cv2.getPerspectiveTransform(
        np.array([[0, 0], [8, 0], [8, 8], [0, 8]], np.float32),
        np.array(geometry.corners, np.float32))
    hint = reader.hint
    for squares, colour in ((hint.last_move, (255, 120, 0)), (hint.targets, (0, 200, 0)),
                            (hint.fix, (0, 0, 255))):
        for square in squares:
            col, row = chess.square_file(square), 7 - chess.square_rank(square)
            cell = np.array([[[col, row]], [[col + 1, row]], [[col + 1, row + 1]],
                             [[col, row + 1]]], np.float32)
            quad = cv2.perspectiveTransform(cell, board_to_image)
            cv2.polylines(image, [np.round(quad).astype(np.int32)], True, colour, 3)
    return image


def _draw_preview(reader: CameraBoardReader, path: Path) -> None:
    image = draw_preview(reader)
    if image is not None:
        cv2.imwrite(str(path), image)


def run_watch(args: argparse.Namespace) -> int:
    try:
        source = parse_source(args.source)
    except VisionError as error:
        raise CommandError(str(error)) from None
    reader = CameraBoardReader(source, calibration=_load(args), empty_start=not args.pieces_on)
    lock = threading.Lock()

    def on_snapshot(snapshot: BoardSnapshot) -> None:
        with lock:
            print(snapshot_text(snapshot), flush=True)
            if args.preview:
                _draw_preview(reader, args.preview)

    def on_status(status: SourceStatus) -> None:
        with lock:
            state = "" if status.connected else " (disconnected)"
            print(f"camera: {status.message}{state}", flush=True)

    reader.start(on_snapshot, on_status)
    deadline = time.monotonic() + args.seconds if args.seconds > 0 else None
    try:
        while not reader.wait(0.2):
            if deadline is not None and time.monotonic() >= deadline:
                break
    finally:
        reader.stop()
    return 0


def run_kept(args: argparse.Namespace) -> int:
    from vision.keep_frames import FrameKeeper, KeptFramesError
    from vision.labels import draw_labels

    if not (args.folder / "labels.json").exists():
        raise CommandError(f"{args.folder} holds no kept frames (no labels.json)")
    try:
        entries = FrameKeeper.entries(args.folder)
    except KeptFramesError as error:
        raise CommandError(str(error)) from None
    if args.draw is not None:
        try:
            args.draw.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CommandError(f"cannot make {args.draw}: {error.strerror}") from None
    for entry in entries:
        name = entry["image"]
        blue = entry.get("blue_squares", [])
        print(f"{name}  {entry.get('board', '?')}  {entry.get('split', '?')}  "
              f"{entry['board_fen']}" + (f"  blue: {' '.join(blue)}" if blue else ""))
        if args.draw is None:
            continue
        image = cv2.imread(str(args.folder / name))
        if image is None:
            print(f"  cannot read {args.folder / name}: not drawn", file=sys.stderr)
            continue
        try:
            corners = tuple((float(x), float(y)) for x, y in entry["board_corners_tl_tr_br_bl"])
            drawn = draw_labels(image, corners, int(entry["rotation_degrees"]),  # type: ignore[arg-type]
                                entry["board_fen"])
        except (KeyError, TypeError, ValueError) as error:
            print(f"  {name}: its labels cannot be drawn ({error!r}): not drawn",
                  file=sys.stderr)
            continue
        cv2.imwrite(str(args.draw / f"{Path(name).stem}.png"), drawn)
    print(f"{len(entries)} frame(s)" + (f"; drawn in {args.draw}" if args.draw else ""))
    return 0


def snapshot_text(snapshot: BoardSnapshot) -> str:
    """What ``watch`` prints for a settled board: its time, its grid (rank 8
    first) and any squares the camera is unsure of (read empty, only just)."""
    lines = [f"[{snapshot.timestamp:8.2f}s] board:", format_grid(_grid_of(snapshot))]
    if snapshot.unsure:
        names = ", ".join(chess.square_name(square) for square in snapshot.unsure)
        lines.append(f"unsure (read empty, but with some sign of a piece): {names}")
    return "\n".join(lines)


def _grid_of(snapshot: BoardSnapshot) -> tuple[str, ...]:
    letters = {"white": "w", "black": "b", "blue": "u"}
    rows = []
    for rank in range(7, -1, -1):
        row = ""
        for file in range(8):
            square = chess.square(file, rank)
            colour = snapshot.colors.get(square) if snapshot.colors else None
            row += "." if square not in snapshot.occupied else letters.get(colour or "", "?")
        rows.append(row)
    return tuple(rows)
