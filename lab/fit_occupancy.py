"""Fit the occupancy models of :mod:`vision.squares` on synthetic scenes.

``python -m lab.fit_occupancy --write`` renders 3,200 scenes (seeds disjoint from the
accuracy benchmark's; two blocks of 1,600, one process each) and extracts
every square's features with and without an empty-board reference, fits the
two small networks of :mod:`vision.occupancy` and (with ``--write``) saves
them beside it as the shipped ``occupancy_reference.json`` and
``occupancy_board.json``. The no-reference network is fitted on the first 800
scenes only: fitted on all 1,600 of a block it read one more square of the real
photos wrong (8 of 832, not 7) for 13 fewer of 128,000 synthetic squares. The
reference network has no real photos to lose and gains from every scene: on
the accuracy benchmark's 2,000 scenes its occupancy errors went 120, 110, 95
for 800, 1,600 and 3,200 scenes (hidden units 24, 24, 32; 101 with 24 at 3,200).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import multiprocessing
import os
from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision import features, sampling, synthetic
from vision.config import VisionConfig
from vision.geometry import warp
from vision.occupancy import BOARD_MODEL_FILE, MODEL_FILE, OccupancyNet

LOGGER = logging.getLogger(__name__)

FIT_SEED = 900_000  # the accuracy benchmark uses seeds from 0


def matched_scene(index: int, share: float) -> bool:
    """Whether scene ``index`` of a fit has matched colours: ``share`` of them, spread evenly."""
    return int((index + 1) * share) > int(index * share)


BLOCK = 1_600  # scenes drawn from one random stream; blocks can be rendered in parallel


def collect(config: VisionConfig, scenes: int, seed: int = FIT_SEED, matched_share: float = 0.0,
            jobs: int = 1
            ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
    """Features (with reference, without) and truth for every square of ``scenes`` scenes.

    Scene ``index`` is drawn in block ``index // BLOCK`` from the random stream
    seeded ``seed + block * BLOCK`` and rendered with seed ``seed + index``, so
    a larger fit starts with the scenes of a smaller one, and ``jobs`` processes
    can render blocks at once. ``matched_share`` of the scenes draw their pieces
    in the squares' own colours (see :func:`vision.synthetic.random_scene`).
    """
    tasks = [(config, start, min(start + BLOCK, scenes), seed, matched_share)
             for start in range(0, scenes, BLOCK)]
    if jobs > 1 and len(tasks) > 1:
        with multiprocessing.get_context("spawn").Pool(min(jobs, len(tasks))) as pool:
            parts = pool.starmap(_collect_block, tasks)
    else:
        parts = [_collect_block(*task) for task in tasks]
    with_ref, without, truth = zip(*parts, strict=True)
    return np.concatenate(with_ref), np.concatenate(without), np.concatenate(truth)


def _collect_block(config: VisionConfig, start: int, stop: int, seed: int, matched_share: float
                   ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32],
                              npt.NDArray[np.bool_]]:
    """collect's scenes ``start`` to ``stop``, all in one block."""
    rng = np.random.default_rng(seed + start)
    with_ref: list[npt.NDArray[np.float32]] = []
    without: list[npt.NDArray[np.float32]] = []
    truth: list[bool] = []
    for index in range(start, stop):
        scene = synthetic.random_scene(
            rng, matched_colours=matched_scene(index, matched_share))
        image = synthetic.render(scene, seed + index)
        empty = synthetic.render(scene.with_pieces({}), seed + index + 1_000_000)
        geometry = scene.geometry()
        sampler = sampling.make_sampler(config, geometry)
        warped, ref = warp(config, image, geometry), warp(config, empty, geometry)
        for reference, out in ((ref, with_ref), (None, without)):
            out.append(features.gather_evidence(config, sampler, warped, reference).features)
        truth.extend(ch != "." for ch in "".join(scene.grid()))
        if (index + 1) % 200 == 0:
            LOGGER.info("rendered %d scenes of block %d", index + 1 - start, start // BLOCK)
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
# The reference network reads the disc features and features.reference_features.
REFERENCE_INPUTS = (*range(RING.start),
                    *range(CONSTANT + 1, CONSTANT + 1 + features.REFERENCE_FEATURES))


def board_inputs(width: int) -> tuple[int, ...]:
    """The features the no-reference network reads: all but the constant, the
    base-ring features (and their excess over the board's), which made real
    photos worse, and the outline, which is added on top (see fit_board_net)."""
    ring = np.arange(RING.start, RING.stop)
    drop = {CONSTANT, *ring.tolist(), *(ring + CONSTANT + 1).tolist(), features.BOARD_OUTLINE}
    return tuple(c for c in range(width) if c not in drop)


def fit_board_net(without: npt.NDArray[np.float32], truth: npt.NDArray[np.bool_],
                  hidden: int = 8, steps: int = 2500, seed: int = 0) -> OccupancyNet:
    """The monotone occupancy network for reading without a reference.

    The round-outline feature (features.board_outline) is added on top, at a
    weight at least 0: it tells pieces from empty squares on the real photos
    (taken from above) better than any other feature, but in the oblique
    synthetic scenes a neighbour's shadow can be round too, so a network
    fitted with it as an input learns to trust it less than real photos deserve.
    """
    inputs = board_inputs(without.shape[1])
    trained = train_tanh_net(without[:, inputs], truth, hidden, steps, l2=1e-5, seed=seed,
                             monotone=True)
    return add_on_top(_net(inputs, trained, monotone=True), without, truth,
                      [features.BOARD_OUTLINE])


def add_on_top(bare: OccupancyNet, features: npt.NDArray[np.float32],
               truth: npt.NDArray[np.bool_], columns: list[int]) -> OccupancyNet:
    """``bare`` with the feature ``columns`` added to its logit, at weights fitted
    never below 0 (and no constant): evidence that may only argue for a piece.
    A column that would take a negative weight is left out."""
    score = bare.logit(features)
    use = list(columns)
    factor, weights = 1.0, np.zeros(0)
    while use:
        w = logistic(np.column_stack([score, features[:, use]]), truth)
        if (w[1:] >= 0).all():
            factor, weights = float(w[0]), w[1:]
            break
        use = [c for c, weight in zip(use, w[1:], strict=True) if weight > 0]
    return dataclasses.replace(bare, w2=(bare.w2 * factor).astype(np.float32),
                               b2=bare.b2 * factor, extra=tuple(use),
                               extra_w=np.asarray(weights, np.float32))


def _net(inputs: tuple[int, ...], trained: tuple[npt.NDArray[np.float64], ...],
         *, monotone: bool = False) -> OccupancyNet:
    """An OccupancyNet (no extra features yet) from train_tanh_net's output."""
    mean, scale, w1, b1, w2, b2 = (a.astype(np.float32) for a in trained)
    return OccupancyNet(inputs, mean, scale, w1, b1, w2, float(b2[0]), (),
                        np.zeros(0, np.float32), monotone=monotone)


def train_tanh_net(x: npt.NDArray[np.float32], truth: npt.NDArray[np.bool_], hidden: int = 16,
                   steps: int = 3000, rate: float = 0.01, l2: float = 1e-4, seed: int = 0,
                   *, monotone: bool = False) -> tuple[npt.NDArray[np.float64], ...]:
    """One tanh layer and a logistic output, full-batch Adam on the log loss.

    Returns (mean, scale, w1, b1, w2, b2) with inputs standardised by mean and
    scale. ``monotone`` keeps both layers' weights at least 0 (projected after
    every step; inputs are scaled, not centred), so the output never falls as
    an input rises.
    """
    rng = np.random.default_rng(seed)
    scale = x.std(axis=0).astype(np.float64) + 1e-3
    mean = np.zeros(x.shape[1]) if monotone else x.mean(axis=0).astype(np.float64)
    z = (x - mean) / scale
    w1 = rng.normal(0, 1 / np.sqrt(z.shape[1]), (z.shape[1], hidden))
    w2 = rng.normal(0, 1 / np.sqrt(hidden), hidden)
    b1 = np.zeros(hidden)
    if monotone:
        w1, w2, b1 = np.abs(w1), np.abs(w2), -np.ones(hidden)
    params = [w1, b1, w2, np.zeros(1)]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    y, n = truth.astype(np.float64), len(truth)
    for step in range(1, steps + 1):
        w1, b1, w2, b2 = params
        h = np.tanh(z @ w1 + b1)
        p = 1 / (1 + np.exp(-np.clip(h @ w2 + b2[0], -30, 30)))
        d = (p - y) / n
        dh = np.outer(d, w2) * (1 - h * h)
        grads = (z.T @ dh + l2 * w1, dh.sum(axis=0), h.T @ d + l2 * w2, np.array([d.sum()]))
        for i, g in enumerate(grads):
            first[i] = 0.9 * first[i] + 0.1 * g
            second[i] = 0.999 * second[i] + 0.001 * g * g
            params[i] = params[i] - rate * (first[i] / (1 - 0.9 ** step)) / (
                np.sqrt(second[i] / (1 - 0.999 ** step)) + 1e-8)
        if monotone:
            params[0], params[2] = np.maximum(params[0], 0.0), np.maximum(params[2], 0.0)
    w1, b1, w2, b2 = params
    return mean, scale, w1, b1, w2, b2


def fit_reference_net(with_ref: npt.NDArray[np.float32], truth: npt.NDArray[np.bool_],
                      hidden: int = 32, steps: int = 3000, seed: int = 0) -> OccupancyNet:
    """The occupancy network for reading against an empty-board reference.

    The network reads the disc features and those only a reference gives
    (:func:`vision.features.reference_features`). The base-ring features are then
    added on top, as evidence for a piece only (weights at least 0): synthetic
    pieces have wider bases and darker contact rings than many real sets, so a
    real piece without such a ring must score no lower than on the disc alone.
    """
    inputs = REFERENCE_INPUTS
    bare = _net(inputs, train_tanh_net(with_ref[:, inputs], truth, hidden, steps, seed=seed))
    return add_on_top(bare, with_ref, truth, list(range(RING.start, RING.stop)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=3200)
    parser.add_argument("--board-scenes", type=int, default=800,
                        help="fit the no-reference network on the first N scenes only")
    parser.add_argument("--seed", type=int, default=FIT_SEED)
    parser.add_argument("--matched-share", type=float, default=0.0,
                        help="share of scenes whose pieces take the squares' colours "
                             "(dark on dark, light on light; default 0)")
    parser.add_argument("--hidden", type=int, default=32, help="reference model's hidden units")
    parser.add_argument("--board-hidden", type=int, default=8,
                        help="no-reference model's hidden units")
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help=f"processes rendering scenes ({BLOCK} scenes a process at most)")
    parser.add_argument("--save", metavar="FILE.npz", help="also save the features")
    parser.add_argument("--load", metavar="FILE.npz",
                        help="fit on features saved earlier (their first --scenes scenes)")
    parser.add_argument("--write", action="store_true",
                        help=f"write the models to vision/{MODEL_FILE} and {BOARD_MODEL_FILE}")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    if args.load:
        saved, squares_used = np.load(args.load), 64 * args.scenes
        with_ref, without, truth = (saved[name][:squares_used]
                                    for name in ("with_ref", "without", "truth"))
    else:
        with_ref, without, truth = collect(VisionConfig(), args.scenes, args.seed,
                                           args.matched_share, args.jobs)
    if args.save:
        np.savez(args.save, with_ref=with_ref, without=without, truth=truth)
    nets = (("reference", MODEL_FILE, fit_reference_net(with_ref, truth, args.hidden, args.steps),
             with_ref),
            ("no reference", BOARD_MODEL_FILE,
             fit_board_net(without[:64 * args.board_scenes], truth[:64 * args.board_scenes],
                           args.board_hidden, args.steps), without))
    for name, file_name, net, rows in nets:
        errors = int(((net.logit(rows) > 0) != truth).sum())
        print(f"# {name}: {errors} of the fit's {len(truth)} squares wrong")
        if args.write:
            path = Path(__file__).resolve().parent.parent / "vision" / "models" / file_name
            path.write_text(json.dumps(net.to_json()) + "\n", encoding="utf-8")
            print(f"# written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
