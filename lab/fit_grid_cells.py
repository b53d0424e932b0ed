"""Fit the chessboard stone score of the grid reader (``GridConfig.cell_weights``).

Run: ``python -m lab.fit_grid_cells`` (dev seeds 0-599 only: held-out scenes,
from seed 20,000, are never fitted on). For every square of synthetic chessboard
scenes it computes :func:`vision.grid.cell_features` without and with an
empty-board reference and fits a logistic regression (stone or empty) by
gradient descent on standardised features with a little L2; it prints the
weights to paste into ``vision/grid.py`` and the squares each set reads wrong.
"""

from __future__ import annotations

import os

import numpy as np
import numpy.typing as npt

from lab.stone_scenes import empty_of, random_stone_scene, render_stones
from vision.grid import (
    GridConfig,
    GridSpec,
    board_expectation,
    cell_features,
    make_grid_sampler,
    prepare_grid_reference,
    to_lab,
    warp_grid,
)

DEV_SEEDS = range(0, int(os.environ.get("RAINDROP_FIT_SCENES", "600")))
Array = npt.NDArray[np.float64]


def collect() -> tuple[Array, Array, Array]:
    """Features without and with a reference, and the truth (1: a stone), per square."""
    config = GridConfig()
    spec = GridSpec.parse("cells:8")
    plain, with_ref, truth = [], [], []
    for seed in DEV_SEEDS:
        scene = random_stone_scene(np.random.default_rng(seed), spec)
        geometry = scene.geometry()
        sampler = make_grid_sampler(config, geometry)
        warped = warp_grid(config, render_stones(scene, seed), geometry)
        reference = prepare_grid_reference(
            sampler, warp_grid(config, render_stones(empty_of(scene), seed + 1), geometry))
        lab = to_lab(warped)
        log_l, ab = board_expectation(config, sampler, lab)
        exp_l = np.exp(log_l)
        plain.append(cell_features(sampler, lab, warped.shape[:2], exp_l, ab)[0])
        with_ref.append(cell_features(sampler, lab, warped.shape[:2], exp_l, ab, reference)[0])
        truth.append(np.array([c != "." for row in scene.grid() for c in row], np.float64))
    return (np.concatenate(plain).astype(np.float64), np.concatenate(with_ref).astype(np.float64),
            np.concatenate(truth))


def fit(x: Array, y: Array, iterations: int = 4000, rate: float = 2.0, l2: float = 1e-3
        ) -> Array:
    """Logistic regression; returns (bias, weights...) on the raw features."""
    mean, spread = x.mean(axis=0), np.maximum(x.std(axis=0), 1e-9)
    z = np.column_stack([np.ones(len(x)), (x - mean) / spread])
    w = np.zeros(z.shape[1])
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-(z @ w)))
        w -= rate * (z.T @ (p - y) / len(y) + l2 * np.r_[0.0, w[1:]])
    coef = w[1:] / spread
    return np.asarray(np.r_[w[0] - float(mean @ coef), coef], np.float64)


def main() -> None:
    plain, with_ref, truth = collect()
    print(f"dev seeds {DEV_SEEDS.start}-{DEV_SEEDS.stop - 1}: {len(truth)} squares, "
          f"{int(truth.sum())} stones")
    for name, x in (("CELL_WEIGHTS", plain), ("CELL_WEIGHTS_REF", with_ref)):
        weights = fit(x, truth)
        score = weights[0] + x @ weights[1:]
        wrong = int(((score > 0) != (truth > 0)).sum())
        print(f"{name}: tuple[float, ...] = ({', '.join(f'{v:.4g}' for v in weights)})"
              f"  # {wrong} squares wrong on dev")


if __name__ == "__main__":
    main()
