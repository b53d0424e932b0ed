"""Reading squares: the real photos with their labelled corners, and the synthetic accuracy run.

The synthetic run renders 150 scenes by default (every square of each,
with no reference, and with an empty-board reference for a third of them);
``RAINDROP_FULL=1`` renders 2,000. The target is at most 0.1% of squares wrong.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from vision_helpers import FULL

from vision import synthetic
from vision.config import VisionConfig
from vision.geometry import warp
from vision.samples import load_photos, samples_dir
from vision.squares import make_sampler, read_squares

CONFIG = VisionConfig()
PHOTOS = load_photos() if (samples_dir() / "labels.json").exists() else []


@pytest.mark.parametrize("photo", PHOTOS, ids=lambda p: p.path.name)
def test_every_square_of_each_real_photo_is_right(photo) -> None:  # type: ignore[no-untyped-def]
    image = cv2.imread(str(photo.path))
    h, w = image.shape[:2]
    geometry = type(photo.geometry)(photo.geometry.corners, (w, h))
    reading = read_squares(CONFIG, make_sampler(CONFIG, geometry), warp(CONFIG, image, geometry))
    assert reading.grid == photo.grid


def accuracy(images: int, seed: int = 0, reference_every: int = 3) -> tuple[int, int, list[str]]:
    """(wrong squares, squares, descriptions of the first errors) over ``images`` scenes."""
    rng = np.random.default_rng(seed)
    wrong = total = 0
    notes: list[str] = []
    for index in range(images):
        scene = synthetic.random_scene(rng)
        geometry = scene.geometry()
        sampler = make_sampler(CONFIG, geometry)
        warped = warp(CONFIG, synthetic.render(scene, index), geometry)
        modes: list[tuple[str, np.ndarray | None]] = [("no reference", None)]
        if index % reference_every == 0:
            empty = synthetic.render(scene.with_pieces({}), index + 1_000_000)
            modes.append(("reference", warp(CONFIG, empty, geometry)))
        truth = scene.grid()
        for mode, reference in modes:
            grid = read_squares(CONFIG, sampler, warped, reference).grid
            for row in range(8):
                for col in range(8):
                    total += 1
                    if grid[row][col] != truth[row][col]:
                        wrong += 1
                        if len(notes) < 10:
                            notes.append(f"scene {index} ({mode}) {'abcdefgh'[col]}{8 - row}: "
                                         f"{truth[row][col]} read as {grid[row][col]}")
    return wrong, total, notes


@pytest.mark.slow
def test_synthetic_per_square_error_rate_is_at_most_a_tenth_of_a_percent() -> None:
    wrong, total, notes = accuracy(2000 if FULL else 150)
    assert wrong <= 0.001 * total, f"{wrong} of {total} squares wrong: {notes}"


def test_an_empty_board_reads_empty_with_and_without_reference() -> None:
    rng = np.random.default_rng(21)
    for index in range(3):
        scene = synthetic.random_scene(rng, fraction=0.0)
        geometry = scene.geometry()
        sampler = make_sampler(CONFIG, geometry)
        warped = warp(CONFIG, synthetic.render(scene, index), geometry)
        reference = warp(CONFIG, synthetic.render(scene, index + 50), geometry)
        assert read_squares(CONFIG, sampler, warped).grid == ("........",) * 8
        assert read_squares(CONFIG, sampler, warped, reference).grid == ("........",) * 8
