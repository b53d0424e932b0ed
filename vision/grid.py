"""Reading an N x M grid of points (a Go board) or cells (a chessboard) with stones.

A :class:`GridSpec` says what the grid is (``points:19``, ``cells:8``,
``points:9x13``); a :class:`GridGeometry` says where its four corners are in
the picture: the corner *points* of a Go board's lines, or the outer corners
of a chessboard's squares, top-left, top-right, bottom-right, bottom-left as
the grid lies in the game (top row first).

Reading is a chain of stage functions as for the chessboard:
:func:`warp_grid` (top down, ``pitch_px`` pixels between points) ->
:func:`read_grid`. Each point is judged on a disc where the top of a stone
placed there is seen (a stone has height, so the camera sees its top moved
away from it), leaving out the board's own lines. Every pixel of the disc is
compared with what the empty board looks like there: the empty-board
reference when there is one, else a smooth model of the board fitted
robustly to the places between the points (square centres of a Go board,
the edges of each chessboard square). A pixel is *dark* (a black stone's)
when far darker than the board, *white* (a white stone's) when about as
light as the board or lighter and far less coloured; shadows darken without
taking the board's colour away, wood grain changes neither much, and glare
on a glossy black stone covers too little of the disc to outvote it. The
board's colour is taken from its more coloured samples (stones are grey), and
a stone hides its point's lines, so a crowded or full board, where most
samples are partly under stones, is read as well (``GridConfig``'s comments).

A chessboard's squares are read differently (:func:`cell_labels`): a white
stone on a light square, or a black one on a dark square, is too near the
square's colour for per-pixel votes, so a square holds a stone when a
logistic score of its disc against the square (colour distance, outline,
lightness spread and quartiles; with a reference, the change since the empty
board) is positive, with weights fitted on dev scenes
(``lab/fit_grid_cells.py``); its colour is told by its darker quarter
against the light squares' lightness.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import re
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import CalibrationError, VisionError
from vision.geometry import BoardGeometry, Image, Point

LOGGER = logging.getLogger(__name__)

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.intp]
AnyFloatArray = npt.NDArray[np.floating[Any]]

EMPTY, BLACK, WHITE = ".", "b", "w"
# Fitted weights of the cell stone score (bias, then one per feature of cell_features).
CELL_WEIGHTS: tuple[float, ...] = (-13.49, 3.62, 2.843, 1.264, 0.4875, 1.283, 0.7409)
CELL_WEIGHTS_REF: tuple[float, ...] = (-12.24, 1.693, 1.528, 0.7903, 0.3302, 0.7217, 0.4492,
                                     1.214, 1.439)
KINDS = ("points", "cells")
MAX_SIDE = 26


@dataclasses.dataclass(frozen=True)
class GridSpec:
    """A grid of ``cols`` x ``rows`` points (lines crossing) or cells (squares)."""

    kind: str
    cols: int
    rows: int

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise VisionError(f"a grid is 'points' or 'cells', not {self.kind!r}")
        low = 2 if self.kind == "points" else 1
        for name, value in (("columns", self.cols), ("rows", self.rows)):
            if not low <= value <= MAX_SIDE:
                raise VisionError(f"a grid of {self.kind} has {low} to {MAX_SIDE} {name}, "
                                  f"not {value}")

    @classmethod
    def parse(cls, text: str) -> GridSpec:
        """``points:19``, ``cells:8`` or ``points:9x13`` (columns x rows)."""
        match = re.fullmatch(r"\s*(points|cells)\s*:\s*(\d+)(?:\s*x\s*(\d+))?\s*", text)
        if match is None:
            raise VisionError(f"a grid is written points:N, cells:N or points:COLSxROWS, "
                              f"not {text!r}")
        cols = int(match.group(2))
        rows = int(match.group(3)) if match.group(3) else cols
        return cls(match.group(1), cols, rows)

    def __str__(self) -> str:
        size = str(self.cols) if self.cols == self.rows else f"{self.cols}x{self.rows}"
        return f"{self.kind}:{size}"

    @property
    def span(self) -> tuple[int, int]:
        """How many pitches the corner quadrilateral spans across and down."""
        if self.kind == "points":
            return self.cols - 1, self.rows - 1
        return self.cols, self.rows

    def centres(self) -> FloatArray:
        """(rows * cols, 2) x, y of every place in pitches from the top-left corner, row-major."""
        offset = 0.0 if self.kind == "points" else 0.5
        ys, xs = np.mgrid[0:self.rows, 0:self.cols].astype(np.float32)
        return np.stack([xs.ravel() + offset, ys.ravel() + offset], axis=1)

    def empty_grid(self) -> tuple[str, ...]:
        return tuple(EMPTY * self.cols for _ in range(self.rows))


@dataclasses.dataclass(frozen=True)
class GridGeometry:
    """Where a grid lies in the picture: its corners top-left, top-right,
    bottom-right, bottom-left (the grid's, as the game names its rows)."""

    spec: GridSpec
    corners: tuple[Point, Point, Point, Point]
    image_size: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        # The same checks as a chessboard's corners (finite, convex, some area).
        checked = BoardGeometry(self.corners, self.image_size)
        object.__setattr__(self, "corners", checked.corners)

    @classmethod
    def from_text(cls, spec: GridSpec, text: str, image_size: tuple[int, int] = (0, 0)
                  ) -> GridGeometry:
        """From ``X1,Y1,...,X4,Y4`` (top-left, top-right, bottom-right, bottom-left)."""
        parts = [p.strip() for p in text.replace(";", ",").split(",") if p.strip()]
        if len(parts) != 8:
            raise CalibrationError(
                f"corners need 8 numbers X1,Y1,...,X4,Y4 (top-left, top-right, bottom-right, "
                f"bottom-left), got {len(parts)}: {text!r}")
        try:
            v = [float(p) for p in parts]
        except ValueError as error:
            raise CalibrationError(f"corners must be numbers: {text!r}") from error
        return cls(spec, ((v[0], v[1]), (v[2], v[3]), (v[4], v[5]), (v[6], v[7])), image_size)

    def to_image(self) -> FloatArray:
        """Homography from grid pitches (0..span) to image pixels."""
        sx, sy = self.spec.span
        src = np.array([[0, 0], [sx, 0], [sx, sy], [0, sy]], np.float32)
        return np.asarray(cv2.getPerspectiveTransform(src, np.array(self.corners, np.float32)),
                          np.float32)

    def scaled(self, factor: float) -> GridGeometry:
        w, h = self.image_size
        return GridGeometry(self.spec, tuple((x * factor, y * factor)  # type: ignore[arg-type]
                                             for x, y in self.corners),
                            (round(w * factor), round(h * factor)))

    def camera_position(self) -> tuple[float, float, float]:
        """Where the camera stands in pitches (x, y from the top-left corner; height).

        The chessboard's estimate (square pixels, a prior on the focal length)
        applied to the grid's quadrilateral as if it were square.
        """
        x, y, height = BoardGeometry(self.corners, self.image_size).camera_position()
        sx, sy = self.spec.span
        return x * sx / 8, y * sy / 8, height * math.sqrt(sx * sy) / 8


# ----------------------------------------------------------------------------
# Settings


@dataclasses.dataclass(frozen=True)
class GridConfig:
    """Sizes and thresholds of the grid reader (pitch units unless named)."""

    pitch_px: int = 16  # warp pixels between neighbouring points
    margin: float = 1.0  # pitches of margin kept around the corner quadrilateral
    # Stones: radius and height. A Go stone is 22 mm across on a 22 x 23.7 mm
    # pitch and 6 to 10 mm thick; on a chessboard stones are smaller than a square.
    stone_radius: float = 0.47
    stone_height: float = 0.33
    cell_stone_radius: float = 0.33
    cell_stone_height: float = 0.15
    sample_fraction: float = 0.55  # sample disc radius over the stone radius
    sample_height: float = 0.8  # the disc sits where this fraction of the height is seen
    line_band: float = 0.1  # pixels this near a point grid's line are left out
    # Pixel rules, against the empty board's lightness (ratio) and colour.
    dark_ratio: float = 0.42  # darker than this: a black stone's pixel
    dark_ratio_shadow: float = 0.7  # up to this, if it has lost the board's colour:
    dark_colour_loss: float = 0.6  # this far from it (over the board's chroma)
    white_ratio: float = 0.85  # at least this light, and
    white_colour_loss: float = 0.55  # this far (over the board's chroma) from the board's colour
    # Or, on a pale board (chroma under pale_chroma: little colour to lose),
    # this much lighter. The pale dev photo go19_45 lost 8 white stones without
    # it (its board's chroma 7.8; the synthetic woods' are 20 to 35, where
    # brighter alone read glare on glassy black stones and wood as white).
    white_bright: float = 1.15
    pale_chroma: float = 12.0
    # The board's colour is the median of the between samples at least this
    # coloured (their quantile of chroma): stones are grey, so on a crowded
    # board, where stones cover many between samples, the median of all of them
    # drifts to the stones' grey (crowded dev photos: 184 points wrong with all
    # the samples, 168 with the more coloured half or the top 30%).
    board_colour_quantile: float = 0.7
    board_min_chroma: float = 6.0  # floor on the board's chroma (Lab a/b units)
    board_dark_cut: float = 0.3  # board samples darker than the median by this (log) are left out
    # A place holds a stone when this fraction of its disc says so.
    stone_fraction: float = 0.5
    black_share: float = 0.35  # of those, this share dark: a black stone
    # Without a reference, glare on the board is no white stone: a point grid's
    # lines seen round the point (their median lightness under cross_visible of
    # the board's between them: a stone hides them), or seen faintly (under
    # cross_faint) while the disc is less than white_lift lighter than the board
    # at the four squares round it (glare spreads, a stone ends). Chosen on the
    # 4 dev photos and 34 synthetic dev scenes (points 9, 13, 19; no reference):
    # (0.93, 1.03): 14 and 1 points wrong; (0.95, 1.06): 7 and 4; (0.96, 1.1):
    # 7 and 10; (0.98, 1.15): 6 and 18.
    cross_ring: tuple[float, float] = (0.12, 0.38)
    cross_visible: float = 0.95
    cross_faint: float = 0.98
    white_lift: float = 1.06
    # Lines seen more plainly (cross ratio from cross_lifted to cross_visible) stop
    # a white stone unless the disc is white_lift_lines lighter than the board
    # round it: a white stone whose shading or a neighbour's seam darkens its
    # centre, which on crowded boards and full synthetic ones reads like lines.
    # Dev: glare and bare points there lift 1.08 at most, 22 such white stones
    # (of 45 stopped) 1.09 or more.
    cross_lifted: float = 0.9
    # A photo read whole without a reference: its discs may be nudged this far
    # (pitches) each way to where the stones read most plainly (0: not at all),
    # if that is plainer by nudge_margin than where the pose puts them (the
    # corners of a photo, squeezed to a square by its export, give a rough
    # pose). Dev: crowded photos 66 -> 54 wrong with no margin, but synthetic
    # scenes (exact pose) 4 -> 9; with a margin of 0.005 to 0.02, 58 and 5.
    nudge_step: float = 0.1
    nudge_margin: float = 0.01
    white_lift_lines: float = 1.1
    # Without a reference, on a point grid: a stone hides the point's lines.
    # Lines round a point as light as the board between them (cross ratio in
    # hidden_lines) with a disc at least hidden_white_ratio of the board's
    # lightness: a white stone, however near the board's colour (cream stones
    # on a pale board); a disc whose median is under black_median_ratio of the
    # board's: a black stone. Above the range the board between the lines is
    # shaded (a stone leaning over it), not the lines hidden. Chosen on the 9
    # crowded dev photos, the 4 dev photos and 90 synthetic dev scenes (half of
    # them 90-100% full): empty dev points' cross ratios reach 0.986, white
    # stones' are 0.99 or more on 95% of them; crowded dev 168 -> 70 wrong.
    hidden_lines: tuple[float, float] = (0.99, 1.25)
    hidden_white_ratio: float = 0.85
    black_median_ratio: float = 0.6
    # And a disc at least black_alone dark (its share of a black stone's
    # pixels): a black stone, however little of the rest says so. A black
    # stone standing off its point covers part of the disc and the board the
    # rest. Dev photos: the black stones read empty had dark shares of 0.06 to
    # 0.44 (9 of 15 at 0.3 or more); bare points read empty 0.12 at the 99.9th
    # percentile and 0.29 at most. Crowded dev 58 -> 50 wrong.
    black_alone: float = 0.33
    # Cells: whether a square holds a stone is a logistic score of its disc
    # against the board there (see :func:`cell_features`): weights (bias first)
    # fitted by ``python -m lab.fit_grid_cells`` on dev scenes (seeds 0-599,
    # 38,400 squares), without and with an empty-board reference. On those
    # seeds the former hand-set rules (per-pixel votes and an outline check)
    # read 181 squares' stone-or-empty wrong (157 with a reference), mostly
    # white stones on light squares and black stones on dark ones missed; the
    # score reads 3 wrong (0 with a reference).
    rim_width: float = 0.1  # the ring round a stone's edge where its outline is seen
    cell_weights: tuple[float, ...] = CELL_WEIGHTS
    cell_weights_ref: tuple[float, ...] = CELL_WEIGHTS_REF
    # A stone is black when its disc's darker quarter is under this fraction of
    # the light squares' lightness there (dev: black stones at most 0.44,
    # white ones at least 0.85, on either square colour).
    cell_black_level: float = 0.6


# ----------------------------------------------------------------------------
# Warp


def warp_size(config: GridConfig, spec: GridSpec) -> tuple[int, int]:
    sx, sy = spec.span
    p, m = config.pitch_px, config.margin
    return round((sx + 2 * m) * p), round((sy + 2 * m) * p)


def warp_homography(config: GridConfig, geometry: GridGeometry) -> FloatArray:
    """Image -> warp (pitch_px a pitch, ``margin`` pitches around the corners)."""
    sx, sy = geometry.spec.span
    p, m = config.pitch_px, config.margin * config.pitch_px
    dst = np.array([[m, m], [m + sx * p, m], [m + sx * p, m + sy * p], [m, m + sy * p]],
                   np.float32)
    return np.asarray(cv2.getPerspectiveTransform(np.array(geometry.corners, np.float32), dst),
                      np.float64)


def warp_grid(config: GridConfig, image: Image, geometry: GridGeometry) -> Image:
    """Stage: the grid seen from straight above, with its margin.

    A grid much larger in the picture than in the warp is first halved (with
    smoothing), so wood grain and noise average out instead of aliasing.
    """
    width, height = warp_size(config, geometry.spec)
    pts = np.array(geometry.corners)
    extent = max(float(np.linalg.norm(pts[i] - pts[(i + 1) % 4])) for i in range(4))
    target = max(geometry.spec.span) * config.pitch_px
    while extent > 2.5 * target and min(image.shape[:2]) > 64:
        image = np.asarray(cv2.pyrDown(image), np.uint8)
        geometry = geometry.scaled(0.5)
        extent /= 2
    return np.asarray(cv2.warpPerspective(image, warp_homography(config, geometry),
                                          (width, height), flags=cv2.INTER_LINEAR,
                                          borderMode=cv2.BORDER_REPLICATE), np.uint8)


# ----------------------------------------------------------------------------
# Sampling


@dataclasses.dataclass(frozen=True, eq=False)
class GridSampler:
    """Precomputed pixel indices into a flattened warp for one geometry."""

    spec: GridSpec
    shape: tuple[int, int]  # warp height, width
    disc: IntArray  # (places, n) each place's disc (indices; -1 where left out)
    between: IntArray  # (k, n) places on the empty board no stone should cover
    between_xy: FloatArray  # (k, 2) their positions in pitches
    between_parity: IntArray  # (k,) chessboard square colour (0 light-ish class, 1 other)
    place_parity: IntArray  # (places,)
    centres: FloatArray  # (places, 2) in pitches
    cross: IntArray | None = None  # (places, k) a point grid's lines right round each point
    cross_off: IntArray | None = None  # (places, j) the board between those lines
    rim: IntArray | None = None  # (places, k) a cell grid's ring where a stone's edge is seen


def _disc_offsets(radius_px: float) -> tuple[IntArray, IntArray]:
    r = max(math.ceil(radius_px), 1)
    dy, dx = np.mgrid[-r:r + 1, -r:r + 1]
    keep = dx * dx + dy * dy <= radius_px * radius_px + 0.25
    return dy[keep].astype(np.intp), dx[keep].astype(np.intp)


def _gather(xs: AnyFloatArray, ys: AnyFloatArray, dy: IntArray, dx: IntArray,
            shape: tuple[int, int], exclude: npt.NDArray[np.bool_] | None = None) -> IntArray:
    h, w = shape
    cx = np.round(xs).astype(np.intp)[:, None] + dx[None, :]
    cy = np.round(ys).astype(np.intp)[:, None] + dy[None, :]
    inside = (cx >= 0) & (cx < w) & (cy >= 0) & (cy < h)
    index = np.clip(cy, 0, h - 1) * w + np.clip(cx, 0, w - 1)
    if exclude is not None:
        inside &= ~exclude.ravel()[index]
    return np.where(inside, index, -1).astype(np.intp)


def make_grid_sampler(config: GridConfig, geometry: GridGeometry,
                      nudge: tuple[float, float] = (0.0, 0.0)) -> GridSampler:
    spec = geometry.spec
    width, height = warp_size(config, spec)
    p, m = config.pitch_px, config.margin
    points = spec.kind == "points"
    radius = config.stone_radius if points else config.cell_stone_radius
    stone_h = config.stone_height if points else config.cell_stone_height
    centres = spec.centres()
    # Where the top of a stone is seen: moved away from the camera.
    cam_x, cam_y, cam_h = geometry.camera_position()
    lift = stone_h * config.sample_height
    away = centres - np.array([cam_x, cam_y], np.float32)
    shift = away * (lift / max(cam_h - lift, 1e-3))
    # No further than the stone's own top can be from its base.
    norm = np.linalg.norm(shift, axis=1, keepdims=True)
    shift = np.where(norm > 1.2, shift * (1.2 / np.maximum(norm, 1e-6)), shift)
    sample = (centres + shift + np.array(nudge, np.float32) + m) * p
    exclude = None
    if points:
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        gx, gy = xs / p - m, ys / p - m
        band = config.line_band

        def near_line(v: npt.NDArray[np.float32], count: int) -> npt.NDArray[np.bool_]:
            nearest = np.clip(np.round(v), 0, count - 1)
            return np.asarray(np.abs(v - nearest) < band, np.bool_)

        inside_x = (gx > -band) & (gx < spec.cols - 1 + band)
        inside_y = (gy > -band) & (gy < spec.rows - 1 + band)
        exclude = (near_line(gx, spec.cols) & inside_y) | (near_line(gy, spec.rows) & inside_x)
    dy, dx = _disc_offsets(radius * config.sample_fraction * p)
    disc = _gather(sample[:, 0], sample[:, 1], dy, dx, (height, width), exclude)
    if points:
        # The centres of the grid's squares, and half-way along the edges outside.
        bys, bxs = np.mgrid[-0.5:spec.rows, -0.5:spec.cols]
        between_xy = np.stack([bxs.ravel(), bys.ravel()], axis=1).astype(np.float32)
        parity = np.zeros(len(between_xy), np.intp)
        place_parity = np.zeros(len(centres), np.intp)
        bdy, bdx = _disc_offsets(0.14 * p)
    else:
        # Each square's corners: stones sit inside the squares.
        bys, bxs = np.mgrid[0:spec.rows, 0:spec.cols]
        base = np.stack([bxs.ravel(), bys.ravel()], axis=1).astype(np.float32)
        offsets = np.array([[0.1, 0.1], [0.9, 0.1], [0.9, 0.9], [0.1, 0.9]], np.float32)
        between_xy = (base[:, None, :] + offsets[None, :, :]).reshape(-1, 2)
        parity = np.repeat((bxs.ravel() + bys.ravel()) % 2, 4).astype(np.intp)
        place_parity = ((bxs.ravel() + bys.ravel()) % 2).astype(np.intp)
        bdy, bdx = _disc_offsets(0.07 * p)
    bpx = (between_xy + m) * p
    between = _gather(bpx[:, 0], bpx[:, 1], bdy, bdx, (height, width))
    cross = cross_off = None
    if points:
        # Round each point where its stone stands: the lines (seen on an empty
        # board, even under glare or shadow; hidden by a stone) and the board between.
        inner, outer = config.cross_ring
        r = math.ceil(outer * p)
        ody, odx = np.mgrid[-r:r + 1, -r:r + 1]
        dist = np.hypot(odx, ody) / p
        ring = (dist >= inner) & (dist <= outer)
        on = ring & ((np.abs(odx) < config.line_band * p) | (np.abs(ody) < config.line_band * p))
        off = ring & (np.abs(odx) > 1.5 * config.line_band * p) & (
            np.abs(ody) > 1.5 * config.line_band * p)
        base = (centres + m) * p
        outside = ~((gx > -band) & (gx < spec.cols - 1 + band) & (gy > -band)
                    & (gy < spec.rows - 1 + band))
        cross = _gather(base[:, 0], base[:, 1], ody[on].astype(np.intp), odx[on].astype(np.intp),
                        (height, width), outside)
        cross_off = _gather(base[:, 0], base[:, 1], ody[off].astype(np.intp),
                            odx[off].astype(np.intp), (height, width), outside)
    rim = None
    if not points:
        # Where a stone's outline is seen: round the middle of its height.
        middle = (centres + shift * 0.6 + m) * p
        r = math.ceil((radius + config.rim_width) * p)
        ody, odx = np.mgrid[-r:r + 1, -r:r + 1]
        dist = np.hypot(odx, ody) / p
        ring = np.abs(dist - radius) <= config.rim_width
        rim = _gather(middle[:, 0], middle[:, 1], ody[ring].astype(np.intp),
                      odx[ring].astype(np.intp), (height, width))
    return GridSampler(spec, (height, width), disc, between, between_xy, parity,
                       place_parity, centres, cross, cross_off, rim)


# ----------------------------------------------------------------------------
# Reading


@dataclasses.dataclass(frozen=True)
class GridReading:
    """One frame's reading: ``grid`` rows top first, ``'.'``, ``'b'``, ``'w'``."""

    grid: tuple[str, ...]
    dark: tuple[float, ...]  # per place: fraction of its disc read as a black stone's
    white: tuple[float, ...]  # and as a white stone's


def to_lab(warped: Image) -> FloatArray:
    """Float Lab (L 0..100, a and b about 0) of a BGR warp, flattened to (pixels, 3)."""
    lab = cv2.cvtColor(warped.astype(np.float32) * (1 / 255), cv2.COLOR_BGR2Lab)
    return np.asarray(lab.reshape(-1, 3), np.float32)


def _take(lab: FloatArray, index: IntArray) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
    valid = index >= 0
    return lab[np.where(valid, index, 0)], valid


def _robust_surface(xy: FloatArray, values: FloatArray, weights_ok: npt.NDArray[np.bool_]
                    ) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
    """values (k,) ~ quadratic in x, y, fitted on the kept samples, trimmed twice."""
    x, y = xy[:, 0], xy[:, 1]
    scale = max(float(np.ptp(x)), float(np.ptp(y)), 1.0)
    x, y = (x - x.mean()) / scale, (y - y.mean()) / scale
    design = np.column_stack([np.ones_like(x), x, y, x * x, x * y, y * y]).astype(np.float64)
    keep = weights_ok.copy()
    fitted = np.full(len(values), float(np.median(values[keep])) if keep.any() else 0.0)
    for _ in range(3):
        if keep.sum() < 12:
            break
        coef, *_ = np.linalg.lstsq(design[keep], values[keep].astype(np.float64), rcond=None)
        fitted = design @ coef
        resid = np.abs(values - fitted)
        limit = max(float(np.median(resid[keep])) * 3.0, 0.04)
        keep = weights_ok & (resid <= limit)
    return fitted.astype(np.float32), keep


def board_colour(config: GridConfig, ab: FloatArray) -> FloatArray:
    """The board's colour (Lab a, b) from samples between the places, some covered.

    Stones are grey and the board is not: the median of the more coloured
    samples (chroma at or above the ``board_colour_quantile`` of them) stays on
    the board's own colour however many samples the stones cover.
    """
    finite = np.isfinite(ab).all(axis=1)
    if not finite.any():
        return np.zeros(2, np.float32)
    ab = ab[finite]
    chroma = np.linalg.norm(ab, axis=1)
    cut = float(np.percentile(chroma, 100 * config.board_colour_quantile))
    return np.asarray(np.median(ab[chroma >= cut], axis=0), np.float32)


def board_expectation(config: GridConfig, sampler: GridSampler, lab: FloatArray
                      ) -> tuple[FloatArray, FloatArray]:
    """The empty board's log lightness and chroma (a, b) at every place, from the frame.

    Medians over the between-places, then per square colour a robust smooth
    surface for the lightness and the median colour; samples far from the
    board's colour (stones leaning over them) are left out.
    """
    pix, valid = _take(lab, sampler.between)
    masked = np.where(valid[..., None], pix, np.nan)
    med = np.nanmedian(masked, axis=1)
    log_l = np.log(np.maximum(med[:, 0], 1.0))
    places = len(sampler.centres)
    exp_l = np.zeros(places, np.float32)
    exp_ab = np.zeros((places, 2), np.float32)
    for parity in np.unique(sampler.between_parity):
        rows = sampler.between_parity == parity
        ab = med[rows, 1:]
        ab_med = board_colour(config, ab)
        chroma = max(float(np.linalg.norm(ab_med)), config.board_min_chroma)
        ok = np.linalg.norm(ab - ab_med, axis=1) < 0.6 * chroma
        ok &= np.isfinite(log_l[rows])
        # Partly under a black stone: darker than most of the board.
        if ok.any():
            ok &= log_l[rows] > float(np.median(log_l[rows][ok])) - config.board_dark_cut
        if ok.sum() < 3:
            ok = np.isfinite(log_l[rows])
        # A stone over a sample makes it far darker (black) or lighter and grey (white).
        surface, kept = _robust_surface(sampler.between_xy[rows], log_l[rows], ok)
        target = sampler.place_parity == parity
        # Evaluate the fitted surface at the places: refit with places' coordinates.
        xy_all = np.concatenate([sampler.between_xy[rows], sampler.centres[target]])
        vals = np.concatenate([log_l[rows], np.zeros(int(target.sum()), np.float32)])
        mask = np.concatenate([kept, np.zeros(int(target.sum()), bool)])
        fitted, _ = _fit_eval(xy_all, vals, mask)
        exp_l[target] = fitted[int(rows.sum()):]
        exp_ab[target] = np.median(ab[kept], axis=0) if kept.any() else ab_med
        del surface
    return exp_l, exp_ab


def _fit_eval(xy: FloatArray, values: FloatArray, keep: npt.NDArray[np.bool_]
              ) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
    """A quadratic through the kept samples, evaluated everywhere (no trimming)."""
    x, y = xy[:, 0], xy[:, 1]
    scale = max(float(np.ptp(x)), float(np.ptp(y)), 1.0)
    x, y = (x - x.mean()) / scale, (y - y.mean()) / scale
    design = np.column_stack([np.ones_like(x), x, y, x * x, x * y, y * y]).astype(np.float64)
    if keep.sum() < 6:
        return np.full(len(values), float(np.median(values[keep])) if keep.any() else 0.0,
                       np.float32), keep
    coef, *_ = np.linalg.lstsq(design[keep], values[keep].astype(np.float64), rcond=None)
    return (design @ coef).astype(np.float32), keep


@dataclasses.dataclass(frozen=True, eq=False)
class GridReference:
    """The empty board warped, in Lab, and its overall lightness between the places."""

    lab: FloatArray
    between_l: float


def prepare_grid_reference(sampler: GridSampler, warped: Image) -> GridReference:
    lab = to_lab(warped)
    pix, valid = _take(lab, sampler.between)
    return GridReference(lab, float(np.median(pix[..., 0][valid])))


def classify_pixels(config: GridConfig, pix: FloatArray, exp_l: FloatArray,
                    exp_ab: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Per pixel (places, n): 1.0 where a black stone's, and where a white stone's.

    ``exp_l`` is the board's lightness, ``exp_ab`` its colour (broadcastable).
    """
    ratio = pix[..., 0] / np.maximum(exp_l, 1.0)
    ab = pix[..., 1:]
    board_chroma = np.maximum(np.linalg.norm(exp_ab, axis=-1), config.board_min_chroma)
    # How far from the board's own colour, darkened as much as the pixel is.
    shaded = exp_ab * np.clip(ratio, 0.0, 1.0)[..., None]
    loss = np.linalg.norm(ab - shaded, axis=-1) / (board_chroma * np.clip(ratio, 0.3, 1.0))
    grey = np.linalg.norm(ab, axis=-1) < board_chroma * np.maximum(ratio, 0.3) * 0.7
    dark = (ratio < config.dark_ratio) | ((ratio < config.dark_ratio_shadow)
                                           & (loss > config.dark_colour_loss))
    white = ((ratio >= config.white_ratio) & (loss > config.white_colour_loss) & grey) | (
        (ratio >= config.white_bright) & (board_chroma < config.pale_chroma))
    return dark.astype(np.float32), white.astype(np.float32)


def _reference_gain(lab: FloatArray, sampler: GridSampler, reference: GridReference
                    ) -> tuple[FloatArray, float]:
    """The reference's disc pixels, and the gain that matches the board's lightness
    now to the reference's (the light may have changed since), from the pixels
    between the places."""
    ref_pix, _ = _take(reference.lab, sampler.disc)
    now_between, bvalid = _take(lab, sampler.between)
    ref_between, _ = _take(reference.lab, sampler.between)
    ratios = now_between[..., 0][bvalid] / np.maximum(ref_between[..., 0][bvalid], 1.0)
    return ref_pix, float(np.median(ratios)) if ratios.size else 1.0


def read_grid(config: GridConfig, sampler: GridSampler, warped: Image,
              reference: GridReference | None = None) -> GridReading:
    """Stage: every place of the warp read as empty, black or white."""
    lab = to_lab(warped)
    pix, valid = _take(lab, sampler.disc)
    if reference is not None:
        ref_pix, gain = _reference_gain(lab, sampler, reference)
        exp_l = ref_pix[..., 0] * gain
        exp_ab = ref_pix[..., 1:]
    log_l, ab = board_expectation(config, sampler, lab)
    exp_l_board, exp_ab_board = np.exp(log_l), ab
    dark, white = classify_pixels(config, pix, np.exp(log_l)[:, None], ab[:, None, :])
    if reference is not None:
        # The reference knows each pixel's own board (lines, grain, marks); the
        # model knows the light of this frame. A pixel either calls a stone's is one.
        ref_dark, ref_white = classify_pixels(config, pix, exp_l, exp_ab)
        dark, white = np.maximum(dark, ref_dark), np.maximum(white, ref_white)
    count = np.maximum(valid.sum(axis=1), 1)
    dark_frac = (dark * valid).sum(axis=1) / count
    white_frac = (white * valid).sum(axis=1) / count
    labels = np.full(len(dark_frac), EMPTY)
    not_white = np.zeros(len(dark_frac), bool)
    cross = np.ones(len(dark_frac), np.float32)
    if sampler.cross is not None and sampler.cross_off is not None and reference is None:
        # Glare on the board looks white without a reference (a reference has the
        # same glare). Glare keeps the lines in view, and it spreads where a white
        # stone ends, lighter than the board right round it. Only against white:
        # a black stone standing off its point can leave the lines in view.
        cross = cross_ratio(sampler, lab)
        not_white = cross < config.cross_lifted
        faint = np.flatnonzero(~not_white & (cross < config.cross_faint))
        if faint.size:
            lift = local_lift(sampler, lab, faint)
            not_white[faint] = lift < np.where(cross[faint] < config.cross_visible,
                                               config.white_lift_lines, config.white_lift)
    # Glare on a black stone reads as white pixels; nothing on a white stone
    # reads dark: a stone with a good share of dark pixels is black.
    total = dark_frac + white_frac
    stone = total >= config.stone_fraction
    black = dark_frac >= config.black_share * total
    labels[stone & black] = BLACK
    labels[stone & ~black & ~not_white] = WHITE
    if sampler.cross is not None and sampler.cross_off is not None and reference is None:
        # Stones the board's colour hides from the pixel votes: their shape
        # hides the lines (white), or the whole disc is dark (black).
        # The disc's median against the board, as the share of its pixels under it.
        board = np.maximum(exp_l_board, 1.0)[:, None]
        half = 0.5 * count
        dark_disc = ((pix[..., 0] < config.black_median_ratio * board) & valid).sum(axis=1) > half
        light_disc = ((pix[..., 0] >= config.hidden_white_ratio * board) & valid).sum(
            axis=1) >= half
        low, high = config.hidden_lines
        empty = labels == EMPTY
        dark_disc |= dark_frac >= config.black_alone
        labels[empty & dark_disc] = BLACK
        labels[empty & ~dark_disc & (cross >= low) & (cross <= high) & light_disc] = WHITE
    if sampler.spec.kind == "cells":
        labels = cell_labels(config, sampler, lab, warped.shape[:2], exp_l_board, exp_ab_board,
                             reference)
    cols = sampler.spec.cols
    grid = tuple("".join(labels[r * cols:(r + 1) * cols]) for r in range(sampler.spec.rows))
    return GridReading(grid, tuple(float(v) for v in dark_frac),
                       tuple(float(v) for v in white_frac))


CELL_FEATURES = ("log1p colour distance", "log1p rim edge", "log1p lightness spread",
                 "|log darker quarter|", "|log lighter quarter|", "|log median|")
CELL_FEATURES_REF = (*CELL_FEATURES, "log1p change", "log1p colour change")


def cell_features(sampler: GridSampler, lab: FloatArray, shape: tuple[int, ...],
                  exp_l: FloatArray, exp_ab: FloatArray, reference: GridReference | None = None
                  ) -> tuple[FloatArray, FloatArray]:
    """Per square of a cell grid: the features of its stone score (``CELL_FEATURES``,
    and ``CELL_FEATURES_REF`` with a reference) and its disc's darker quarter's
    lightness (Lab L).

    Against the board there (``exp_l``, ``exp_ab`` from :func:`board_expectation`):
    how far the disc's colour is from the square's, how sharp the ring where a
    stone's outline is seen, how uneven the disc's lightness, and how far its
    lightness quartiles and median are from the square's; with a reference,
    how far each pixel changed since the empty board (its light matched).
    """
    assert sampler.rim is not None
    pix, valid = _take(lab, sampler.disc)
    light = np.where(valid, pix[..., 0], np.nan)
    level = np.maximum(exp_l, 1.0)
    colour = np.nanmedian(np.where(valid, np.linalg.norm(pix[..., 1:] - exp_ab[:, None, :],
                                                         axis=-1), np.nan), axis=1)
    low, mid, high = np.nanpercentile(light, [25, 50, 75], axis=1)
    columns = [np.log1p(colour), np.log1p(rim_edges(lab, shape, sampler.rim)),
               np.log1p(np.nanstd(light, axis=1)),
               np.abs(np.log(np.maximum(low / level, 1e-3))),
               np.abs(np.log(np.maximum(high / level, 1e-3))),
               np.abs(np.log(np.maximum(mid / level, 1e-3)))]
    if reference is not None:
        ref_pix, gain = _reference_gain(lab, sampler, reference)
        ab_change = np.sum((pix[..., 1:] - ref_pix[..., 1:]) ** 2, axis=-1)
        change = np.sqrt((pix[..., 0] - gain * ref_pix[..., 0]) ** 2 + ab_change)
        columns += [np.log1p(np.nanmedian(np.where(valid, change, np.nan), axis=1)),
                    np.log1p(np.nanmedian(np.where(valid, np.sqrt(ab_change), np.nan), axis=1))]
    features = np.nan_to_num(np.stack(columns, axis=1), nan=0.0, posinf=10.0)
    return np.asarray(features, np.float32), np.asarray(np.nan_to_num(low, nan=0.0), np.float32)


def light_square_level(sampler: GridSampler, exp_l: FloatArray) -> FloatArray:
    """Per square: the light squares' lightness there (its own, or its neighbours')."""
    rows, cols = sampler.spec.rows, sampler.spec.cols
    level = exp_l.reshape(rows, cols)
    parity = sampler.place_parity.reshape(rows, cols)
    means = [float(level[parity == p].mean()) if (parity == p).any() else 0.0 for p in (0, 1)]
    lighter = int(np.argmax(means))
    padded = np.pad(level, 1, mode="edge")
    around = (padded[:-2, 1:-1] + padded[2:, 1:-1] + padded[1:-1, :-2] + padded[1:-1, 2:]) / 4
    return np.asarray(np.where(parity == lighter, level, around).ravel(), np.float32)


def cell_labels(config: GridConfig, sampler: GridSampler, lab: FloatArray,
                shape: tuple[int, ...], exp_l: FloatArray, exp_ab: FloatArray,
                reference: GridReference | None = None) -> npt.NDArray[np.str_]:
    """Every square of a cell grid read: a stone where its fitted score is positive,
    black where its disc's darker quarter is far darker than the light squares."""
    features, low = cell_features(sampler, lab, shape, exp_l, exp_ab, reference)
    weights = np.array(config.cell_weights_ref if reference is not None
                       else config.cell_weights, np.float64)
    if len(weights) != features.shape[1] + 1:
        raise VisionError(f"the cell score needs {features.shape[1] + 1} weights, "
                          f"not {len(weights)}")
    score = weights[0] + features.astype(np.float64) @ weights[1:]
    black = low < config.cell_black_level * light_square_level(sampler, exp_l)
    labels = np.full(len(score), EMPTY)
    labels[(score > 0) & black] = BLACK
    labels[(score > 0) & ~black] = WHITE
    return labels


def rim_edges(lab: FloatArray, shape: tuple[int, ...], rim: IntArray) -> FloatArray:
    """Per place: the mean lightness gradient (Lab L a pixel) on its rim."""
    grey = lab[:, 0].reshape(shape[0], shape[1])
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3) * 0.125
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3) * 0.125
    magnitude = np.hypot(gx, gy).ravel()
    ok = rim >= 0
    values = magnitude[np.where(ok, rim, 0)]
    return np.asarray((values * ok).sum(axis=1) / np.maximum(ok.sum(axis=1), 1), np.float32)


def cross_ratio(sampler: GridSampler, lab: FloatArray) -> FloatArray:
    """Per point: the lightness of its lines right round it over the board's between
    them (medians; about 1 where a stone hides both, 1 where unknown)."""
    assert sampler.cross is not None and sampler.cross_off is not None
    on, on_ok = _take(lab, sampler.cross)
    off, off_ok = _take(lab, sampler.cross_off)
    line = np.nanmedian(np.where(on_ok, on[..., 0], np.nan), axis=1)
    board = np.nanmedian(np.where(off_ok, off[..., 0], np.nan), axis=1)
    return np.asarray(np.nan_to_num(line / np.maximum(board, 1.0), nan=1.0), np.float32)


def local_lift(sampler: GridSampler, lab: FloatArray, places: IntArray | None = None
               ) -> FloatArray:
    """Per point of a point grid (or of ``places``): its disc's median lightness over
    the median of the four square centres round it (1 where unknown)."""
    spec = sampler.spec
    index = np.arange(len(sampler.disc)) if places is None else places
    pix, ok = _take(lab, sampler.between)
    med = np.nanmedian(np.where(ok, pix[..., 0], np.nan), axis=1).reshape(spec.rows + 1,
                                                                         spec.cols + 1)
    around = np.stack([med[:-1, :-1], med[:-1, 1:], med[1:, :-1], med[1:, 1:]]).reshape(4, -1)
    board = np.nanmedian(around[:, index], axis=0)
    disc, dok = _take(lab, sampler.disc[index])
    level = np.nanmedian(np.where(dok, disc[..., 0], np.nan), axis=1)
    return np.asarray(np.nan_to_num(level / np.maximum(board, 1.0), nan=1.0), np.float32)


def classify_grid(config: GridConfig, image: Image, geometry: GridGeometry,
                  reference: Image | None = None) -> GridReading:
    """One photo (and optionally a photo of the empty board) read whole.

    Without a reference, on a point grid, the stones' tops are looked for where
    they read most plainly: the discs nudged by up to ``nudge_step`` pitches each
    way (:func:`read_nudged`), as the camera's pose from a photo's corners alone
    is rough.
    """
    warped = warp_grid(config, image, geometry)
    if reference is None and geometry.spec.kind == "points" and config.nudge_step > 0:
        return read_nudged(config, geometry, warped)
    sampler = make_grid_sampler(config, geometry)
    ref = None
    if reference is not None:
        ref = prepare_grid_reference(sampler, warp_grid(config, reference, geometry))
    return read_grid(config, sampler, warped, ref)


def read_nudged(config: GridConfig, geometry: GridGeometry, warped: Image) -> GridReading:
    """The reading, of nine with the discs nudged by 0 or +-``nudge_step`` pitches
    across and down, whose points are most plainly stone or board (the mean
    distance of each disc's share of stone pixels from a half)."""
    step = config.nudge_step
    best: tuple[float, GridReading] | None = None
    for dy in (0.0, -step, step):
        for dx in (0.0, -step, step):
            reading = read_grid(config, make_grid_sampler(config, geometry, (dx, dy)), warped)
            share = np.array(reading.dark) + np.array(reading.white)
            plain = float(np.abs(share - 0.5).mean())
            if best is None:
                best = (plain + config.nudge_margin, reading)
            elif plain > best[0]:
                best = (plain, reading)
    assert best is not None
    return best[1]


def corners_of(points: Sequence[Sequence[float]] | AnyFloatArray
               ) -> tuple[Point, Point, Point, Point]:
    """Four points in image order: top-left, top-right, bottom-right, bottom-left."""
    pts = np.array(points, np.float64).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    ordered = pts[np.argsort(angles)]  # clockwise in image coordinates, from about -180
    start = int(np.argmin(ordered.sum(axis=1)))
    ordered = np.roll(ordered, -start, axis=0)
    return tuple((float(x), float(y)) for x, y in ordered)  # type: ignore[return-value]
