"""Finding the board in a frame: corner markers, the empty chessboard, or checking a cached one.

Stage functions ``(config, image) -> result``; each raises :class:`BoardNotFound`
naming what it looked for when it fails.
"""

from __future__ import annotations

import dataclasses
import logging

import cv2
import numpy as np

from vision.config import VisionConfig
from vision.errors import BoardNotFound
from vision.geometry import BoardGeometry, Image
from vision.markers import CELLS

LOGGER = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class Located:
    """A board found in a frame, and how: "markers" (orientation known), "chessboard"
    (orientation guessed: rank 8 towards the top of the image) or "manual"."""

    geometry: BoardGeometry
    method: str

    @property
    def oriented(self) -> bool:
        return self.method in ("markers", "manual", "followed")


def _grey(image: Image) -> Image:
    if image.ndim == 2:
        return image
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)


def _image_order(points: np.ndarray) -> np.ndarray:
    """Four points ordered top-left, top-right, bottom-right, bottom-left (clockwise)."""
    centre = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    ordered = points[np.argsort(angles)]  # clockwise in image coordinates (y down)
    start = int(np.argmin(ordered.sum(axis=1)))
    return np.roll(ordered, -start, axis=0)


def _chessboard_attempts(config: VisionConfig, grey: Image):  # type: ignore[no-untyped-def]
    """Corner searches from the most to the least precise, each yielding (corners|None, scale)."""
    h, w = grey.shape
    for factor in (1.0, 0.5):
        scale = min(1.0, config.locate.chessboard_max_side / max(h, w)) * factor
        small = cv2.resize(grey, (round(w * scale), round(h * scale)),
                           interpolation=cv2.INTER_AREA) if scale < 1 else grey
        found, corners = cv2.findChessboardCornersSB(small, (7, 7),
                                                     flags=cv2.CALIB_CB_NORMALIZE_IMAGE)
        yield (corners if found else None), scale
        if factor == 1.0:
            found, corners = cv2.findChessboardCorners(
                small, (7, 7), flags=cv2.CALIB_CB_ADAPTIVE_THRESH | cv2.CALIB_CB_NORMALIZE_IMAGE)
            if found:
                criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
                corners = cv2.cornerSubPix(small, corners, (5, 5), (-1, -1), criteria)
            yield (corners if found else None), scale
    scale = min(1.0, config.locate.chessboard_max_side / max(h, w))
    small = cv2.resize(grey, (round(w * scale), round(h * scale)),
                       interpolation=cv2.INTER_AREA) if scale < 1 else grey
    found, corners = cv2.findChessboardCornersSB(
        small, (7, 7), flags=cv2.CALIB_CB_NORMALIZE_IMAGE | cv2.CALIB_CB_EXHAUSTIVE)
    yield (corners if found else None), scale


def find_chessboard(config: VisionConfig, image: Image) -> Located:
    """The empty board from its 7x7 inner square corners.

    The outer corners are extrapolated from a homography fitted to all 49
    inner corners. The result puts a8 at the corner nearest the image's top
    left; the orientation must be confirmed once (``calibrate`` asks).
    """
    grey = _grey(image)
    h, w = grey.shape
    corners, scale = None, 1.0
    for attempt in _chessboard_attempts(config, grey):
        corners, scale = attempt
        if corners is not None:
            break
    if corners is None:
        raise BoardNotFound(
            "no empty chessboard found (looked for the 7x7 inner corners); clear the board, "
            "light it evenly and make sure all of it is in view, or use the corner markers"
        )
    inner = corners.reshape(-1, 2).astype(np.float64) / scale
    grid = np.array([[c + 1, r + 1] for r in range(7) for c in range(7)], np.float64)
    hom, _ = cv2.findHomography(grid, inner, 0)
    if hom is None:
        raise BoardNotFound("chessboard corners found but no consistent grid through them")
    outer = cv2.perspectiveTransform(
        np.array([[[0, 0]], [[8, 0]], [[8, 8]], [[0, 8]]], np.float64), hom).reshape(4, 2)
    quad = _image_order(outer)
    return Located(BoardGeometry.from_image_quad(quad.tolist(), 0, (w, h)), "chessboard")


def find_markers(config: VisionConfig, image: Image) -> Located:
    """The board from the four ArUco markers at a8, h8, h1, a1 (ids from the config).

    Each card's inner corner touches the board's corner; that corner is one
    marker cell beyond the marker's own corner nearest the board centre.
    """
    grey = _grey(image)
    seen = marker_quads(config, grey)
    missing = [i for i in config.locate.marker_ids if i not in seen]
    if missing:
        raise BoardNotFound(
            f"corner markers {missing} not seen (found {sorted(seen) or 'none'}); "
            "all four must be visible and uncovered"
        )
    quads = [seen[i] for i in config.locate.marker_ids]
    centre = np.mean([q.mean(axis=0) for q in quads], axis=0)
    board = []
    for quad in quads:
        k = int(np.argmin(np.linalg.norm(quad - centre, axis=1)))
        p, a, b = quad[k], quad[(k + 1) % 4], quad[(k - 1) % 4]
        board.append(p + (p - a) / CELLS + (p - b) / CELLS)
    h, w = grey.shape
    geometry = BoardGeometry(tuple((float(x), float(y)) for x, y in board),  # type: ignore[arg-type]
                             (w, h))
    return Located(geometry, "markers")


def locate(config: VisionConfig, image: Image) -> Located:
    """Markers if all four are in view, else the empty chessboard; BoardNotFound names both."""
    try:
        return find_markers(config, image)
    except BoardNotFound as marker_error:
        try:
            return find_chessboard(config, image)
        except BoardNotFound as board_error:
            raise BoardNotFound(f"{marker_error}; and {board_error}") from board_error


def grid_alignment(config: VisionConfig, warped: Image) -> float:
    """How well the warp's square borders sit where they should (>1: aligned).

    The mean brightness step across the 14 inner grid lines divided by the
    mean step a quarter square off them. Pieces hide some lines but rarely
    most; a bumped camera moves the lines and the ratio falls towards 1.
    """
    grey = _grey(warped).astype(np.float32)
    s = config.warp.square_px
    m = round(config.warp.margin_squares * s)
    board = grey[m:m + 8 * s, m:m + 8 * s]
    dx = np.abs(np.diff(board, axis=1))
    dy = np.abs(np.diff(board, axis=0))
    on_positions = [k * s - 1 for k in range(1, 8)]
    off_positions = [k * s + d for k in range(1, 8) for d in (-s // 4, s // 4)]
    on = dx[:, on_positions].mean() + dy[on_positions, :].mean()
    off = dx[:, off_positions].mean() + dy[off_positions, :].mean()
    return float(on / max(off, 1e-3))


def marker_quads(config: VisionConfig, image: Image) -> dict[int, np.ndarray]:
    """The board's corner markers in view: id -> its four corners (4, 2) in pixels."""
    dictionary = cv2.aruco.getPredefinedDictionary(
        getattr(cv2.aruco, config.locate.aruco_dictionary))
    detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    found, ids, _ = detector.detectMarkers(_grey(image))
    seen: dict[int, np.ndarray] = {}
    if ids is not None:
        for quad, marker_id in zip(found, ids.ravel(), strict=True):
            if int(marker_id) in config.locate.marker_ids:
                seen.setdefault(int(marker_id), quad.reshape(4, 2).astype(np.float64))
    return seen


def follow_markers(before: dict[int, np.ndarray], now: dict[int, np.ndarray],
                   geometry: BoardGeometry, image_size: tuple[int, int]) -> Located:
    """The board of ``geometry`` (found when the markers ``before`` were seen) after
    the camera moved, from the markers seen ``now``: a homography over the corners
    of three or more markers seen both times, or a rotation, scale and shift from
    two (a piece may stand in front of one marker, and a board with pieces is no
    empty chessboard to find)."""
    common = sorted(set(before) & set(now))
    if len(common) < 2:
        raise BoardNotFound(f"only markers {common or 'none'} seen both before and now; "
                            "two are needed to follow the board")
    old = np.vstack([before[i] for i in common]).astype(np.float32)
    new = np.vstack([now[i] for i in common]).astype(np.float32)
    corners = np.array(geometry.corners, np.float32).reshape(-1, 1, 2)
    if len(common) >= 3:
        hom, _ = cv2.findHomography(old, new, 0)
        moved = None if hom is None else cv2.perspectiveTransform(corners, hom)
    else:
        affine, _ = cv2.estimateAffinePartial2D(old, new)
        moved = None if affine is None else cv2.transform(corners, affine)
    if moved is None:
        raise BoardNotFound(f"markers {common} seen again but no consistent move fits them")
    quad = tuple((float(x), float(y)) for x, y in moved.reshape(4, 2))
    LOGGER.info("board followed by markers %s", common)
    return Located(BoardGeometry(quad, image_size), "followed")  # type: ignore[arg-type]
