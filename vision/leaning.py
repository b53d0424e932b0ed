"""Which squares a tall piece's picture covers, and reading a square by its base.

Seen from a camera at height ``h`` over the board (in squares, from the
board's corners: :meth:`vision.geometry.BoardGeometry.camera_position`), a
horizontal circle of radius ``r`` at height ``z`` over the point ``c`` lands
in the top-down warp on the circle of radius ``r k`` round ``C + (c - C) k``,
``k = h / (h - z)``, where ``C`` is the camera's ground point: the warp maps
each pixel along its ray down to the board. A piece up to ``top_height``
squares tall and ``top_radius`` wide therefore covers, in the warp, the union
of those circles for ``z`` from 0 to its height: its silhouette, which reaches
away from the camera, over the squares behind it.

Every square's *footprint* is the disc where a piece's base meets the board
(``foot_radius`` round its centre). A square a nearer piece's silhouette
reaches is decided by the part of its footprint that silhouette leaves
uncovered: the top of the piece in front lies on the covered part, the base
of a piece standing there fills the uncovered part too. Squares are settled
from the camera outwards, so every piece in front is decided before the
squares behind it.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from vision.config import VisionConfig

LOGGER = logging.getLogger(__name__)

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]

HEIGHT_STEPS = 16  # circles a silhouette is made of


@dataclasses.dataclass(frozen=True, eq=False)
class LeanTable:
    """For one camera pose: every square's footprint and what covers it."""

    footprint: IntArray  # (64, f) pixel indices of each square's probes in the cut board
    hidden: BoolArray  # (64, 64, f) [a, b, p]: a tall piece on a, nearer the camera than b,
    # covers b's probe p
    reaches: BoolArray  # (64, 64) [a, b]: a's silhouette covers some of b's probes
    order: IntArray  # (64,) squares from the nearest to the camera to the farthest
    inside: BoolArray  # (64, f) which probe points lie on the board


def silhouette(camera: tuple[float, float, float], centre: tuple[float, float],
               height: float, radius: float) -> tuple[FloatArray, FloatArray]:
    """The circles (centres (HEIGHT_STEPS, 2), radii (HEIGHT_STEPS,)), in board
    squares, that a cylinder ``height`` tall and ``radius`` wide standing on
    ``centre`` covers in the top-down warp seen from ``camera`` (x, y, height)."""
    cam_x, cam_y, cam_h = camera
    zs = np.linspace(0.0, min(height, 0.9 * cam_h), HEIGHT_STEPS)
    k = cam_h / (cam_h - zs)
    ground = np.array([cam_x, cam_y])
    centres = ground[None, :] + (np.array(centre)[None, :] - ground[None, :]) * k[:, None]
    return centres.astype(np.float32), (radius * k).astype(np.float32)


_PATTERN = np.array([(0.0, 0.0)] + [(0.5 * np.cos(t), 0.5 * np.sin(t))
                                      for t in np.linspace(0, 2 * np.pi, 6, endpoint=False)]
                    + [(np.cos(t), np.sin(t))
                       for t in np.linspace(0, 2 * np.pi, 8, endpoint=False)], np.float32)


def _probes(config: VisionConfig, camera: tuple[float, float, float]) -> FloatArray:
    """(64, p, 2): each square's probe points, in squares: its footprint (a
    grid of pixels within foot_radius of its centre) and the column a short
    piece (foot_probe_height squares) standing there would show."""
    s = config.warp.square_px
    r = config.lean.foot_radius * s
    rr = int(np.ceil(r))
    ys, xs = np.mgrid[-rr:rr + 1, -rr:rr + 1]
    keep = xs * xs + ys * ys <= r * r
    disc = np.stack([xs[keep], ys[keep]], axis=1).astype(np.float32) / s
    out = []
    for row in range(8):
        for col in range(8):
            centre = (col + 0.5, row + 0.5)
            circles, radii = silhouette(camera, centre, config.lean.foot_probe_height,
                                        config.lean.foot_probe_radius)
            column = (circles[1::2, None, :] + radii[1::2, None, None] * _PATTERN[None, :, :])
            out.append(np.concatenate([np.array(centre, np.float32) + disc,
                                       column.reshape(-1, 2)]))
    return np.asarray(np.stack(out), np.float32)


def lean_table(config: VisionConfig, camera: tuple[float, float, float],
               crop: int) -> LeanTable:
    """The probes and silhouettes of one board pose (pixels of the cut
    board: 2 of border, then ``config.warp.square_px`` a square)."""
    s = config.warp.square_px
    points = _probes(config, camera)
    inside = np.asarray(((points >= 0.0) & (points <= 8.0)).all(axis=2))
    px = np.clip(np.round(points[..., 0] * s + 2).astype(np.intp), 0, crop - 1)
    py = np.clip(np.round(points[..., 1] * s + 2).astype(np.intp), 0, crop - 1)
    # A point q lies in the circle at height z of a piece on a when
    # |(q - C) / k + C - centre(a)| <= radius (the circle is the base circle
    # scaled by k about C): for each height, which square's centre (if any, the
    # radius being under half a square) lies that near the point moved back.
    hidden = np.zeros((64, 64 * points.shape[1]), bool)
    flat = points.reshape(-1, 2).astype(np.float64)
    ground = np.array(camera[:2])
    column = np.arange(len(flat))
    cam_h = camera[2]
    for z in np.linspace(0.0, min(config.lean.top_height_squares, 0.9 * cam_h), HEIGHT_STEPS):
        k = cam_h / (cam_h - z)
        back = (flat - ground) / k + ground
        cell = np.floor(back).astype(np.intp)
        on_board = ((cell >= 0) & (cell < 8)).all(axis=1)
        near = on_board & (np.square(back - cell - 0.5).sum(axis=1)
                           <= config.lean.top_radius_squares ** 2)
        hidden[cell[near, 1] * 8 + cell[near, 0], column[near]] = True
    hidden = hidden.reshape(64, 64, points.shape[1])
    centres = np.array([(col + 0.5, row + 0.5) for row in range(8) for col in range(8)])
    distance = np.hypot(centres[:, 0] - camera[0], centres[:, 1] - camera[1])
    # Only a piece nearer the camera stands in front of a square (a square's
    # probe column leans over the square behind it, whose piece it hides).
    hidden[distance[:, None] >= distance[None, :]] = False
    reaches = np.asarray(hidden.any(axis=2))
    return LeanTable((py * crop + px).astype(np.intp), hidden, reaches,
                     np.argsort(distance, kind="stable").astype(np.intp), inside)


def settle_by_base(config: VisionConfig, table: LeanTable, occupied: BoolArray,
                   unlike: BoolArray | None, logit: FloatArray, hidden_logit: float,
                   colours: Callable[[], Sequence[str]] | None = None) -> BoolArray:
    """Stage: ``occupied`` (64,) less the squares whose only evidence lies
    under a nearer piece's silhouette.

    ``unlike`` (64, f) says which footprint pixels differ from the empty board.
    Going from the camera outwards, an occupied square that the silhouettes
    of the occupied squares in front reach is settled by what they leave of
    its footprint:

    - at least ``foot_max_visible`` of it in the open: kept. The silhouettes
      in front cover too little of it to have made its reading; there the
      base test would only judge the colour of the square's own base, which
      a pale piece on a pale square hardly changes.
    - from ``foot_min_visible`` to ``foot_max_visible`` in the open: empty
      when less than ``foot_piece_fraction`` of that part differs from the
      board.
    - less (or no ``unlike``): empty when its score is below ``hidden_logit``,
      unless ``colours`` (the reading's labels before this stage, asked for
      once, when first needed) gives it a colour none of the pieces in front
      has: a top shows its own piece's colour.
    """
    out = occupied.copy()
    size = table.footprint.shape[1]
    labels: Sequence[str] | None = None
    for b in table.order:
        if not out[b]:
            continue
        front = out & table.reaches[:, b]
        if not front.any():
            continue
        visible = ~table.hidden[front, b].any(axis=0) & table.inside[b]
        count = int(visible.sum())
        if count < config.lean.foot_min_visible * size or unlike is None:
            if logit[b] >= hidden_logit:
                continue
            if colours is not None:
                labels = colours() if labels is None else labels
                if all(labels[int(a)] != labels[int(b)] for a in np.flatnonzero(front)):
                    LOGGER.debug("square %d: hidden, but unlike the pieces in front", b)
                    continue
            LOGGER.debug("square %d: hidden behind a nearer piece (logit %.2f)", b, logit[b])
            out[b] = False
            continue
        if count >= config.lean.foot_max_visible * size:
            continue
        seen = float(unlike[b][visible].mean())
        if seen < config.lean.foot_piece_fraction:
            LOGGER.debug("square %d: only a nearer piece's top (%.2f of its base)", b, seen)
            out[b] = False
    return np.asarray(out)


def fuse_by_base(table: LeanTable, net_log_odds: FloatArray, change_logit: FloatArray,
                 weight: float, hidden_bias: float = 0.0) -> tuple[BoolArray, FloatArray]:
    """Stage (with a reference): occupancy (64,) and its log-odds, the square
    network's log-odds of a piece plus ``weight`` times the reference's
    change logit, the latter scaled by the share of the square's footprint
    that the silhouettes of the nearer occupied squares leave uncovered.

    The reference shows that something changed on a square, not whether it
    is a piece's base or the top of a piece in front leaning over it; the
    network, which sees each square's tile turned along its lean, tells those
    apart, but sees a piece only as unlike the empty colour. Where nothing nearer can
    cover the square both count; where a nearer piece's top covers all of its
    footprint only the network does, less ``hidden_bias`` times the covered
    share: an undecided network alone does not put a piece where a nearer
    piece's top is all there is to see. Squares are decided from the camera
    outwards, so every piece in front is known before the squares behind it.
    """
    occupied = np.zeros(64, bool)
    fused = np.zeros(64, np.float32)
    for b in table.order:
        share = 1.0 - covered_share(table, occupied, b)
        fused[b] = (net_log_odds[b] + weight * share * change_logit[b]
                    - hidden_bias * (1.0 - share))
        occupied[b] = fused[b] > 0.0
    return np.asarray(occupied), fused


def covered_share(table: LeanTable, occupied: BoolArray, square: int) -> float:
    """The share of ``square``'s footprint that the silhouettes of the
    ``occupied`` squares in front of it cover (0 when none reaches it)."""
    front = occupied & table.reaches[:, square]
    if not front.any():
        return 0.0
    covered = table.hidden[front, square].any(axis=0) & table.inside[square]
    return float(covered.sum()) / float(max(int(table.inside[square].sum()), 1))


def hold_hidden(table: LeanTable, labels: str, log_odds: FloatArray, held: str,
                share: float, margin: float) -> str:
    """Stage (a game's frames, with a reference): ``labels`` (64, row-major from
    a8) with every square that the occupied squares in front cover for at least
    ``share`` of its footprint, and whose ``log_odds`` of a piece lie within
    ``margin`` of 0, given its label in ``held`` (the board when it last came to
    rest). The top of a piece just put down in front covers such a square, and
    what the camera sees there flickers around the threshold; a change there is
    taken only when the evidence is clear. Squares are decided from the camera
    outwards, so a held square hides the squares behind it as it is held."""
    out = list(labels)
    occupied = np.zeros(64, bool)
    for b in table.order:
        if (abs(float(log_odds[b])) < margin
                and covered_share(table, occupied, b) >= share):
            out[b] = held[b]
        occupied[b] = out[b] != "."
    return "".join(out)


def lower_under_tops(table: LeanTable, classes: IntArray, log_odds: FloatArray,
                     bias: float) -> tuple[IntArray, FloatArray]:
    """Stage (a photo read without a reference): ``classes`` (64,: 0 empty, else a
    piece's class) and ``log_odds`` (64,, above 0 exactly where a piece is read)
    with every piece's log-odds lowered by ``bias`` times the share of its
    footprint that the silhouettes of the nearer pieces of its own class cover,
    and read empty where that takes them to 0 or below.

    From a low camera the top of a tall piece lands on the square behind it, and
    the network, sure of the piece in front, is often half sure of one there too.
    A top shows its own piece's colour: a square read in the other colour than
    every piece in front of it is not lowered. Squares are decided from the
    camera outwards, so a square read empty here hides nothing behind it."""
    out_classes = np.array(classes, np.intp)
    out_odds = np.array(log_odds, np.float32)
    for b in table.order:
        own = out_classes[b]
        if own == 0:
            continue
        front = (out_classes == own) & table.reaches[:, b]
        if not front.any():
            continue
        share = covered_share(table, front, b)
        out_odds[b] -= np.float32(bias * share)
        if out_odds[b] <= 0.0:
            LOGGER.debug("square %d: a nearer piece's top (share %.2f)", b, share)
            out_classes[b] = 0
    return out_classes, out_odds
