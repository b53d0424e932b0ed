"""Where the board is in the image, and the top-down warp of it.

A :class:`BoardGeometry` holds the image positions of the four outer corners
of the 8x8 squares in the order a8, h8, h1, a1, so the warp puts rank 8 at the
top and the a-file on the left. It also estimates where the camera stands
over the board, which tells how pieces lean in the picture.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from collections.abc import Sequence
from typing import Any

import chess
import cv2
import numpy as np
import numpy.typing as npt

from vision.config import VisionConfig
from vision.errors import CalibrationError

LOGGER = logging.getLogger(__name__)

Point = tuple[float, float]
Image = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float64]


@dataclasses.dataclass(frozen=True)
class BoardGeometry:
    """The board's outer corners in image pixels: a8, h8, h1, a1 (clockwise from a8)."""

    corners: tuple[Point, Point, Point, Point]
    image_size: tuple[int, int] = (0, 0)  # (width, height) the corners were found in

    def __post_init__(self) -> None:
        corners = tuple((float(x), float(y)) for x, y in self.corners)
        if len(corners) != 4:
            raise CalibrationError(f"a board needs 4 corners, got {len(corners)}")
        if not all(math.isfinite(v) for point in corners for v in point):
            raise CalibrationError("board corners must be finite numbers")
        pts = np.array(corners, dtype=np.float32)
        area = cv2.contourArea(pts)
        if (abs(area) >= 64.0 and not cv2.isContourConvex(pts.reshape(-1, 1, 2))) \
                or (abs(area) < 64.0 and len({tuple(p) for p in corners}) == 4):
            raise CalibrationError(
                "board corners do not form a convex quadrilateral; give them in the "
                "order a8, h8, h1, a1 (going round the board)"
            )
        if abs(area) < 64.0:
            raise CalibrationError(f"board corners span almost no area ({abs(area):.0f} px²)")
        object.__setattr__(self, "corners", corners)

    # Construction -------------------------------------------------------------

    @classmethod
    def from_image_quad(
        cls, tl_tr_br_bl: Sequence[Sequence[float]], rotation_degrees: int = 0,
        image_size: tuple[int, int] = (0, 0),
    ) -> BoardGeometry:
        """From corners in image order (top-left, top-right, bottom-right, bottom-left).

        ``rotation_degrees`` (a multiple of 90) is how far the warped square
        must turn clockwise to put rank 8 at the top.
        """
        if rotation_degrees % 90:
            raise CalibrationError(f"rotation must be a multiple of 90, got {rotation_degrees}")
        quad = [(float(p[0]), float(p[1])) for p in tl_tr_br_bl]
        k = (rotation_degrees // 90) % 4
        a8, h8, h1, a1 = (quad[(i - k) % 4] for i in range(4))
        return cls((a8, h8, h1, a1), image_size)

    def rotated(self, quarter_turns: int) -> BoardGeometry:
        """The same quadrilateral with a8 moved ``quarter_turns`` corners clockwise."""
        k = quarter_turns % 4
        c = self.corners
        return BoardGeometry((c[-k % 4], c[(1 - k) % 4], c[(2 - k) % 4], c[(3 - k) % 4]),
                             self.image_size)

    def scaled(self, factor: float) -> BoardGeometry:
        """The geometry for the same image scaled by ``factor``."""
        w, h = self.image_size
        return BoardGeometry(
            tuple((x * factor, y * factor) for x, y in self.corners),  # type: ignore[arg-type]
            (round(w * factor), round(h * factor)),
        )

    # Serialisation ------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "corners_a8_h8_h1_a1": [[round(x, 2), round(y, 2)] for x, y in self.corners],
            "image_size": list(self.image_size),
        }

    @classmethod
    def from_json(cls, data: Any) -> BoardGeometry:
        try:
            corners = data["corners_a8_h8_h1_a1"]
            size = data.get("image_size", [0, 0])
            quad = tuple((float(p[0]), float(p[1])) for p in corners)
            return cls(quad, (int(size[0]), int(size[1])))  # type: ignore[arg-type]
        except (KeyError, TypeError, IndexError, ValueError) as error:
            if isinstance(error, CalibrationError):
                raise
            raise CalibrationError(f"malformed board geometry {data!r}: {error}") from error

    # Warping ------------------------------------------------------------------

    def homography(self, config: VisionConfig) -> FloatArray:
        """Image -> warped board (square_px per square, margin_squares around it)."""
        s = config.warp.square_px
        m = config.warp.margin_squares * s
        dst = np.array([[m, m], [m + 8 * s, m], [m + 8 * s, m + 8 * s], [m, m + 8 * s]],
                       dtype=np.float32)
        src = np.array(self.corners, dtype=np.float32)
        return np.asarray(cv2.getPerspectiveTransform(src, dst), dtype=np.float64)

    def camera_position(self) -> tuple[float, float, float]:
        """Where the camera stands, in squares: (file, rank-from-top, height).

        x and y are in warped-board square units (0..8 across the board, y
        down from rank 8); the height is above the board plane. Estimated from
        the corners alone, assuming the principal point at the image centre
        and square pixels, unless the corners say clearly that the picture was
        resampled to another shape (see :func:`pixel_aspect`, :func:`focal_length`).
        """
        hm = self._centred_homography()
        longer = max(self._size())
        aspect = pixel_aspect(hm, longer)
        hm = np.diag([1.0, aspect, 1.0]) @ hm
        focal = focal_length(hm, longer)
        kinv = np.diag([1 / focal, 1 / focal, 1.0])
        r1, r2, t = kinv @ hm[:, 0], kinv @ hm[:, 1], kinv @ hm[:, 2]
        scale = 2.0 / (np.linalg.norm(r1) + np.linalg.norm(r2))
        r1, r2, t = r1 * scale, r2 * scale, t * scale
        r3 = np.cross(r1, r2)
        rot = np.stack([r1, r2, r3], axis=1)
        # H and -H are the same homography: the sign only flips the height.
        centre = -rot.T @ t
        height = abs(float(centre[2]))
        return float(centre[0]), float(centre[1]), max(height, 1.0)

    def pixel_aspect(self) -> float:
        """How much taller than wide the picture's pixels are (1.0: square
        pixels; see :func:`pixel_aspect`)."""
        return pixel_aspect(self._centred_homography(), max(self._size()))

    def _size(self) -> tuple[int, int]:
        w, h = self.image_size
        if not w or not h:
            xs = [p[0] for p in self.corners]
            ys = [p[1] for p in self.corners]
            w, h = int(2 * (sum(xs) / 4)), int(2 * (sum(ys) / 4))
        return w, h

    def _centred_homography(self) -> FloatArray:
        """Board squares -> image pixels about the image centre."""
        w, h = self._size()
        dst = np.array([[0, 0], [8, 0], [8, 8], [0, 8]], dtype=np.float64)
        board_to_image = cv2.getPerspectiveTransform(
            dst.astype(np.float32), np.array(self.corners, dtype=np.float32))
        shift = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]], dtype=np.float64)
        return np.asarray(shift @ board_to_image, dtype=np.float64)


# A webcam's or tablet's focal length is about 0.8 of the picture's longer side
# (a field of view near 65 degrees across it). How much the corners must say
# to move the estimate off it: with 2% of a square of noise on the corners, the
# estimated lean of a piece top was off by 0.048 squares (90th percentile, 200
# synthetic scenes) against 0.155 with no prior, and at most 0.096 against 1.8.
FOCAL_PRIOR = 0.8
FOCAL_PRIOR_WEIGHT = 3e-3


def _focal_fit(board_to_image: FloatArray, longer_side: int) -> tuple[float, float]:
    """v = (prior / f)^2 that fits the board's right angle and equal sides
    best (with the prior), and how badly the two equations still miss."""
    prior = FOCAL_PRIOR * longer_side
    hm = np.diag([1 / prior, 1 / prior, 1.0]) @ board_to_image
    hm = hm / np.linalg.norm(hm[:2, :2])
    h1, h2 = hm[:, 0], hm[:, 1]
    a = np.array([h1[0] * h2[0] + h1[1] * h2[1],
                  h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2])
    b = np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
    # Minimise |a v + b|^2 + weight (v - 1)^2 over v = (prior / f)^2.
    v = (FOCAL_PRIOR_WEIGHT - float(a @ b)) / (float(a @ a) + FOCAL_PRIOR_WEIGHT)
    return v, float(np.sum((a * v + b) ** 2))


def focal_length(board_to_image: FloatArray, longer_side: int) -> float:
    """The focal length (pixels) of a camera that sees the board's plane
    through ``board_to_image`` (board squares -> pixels about the image centre).

    The board's two axes are at right angles and equally long, which gives two
    equations in 1/f^2 (as in Zhang's calibration from one view). Seen nearly
    straight on, both say almost nothing and a few pixels of error in a corner
    would move f anywhere, so they are solved by least squares together with
    a weak prior at FOCAL_PRIOR x the longer side.
    """
    v, _ = _focal_fit(board_to_image, longer_side)
    prior = FOCAL_PRIOR * longer_side
    focal = prior / math.sqrt(v) if v > 0 else 5.0 * longer_side
    return min(max(focal, 0.3 * longer_side), 5.0 * longer_side)


# A photo made square from a 4:3 one (many published datasets stretch every
# picture to 640 x 640) has pixels 3/4 or 4/3 as tall as wide. Pixels that are
# not square bend the board's right angle and equal sides in a way no focal
# length explains, so the two equations of focal_length then miss by far more.
RESAMPLED_ASPECTS = (0.75, 4.0 / 3.0)
# How many times better another aspect must fit than square pixels. Square-pixel
# synthetic boards with 3% of a square of noise on the corners: the best other
# aspect fitted 70 and 121 times better at the 99.9th percentiles (2,000
# leaning and 2,000 varied scenes), and none of 6,000 lacked a focal length
# for square pixels; 38 of the 40 photos of the development part's folding
# board (stretched from 4:3 to 640 x 640 by their author) did, and the other
# two fitted 3/4 348 and 1,057 times better.
ASPECT_EVIDENCE = 200.0


def pixel_aspect(board_to_image: FloatArray, longer_side: int) -> float:
    """1.0 (square pixels), unless one of RESAMPLED_ASPECTS fits the board's
    corners ASPECT_EVIDENCE times better, or fits them with a focal length where
    square pixels fit none: then that aspect, the factor by
    which the picture's rows must be scaled for its pixels to be square."""
    v, square = _focal_fit(board_to_image, longer_side)
    # No focal length at all (v <= 0) fits square pixels: any aspect that has one wins.
    best, best_miss = 1.0, square / ASPECT_EVIDENCE if v > 0 else math.inf
    for aspect in RESAMPLED_ASPECTS:
        v, miss = _focal_fit(np.diag([1.0, aspect, 1.0]) @ board_to_image, longer_side)
        if v > 0 and miss < best_miss:
            best, best_miss = aspect, miss
    return best


def warp(config: VisionConfig, image: Image, geometry: BoardGeometry) -> Image:
    """The top-down board with its margin, rank 8 at the top.

    A board much larger in the image than in the warp is first halved (with
    smoothing) until it is at most twice the warp's size, so wood grain and
    sensor noise average out instead of aliasing.
    """
    size = round((8 + 2 * config.warp.margin_squares) * config.warp.square_px)
    pts = np.array(geometry.corners)
    extent = max(np.linalg.norm(pts[i] - pts[(i + 1) % 4]) for i in range(4))
    while extent > 2.5 * 8 * config.warp.square_px and min(image.shape[:2]) > 64:
        image = np.asarray(cv2.pyrDown(image), np.uint8)
        geometry = geometry.scaled(0.5)
        extent /= 2
    return np.asarray(
        cv2.warpPerspective(image, geometry.homography(config), (size, size),
                            flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT),
        dtype=np.uint8,
    )


def square_at(row: int, col: int) -> chess.Square:
    """The square in warped row ``row`` (0 = rank 8) and column ``col`` (0 = file a)."""
    return chess.square(col, 7 - row)


def parse_corners(text: str) -> tuple[Point, Point, Point, Point]:
    """Parse ``X,Y,X,Y,X,Y,X,Y`` (a8, h8, h1, a1) into four points."""
    parts = [p.strip() for p in text.replace(";", ",").split(",") if p.strip()]
    if len(parts) != 8:
        raise CalibrationError(
            f"corners need 8 numbers X,Y,X,Y,X,Y,X,Y (a8, h8, h1, a1), got {len(parts)}: {text!r}"
        )
    try:
        values = [float(p) for p in parts]
    except ValueError as error:
        raise CalibrationError(f"corners must be numbers: {text!r}") from error
    return ((values[0], values[1]), (values[2], values[3]),
            (values[4], values[5]), (values[6], values[7]))
