"""Fit the occupancy weights of :mod:`vision.squares` on synthetic scenes.

``python -m vision.fit --scenes 300`` renders scenes (seeds disjoint from the
accuracy benchmark's), extracts every square's features with and without an
empty-board reference, fits a logistic regression for each and prints the
two weight tuples to put in :class:`vision.config.VisionConfig`.
"""

from __future__ import annotations

import argparse
import logging

import numpy as np
import numpy.typing as npt

from vision import squares, synthetic
from vision.config import VisionConfig
from vision.geometry import warp

LOGGER = logging.getLogger(__name__)

FIT_SEED = 900_000  # the accuracy benchmark uses seeds from 0


def collect(config: VisionConfig, scenes: int, seed: int = FIT_SEED
            ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
    """Features (with reference, without) and truth for every square of ``scenes`` scenes."""
    rng = np.random.default_rng(seed)
    with_ref, without, truth = [], [], []
    for index in range(scenes):
        scene = synthetic.random_scene(rng)
        image = synthetic.render(scene, seed + index)
        empty = synthetic.render(scene.with_pieces({}), seed + index + 1_000_000)
        geometry = scene.geometry()
        sampler = squares.make_sampler(config, geometry)
        warped, ref = warp(config, image, geometry), warp(config, empty, geometry)
        for reference, out in ((ref, with_ref), (None, without)):
            out.append(squares.gather_evidence(config, sampler, warped, reference).features)
        truth.extend(ch != "." for ch in "".join(scene.grid()))
    return np.concatenate(with_ref), np.concatenate(without), np.array(truth)


def logistic(features: npt.NDArray[np.float32], truth: npt.NDArray[np.bool_],
             l2: float = 1e-6, iterations: int = 30) -> npt.NDArray[np.float64]:
    """Newton's method for L2-regularised logistic regression."""
    x = features.astype(np.float64)
    y = truth.astype(np.float64)
    w = np.zeros(x.shape[1])
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (p - y) + l2 * len(y) * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + l2 * len(y) * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


RING = slice(20, 22)  # the base-ring features in square_features (before the constant)
CONSTANT = 22


def fit_weights(with_ref: npt.NDArray[np.float32], without: npt.NDArray[np.float32],
                truth: npt.NDArray[np.bool_]) -> tuple[npt.NDArray[np.float64], ...]:
    """The two weight vectors: (with a reference, without).

    The disc features are fitted first, alone. With a reference, the base-ring
    features are then added on top, as evidence for a piece only (weights at
    least 0, no change of the constant): synthetic pieces have wider bases
    and darker contact rings than many real sets, so a real piece without
    such a ring must score no lower than on the disc features alone. Without
    a reference (the board itself is the baseline) the ring features are not
    used: they made real photos worse.
    """
    out = []
    for feats, with_reference in ((with_ref, True), (without, False)):
        ring = np.arange(RING.start, RING.stop)
        # Without a reference the features relative to the board follow the
        # constant, the ring's among them.
        drop = np.concatenate([ring, ring + CONSTANT + 1]) if not with_reference else ring
        old = np.setdiff1d(np.arange(feats.shape[1]), drop)
        w_old = logistic(feats[:, old], truth)
        full = np.zeros(feats.shape[1])
        full[old] = w_old
        if with_reference:
            score = feats[:, old] @ w_old
            use = list(ring)
            while use:
                w2 = logistic(np.column_stack([score, feats[:, use]]), truth)
                if (w2[1:] >= 0).all():
                    full[old] *= w2[0]
                    full[use] = w2[1:]
                    break
                use = [c for c, w in zip(use, w2[1:], strict=True) if w > 0]
        out.append(full)
    return tuple(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=300)
    parser.add_argument("--seed", type=int, default=FIT_SEED)
    parser.add_argument("--save", metavar="FILE.npz", help="also save the features")
    args = parser.parse_args(argv)
    config = VisionConfig()
    with_ref, without, truth = collect(config, args.scenes, args.seed)
    if args.save:
        np.savez(args.save, with_ref=with_ref, without=without, truth=truth)
    for name, feats, w in zip(("reference_weights", "model_weights"), (with_ref, without),
                              fit_weights(with_ref, without, truth), strict=True):
        errors = int(((feats @ w > 0) != truth).sum())
        print(f"# training errors {errors} of {len(truth)} squares")
        print(f"{name}: tuple[float, ...] = (" + ", ".join(f"{v:.3f}" for v in w) + ")")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
