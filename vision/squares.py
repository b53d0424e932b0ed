"""Reading the 64 squares of a top-down board: empty, white, black or blue.

Each square is judged on a disc where a piece would stand on it (its base),
moved a little along the piece's lean away from the camera, so a tall piece
leaning in from the next square does not count. The disc is compared with
what the empty square looks like there: the warped empty-board reference
when there is one, otherwise a smooth model of the light and dark square
colours fitted robustly to the square borders (which copes with uneven
light). Shadows are tolerated by weighing "darker with the same colour" less.
"""

from __future__ import annotations

import dataclasses
import logging
import math

import cv2
import numpy as np
import numpy.typing as npt

from vision.config import VisionConfig
from vision.geometry import BoardGeometry, Image

LOGGER = logging.getLogger(__name__)

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.intp]

EMPTY, WHITE, BLACK, BLUE = ".", "w", "b", "u"
COLOR_NAMES = {WHITE: "white", BLACK: "black", BLUE: "blue"}


@dataclasses.dataclass(frozen=True)
class SquareReading:
    """The reading of one frame: ``grid`` is 8 strings of 8 labels, rank 8 first."""

    grid: tuple[str, ...]
    occupancy: tuple[float, ...]  # per square (row-major from a8), >= 1 means occupied

    def label(self, row: int, col: int) -> str:
        return self.grid[row][col]


@dataclasses.dataclass(frozen=True, eq=False)
class SquareSampler:
    """Precomputed pixel indices (into a flattened warp) for one board geometry."""

    disc: IntArray  # (64, n) the sample disc of every square
    ring: IntArray  # (64, m) the border band of every square
    centres: FloatArray  # (64, 2) square centres in squares (x, y)
    light: npt.NDArray[np.bool_]  # (64,) which squares are light (a8 is light)


def _offsets(radius_px: float) -> tuple[IntArray, IntArray]:
    r = int(math.ceil(radius_px))
    ys, xs = np.mgrid[-r:r + 1, -r:r + 1]
    keep = xs * xs + ys * ys <= radius_px * radius_px
    return ys[keep], xs[keep]


def make_sampler(config: VisionConfig, geometry: BoardGeometry) -> SquareSampler:
    """Where to look on every square of a board seen with ``geometry``."""
    s = config.square_px
    m = config.margin_squares * s
    size = int(round((8 + 2 * config.margin_squares) * s))
    cam_x, cam_y, cam_h = geometry.camera_position()
    dy, dx = _offsets(config.sample_radius * s)
    band = max(1, int(round(0.12 * s)))
    discs, rings, centres, light = [], [], [], []
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
            discs.append(ys * size + xs)
            x0, y0 = int(m + col * s), int(m + row * s)
            inset = max(1, s // 16)
            yy, xx = np.mgrid[y0 + inset:y0 + s - inset, x0 + inset:x0 + s - inset]
            edge = ((yy < y0 + inset + band) | (yy >= y0 + s - inset - band)
                    | (xx < x0 + inset + band) | (xx >= x0 + s - inset - band))
            rings.append((yy[edge] * size + xx[edge]).astype(np.intp))
            centres.append((cx, cy))
            light.append((row + col) % 2 == 0)
    return SquareSampler(np.stack(discs), np.stack(rings),
                         np.array(centres, np.float32), np.array(light))


def to_lab(warped: Image) -> FloatArray:
    """Float Lab (L 0..100) of a BGR warp, flattened to (pixels, 3)."""
    lab = cv2.cvtColor(warped.astype(np.float32) * (1 / 255), cv2.COLOR_BGR2Lab)
    return np.asarray(lab.reshape(-1, 3), dtype=np.float32)


def _robust_plane(points: FloatArray, values: FloatArray) -> FloatArray:
    """Fit values (n, 3) ~ a + b x + c y robustly; returns (3 coefficients, 3 channels)."""
    design = np.column_stack([np.ones(len(points)), points]).astype(np.float64)
    keep = np.ones(len(points), bool)
    coef = np.zeros((3, 3))
    for _ in range(3):
        if keep.sum() < 4:
            break
        coef, *_ = np.linalg.lstsq(design[keep], values[keep].astype(np.float64), rcond=None)
        resid = np.linalg.norm(values - design @ coef, axis=1)
        scale = max(float(np.median(resid[keep])) * 2.5, 3.0)
        keep = resid <= scale
    return coef.astype(np.float32)


def square_models(config: VisionConfig, sampler: SquareSampler,
                  lab: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The light-square and dark-square colour (64, 3 each) at every square's place.

    Fitted to the square borders of this frame, so it follows uneven light.
    """
    ring_medians = np.median(lab[sampler.ring], axis=1)
    design = np.column_stack([np.ones(64), sampler.centres])
    light = _robust_plane(sampler.centres[sampler.light], ring_medians[sampler.light])
    dark = _robust_plane(sampler.centres[~sampler.light], ring_medians[~sampler.light])
    return (design @ light).astype(np.float32), (design @ dark).astype(np.float32)


def deviating(config: VisionConfig, pixels: FloatArray, expected: FloatArray
              ) -> npt.NDArray[np.bool_]:
    """Which pixels (64, n, 3) are not the empty board expected there (64, n|1, 3).

    A shadow makes a pixel darker with the same hue, so "darker" only counts
    below ``dark_ratio`` of the expected lightness; lighter counts sooner.
    """
    exp_l = np.maximum(expected[..., 0], 5.0)
    ratio = pixels[..., 0] / exp_l
    shade = np.clip(ratio, 0.0, 1.0)[..., None]
    chroma = np.linalg.norm(pixels[..., 1:] - expected[..., 1:] * shade, axis=-1)
    return np.asarray((ratio > config.light_ratio) | (ratio < config.dark_ratio)
                      | (chroma > config.chroma_delta))


def read_squares(config: VisionConfig, sampler: SquareSampler, warped: Image,
                 reference: Image | None = None) -> SquareReading:
    """Classify every square of ``warped`` (a warp made with the sampler's geometry)."""
    lab = to_lab(warped)
    pixels = lab[sampler.disc]  # (64, n, 3)
    light_model, dark_model = square_models(config, sampler, lab)
    if reference is not None:
        ref_lab = to_lab(reference)
        # Correct a global change of light between the reference and now.
        gain = float(np.median(lab[sampler.ring][..., 0]
                               / np.maximum(ref_lab[sampler.ring][..., 0], 5.0)))
        expected = ref_lab[sampler.disc] * np.array([gain, 1.0, 1.0], np.float32)
    else:
        own = np.where(sampler.light[:, None], light_model, dark_model)
        expected = own[:, None, :]
    fraction = deviating(config, pixels, expected).mean(axis=1)
    gray = np.ascontiguousarray(lab[:, 0].reshape(warped.shape[:2]))
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    grad = np.sqrt(gx * gx + gy * gy).reshape(-1)[sampler.disc]
    edges = (grad > config.edge_strength).mean(axis=1)
    occupancy = (fraction + config.edge_weight * edges) / config.occupied_fraction
    occupied = occupancy >= 1.0
    labels = _colours(config, pixels, occupied, light_model)
    grid = tuple("".join(labels[row * 8:(row + 1) * 8]) for row in range(8))
    return SquareReading(grid, tuple(float(v) for v in occupancy))


def _colours(config: VisionConfig, pixels: FloatArray, occupied: npt.NDArray[np.bool_],
             light_model: FloatArray) -> list[str]:
    """Colour of the occupied squares: blue by hue, then white or black by lightness
    relative to the light squares nearby (split at the widest gap when both are there)."""
    labels = [EMPTY] * 64
    chroma = np.hypot(pixels[..., 1], pixels[..., 2])
    hue = np.degrees(np.arctan2(pixels[..., 2], pixels[..., 1])) % 360
    lo, hi = config.blue_hue_range
    blue_px = (chroma > config.blue_min_chroma) & (hue >= lo) & (hue <= hi)
    blue = blue_px.mean(axis=1) > config.blue_fraction
    lightness = np.median(pixels[..., 0], axis=1) / np.maximum(light_model[:, 0], 5.0)
    candidates = [i for i in range(64) if occupied[i] and not blue[i]]
    threshold = config.white_ratio
    if len(candidates) >= 2:
        values = np.sort(lightness[candidates])
        gaps = np.diff(values)
        best = int(np.argmax(gaps))
        middle = float((values[best] + values[best + 1]) / 2)
        if gaps[best] > config.white_gap and abs(middle - config.white_ratio) < 0.25:
            threshold = middle
    for i in range(64):
        if not occupied[i]:
            continue
        if blue[i]:
            labels[i] = BLUE
        else:
            labels[i] = WHITE if lightness[i] > threshold else BLACK
    return labels
