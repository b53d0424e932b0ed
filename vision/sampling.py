"""Where the square reader looks on a board seen with one geometry (:class:`SquareSampler`):
every square's sample disc where a piece's base stands (moved along its lean away from the
camera), its border band, the ring where a base meets the board, its core, which
squares a tall piece leans over, and where the square networks' tiles are cut; and the
board's own light- and dark-square colours fitted to its borders (:func:`square_models`)."""

from __future__ import annotations

import dataclasses
import logging
import math

import cv2
import numpy as np
import numpy.typing as npt

from vision.config import VisionConfig
from vision.geometry import BoardGeometry, Image
from vision.leaning import LeanTable, lean_table
from vision.square_net import TileMaps, tile_maps
from vision.square_reading import FloatArray, IntArray

LOGGER = logging.getLogger(__name__)

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
    s = config.warp.square_px
    m = config.warp.margin_squares * s
    size = round((8 + 2 * config.warp.margin_squares) * s)
    # Indices are into the board cropped out of the warp, 2 pixels beyond its edge.
    origin, crop = round(m) - 2, 8 * s + 4
    cam_x, cam_y, cam_h = geometry.camera_position()
    dy, dx = _offsets(config.sampling.sample_radius * s)
    band = max(1, round(0.12 * s))
    base_dy, base_dx = _annulus(config.sampling.base_ring[0] * s, config.sampling.base_ring[1] * s)
    quarter = (base_dx >= 0).astype(np.intp) + 2 * (base_dy >= 0)
    quarters = (quarter[:, None] == np.arange(4)[None, :]).astype(np.float32)
    quarters /= np.maximum(quarters.sum(axis=0), 1.0)
    bases = []
    discs, directions, rings, centres, light, leans = [], [], [], [], [], []
    for row in range(8):
        for col in range(8):
            cx, cy = col + 0.5, row + 0.5
            # Lean of a piece top, in squares, from the camera's ground point.
            hp = config.sampling.piece_height_squares
            lean = np.array([cx - cam_x, cy - cam_y]) * hp / max(cam_h - hp, 0.5)
            length = float(np.linalg.norm(lean))
            shift = lean / length * min(config.sampling.lean_shift, 0.5 * length) if length > 1e-6 \
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
    lean = leans * config.lean.tall_piece_squares
    reach = np.hypot(lean[:, 0], lean[:, 1])[:, None]
    along = (offset * lean[:, None, :]).sum(axis=2) / np.maximum(reach, 1e-9)
    covers = ((distance <= 1.5) & (reach >= 1e-6) & (along >= 0.7 * distance)
              & (reach >= distance - config.sampling.sample_radius))
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
