"""Fine-tune the third photo network end to end (EfficientNet-Lite0's first blocks and
the classifier on them) and write it as ONNX, as ``python -m lab.train_pretrained``
writes the frozen one.

``python -m lab.finetune_pretrained --rendered R --cache DIR --out
vision/models/occupancy_photo_imagenet.onnx`` reads the tiles of the photo networks' recipe
(:func:`lab.train_occupancy.training_parts`, as ``lab.train_pretrained`` does,
sampled four times as finely: 48 pixels a square), kept as the RGB pictures the blocks see
(uint8; ``--cache`` keeps them beside the other tiles), then:

1. fits the classifier on the frozen blocks' features exactly as ``lab.train_pretrained``
   does (:func:`lab.train_pretrained.fit_classifier`: one hidden ReLU layer, Adam);
2. trains the blocks (each batch norm folded into its convolution, as in the shipped
   file) and the classifier together for ``--epochs`` passes over the tiles: Adam at
   ``--rate`` on a cosine schedule, batches of 128, each tile mirrored at random (the
   reader reads each tile both ways), each tile's loss times its part's weight;
3. divides the logits by how many times larger they are than the other photo networks'
   on the training tiles (as ``lab.train_pretrained`` does), and writes one ONNX file
   (:func:`lab.pretrained.square_model` over the trained weights: the same graph as
   the frozen network's, read by OpenCV alone).

Needs PyTorch, for training only (``pip install -e '.[lab,finetune]'``; the
``finetune`` extra is not in ``all``: the app and the tests do not need it).
``--leave-out BOARD [--keep PATH] [--keep-frozen PATH]`` trains without the development
photos of BOARD and reads them from their labelled corners, each tile as is and both ways,
by the classifier on the frozen blocks and by the network fine-tuned, and writes either
(docs/dev/camera.md, "Fine-tuning the pretrained blocks", "A sixteenth
candidate").
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import math
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from lab import pretrained
from lab.net_fitting import model_bytes
from lab.train_occupancy import (
    RowsOf,
    add_part_arguments,
    check_rendered,
    left_out,
    picture_tiles,
    tile_weights,
    training_parts,
)
from lab.train_pretrained import NET_FILE, fit_classifier, log_odds_scale
from vision.config import VisionConfig
from vision.geometry import BoardGeometry, Image
from vision.net_reading import logits_of
from vision.square_net import CLASSES

LOGGER = logging.getLogger(__name__)

FloatArray = npt.NDArray[np.float32]
Pictures = npt.NDArray[np.uint8]
Layers = list[tuple[FloatArray, FloatArray]]
Convs = dict[str, tuple[FloatArray, FloatArray]]

SCALE = 4  # the tiles sampled four times as finely as the square networks' (48 px a square)
SAMPLING = pretrained.Sampling(SCALE, 1)
BATCH = 128
PICTURES_VERSION = 1  # of rgb_tiles_reader's pictures: a cache of another is not reused


def rgb_net() -> cv2.dnn.Net:
    """The front of the pretrained graph alone (:func:`lab.pretrained.rgb_picture`):
    input rows of the finer tiles to the pictures the blocks see."""
    graph = pretrained.GraphBuilder()
    picture = pretrained.rgb_picture(graph, "tiles", SCALE, 1)
    high, wide = SAMPLING.picture
    return cv2.dnn.readNetFromONNX(np.frombuffer(model_bytes(
        graph.nodes, graph.initializers, "rgb_tiles", source=("tiles", ["n", SAMPLING.inputs]),
        result=(picture, ["n", 3, high, wide])), np.uint8))


def to_pictures(scaled: FloatArray) -> Pictures:
    """The blocks' input (n, 3, H, W), scaled (255 v - 127) / 128, as uint8 (n, H, W, 3)."""
    return np.ascontiguousarray(np.clip(np.rint(scaled * 128.0 + 127.0), 0, 255).astype(
        np.uint8).transpose(0, 2, 3, 1))


def from_pictures(pictures: Pictures) -> FloatArray:
    """:func:`to_pictures` undone: the blocks' input (n, 3, H, W)."""
    return np.asarray((pictures.transpose(0, 3, 1, 2).astype(np.float32) - 127.0) / 128.0,
                      np.float32)


def conv_names(state: pretrained.State) -> list[tuple[str, str]]:
    """Every convolution of the stem and the first blocks with its batch norm, in order."""
    names = [("_conv_stem.weight", "_bn0")]
    for index in range(pretrained.BLOCKS):
        prefix = f"_blocks.{index}."
        if prefix + "_expand_conv.weight" in state:
            names.append((prefix + "_expand_conv.weight", prefix + "_bn0"))
        names.append((prefix + "_depthwise_conv.weight", prefix + "_bn1"))
        names.append((prefix + "_project_conv.weight", prefix + "_bn2"))
    return names


def folded_convs(state: pretrained.State) -> Convs:
    """Every convolution's weights and bias with its batch norm folded in, by name."""
    return {conv: pretrained.folded(state, conv, norm) for conv, norm in conv_names(state)}


def state_with(state: pretrained.State, convs: Convs) -> pretrained.State:
    """``state`` with each convolution in ``convs`` (folded weights and bias) put in,
    its batch norm made one that changes nothing but adds the bias: what
    :func:`lab.pretrained.square_model` folds back into the same weights."""
    out = dict(state)
    for conv, norm in conv_names(state):
        weight, bias = convs[conv]
        channels = len(bias)
        out[conv] = np.asarray(weight, np.float32)
        out[norm + ".weight"] = np.ones(channels, np.float32)
        out[norm + ".bias"] = np.asarray(bias, np.float32)
        out[norm + ".running_mean"] = np.zeros(channels, np.float32)
        out[norm + ".running_var"] = np.full(channels, 1.0 - pretrained.BN_EPS, np.float32)
    return out


def rgb_tiles_reader() -> RowsOf:
    """A ``read`` for :func:`lab.train_occupancy.training_parts`: each picture's 64
    tiles as the RGB pictures the blocks see (uint8)."""
    net = rgb_net()

    def read(config: VisionConfig, image: Image, geometry: BoardGeometry) -> Pictures:
        rows = picture_tiles(config, image, geometry).rows(SCALE)
        net.setInput(np.ascontiguousarray(rows, np.float32))
        return to_pictures(np.asarray(net.forward(), np.float32))

    return read


class Trainer:
    """The stem, the first blocks and the classifier in PyTorch, trainable (imported
    only here: PyTorch is for training alone)."""

    def __init__(self, state: pretrained.State, threads: int, seed: int) -> None:
        import torch
        from torch import nn

        torch.set_num_threads(threads)
        torch.manual_seed(seed)
        self.torch, self.nn = torch, nn
        self.state = state
        self.names = [conv for conv, _ in conv_names(state)]
        self.params = nn.ParameterDict()
        for index, (weight, bias) in enumerate(folded_convs(state).values()):
            self.params[f"w{index}"] = nn.Parameter(torch.tensor(weight))
            self.params[f"b{index}"] = nn.Parameter(torch.tensor(bias))
        self.head: list[Any] = []

    def _conv(self, x: Any, index: int, stride: int = 1, groups: int = 1) -> Any:
        functional = self.nn.functional
        weight = self.params[f"w{index}"]
        kernel = int(weight.shape[2])
        top, bottom, _ = pretrained.same_padding(int(x.shape[2]), kernel, stride)
        left, right, _ = pretrained.same_padding(int(x.shape[3]), kernel, stride)
        x = functional.pad(x, (left, right, top, bottom))
        return functional.conv2d(x, weight, self.params[f"b{index}"], stride, 0, 1, groups)

    def features(self, x: Any) -> Any:
        """The flat features of the blocks' input (n, 3, H, W), as
        :func:`lab.pretrained.feature_graph` computes them."""
        relu6 = self.nn.functional.relu6
        x = relu6(self._conv(x, 0, 2))
        index, channels = 1, int(x.shape[1])
        for block, stride in enumerate(pretrained.block_strides()[:pretrained.BLOCKS]):
            entering = x
            if f"_blocks.{block}._expand_conv.weight" in self.state:
                x = relu6(self._conv(x, index))
                index += 1
            x = relu6(self._conv(x, index, stride, int(x.shape[1])))
            x = self._conv(x, index + 1)
            index += 2
            if stride == 1 and int(x.shape[1]) == channels:
                x = x + entering
            channels = int(x.shape[1])
        return x.flatten(1)

    def set_head(self, layers: Layers) -> None:
        """The classifier (one hidden ReLU layer, as fitted by ``fit_classifier``)."""
        self.head = [self.nn.Parameter(self.torch.tensor(np.ascontiguousarray(part)))
                     for layer in layers for part in layer]

    def logits(self, x: Any) -> Any:
        """The four classes' logits of the blocks' input (n, 3, H, W)."""
        first, bias, last, out = self.head
        hidden = self.nn.functional.relu(self.features(x) @ first + bias)
        return hidden @ last + out

    def batch_input(self, pictures: Pictures) -> Any:
        """Pictures as the blocks' input tensor."""
        return self.torch.from_numpy(from_pictures(pictures))

    def frozen_features(self, pictures: Pictures, index: npt.NDArray[np.intp]
                        ) -> npt.NDArray[np.float16]:
        """The pretrained blocks' flat features of ``pictures[index]`` (float16)."""
        chunks = []
        with self.torch.no_grad():
            for start in range(0, len(index), 256):
                x = self.batch_input(pictures[index[start:start + 256]])
                chunks.append(self.features(x).numpy().astype(np.float16))
        return np.concatenate(chunks)

    def predict(self, pictures: Pictures, mirror: bool) -> FloatArray:
        """The logits of each picture (with ``mirror``, the mean over it and its mirror)."""
        chunks = []
        with self.torch.no_grad():
            for start in range(0, len(pictures), 256):
                x = self.batch_input(pictures[start:start + 256])
                logits = self.logits(x)
                if mirror:
                    logits = (logits + self.logits(self.torch.flip(x, dims=[3]))) / 2
                chunks.append(logits.numpy())
        return np.asarray(np.concatenate(chunks), np.float32)

    def train(self, pictures: Pictures, index: npt.NDArray[np.intp],
              labels: npt.NDArray[np.int64], weights: FloatArray, epochs: float,
              rate: float, seed: int) -> None:
        """Every weight trained together on ``pictures[index]`` (``labels`` and
        ``weights`` are the whole set's): Adam, a cosine schedule from ``rate``."""
        torch = self.torch
        params = [*self.params.values(), *self.head]
        optimiser = torch.optim.Adam(params, lr=rate)
        rng = np.random.default_rng(seed)
        per_epoch = max(1, len(index) // BATCH)
        steps = max(1, int(epochs * per_epoch))
        order = index.copy()
        start = time.perf_counter()
        total = 0.0
        for step in range(steps):
            at = step % per_epoch
            if at == 0:
                rng.shuffle(order)
            pick = np.sort(order[at * BATCH:(at + 1) * BATCH])
            x = self.batch_input(pictures[pick])
            flip = torch.from_numpy(rng.random(len(pick)) < 0.5)
            x[flip] = torch.flip(x[flip], dims=[3])
            for group in optimiser.param_groups:
                group["lr"] = rate * 0.5 * (1 + math.cos(math.pi * step / steps))
            weight = torch.from_numpy(weights[pick])
            loss = (torch.nn.functional.cross_entropy(
                self.logits(x), torch.from_numpy(labels[pick]), reduction="none")
                * weight).sum() / weight.sum()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += float(loss.item())
            if (step + 1) % 100 == 0 or step + 1 == steps:
                LOGGER.info("step %d of %d: loss %.4f (%.0f s)", step + 1, steps,
                            total / (step % 100 + 1), time.perf_counter() - start)
                total = 0.0

    def layers(self) -> Layers:
        """The classifier's trained weights."""
        first, bias, last, out = (p.detach().numpy().astype(np.float32) for p in self.head)
        return [(first, bias), (last, out)]

    def convs(self) -> Convs:
        """The blocks' trained (folded) weights and biases, by convolution name."""
        return {name: (self.params[f"w{index}"].detach().numpy().astype(np.float32),
                       self.params[f"b{index}"].detach().numpy().astype(np.float32))
                for index, name in enumerate(self.names)}

    def model(self, temperature: float) -> bytes:
        """The ONNX file of the trained weights, logits divided by ``temperature``."""
        (first, bias), (last, out) = self.layers()
        return pretrained.square_model(
            state_with(self.state, self.convs()),
            [(first, bias), (last / temperature, out / temperature)], sampling=SAMPLING)


def all_features(trainer: Trainer, pictures: Pictures, cache: Path | None
                 ) -> npt.NDArray[np.float16]:
    """The frozen blocks' features of every picture, from the cache (keyed by a digest
    of the pictures) when there: every leave-out fit of the same tiles shares them."""
    digest = hashlib.sha256(np.ascontiguousarray(pictures).data).hexdigest()[:12]
    path = None if cache is None else cache / f"finetune-features{PICTURES_VERSION}-{digest}.npy"
    if path is not None and path.exists():
        return np.asarray(np.load(path), np.float16)
    features = trainer.frozen_features(pictures, np.arange(len(pictures)))
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.save(path, features)
    return features


def temperature_of(trainer: Trainer, pictures: Pictures, shipped: FloatArray) -> float:
    """How many times the trainer's piece log-odds are larger than those of the logits
    ``shipped`` (the other photo networks' on the same tiles), by the median size of
    each, as ``lab.train_pretrained`` scales its classifier."""
    return log_odds_scale(trainer.predict(pictures, False), shipped)


def wrong_left_out(trainer: Trainer, pictures: Pictures, truth: npt.NDArray[np.int64],
                   ) -> tuple[int, int]:
    """Squares wrong, each tile read as it is and read both ways (as the reader does)."""
    alone = int((trainer.predict(pictures, False).argmax(axis=1) != truth).sum())
    both = int((trainer.predict(pictures, True).argmax(axis=1) != truth).sum())
    return alone, both


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("vision") / "models" / NET_FILE)
    add_part_arguments(parser, rendered_draws=2)
    parser.add_argument("--seed", type=int, default=0,
                        help="the corners' draws, initial weights and shuffling")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--head-epochs", type=int, default=8,
                        help="epochs of the classifier on the frozen features")
    parser.add_argument("--decay", type=float, default=1e-4, help="the classifier's decay")
    parser.add_argument("--epochs", type=float, default=1.0,
                        help="passes over the tiles with every weight trained")
    parser.add_argument("--rate", type=float, default=1e-4, help="Adam's first rate")
    parser.add_argument("--threads", type=int, default=2, help="PyTorch's threads")
    parser.add_argument("--cache", type=Path, default=None,
                        help="a folder for the tiles (shared with the other trainers')")
    parser.add_argument("--leave-out", metavar="BOARD", default=None,
                        help="a check: train without the development photos of BOARD "
                             "(several, comma-separated), then read them (writes nothing "
                             "without --keep)")
    parser.add_argument("--keep", type=Path, default=None, metavar="PATH",
                        help="with --leave-out: write the fit without BOARD to PATH")
    parser.add_argument("--keep-frozen", type=Path, default=None, metavar="PATH",
                        help="with --leave-out: also write the classifier fitted on the "
                             "frozen blocks (step 1), the network as lab.train_pretrained "
                             "fits it, to PATH")
    args = parser.parse_args(argv)
    if (args.keep is not None or args.keep_frozen is not None) and not args.leave_out:
        parser.error("--keep and --keep-frozen write the networks fitted with --leave-out "
                     "BOARD; give it too")
    check_rendered(parser, args.rendered)
    try:
        import torch  # noqa: F401
    except ImportError:
        parser.error("fine-tuning needs PyTorch: pip install -e '.[lab,finetune]'")
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        state = pretrained.load_state(pretrained.weights_path())
    except pretrained.WeightsError as error:
        parser.error(str(error))
    start = time.perf_counter()
    args.close, args.off_centre, args.varied_weight, args.rendered_weight = 0, 0.0, 1.0, 1.0
    config = VisionConfig()
    parts = training_parts(config, args)
    picture_parts = training_parts(config, args, rgb_tiles_reader(),
                                   f"-rgb{PICTURES_VERSION}s{SCALE}")
    for ours, theirs in zip(picture_parts, parts, strict=True):
        if not np.array_equal(ours["labels"], theirs["labels"]):
            raise ValueError("the pictures' parts are not the tiles' parts")
    # popped, so that each part's pictures are freed once joined
    pictures = np.ascontiguousarray(np.concatenate([part.pop("rows")
                                                    for part in picture_parts]))
    labels = np.concatenate([part["labels"] for part in parts])
    boards = np.concatenate([part["board"] for part in parts])
    weights = tile_weights(parts, 1.0)
    LOGGER.info("%d tiles (%.0f s)", len(labels), time.perf_counter() - start)
    left = left_out(parser, boards, args.leave_out)
    kept = np.flatnonzero(~left)
    trainer = Trainer(state, args.threads, args.seed)
    features = all_features(trainer, pictures, args.cache)
    LOGGER.info("frozen features (%.0f s)", time.perf_counter() - start)
    trainer.set_head(fit_classifier(features[kept], labels[kept], args.hidden,
                                    args.head_epochs, args.decay, args.seed, weights[kept]))
    del features
    every = kept[::5]
    rows = np.concatenate([part.pop("rows") for part in parts])  # (weights made above)
    others = tuple(name for name in VisionConfig().nets.photo_nets if name != NET_FILE)
    shipped = logits_of(rows[every], False, others)
    del rows
    # The photos' rows come draws at a time, 64 a read: the first read of each photo
    # is from its labelled corners.
    shown = np.flatnonzero(left)
    shown = shown[(np.arange(len(shown)) // 64) % args.real_draws == 0]
    if args.leave_out:
        alone, both = wrong_left_out(trainer, pictures[shown], labels[shown])
        LOGGER.info("left out %s, frozen: %d of %d squares wrong from the labelled corners "
                    "(%d read both ways)", args.leave_out, alone, len(shown), both)
    if args.keep_frozen is not None:
        args.keep_frozen.write_bytes(trainer.model(temperature_of(trainer, pictures[every],
                                                                  shipped)))
        LOGGER.info("wrote %s", args.keep_frozen)
    trainer.train(pictures, kept, labels, weights, args.epochs, args.rate, args.seed)
    temperature = temperature_of(trainer, pictures[every], shipped)
    LOGGER.info("logits divided by %.3f, the shipped photo networks' scale", temperature)
    if args.leave_out:
        alone, both = wrong_left_out(trainer, pictures[shown], labels[shown])
        LOGGER.info("left out %s, fine-tuned: %d of %d squares wrong from the labelled "
                    "corners (%d read both ways)", args.leave_out, alone, len(shown), both)
        if args.keep is not None:
            args.keep.write_bytes(trainer.model(temperature))
            LOGGER.info("wrote %s", args.keep)
        return 0
    args.out.write_bytes(trainer.model(temperature))
    LOGGER.info("wrote %s (%d bytes, %d classes)", args.out, args.out.stat().st_size,
                len(CLASSES))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
