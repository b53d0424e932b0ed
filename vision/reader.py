"""``CameraBoardReader``: a board source that watches a camera, video file or stream.

It reads ``cv2.VideoCapture`` in its own thread. From a live camera or URL a
grabber thread keeps only the newest frame, so processing never lags behind
(frames are dropped instead); a file is read frame by frame. The board is
taken from the stored calibration when it fits, else found on the frames
(corner markers, or the empty chessboard), checked on every frame and found
again when the camera is bumped.

With :meth:`CameraBoardReader.keep_frames_in` it also keeps the frames of the
positions the game confirms as labelled photos (:mod:`vision.keep_frames`).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from companion.sensors.snapshot import BoardSnapshot
from companion.sensors.source import (
    BoardSourceError,
    LedHint,
    SnapshotCallback,
    SourceStatus,
    StatusCallback,
)
from vision.calibration import Calibration, load_calibration
from vision.config import VisionConfig
from vision.errors import BoardNotFound, CalibrationError, SourceUnavailable, VisionError
from vision.geometry import BoardGeometry, Image
from vision.keep_frames import FrameKeeper, KeptFrame, KeptFramesError
from vision.locate import Located, follow_markers, locate, marker_quads
from vision.motion import FrameReading, Settler
from vision.pipeline import BoardPipeline, StageHook
from vision.square_net import SquareNetError

LOGGER = logging.getLogger(__name__)

SETTLED_KEPT = 8  # settled frames remembered for keep_position (the game decides later)


class Capture(Protocol):
    """The part of ``cv2.VideoCapture`` the reader uses."""

    def isOpened(self) -> bool: ...

    def read(self) -> tuple[bool, Any]: ...

    def get(self, prop: int) -> float: ...

    def release(self) -> None: ...


CaptureFactory = Callable[[int | str], Capture]


def parse_source(argument: str) -> int | str:
    """A camera index (``""`` is camera 0), a file path or a URL."""
    text = argument.strip()
    if not text:
        return 0
    if text.isdigit():
        return int(text)
    if "://" not in text and not Path(text).exists():
        raise SourceUnavailable(f"no such video file or camera: {text!r} "
                                "(give a camera number, a file path or a URL)")
    return text


def is_live(source: int | str) -> bool:
    """Cameras and streams drop frames to keep up; files are read in full."""
    return isinstance(source, int) or "://" in source


def open_capture(source: int | str) -> Capture:
    capture = cv2.VideoCapture(source)
    if not capture.isOpened():
        raise SourceUnavailable(f"cannot open video source {source!r}")
    return capture


def closest_orientation(new: BoardGeometry, old: BoardGeometry) -> BoardGeometry:
    """``new`` turned so its a8 lies nearest the old a8 (keeps orientation after a bump)."""
    best = min(range(4), key=lambda k: sum(
        math.dist(a, b) for a, b in zip(new.rotated(k).corners, old.corners, strict=True)))
    return new.rotated(best)


class CameraBoardReader:
    """A :class:`~companion.sensors.source.BoardSource` reading a camera.

    With ``empty_start`` (the default: every Raindropchess game starts on an
    empty board) the first still view of the board is taken as the empty-board
    reference that every square is compared with.
    """

    name = "camera"

    def __init__(self, source: int | str = 0, *, config: VisionConfig | None = None,
                 calibration: Calibration | None = None,
                 capture_factory: CaptureFactory = open_capture,
                 live: bool | None = None, hook: StageHook | None = None,
                 clock: Callable[[], float] = time.monotonic, empty_start: bool = True) -> None:
        self.source = source
        self.config = config or VisionConfig()
        self.calibration = calibration
        self.hint = LedHint()
        self._factory = capture_factory
        self._live = is_live(source) if live is None else live
        self._hook = hook
        self._clock = clock
        self.empty_start = empty_start  # the board is empty when reading starts
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.pipeline: BoardPipeline | None = None
        self.located: Located | None = None
        self.frames_seen = 0
        self.frames_dropped = 0
        self.last_frame: Image | None = None
        self.last_result: FrameReading | None = None
        self._misaligned = 0
        # The corner markers in view when the board was last found, to follow it
        # by those still in view after a knock (see _relocate).
        self._markers: dict[int, np.ndarray] = {}
        # With a keeper, the frames of the last settled snapshots, by their timestamps:
        # the game confirms a position after the snapshot has gone out.
        self.keeper: FrameKeeper | None = None
        self._settled: OrderedDict[float, tuple[Image, BoardGeometry]] = OrderedDict()
        self._settled_lock = threading.Lock()

    # BoardSource ---------------------------------------------------------------

    def start(self, on_snapshot: SnapshotCallback, on_status: StatusCallback) -> None:
        """Begin reading in a background thread."""
        if self._thread is not None:
            raise RuntimeError("camera reader already started")
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, args=(on_snapshot, on_status),
                                        name=f"camera-{self.source}", daemon=True)
        self._thread.start()

    def show(self, hint: LedHint) -> None:
        """A camera has no lights: keep the hint for the preview (``watch --preview``)."""
        self.hint = hint

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        self._thread = None

    def keep_frames_in(self, directory: Path, board: str = "table") -> None:
        """Keep the frame of every position the game confirms, labelled, in
        ``directory`` (:class:`vision.keep_frames.FrameKeeper`; ``board`` names the
        physical board). Raises ``BoardSourceError`` when the folder cannot be used."""
        try:
            self.keeper = FrameKeeper(directory, board)
        except KeptFramesError as error:
            raise BoardSourceError(f"--keep-frames: {error}") from None

    def keep_position(self, snapshot: BoardSnapshot, board_fen: str,
                      blue: Sequence[int] = ()) -> KeptFrame | None:
        """The game confirmed that ``snapshot`` shows ``board_fen`` (``blue``: the
        squares of blue pieces): keep the frame it was read from, when keeping. None
        when not keeping, when that frame is no longer remembered, when the position
        is the one kept last, or when it cannot be written (logged: the game goes on)."""
        keeper = self.keeper
        if keeper is None:
            return None
        with self._settled_lock:
            kept = self._settled.get(snapshot.timestamp)
        if kept is None:
            LOGGER.info("camera %s: the frame of the snapshot at %.2fs is gone; not kept",
                        self.source, snapshot.timestamp)
            return None
        frame, geometry = kept
        try:
            return keeper.keep(frame, geometry, board_fen, blue)
        except KeptFramesError as error:
            LOGGER.warning("camera %s: frame not kept: %s", self.source, error)
            return None

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the reader to finish (end of a file); True when it has."""
        thread = self._thread
        if thread is None:
            return True
        thread.join(timeout)
        return not thread.is_alive()

    # The reading loop ----------------------------------------------------------

    def _run(self, on_snapshot: SnapshotCallback, on_status: StatusCallback) -> None:
        try:
            capture = self._factory(self.source)
        except SourceUnavailable as error:
            on_status(SourceStatus(self.name, False, str(error)))
            return
        on_status(SourceStatus(self.name, True, f"reading {self.source!r}"))
        settler = Settler(self.config, self.name)
        fps = capture.get(cv2.CAP_PROP_FPS) or 0.0
        fps = fps if 1.0 <= fps <= 240.0 else 30.0
        try:
            frames = self._live_frames(capture) if self._live else self._file_frames(capture, fps)
            for frame, timestamp in frames:
                if self._stop.is_set():
                    break
                self._handle(frame, timestamp, settler, on_snapshot, on_status)
        except SquareNetError as error:
            # The shipped square network is missing or broken: nothing can be read.
            LOGGER.error("camera %s: %s", self.source, error)
            on_status(SourceStatus(self.name, False, f"the camera reader cannot read "
                                                     f"squares: {error}"))
            return
        finally:
            capture.release()
        if not self._stop.is_set():
            on_status(SourceStatus(self.name, False, "the video ended"))

    def _file_frames(self, capture: Capture, fps: float):  # type: ignore[no-untyped-def]
        index = 0
        failures = 0
        while not self._stop.is_set():
            ok, frame = capture.read()
            if not ok:
                failures += 1
                if failures > 2:
                    return
                continue
            failures = 0
            yield frame, index / fps
            index += 1

    def _live_frames(self, capture: Capture):  # type: ignore[no-untyped-def]
        """Newest frames only: a grabber thread overwrites one slot."""
        slot: list[tuple[Any, float]] = []
        ready = threading.Condition()
        done = threading.Event()

        def grab() -> None:
            failures = 0
            while not self._stop.is_set() and failures < 50:
                ok, frame = capture.read()
                if not ok:
                    failures += 1
                    time.sleep(0.02)
                    continue
                failures = 0
                with ready:
                    if slot:
                        self.frames_dropped += 1
                    slot[:] = [(frame, self._clock())]
                    ready.notify()
            done.set()
            with ready:
                ready.notify()

        grabber = threading.Thread(target=grab, name="camera-grab", daemon=True)
        grabber.start()
        while not self._stop.is_set():
            with ready:
                while not slot and not done.is_set() and not self._stop.is_set():
                    ready.wait(0.2)
                if not slot:
                    if done.is_set():
                        return
                    continue
                item = slot.pop()
            yield item
        grabber.join(timeout=1)

    def _handle(self, frame: Any, timestamp: float, settler: Settler,
                on_snapshot: SnapshotCallback, on_status: StatusCallback) -> None:
        self.frames_seen += 1
        if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.size == 0:
            on_status(SourceStatus(self.name, True, "skipped an unreadable frame"))
            return
        self.last_frame = frame
        if self.pipeline is None and not self._find_board(frame, on_status):
            return
        assert self.pipeline is not None
        result = self.pipeline.process(frame, timestamp)
        self.last_result = result
        # A bumped camera changes the whole view, which also looks like a hand
        # against the last settled frame: only motion postpones the check.
        if not result.disturbance.moving and not result.aligned:
            self._misaligned += 1
            if self._misaligned >= self.config.locate.check_failures_to_relocate:
                on_status(SourceStatus(self.name, True, "the board moved; looking for it again"))
                self._relocate(frame, on_status)
                settler.reset()
            return
        self._misaligned = 0
        if self.pipeline.moved:  # nudged too little for the check above
            self.pipeline.moved = False
            on_status(SourceStatus(self.name, True, "the camera moved; looking for the board"))
            self._relocate(frame, on_status)
            settler.reset()
            return
        snapshot = settler.feed(result)
        if settler.settled and result.reading is not None:
            self.pipeline.mark_settled(all(row == "........" for row in result.reading.grid))
        if snapshot is not None:
            if self.keeper is not None and self.located is not None:
                with self._settled_lock:
                    self._settled[snapshot.timestamp] = (frame.copy(), self.located.geometry)
                    while len(self._settled) > SETTLED_KEPT:
                        self._settled.popitem(last=False)
            on_snapshot(snapshot)

    def _use(self, located: Located, on_status: StatusCallback, frame: Image) -> None:
        # Only the first board found can be assumed empty (a game starts empty);
        # after a bump the pieces are on it. The empty-board reference taken
        # before the bump still holds: it is a warp, the board seen square on,
        # and the new geometry warps the board to the same place. The light
        # on the board, as this camera sees it, may differ: the change of light
        # so far and the board's last view at rest go along, and the pipeline
        # measures the light again when the board first rests (see
        # BoardPipeline._came_to_rest).
        first = self.located is None
        old = self.pipeline
        self.located = located
        self.pipeline = BoardPipeline(
            self.config, located.geometry, None if old is None else old.reference_warp,
            self._hook, empty_start=self.empty_start and first,
            rest=None if old is None else old.rest, light=None if old is None else old.light)
        self._misaligned = 0
        self._markers = marker_quads(self.config, frame)
        on_status(SourceStatus(self.name, True, f"board found ({located.method})"))

    def _find_board(self, frame: Image, on_status: StatusCallback) -> bool:
        h, w = frame.shape[:2]
        calibration = self.calibration
        if calibration is not None and calibration.geometry.image_size in ((w, h), (0, 0)):
            self._use(Located(calibration.geometry, calibration.method), on_status, frame)
            return True
        if self.frames_seen % 5 != 1:  # searching is slow: try every few frames
            return False
        try:
            located = locate(self.config, frame)
        except BoardNotFound as error:
            on_status(SourceStatus(self.name, True, f"looking for the board: {error}"))
            return False
        if not located.oriented and calibration is not None:
            located = Located(closest_orientation(located.geometry, calibration.geometry),
                              located.method)
        self._use(located, on_status, frame)
        return True

    def _relocate(self, frame: Image, on_status: StatusCallback) -> None:
        """Find the board again after the camera moved: by all four markers or
        the empty chessboard, else by the markers still in view, moved as the
        camera moved (a piece may stand in front of one)."""
        old = self.located
        try:
            located = locate(self.config, frame)
        except BoardNotFound as error:
            followed = self._follow(frame)
            if followed is None:
                on_status(SourceStatus(self.name, True, f"board lost: {error}"))
                self._misaligned = 0
                return
            located = followed
        if not located.oriented and old is not None:
            located = Located(closest_orientation(located.geometry, old.geometry),
                              located.method)
        self._use(located, on_status, frame)

    def _follow(self, frame: Image) -> Located | None:
        """The board followed from where it was last found by the markers in view
        both then and now (vision.locate.follow_markers), or None."""
        if self.located is None:
            return None
        h, w = frame.shape[:2]
        try:
            return follow_markers(self._markers, marker_quads(self.config, frame),
                                  self.located.geometry, (w, h))
        except (BoardNotFound, CalibrationError) as error:
            LOGGER.info("board not followed: %s", error)
            return None


def open_board(argument: str) -> CameraBoardReader:
    """The ``camera[:SOURCE]`` board: SOURCE is a camera number (default 0), file or URL.

    Uses the stored calibration (``raindrop vision calibrate``) when there is one.
    Raises ``BoardSourceError`` (what ``raindrop play`` reports) for a source
    that does not exist or a broken calibration file.
    """
    try:
        source = parse_source(argument)
        calibration = load_calibration()
    except VisionError as error:
        raise BoardSourceError(f"camera: {error}") from error
    return CameraBoardReader(source, calibration=calibration)
