"""Reading squares by the learned square networks (:mod:`vision.square_net`): the tiles of
a warp read as without a reference (:class:`BoardTiles`), the networks' mean logits over
them (:func:`logits_of`: each tile mirrored, finer tiles for a network that asks for them,
moved cuts), and a photo's whole reading without a reference (:func:`read_by_net`)."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable

import numpy as np

from vision.config import VisionConfig
from vision.geometry import Image
from vision.leaning import lower_under_tops
from vision.light import exposed_board
from vision.photo_split import colours_unsure, split_labels
from vision.sampling import SquareSampler, to_lab
from vision.square_net import (
    CLASSES,
    NET_FILE,
    SquareNetError,
    load_net,
    mirrored,
    moved_maps,
    piece_log_odds,
    relative_lightness,
    square_inputs,
    tile_lightness,
)
from vision.square_reading import FloatArray, IntArray, SquareReading

LOGGER = logging.getLogger(__name__)

@dataclasses.dataclass(frozen=True, eq=False)
class BoardTiles:
    """What the square networks' tiles are cut from, read as without a reference:
    the cut board's Lab, each square's empty colour there, and the light squares'
    model lightness (Lab L) at every square (the light on each part of the board)."""

    sampler: SquareSampler
    lab: FloatArray  # (side, side, 3)
    own: FloatArray  # (64, 3)
    light: FloatArray  # (64,)

    def rows(self, scale: int = 1, which: IntArray | None = None) -> FloatArray:
        """The input rows of tiles ``scale`` times as fine (1: the square networks')."""
        return square_inputs(self.sampler.tiles_at(scale), self.lab, self.own, which)

    def moved_rows(self, dx: float, dy: float) -> FloatArray:
        """The square networks' input rows of every tile cut ``dx`` squares further
        along the files and ``dy`` along the ranks."""
        maps = moved_maps(self.sampler.tiles, dx, dy, self.sampler.config.warp.square_px)
        return square_inputs(maps, self.lab, self.own)


def board_tiles(config: VisionConfig, sampler: SquareSampler, warped: Image,
                lab: FloatArray | None = None) -> BoardTiles:
    """A warp's :class:`BoardTiles`; ``lab``, if given, is the cut board's Lab
    (to_lab), already measured."""
    board = sampler.cut(warped)
    _board, lab, (light, dark) = exposed_board(config, sampler, board,
                                               to_lab(board) if lab is None else lab)
    own = np.where(sampler.light[:, None], light, dark).astype(np.float32)
    side = sampler.crop
    return BoardTiles(sampler, lab.reshape(side, side, 3), own,
                      np.asarray(light[:, 0], np.float32))


def net_rows(config: VisionConfig, sampler: SquareSampler, warped: Image,
             which: IntArray | None = None, lab: FloatArray | None = None) -> FloatArray:
    """The square network's input rows (vision.square_net.square_inputs) of a warp,
    read as without a reference (the board's own square colours are the
    baseline). ``lab``, if given, is the cut board's Lab (to_lab), already
    measured."""
    return board_tiles(config, sampler, warped, lab).rows(1, which)


def net_logits(config: VisionConfig, sampler: SquareSampler, warped: Image,
               which: IntArray | None = None, lab: FloatArray | None = None,
               mirror_average: bool = False) -> FloatArray:
    """The square network's logits (64 or len(which), 4: empty, white, black,
    blue; see vision.square_net) of a warp, read as without a reference (the
    board's own square colours are the baseline). ``lab``, if given, is the
    cut board's Lab (to_lab), already measured. With ``mirror_average``, the
    mean of the logits of each tile and of its mirror image."""
    return logits_of(net_rows(config, sampler, warped, which, lab), mirror_average)


def shift_steps(shift: float) -> tuple[tuple[float, float], ...]:
    """The four moves (squares along the files, along the ranks) of a tile read again
    ``shift`` squares away along each of the board's axes, both ways."""
    return ((shift, 0.0), (-shift, 0.0), (0.0, shift), (0.0, -shift))


def logits_of(rows: FloatArray, mirror_average: bool,
              nets: tuple[str, ...] = (NET_FILE,),
              finer: Callable[[int], FloatArray] | None = None,
              weights: tuple[float, ...] = (),
              moved: Callable[[float, float], FloatArray] | None = None,
              shifted: tuple[str, ...] = (), shift: float = 0.0) -> FloatArray:
    """The mean logits of input rows over the shipped networks ``nets``, each
    weighing its share of ``weights`` (empty: the same); with
    ``mirror_average``, over each tile and its mirror image too. A network that
    reads finer tiles (``SquareNet.scale`` above 1) reads ``finer(scale)``, the
    same squares' rows at that scale. With ``shift`` above 0, a network named in
    ``shifted`` reads each tile also cut ``shift`` squares away along each axis
    both ways (:func:`shift_steps`; ``moved(dx, dy)``, the rows so cut), its
    logits the mean of the five cuts."""
    raw = net_weights(nets, weights)
    total = np.zeros((len(rows), len(CLASSES)), np.float32)
    for name, weight in zip(nets, raw, strict=True):
        net = load_net(name)
        mine = rows if net.scale == 1 else _finer_rows(finer, net.scale, name)
        cuts = [mine]
        if shift > 0.0 and name in shifted:
            cuts += _moved_rows(moved, net.scale, shift, name)
        # a cut weighs its network's weight over the cuts; with one cut and a weight of
        # 1 the logits are added as they are, so equal weights read as before
        share = weight if len(cuts) == 1 else weight / len(cuts)
        for cut in cuts:
            for view in ((cut, mirrored(cut)) if mirror_average else (cut,)):
                logits = net.logits(view)
                total += logits if share == 1.0 else np.float32(share) * logits
    return np.asarray(total / (sum(raw) * (2 if mirror_average else 1)), np.float32)


def _moved_rows(moved: Callable[[float, float], FloatArray] | None, scale: int,
                shift: float, name: str) -> list[FloatArray]:
    """The rows of the four moved cuts (:func:`shift_steps`) the network ``name`` reads."""
    if moved is None or scale != 1:
        raise SquareNetError(f"the network {name} is to read tiles moved by {shift} "
                             "squares, and " + ("none were given" if moved is None else
                                                f"it reads tiles {scale} times as fine"))
    return [moved(dx, dy) for dx, dy in shift_steps(shift)]


def net_weights(nets: tuple[str, ...], weights: tuple[float, ...]) -> tuple[float, ...]:
    """Each network's weight in the mean: ``weights``, or 1 each where none are given."""
    if not weights:
        return tuple(1.0 for _ in nets)
    if len(weights) != len(nets) or min(weights) < 0 or sum(weights) <= 0:
        raise SquareNetError(f"{len(weights)} network weights {weights} for {len(nets)} "
                             "networks: give one non-negative weight each, not all 0")
    return weights


def _finer_rows(finer: Callable[[int], FloatArray] | None, scale: int, name: str
                ) -> FloatArray:
    """The rows of tiles ``scale`` times as fine that the network ``name`` reads."""
    if finer is None:
        raise SquareNetError(f"the network {name} reads tiles {scale} times as fine, "
                             "and none were given")
    return finer(scale)


def read_by_net(config: VisionConfig, sampler: SquareSampler, warped: Image) -> SquareReading:
    """Stage (without a reference, ``config.nets.board_reader == "net"``): every
    square's label is the square network's most likely class; with
    ``config.photo.photo_split`` a square holds a piece where its log-odds of one
    are above the photo's own occupancy threshold (0, or lower where its
    log-odds split) and a piece's colour is decided by where the photo's two
    armies split (vision.photo_split), with each piece's own lightness (with
    ``config.photo.split_lightness_relative``, against the light squares' where it stands).
    ``occupancy`` is the log-odds of a piece against an empty square, less
    that threshold. With ``config.nets.net_mirror_average`` the logits are the
    mean of each tile's and its mirror image's; with ``config.nets.photo_shift`` above 0
    (off as shipped) the networks in ``config.nets.photo_shifted_nets`` read each tile also
    moved that many squares each way along both axes (:func:`logits_of`). With
    ``config.photo.photo_top_bias`` each piece's log-odds are then lowered where nearer
    pieces of its colour cover its footprint (vision.leaning.lower_under_tops: the tops of the
    pieces in front, seen from this camera's pose)."""
    tiles = board_tiles(config, sampler, warped)
    rows, light_squares = tiles.rows(), tiles.light
    logits = logits_of(rows, config.nets.net_mirror_average, config.nets.photo_nets, tiles.rows,
                       config.nets.photo_net_weights,
                       tiles.moved_rows if config.nets.photo_shift > 0.0 else None,
                       config.nets.photo_shifted_nets, config.nets.photo_shift)
    if config.photo.photo_split:
        lightness = tile_lightness(rows)
        if config.photo.split_lightness_relative:
            lightness = relative_lightness(lightness, light_squares)
        classes, odds = split_labels(config, logits, lightness)
    else:
        classes, odds = logits.argmax(axis=1), piece_log_odds(logits)
    if config.photo.photo_top_bias > 0.0:
        classes, odds = lower_under_tops(sampler.lean, classes, odds, config.photo.photo_top_bias)
    labels = "".join(CLASSES[i] for i in classes)
    grid = tuple(labels[row * 8:(row + 1) * 8] for row in range(8))
    return SquareReading(grid, tuple(float(v) for v in odds),
                         colours_unsure(config, logits, classes))
