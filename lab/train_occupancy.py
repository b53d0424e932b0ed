"""Train the square network of :mod:`vision.square_net` and write it as ONNX.

``python -m lab.train_occupancy --rendered R --rendered-draws 2 --epochs 30 --out
vision/models/occupancy_photo.onnx`` (and, for the second network that reads photos beside it,
the same with ``--seed 1 --out vision/models/occupancy_photo_seed1.onnx``; R holds the Blender
pictures of ``lab.render_spec.SHIPPED_RUNS``, rendered first with ``--version 1``;
the games' network,
trained without the walnut board's development photos and without R: ``--leave-out
walnut --keep vision/models/occupancy.onnx``) renders the
training scenes (synthetic stream ``--stream``: ordinary scenes, leaning
scenes from a low camera, see :func:`lab.scenes.leaning_scene`, and
varied scenes of wooden boards and sets under lamp light and daylight, see
:func:`lab.scenes.varied_scene`; and, with ``--close N``, close scenes of a
phone held over the table, :func:`lab.scenes.close_scene`, not in the
shipped recipe; with ``--printed N`` (every trainer), boards with marks printed inside
squares, :func:`lab.scenes.printed_scene`, not in the shipped recipe either
(fitted with 400 of them, the photo networks misread more pieces' colours on the
development photos and still read a real mat's emblem as a piece: docs/dev/camera.md,
"An eighteenth candidate");
with ``--off-centre SPREAD`` every synthetic scene's pieces stand
N(0, SPREAD) squares off their squares' centres, :func:`lab.scenes.off_centre`),
adds the labelled real photos
(``tests/vision/data/samples`` and every photo that
``tests/vision/data/real_boards/labels.json`` puts in the development part,
never the held-out part, each read several times with its corners moved by a
pixel or so), fits a small network with Adam in numpy on the CPU (by default
the convolutional network of :mod:`lab.tile_conv`; ``--arch dense``: two
hidden ReLU layers over the flat tile, the network shipped before), every
batch's tiles jittered in Lab (exposure, contrast,
saturation, the empty colour a little off, pixel noise) and half of them
mirrored, and writes it with the ``onnx`` package's helper API (the ``train``
extra). Everything is drawn from ``--seed`` and ``--stream``, so the same
command writes the same file. Tiles are cached (``--cache DIR``, one file a
part) so a second fit skips the rendering; the real photos' part is keyed by
a digest of ``labels.json``, so photos added there are read again.

``--rendered DIR`` adds the pictures rendered into DIR by Blender
(:mod:`lab.render_blender`: physically lit wooden and plastic sets, boards with
grain, a camera anywhere round the board; its ``labels.json``, the real photos'
format), each read ``--rendered-draws`` times and weighing ``--rendered-weight``
(the photo networks' recipe since the seventeenth session, with 30 epochs: see
docs/dev/camera.md, "Scenes rendered by Blender" and "A third candidate: the
same pictures, fitted longer"; the games' network is trained without them).

``--leave-out BOARD`` is a check of how the network meets a board it has
never seen: it trains without the development photos of that board, reads
them (the network alone), and writes nothing (with ``--keep PATH``, the network
so fitted: the games' network is the one fitted without the walnut board). The
whole reader reads that board with a kept fit by
``python -m benchmarks.bench_real_boards --split dev --board BOARD --photo-nets PATH``.

The benchmark's scene sets (``benchmarks.bench_vision --seed S``) draw from
their own streams; the stream used here (default 77) is never one of the
sets reported.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import logging
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from lab import scenes as scene_families
from lab import tile_conv
from lab.net_fitting import adam_fit, model_bytes
from lab.samples import load_photos
from vision import synthetic
from vision.config import VisionConfig
from vision.errors import FrameUnreadable
from vision.geometry import BoardGeometry, Image, warp
from vision.net_reading import BoardTiles, board_tiles
from vision.sampling import make_sampler
from vision.square_net import (
    CLASSES,
    INPUTS,
    LAB_SCALE,
    TILE_PX,
    TILE_VALUES,
    mirrored,
    row_scale,
    tile_shape,
)

LOGGER = logging.getLogger(__name__)

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]
RENDER_SEEDS_PER_STREAM = 10_000_000
HIDDEN = (96, 48)  # the dense network's hidden layers (--arch dense)
CONV_CHANNELS = (8, 16)  # the convolutional network's (--arch conv, the default)
CONV_HIDDEN = 64


# What a part keeps of each picture read from a pose (64 rows): the networks' input
# rows (board_rows), or anything made from the picture's tiles (lab.train_pretrained:
# the pretrained blocks' features of finer tiles).
RowsOf = Callable[[VisionConfig, Image, BoardGeometry], npt.NDArray[Any]]


def picture_tiles(config: VisionConfig, image: Image, geometry: BoardGeometry) -> BoardTiles:
    """What one picture's tiles are cut from, read without a reference."""
    sampler = make_sampler(config, geometry)
    return board_tiles(config, sampler, warp(config, image, geometry))


def board_rows(config: VisionConfig, image: Image, geometry: BoardGeometry) -> FloatArray:
    """The network's input rows (64, INPUTS) for one picture, read without a reference."""
    return picture_tiles(config, image, geometry).rows()


def grid_labels(grid: list[str] | tuple[str, ...]) -> IntArray:
    return np.array([CLASSES.index(c) for c in "".join(grid)], np.int64)


def offsets_rng(stream: int, part: str) -> np.random.Generator:
    """The random stream that sets the pieces of one part's scenes off centre (its
    own, so the scenes themselves are drawn as without it)."""
    return np.random.default_rng([stream, OFF_CENTRE_TAG, *part.encode()])


def synthetic_set(config: VisionConfig, scenes: int, stream: int, leaning: int,
                  off_centre: float = 0.0, read: RowsOf = board_rows
                  ) -> tuple[FloatArray, IntArray]:
    """Rows and labels of ``scenes`` ordinary and ``leaning`` low-camera scenes, their
    pieces set N(0, ``off_centre``) squares off centre (:func:`lab.scenes.off_centre`)."""
    rng = np.random.default_rng(stream)
    aside = offsets_rng(stream, "scenes")
    rows, labels = [], []
    for index in range(scenes + leaning):
        scene = synthetic.random_scene(rng) if index < scenes else scene_families.leaning_scene(rng)
        scene = scene_families.off_centre(scene, aside, off_centre)
        image = synthetic.render(scene, stream * RENDER_SEEDS_PER_STREAM + index)
        rows.append(read(config, image, scene.geometry()))
        labels.append(grid_labels(scene.grid()))
    return np.concatenate(rows), np.concatenate(labels)


VARIED_VERSION = 2  # of lab.scenes.varied_scene: a cache of another is not reused
# The photos' tiles follow the camera pose estimated from their corners (version 2:
# with vision.geometry.pixel_aspect); a cache of another version is not reused.
PHOTO_TILES_VERSION = 2
VARIED_STREAM_OFFSET = 1000  # the varied scenes of stream S draw from stream S + this
VARIED_RENDER_OFFSET = 5_000_000  # and render from S * RENDER_SEEDS_PER_STREAM + this
CLOSE_STREAM_OFFSET = 2000  # the close scenes of stream S draw from stream S + this
CLOSE_RENDER_OFFSET = 6_000_000  # and render from S * RENDER_SEEDS_PER_STREAM + this
PRINTED_STREAM_OFFSET = 4000  # the printed scenes of stream S draw from stream S + this
PRINTED_RENDER_OFFSET = 7_000_000  # and render from S * RENDER_SEEDS_PER_STREAM + this
OFF_CENTRE_TAG = 3000  # with the stream and the part's name: the off-centre draws' seed


def varied_set(config: VisionConfig, scenes: int, stream: int, off_centre: float = 0.0,
               read: RowsOf = board_rows) -> tuple[FloatArray, IntArray]:
    """Rows and labels of ``scenes`` varied scenes (:func:`lab.scenes.varied_scene`:
    wooden boards and sets, lamp light and daylight, more blur, noise and JPEG loss),
    each read from corners moved by 2% of a square (sd), as a real photo's labelled
    corners may be; pieces set off centre as in :func:`synthetic_set`."""
    return _moved_scene_set(config, "varied", scenes, stream, off_centre, read)


def close_set(config: VisionConfig, scenes: int, stream: int, off_centre: float = 0.0,
              read: RowsOf = board_rows) -> tuple[FloatArray, IntArray]:
    """Rows and labels of ``scenes`` close scenes (:func:`lab.scenes.close_scene`:
    a phone's 4:3 picture from 8 to 12 squares away, pieces of every kind leaning
    far), each read from corners moved by 2% of a square (sd); pieces set off centre
    as in :func:`synthetic_set`."""
    return _moved_scene_set(config, "close", scenes, stream, off_centre, read)


def printed_set(config: VisionConfig, scenes: int, stream: int, off_centre: float = 0.0,
                read: RowsOf = board_rows) -> tuple[FloatArray, IntArray]:
    """Rows and labels of ``scenes`` printed scenes (:func:`lab.scenes.printed_scene`:
    varied scenes whose boards carry marks printed inside squares, empty squares all the
    same), each read from corners moved by 2% of a square (sd); pieces set off centre
    as in :func:`synthetic_set`."""
    return _moved_scene_set(config, "printed", scenes, stream, off_centre, read)


# Each kind of scene read from moved corners: how a scene is drawn, and where its stream's
# draws and renders start (added to the stream, and to stream * RENDER_SEEDS_PER_STREAM).
MOVED_SCENES: dict[str, tuple[Callable[[np.random.Generator], synthetic.Scene], int, int]] = {
    "varied": (scene_families.varied_scene, VARIED_STREAM_OFFSET, VARIED_RENDER_OFFSET),
    "close": (scene_families.close_scene, CLOSE_STREAM_OFFSET, CLOSE_RENDER_OFFSET),
    "printed": (scene_families.printed_scene, PRINTED_STREAM_OFFSET, PRINTED_RENDER_OFFSET),
}


def _moved_scene_set(config: VisionConfig, kind: str, scenes: int, stream: int,
                     off_centre: float, read: RowsOf = board_rows
                     ) -> tuple[FloatArray, IntArray]:
    """Rows and labels of ``scenes`` scenes of ``kind`` (:data:`MOVED_SCENES`) from
    ``stream``, their pieces set N(0, ``off_centre``) squares off centre by draws of
    their own (:func:`offsets_rng`), each read from corners moved by 2% of a square
    (sd)."""
    make, draws, renders = MOVED_SCENES[kind]
    rng = np.random.default_rng(stream + draws)
    first_render = stream * RENDER_SEEDS_PER_STREAM + renders
    aside = offsets_rng(stream, kind)
    rows, labels = [], []
    for index in range(scenes):
        scene = scene_families.off_centre(make(rng), aside, off_centre)
        image = synthetic.render(scene, first_render + index)
        rows.append(read(config, image, moved_corners(scene.geometry(), rng)))
        labels.append(grid_labels(scene.grid()))
    if not rows:
        return np.zeros((0, INPUTS), np.float32), np.zeros(0, np.int64)
    return np.concatenate(rows), np.concatenate(labels)


def moved_corners(geometry: BoardGeometry, rng: np.random.Generator,
                  sd: float = 0.02) -> BoardGeometry:
    """``geometry`` with each corner moved at random by ``sd`` of a square (a
    labelled corner is off by about that much)."""
    corners = np.array(geometry.corners)
    side = float(np.ptp(corners, axis=0).max()) / 8
    moved = corners + rng.normal(0.0, sd * side, corners.shape)
    return BoardGeometry(tuple((float(x), float(y)) for x, y in moved),  # type: ignore[arg-type]
                         geometry.image_size)


def photo_set(config: VisionConfig, draws: int, seed: int, read: RowsOf = board_rows
              ) -> tuple[FloatArray, IntArray]:
    """Rows and labels of the real sample photos, each ``draws`` times with
    its corners moved by 2% of a square (sd)."""
    return _photo_rows(config, load_photos(), draws, np.random.default_rng(seed), read)


def _photo_rows(config: VisionConfig, photos: Iterable[Any], draws: int,
                rng: np.random.Generator, read: RowsOf = board_rows
                ) -> tuple[FloatArray, IntArray]:
    """Rows and labels of labelled photos (``path``, ``geometry``, ``grid``), each
    ``draws`` times: as labelled, then with its corners moved by 2% of a square (sd)."""
    rows, labels = [], []
    for photo in photos:
        picture = cv2.imread(str(photo.path))
        if picture is None:
            raise FrameUnreadable(f"cannot read the picture {photo.path}")
        image = np.asarray(picture, np.uint8)
        height, width = image.shape[:2]
        labelled = BoardGeometry(photo.geometry.corners, (width, height))
        for draw in range(draws):
            geometry = moved_corners(labelled, rng) if draw else labelled
            rows.append(read(config, image, geometry))
            labels.append(grid_labels(photo.grid))
    return np.concatenate(rows), np.concatenate(labels)


def real_dev_set(config: VisionConfig, draws: int, seed: int, read: RowsOf = board_rows
                 ) -> tuple[FloatArray, IntArray, npt.NDArray[np.str_]]:
    """Rows, labels and board names (per row) of the development part of the real
    photos (``tests/vision/data/real_boards``, every photo ``labels.json`` puts in
    split ``dev``; never the held-out part), each ``draws`` times, corners moved by
    2% of a square from the second on."""
    from lab.real_boards import load_real_boards

    photos = list(load_real_boards(split="dev"))
    for photo in photos:
        if photo.split != "dev":
            raise ValueError(f"{photo.path.name} is not a development photo")
    rows, labels = _photo_rows(config, photos, draws, np.random.default_rng(seed + 1), read)
    boards = np.repeat(np.array([photo.board for photo in photos]), draws * 64)
    return rows, labels, boards


def rendered_set(config: VisionConfig, directory: Path, draws: int, seed: int,
                 read: RowsOf = board_rows) -> tuple[FloatArray, IntArray]:
    """Rows and labels of the pictures rendered into ``directory`` by
    :mod:`lab.render_blender` (its ``labels.json``, the samples' format), each
    ``draws`` times, corners moved by 2% of a square from the second on."""
    photos = load_photos(directory)
    if not photos:
        raise ValueError(f"{directory / 'labels.json'} lists no picture")
    return _photo_rows(config, photos, draws, np.random.default_rng(seed + 2), read)


def labels_key(labels: Path) -> str:
    """A short digest of a ``labels.json``: a cache made before pictures were added
    or relabelled is not reused."""
    return hashlib.sha256(labels.read_bytes()).hexdigest()[:12]


def real_dev_key() -> str:
    """A short digest of the real photos' labels: a cache made before photos were
    added or relabelled is not reused."""
    from lab.real_boards import real_boards_dir

    return labels_key(real_boards_dir() / "labels.json")



def augmented(rows: FloatArray, rng: np.random.Generator, strength: float) -> FloatArray:
    """Tiles changed the way another board, light or camera would change them:
    each tile's difference from its empty colour scaled (exposure and contrast
    on L, saturation on a and b), shifted (an empty colour estimated a little
    off), with pixel noise; and the empty colour itself moved (another board's
    squares). ``strength`` 1 is the training default; 0 leaves the rows as they are."""
    if strength <= 0:
        return rows
    n = len(rows)
    tiles = rows[:, :TILE_VALUES].reshape(n, -1, 3)
    gain = np.exp(rng.normal(0.0, 0.15 * strength, (n, 1, 3))).astype(np.float32)
    gain[:, :, 2] = gain[:, :, 1]  # a and b alike (saturation)
    shift = rng.normal(0.0, 1.0, (n, 1, 3)) * np.array([4.0, 2.0, 2.0]) * strength / LAB_SCALE
    noise = rng.normal(0.0, 1.5 * strength, tiles.shape) / LAB_SCALE
    out = np.empty_like(rows)
    out[:, :TILE_VALUES] = (tiles * gain + shift + noise).reshape(n, -1)
    own = rows[:, TILE_VALUES:]
    out[:, TILE_VALUES:] = own + rng.normal(0.0, 1.0, own.shape) * np.array(
        [0.08, 0.04, 0.04]) * strength
    return out


def moved(rows: FloatArray, rng: np.random.Generator, spread: float) -> FloatArray:
    """``rows`` with each tile moved by its own random N(0, ``spread``) squares along
    and across the lean (bilinear, the edge pixels carried on): a tile cut where a
    photo's corners put it, a little off the square, as a photo read from corners a
    little off would be, or read again moved (``VisionConfig.nets.photo_shift``). 0 leaves
    the rows as they are."""
    if spread <= 0:
        return rows
    n = len(rows)
    scale = row_scale(rows.shape[1])
    high, wide = tile_shape(scale)
    tiles = rows[:, :high * wide * 3].reshape(n, high, wide, 3)
    step = rng.normal(0.0, spread * TILE_PX * scale, (n, 2))  # in the tiles' pixels
    out = rows.copy()

    def take(size: int, shift: npt.NDArray[np.float64]
             ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], FloatArray]:
        at = np.arange(size)[None, :] - shift[:, None]
        low = np.floor(at)
        part = (at - low).astype(np.float32)
        first = np.clip(low, 0, size - 1).astype(np.intp)
        return first, np.clip(low + 1, 0, size - 1).astype(np.intp), part

    y0, y1, fy = take(high, step[:, 0])
    x0, x1, fx = take(wide, step[:, 1])
    index = np.arange(n)[:, None, None]
    top = (tiles[index, y0[:, :, None], x0[:, None, :]] * (1 - fx)[:, None, :, None]
           + tiles[index, y0[:, :, None], x1[:, None, :]] * fx[:, None, :, None])
    bottom = (tiles[index, y1[:, :, None], x0[:, None, :]] * (1 - fx)[:, None, :, None]
              + tiles[index, y1[:, :, None], x1[:, None, :]] * fx[:, None, :, None])
    blend = top * (1 - fy)[:, :, None, None] + bottom * fy[:, :, None, None]
    out[:, :high * wide * 3] = blend.reshape(n, -1)
    return out


def flipped(rows: FloatArray, which: npt.NDArray[np.bool_]) -> FloatArray:
    """``rows`` with the tiles of ``which`` mirrored across the lean (see :func:`mirrored`)."""
    out = rows.copy()
    out[which] = mirrored(rows[which])
    return out


def fit(rows: FloatArray, labels: IntArray, weights: FloatArray, seed: int, epochs: int,
        rate: float = 2e-3, batch: int = 256, decay: float = 1e-4, *,
        hidden: tuple[int, ...] = HIDDEN, augment: float = 0.0, mirror: bool = False
        ) -> list[tuple[FloatArray, FloatArray]]:
    """A ReLU network (``hidden`` layers) fitted by Adam on weighted cross-entropy, with
    weight decay ``decay``; every batch is :func:`augmented` by ``augment`` and, with
    ``mirror``, half its tiles (at random) mirrored."""
    rng = np.random.default_rng(seed)
    sizes = [rows.shape[1], *hidden, len(CLASSES)]
    layers = [(np.asarray(rng.normal(0, np.sqrt(2.0 / a), (a, b)), np.float32),
               np.zeros(b, np.float32)) for a, b in itertools.pairwise(sizes)]
    params = [p for layer in layers for p in layer]

    def batch_loss(pick: npt.NDArray[np.intp]) -> tuple[float, list[FloatArray]]:
        x, y, w = rows[pick], labels[pick], weights[pick]
        if mirror:
            x = flipped(x, rng.random(len(pick)) < 0.5)
        x = np.asarray(augmented(x, rng, augment), np.float32)
        acts = [x]
        for i, (wm, bv) in enumerate(layers):
            z = acts[-1] @ wm + bv
            acts.append(np.maximum(z, 0) if i < len(layers) - 1 else z)
        logits = acts[-1]
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        loss = float(-(w * np.log(p[np.arange(len(y)), y] + 1e-9)).sum())
        grad = p
        grad[np.arange(len(y)), y] -= 1
        grad *= (w / w.sum())[:, None]
        grads: list[FloatArray] = []
        for i in range(len(layers) - 1, -1, -1):
            wm, _ = layers[i]
            grads[:0] = [acts[i].T @ grad, grad.sum(axis=0)]
            if i:
                grad = (grad @ wm.T) * (acts[i] > 0)
        return loss, grads

    adam_fit(params, len(rows), batch_loss, rng, epochs, rate, batch, decay,
             lambda epoch, total: LOGGER.info("epoch %d: loss %.4f", epoch,
                                              total / weights.sum()))
    return layers


def fit_conv(rows: FloatArray, labels: IntArray, weights: FloatArray, seed: int, epochs: int,
             *, channels: tuple[int, int], hidden: int, decay: float = 1e-4,
             augment: float = 0.0, move: float = 0.0) -> tile_conv.ConvLayers:
    """The convolutional network of :mod:`lab.tile_conv` fitted as :func:`fit` fits
    the dense one: every batch :func:`augmented` by ``augment``, half its tiles
    mirrored, and with ``move`` each tile :func:`moved` by that spread (squares)."""
    rng = np.random.default_rng(seed)

    def prepare(x: FloatArray, draw: np.random.Generator) -> FloatArray:
        x = flipped(x, draw.random(len(x)) < 0.5)
        x = np.asarray(augmented(x, draw, augment), np.float32)
        # drawn after the rest, so a fit without it draws as before
        return moved(x, draw, move) if move > 0 else x

    def log(epoch: int, loss: float) -> None:
        LOGGER.info("epoch %d: loss %.4f", epoch, loss)

    return tile_conv.fit(rows, labels, weights, rng, epochs, channels=channels, hidden=hidden,
                         decay=decay, prepare=prepare, log=log)


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
    from onnx import helper, numpy_helper

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
    return model_bytes(nodes, inits, "raindrop_squares")


Part = dict[str, Any]  # rows, labels, board (per row, "" for synthetic scenes)


def _cached(cache: Path | None, key: str, make: Any) -> Part:
    """One part of the training tiles, from ``cache/key.npz`` when there, else made
    (and stored there)."""
    path = None if cache is None else cache / f"{key}.npz"
    if path is not None and path.exists():
        with np.load(path) as data:
            return {name: data[name] for name in data.files}
    start = time.perf_counter()
    part: Part = make()
    LOGGER.info("%s: %d tiles (%.0f s)", key, len(part["rows"]), time.perf_counter() - start)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, **part)
    return part


def left_out(parser: argparse.ArgumentParser, boards: npt.NDArray[np.str_],
             leave_out: str | None) -> npt.NDArray[np.bool_]:
    """Which tiles ``--leave-out BOARD[,BOARD...]`` leaves out: those of the development
    photos of each named board (none without the option); a name no development photo
    has is the parser's error."""
    if not leave_out:
        return np.zeros(len(boards), bool)
    names = [name.strip() for name in leave_out.split(",")]
    missing = [name for name in names if not (boards == name).any()]
    if missing:
        parser.error(f"no development photo of a board {missing[0]!r}")
    return np.isin(boards, names)


def add_part_arguments(parser: argparse.ArgumentParser, *, rendered_draws: int) -> None:
    """The options :func:`training_parts` reads (but the weights of the varied scenes
    and rendered pictures, the close scenes and the pieces set off centre, which only
    ``python -m lab.train_occupancy`` offers)."""
    parser.add_argument("--scenes", type=int, default=800, help="ordinary synthetic scenes")
    parser.add_argument("--leaning", type=int, default=300, help="low-camera leaning scenes")
    parser.add_argument("--varied", type=int, default=800,
                        help="varied scenes (wooden boards and sets, lamp light, daylight)")
    parser.add_argument("--stream", type=int, default=77, help="synthetic scene stream")
    parser.add_argument("--photo-draws", type=int, default=6, help="reads of each sample photo")
    parser.add_argument("--photo-weight", type=float, default=3.0,
                        help="the weight of each tile of a real photo (samples and development)")
    parser.add_argument("--printed", type=int, default=0,
                        help="printed scenes: boards with marks printed inside squares "
                             "(emblems, coordinates, rings; default 0)")
    parser.add_argument("--real-draws", type=int, default=4,
                        help="reads of each real development photo (real_boards, split dev)")
    parser.add_argument("--rendered", type=Path, default=None, metavar="DIR",
                        help="also train on the pictures rendered into DIR by "
                             "python -m lab.render_blender (its labels.json)")
    parser.add_argument("--rendered-draws", type=int, default=rendered_draws,
                        help="reads of each rendered picture")


def check_rendered(parser: argparse.ArgumentParser, rendered: Path | None) -> None:
    """``--rendered DIR`` names pictures that are there: the parser's error if its
    ``labels.json`` is missing, unreadable or lists none."""
    if rendered is None:
        return
    labels = rendered / "labels.json"
    if not labels.exists():
        parser.error(f"no rendered pictures: {labels} does not exist "
                     "(python -m lab.render_blender --out DIR writes it)")
    try:
        if not load_photos(rendered):
            parser.error(f"no rendered pictures: {labels} lists none")
    except (ValueError, KeyError) as error:
        parser.error(f"{labels} cannot be read: {error!r}")


def training_parts(config: VisionConfig, args: argparse.Namespace,
                   read: RowsOf = board_rows, kept: str = "") -> list[Part]:
    """Every part of the training tiles with its weight: ordinary and leaning scenes,
    varied scenes, the sample photos, the real development photos. ``read``: what
    each part keeps of a picture (its rows, by default), cached under names ending
    ``kept`` (another ``read``, another name)."""

    def scenes() -> Part:
        rows, labels = synthetic_set(config, args.scenes, args.stream, args.leaning,
                                     args.off_centre, read=read)
        return {"rows": rows, "labels": labels, "board": np.full(len(rows), "")}

    def varied() -> Part:
        rows, labels = varied_set(config, args.varied, args.stream, args.off_centre, read=read)
        return {"rows": rows, "labels": labels, "board": np.full(len(rows), "")}

    def close() -> Part:
        rows, labels = close_set(config, args.close, args.stream, args.off_centre, read=read)
        return {"rows": rows, "labels": labels, "board": np.full(len(rows), "")}

    def printed() -> Part:
        rows, labels = printed_set(config, args.printed, args.stream, args.off_centre,
                                   read=read)
        return {"rows": rows, "labels": labels, "board": np.full(len(rows), "")}

    def samples() -> Part:
        rows, labels = photo_set(config, args.photo_draws, args.seed, read=read)
        return {"rows": rows, "labels": labels, "board": np.full(len(rows), "samples")}

    def real() -> Part:
        rows, labels, boards = real_dev_set(config, args.real_draws, args.seed, read=read)
        return {"rows": rows, "labels": labels, "board": boards}

    def rendered() -> Part:
        rows, labels = rendered_set(config, args.rendered, args.rendered_draws, args.seed,
                                    read=read)
        return {"rows": rows, "labels": labels, "board": np.full(len(rows), "")}

    cache = args.cache
    aside = (f"-off{args.off_centre:g}" if args.off_centre > 0 else "") + kept
    parts = [
        _cached(cache, f"scenes-{args.stream}-{args.scenes}-{args.leaning}{aside}", scenes)
        | {"weight": 1.0},
        _cached(cache, f"varied{VARIED_VERSION}-{args.stream}-{args.varied}{aside}", varied)
        | {"weight": args.varied_weight},
        _cached(cache, f"close-{args.stream}-{args.close}{aside}", close)
        | {"weight": 1.0},
        _cached(cache, f"samples{PHOTO_TILES_VERSION}-{args.photo_draws}-{args.seed}{kept}",
                samples)
        | {"weight": args.photo_weight},
        _cached(cache, f"real-dev{PHOTO_TILES_VERSION}-{args.real_draws}-{args.seed}-"
                f"{real_dev_key()}{kept}", real)
        | {"weight": args.photo_weight},
    ]
    if args.printed:
        parts.append(_cached(cache, f"printed-{args.stream}-{args.printed}{aside}", printed)
                     | {"weight": 1.0})
    if args.rendered is not None:
        labels = args.rendered / "labels.json"
        parts.append(_cached(cache, f"rendered{PHOTO_TILES_VERSION}-{args.rendered_draws}-"
                             f"{args.seed}-{labels_key(labels)}{kept}", rendered)
                     | {"weight": args.rendered_weight})
    return [part for part in parts if len(part["rows"])]


def tile_weights(parts: list[Part], blue_weight: float) -> FloatArray:
    """Each tile's weight in the loss: its part's, times ``blue_weight`` for a blue piece."""
    weights = np.concatenate([np.full(len(part["rows"]), part["weight"], np.float32)
                              for part in parts])
    labels = np.concatenate([part["labels"] for part in parts])
    weights[labels == CLASSES.index("u")] *= blue_weight
    return weights


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=Path("vision/models/occupancy_photo.onnx"))
    add_part_arguments(parser, rendered_draws=1)
    parser.add_argument("--varied-weight", type=float, default=1.0)
    parser.add_argument("--close", type=int, default=0,
                        help="close scenes: a phone 8 to 12 squares from the board")
    parser.add_argument("--off-centre", type=float, default=0.0, metavar="SPREAD",
                        help="set every piece of the synthetic scenes N(0, SPREAD) squares "
                             "off its square's centre along each axis (clipped to 2.5 "
                             "spreads), as players set pieces down (default 0: centred)")
    parser.add_argument("--rendered-weight", type=float, default=1.0)
    parser.add_argument("--blue-weight", type=float, default=1.0,
                        help="each blue piece's tile counts this many times (blue pieces "
                             "are only in the synthetic scenes, and outnumbered by black)")
    parser.add_argument("--seed", type=int, default=0, help="initial weights and shuffling")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--decay", type=float, default=1e-4, help="weight decay")
    parser.add_argument("--arch", choices=("conv", "dense"), default="conv",
                        help="conv (default): two 3x3 convolutions (the first strided), a "
                             "max-pool, then one hidden dense layer; dense: hidden ReLU "
                             "layers over the flat tile (the network shipped before)")
    parser.add_argument("--hidden", default=None,
                        help="hidden layer sizes (default: "
                             f"{CONV_HIDDEN} with conv, {','.join(map(str, HIDDEN))} with dense)")
    parser.add_argument("--channels", default=",".join(map(str, CONV_CHANNELS)),
                        help="the convolutions' channels, with --arch conv (default "
                             "%(default)s)")
    parser.add_argument("--augment", type=float, default=1.0,
                        help="strength of the per-tile Lab jitter (0: none)")
    parser.add_argument("--move", type=float, default=0.0, metavar="SPREAD",
                        help="with --arch conv: each tile of every batch moved by "
                             "N(0, SPREAD) squares along and across the lean (0: none)")
    parser.add_argument("--cache", type=Path, default=None,
                        help="a folder for the tiles (one .npz a part), so a refit skips "
                             "the rendering")
    parser.add_argument("--leave-out", metavar="BOARD", default=None,
                        help="a check, writes nothing: train without the development "
                             "photos of BOARD (a board name in labels.json; several, "
                             "comma-separated), then read them")
    parser.add_argument("--keep", type=Path, default=None, metavar="PATH",
                        help="with --leave-out: also write the network fitted without "
                             "BOARD to PATH (for checks of the reader on BOARD)")
    args = parser.parse_args(argv)
    if args.keep is not None and not args.leave_out:
        parser.error("--keep writes the network fitted with --leave-out BOARD; give both")
    if args.move < 0:
        parser.error(f"--move {args.move}: a spread of squares, 0 (none) or more")
    if args.move > 0 and args.arch != "conv":
        parser.error("--move moves the tiles of the convolutional network's batches; "
                     "give it with --arch conv")
    check_rendered(parser, args.rendered)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    cv2.setNumThreads(1)
    config = VisionConfig()
    start = time.perf_counter()
    parts = training_parts(config, args)
    rows = np.concatenate([part["rows"] for part in parts])
    labels = np.concatenate([part["labels"] for part in parts])
    boards = np.concatenate([part["board"] for part in parts])
    weights = tile_weights(parts, args.blue_weight)
    LOGGER.info("%d tiles (%.0f s)", len(rows), time.perf_counter() - start)
    left = left_out(parser, boards, args.leave_out)
    default = (CONV_HIDDEN,) if args.arch == "conv" else HIDDEN
    hidden = tuple(int(v) for v in args.hidden.split(",")) if args.hidden else default
    if args.arch == "conv":
        channels = tuple(int(v) for v in args.channels.split(","))
        conv = fit_conv(rows[~left], labels[~left], weights[~left], args.seed, args.epochs,
                        channels=(channels[0], channels[1]), hidden=hidden[0],
                        decay=args.decay, augment=args.augment, move=args.move)

        def net(x: FloatArray) -> FloatArray:
            return tile_conv.forward(conv, x)

        def model() -> bytes:
            return tile_conv.to_onnx(conv)
    else:
        layers = fit(rows[~left], labels[~left], weights[~left], args.seed, args.epochs,
                     decay=args.decay, hidden=hidden, augment=args.augment, mirror=True)

        def net(x: FloatArray) -> FloatArray:
            return forward(layers, x)

        def model() -> bytes:
            return to_onnx(layers)
    wrong = int((net(rows[~left]).argmax(axis=1) != labels[~left]).sum())
    LOGGER.info("training tiles wrong: %d of %d (%.0f s)", wrong, int((~left).sum()),
                time.perf_counter() - start)
    if args.leave_out:
        # The photos' rows come draws at a time, 64 a read: the first read of each
        # photo is from its labelled corners.
        read = net(rows[left]).argmax(axis=1) != labels[left]
        first = (np.arange(int(left.sum())) // 64) % args.real_draws == 0
        LOGGER.info("left out %s: %d of %d squares wrong from the labelled corners, "
                    "%d of %d with all draws", args.leave_out, int(read[first].sum()),
                    int(first.sum()), int(read.sum()), len(read))
        truth = labels[left][first]
        got = net(rows[left][first]).argmax(axis=1)
        for i, name in enumerate(CLASSES):
            LOGGER.info("  %s read as %s", name, " ".join(
                f"{other}:{int(((truth == i) & (got == j)).sum())}"
                for j, other in enumerate(CLASSES)))
        if args.keep is not None:
            args.keep.write_bytes(model())
            LOGGER.info("wrote %s", args.keep)
        return 0
    args.out.write_bytes(model())
    LOGGER.info("wrote %s (%d bytes)", args.out, args.out.stat().st_size)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
