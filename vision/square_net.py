"""A small learned square classifier, shipped as ONNX and run by OpenCV's dnn module.

Every square is cut out of the top-down warp as a tile turned so that the
direction away from the camera points up: the square's base sits low in the
tile, and the region above it is where a piece's own body and top lean (and
where the tops of the pieces in front of it do not). Tiles are sampled from
the warp's Lab values with precomputed maps (one ``cv2.remap`` a frame), less
the empty colour of the square's own colour at that place (the board's light
and dark square models, so uneven light cancels), and scaled. The network
(``occupancy.onnx`` for a game's frames, ``occupancy_photo.onnx`` and
``occupancy_photo_seed1.onnx`` for photos: ``VisionConfig.nets.game_nets`` and
``photo_nets``, trained by ``python -m lab.train_occupancy``; two small
convolutions and a dense layer, see :mod:`lab.tile_conv`) maps a tile to
four logits: empty, white, black, blue. Photos are read by a third beside those
two, ``occupancy_photo_imagenet.onnx``: EfficientNet-Lite0's first blocks, pretrained on
ImageNet, under a classifier fitted on their features (:mod:`lab.pretrained`,
``python -m lab.train_pretrained``). It takes rows of the same tiles sampled four
times as finely (48 pixels a square, 120 by 72: :func:`tile_maps`' ``scale``); a
network's scale is read from its file's input (:func:`input_width`), and the reader
gives each network the rows it asks for.

Only OpenCV and numpy are needed at run time; training needs the ``train``
extra (the ``onnx`` package, to write the file).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import math
import os
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision import models
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

    map_x: FloatArray  # (64 * TILE_H, TILE_W), times the scale (tile_shape)
    map_y: FloatArray


def tile_shape(scale: int = 1) -> tuple[int, int]:
    """A tile's pixels (high, wide) sampled ``scale`` times as finely as the
    square networks' (the same part of the board, TILE_PX * scale pixels a square)."""
    return TILE_H * scale, TILE_W * scale


def row_scale(width: int) -> int:
    """The tile scale of input rows ``width`` values long (:func:`square_inputs`)."""
    scale = round(math.sqrt((width - 3) / TILE_VALUES))
    if scale < 1 or TILE_VALUES * scale * scale + 3 != width:
        raise SquareNetError(f"rows of {width} values are no tiles")
    return scale


def tile_maps(config: VisionConfig, geometry: BoardGeometry, scale: int = 1) -> TileMaps:
    """The tiles' sampling maps for one board pose (cut-board pixels: 2 of
    border, then ``config.warp.square_px`` a square), ``scale`` times as fine as the
    square networks' tiles (:func:`tile_shape`)."""
    s = config.warp.square_px
    cam_x, cam_y, _ = geometry.camera_position()
    high, wide = tile_shape(scale)
    across = (np.arange(wide, dtype=np.float64) - (wide - 1) / 2) / (TILE_PX * scale)
    # each finer pixel centred where it falls in the square networks' pixel it splits
    up = -BELOW + (high - 1 - np.arange(high, dtype=np.float64) - (scale - 1) / 2) / (
        TILE_PX * scale)
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


def moved_maps(maps: TileMaps, dx: float, dy: float, square_px: int) -> TileMaps:
    """The same tiles cut ``dx`` squares further along the files (right in the warp)
    and ``dy`` along the ranks (down), in a warp of ``square_px`` pixels a square."""
    return TileMaps(np.asarray(maps.map_x + np.float32(dx * square_px), np.float32),
                    np.asarray(maps.map_y + np.float32(dy * square_px), np.float32))


def square_inputs(maps: TileMaps, lab_board: FloatArray, own: FloatArray,
                  which: npt.NDArray[np.intp] | None = None) -> FloatArray:
    """The network's input rows (64 or len(which), INPUTS): each square's tile
    of the cut board's Lab (``lab_board`` (side, side, 3)) less ``own`` (64, 3),
    the empty colour of the square's own colour there, then that colour.
    ``which`` limits the rows to those squares."""
    map_x, map_y = maps.map_x, maps.map_y
    high, wide = len(map_x) // 64, map_x.shape[1]
    if which is not None:
        map_x = map_x.reshape(64, high, wide)[which].reshape(-1, wide)
        map_y = map_y.reshape(64, high, wide)[which].reshape(-1, wide)
        own = own[which]
    n = len(own)
    tiles = cv2.remap(lab_board, map_x, map_y, cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_REPLICATE)
    tiles = tiles.reshape(n, high * wide, 3) - own[:, None, :]
    rows = np.concatenate([(tiles / LAB_SCALE).reshape(n, -1), own / 100.0], axis=1)
    return np.asarray(rows, np.float32)


def mirrored(rows: FloatArray) -> FloatArray:
    """The input rows with their tiles mirrored across the lean (left and right
    swapped): a board seen in a mirror is a board too, so the network is trained
    on both, and a photo read without a reference is read both ways. Rows of
    finer tiles (:func:`tile_maps`' ``scale``) too."""
    n, width = rows.shape
    high, wide = tile_shape(row_scale(width))
    values = high * wide * 3
    tiles = rows[:, :values].reshape(n, high, wide, 3)[:, :, ::-1]
    return np.asarray(np.concatenate([tiles.reshape(n, -1), rows[:, values:]],
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


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """A protobuf varint at ``at``: its value and where the next field starts."""
    value, shift = 0, 0
    while True:
        if at >= len(data):
            raise SquareNetError("the network file ends inside a number")
        byte = data[at]
        value |= (byte & 0x7F) << shift
        at, shift = at + 1, shift + 7
        if not byte & 0x80:
            return value, at


def _fields(data: bytes) -> list[tuple[int, int | bytes]]:
    """A protobuf message's fields in order: (number, a varint's value or a
    length-delimited field's bytes); fixed-width fields are skipped."""
    out: list[tuple[int, int | bytes]] = []
    at = 0
    while at < len(data):
        key, at = _varint(data, at)
        number, kind = key >> 3, key & 7
        if kind == 0:
            value, at = _varint(data, at)
            out.append((number, value))
        elif kind == 2:
            size, at = _varint(data, at)
            if at + size > len(data):
                raise SquareNetError("the network file ends inside a field")
            out.append((number, data[at:at + size]))
            at += size
        elif kind in (1, 5):
            at += 8 if kind == 1 else 4
        else:
            raise SquareNetError(f"the network file has a field of unknown kind {kind}")
    return out


def _first(data: bytes, number: int) -> bytes:
    """The first length-delimited field ``number`` of a message."""
    for field, value in _fields(data):
        if field == number and isinstance(value, bytes):
            return value
    raise SquareNetError(f"the network file has no field {number} where one belongs")


def input_width(data: bytes) -> int:
    """The length of the input rows an ONNX file (``data``) takes: the last
    dimension of its graph's first input (ModelProto.graph 7, GraphProto.input
    11, ValueInfoProto.type 2, TypeProto.tensor_type 1, its shape 2, the dims 1,
    each a dim_value 1 or a named dim_param 2), read without the onnx package."""
    tensor = _first(_first(_first(_first(data, 7), 11), 2), 1)
    dims = [_fields(dim) for number, dim in _fields(_first(tensor, 2))
            if number == 1 and isinstance(dim, bytes)]
    last = [value for number, value in dims[-1] if number == 1] if dims else []
    if not last or not isinstance(last[0], int):
        raise SquareNetError("the network's input rows have no fixed length")
    return last[0]


class SquareNet:
    """The ONNX network read by ``cv2.dnn``: tiles -> logits (n, 4). ``scale``: how
    much finer than the square networks' its tiles are (:func:`tile_maps`; 1 for
    all but a network that reads sharper tiles)."""

    def __init__(self, data: bytes) -> None:
        try:
            self._net = cv2.dnn.readNetFromONNX(np.frombuffer(data, np.uint8))
        except cv2.error as error:
            raise SquareNetError(f"cannot read the square network: {error}") from error
        self.scale = row_scale(input_width(data))

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
    ``python -m lab.train_occupancy --leave-out BOARD --keep PATH``, to read
    with the whole reader). Cached by name: a file written again under the same
    path is not read again in the same process."""
    try:
        path = os.sep in name or "/" in name
        data = Path(name).read_bytes() if path else models.read_bytes(name)
    except (OSError, models.ModelFileError) as error:
        raise SquareNetError(f"no square network {name!r}") from error
    return SquareNet(data)
