"""The camera side of the app: a live preview and finding the board, for the
calibration wizard and the game screen. OpenCV stays in ``vision``: this module
only calls ``vision``'s functions and turns frames into Kivy textures.

A :class:`CameraFeed` reads frames in its own thread; the newest frame and any
result hop to the UI thread through ``Clock`` (``frame``, ``located``,
``status`` properties). Finding the board also runs off the UI thread.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty

LOGGER = logging.getLogger(__name__)

DEMO_SOURCE = "demo"
FRAME_INTERVAL = 1 / 15


def vision_problem() -> str:
    """"" when the camera parts of ``vision`` can be used, else why not."""
    try:
        import vision.calibration
        import vision.locate
        import vision.reader  # noqa: F401
    except ImportError as error:
        return f"the camera needs vision's OpenCV parts ({error})"
    return ""


def frame_texture(frame: Any, texture: Texture | None = None) -> Texture:
    """A Kivy texture of a BGR (or grey) numpy frame, top row first."""
    height, width = frame.shape[:2]
    colorfmt = "luminance" if frame.ndim == 2 else "bgr"
    if texture is None or texture.size != (width, height) or texture.colorfmt != (
            "luminance" if colorfmt == "luminance" else "rgb"):
        texture = Texture.create(size=(width, height),
                                 colorfmt="luminance" if colorfmt == "luminance" else "rgb")
        texture.flip_vertical()
    texture.blit_buffer(frame.tobytes(), colorfmt=colorfmt, bufferfmt="ubyte")
    return texture


@dataclasses.dataclass(frozen=True)
class FoundBoard:
    """A board found on a frame: corners a8, h8, h1, a1 in image pixels, and how."""

    corners: tuple[tuple[float, float], ...]
    method: str
    image_size: tuple[int, int]
    geometry: Any  # vision.geometry.BoardGeometry


def grid_lines(corners: tuple[tuple[float, float], ...]) -> list[tuple[tuple[float, float],
                                                                         tuple[float, float]]]:
    """The 9 + 9 lines of the board grid through its four corners (a8, h8, h1, a1),
    by the projective map of the unit square onto the quadrilateral."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = corners  # a8 (0,0), h8 (1,0), h1 (1,1), a1 (0,1)
    dx1, dx2, dx3 = x1 - x2, x3 - x2, x0 - x1 + x2 - x3
    dy1, dy2, dy3 = y1 - y2, y3 - y2, y0 - y1 + y2 - y3
    det = dx1 * dy2 - dx2 * dy1
    if abs(det) < 1e-9:
        g = h = 0.0
    else:
        g = (dx3 * dy2 - dx2 * dy3) / det
        h = (dx1 * dy3 - dx3 * dy1) / det
    a, b, c = x1 - x0 + g * x1, x3 - x0 + h * x3, x0
    d, e, f = y1 - y0 + g * y1, y3 - y0 + h * y3, y0

    def point(u: float, v: float) -> tuple[float, float]:
        w = g * u + h * v + 1
        return ((a * u + b * v + c) / w, (d * u + e * v + f) / w)

    lines = []
    for k in range(9):
        t = k / 8
        lines.append((point(t, 0), point(t, 1)))
        lines.append((point(0, t), point(1, t)))
    return lines


def _demo_frames(fraction: float = 0.25) -> Iterator[Any]:
    """Frames of a synthetic scene (vision.synthetic): a board with corner markers and
    ``fraction`` of its squares occupied."""
    import numpy as np

    from vision import synthetic

    rng = np.random.default_rng(7)
    scene = synthetic.random_scene(rng, fraction=fraction, markers=True, size=(960, 540),
                                   max_tilt_deg=18.0)
    frames = [synthetic.render(scene, seed) for seed in range(3)]
    index = 0
    while True:
        yield frames[index % len(frames)]
        index += 1


class DemoCapture:
    """A ``cv2.VideoCapture`` stand-in showing the synthetic demo scene at 15 frames a
    second, for a camera board without a camera (demo, screenshots)."""

    def __init__(self, fraction: float = 0.0) -> None:
        self._frames = _demo_frames(fraction)

    def isOpened(self) -> bool:  # cv2's name
        return True

    def read(self) -> tuple[bool, Any]:
        time.sleep(FRAME_INTERVAL)
        return True, next(self._frames)

    def get(self, prop: int) -> float:
        return 15.0

    def release(self) -> None:
        """Nothing to release."""


def _capture_frames(source: str) -> Iterator[Any]:
    from vision.reader import open_capture, parse_source

    capture = open_capture(parse_source(source))
    try:
        while True:
            ok, frame = capture.read()
            if not ok:
                return
            yield frame
    finally:
        capture.release()


class CameraFeed(EventDispatcher):  # type: ignore[misc]
    """Frames from a camera (or the ``demo`` scene) for previews and calibration."""

    texture = ObjectProperty(None, allownone=True)
    found = ObjectProperty(None, allownone=True)   # FoundBoard or None
    status = StringProperty("")
    level = StringProperty("info")  # the status's kind: info, good or error
    running = BooleanProperty(False)
    finding = BooleanProperty(False)

    def __init__(self, frames: Callable[[str], Iterator[Any]] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._frames = frames
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.last_frame: Any = None
        self.source = ""

    def start(self, source: str) -> None:
        """Start reading ``source`` (a camera number, a file, a URL, or ``demo``)."""
        self.stop()
        problem = vision_problem()
        if problem:
            self.status = f"Camera not available: {problem}"
            self.level = "error"
            return
        self.source = source
        self.found = None
        self._stop = threading.Event()
        frames = self._frames or (lambda s: _demo_frames() if s == DEMO_SOURCE
                                  else _capture_frames(s))
        self.status = f"Opening {source}..."
        self.level = "info"
        self.running = True
        self._thread = threading.Thread(target=self._run, args=(frames, source, self._stop),
                                        name="camera-preview", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2)
        self.running = False

    def _run(self, frames: Callable[[str], Iterator[Any]], source: str,
             stop: threading.Event) -> None:
        try:
            for frame in frames(source):
                if stop.is_set():
                    return
                Clock.schedule_once(lambda _dt, f=frame: self._show(f), -1)
                time.sleep(FRAME_INTERVAL)
            Clock.schedule_once(lambda _dt: self._ended("the video ended"), -1)
        except Exception as error:  # an unreadable camera is reported, never raised
            LOGGER.warning("camera %s: %s", source, error)
            Clock.schedule_once(lambda _dt, e=error: self._ended(str(e)), -1)

    def _show(self, frame: Any) -> None:
        if not self.running:
            return
        first = self.last_frame is None
        self.last_frame = frame
        self.texture = frame_texture(frame, self.texture)
        if first:
            self.status = f"Live preview of {self.source}: frame {frame.shape[1]}x{frame.shape[0]}"
            self.level = "good"

    def _ended(self, why: str) -> None:
        self.running = False
        self.status = f"Camera stopped: {why}"
        self.level = "error"

    def show_frame(self, frame: Any) -> None:
        """Show one frame (e.g. the game's camera reader's latest) without a thread."""
        self.last_frame = frame
        self.texture = frame_texture(frame, self.texture)

    def find_board(self) -> None:
        """Look for the board on the latest frame, off the UI thread."""
        frame = self.last_frame
        if frame is None:
            self.status = "No frame yet: start the camera first"
            self.level = "error"
            return
        self.finding = True
        self.status = "Looking for the board..."
        self.level = "info"
        threading.Thread(target=self._find, args=(frame,), name="find-board",
                         daemon=True).start()

    def _find(self, frame: Any) -> None:
        from vision.config import VisionConfig
        from vision.locate import locate

        try:
            located = locate(VisionConfig(), frame)
        except ValueError as error:
            Clock.schedule_once(lambda _dt, e=error: self._not_found(str(e)), -1)
            return
        height, width = frame.shape[:2]
        found = FoundBoard(tuple(located.geometry.corners), located.method, (width, height),
                           located.geometry)
        Clock.schedule_once(lambda _dt: self._found(found), -1)

    def _found(self, found: FoundBoard) -> None:
        self.finding = False
        self.found = found
        how = ("by its corner markers" if found.method == "markers"
               else "from the empty chessboard (a8 assumed top left)")
        self.status = f"Board found {how}. Check the grid, then save."
        self.level = "good"

    def _not_found(self, why: str) -> None:
        self.finding = False
        self.found = None
        self.status = f"Board not found: {why}"
        self.level = "error"

    def save(self) -> str:
        """Store the found board as the camera calibration; the path or the problem."""
        found = self.found
        if found is None:
            return "Find the board first"
        from vision.calibration import Calibration, save_calibration

        try:
            path = save_calibration(Calibration(found.geometry, found.method, self.source))
        except (OSError, ValueError) as error:
            return f"Could not save the calibration: {error}"
        return f"Saved to {path}"
