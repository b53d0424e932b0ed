"""Watching a stone game: the per-frame chain for a grid, settling, and the camera source.

``GridPipeline.process(frame, timestamp)`` runs: warp -> small grey ->
hand/motion (the chessboard's stage, on a grey view of the grid scaled to
its 8 x 8 cells) -> read the grid (skipped while the frame is disturbed).
:class:`GridSettler` turns a run of still frames that agree into one settled
grid, as the chessboard's settler does. :class:`CameraGridReader` reads a
camera or video file in a thread and reports settled boards as
:class:`~companion.sync.stones.StoneSnapshot` through a callback.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from companion.sensors.source import BoardSourceError, SourceStatus, StatusCallback
from companion.sync.stones import GridLayout, StoneSnapshot
from vision.config import VisionConfig
from vision.errors import BoardNotFound, VisionError
from vision.geometry import Image
from vision.grid import (
    GridConfig,
    GridGeometry,
    GridReading,
    GridReference,
    GridSpec,
    make_grid_sampler,
    prepare_grid_reference,
    read_grid,
    warp_grid,
)
from vision.grid_locate import locate_grid
from vision.motion import CELL_PX, Disturbance, Grey, detect_disturbance
from vision.reader import CameraBoardReader, parse_source

LOGGER = logging.getLogger(__name__)

GridCallback = Callable[[StoneSnapshot], None]


@dataclasses.dataclass(frozen=True)
class GridFrame:
    """One processed frame: the grid read (None while disturbed) and why not."""

    timestamp: float
    reading: GridReading | None
    disturbance: Disturbance


def small_grid_grey(config: VisionConfig, image: Image, geometry: GridGeometry) -> Grey:
    """The grid and a one-eighth margin, grey, at 8 x 8 cells of CELL_PX pixels (+ margin)."""
    cells = round(8 + 2 * config.warp.margin_squares)
    m = config.warp.margin_squares * CELL_PX
    side = 8 * CELL_PX
    dst = np.array([[m, m], [m + side, m], [m + side, m + side], [m, m + side]], np.float32)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    scale = 1.0
    pts = np.array(geometry.corners, np.float32)
    while float(np.ptp(pts[:, 0])) * scale > 4 * side and min(grey.shape[:2]) > 64:
        grey = cv2.pyrDown(grey)
        scale /= 2
    hom = cv2.getPerspectiveTransform(pts * scale, dst)
    small = cv2.warpPerspective(grey, hom, (cells * CELL_PX, cells * CELL_PX),
                                flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(cv2.GaussianBlur(small, (3, 3), 0), np.float32)


class GridPipeline:
    """Per-frame processing for one grid geometry.

    With ``empty_start`` (stone games start on the empty board) the first
    still view becomes the empty-board reference every place is compared with.
    """

    def __init__(self, geometry: GridGeometry, *, config: GridConfig | None = None,
                 vision: VisionConfig | None = None, reference: Image | None = None,
                 empty_start: bool = True) -> None:
        self.config = config or GridConfig()
        self.vision = vision or VisionConfig()
        self.geometry = geometry
        self.sampler = make_grid_sampler(self.config, geometry)
        self.reference: GridReference | None = None
        if reference is not None:
            self.reference = prepare_grid_reference(
                self.sampler, warp_grid(self.config, reference, geometry))
        self.empty_start = empty_start and reference is None
        self._previous: Grey | None = None
        self._settled: Grey | None = None
        self._still = 0
        self._last_motion = -math.inf

    def process(self, frame: Image, timestamp: float) -> GridFrame:
        vision = self.vision
        grey = small_grid_grey(vision, frame, self.geometry)
        disturbance = detect_disturbance(vision, grey, self._previous, self._settled)
        self._previous = grey
        self._still = 0 if disturbance.moving else self._still + 1
        if disturbance.moving:
            self._last_motion = timestamp
        elif disturbance.hand and timestamp - self._last_motion >= vision.motion.hand_still_seconds:
            disturbance = dataclasses.replace(disturbance, hand=False)
        if self._still >= vision.settle.settle_frames and not disturbance.hand:
            self._settled = grey
        if not disturbance.still:
            return GridFrame(timestamp, None, disturbance)
        warped = warp_grid(self.config, frame, self.geometry)
        if self.empty_start and self._still >= vision.settle.settle_frames:
            LOGGER.info("taking the first still view as the empty board")
            self.reference = prepare_grid_reference(self.sampler, warped)
            self.empty_start = False
        return GridFrame(timestamp, read_grid(self.config, self.sampler, warped, self.reference),
                         disturbance)


class GridSettler:
    """Still frames that agree for ``settle_frames`` and ``settle_seconds`` -> one grid."""

    def __init__(self, config: VisionConfig | None = None) -> None:
        self.config = config or VisionConfig()
        self._grid: tuple[str, ...] | None = None
        self._count = 0
        self._since = 0.0
        self.last_sent: tuple[str, ...] | None = None

    def feed(self, frame: GridFrame) -> tuple[str, ...] | None:
        if frame.reading is None:
            self._grid, self._count = None, 0
            return None
        grid = frame.reading.grid
        if grid != self._grid:
            self._grid, self._count, self._since = grid, 1, frame.timestamp
            return None
        self._count += 1
        if (self._count >= self.config.settle.settle_frames
                and frame.timestamp - self._since >= self.config.settle.settle_seconds
                and grid != self.last_sent):
            self.last_sent = grid
            return grid
        return None


class CameraGridReader(CameraBoardReader):
    """The camera board reader for stone games: settled grids as stone snapshots.

    ``layout`` names the game's cells (top row first); the grid is found with
    :func:`vision.grid_locate.locate_grid` unless ``geometry`` is given.
    """

    name = "camera"

    def __init__(self, source: int | str, spec: GridSpec, layout: GridLayout, *,
                 geometry: GridGeometry | None = None, **kwargs: Any) -> None:
        super().__init__(source, **kwargs)
        self.spec = spec
        self.layout = layout
        self.grid_geometry = geometry
        self.grid_pipeline: GridPipeline | None = None
        self.grid_settler = GridSettler(self.config)

    def _handle(self, frame: Any, timestamp: float, settler: Any,
                on_snapshot: Callable[[Any], None], on_status: StatusCallback) -> None:
        self.frames_seen += 1
        if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.size == 0:
            on_status(SourceStatus(self.name, True, "skipped an unreadable frame"))
            return
        self.last_frame = frame
        if self.grid_pipeline is None:
            if self.grid_geometry is None:
                if self.frames_seen % 5 != 1:
                    return
                try:
                    self.grid_geometry = locate_grid(self.config, frame, self.spec).geometry
                except BoardNotFound as error:
                    on_status(SourceStatus(self.name, True, f"looking for the grid: {error}"))
                    return
                on_status(SourceStatus(self.name, True, "grid found"))
            self.grid_pipeline = GridPipeline(self.grid_geometry, vision=self.config,
                                              empty_start=self.empty_start)
        result = self.grid_pipeline.process(frame, timestamp)
        grid = self.grid_settler.feed(result)
        if grid is not None:
            on_snapshot(StoneSnapshot(self.layout.cells_of(grid), timestamp, self.name))


def open_grid_board(argument: str, spec_text: str, layout: GridLayout, *,
                    empty_start: bool = True) -> CameraGridReader:
    """The ``camera[:SOURCE]`` board for a stone game of grid ``spec_text`` (``points:19``).

    ``empty_start``: the game starts on the empty board, whose first still view
    becomes the reference (Raindrops starts full: it is read without one).
    """
    try:
        return CameraGridReader(parse_source(argument), GridSpec.parse(spec_text), layout,
                                empty_start=empty_start)
    except VisionError as error:
        raise BoardSourceError(f"camera: {error}") from error
