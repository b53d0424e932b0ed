"""The per-frame chain once the board is known, with timing as a hook around stages.

``BoardPipeline.process(frame, timestamp)`` runs: warp -> grid alignment check
-> small grey -> hand/motion -> squares (skipped while the frame is
disturbed). Each stage is a plain function ``(config, ...) -> result`` from
its own module; the pipeline only keeps the state between frames (previous
and settled views, the empty-board reference).
"""

from __future__ import annotations

import dataclasses
import logging
import math
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from typing import TypeVar

import cv2
import numpy as np
import numpy.typing as npt

from vision.config import VisionConfig
from vision.features import Reference, prepare_reference
from vision.geometry import BoardGeometry, Image, warp
from vision.leaning import hold_hidden
from vision.light import apply_light, light_between, light_colour, tint_table
from vision.locate import grid_alignment
from vision.motion import FrameReading, Grey, detect_disturbance, small_grey
from vision.sampling import SquareSampler, make_sampler
from vision.square_reading import EMPTY, FloatArray, SquareReading
from vision.squares import read_squares

LOGGER = logging.getLogger(__name__)

StageHook = Callable[[str, float], None]
T = TypeVar("T")


class StageTimes:
    """A stage hook that records how long each stage took (seconds)."""

    def __init__(self) -> None:
        self.samples: dict[str, list[float]] = defaultdict(list)

    def __call__(self, stage: str, seconds: float) -> None:
        self.samples[stage].append(seconds)

    def medians(self) -> dict[str, float]:
        return {name: statistics.median(values) for name, values in self.samples.items()}


def run_stage(hook: StageHook | None, name: str, func: Callable[..., T], *args: object) -> T:
    """Call ``func(*args)``, telling ``hook`` how long it took."""
    if hook is None:
        return func(*args)
    start = time.perf_counter()
    try:
        return func(*args)
    finally:
        hook(name, time.perf_counter() - start)


def view_shift(before: Image, now: Image) -> float:
    """How far (warp pixels) the board's picture moved between two warps: the
    peak of their phase correlation, which pieces put down and changes of light
    hardly move (the board's pattern is most of the picture)."""
    a = cv2.cvtColor(before, cv2.COLOR_BGR2GRAY).astype(np.float32)
    b = cv2.cvtColor(now, cv2.COLOR_BGR2GRAY).astype(np.float32)
    window = cv2.createHanningWindow(a.shape[::-1], cv2.CV_32F)
    (dx, dy), _response = cv2.phaseCorrelate(a, b, window)
    return float(math.hypot(dx, dy))


def tinted(warped: Image, table: Image | None) -> Image:
    """``warped`` through a colour table of :func:`vision.light.tint_table` (None:
    as it is)."""
    return warped if table is None else np.asarray(cv2.LUT(warped, table), np.uint8)


@dataclasses.dataclass(frozen=True, eq=False)
class Rest:
    """The board's view when it last came to rest, the squares read occupied
    (under the light measured then), and its labels as read (64, row-major from a8)."""

    warp: Image
    occupied: npt.NDArray[np.bool_]
    labels: str


class BoardPipeline:
    """Per-frame processing for one board geometry."""

    def __init__(self, config: VisionConfig, geometry: BoardGeometry,
                 reference: Image | None = None, hook: StageHook | None = None,
                 *, empty_start: bool = False, rest: Rest | None = None,
                 light: FloatArray | None = None) -> None:
        self.config = config
        self.geometry = geometry
        self.hook = hook
        self.sampler: SquareSampler = make_sampler(config, geometry)
        # The empty-board warp the reference was measured on: a warp is the board
        # seen square on, whatever the camera, so it serves a new geometry too.
        self.reference_warp: Image | None = reference
        self.reference: Reference | None = (
            None if reference is None else prepare_reference(config, self.sampler, reference))
        # Every Raindropchess game starts on the empty board: with empty_start the
        # first still view becomes the reference.
        self.empty_start = empty_start and reference is None
        self._previous: Grey | None = None
        self._settled: Grey | None = None
        self._last_grey: Grey | None = None
        self._last_warp: Image | None = None
        self._last_motion = -math.inf
        self._still = 0
        # The warp of the board when it last came to rest (from an earlier
        # geometry too: a warp is the board seen square on).
        self.rest: Rest | None = rest
        self._disturbed = True  # something moved or reached in since then
        # How the light changed since the reference was taken (log gains per
        # square, see vision.light.light_between), and the gain on a warp
        # that undoes it; None while the light is as it was.
        self.light: FloatArray | None = None
        self._colour: Image | None = None
        if light is not None:
            self._set_light(light)
        self.moved = False  # the board's view at rest shifted: the camera was nudged
        # Without a reference, the reading of the board at rest, kept until something
        # moves (see process).
        self._kept: SquareReading | None = None

    def process(self, frame: Image, timestamp: float) -> FrameReading:
        config, hook = self.config, self.hook
        warped = run_stage(hook, "warp", warp, config, frame, self.geometry)
        alignment = run_stage(hook, "check", grid_alignment, config, warped)
        grey = run_stage(hook, "grey", small_grey, config, warped)
        disturbance = run_stage(hook, "disturbance", detect_disturbance, config, grey,
                                self._previous, self._settled)
        self._previous = grey
        self._still = 0 if disturbance.moving else self._still + 1
        if disturbance.moving:
            self._last_motion = timestamp
        elif disturbance.hand and timestamp - self._last_motion >= config.motion.hand_still_seconds:
            # Nothing has moved for a while: no hand is that still. The change is
            # the board itself (a move, or the light), so it may settle.
            disturbance = dataclasses.replace(disturbance, hand=False)
        self._last_grey, self._last_warp = grey, warped
        aligned = alignment >= config.locate.check_min_ratio
        self._disturbed |= not disturbance.still
        came_to_rest = False
        if self._still >= config.settle.settle_frames and not disturbance.hand and aligned:
            self._settled = grey  # hands are judged against the last still view
            came_to_rest, self._disturbed = self._disturbed, False
        if (self.empty_start and self._still >= config.settle.settle_frames and disturbance.still
                and aligned):
            LOGGER.info("taking the first still view as the empty board")
            self.reference = prepare_reference(config, self.sampler, warped)
            self.reference_warp = warped
            self.empty_start = False
        if not disturbance.still or self.reference is not None:
            self._kept = None
        reading = self._kept
        if disturbance.still and reading is None:
            reading = self._held(run_stage(hook, "squares", read_squares, config, self.sampler,
                                           self._relit(warped), self.reference))
        if came_to_rest and reading is not None and self._came_to_rest(warped, reading):
            reading = self._held(run_stage(hook, "squares", read_squares, config, self.sampler,
                                           self._relit(warped), self.reference))
            if self.rest is not None:
                self.rest = dataclasses.replace(self.rest, labels="".join(reading.grid))
        if came_to_rest and self.reference is None:
            # Without a reference the photo networks read a frame in about half a
            # second. The frames up to rest were each read (the settler's check for
            # flickering squares sees them all); from then on nothing on the board
            # changes without something moving, so the reading at rest is kept.
            self._kept = reading
        return FrameReading(timestamp, reading, disturbance, alignment, aligned)

    def _held(self, reading: SquareReading) -> SquareReading:
        """``reading`` with the squares hidden behind nearer pieces, where the
        evidence is unclear, as they were when the board last came to rest
        (vision.leaning.hold_hidden; a game's frames, the fused reader)."""
        config, rest = self.config, self.rest
        if (self.reference is None or config.nets.reference_reader != "fused"
                or config.lean.hidden_hold_margin <= 0 or rest is None):
            return reading
        labels = "".join(reading.grid)
        held = hold_hidden(self.sampler.lean, labels, np.asarray(reading.occupancy),
                           rest.labels, config.lean.hidden_hold_share,
                           config.lean.hidden_hold_margin)
        if held == labels:
            return reading
        LOGGER.debug("hidden squares held as at rest: %s", [
            square for square, (a, b) in enumerate(zip(labels, held, strict=True)) if a != b])
        return dataclasses.replace(
            reading, grid=tuple(held[row * 8:(row + 1) * 8] for row in range(8)))

    def _relit(self, warped: Image) -> Image:
        """``warped`` with the colour of the light brought back to the reference's."""
        return tinted(warped, self._colour)

    def _lit(self, light: FloatArray) -> tuple[Reference, Image | None]:
        """The reference under ``light`` less its colour, and the table that
        takes that colour off the frames (None when there is none)."""
        assert self.reference_warp is not None
        colour = light_colour(light)
        reference = prepare_reference(self.config, self.sampler, apply_light(
            self.config, self.reference_warp, np.asarray(light - colour, np.float32)))
        return reference, tint_table(-colour) if colour.any() else None

    def _set_light(self, light: FloatArray) -> None:
        if self.reference_warp is None:
            return
        self.light = light
        self.reference, self._colour = self._lit(light)

    def _came_to_rest(self, warped: Image, reading: SquareReading) -> bool:
        """The board is at rest again (``reading`` of it): follow a change of
        light since it last was; True when the light changed.

        The reference is the empty board under the light of its time. When the
        light has changed since the board last rested (a lamp, a cloud), the
        change is measured on the two views of the board at rest, on the
        squares bare in both (see vision.light.light_between). Its colour
        (the same on the whole board) is taken off every frame, so the
        pieces keep their colours (a white piece under a blue lamp is not read
        blue); the rest (brightness, its spread, shadows) is put on the
        reference, so that the bare squares look like the empty board again
        (brightening the frames instead would brighten their noise in the
        shade). A board whose view shifted instead was nudged: see
        ``moved``."""
        occupied = np.array([label != EMPTY for row in reading.grid for label in row])
        labels = "".join(reading.grid)
        before, self.rest = self.rest, Rest(warped, occupied, labels)
        if before is None or self.reference is None:
            return False
        if view_shift(before.warp, warped) > self.config.locate.rest_shift_px:
            # Not the light: the camera moved. Keep the last view at rest for
            # the geometry the reader will find (see CameraBoardReader._use).
            LOGGER.info("the board's view shifted at rest: the camera was nudged")
            self.rest, self.moved = before, True
            return False
        # Measured first on the squares bare at the last rest (the reading now
        # is under the old light), leaving out a square unlike its
        # neighbours: a piece may have been put down there since. Then the
        # board is read again under that trial light, and the change measured
        # again without what that reading shows occupied.
        change = light_between(self.sampler, before.warp, warped, before.occupied,
                               self.config.light.relight_odd)
        if change is None:
            return False
        so_far = np.zeros_like(change) if self.light is None else self.light
        trial, colour = self._lit(np.asarray(so_far + change, np.float32))
        seen = tinted(warped, colour)
        occupied = np.array([label != EMPTY for row in read_squares(
            self.config, self.sampler, seen, trial).grid for label in row])
        self.rest = Rest(warped, occupied, labels)
        change = light_between(self.sampler, before.warp, warped, occupied | before.occupied)
        if change is None:
            return False
        LOGGER.info("the light changed: reading under the reference's light from now on")
        self._set_light(np.asarray(so_far + change, np.float32))
        return True

    def mark_settled(self, empty: bool) -> None:
        """The last frame was settled: if the board is empty and there is no
        reference yet, it becomes the empty-board reference."""
        if empty and self.reference is None and self._last_warp is not None:
            LOGGER.info("empty board seen: using it as the reference")
            self.reference = prepare_reference(self.config, self.sampler, self._last_warp)
            self.reference_warp = self._last_warp
