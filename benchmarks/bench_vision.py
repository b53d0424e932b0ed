"""Camera reader benchmark: per-frame time and synthetic accuracy.

``python -m benchmarks.bench_vision`` (from the repository root) measures, on
one core, the per-frame processing of 1280x720 frames once the board is known
(warp, alignment check, hand/motion, squares) against a plain baseline that
finds the board again on every frame (ArUco markers, then the same
processing, the empty-board reference warped again), and prints both
medians and their ratio. ``--images N`` also
reads N synthetic scenes (default 0; the documented figure uses 2000) and
prints the per-square error rate with and without an empty-board reference.
``--seed S`` draws other scenes (default 0, the documented set, on which the
models' sizes and thresholds were chosen; any other seed is a held-out check).
``--photos N`` reads the real sample photos (no reference) from their
labelled corners, then N times each with every corner moved at random by 1%
and by 2% of a square (a pixel or so; fixed seed), and prints the squares
read wrong: how much a reading depends on where exactly the corners are.
``--prints N`` reads N scenes whose boards carry marks printed inside squares
(:func:`lab.scenes.printed_scene`: emblems, coordinates, rings, as roll-up mats carry
them; set ``--seed``), without a reference and with the empty board's picture (its marks
too) as one, and prints how many marks on empty squares were read as pieces and the
squares wrong against the same scenes without their marks (the peer).
``--pieces-on N`` times N still frames of a board watched without a reference (its
pieces on: ``vision watch --pieces-on``): the pipeline, which keeps its reading once the
board has come to rest, against reading every still frame, as it did before.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from collections.abc import Iterable

import chess
import cv2
import numpy as np

from lab.samples import load_photos, samples_dir
from lab.scenes import printed_scene
from vision import synthetic
from vision.config import VisionConfig
from vision.geometry import warp
from vision.locate import find_markers
from vision.pipeline import BoardPipeline, StageTimes
from vision.sampling import make_sampler
from vision.squares import read_squares


def frame_times(frames: int, seed: int = 7) -> tuple[list[float], list[float], StageTimes]:
    """Per-frame seconds: the cached-geometry pipeline, and the re-detecting baseline.

    Both compare the squares with the empty board (as in a game, which starts
    empty); the baseline finds the markers and warps that reference again for
    every frame, the reader did both once.
    """
    config = VisionConfig()
    rng = np.random.default_rng(seed)
    scene = synthetic.random_scene(rng, fraction=0.4, markers=True)
    empty = synthetic.render(scene.with_pieces({}), 100)
    images = [synthetic.render(scene, i) for i in range(8)]
    hook = StageTimes()
    geometry = find_markers(config, images[0]).geometry
    pipeline = BoardPipeline(config, geometry, warp(config, empty, geometry), hook=hook)
    fast, slow = [], []
    for index in range(frames):
        image = images[index % len(images)]
        start = time.perf_counter()
        pipeline.process(image, index / 30)
        fast.append(time.perf_counter() - start)
        start = time.perf_counter()
        found = find_markers(config, image).geometry
        baseline = BoardPipeline(config, found, warp(config, empty, found))
        baseline.process(image, index / 30)
        slow.append(time.perf_counter() - start)
    return fast, slow, hook


def pieces_on_times(frames: int, seed: int = 21) -> tuple[list[float], list[float]]:
    """Per-frame seconds over ``frames`` still frames of a board with its pieces on, no
    reference: the pipeline (from the frame after the board came to rest on), and the
    peer that reads every still frame's squares (the pipeline as it was)."""
    config = VisionConfig()
    scene = synthetic.random_scene(np.random.default_rng(seed), fraction=0.4)
    images = [synthetic.render(scene, i) for i in range(4)]
    geometry = scene.geometry()
    pipeline = BoardPipeline(config, geometry)
    sampler = make_sampler(config, geometry)
    kept, every = [], []
    for index in range(frames + config.settle.settle_frames):
        image = images[index % len(images)]
        start = time.perf_counter()
        pipeline.process(image, index / 30)
        if index >= config.settle.settle_frames:
            kept.append(time.perf_counter() - start)
            start = time.perf_counter()
            read_squares(config, sampler, warp(config, image, geometry), None)
            every.append(time.perf_counter() - start)
    return kept, every


RENDER_SEEDS_PER_SET = 10_000_000  # render seeds of set S start at S times this


def error_rates(images: int, seed: int = 0) -> dict[str, tuple[int, int]]:
    """(wrong squares, squares) per mode over ``images`` synthetic scenes.

    Set ``seed`` draws its scenes from a stream of that seed and renders them
    with seeds from ``seed * RENDER_SEEDS_PER_SET`` (lab.fit_occupancy's start at
    900,000, and at 1,900,000 for its empty boards).
    """
    counts = {"no reference": [0, 0], "reference": [0, 0]}
    for without, with_reference in scene_errors(range(images), seed).values():
        for mode, wrong in (("no reference", without), ("reference", with_reference)):
            counts[mode][0] += wrong
            counts[mode][1] += 64
    return {mode: (w, t) for mode, (w, t) in counts.items()}


def scene_errors(indices: Iterable[int], seed: int = 0) -> dict[int, tuple[int, int]]:
    """Squares wrong without and with the empty-board reference in each of the scenes
    ``indices`` of set ``seed`` (the scenes :func:`error_rates` reads, by their place)."""
    wanted = sorted(set(indices))
    offset = seed * RENDER_SEEDS_PER_SET
    config = VisionConfig()
    rng = np.random.default_rng(seed)
    out: dict[int, tuple[int, int]] = {}
    for index in range(wanted[-1] + 1 if wanted else 0):
        scene = synthetic.random_scene(rng)
        if index not in wanted:
            continue
        geometry = scene.geometry()
        sampler = make_sampler(config, geometry)
        warped = warp(config, synthetic.render(scene, offset + index), geometry)
        empty = warp(config, synthetic.render(scene.with_pieces({}), offset + index + 1_000_000),
                     geometry)
        truth = scene.grid()
        wrong = []
        for reference in (None, empty):
            grid = read_squares(config, sampler, warped, reference).grid
            wrong.append(sum(a != b for row_a, row_b in zip(grid, truth, strict=True)
                             for a, b in zip(row_a, row_b, strict=True)))
        out[index] = (wrong[0], wrong[1])
    return out


PRINTS_STREAM = 7000  # the printed scenes of set S draw from stream S + this (no fit does)


@dataclasses.dataclass(frozen=True)
class PrintErrors:
    """A reading of scenes whose boards carry printed marks, against the same scenes
    without them."""

    marks: int  # marks printed on empty squares
    marks_read: int  # of those, read as pieces
    wrong: int  # squares wrong in the printed scenes
    wrong_unprinted: int  # squares wrong in the same scenes without the marks
    squares: int


def print_errors(scenes: int, seed: int = 0, reference: bool = False) -> PrintErrors:
    """``scenes`` printed scenes (:func:`lab.scenes.printed_scene`: unseen boards
    and sets, one to four marks printed inside squares, as roll-up mats carry them)
    read without a reference, or with the empty board's picture (its marks too) as
    one, and the same scenes without the marks, rendered with the same noise."""
    config = VisionConfig()
    rng = np.random.default_rng(PRINTS_STREAM + seed)
    first = (PRINTS_STREAM + seed) * 1000
    marks = marks_read = wrong = wrong_unprinted = 0
    for index in range(scenes):
        printed = printed_scene(rng)
        geometry = printed.geometry()
        sampler = make_sampler(config, geometry)
        truth = printed.grid()
        for scene in (printed, dataclasses.replace(printed, prints={})):
            image = warp(config, synthetic.render(scene, first + index), geometry)
            empty = (warp(config, synthetic.render(scene.with_pieces({}),
                                                   first + index + 500), geometry)
                     if reference else None)
            grid = read_squares(config, sampler, image, empty).grid
            misread = [chess.square(file, 7 - row) for row in range(8) for file in range(8)
                       if grid[row][file] != truth[row][file]]
            if scene is printed:
                wrong += len(misread)
                empty_marks = [square for square in printed.prints
                               if square not in printed.pieces]
                marks += len(empty_marks)
                marks_read += sum(square in misread for square in empty_marks)
            else:
                wrong_unprinted += len(misread)
    return PrintErrors(marks, marks_read, wrong, wrong_unprinted, 64 * scenes)


def photo_errors(draws: int, noise: float, seed: int = 2026) -> tuple[int, int, int]:
    """(readings with a square wrong, wrong squares, readings) of the real
    photos with their corners moved by ``noise`` squares (sd), ``draws`` times
    each (once, unmoved, when ``noise`` is 0)."""
    config = VisionConfig()
    rng = np.random.default_rng(seed)
    bad = wrong = readings = 0
    for photo in load_photos():
        image = np.asarray(cv2.imread(str(photo.path)), np.uint8)
        height, width = image.shape[:2]
        corners = np.array(photo.geometry.corners)
        side = float(np.ptp(corners, axis=0).max()) / 8
        for _ in range(draws if noise else 1):
            moved = corners + rng.normal(0.0, noise * side, corners.shape)
            quad = tuple((float(x), float(y)) for x, y in moved)
            geometry = type(photo.geometry)(quad, (width, height))  # type: ignore[arg-type]
            grid = read_squares(config, make_sampler(config, geometry),
                                warp(config, image, geometry)).grid
            n = sum(a != b for row_a, row_b in zip(grid, photo.grid, strict=True)
                    for a, b in zip(row_a, row_b, strict=True))
            bad, wrong, readings = bad + (n > 0), wrong + n, readings + 1
    return bad, wrong, readings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--frames", type=int, default=300, help="frames to time (default 300)")
    parser.add_argument("--images", type=int, default=0,
                        help="synthetic scenes for the accuracy run (default 0: skip)")
    parser.add_argument("--seed", type=int, default=0,
                        help="scene set for the accuracy run (default 0, the documented one)")
    parser.add_argument("--photos", type=int, default=0,
                        help="draws of moved corners per real photo (default 0: skip)")
    parser.add_argument("--prints", type=int, default=0, metavar="N",
                        help="printed scenes to read, with and without a reference "
                             "(default 0: skip)")
    parser.add_argument("--pieces-on", type=int, default=0, metavar="N",
                        help="still frames to time without a reference (default 0: skip)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)  # one core
    if args.frames:
        fast, slow, hook = frame_times(args.frames)
        fast_ms, slow_ms = statistics.median(fast) * 1e3, statistics.median(slow) * 1e3
        print(f"per frame at 1280x720, one core, {args.frames} frames:")
        print(f"  cached board (this reader): median {fast_ms:.2f} ms")
        print(f"  re-detecting every frame (baseline): median {slow_ms:.2f} ms")
        print(f"  ratio baseline / reader: {slow_ms / fast_ms:.1f}x")
        stages = ", ".join(f"{name} {sec * 1e3:.2f}" for name, sec in hook.medians().items())
        print(f"  reader stages (median ms): {stages}")
    if args.pieces_on:
        kept, every = pieces_on_times(args.pieces_on)
        kept_ms, every_ms = statistics.median(kept) * 1e3, statistics.median(every) * 1e3
        print(f"still frames without a reference (pieces on), one core, {args.pieces_on}:")
        print(f"  reading kept at rest (this reader): median {kept_ms:.2f} ms")
        print(f"  every still frame read (peer): median {every_ms:.2f} ms")
        print(f"  ratio peer / reader: {every_ms / kept_ms:.1f}x")
    if args.images:
        start = time.perf_counter()
        for mode, (wrong, total) in error_rates(args.images, args.seed).items():
            print(f"synthetic accuracy, {mode}: {wrong} of {total} squares wrong "
                  f"({100 * wrong / total:.3f}%) over {args.images} images (set {args.seed})")
        print(f"  ({time.perf_counter() - start:.0f} s)")
    if args.prints:
        start = time.perf_counter()
        for reference in (False, True):
            found = print_errors(args.prints, args.seed, reference)
            mode = "reference" if reference else "no reference"
            print(f"printed marks, {mode}: {found.marks_read} of {found.marks} marks on "
                  f"empty squares read as pieces; {found.wrong} of {found.squares} squares "
                  f"wrong, against {found.wrong_unprinted} without the marks (peer): ratio "
                  f"{found.wrong / max(found.wrong_unprinted, 1):.2f} "
                  f"({args.prints} scenes, set {args.seed})")
        print(f"  ({time.perf_counter() - start:.0f} s)")
    if args.photos:
        if not (samples_dir() / "labels.json").exists():
            print(f"real photos: none at {samples_dir()}")
            return 0
        for noise in (0.0, 0.01, 0.02):
            bad, wrong, readings = photo_errors(args.photos, noise)
            print(f"real photos, corners moved by {noise:.0%} of a square: {wrong} of "
                  f"{readings * 64} squares wrong, {bad} of {readings} readings with one")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
