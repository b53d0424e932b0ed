"""A small learned square classifier, shipped as ONNX and run by OpenCV's dnn module.

Every square is cut out of the top-down warp as a tile turned so that the
direction away from the camera points up: the square's base sits low in the
tile, and the region above it is where a piece's own body and top lean (and
where the tops of the pieces in front of it do not). Tiles are sampled from
the warp's Lab values with precomputed maps (one ``cv2.remap`` a frame), less
the empty colour of the square's own colour at that place (the board's light
and dark square models, so uneven light cancels), and scaled. The network
(``occupancy.onnx`` for a game's frames, ``occupancy_photo.onnx`` and
``occupancy_photo_seed1.onnx`` for photos: ``VisionConfig.game_nets`` and
``photo_nets``, trained by ``python -m vision.train_occupancy``; two small
convolutions and a dense layer, see :mod:`vision.tile_conv`) maps a tile to
four logits: empty, white, black, blue. Photos are read by a third beside those
two, ``occupancy_photo_imagenet.onnx``, which takes the same rows: EfficientNet-Lite0's
first blocks, pretrained on ImageNet, under a classifier fitted on their features
(:mod:`vision.pretrained`, ``python -m vision.train_pretrained``).

Only OpenCV and numpy are needed at run time; training needs the ``train``
extra (the ``onnx`` package, to write the file).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import math
import os
from importlib import resources
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.config import VisionConfig
from vision.geometry import BoardGeometry

LOGGER = logging.getLogger(__name__)

FloatArray = npt.NDArray[np.float32]

NET_FILE = "occupancy.onnx"
TILE_PX = 12  # tile pixels a square
TILE_W = 18  # 1.5 squares across the lean
TILE_H = 30  # 0.75 squares below the centre (towards the camera), 1.75 above
BELOW = 0.75
LAB_SCALE = np.array([50.0, 25.0, 25.0], np.float32)
CLASSES = ".wbu"  # empty, white, black, blue: the network's outputs in order
TILE_VALUES = TILE_H * TILE_W * 3  # the tile's share of an input row
INPUTS = TILE_VALUES + 3


class SquareNetError(ValueError):
    """The shipped network is missing or does not fit the tiles."""


@dataclasses.dataclass(frozen=True, eq=False)
class TileMaps:
    """Where every tile pixel comes from in the cut board (the maps of cv2.remap)."""

    map_x: FloatArray  # (64 * TILE_H, TILE_W)
    map_y: FloatArray


def tile_maps(config: VisionConfig, geometry: BoardGeometry) -> TileMaps:
    """The tiles' sampling maps for one board pose (cut-board pixels: 2 of
    border, then ``config.square_px`` a square)."""
    s = config.square_px
    cam_x, cam_y, _ = geometry.camera_position()
    across = (np.arange(TILE_W, dtype=np.float64) - (TILE_W - 1) / 2) / TILE_PX
    up = -BELOW + (TILE_H - 1 - np.arange(TILE_H, dtype=np.float64)) / TILE_PX
    xs, ys = [], []
    for row in range(8):
        for col in range(8):
            cx, cy = col + 0.5, row + 0.5
            away = np.array([cx - cam_x, cy - cam_y])
            length = math.hypot(*away)
            away = away / length if length > 0.05 else np.array([0.0, -1.0])
            side = np.array([-away[1], away[0]])
            px = cx + up[:, None] * away[0] + across[None, :] * side[0]
            py = cy + up[:, None] * away[1] + across[None, :] * side[1]
            xs.append(px * s + 2)
            ys.append(py * s + 2)
    return TileMaps(np.vstack(xs).astype(np.float32), np.vstack(ys).astype(np.float32))


def square_inputs(maps: TileMaps, lab_board: FloatArray, own: FloatArray,
                  which: npt.NDArray[np.intp] | None = None) -> FloatArray:
    """The network's input rows (64 or len(which), INPUTS): each square's tile
    of the cut board's Lab (``lab_board`` (side, side, 3)) less ``own`` (64, 3),
    the empty colour of the square's own colour there, then that colour.
    ``which`` limits the rows to those squares."""
    map_x, map_y = maps.map_x, maps.map_y
    if which is not None:
        map_x = map_x.reshape(64, TILE_H, TILE_W)[which].reshape(-1, TILE_W)
        map_y = map_y.reshape(64, TILE_H, TILE_W)[which].reshape(-1, TILE_W)
        own = own[which]
    n = len(own)
    tiles = cv2.remap(lab_board, map_x, map_y, cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_REPLICATE)
    tiles = tiles.reshape(n, TILE_H * TILE_W, 3) - own[:, None, :]
    rows = np.concatenate([(tiles / LAB_SCALE).reshape(n, -1), own / 100.0], axis=1)
    return np.asarray(rows, np.float32)


def mirrored(rows: FloatArray) -> FloatArray:
    """The input rows with their tiles mirrored across the lean (left and right
    swapped): a board seen in a mirror is a board too, so the network is trained
    on both, and a photo read without a reference is read both ways."""
    n = len(rows)
    tiles = rows[:, :TILE_VALUES].reshape(n, TILE_H, TILE_W, 3)[:, :, ::-1]
    return np.asarray(np.concatenate([tiles.reshape(n, -1), rows[:, TILE_VALUES:]],
                                     axis=1), np.float32)


def _footprint() -> npt.NDArray[np.bool_]:
    """The tile pixels (TILE_H, TILE_W) on the square's own footprint, the middle of
    the square where a piece's base stands (not its edges, where a neighbour's
    colour can show)."""
    up = -BELOW + (TILE_H - 1 - np.arange(TILE_H)) / TILE_PX
    across = (np.arange(TILE_W) - (TILE_W - 1) / 2) / TILE_PX
    return np.asarray((np.abs(up)[:, None] < 0.45) & (np.abs(across)[None, :] < 0.3))


FOOTPRINT = _footprint()
CHANGED = 12.0  # Lab units from the empty colour: a pixel of something on the square
FEWEST_CHANGED = 8  # changed footprint pixels below which a square has no lightness


def tile_lightness(rows: FloatArray) -> FloatArray:
    """Per input row: the median lightness (Lab L, 0 to 100) of the footprint's
    pixels that differ from the square's empty colour by more than ``CHANGED``,
    the piece's own colour as the camera sees it, not against its square's;
    NaN where fewer than ``FEWEST_CHANGED`` pixels differ."""
    n = len(rows)
    tiles = rows[:, :TILE_VALUES].reshape(n, TILE_H, TILE_W, 3) * LAB_SCALE
    lightness = tiles[..., 0] + rows[:, TILE_VALUES, None, None] * 100.0
    changed = (np.linalg.norm(tiles, axis=3) > CHANGED) & FOOTPRINT
    out = np.full(n, np.nan, np.float32)
    for q in np.flatnonzero(changed.sum(axis=(1, 2)) >= FEWEST_CHANGED):
        out[q] = np.median(lightness[q][changed[q]])
    return out


def luminance(lightness: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Relative luminance (0 to 1) of Lab lightness L (0 to 100; the cube above
    the CIE's linear toe, which no piece or square reaches)."""
    return np.asarray(((np.asarray(lightness, np.float64) + 16.0) / 116.0) ** 3)


def relative_lightness(lightness: FloatArray, light_squares: FloatArray) -> FloatArray:
    """Per square: the log of a piece's luminance (its ``lightness``, Lab L, from
    :func:`tile_lightness`) over the light squares' (their model's L there,
    ``light_squares``): what the piece reflects against the board's light squares,
    whatever the light falling on that part of the board. NaN stays NaN."""
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.log(luminance(lightness)) - np.log(np.maximum(luminance(light_squares), 1e-6))
    return np.asarray(out, np.float32)


def piece_log_odds(logits: FloatArray) -> FloatArray:
    """Per row of square-network logits: log P(a piece) - log P(empty)."""
    top = logits[:, 1:].max(axis=1)
    piece = top + np.log(np.exp(logits[:, 1:] - top[:, None]).sum(axis=1))
    return np.asarray(piece - logits[:, 0], np.float32)


class SquareNet:
    """The ONNX network read by ``cv2.dnn``: tiles -> logits (n, 4)."""

    def __init__(self, data: bytes) -> None:
        try:
            self._net = cv2.dnn.readNetFromONNX(np.frombuffer(data, np.uint8))
        except cv2.error as error:
            raise SquareNetError(f"cannot read the square network: {error}") from error

    def logits(self, rows: FloatArray) -> FloatArray:
        self._net.setInput(np.ascontiguousarray(rows, np.float32))
        out = np.asarray(self._net.forward(), np.float32)
        if out.shape != (len(rows), len(CLASSES)):
            raise SquareNetError(f"the square network gave {out.shape}")
        return out


@functools.cache
def load_net(name: str = NET_FILE) -> SquareNet:
    """A network, loaded once: a shipped one by its file name (``occupancy.onnx``),
    or any ONNX file by its path (a name with a directory in it: a fit kept by
    ``python -m vision.train_occupancy --leave-out BOARD --keep PATH``, to read
    with the whole reader). Cached by name: a file written again under the same
    path is not read again in the same process."""
    try:
        if os.sep in name or "/" in name:
            data = Path(name).read_bytes()
        else:
            data = resources.files("vision").joinpath(name).read_bytes()
    except OSError as error:
        raise SquareNetError(f"no square network {name!r}") from error
    return SquareNet(data)
