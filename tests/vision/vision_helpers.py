"""Shared helpers for the camera tests: a short opening as positions, and the lab's
fake capture and synthetic games (:mod:`lab.videos`)."""

from __future__ import annotations

import os

import chess

from lab.videos import FPS, FakeCapture, game_scene, settled_grids

__all__ = ["ACTIONS", "FPS", "FULL", "OPENING", "FakeCapture", "game_scene", "settled_grids"]

FULL = os.environ.get("RAINDROP_FULL") == "1"


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
