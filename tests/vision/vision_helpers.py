"""Shared helpers for the camera tests: a fake capture and synthetic games."""

from __future__ import annotations

import os
from typing import Any

import chess
import numpy as np

from vision import synthetic

FULL = os.environ.get("RAINDROP_FULL") == "1"
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


def settled_grids(frames: list[synthetic.VideoFrame]) -> list[tuple[str, ...]]:
    """The distinct positions the board rests in, in order (what a perfect reader sends)."""
    out: list[tuple[str, ...]] = []
    for frame in frames:
        if not frame.hand and (not out or out[-1] != frame.grid):
            out.append(frame.grid)
    return out


def game_scene(seed: int, **kwargs: Any) -> synthetic.Scene:
    rng = np.random.default_rng(seed)
    return synthetic.random_scene(rng, fraction=0.0, **kwargs)


# A short legal Raindropchess opening as physical positions: both kings are
# placed, white places a pawn, black a knight, white's king steps aside, and
# the knight captures the pawn. ACTIONS says which steps follow a card flip.
K, P, N = chess.KING, chess.PAWN, chess.KNIGHT
OPENING: list[dict[chess.Square, tuple[str, int]]] = [
    {chess.E1: ("white", K)},
    {chess.E1: ("white", K), chess.E8: ("black", K)},
    {chess.E1: ("white", K), chess.E8: ("black", K), chess.E3: ("white", P)},
    {chess.E1: ("white", K), chess.E8: ("black", K), chess.E3: ("white", P),
     chess.D5: ("black", N)},
    {chess.F2: ("white", K), chess.E8: ("black", K), chess.E3: ("white", P),
     chess.D5: ("black", N)},
    {chess.F2: ("white", K), chess.E8: ("black", K), chess.E3: ("black", N)},
]
ACTIONS = ["place", "place", "place", "place", "move", "move"]
