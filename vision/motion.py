"""Hands and motion: whether a frame can be trusted, and when a run of frames has settled.

A frame is unsettled when it changed from the previous one (motion) or when
something large reaches in over the board edge (a hand or arm) compared with
the last settled frame. Only a run of still frames with the same reading,
long enough, becomes a :class:`BoardSnapshot`.
"""

from __future__ import annotations

import dataclasses
import logging

import chess
import cv2
import numpy as np
import numpy.typing as npt

from companion.sensors.snapshot import TRAIL_LIMIT, BoardSnapshot, Glimpse, PieceColor
from vision.config import VisionConfig
from vision.geometry import Image, square_at
from vision.square_reading import COLOR_NAMES, EMPTY, SquareReading

LOGGER = logging.getLogger(__name__)

CELL_PX = 8  # the small grey warp has this many pixels a square
Grey = npt.NDArray[np.float32]


@dataclasses.dataclass(frozen=True)
class Disturbance:
    """Why a frame cannot be trusted: ``moving`` (changed from the last frame),
    ``hand`` (something large reaching in over the board edge)."""

    moving: bool
    hand: bool
    motion: float  # the largest fraction of one square that changed since the last frame
    reach: int  # cells of the largest changed region touching the margin

    @property
    def still(self) -> bool:
        return not (self.moving or self.hand)


def small_grey(config: VisionConfig, warped: Image) -> Grey:
    """Stage: the warp (board and margin) in grey at CELL_PX pixels a square, smoothed."""
    cells = round(8 + 2 * config.warp.margin_squares)
    grey = cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY) if warped.ndim == 3 else warped
    small = cv2.resize(grey, (cells * CELL_PX, cells * CELL_PX), interpolation=cv2.INTER_AREA)
    return np.asarray(small, np.float32)


def _changed_cells(config: VisionConfig, now: Grey, before: Grey, threshold: float) -> Grey:
    """Fraction of each square-sized cell (board and margin) that changed."""
    diff = now - before
    diff -= float(np.median(diff))  # a global change of light is not motion
    changed = (np.abs(diff) > threshold).astype(np.float32)
    cells = now.shape[0] // CELL_PX
    return np.asarray(changed.reshape(cells, CELL_PX, cells, CELL_PX).mean(axis=(1, 3)),
                      np.float32)


def detect_disturbance(config: VisionConfig, now: Grey, previous: Grey | None,
                       settled: Grey | None) -> Disturbance:
    """Stage: motion against ``previous`` and a hand against ``settled`` (either may be None)."""
    motion = 0.0
    if previous is not None:
        motion = float(_changed_cells(config, now, previous, config.motion.motion_threshold).max())
    reach = 0
    if settled is not None:
        cells = _changed_cells(config, now, settled, config.motion.hand_threshold)
        mask = (cells > config.motion.hand_cell_fraction).astype(np.uint8)
        count, labels = cv2.connectedComponents(mask, connectivity=8)
        margin = np.ones_like(mask, bool)
        m = round(config.warp.margin_squares)
        margin[m:-m, m:-m] = False
        for label in range(1, count):
            component = labels == label
            size = int(component.sum())
            if (component & margin).any() or size >= config.motion.hand_inner_cells:
                reach = max(reach, size)
    return Disturbance(moving=motion > config.motion.motion_fraction,
                       hand=reach >= config.motion.hand_cells, motion=motion, reach=reach)


@dataclasses.dataclass(frozen=True)
class FrameReading:
    """One processed frame: its squares (None when not read), disturbance and alignment."""

    timestamp: float
    reading: SquareReading | None
    disturbance: Disturbance
    alignment: float
    aligned: bool


def snapshot_of(reading: SquareReading, timestamp: float, source: str,
                unsure_log_odds: float = 0.0) -> BoardSnapshot:
    """The snapshot a reading describes (colours for every occupied square); a
    square read empty whose log-odds of a piece lie above ``-unsure_log_odds`` is
    unsure (0: none is)."""
    colors: dict[int, PieceColor] = {}
    unsure = chess.SquareSet()
    for row in range(8):
        for col in range(8):
            label = reading.grid[row][col]
            if label != EMPTY:
                colors[square_at(row, col)] = COLOR_NAMES[label]  # type: ignore[assignment]
            elif unsure_log_odds > 0 and reading.occupancy \
                    and reading.occupancy[row * 8 + col] > -unsure_log_odds:
                unsure.add(square_at(row, col))
    return BoardSnapshot(chess.SquareSet(colors), colors, timestamp, source, unsure=unsure)


class Settler:
    """Turns a stream of frame readings into settled snapshots.

    A snapshot is sent when ``settle_frames`` still, aligned frames in a row,
    spanning at least ``settle_seconds``, agree on every square, and the
    board differs from the last snapshot sent (or changed in between), or,
    the board unchanged, the squares it is unsure of (``unsure_log_odds``) are
    new since a hand was over the board: a pale piece put down on a pale square
    that the reader cannot call, which the sync may ask about. A
    shorter run of at least ``glimpse_frames`` joins the next snapshot's
    trail (the order of lifts and set-downs too fast to settle).
    """

    def __init__(self, config: VisionConfig, source: str = "camera") -> None:
        self._config = config
        self._source = source
        self._cells: str | None = None  # the run's 64 labels, "?" where it flickered
        self._odds: tuple[float, ...] = ()  # the run's last log-odds
        self._flicker: set[int] = set()  # squares (row * 8 + col) that flickered near 0
        self._count = 0
        self._since = 0.0
        self._occupied = 0
        self._trail: list[Glimpse] = []
        self._trailed: int | None = None
        self._disturbed = False  # a hand or motion since the last settled run
        self.last_sent: tuple[str, ...] | None = None
        self._last_unsure = 0

    @property
    def settled(self) -> bool:
        """Whether the current run is long enough to count as a settled board."""
        return self._count >= self._config.settle.settle_frames

    def reset(self) -> None:
        self._end_run()
        self._cells, self._count, self._flicker = None, 0, set()
        self._disturbed = True

    def _marked(self, cells: str, mark: str) -> str:
        """``cells`` (64 labels) with the run's flickering squares as ``mark``."""
        return "".join(mark if i in self._flicker else c for i, c in enumerate(cells))

    def _flickers(self, cells: str, odds: tuple[float, ...]) -> bool:
        """Whether a frame's labels ``cells`` differ from the run's only on squares
        whose log-odds lie within ``unsure_log_odds`` of 0 in it and in the run's last
        frame; those squares then join the run's flickering squares."""
        band = self._config.settle.unsure_log_odds
        if self._cells is None or band <= 0 or not odds or not self._odds:
            return False
        now = self._marked(cells, "?")
        differ = [i for i in range(64) if now[i] != self._cells[i]]
        if any(abs(odds[i]) >= band or abs(self._odds[i]) >= band for i in differ):
            return False
        self._flicker.update(differ)
        return True

    def _settled_reading(self, reading: SquareReading) -> SquareReading:
        """``reading`` with the squares that flickered in the run read empty, their
        log-odds 0: sent as unsure, never as a piece."""
        if not self._flicker:
            return reading
        cells = self._marked("".join(reading.grid), EMPTY)
        odds = tuple(0.0 if i in self._flicker else v for i, v in enumerate(reading.occupancy))
        return dataclasses.replace(reading, occupancy=odds,
                                   grid=tuple(cells[r * 8:(r + 1) * 8] for r in range(8)))

    def _end_run(self) -> None:
        """A run of agreeing frames that did not settle: a glimpse, if long enough
        (its flickering squares, never called, left out)."""
        if self._cells is None or self._count < self._config.settle.glimpse_frames:
            return
        flickered = sum(chess.BB_SQUARES[square_at(i // 8, i % 8)] for i in self._flicker)
        occupied = self._occupied & ~flickered
        cells = self._marked(self._cells, EMPTY)
        if self.last_sent is not None and cells == "".join(self.last_sent):
            return
        if occupied != self._trailed:
            self._trail = [*self._trail[-(TRAIL_LIMIT - 1):], Glimpse(occupied, self._since)]
            self._trailed = occupied

    def feed(self, frame: FrameReading) -> BoardSnapshot | None:
        if frame.reading is None or not frame.disturbance.still or not frame.aligned:
            self.reset()
            return None
        reading = frame.reading
        cells = "".join(reading.grid)
        if self._marked(cells, "?") != self._cells and not self._flickers(cells,
                                                                          reading.occupancy):
            self._end_run()
            self._cells, self._count, self._since, self._flicker = cells, 1, frame.timestamp, set()
            self._odds = reading.occupancy
            self._occupied = snapshot_of(reading, 0.0, "").mask
            return None
        self._cells, self._odds = self._marked(cells, "?"), reading.occupancy
        self._count += 1
        if (self._count < self._config.settle.settle_frames
                or frame.timestamp - self._since < self._config.settle.settle_seconds):
            return None
        settled = self._settled_reading(reading)
        snapshot = snapshot_of(settled, frame.timestamp, self._source,
                               self._config.settle.unsure_log_odds)
        unsure = int(snapshot.unsure)
        newly_unsure = self._disturbed and unsure & ~self._last_unsure
        self._disturbed = False
        if settled.grid == self.last_sent and not self._trail and not newly_unsure:
            return None
        self.last_sent, self._last_unsure = settled.grid, unsure
        LOGGER.debug("settled board %s", "/".join(settled.grid))
        snapshot = dataclasses.replace(snapshot, trail=tuple(self._trail))
        self._trail, self._trailed = [], snapshot.mask
        return snapshot
