"""Train the square network of :mod:`vision.square_net` and write it as ONNX.

``python -m vision.train_occupancy --out vision/occupancy.onnx`` renders the
training scenes (synthetic stream ``--stream``: ordinary scenes and leaning
scenes from a low camera, see :func:`vision.synthetic.leaning_scene`), adds
the labelled real photos (``tests/vision/data/samples`` and the development
part of ``tests/vision/data/real_boards``, never its held-out part, each read
several times with its corners moved by a pixel or so), fits a small network (two
hidden ReLU layers) with Adam in numpy on the CPU, and writes it with the
``onnx`` package's helper API (the ``train`` extra). Everything is drawn from
``--seed`` and ``--stream``, so the same command writes the same file. Tiles
are cached (``--cache``) so a second fit skips the rendering.

The benchmark's scene sets (``benchmarks.bench_vision --seed S``) draw from
their own streams; the stream used here (default 77) is never one of the
sets reported.
"""

from __future__ import annotations

import argparse
import itertools
import logging
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision import synthetic
from vision.config import VisionConfig
from vision.geometry import BoardGeometry, Image, warp
from vision.samples import load_photos
from vision.square_net import CLASSES, INPUTS, TILE_H, TILE_W, square_inputs
from vision.squares import exposed_board, make_sampler, to_lab

LOGGER = logging.getLogger(__name__)

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]
RENDER_SEEDS_PER_STREAM = 10_000_000
HIDDEN = (48, 24)


def board_rows(config: VisionConfig, image: Image, geometry: BoardGeometry) -> FloatArray:
    """The network's input rows (64, INPUTS) for one picture, read without a reference."""
    sampler = make_sampler(config, geometry)
    board = sampler.cut(warp(config, image, geometry))
    _board, lab, (light, dark) = exposed_board(config, sampler, board, to_lab(board))
    own = np.where(sampler.light[:, None], light, dark).astype(np.float32)
    side = sampler.crop
    return square_inputs(sampler.tiles, lab.reshape(side, side, 3), own)


def grid_labels(grid: list[str] | tuple[str, ...]) -> IntArray:
    return np.array([CLASSES.index(c) for c in "".join(grid)], np.int64)


def synthetic_set(config: VisionConfig, scenes: int, stream: int, leaning: int
                  ) -> tuple[FloatArray, IntArray]:
    """Rows and labels of ``scenes`` ordinary and ``leaning`` low-camera scenes."""
    rng = np.random.default_rng(stream)
    rows, labels = [], []
    for index in range(scenes + leaning):
        scene = synthetic.random_scene(rng) if index < scenes else synthetic.leaning_scene(rng)
        image = synthetic.render(scene, stream * RENDER_SEEDS_PER_STREAM + index)
        rows.append(board_rows(config, image, scene.geometry()))
        labels.append(grid_labels(scene.grid()))
    return np.concatenate(rows), np.concatenate(labels)


def photo_set(config: VisionConfig, draws: int, seed: int) -> tuple[FloatArray, IntArray]:
    """Rows and labels of the real sample photos, each ``draws`` times with
    its corners moved by 2% of a square (sd)."""
    return _photo_rows(config, load_photos(), draws, np.random.default_rng(seed))


def _photo_rows(config: VisionConfig, photos: Iterable[Any], draws: int,
                rng: np.random.Generator) -> tuple[FloatArray, IntArray]:
    """Rows and labels of labelled photos (``path``, ``geometry``, ``grid``), each
    ``draws`` times: as labelled, then with its corners moved by 2% of a square (sd)."""
    rows, labels = [], []
    for photo in photos:
        image = np.asarray(cv2.imread(str(photo.path)), np.uint8)
        height, width = image.shape[:2]
        corners = np.array(photo.geometry.corners)
        side = float(np.ptp(corners, axis=0).max()) / 8
        for draw in range(draws):
            moved = corners + (rng.normal(0.0, 0.02 * side, corners.shape) if draw else 0.0)
            quad = tuple((float(x), float(y)) for x, y in moved)
            geometry = BoardGeometry(quad, (width, height))  # type: ignore[arg-type]
            rows.append(board_rows(config, image, geometry))
            labels.append(grid_labels(photo.grid))
    return np.concatenate(rows), np.concatenate(labels)


def mirrored(rows: FloatArray) -> FloatArray:
    """The tiles mirrored across the lean (left and right swapped): a board
    seen in a mirror is a board too, so every tile is also an example."""
    n = len(rows)
    tiles = rows[:, :TILE_H * TILE_W * 3].reshape(n, TILE_H, TILE_W, 3)[:, :, ::-1]
    return np.asarray(np.concatenate([tiles.reshape(n, -1), rows[:, TILE_H * TILE_W * 3:]],
                                     axis=1), np.float32)


def real_dev_set(config: VisionConfig, draws: int, seed: int) -> tuple[FloatArray, IntArray]:
    """Rows and labels of the development part of the real photos
    (``tests/vision/data/real_boards``, split ``dev``; never the held-out
    part), each ``draws`` times, corners moved by 2% of a square from the second on."""
    from vision.real_boards import load_real_boards

    photos = list(load_real_boards(split="dev"))
    for photo in photos:
        if photo.split != "dev":
            raise ValueError(f"{photo.path.name} is not a development photo")
    return _photo_rows(config, photos, draws, np.random.default_rng(seed + 1))


def fit(rows: FloatArray, labels: IntArray, weights: FloatArray, seed: int, epochs: int,
        rate: float = 2e-3, batch: int = 256, decay: float = 1e-4
        ) -> list[tuple[FloatArray, FloatArray]]:
    """A ReLU network (HIDDEN) fitted by Adam on weighted cross-entropy, with
    weight decay ``decay``."""
    rng = np.random.default_rng(seed)
    sizes = [rows.shape[1], *HIDDEN, len(CLASSES)]
    layers = [(np.asarray(rng.normal(0, np.sqrt(2.0 / a), (a, b)), np.float32),
               np.zeros(b, np.float32)) for a, b in itertools.pairwise(sizes)]
    params = [p for layer in layers for p in layer]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(len(rows))
        total = 0.0
        lr = rate * (0.5 * (1 + np.cos(np.pi * epoch / epochs)))
        for start in range(0, len(order), batch):
            pick = order[start:start + batch]
            x, y, w = rows[pick], labels[pick], weights[pick]
            acts = [x]
            for i, (wm, bv) in enumerate(layers):
                z = acts[-1] @ wm + bv
                acts.append(np.maximum(z, 0) if i < len(layers) - 1 else z)
            logits = acts[-1]
            p = np.exp(logits - logits.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            total += float(-(w * np.log(p[np.arange(len(y)), y] + 1e-9)).sum())
            grad = p
            grad[np.arange(len(y)), y] -= 1
            grad *= (w / w.sum())[:, None]
            grads: list[FloatArray] = []
            for i in range(len(layers) - 1, -1, -1):
                wm, _ = layers[i]
                grads[:0] = [acts[i].T @ grad, grad.sum(axis=0)]
                if i:
                    grad = (grad @ wm.T) * (acts[i] > 0)
            step += 1
            for k, (param, raw) in enumerate(zip(params, grads, strict=True)):
                g = np.asarray(raw + decay * param, np.float32)
                first[k] = 0.9 * first[k] + 0.1 * g
                second[k] = 0.999 * second[k] + 0.001 * g * g
                m_hat = first[k] / (1 - 0.9 ** step)
                v_hat = second[k] / (1 - 0.999 ** step)
                param -= (lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)
        LOGGER.info("epoch %d: loss %.4f", epoch, total / weights.sum())
    return layers


def forward(layers: list[tuple[FloatArray, FloatArray]], rows: FloatArray) -> FloatArray:
    """The fitted network's logits in numpy (what the ONNX file computes)."""
    x = rows
    for i, (wm, bv) in enumerate(layers):
        x = x @ wm + bv
        if i < len(layers) - 1:
            x = np.maximum(x, 0)
    return np.asarray(x, np.float32)


def to_onnx(layers: list[tuple[FloatArray, FloatArray]]) -> bytes:
    """The network as an ONNX model (Gemm and Relu nodes, opset 13)."""
    from onnx import TensorProto, helper, numpy_helper

    nodes, inits = [], []
    name = "tiles"
    for i, (wm, bv) in enumerate(layers):
        inits += [numpy_helper.from_array(wm, f"w{i}"), numpy_helper.from_array(bv, f"b{i}")]
        out = "logits" if i == len(layers) - 1 else f"h{i}"
        nodes.append(helper.make_node("Gemm", [name, f"w{i}", f"b{i}"],
                                      [out if i == len(layers) - 1 else f"z{i}"]))
        if i < len(layers) - 1:
            nodes.append(helper.make_node("Relu", [f"z{i}"], [out]))
        name = out
    graph = helper.make_graph(
        nodes, "raindrop_squares",
        [helper.make_tensor_value_info("tiles", TensorProto.FLOAT, ["n", INPUTS])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["n", len(CLASSES)])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="vision.train_occupancy")
    model.ir_version = 8
    return bytes(model.SerializeToString())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("vision/occupancy.onnx"))
    parser.add_argument("--scenes", type=int, default=800, help="ordinary synthetic scenes")
    parser.add_argument("--leaning", type=int, default=300, help="low-camera leaning scenes")
    parser.add_argument("--photo-draws", type=int, default=6, help="reads of each real photo")
    parser.add_argument("--photo-weight", type=float, default=3.0)
    parser.add_argument("--real-draws", type=int, default=4,
                        help="reads of each real development photo (real_boards, split dev)")
    parser.add_argument("--stream", type=int, default=77, help="synthetic scene stream")
    parser.add_argument("--seed", type=int, default=0, help="initial weights and shuffling")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--decay", type=float, default=1e-4, help="weight decay")
    parser.add_argument("--cache", type=Path, default=None, help="an .npz of the tiles")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    cv2.setNumThreads(1)
    config = VisionConfig()
    start = time.perf_counter()
    if args.cache is not None and args.cache.exists():
        data = np.load(args.cache)
        rows, labels, weights = data["rows"], data["labels"], data["weights"]
    else:
        synth_rows, synth_labels = synthetic_set(config, args.scenes, args.stream, args.leaning)
        photo_rows, photo_labels = photo_set(config, args.photo_draws, args.seed)
        real_rows, real_labels = real_dev_set(config, args.real_draws, args.seed)
        rows = np.concatenate([synth_rows, photo_rows, real_rows])
        labels = np.concatenate([synth_labels, photo_labels, real_labels])
        weights = np.concatenate([np.ones(len(synth_rows), np.float32),
                                  np.full(len(photo_rows) + len(real_rows), args.photo_weight,
                                          np.float32)])
        if args.cache is not None:
            np.savez(args.cache, rows=rows, labels=labels, weights=weights)
    LOGGER.info("%d tiles (%.0f s)", len(rows), time.perf_counter() - start)
    rows = np.concatenate([rows, mirrored(rows)])
    labels, weights = np.concatenate([labels, labels]), np.concatenate([weights, weights])
    layers = fit(rows, labels, weights, args.seed, args.epochs, decay=args.decay)
    wrong = int((forward(layers, rows).argmax(axis=1) != labels).sum())
    LOGGER.info("training tiles wrong: %d of %d (%.0f s)", wrong, len(rows),
                time.perf_counter() - start)
    args.out.write_bytes(to_onnx(layers))
    LOGGER.info("wrote %s (%d bytes)", args.out, args.out.stat().st_size)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
