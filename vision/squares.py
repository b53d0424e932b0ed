"""Reading the 64 squares of a top-down board: empty, white, black or blue.

Each square is judged on a disc where a piece would stand on it (its base),
moved a little along the piece's lean away from the camera, so a tall piece
leaning in from the next square does not count. The disc is compared with
what the empty square looks like there: the warped empty-board reference
when there is one, otherwise a smooth model of the light and dark square
colours fitted robustly to the square borders (which copes with uneven
light). Shadows are tolerated by weighing "darker with the same colour" less.
With a reference, a change all round the ring where a piece's base meets the
board (its contact shadow, its outline) adds evidence for a piece, and so do
what only a reference shows: the board's colour or grain changed, a round
outline that was not there, a change no shadow explains.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import warnings
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.config import VisionConfig
from vision.geometry import BoardGeometry, Image
from vision.leaning import (
    LeanTable,
    fuse_by_base,
    lean_table,
    lower_under_tops,
    settle_by_base,
)
from vision.occupancy import board_model, reference_model
from vision.outline_vote import outline_vote
from vision.photo_split import colours_unsure, split_labels
from vision.square_net import (
    CLASSES,
    NET_FILE,
    SquareNetError,
    TileMaps,
    load_net,
    luminance,
    mirrored,
    moved_maps,
    piece_log_odds,
    relative_lightness,
    square_inputs,
    tile_lightness,
    tile_maps,
)

LOGGER = logging.getLogger(__name__)

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.intp]

EMPTY, WHITE, BLACK, BLUE = ".", "w", "b", "u"
COLOR_NAMES = {WHITE: "white", BLACK: "black", BLUE: "blue"}


@dataclasses.dataclass(frozen=True)
class SquareReading:
    """The reading of one frame: ``grid`` is 8 strings of 8 labels, rank 8 first."""

    grid: tuple[str, ...]
    # log-odds of a piece on every square (row-major from a8) against the reading's
    # threshold: above 0 it is read occupied, unless a later stage overrules it
    occupancy: tuple[float, ...]
    # read without a reference, the network sure of too few pieces of one army for
    # the photo's own colour split (vision.photo_split.colours_unsure)
    colours_unsure: bool = False

    def label(self, row: int, col: int) -> str:
        return self.grid[row][col]

    def unsure(self, margin: float) -> tuple[int, ...]:
        """The squares (row-major from a8) whose occupancy log-odds lie within
        ``margin`` of the threshold: read empty or occupied, but only just."""
        return tuple(i for i, odds in enumerate(self.occupancy) if abs(odds) < margin)


@dataclasses.dataclass(frozen=True, eq=False)
class SquareSampler:
    """Precomputed pixel indices (into a flattened warp) for one board geometry."""

    disc: IntArray  # (64, n) the sample disc of every square
    halves: FloatArray  # (64, n, 2) disc pixels on the far side (away from the camera) and
    # on the near side, over each side's size
    ring: IntArray  # (64, m) the border band of every square
    base: IntArray  # (64, k) a ring around the square centre where a piece's base edge is
    core: IntArray  # (64, c) a disc round the square centre, CORE_RADIUS wide
    core_halves: FloatArray  # (64, c, 2) its far and near pixels, over each half's size
    quarters: FloatArray  # (k, 4) base ring pixel in quarter q, over the quarter's size
    centres: FloatArray  # (64, 2) square centres in squares (x, y)
    light: npt.NDArray[np.bool_]  # (64,) which squares are light (a8 is light)
    covers: npt.NDArray[np.bool_]  # (64, 64) [a, b]: a tall piece on a leans over b's disc
    origin: int  # where the board crop starts in the warp (pixels, both axes)
    crop: int  # the crop's side
    lean: LeanTable  # every square's footprint and the silhouettes that cover it
    tiles: TileMaps  # where the square network's tiles are sampled
    config: VisionConfig  # what it was made with
    geometry: BoardGeometry
    finer: dict[int, TileMaps] = dataclasses.field(default_factory=dict)  # made when asked

    def cut(self, warped: Image) -> Image:
        """The part of a warp the indices refer to: the board and 2 pixels around it."""
        o, c = self.origin, self.crop
        return warped[o:o + c, o:o + c]

    def tiles_at(self, scale: int) -> TileMaps:
        """The tiles' maps ``scale`` times as fine (vision.square_net.tile_maps), made
        once for this pose when first asked for."""
        if scale == 1:
            return self.tiles
        if scale not in self.finer:
            self.finer[scale] = tile_maps(self.config, self.geometry, scale)
        return self.finer[scale]


def _offsets(radius_px: float) -> tuple[IntArray, IntArray]:
    r = math.ceil(radius_px)
    ys, xs = np.mgrid[-r:r + 1, -r:r + 1]
    keep = xs * xs + ys * ys <= radius_px * radius_px
    return ys[keep], xs[keep]


def _annulus(inner_px: float, outer_px: float) -> tuple[IntArray, IntArray]:
    r = math.ceil(outer_px)
    ys, xs = np.mgrid[-r:r + 1, -r:r + 1]
    d2 = xs * xs + ys * ys
    # Every other pixel (a checkerboard) is enough and takes half the time.
    keep = (d2 <= outer_px * outer_px) & (d2 >= inner_px * inner_px) & ((xs + ys) % 2 == 0)
    return ys[keep], xs[keep]


CORE_RADIUS = 0.35  # squares: where a piece's outline is, seen from above


def _halves(dy: IntArray, dx: IntArray, directions: FloatArray) -> FloatArray:
    """(64, n, 2): offsets (dy, dx) on the far and near side of each square's
    direction away from the camera, over each side's size."""
    far = dx[None, :] * directions[:, :1] + dy[None, :] * directions[:, 1:] >= 0
    halves = np.stack([far, ~far], axis=2).astype(np.float32)
    return np.asarray(halves / np.maximum(halves.sum(axis=1, keepdims=True), 1.0), np.float32)


def make_sampler(config: VisionConfig, geometry: BoardGeometry) -> SquareSampler:
    """Where to look on every square of a board seen with ``geometry``."""
    s = config.square_px
    m = config.margin_squares * s
    size = round((8 + 2 * config.margin_squares) * s)
    # Indices are into the board cropped out of the warp, 2 pixels beyond its edge.
    origin, crop = round(m) - 2, 8 * s + 4
    cam_x, cam_y, cam_h = geometry.camera_position()
    dy, dx = _offsets(config.sample_radius * s)
    band = max(1, round(0.12 * s))
    base_dy, base_dx = _annulus(config.base_ring[0] * s, config.base_ring[1] * s)
    quarter = (base_dx >= 0).astype(np.intp) + 2 * (base_dy >= 0)
    quarters = (quarter[:, None] == np.arange(4)[None, :]).astype(np.float32)
    quarters /= np.maximum(quarters.sum(axis=0), 1.0)
    bases = []
    discs, directions, rings, centres, light, leans = [], [], [], [], [], []
    for row in range(8):
        for col in range(8):
            cx, cy = col + 0.5, row + 0.5
            # Lean of a piece top, in squares, from the camera's ground point.
            hp = config.piece_height_squares
            lean = np.array([cx - cam_x, cy - cam_y]) * hp / max(cam_h - hp, 0.5)
            length = float(np.linalg.norm(lean))
            shift = lean / length * min(config.lean_shift, 0.5 * length) if length > 1e-6 \
                else np.zeros(2)
            px = m + (cx + shift[0]) * s
            py = m + (cy + shift[1]) * s
            ys = np.clip(np.round(py + dy).astype(np.intp), 0, size - 1)
            xs = np.clip(np.round(px + dx).astype(np.intp), 0, size - 1)
            discs.append((ys - origin) * crop + (xs - origin))
            by = np.clip(np.round(m + cy * s + base_dy).astype(np.intp), 0, size - 1)
            bx = np.clip(np.round(m + cx * s + base_dx).astype(np.intp), 0, size - 1)
            bases.append((by - origin) * crop + (bx - origin))
            directions.append(lean / length if length > 1e-6 else np.array([0.0, 1.0]))
            x0, y0 = int(m + col * s), int(m + row * s)
            inset = max(1, s // 16)
            yy, xx = np.mgrid[y0 + inset:y0 + s - inset, x0 + inset:x0 + s - inset]
            edge = ((yy < y0 + inset + band) | (yy >= y0 + s - inset - band)
                    | (xx < x0 + inset + band) | (xx >= x0 + s - inset - band))
            rings.append(((yy[edge] - origin) * crop + (xx[edge] - origin)).astype(np.intp))
            centres.append((cx, cy))
            leans.append(np.array([cx - cam_x, cy - cam_y]) / max(cam_h - 1.0, 0.5))
            light.append((row + col) % 2 == 0)
    away = np.array(directions, np.float32)
    # The core disc, in the cut board's pixels (2 of border, then s a square).
    core_dy, core_dx = _offsets(CORE_RADIUS * s)
    core_x = np.round(np.array(centres)[:, :1] * s + 2).astype(np.intp)
    core_y = np.round(np.array(centres)[:, 1:] * s + 2).astype(np.intp)
    core = (np.clip(core_y + core_dy, 0, crop - 1) * crop
            + np.clip(core_x + core_dx, 0, crop - 1))
    return SquareSampler(np.stack(discs), _halves(dy, dx, away), np.stack(rings),
                         np.stack(bases), core.astype(np.intp), _halves(core_dy, core_dx, away),
                         quarters,
                         np.array(centres, np.float32), np.array(light),
                         _covers(config, np.array(centres), np.array(leans)), origin, crop,
                         lean_table(config, (cam_x, cam_y, cam_h), crop),
                         tile_maps(config, geometry), config, geometry)


def _covers(config: VisionConfig, centres: FloatArray, leans: FloatArray
            ) -> npt.NDArray[np.bool_]:
    """(64, 64): whether a piece on square a, up to tall_piece_squares high,
    leans (seen from this camera, ``leans`` per square of height) towards
    square b far enough to cover its sample disc."""
    offset = centres[None, :, :] - centres[:, None, :]  # [a, b]: from a to b, in squares
    distance = np.hypot(offset[..., 0], offset[..., 1])
    lean = leans * config.tall_piece_squares
    reach = np.hypot(lean[:, 0], lean[:, 1])[:, None]
    along = (offset * lean[:, None, :]).sum(axis=2) / np.maximum(reach, 1e-9)
    covers = ((distance <= 1.5) & (reach >= 1e-6) & (along >= 0.7 * distance)
              & (reach >= distance - config.sample_radius))
    np.fill_diagonal(covers, False)
    return np.asarray(covers)


def to_lab(warped: Image) -> FloatArray:
    """Float Lab (L 0..100) of a BGR warp, flattened to (pixels, 3)."""
    lab = cv2.cvtColor(warped.astype(np.float32) * (1 / 255), cv2.COLOR_BGR2Lab)
    return np.asarray(lab.reshape(-1, 3), dtype=np.float32)


def _robust_plane(points: FloatArray, values: FloatArray) -> FloatArray:
    """Fit values (n, 3) ~ a + b x + c y robustly; returns (3 coefficients, 3 channels)."""
    design = np.column_stack([np.ones(len(points)), points]).astype(np.float64)
    target = values.astype(np.float64)
    keep = np.ones(len(points), bool)
    coef: npt.NDArray[np.floating] = np.zeros((3, 3))
    for _ in range(3):
        if keep.sum() < 4:
            break
        # The least-squares plane through the kept points (normal equations, 3x3).
        used = design[keep]
        coef = np.linalg.solve(used.T @ used, used.T @ target[keep])
        resid = np.sqrt(np.square(target - design @ coef).sum(axis=1))
        scale = max(float(np.median(resid[keep])) * 2.5, 3.0)
        keep = resid <= scale
    return coef.astype(np.float32)


def row_medians(values: FloatArray) -> FloatArray:
    """The median along the last axis (as np.median, without its overhead)."""
    n = values.shape[-1]
    half = n // 2
    if n % 2:
        return np.asarray(np.partition(values, half, axis=-1)[..., half], np.float32)
    # One partition: the lower middle value is the largest of the lower half.
    part = np.partition(values, half, axis=-1)
    lower = np.ascontiguousarray(part[..., :half]).max(axis=-1)  # (a strided max is slow)
    return np.asarray((lower + part[..., half]) * np.float32(0.5), np.float32)


def square_models(config: VisionConfig, sampler: SquareSampler,
                  lab: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The light-square and dark-square colour (64, 3 each) at every square's place.

    Fitted to the square borders of this frame, so it follows uneven light.
    """
    channels = np.ascontiguousarray(lab.T)  # (3, pixels): each channel gathered on its own
    ring_medians = row_medians(channels[:, sampler.ring]).T
    design = np.column_stack([np.ones(64), sampler.centres])
    light = _robust_plane(sampler.centres[sampler.light], ring_medians[sampler.light])
    dark = _robust_plane(sampler.centres[~sampler.light], ring_medians[~sampler.light])
    return (design @ light).astype(np.float32), (design @ dark).astype(np.float32)


@dataclasses.dataclass(frozen=True, eq=False)
class Gradients:
    """Sobel derivatives of a warp's lightness and their magnitude, flattened."""

    gx: FloatArray
    gy: FloatArray
    magnitude: FloatArray


def gradients(lab: FloatArray, shape: tuple[int, ...]) -> Gradients:
    """The lightness gradients of a warp (``lab`` flattened, ``shape`` the warp's)."""
    gray = np.ascontiguousarray(lab[:, 0].reshape(shape[:2]))
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    magnitude = np.sqrt(gx * gx + gy * gy)

    def flat(a: npt.NDArray[Any]) -> FloatArray:
        return np.asarray(a.reshape(-1), np.float32)
    return Gradients(flat(gx), flat(gy), flat(magnitude))


def isotropic_edges(index: IntArray, halves: FloatArray, grads: Gradients) -> FloatArray:
    """Per square and half (64, 2) of the pixels ``index`` (64, n) split by
    ``halves`` (64, n, 2): the smaller eigenvalue of the gradient structure
    tensor. A piece's round outline and highlights have gradients in every
    direction; wood grain, print and a straight shadow edge mostly in one."""
    x, y = grads.gx[index], grads.gy[index]
    tensor = np.stack([x * x, y * y, x * y], axis=1) @ halves  # (64, 3, 2)
    jxx, jyy, jxy = tensor[:, 0], tensor[:, 1], tensor[:, 2]
    return np.asarray(0.5 * (jxx + jyy - np.sqrt(np.square(jxx - jyy) + 4 * jxy * jxy)),
                      np.float32)


FEATURES = 23  # length of a square's feature vector (see square_features)
# Without a reference, gather_evidence appends 22 features relative to the board
# and board_outline; with one, the REFERENCE_FEATURES of reference_features.
REFERENCE_FEATURES = 18
BOARD_OUTLINE = 2 * FEATURES - 1  # without a reference: the column of board_outline


def shadow_distances(config: VisionConfig, pixels: FloatArray, expected: FloatArray
                     ) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per disc pixel (Lab): its lightness over the empty board's, its squared
    distance from the board, and from the board darkened as much when that
    ratio is one a shadow gives (dark_ratio to shadow_ratio): a shadow darkens
    the board but keeps its colour."""
    ratio = pixels[..., 0] / np.maximum(expected[..., 0], 5.0)
    in_shadow = (ratio >= config.dark_ratio) & (ratio <= config.shadow_ratio)
    shade = np.where(in_shadow, ratio, np.float32(1.0))
    raw_d2 = np.zeros(ratio.shape, np.float32)
    shadowed_d2 = np.zeros(ratio.shape, np.float32)
    for channel in range(3):
        want = expected[..., channel]
        got = pixels[..., channel]
        raw_d2 += np.square(got - want)
        shadowed_d2 += np.square(got - want * shade)
    return (np.asarray(ratio, np.float32), np.asarray(raw_d2, np.float32),
            np.asarray(shadowed_d2, np.float32))


def square_features(config: VisionConfig, sampler: SquareSampler, pixels: FloatArray,
                    expected: FloatArray, edges: FloatArray, base: FloatArray,
                    base_expected: FloatArray, base_edges: FloatArray) -> FloatArray:
    """The occupancy evidence of every square (64, FEATURES).

    Each test below is a per-pixel condition; a feature is the fraction of
    disc pixels meeting it in the half towards the camera and in the half
    away from it (as min and max of the two halves), so a piece's base (which
    covers both halves) tells apart from a neighbour leaning in or a shadow.
    The last two look at the ring where a piece's base meets the board (its
    contact shadow and outline): the least fraction, over the ring's four
    quarters, of pixels unlike the empty board, and of edge pixels; a base rings
    the whole square, a neighbour's lean or shadow one side.
    """
    ratio, raw_d2, scaled2 = shadow_distances(config, pixels, expected)
    tests = np.stack([
        scaled2 > 36.0, scaled2 > 144.0, scaled2 > 576.0, raw_d2 > 100.0,
        ratio < config.dark_ratio, ratio > 1.08, ratio < 0.92,
        edges > 8.0, edges > 16.0, edges > 30.0,
    ], axis=1).astype(np.float32)  # (64, T, n)
    fractions = tests @ sampler.halves  # (64, T, 2): the fraction in the far and near half
    lo = fractions.min(axis=2)
    hi = fractions.max(axis=2)
    b_diff2 = np.zeros(base_edges.shape, np.float32)
    for channel in range(3):
        b_diff2 += np.square(base[..., channel] - base_expected[..., channel])
    ring_tests = np.stack([b_diff2 > 144.0, base_edges > 16.0], axis=1
                          ).astype(np.float32)  # (64, 2, k)
    ring = (ring_tests @ sampler.quarters).min(axis=2)  # the least of the four quarters
    return np.asarray(np.concatenate([lo, hi, ring, np.ones((64, 1), np.float32)], axis=1),
                      np.float32)


def _less_texture(sampler: SquareSampler, edges: FloatArray) -> FloatArray:
    """Edge strengths less the board's own texture (grain, print), per square colour.

    The texture level of a colour is the lower quartile, over its 32 squares,
    of their median edge strength: an empty square's, unless three quarters
    of that colour's squares are occupied.
    """
    typical = row_medians(edges)
    out = np.empty_like(edges)
    for light in (True, False):
        mask = sampler.light == light
        out[mask] = np.maximum(edges[mask] - np.quantile(typical[mask], 0.25), 0.0)
    return out


def _relative(sampler: SquareSampler, features: FloatArray) -> FloatArray:
    """Features with and without the board's own baseline.

    Without a reference, what an empty square of this board looks like is
    estimated as the lower quartile of each feature over the squares of the
    same colour; the excess over it is appended to the raw features.
    """
    excess = _over_board(sampler, features)
    return np.asarray(np.concatenate([features, excess[:, :-1]], axis=1), np.float32)


def _over_board(sampler: SquareSampler, values: FloatArray) -> FloatArray:
    """``values`` (64, ...) less their lower quartile over the squares of the
    same colour: what an empty square of this board shows, when most are empty."""
    excess = np.empty_like(values)
    for light in (True, False):
        mask = sampler.light == light
        excess[mask] = values[mask] - np.quantile(values[mask], 0.25, axis=0)
    return excess


def board_outline(sampler: SquareSampler, grads: Gradients) -> FloatArray:
    """Without a reference: a round outline on each square (64,).

    The isotropic edges (see isotropic_edges) of the core disc round the
    square centre, the lesser of its two halves, beyond the board's own (the
    lower quartile over the squares of the same colour), as log(1 + x / 50).
    From above a piece's outline is round wherever it stands on its square;
    grain and print are not round.
    """
    edges = isotropic_edges(sampler.core, sampler.core_halves, grads).min(axis=1)
    excess = _over_board(sampler, edges)
    return np.asarray(np.log1p(np.maximum(excess, 0.0) / 50.0), np.float32)


MODE_BINS, MODE_RANGE = 150, (0.4, 1.9)


def _mode_ratio(now: FloatArray, before: FloatArray) -> float:
    """The most common lightness ratio now/before: the change of light on the bare
    board, even when pieces cover most of it."""
    ratio = np.ascontiguousarray(now / np.maximum(before, 5.0), np.float32).reshape(-1, 1)
    counts = cv2.calcHist([ratio], [0], None, [MODE_BINS], list(MODE_RANGE)).ravel()
    smooth = np.convolve(counts, np.ones(5), mode="same")
    best = int(np.argmax(smooth))
    width = (MODE_RANGE[1] - MODE_RANGE[0]) / MODE_BINS
    return float(MODE_RANGE[0] + (best + 0.5) * width)


@dataclasses.dataclass(frozen=True, eq=False)
class PrintedMarks:
    """The pixels of an empty board's crop where something is printed on it (its
    :func:`departures` not zero), each pixel's square, and the least and greatest
    departure near it (k, 3 each)."""

    pixels: npt.NDArray[np.intp]
    squares: npt.NDArray[np.intp]
    low: FloatArray
    high: FloatArray


@dataclasses.dataclass(frozen=True, eq=False)
class Reference:
    """An empty-board warp measured once: its Lab values and edges at the sampled pixels."""

    ring_l: FloatArray  # (64, m) lightness on the square borders
    disc: FloatArray  # (64, n, 3) Lab on the sample discs
    edges: FloatArray  # (64, n) edge strength on the sample discs
    base: FloatArray  # (64, k, 3) Lab on the base rings
    base_edges: FloatArray  # (64, k) edge strength on the base rings
    texture: FloatArray  # (64, n) lightness on the sample discs less each disc's mean
    texture_energy: FloatArray  # (64,) the sum of texture's squares
    texture_std: FloatArray  # (64,) texture's standard deviation
    isotropic: FloatArray  # (64, 2) isotropic_edges of the empty board
    log_bgr: FloatArray  # (3, 64, n) log(B, G, R + SHADE_OFFSET) on the sample discs
    models: tuple[FloatArray, FloatArray]  # square_models of the empty board
    foot: FloatArray  # (64, f, 3) Lab on the footprints (sampler.lean)
    ring_log: FloatArray  # (3, 64 m) log(B, G, R + SHADE_OFFSET) on the square borders
    marks: PrintedMarks  # what is printed on the board (config.fused_reference_least)


SHADE_OFFSET = 4.0  # grey levels added before a logarithm: noise in dark pixels
_LOG_LEVELS = np.log(np.arange(256, dtype=np.float32) + np.float32(SHADE_OFFSET))


def log_bgr(sampler: SquareSampler, board: Image) -> FloatArray:
    """log(B, G, R + SHADE_OFFSET) of the sample discs of a cut board (3, 64, n)."""
    flat = np.ascontiguousarray(board).reshape(-1)
    return np.stack([_LOG_LEVELS[flat[sampler.disc * 3 + channel]] for channel in range(3)])


def ring_log(sampler: SquareSampler, board: Image) -> FloatArray:
    """log(B, G, R + SHADE_OFFSET) on every square's border band, flattened (3, 64 m).

    Borders are where pieces least often stand (a base covers the middle of
    its square), so most of them show the bare board."""
    flat = np.ascontiguousarray(board).reshape(-1)
    ring = sampler.ring.reshape(-1)
    return np.stack([_LOG_LEVELS[flat[ring * 3 + channel]] for channel in range(3)])


TINT_BINS, TINT_RANGE = 240, (-0.6, 0.6)  # log units, 0.005 a bin
# A change of colour smaller than this (log units, about 2%) is left alone: it
# is within JPEG and sensor noise, and the reading stays as it always was.
TINT_MIN = 0.02


def tint_change(sampler: SquareSampler, board: Image, reference: Reference) -> FloatArray:
    """How the colour of the light changed since the empty-board reference:
    log gains on B, G and R (3,), their mean 0 (brightness is left to the
    lightness gain, see _mode_ratio).

    A lamp switched on, the daylight fading, a camera that re-balances its
    white: each scales the board's blue, green and red by its own factor.
    A shadow scales them alike, so it leaves this colour change alone; a
    piece or a hand changes some border pixels, not the most common change,
    which is what is taken (per channel, the mode of log(now / then) less its
    mean over the three channels, over every border pixel)."""
    change = ring_log(sampler, board) - reference.ring_log
    change -= change.mean(axis=0, keepdims=True)
    width = (TINT_RANGE[1] - TINT_RANGE[0]) / TINT_BINS
    modes = []
    for channel in change:
        values = np.ascontiguousarray(channel, np.float32).reshape(-1, 1)
        counts = cv2.calcHist([values], [0], None, [TINT_BINS], list(TINT_RANGE)).ravel()
        best = int(np.argmax(np.convolve(counts, np.ones(5), mode="same")))
        modes.append(TINT_RANGE[0] + (best + 0.5) * width)
    tint = np.array(modes, np.float32)
    return np.asarray(tint - tint.mean(), np.float32)


def relight(sampler: SquareSampler, board: Image, reference: Reference) -> Image:
    """``board`` with the colour of the light brought back to the reference's
    (see tint_change); unchanged when that colour has not changed."""
    tint = tint_change(sampler, board, reference)
    if float(np.abs(tint).max()) < TINT_MIN:
        return board
    return np.asarray(cv2.LUT(np.ascontiguousarray(board), tint_table(-tint)), np.uint8)


def tint_table(gains: FloatArray) -> Image:
    """A cv2.LUT table (256, 1, 3) putting the log gains (B, G, R) on each
    value (+ SHADE_OFFSET, as the logs were taken)."""
    levels = np.arange(256, dtype=np.float32)[:, None] + np.float32(SHADE_OFFSET)
    table = levels * np.exp(gains)[None, :] - np.float32(SHADE_OFFSET)
    return np.clip(np.round(table), 0, 255).astype(np.uint8).reshape(256, 1, 3)


def light_colour(field: FloatArray) -> FloatArray:
    """The colour part of a change of light (see light_between): the median
    log gain of B, G and R over the squares, less their mean (3,); zeros when
    under TINT_MIN."""
    colour = np.median(field.reshape(-1, 3), axis=0)
    colour = np.asarray(colour - colour.mean(), np.float32)
    return colour if float(np.abs(colour).max()) >= TINT_MIN else np.zeros(3, np.float32)


RELIGHT_MIN = 0.03  # log units (3%): a smaller change of light is left to relight
_SAME_COLOUR = ((0, 0), (-1, -1), (-1, 1), (1, -1), (1, 1), (0, -2), (0, 2), (-2, 0), (2, 0))
_OTHER_COLOUR = ((0, -1), (0, 1), (-1, 0), (1, 0))


def _around(squares: FloatArray, steps: tuple[tuple[int, int], ...]) -> FloatArray:
    """(len(steps), 8, 8, 3): each square's neighbours ``steps`` away (NaN off the board)."""
    padded = np.pad(squares, ((2, 2), (2, 2), (0, 0)), constant_values=np.nan)
    return np.stack([padded[2 + dy:10 + dy, 2 + dx:10 + dx] for dy, dx in steps])


def light_between(sampler: SquareSampler, before: Image, now: Image,
                  occupied: npt.NDArray[np.bool_], odd: float | None = None
                  ) -> FloatArray | None:
    """How the light changed between two warps of a board at rest: log(now /
    before) of B, G and R at every square (8, 8, 3; rank 8 first), or None
    when no square is bare, or when the median change over each square's
    neighbourhood (below) is under RELIGHT_MIN everywhere: a change of light
    covers more than one square, a piece put down unseen one.

    ``occupied`` (64,) marks the squares read occupied in either view. Only
    the other squares, bare in both and not under a tall piece's top
    (sampler.covers), are measured: the median change on their border band is
    the change of light there. A piece standing, put down or taken away
    changes its square for reasons other than light, so it takes the median
    of its nearest measured squares of the same colour (the four diagonal and
    the four two squares away; failing those, of all the measured squares of
    its colour). With ``odd``, a measured square whose change is unlike that
    median by more than ``odd`` (log units) takes it too: a piece may have
    been put down there unseen. A lamp, a cloud or someone's shadow changes
    the light over several squares, which is kept square by square. Light
    and dark squares are kept apart: a camera's response is not proportional near white (its
    tone curve, clipping), so under a brighter light the light squares gain
    less than the dark ones."""
    hidden = occupied | (sampler.covers & occupied[:, None]).any(axis=0)
    if hidden.all():
        return None
    change = ring_log(sampler, sampler.cut(now)) - ring_log(sampler, sampler.cut(before))
    squares = row_medians(change.reshape(3, 64, -1)).T.astype(np.float32)
    if float(np.abs(squares[~hidden]).max()) < RELIGHT_MIN:
        return None
    squares[hidden] = np.nan
    grid = squares.reshape(8, 8, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN neighbourhoods
        near = np.nanmedian(_around(grid, _SAME_COLOUR), axis=0)
        light = sampler.light.reshape(8, 8)
        for own in (light, ~light):
            measured = grid[own & ~np.isnan(grid[..., 0])]
            fallback = np.median(measured, axis=0) if len(measured) \
                else np.nanmedian(grid.reshape(64, 3), axis=0)
            near[own] = np.where(np.isnan(near[own]), fallback, near[own])
    if float(np.abs(near).max()) < RELIGHT_MIN:
        return None
    if odd is not None:
        grid = np.where((np.abs(grid - near) > odd).any(axis=2, keepdims=True), np.nan, grid)
    return np.asarray(np.where(np.isnan(grid), near, grid), np.float32)


def light_gain(config: VisionConfig, shape: tuple[int, ...], field: FloatArray) -> FloatArray:
    """The gain (h, w, 3) on a whole warp of ``shape`` (margin included) that
    ``field`` (see light_between) stands for: each of the light and the dark
    squares' changes interpolated between their square centres (on a square
    of the other colour, from its four neighbours), each used on its own
    squares."""
    m = round(config.margin_squares)
    h, w = shape[:2]
    s = config.square_px
    light = ((np.arange(8)[:, None] + np.arange(8)[None, :]) % 2 == 0)[..., None]
    neighbours = np.asarray(np.nanmean(_around(field, _OTHER_COLOUR), axis=0), np.float32)
    gains = []
    for own in (light, ~light):
        cells = np.asarray(np.where(own, field, neighbours), np.float32)
        padded = cv2.copyMakeBorder(cells, m, m, m, m, cv2.BORDER_REPLICATE)
        gains.append(cv2.resize(padded, (w, h), interpolation=cv2.INTER_LINEAR))
    rows = np.clip((np.arange(h) - m * s) // s, 0, 7)
    cols = np.clip((np.arange(w) - m * s) // s, 0, 7)
    on_light = ((rows[:, None] + cols[None, :]) % 2 == 0)[..., None]
    return np.asarray(np.exp(np.where(on_light, gains[0], gains[1])), np.float32)


def apply_gain(warped: Image, gain: FloatArray) -> Image:
    """``warped`` with ``gain`` (see light_gain) on each pixel's (B, G, R + SHADE_OFFSET)."""
    out = (warped.astype(np.float32) + np.float32(SHADE_OFFSET)) * gain \
        - np.float32(SHADE_OFFSET)
    return np.asarray(np.clip(out + 0.5, 0, 255), np.uint8)


def apply_light(config: VisionConfig, warped: Image, field: FloatArray) -> Image:
    """``warped`` (a whole warp, margin included) under the light changed by ``field``."""
    return apply_gain(warped, light_gain(config, warped.shape, field))


def prepare_reference(config: VisionConfig, sampler: SquareSampler, warped: Image) -> Reference:
    """Measure an empty-board warp once, for every later frame."""
    board = sampler.cut(warped)
    lab = to_lab(board)
    grads = gradients(lab, board.shape)
    edges = grads.magnitude
    models = square_models(config, sampler, lab)
    disc = lab[sampler.disc]
    texture = disc[..., 0] - disc[..., 0].mean(axis=1, keepdims=True)
    return Reference(lab[:, 0][sampler.ring], disc, edges[sampler.disc],
                     lab[sampler.base], edges[sampler.base], texture,
                     np.square(texture).sum(axis=1), texture.std(axis=1),
                     isotropic_edges(sampler.disc, sampler.halves, grads), log_bgr(sampler, board),
                     models, lab[sampler.lean.footprint], ring_log(sampler, board),
                     printed_marks(sampler, departures(sampler, lab, models,
                                                       config.fused_reference_shift,
                                                       config.fused_reference_least)))


def printed_marks(sampler: SquareSampler, spans: FloatArray) -> PrintedMarks:
    """The pixels where :func:`departures` ``spans`` (2, crop * crop, 3) are not zero."""
    pixels = np.flatnonzero(np.abs(spans).max(axis=(0, 2)) > 0)
    index, _keep = square_of_pixel(sampler)
    return PrintedMarks(pixels, index[pixels], spans[0][pixels], spans[1][pixels])


def square_of_pixel(sampler: SquareSampler) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_]]:
    """Each pixel's square (crop * crop,), row-major from a8, and whether the pixel is
    inside the squares more than 2 pixels from a grid line (where a pixel's shift does
    not move a border across it)."""
    side = sampler.crop
    square = (side - 4) // 8
    at = np.arange(side) - 2
    inside = (at >= 0) & (at < 8 * square) & (np.minimum(at % square, square - 1 - at % square)
                                              >= 2)
    cell = np.clip(at // square, 0, 7)
    index = (cell[:, None] * 8 + cell[None, :]).reshape(-1)
    return index, (inside[:, None] & inside[None, :]).reshape(-1)


def departures(sampler: SquareSampler, lab: FloatArray, models: tuple[FloatArray, FloatArray],
               shift: int, least: float = 0.0) -> FloatArray:
    """What is printed or grown on an empty board itself (2, crop * crop, 3): its Lab
    less the square models (its own square's colour at each pixel), the least and the
    greatest of that within ``shift`` pixels (per channel), so that a picture a pixel
    or two off the empty one still finds its marks' departures. Zero within 2 pixels of
    a grid line, where a pixel's shift moves a border, and outside the squares."""
    index, keep = square_of_pixel(sampler)
    own = np.where(sampler.light[:, None], models[0], models[1])[index]
    away = lab - own
    if least > 0:  # only marks: fainter departures (grain, noise) are left in the tiles
        keep = keep & (np.abs(away).max(axis=1) >= least)
    away = np.where(keep[:, None], away, 0.0).astype(np.float32)
    if shift <= 0:
        return np.stack([away, away])
    side = sampler.crop
    window = np.ones((2 * shift + 1, 2 * shift + 1), np.uint8)
    grid = away.reshape(side, side, 3)
    low = cv2.erode(grid, window).reshape(-1, 3)
    high = cv2.dilate(grid, window).reshape(-1, 3)
    return np.stack([np.where(keep[:, None], low, 0.0),
                     np.where(keep[:, None], high, 0.0)]).astype(np.float32)


def printed_on_board(sampler: SquareSampler, lab: FloatArray, models: tuple[FloatArray, FloatArray],
                     marks: PrintedMarks, scale: FloatArray
                     ) -> tuple[npt.NDArray[np.intp], FloatArray] | None:
    """What of a frame's Lab (crop * crop, 3) the empty board shows too, as (pixels,
    Lab to take away there): each marked pixel's departure from its square's colour, per
    channel, as far as it lies within the marks' departures near it (brought to this
    frame's light by ``scale``). None where the board has no marks."""
    if not len(marks.pixels):
        return None
    own = np.where(sampler.light[:, None], models[0], models[1])[marks.squares]
    return marks.pixels, np.asarray(np.clip(lab[marks.pixels] - own, marks.low * scale,
                                            marks.high * scale), np.float32)


def _expectation(sampler: SquareSampler, grads: Gradients, reference: Reference | None,
                 models: tuple[FloatArray, FloatArray], gain: float
                 ) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """What the empty board looks like on each disc, and the edges not in it;
    the same on each base ring. ``gain`` is the change of light since the
    reference was taken."""
    all_edges = grads.magnitude
    edges, base_edges = all_edges[sampler.disc], all_edges[sampler.base]
    if reference is None:
        light_model, dark_model = models
        own = np.where(sampler.light[:, None], light_model, dark_model)[:, None, :]
        return own, edges, own, base_edges
    scale = np.array([gain, 1.0, 1.0], np.float32)
    return (reference.disc * scale, np.maximum(edges - reference.edges, 0.0),
            reference.base * scale, np.maximum(base_edges - reference.base_edges, 0.0))


def reference_features(sampler: SquareSampler, pixels: FloatArray, expected: FloatArray,
                       reference: Reference, grads: Gradients, board: Image) -> FloatArray:
    """Evidence only an empty-board reference gives (64, REFERENCE_FEATURES).

    - The fractions (min and max over the disc halves, as in square_features)
      of pixels whose colour (Lab a, b) moved from the empty board's by more
      than 4, 8 and 16, whose lightness fell below 0.35 of it, or rose above
      1.25 of it. A shadow darkens the board but keeps its colour.
    - How unlike the empty board's texture the disc's is (1 less their
      correlation), and how much more varied its lightness is: a shadow keeps
      the grain, a piece hides it.
    - Isotropic edges (see isotropic_edges) beyond the empty board's, per half,
      as min and max: a piece's round outline.
    - The fractions (per half, min and max) of pixels a shadow cannot explain:
      a shadow scales the board's blue, green and red alike, by 0.3 to 1.1;
      more than 0.1 and 0.2 apart (in log units) or out of that range.
    """
    ab = np.sqrt(np.square(pixels[..., 1] - expected[..., 1])
                 + np.square(pixels[..., 2] - expected[..., 2]))
    ratio = pixels[..., 0] / np.maximum(expected[..., 0], 5.0)
    tests = np.stack([ab > 4.0, ab > 8.0, ab > 16.0, ratio < 0.35, ratio > 1.25],
                     axis=1).astype(np.float32)  # (64, T, n)
    fractions = tests @ sampler.halves
    texture = pixels[..., 0] - pixels[..., 0].mean(axis=1, keepdims=True)
    correlation = (texture * reference.texture).sum(axis=1) / np.sqrt(
        np.square(texture).sum(axis=1) * reference.texture_energy + 1e-3)
    grain = np.log1p(np.maximum(texture.std(axis=1) - reference.texture_std, 0.0))
    outline = np.log1p(np.maximum(
        isotropic_edges(sampler.disc, sampler.halves, grads) - reference.isotropic, 0.0) / 50.0)
    blue, green, red = log_bgr(sampler, board) - reference.log_bgr  # each (64, n)
    mean = (blue + green + red) * np.float32(1 / 3)
    spread2 = np.square(blue - mean) + np.square(green - mean) + np.square(red - mean)
    darkened = (mean > np.log(0.3)) & (mean < np.log(1.1))
    unshaded = np.stack([(spread2 > 0.01) | ~darkened, (spread2 > 0.04) | ~darkened],
                        axis=1).astype(np.float32) @ sampler.halves
    return np.asarray(np.column_stack([
        fractions.min(axis=2), fractions.max(axis=2), 1.0 - correlation, grain,
        outline.min(axis=1), outline.max(axis=1), unshaded.min(axis=2), unshaded.max(axis=2)]),
        np.float32)


def brightening(config: VisionConfig, light_l: float) -> float:
    """The gain on B, G and R that brings a board whose light squares have
    lightness ``light_l`` (Lab L) up to ``config.dim_light_l``; 1 if it is there.

    Lightness is about the cube root of luminance, and sRGB values about its
    power 1 / 2.2, so the gain is the luminance ratio to the power 1 / 2.2.
    """
    if light_l >= config.dim_light_l:
        return 1.0
    ratio = luminance(max(config.dim_light_l, 8.0)) / luminance(max(light_l, 8.0))
    return float(float(ratio) ** (1 / 2.2))


@dataclasses.dataclass(frozen=True, eq=False)
class Evidence:
    """What the square reader measured on one warp, before deciding."""

    lab: FloatArray  # the warp in Lab, flattened
    pixels: FloatArray  # (64, n, 3) the sample discs
    expected: FloatArray  # (64, n|1, 3) the empty board there
    light_model: FloatArray  # (64, 3) the light-square colour at each square
    dark_model: FloatArray  # (64, 3) the dark-square colour at each square
    features: FloatArray  # (64, FEATURES)
    light_squares: npt.NDArray[np.bool_]  # (64,) which squares are light
    foot_unlike: npt.NDArray[np.bool_]  # (64, f) footprint pixels unlike the empty board
    # with a reference: what of this frame the empty board shows too (printed_on_board)
    printed: tuple[npt.NDArray[np.intp], FloatArray] | None = None


def exposed_board(config: VisionConfig, sampler: SquareSampler, board: Image,
                  lab: FloatArray) -> tuple[Image, FloatArray, tuple[FloatArray, FloatArray]]:
    """Without a reference: the cut board (and its Lab) brightened when dim
    (see brightening), and its light and dark square models."""
    models = square_models(config, sampler, lab)
    exposure = brightening(config, float(np.median(models[0][:, 0])))
    if exposure > 1.0:
        board = np.asarray(cv2.convertScaleAbs(board, alpha=exposure), np.uint8)
        lab = to_lab(board)
        models = square_models(config, sampler, lab)
    return board, lab, models


def gather_evidence(config: VisionConfig, sampler: SquareSampler, warped: Image,
                    reference: Image | Reference | None = None) -> Evidence:
    """Stage: measure every square of ``warped`` (made with the sampler's geometry)."""
    board = sampler.cut(warped)
    if reference is not None and not isinstance(reference, Reference):
        reference = prepare_reference(config, sampler, reference)
    if reference is not None:
        # A change of light since the reference (its colour too) is undone first.
        board = relight(sampler, board, reference)
    lab = to_lab(board)
    if reference is None:
        board, lab, models = exposed_board(config, sampler, board, lab)
        gain = 1.0
    else:
        # The empty board's square colours, corrected for a global change of light.
        gain = _mode_ratio(lab[:, 0][sampler.ring], reference.ring_l)
        scale = np.array([gain, 1.0, 1.0], np.float32)
        models = (reference.models[0] * scale, reference.models[1] * scale)
    pixels = lab[sampler.disc]
    grads = gradients(lab, board.shape)
    expected, edges, base_expected, base_edges = _expectation(
        sampler, grads, reference, models, gain)
    features = square_features(config, sampler, pixels, expected,
                               _less_texture(sampler, edges), lab[sampler.base],
                               base_expected, _less_texture(sampler, base_edges))
    if reference is None:
        features = np.concatenate(
            [_relative(sampler, features), board_outline(sampler, grads)[:, None]], axis=1)
    else:
        features = np.concatenate(
            [features, reference_features(sampler, pixels, expected, reference, grads, board)],
            axis=1)
    foot = lab[sampler.lean.footprint]
    if reference is None:
        foot_expected = np.where(sampler.light[:, None], models[0], models[1])[:, None, :]
    else:
        foot_expected = reference.foot * np.array([gain, 1.0, 1.0], np.float32)
    _ratio, foot_d2, _shadowed = shadow_distances(config, foot, foot_expected)
    foot_unlike = foot_d2 > np.float32(config.foot_unlike ** 2)
    return Evidence(lab, pixels, expected, models[0], models[1], features, sampler.light,
                    foot_unlike,
                    None if reference is None or not config.fused_reference_tiles
                    else printed_on_board(sampler, lab, models, reference.marks, scale))


def read_squares(config: VisionConfig, sampler: SquareSampler, warped: Image,
                 reference: Image | Reference | None = None) -> SquareReading:
    """Stage: classify every square of ``warped`` (made with the sampler's geometry).

    ``reference`` is an empty-board warp (or one measured by prepare_reference).

    Without a reference (and ``config.board_reader == "net"``) the learned
    square network reads every square (:func:`read_by_net`); with one (and
    ``config.reference_reader == "fused"``) the network and the reference
    together (:func:`read_fused`). Otherwise occupancy is scored from
    :func:`square_features` by the small networks of :mod:`vision.occupancy`
    (one for reading against a reference, one without), then the lean rules
    and :func:`vision.leaning.settle_by_base`. ``occupancy`` in the reading is
    that score's logit (> 0: occupied).
    """
    if reference is None and config.board_reader == "net":
        return read_by_net(config, sampler, warped)
    evidence = gather_evidence(config, sampler, warped, reference)
    model = reference_model() if reference is not None else board_model()
    logit = model.logit(evidence.features)
    if reference is not None and config.reference_reader == "fused":
        return read_fused(config, sampler, evidence, logit)
    threshold = config.lean_explain_logit if reference is not None \
        else config.lean_explain_logit_board
    occupied = explain_leans(sampler, logit, threshold)
    # Without a reference a piece's base is told from the board by its colour
    # only, which a boxwood piece on a maple square hardly changes (real photos):
    # there only the squares hidden behind a nearer piece are settled.
    # With one, a hidden square keeps a colour no piece in front of it has.
    before = occupied
    occupied = settle_by_base(config, sampler.lean, occupied,
                              evidence.foot_unlike if reference is not None else None, logit,
                              config.foot_hidden_logit if reference is not None
                              else config.foot_hidden_logit_board,
                              (lambda: _colours(config, sampler, evidence, before)[0])
                              if reference is not None else None)
    if reference is None:
        occupied = outline_vote(config, logit, occupied, evidence.features[:, BOARD_OUTLINE],
                                sampler.light, sampler.covers,
                                unexplained(config, sampler, evidence))
    labels, white_above = _colours(config, sampler, evidence, occupied)
    if reference is not None:
        labels = explain_tops(config, sampler, evidence, logit, labels, white_above)
        if config.net_under_tops:
            labels = net_under_tops(config, sampler, warped, labels, evidence.lab)
    grid = tuple("".join(labels[row * 8:(row + 1) * 8]) for row in range(8))
    return SquareReading(grid, tuple(float(v) for v in logit))


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
        maps = moved_maps(self.sampler.tiles, dx, dy, self.sampler.config.square_px)
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
    """Stage (without a reference, ``config.board_reader == "net"``): every
    square's label is the square network's most likely class; with
    ``config.photo_split`` a square holds a piece where its log-odds of one
    are above the photo's own occupancy threshold (0, or lower where its
    log-odds split) and a piece's colour is decided by where the photo's two
    armies split (vision.photo_split), with each piece's own lightness (with
    ``config.split_lightness_relative``, against the light squares' where it stands).
    ``occupancy`` is the log-odds of a piece against an empty square, less
    that threshold. With ``config.net_mirror_average`` the logits are the
    mean of each tile's and its mirror image's; with ``config.photo_shift`` above 0
    (off as shipped) the networks in ``config.photo_shifted_nets`` read each tile also
    moved that many squares each way along both axes (:func:`logits_of`). With
    ``config.photo_top_bias`` each piece's log-odds are then lowered where nearer
    pieces of its colour cover its footprint (vision.leaning.lower_under_tops: the tops of the
    pieces in front, seen from this camera's pose)."""
    tiles = board_tiles(config, sampler, warped)
    rows, light_squares = tiles.rows(), tiles.light
    logits = logits_of(rows, config.net_mirror_average, config.photo_nets, tiles.rows,
                       config.photo_net_weights,
                       tiles.moved_rows if config.photo_shift > 0.0 else None,
                       config.photo_shifted_nets, config.photo_shift)
    if config.photo_split:
        lightness = tile_lightness(rows)
        if config.split_lightness_relative:
            lightness = relative_lightness(lightness, light_squares)
        classes, odds = split_labels(config, logits, lightness)
    else:
        classes, odds = logits.argmax(axis=1), piece_log_odds(logits)
    if config.photo_top_bias > 0.0:
        classes, odds = lower_under_tops(sampler.lean, classes, odds, config.photo_top_bias)
    labels = "".join(CLASSES[i] for i in classes)
    grid = tuple(labels[row * 8:(row + 1) * 8] for row in range(8))
    return SquareReading(grid, tuple(float(v) for v in odds),
                         colours_unsure(config, logits, classes))


def read_fused(config: VisionConfig, sampler: SquareSampler, evidence: Evidence,
               change_logit: FloatArray) -> SquareReading:
    """Stage (with a reference, ``config.reference_reader == "fused"``):
    occupancy from the square network's log-odds and the reference's change
    logit together (:func:`vision.leaning.fuse_by_base`); an occupied square's
    colour is the network's likeliest piece class. The network reads the
    frame as the evidence saw it (its light's colour undone), each square
    less the reference's empty colour there (corrected for a change of
    lightness), not colours fitted again to this frame. ``occupancy`` in the
    reading is the fused log-odds."""
    side = sampler.crop
    own = np.where(sampler.light[:, None], evidence.light_model, evidence.dark_model)
    lab = evidence.lab
    if evidence.printed is not None:  # (gather_evidence leaves it None when switched off)
        pixels, printed = evidence.printed
        lab = lab.copy()
        lab[pixels] -= printed
    logits = logits_of(square_inputs(sampler.tiles, lab.reshape(side, side, 3),
                                     own.astype(np.float32)), False, config.game_nets)
    occupied, fused = fuse_by_base(sampler.lean, piece_log_odds(logits), change_logit,
                                   config.fused_reference_weight, config.fused_hidden_bias)
    piece = logits[:, 1:].argmax(axis=1) + 1
    labels = "".join(CLASSES[k] if on else EMPTY
                     for k, on in zip(piece, occupied, strict=True))
    grid = tuple(labels[row * 8:(row + 1) * 8] for row in range(8))
    return SquareReading(grid, tuple(float(v) for v in fused))


def net_under_tops(config: VisionConfig, sampler: SquareSampler, warped: Image,
                   labels: list[str], lab: FloatArray | None = None) -> list[str]:
    """Stage (with a reference): the squares that a nearer piece's silhouette
    reaches (vision.leaning) take the square network's label where it is sure
    (its log-odds of a piece beyond +-net_under_tops_logit). The reference
    shows that something changed there, not whether it is a piece's base or
    the top of the piece in front; the network, which sees each square's tile
    turned along its lean, learned that from the synthetic scenes."""
    occupied = np.array([label != EMPTY for label in labels])
    reached = np.flatnonzero(sampler.lean.reaches[occupied].any(axis=0))
    if not len(reached):
        return labels
    logits = net_logits(config, sampler, warped, reached, lab)
    sure = np.abs(piece_log_odds(logits)) > config.net_under_tops_logit
    out = list(labels)
    for square, index, take in zip(reached, logits.argmax(axis=1), sure, strict=True):
        if take:
            out[square] = CLASSES[index]
    return out


def unexplained(config: VisionConfig, sampler: SquareSampler,
                evidence: Evidence) -> npt.NDArray[np.bool_]:
    """Squares (64,) whose change from the board neither a shadow nor lit
    board explains, in either half of the disc: a shadow (pixels unlike the
    board by 10 Lab units, but like it darkened as a shadow darkens it) in
    outline_shadow_fraction of a half, or lit board (lighter than the board's
    model by a factor in outline_lit_ratio, its colour within
    outline_lit_chroma) in outline_lit_fraction of both halves. Hard shadows
    have curved edges, and between them the board looks lit. A white piece
    on a dark square is far lighter than lit board, and on a light square whiter.
    """
    pixels, expected = evidence.pixels, evidence.expected
    ratio, raw_d2, shadowed_d2 = shadow_distances(config, pixels, expected)
    shadow_px = (raw_d2 > 100.0) & (shadowed_d2 <= 36.0)
    chroma = np.hypot(pixels[..., 1] - expected[..., 1], pixels[..., 2] - expected[..., 2])
    low, high = config.outline_lit_ratio
    lit_px = (ratio > low) & (ratio < high) & (chroma < config.outline_lit_chroma)
    halves = np.stack([shadow_px, lit_px], axis=1).astype(np.float32) @ sampler.halves
    shadow = halves[:, 0].max(axis=1) >= config.outline_shadow_fraction
    lit = halves[:, 1].min(axis=1) >= config.outline_lit_fraction
    return np.asarray(~shadow & ~lit)


def explain_leans(sampler: SquareSampler, logit: FloatArray,
                  threshold: float) -> npt.NDArray[np.bool_]:
    """Stage: occupied squares, less weak ones a tall neighbour leans over.

    A square with weak evidence (logit below ``threshold``) next to a
    clearly occupied square whose piece, seen from this camera, leans towards
    it far enough to cover its disc, is taken to be empty: what was seen there
    is the neighbour's top.
    """
    occupied = np.asarray(logit > 0)
    for square in np.flatnonzero(occupied & (logit < threshold)):
        if sampler.covers[occupied & (logit > logit[square] + threshold), square].any():
            occupied[square] = False
    return occupied


def covered_by_neighbours(sampler: SquareSampler,
                          occupied: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Occupied squares that a piece on a neighbouring square leans over."""
    return np.asarray(occupied & sampler.covers[occupied].any(axis=0))


def _colours(config: VisionConfig, sampler: SquareSampler, evidence: Evidence,
             occupied: npt.NDArray[np.bool_]) -> tuple[list[str], FloatArray]:
    """Colour of the occupied squares: blue by hue, then white or black by
    :func:`piece_lightness`, split between the two groups (:func:`white_thresholds`).
    Returns the labels and, per square, the lightness above which a piece is white.

    A piece that a neighbour's piece leans over (see covered_by_neighbours) is
    measured on the far half of its disc only: the near half may show the
    neighbour's top, which is often of the other colour.
    """
    labels = [EMPTY] * 64
    which = np.flatnonzero(occupied)
    if not len(which):
        return labels, np.full(64, config.white_ratio, np.float32)
    pixels = evidence.pixels[which]
    chroma = np.hypot(pixels[..., 1], pixels[..., 2])
    hue = np.degrees(np.arctan2(pixels[..., 2], pixels[..., 1])) % 360
    lo, hi = config.blue_hue_range
    blue_px = ((chroma > config.blue_min_chroma) & (hue >= lo) & (hue <= hi)
               & (pixels[..., 0] > config.blue_min_lightness))
    blue = np.zeros(64, bool)
    blue[which] = blue_px.mean(axis=1) > config.blue_fraction
    covered = covered_by_neighbours(sampler, occupied)
    lightness = piece_lightness(config, evidence, np.flatnonzero(occupied & ~covered))
    if covered.any():
        far_half = sampler.halves[:, :, 0] > 0
        lightness += piece_lightness(config, evidence, np.flatnonzero(covered), far_half)
    threshold = white_thresholds(config, lightness, occupied & ~blue, evidence.light_squares)
    for i in which:
        if blue[i]:
            labels[i] = BLUE
        else:
            labels[i] = WHITE if lightness[i] > threshold[i] else BLACK
    return labels, threshold


def explain_tops(config: VisionConfig, sampler: SquareSampler, evidence: Evidence,
                 logit: FloatArray, labels: list[str], white_above: FloatArray) -> list[str]:
    """Stage (with a reference): ``labels`` less the squares that show only a
    neighbour's top.

    A white or black square with weak evidence (logit below
    top_explain_logit) that a far stronger neighbour (by top_explain_gap)
    leans over is read empty when its whole disc shows that neighbour's
    colour (lighter than ``white_above`` for white): a top shows its own
    piece's colour, never another.
    """
    occupied = np.array([label != EMPTY for label in labels])
    tops = (covered_by_neighbours(sampler, occupied) & (logit < config.top_explain_logit)
            & np.array([label in (WHITE, BLACK) for label in labels]))
    whole = piece_lightness(config, evidence, np.flatnonzero(tops))
    out = list(labels)
    for i in np.flatnonzero(tops):
        shown = WHITE if whole[i] > white_above[i] else BLACK
        stronger = occupied & (logit > logit[i] + config.top_explain_gap) & sampler.covers[:, i]
        if any(labels[other] == shown for other in np.flatnonzero(stronger)):
            out[i] = EMPTY
    return out


def _split(config: VisionConfig, values: FloatArray) -> float | None:
    """The threshold between two clear groups of ``values``, or None."""
    split = two_groups(values)
    if split is None:
        return None
    middle, separation = split
    lo_mid, hi_mid = config.white_split_range
    return middle if separation >= config.white_gap and lo_mid <= middle <= hi_mid else None


def white_thresholds(config: VisionConfig, lightness: FloatArray,
                     pieces: npt.NDArray[np.bool_], light_squares: npt.NDArray[np.bool_]
                     ) -> FloatArray:
    """Per square, the piece lightness above which a piece is white.

    A piece on a light square looks darker by this measure than the same piece
    on a dark one (its shaded side is what differs most from the square), so
    the pieces on each square colour are split in two groups on their own when
    at least ``colour_split_min`` stand there and the groups are clear; else
    all pieces of the frame are split together; else ``white_ratio`` holds.
    """
    whole = _split(config, lightness[pieces])
    out = np.full(64, config.white_ratio if whole is None else whole, np.float32)
    for colour in (True, False):
        here = pieces & (light_squares == colour)
        if here.sum() >= config.colour_split_min:
            own = _split(config, lightness[here])
            if own is not None:
                out[light_squares == colour] = own
    return out


LIGHTNESS_FLOOR = 0.1  # piece lightness below this is black alike (and logs stay finite)


def two_groups(values: FloatArray) -> tuple[float, float] | None:
    """Otsu's split of positive ``values`` into a low and a high group, on their
    logarithms (lightness is reflectance times light, so groups differ by
    factors): the threshold and how far apart the groups are (the log gap between
    their nearest members plus half the difference of their log means); None
    unless each group can have two members."""
    if len(values) < 4:
        return None
    ordered = np.log(np.sort(np.maximum(values.astype(np.float64), LIGHTNESS_FLOOR)))
    n = len(ordered)
    sizes = np.arange(2, n - 1)
    sums = np.cumsum(ordered)[1:-2]
    low_mean = sums / sizes
    high_mean = (ordered.sum() - sums) / (n - sizes)
    between = sizes * (n - sizes) * (high_mean - low_mean) ** 2
    best = int(np.argmax(between))
    lo, hi = low_mean[best], high_mean[best]
    # The threshold goes in the widest gap between the two groups' means,
    # leaving each group at least two members.
    at = best + 1  # ordered[at] is the last of the low group
    inside = np.flatnonzero((ordered[1:n - 2] >= lo) & (ordered[2:n - 1] <= hi)) + 1
    if len(inside):
        at = int(inside[np.argmax(ordered[inside + 1] - ordered[inside])])
    gap = ordered[at + 1] - ordered[at]
    separation = float(gap + 0.5 * (hi - lo))
    return float(np.exp((ordered[at] + ordered[at + 1]) / 2)), separation


def piece_lightness(config: VisionConfig, evidence: Evidence,
                    which: IntArray | None = None,
                    part: npt.NDArray[np.bool_] | None = None) -> FloatArray:
    """Per square: the lightness of the pixels least like the empty board there,
    relative to the light squares nearby (a black piece's are dark even on a
    light square, a white piece's light even on a dark one).

    Only the squares ``which`` (default all) are measured; the others are 0.
    ``part`` (64, disc pixels), if given, limits each square to those pixels.
    """
    which = np.arange(64) if which is None else which
    out = np.zeros(64, np.float32)
    if not len(which):
        return out
    pixels = evidence.pixels[which]
    expected = evidence.expected[which]
    distance = np.zeros(pixels.shape[:2], np.float32)
    for channel in range(3):
        distance += np.square(pixels[..., channel] - expected[..., channel])
    size = pixels.shape[1]
    if part is not None:
        distance[~part[which]] = -1.0  # never among the least like the board
        size = int(part[which].sum(axis=1).min())
    count = max(1, int(size * config.colour_fraction))
    index = np.argpartition(-distance, count - 1, axis=1)[:, :count]
    chosen = np.take_along_axis(pixels[..., 0], index, axis=1)
    out[which] = row_medians(chosen) / np.maximum(evidence.light_model[which, 0], 5.0)
    return out
