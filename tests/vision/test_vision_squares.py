"""Reading squares: the real photos with their labelled corners, and the synthetic accuracy run.

The synthetic run renders 150 scenes by default (every square of each,
with no reference, and with an empty-board reference for a third of them);
``RAINDROP_FULL=1`` renders 2,000 (``python -m benchmarks.bench_vision
--images 2000`` prints the same figures). The issue's target, at most 0.1% of
squares wrong, is NOT met yet: the bounds below sit above the measured level
(2,000 scenes: 0.21% with a reference, 1.02% without; 150 scenes: 0.09% and
0.91%; see docs/PERFORMANCE.md, "Camera reader") and guard against it getting
worse.
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


# Squares still misread on the real photos (the target is none). Every other
# photo must be read exactly; these must not get worse.
KNOWN_MISREADS = {
    "chessBoard005.jpg": 2, "chessBoard006.jpg": 2, "chessBoard007.jpg": 1,
    "chessBoard010.jpg": 1, "chessBoard012.jpg": 3, "chessBoard013.jpg": 1,
}


@pytest.mark.parametrize("photo", PHOTOS, ids=lambda p: p.path.name)
def test_the_squares_of_each_real_photo(photo) -> None:  # type: ignore[no-untyped-def]
    image = cv2.imread(str(photo.path))
    h, w = image.shape[:2]
    geometry = type(photo.geometry)(photo.geometry.corners, (w, h))
    reading = read_squares(CONFIG, make_sampler(CONFIG, geometry), warp(CONFIG, image, geometry))
    wrong = [f"{'abcdefgh'[c]}{8 - r}: {photo.grid[r][c]} read as {reading.grid[r][c]}"
             for r in range(8) for c in range(8) if reading.grid[r][c] != photo.grid[r][c]]
    assert len(wrong) <= KNOWN_MISREADS.get(photo.path.name, 0), wrong


def accuracy(images: int, seed: int = 0, reference_every: int = 3
             ) -> dict[str, tuple[int, int, list[str]]]:
    """Per mode: (wrong squares, squares, the first errors) over ``images`` scenes."""
    rng = np.random.default_rng(seed)
    out: dict[str, tuple[int, int, list[str]]] = {"model": (0, 0, []), "reference": (0, 0, [])}
    for index in range(images):
        scene = synthetic.random_scene(rng)
        geometry = scene.geometry()
        sampler = make_sampler(CONFIG, geometry)
        warped = warp(CONFIG, synthetic.render(scene, index), geometry)
        modes: list[tuple[str, np.ndarray | None]] = [("model", None)]
        if index % reference_every == 0:
            empty = synthetic.render(scene.with_pieces({}), index + 1_000_000)
            modes.append(("reference", warp(CONFIG, empty, geometry)))
        truth = scene.grid()
        for mode, reference in modes:
            grid = read_squares(CONFIG, sampler, warped, reference).grid
            wrong, total, notes = out[mode]
            for row in range(8):
                for col in range(8):
                    total += 1
                    if grid[row][col] != truth[row][col]:
                        wrong += 1
                        if len(notes) < 10:
                            notes.append(f"scene {index} {'abcdefgh'[col]}{8 - row}: "
                                         f"{truth[row][col]} read as {grid[row][col]}")
            out[mode] = (wrong, total, notes)
    return out


@pytest.mark.slow
def test_synthetic_per_square_error_rate() -> None:
    results = accuracy(2000 if FULL else 150)
    wrong, total, notes = results["reference"]
    assert wrong <= 0.003 * total, f"with a reference: {wrong} of {total} wrong: {notes}"
    wrong, total, notes = results["model"]
    assert wrong <= 0.0125 * total, f"without a reference: {wrong} of {total} wrong: {notes}"


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
