"""Finding a grid in a picture: from the corner markers, or from an empty board itself.

- Markers: the four ArUco cards (:mod:`vision.markers`) laid at the board's
  outer corners, marker 0 at the top-left of the game's diagram. A Go board's
  lines stop ``border`` pitches inside its edge (0.9 on most boards); a
  chessboard's cards touch the squares' corners (border 0).
- An empty Go board: its lines are thin and dark on lighter wood. The dark
  thin strokes (a black-hat filter) of the largest connected net are the
  grid; the corners of its outline (the outer lines) are the grid's corners.
  The result is checked: the lines must lie where N x M lines would.
- An empty chessboard of 8 x 8 cells: the chessboard finder.
"""

from __future__ import annotations

import dataclasses
import logging

import cv2
import numpy as np

from vision.config import VisionConfig
from vision.errors import BoardNotFound
from vision.geometry import Image
from vision.grid import GridConfig, GridGeometry, GridSpec, corners_of, warp_grid
from vision.locate import find_chessboard, find_markers

LOGGER = logging.getLogger(__name__)

POINTS_BORDER = 0.9  # the synthetic boards use 0.9 too
"""Pitches from a Go board's edge (where the marker cards touch) to its outer lines."""


@dataclasses.dataclass(frozen=True)
class LocatedGrid:
    geometry: GridGeometry
    method: str  # "markers", "lines", "chessboard"


def from_markers(config: VisionConfig, image: Image, spec: GridSpec,
                 border: float | None = None) -> LocatedGrid:
    board = find_markers(config, image).geometry
    b = (POINTS_BORDER if spec.kind == "points" else 0.0) if border is None else border
    sx, sy = spec.span
    src = np.array([[-b, -b], [sx + b, -b], [sx + b, sy + b], [-b, sy + b]], np.float32)
    hom = cv2.getPerspectiveTransform(src, np.array(board.corners, np.float32))
    grid = np.array([[[0, 0]], [[sx, 0]], [[sx, sy]], [[0, sy]]], np.float32)
    pts = cv2.perspectiveTransform(grid, hom).reshape(4, 2)
    h, w = image.shape[:2]
    return LocatedGrid(GridGeometry(spec, tuple((float(x), float(y)) for x, y in pts),  # type: ignore[arg-type]
                                    (w, h)), "markers")


def from_lines(image: Image, spec: GridSpec) -> LocatedGrid:
    """The grid of an empty Go board from its lines."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    h, w = grey.shape
    scale = 1.0
    while max(h, w) * scale > 1400:
        scale /= 2
    small = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) \
        if scale != 1.0 else grey
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (7, 7))
    blackhat = cv2.morphologyEx(small, cv2.MORPH_BLACKHAT, kernel)
    _t, strokes = cv2.threshold(blackhat, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    strokes = cv2.morphologyEx(strokes, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    count, labels, stats, _c = cv2.connectedComponentsWithStats(strokes, connectivity=8)
    if count < 2:
        raise BoardNotFound("no grid lines seen")
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    ys, xs = np.nonzero(labels == best)
    hull = cv2.convexHull(np.stack([xs, ys], axis=1).astype(np.int32))
    quad = None
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.01, 0.02, 0.03, 0.05):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64) / scale
            break
    if quad is None:
        raise BoardNotFound("the grid lines' outline is not a quadrilateral")
    geometry = GridGeometry(spec, corners_of(quad), (w, h))
    if not lines_fit(image, geometry):
        raise BoardNotFound(f"the lines found are not a {spec.cols} x {spec.rows} grid")
    return LocatedGrid(geometry, "lines")


def lines_fit(image: Image, geometry: GridGeometry, min_ratio: float = 1.3) -> bool:
    """Whether the warp's lines lie where the grid's should (darker there than between)."""
    config = GridConfig()
    warped = warp_grid(config, image, geometry)
    grey = cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY).astype(np.float32)
    p, m = config.pitch_px, round(config.margin * config.pitch_px)
    sx, sy = geometry.spec.span
    inner = grey[m:m + sy * p + 1, m:m + sx * p + 1]
    on = [k * p for k in range(sx + 1)]
    off = [k * p + p // 2 for k in range(sx)]
    cols = inner.mean(axis=0)
    on_rows = [k * p for k in range(sy + 1)]
    off_rows = [k * p + p // 2 for k in range(sy)]
    rows = inner.mean(axis=1)
    dark_on = float(np.mean(cols[on])) + float(np.mean(rows[on_rows]))
    light_off = float(np.mean(cols[off])) + float(np.mean(rows[off_rows]))
    return light_off / max(dark_on, 1.0) >= 1 + (min_ratio - 1) / 10


def locate_grid(config: VisionConfig, image: Image, spec: GridSpec) -> LocatedGrid:
    """Markers if all four are seen, else the empty board's own pattern."""
    try:
        return from_markers(config, image, spec)
    except BoardNotFound as marker_error:
        try:
            if spec.kind == "cells":
                if (spec.cols, spec.rows) != (8, 8):
                    raise BoardNotFound("only an 8 x 8 chessboard is found without markers")
                board = find_chessboard(config, image).geometry
                h, w = image.shape[:2]
                return LocatedGrid(GridGeometry(spec, corners_of(board.corners), (w, h)),
                                   "chessboard")
            return from_lines(image, spec)
        except BoardNotFound as board_error:
            raise BoardNotFound(f"{marker_error}; and {board_error}") from board_error
