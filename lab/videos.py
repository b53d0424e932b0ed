"""Synthetic videos of games for the benchmarks and tests: hands reaching in, the board
changing under them, and a capture that plays the frames to the camera reader.

:func:`video` renders a game's positions with :mod:`vision.synthetic`;
:class:`FakeCapture` stands in for ``cv2.VideoCapture`` and plays a list of frames.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

import chess
import cv2
import numpy as np

from vision.synthetic import (
    Hand,
    Image,
    Scene,
    hand_polygons,
    random_hand,
    random_scene,
    render,
    square_centre,
)

FPS = 10.0


class FakeCapture:
    """A ``cv2.VideoCapture`` stand-in that plays a list of frames (None = a bad frame)."""

    def __init__(self, frames: list[Any]) -> None:
        self.frames = list(frames)
        self.index = 0
        self.released = False

    def isOpened(self) -> bool:
        return True

    def read(self) -> tuple[bool, Any]:
        if self.index >= len(self.frames):
            return False, None
        frame = self.frames[self.index]
        self.index += 1
        return True, frame

    def get(self, prop: int) -> float:
        return FPS

    def release(self) -> None:
        self.released = True


def game_scene(seed: int, **kwargs: Any) -> Scene:
    """An empty board to play a game on (:func:`vision.synthetic.random_scene`)."""
    rng = np.random.default_rng(seed)
    return random_scene(rng, fraction=0.0, **kwargs)


@dataclasses.dataclass(frozen=True)
class VideoFrame:
    """One frame of a synthetic video and its truth."""

    image: Image
    grid: tuple[str, ...]  # what stands on the board in this frame
    hand: bool  # a hand or arm is over the board


def hand_path(scene: Scene, target: chess.Square, frames: int,
              rng: np.random.Generator) -> list[Hand]:
    """A hand coming in from outside the board to above ``target`` and back out."""
    cx, cy = square_centre(scene, target)
    s = scene.square_mm
    angle = rng.uniform(0, 2 * math.pi)
    start = np.array([cx, cy]) + 9 * s * np.array([math.cos(angle), math.sin(angle)])
    direction = math.atan2(cy - start[1], cx - start[0])
    base = random_hand(rng, s)
    hands = []
    half = max(frames // 2, 1)
    for i in range(frames):
        t = i / half if i < half else (frames - 1 - i) / max(frames - 1 - half, 1)
        t = min(max(t, 0.0), 1.0)
        # Fingers reach the square: the palm stops a little short of it.
        x = start[0] + (cx - start[0]) * t - math.cos(direction) * 1.2 * s * t
        y = start[1] + (cy - start[1]) * t - math.sin(direction) * 1.2 * s * t
        hands.append(dataclasses.replace(base, x=x, y=y, direction=direction,
                                         height=1.6 * s + (1 - t) * 2 * s))
    return hands


def hand_over_board(scene: Scene, hand: Hand) -> bool:
    """Whether any part of the hand or arm is seen over the board (or within half a
    square of its edge) in the picture."""
    w, h = scene.camera.size
    half = 4.5 * scene.square_mm
    board = np.zeros((h, w), np.uint8)
    quad = scene.camera.project(np.array([[-half, -half, 0], [half, -half, 0], [half, half, 0],
                                          [-half, half, 0]], np.float64))
    cv2.fillConvexPoly(board, np.round(quad).astype(np.int32), 1)
    arm = np.zeros_like(board)
    for pts, _ in hand_polygons(scene, hand):
        cv2.fillPoly(arm, [np.round(scene.camera.project(pts)).astype(np.int32)], 1)
    return bool((board & arm).any())


def video(scene: Scene, moves: list[dict[chess.Square, tuple[str, int]]], *,
          still_frames: int = 8, hand_frames: int = 10, seed: int = 0,
          offsets: Sequence[Mapping[chess.Square, tuple[float, float]]] | None = None,
          still_pictures: int = 0) -> list[VideoFrame]:
    """Frames of a game: still board, then for each position in ``moves`` a hand
    reaches in, the board changes to that position while the hand is over it,
    the hand leaves, and the board stays still again. ``offsets``, one for each
    position, sets its pieces off their squares' centres (Scene.offsets). With
    ``still_pictures`` above 0, each still spell shows that many pictures (each its own
    sensor noise) over and over instead of a new one every frame: a faster video, the
    board as still."""
    rng = np.random.default_rng(seed)
    frames: list[VideoFrame] = []
    current = scene
    counter = seed * 10_000

    def shoot(s: Scene, hand: bool) -> None:
        nonlocal counter
        counter += 1
        over = hand and s.hand is not None and hand_over_board(s, s.hand)
        frames.append(VideoFrame(render(s, counter), tuple(s.grid()), over))

    def still(s: Scene) -> None:
        first = len(frames)
        for index in range(still_frames):
            if still_pictures and index >= still_pictures:
                frames.append(frames[first + index % still_pictures])
            else:
                shoot(s, False)

    still(current)
    for index, position in enumerate(moves):
        changed = set(position) ^ set(current.pieces) | {
            sq for sq in position if current.pieces.get(sq) != position[sq]}
        target = min(changed) if changed else chess.E4
        hands = hand_path(current, target, hand_frames, rng)
        after = current.with_pieces(position)
        if offsets is not None:
            after = dataclasses.replace(after, offsets=dict(offsets[index]))
        for i, hand in enumerate(hands):
            if i == len(hands) // 2:
                current = after
            shoot(dataclasses.replace(current, hand=hand), True)
        current = dataclasses.replace(after, hand=None)
        still(current)
    return frames


def settled_grids(frames: list[VideoFrame]) -> list[tuple[str, ...]]:
    """The distinct positions the board rests in, in order (what a perfect reader sends)."""
    out: list[tuple[str, ...]] = []
    for frame in frames:
        if not frame.hand and (not out or out[-1] != frame.grid):
            out.append(frame.grid)
    return out
