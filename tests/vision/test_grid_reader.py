"""The grid reader on synthetic scenes never used for fitting (seeds from 10,000).

The thresholds of :class:`vision.grid.GridConfig` were chosen, and the chessboard's
stone score fitted, on seeds below 10,000; these scenes are held out. Per-point error
targets: at most 0.1% with an empty-board reference, at most 0.5% without. A few
scenes of each grid by default; ``RAINDROP_FULL=1`` renders 40 of each
(``benchmarks/bench_stone_grid.py`` prints the figures).
"""

from __future__ import annotations

import numpy as np
import pytest

from lab.stone_scenes import empty_of, random_stone_scene, render_stones
from tests.vision.vision_helpers import FULL
from vision.errors import VisionError
from vision.grid import GridConfig, GridGeometry, GridSpec, classify_grid, corners_of

SCENES = 40 if FULL else 3
HELD_OUT = 10_000


def errors(spec_text: str, seeds: range) -> tuple[int, int, int]:
    spec = GridSpec.parse(spec_text)
    config = GridConfig()
    with_ref = without = total = 0
    for seed in seeds:
        scene = random_stone_scene(np.random.default_rng(seed), spec)
        image = render_stones(scene, seed)
        reference = render_stones(empty_of(scene), seed + 1)
        truth = scene.grid()
        a = classify_grid(config, image, scene.geometry(), reference).grid
        b = classify_grid(config, image, scene.geometry()).grid
        with_ref += sum(x != y for ra, rt in zip(a, truth, strict=True)
                        for x, y in zip(ra, rt, strict=True))
        without += sum(x != y for rb, rt in zip(b, truth, strict=True)
                       for x, y in zip(rb, rt, strict=True))
        total += spec.cols * spec.rows
    return with_ref, without, total


@pytest.mark.parametrize("spec", ["points:9", "points:13", "points:19"])
def test_go_boards_held_out(spec: str) -> None:
    with_ref, without, total = errors(spec, range(HELD_OUT, HELD_OUT + SCENES))
    assert with_ref <= max(1, 0.001 * total), (with_ref, total)
    assert without <= max(2, 0.005 * total), (without, total)


def test_chessboard_cells_held_out() -> None:
    with_ref, without, total = errors("cells:8", range(HELD_OUT, HELD_OUT + SCENES))
    assert with_ref <= max(1, 0.001 * total), (with_ref, total)
    assert without <= max(2, 0.005 * total), (without, total)


def test_chessboard_stones_of_their_squares_colour() -> None:
    """White stones on the light squares and black ones on the dark squares (the
    colours nearest theirs): the former per-pixel rules read 41 of these 768 squares
    wrong, with a reference or without."""
    spec = GridSpec.parse("cells:8")
    with_ref = without = 0
    for seed in range(HELD_OUT + 500, HELD_OUT + 512):
        rng = np.random.default_rng(seed)
        scene = random_stone_scene(rng, spec, fraction=0.0)
        stones = {(r, c): "w" if (r + c) % 2 == 0 else "b"
                  for r in range(8) for c in range(8) if rng.random() < 0.5}
        scene = scene.with_stones(stones, rng)
        image = render_stones(scene, seed)
        reference = render_stones(empty_of(scene), seed + 1)
        for read, count in ((classify_grid(GridConfig(), image, scene.geometry(), reference), 0),
                            (classify_grid(GridConfig(), image, scene.geometry()), 1)):
            wrong = sum(x != y for ra, rt in zip(read.grid, scene.grid(), strict=True)
                        for x, y in zip(ra, rt, strict=True))
            if count == 0:
                with_ref += wrong
            else:
                without += wrong
    assert with_ref == 0
    assert without <= 2


def test_specs_and_corners() -> None:
    assert GridSpec.parse("points:9x13") == GridSpec("points", 9, 13)
    assert str(GridSpec.parse(" cells : 8 ")) == "cells:8"
    assert GridSpec.parse("points:19").span == (18, 18)
    with pytest.raises(VisionError, match="points:N"):
        GridSpec.parse("go:19")
    with pytest.raises(VisionError, match="2 to 26"):
        GridSpec.parse("points:1")
    with pytest.raises(VisionError, match="8 numbers"):
        GridGeometry.from_text(GridSpec.parse("points:9"), "1,2,3")
    assert corners_of([(10, 90), (90, 90), (10, 10), (90, 10)]) == (
        (10.0, 10.0), (90.0, 10.0), (90.0, 90.0), (10.0, 90.0))


def test_real_go_photos_every_wrong_point_listed() -> None:
    """The labelled real photos (tests/vision/data/go_photos): a regression guard at
    today's figures (docs/camera.md), every wrong point named in the failure. The
    held-out part went from 9 to 13 with ``black_alone`` (a dark band at a board's
    edge read as black stones), which took the crowded held-out photos from 59 to 53."""
    import cv2

    from lab.grid_samples import load_grid_photos, wrong_points

    photos = load_grid_photos()
    assert {p.part for p in photos} == {"dev", "held-out"}
    wrong: dict[str, list[str]] = {"dev": [], "held-out": []}
    for photo in photos:
        image = cv2.imread(str(photo.path))
        assert image is not None, photo.path
        read = classify_grid(GridConfig(), image, photo.geometry).grid
        wrong[photo.part] += [f"{photo.path.name} {w}" for w in wrong_points(photo.rows, read)]
    assert len(wrong["dev"]) <= 6, wrong["dev"]
    assert len(wrong["held-out"]) <= 13, wrong["held-out"]


def test_crowded_go_photos_read() -> None:
    """Real boards 68 to 83% covered (tests/vision/data/go_crowded), read without a
    reference: a guard at today's figures (50 of 3,249 dev points wrong, 53 of 2,527
    held-out, at most 20 a board; the reader that took the board's colour from every
    sample between the points read 184 and 236, its white stones mostly as empty)."""
    import cv2

    from lab.grid_samples import load_grid_photos, photos_dir, wrong_points

    photos = load_grid_photos(photos_dir().parent / "go_crowded")
    assert len(photos) == 16
    wrong: dict[str, list[str]] = {"dev": [], "held-out": []}
    for photo in photos:
        image = cv2.imread(str(photo.path))
        assert image is not None, photo.path
        read = classify_grid(GridConfig(), image, photo.geometry).grid
        misread = wrong_points(photo.rows, read)
        assert len(misread) <= 20, (photo.path.name, misread)
        wrong[photo.part] += [f"{photo.path.name} {w}" for w in misread]
    assert len(wrong["dev"]) <= 50, wrong["dev"]
    assert len(wrong["held-out"]) <= 53, wrong["held-out"]


def test_full_go_boards_without_reference() -> None:
    """Synthetic 19 x 19 boards 90 to 100% covered, held-out seeds, read without a
    reference (the reader that took the board's colour from every sample between the
    points read 345 of these 1,083 points wrong; today 21)."""
    spec = GridSpec.parse("points:19")
    wrong = total = 0
    for seed in range(HELD_OUT + 600, HELD_OUT + 600 + SCENES):
        rng = np.random.default_rng(seed)
        scene = random_stone_scene(rng, spec, fraction=float(rng.uniform(0.9, 1.0)))
        read = classify_grid(GridConfig(), render_stones(scene, seed), scene.geometry()).grid
        wrong += sum(x != y for ra, rt in zip(read, scene.grid(), strict=True)
                     for x, y in zip(ra, rt, strict=True))
        total += spec.cols * spec.rows
    assert wrong <= 0.025 * total, (wrong, total)
