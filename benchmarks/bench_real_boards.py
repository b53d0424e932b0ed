"""The camera reader on real chessboard photos (``tests/vision/data/real_boards``).

Run: ``python -m benchmarks.bench_real_boards [--split dev|held_out] [--reference] [--draw
DIR] [--board NAME] [--photo-nets ONNX ...] [--photo-weights W ...]`` (default: both parts,
every board). Every photo is read as ``raindrop vision classify --corners`` reads it: from
its labelled corners, without an empty-board reference. Every wrong square is printed
(photo, square, expected, read), then the squares right per split and per board, and per
split for the photos there before the thirteenth session and the walnut board's later photos
(``walnut_20`` on) apart. ``--reference`` reads instead every photo that has an empty photo
of its board taken from the same camera (a tripod: ``lab.real_boards.tripod_pairs``)
against that empty photo as its reference, as a game's camera does once it has seen the
empty board; its peer is then the same reader without the reference.
A photo read without a reference also lists the squares it is unsure of
(``VisionConfig.photo.photo_unsure_margin``), as ``classify`` does: a wrong square among
them is marked ``(listed unsure)``, and each part's line says how many squares
were listed and how many of the squares read empty or occupied wrongly they hold;
and how many photos say their colours are unsure (``SquareReading.colours_unsure``,
``classify``'s note), holding how many of the pieces read in the wrong colour.
``--draw DIR`` also writes each photo with a wrong square as a PNG,
every wrong square outlined in red with ``expected>read`` beside it, to look at.
``--board NAME`` reads one board's photos; ``--photo-nets`` reads them by other
networks than the shipped ones, so a fit trained without a board
(``python -m lab.train_occupancy --leave-out folding --keep /tmp/folding.onnx``) is
judged by the whole reader on that board: ``--split dev --board folding --photo-nets
/tmp/folding.onnx`` (two paths: the two fits read together), as the development part's
leave-out checks in docs/dev/camera.md are read. ``--photo-weights`` gives
each network its weight in the mean of their logits (``VisionConfig.nets.photo_net_weights``;
with ``--photo-nets`` and no weights, the same each).

The peer, measured in the same run on the same photos and corners, is a plain
reader: the median grey of the middle half of each square (top-down, 32 pixels a
square) against the median of the squares of its colour; more than 18 grey levels
away is a piece, white when lighter than the midpoint of the two square colours'
medians, else black. Its error count over the reader's is the ratio line.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from benchmarks.recorded import compare, recorded
from lab.real_boards import (
    FILES,
    SPLITS,
    RealBoardPhoto,
    is_later_walnut,
    listed_errors,
    load_real_boards,
    read_board,
    read_photo,
    tripod_pairs,
    wrong_squares,
)
from vision.config import VisionConfig
from vision.geometry import Image
from vision.net_reading import net_weights
from vision.square_net import SquareNetError, load_net

SQUARE = 32
PIECE_LEVELS = 18.0


def plain_read(photo: RealBoardPhoto) -> tuple[str, ...]:
    """The plain peer's grid (rank 8 first): grey level against the square colours."""
    grey = cv2.imread(str(photo.path), cv2.IMREAD_GRAYSCALE)
    side = 8 * SQUARE
    target = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    matrix = cv2.getPerspectiveTransform(np.float32(photo.geometry.corners), target)
    board = cv2.warpPerspective(grey, matrix, (side, side)).astype(np.float32)
    q = SQUARE // 4
    levels = np.array([[np.median(board[r * SQUARE + q:(r + 1) * SQUARE - q,
                                        c * SQUARE + q:(c + 1) * SQUARE - q])
                        for c in range(8)] for r in range(8)])
    light = (np.add.outer(np.arange(8), np.arange(8)) % 2) == 0  # a8 is light
    light_level = float(np.median(levels[light]))
    dark_level = float(np.median(levels[~light]))
    middle = (light_level + dark_level) / 2
    rows = []
    for r in range(8):
        row = ""
        for c in range(8):
            own = light_level if light[r, c] else dark_level
            if abs(levels[r, c] - own) <= PIECE_LEVELS:
                row += "."
            else:
                row += "w" if levels[r, c] > middle else "b"
        rows.append(row)
    return tuple(rows)


def draw_errors(photo: RealBoardPhoto, misread: list[str]) -> Image:
    """The photo with every wrong square (``e4 w->.``) outlined and marked."""
    image = cv2.imread(str(photo.path))
    if image is None:
        raise FileNotFoundError(photo.path)
    unit = np.float32([[0, 0], [8, 0], [8, 8], [0, 8]])
    to_image = cv2.getPerspectiveTransform(unit, np.float32(photo.geometry.corners))
    for item in misread:
        square, change = item.split()
        col, row = FILES.index(square[0]), 8 - int(square[1])
        cell = np.float32([[[col, row], [col + 1, row], [col + 1, row + 1], [col, row + 1]]])
        quad = cv2.perspectiveTransform(cell, to_image)[0].round().astype(np.int32)
        cv2.polylines(image, [quad], True, (0, 0, 255), 2, cv2.LINE_AA)
        x, y = (int(v) for v in quad.min(axis=0))
        text = f"{square} {change.replace('->', '>')}"
        for colour, width in (((0, 0, 0), 3), ((255, 255, 255), 1)):
            cv2.putText(image, text, (x, max(y - 3, 10)), cv2.FONT_HERSHEY_SIMPLEX, 0.4,
                        colour, width, cv2.LINE_AA)
    return np.asarray(image, np.uint8)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=SPLITS, help="one part only (default: both)")
    parser.add_argument("--reference", action="store_true",
                        help="read the photos taken from an empty photo's tripod against it")
    parser.add_argument("--draw", type=Path, metavar="DIR",
                        help="write each photo with a wrong square, marked, as DIR/<photo>.png")
    parser.add_argument("--board", help="one board's photos only (a board name in labels.json)")
    parser.add_argument("--labels", type=Path, metavar="DIR",
                        help="read the photos labelled in DIR/labels.json instead, e.g. the "
                             "frames a game kept (raindrop play --keep-frames DIR)")
    parser.add_argument("--photo-nets", nargs="+", metavar="ONNX",
                        help="read without a reference by these networks together instead "
                             "of the shipped ones (VisionConfig.nets.photo_nets): a shipped file "
                             "name or a path, e.g. a fit kept by lab.train_occupancy "
                             "--leave-out BOARD --keep PATH")
    parser.add_argument("--photo-weights", nargs="+", type=float, metavar="W",
                        help="each photo network's weight in the mean of their logits, "
                             "in their order (default: VisionConfig.nets.photo_net_weights)")
    args = parser.parse_args(argv)
    if args.draw is not None:
        args.draw.mkdir(parents=True, exist_ok=True)
    cv2.setNumThreads(1)
    config = VisionConfig()
    if args.photo_nets:
        # other networks: the same weight each, unless --photo-weights gives theirs
        config = config.replace(photo_nets=tuple(args.photo_nets),
                                     photo_net_weights=())
        for name in config.nets.photo_nets:
            try:
                load_net(name)
            except SquareNetError as error:
                parser.error(str(error))
    if args.photo_weights:
        config = config.replace(photo_net_weights=tuple(args.photo_weights))
        try:
            net_weights(config.nets.photo_nets, config.nets.photo_net_weights)
        except SquareNetError as error:
            parser.error(f"--photo-weights: {error}")
    if args.labels is None:
        every = load_real_boards()
    else:
        try:
            every = load_real_boards(args.labels)
        except (OSError, ValueError, KeyError, TypeError) as error:
            parser.error(f"cannot read the labels in {args.labels}: {error!r}")
    if args.board is not None:
        every = [photo for photo in every if photo.board == args.board]
        if not every:
            parser.error(f"no photo of a board {args.board!r}")
    if args.reference:
        pairs = tripod_pairs(every, args.split)
    else:
        pairs = [(p, None) for p in every if args.split in (None, p.split)]
    photos = [photo for photo, _ in pairs]
    if not photos:
        parser.error("no photo to read with these options")
    wrong: Counter[str] = Counter()
    peer_wrong: Counter[str] = Counter()
    squares: Counter[str] = Counter()
    listed: Counter[str] = Counter()  # unsure squares listed, occupancy errors among them
    reader_s = peer_s = 0.0
    held_out_errors: set[tuple[str, str]] = set()
    for photo, empty in pairs:
        start = time.perf_counter()
        reading = read_photo(config, photo, empty)
        reader_s += time.perf_counter() - start
        read = reading.grid
        unsure = set(reading.unsure(config.photo.photo_unsure_margin)) if empty is None else set()
        truth_on = [c != "." for c in "".join(photo.grid)]
        read_on = [c != "." for c in "".join(read)]
        occupancy_wrong = {i for i in range(64) if truth_on[i] != read_on[i]}
        colour_wrong = sum(t != r and t != "." and r != "."
                           for t, r in zip("".join(photo.grid), "".join(read), strict=True))
        start = time.perf_counter()
        plain = plain_read(photo) if empty is None else read_board(config, photo)
        peer_s += time.perf_counter() - start
        misread = wrong_squares(photo.grid, read)
        if photo.split == "held_out":
            held_out_errors |= {(photo.path.name, item) for item in misread}
        part = "later walnut" if is_later_walnut(photo) else "photos before"
        for key in (photo.split, f"{photo.split} {photo.board}", f"{photo.split}, {part}"):
            squares[key] += 64
            wrong[key] += len(misread)
            peer_wrong[key] += len(wrong_squares(photo.grid, plain))
            listed[f"{key} unsure"] += len(unsure)
            listed[f"{key} errors"] += len(occupancy_wrong)
            listed[f"{key} errors unsure"] += len(occupancy_wrong & unsure)
            listed[f"{key} colour errors"] += colour_wrong
            if reading.colours_unsure:
                listed[f"{key} colours unsure"] += 1
                listed[f"{key} colour errors unsure"] += colour_wrong
        for item in misread:
            square, change = item.split()
            expected, got = change.split("->")
            index = (8 - int(square[1])) * 8 + FILES.index(square[0])
            note = "  (listed unsure)" if index in unsure else ""
            print(f"{photo.split:8s} {photo.path.name:14s} {square}  "
                  f"expected {expected}  read {got}{note}")
        if args.draw is not None and misread:
            cv2.imwrite(str(args.draw / f"{photo.path.stem}.png"), draw_errors(photo, misread))
    print()
    peer_name = "without the reference" if args.reference else "plain peer"
    for key in sorted(squares):
        n, bad = squares[key], wrong[key]
        print(f"{key:17s} {n // 64:3d} photos: {n - bad} of {n} squares right "
              f"({100 * (n - bad) / n:.2f}%), {bad} wrong; {peer_name} {peer_wrong[key]} wrong")
        if not args.reference:
            print(f"{'':17s} unsure listed: {listed[key + ' unsure']} squares "
                  f"({listed[key + ' unsure'] * 64 / n:.2f} a photo), holding "
                  f"{listed[key + ' errors unsure']} of {listed[key + ' errors']} squares "
                  f"read empty or occupied wrongly")
            print(f"{'':17s} colours unsure: {listed[key + ' colours unsure']} photos, "
                  f"holding {listed[key + ' colour errors unsure']} of "
                  f"{listed[key + ' colour errors']} pieces read in the wrong colour")
    parts = {photo.split for photo in photos}  # dev, held_out; kept frames: unassigned
    total, peer_total = sum(wrong[s] for s in parts), sum(peer_wrong[s] for s in parts)
    print(f"ratio {peer_name} / reader (wrong squares): {peer_total / max(total, 1):.2f} "
          f"({peer_total} / {total}); time a photo: reader {1e3 * reader_s / len(photos):.1f} ms, "
          f"peer {1e3 * peer_s / len(photos):.1f} ms")
    shipped = args.labels is None and not args.photo_nets and not args.photo_weights
    return check_recorded(args, squares, wrong, held_out_errors) if shipped else 0


def check_recorded(args: argparse.Namespace, squares: Counter[str], wrong: Counter[str],
                   held_out_errors: set[tuple[str, str]]) -> int:
    """Compare each part read whole (as many squares as recorded) with its figure in
    vision/models/manifest.json, and every held-out error with its row in
    docs/dev/camera-real-errors.md (where each has its cause); 1 when that list is out
    of date."""
    prefix = "real_tripod_" if args.reference else "real_"
    whole = {split for split in ("dev", "held_out")
             if squares[split] and squares[split] == recorded().get(prefix + split, (0, 0))[1]}
    for split in sorted(whole):
        print(compare(prefix + split, wrong[split], squares[split]))
    if "held_out" not in whole:
        return 0
    listed = listed_errors()
    if args.reference:
        held_out_errors -= listed  # those the plain reading gets wrong too are listed there
        listed = listed_errors(reference=True)
    if held_out_errors == listed:
        print(f"docs/dev/camera-real-errors.md lists every one of these {len(listed)} "
              "held-out errors")
        return 0
    print("docs/dev/camera-real-errors.md is out of date: not listed "
          f"{sorted(held_out_errors - listed)}, no longer wrong {sorted(listed - held_out_errors)}")
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
