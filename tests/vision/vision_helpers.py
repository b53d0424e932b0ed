"""Shared helpers for the camera tests: a short opening as positions, and the lab's
fake capture and synthetic games (:mod:`lab.videos`)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

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


def small_labelled_set(folder: Path, names: list[str], source: Path | None = None) -> Path:
    """A copy of some of the labelled photos of ``source`` (by default the real board
    photos, tests/vision/data/real_boards) in ``folder``, with their entries of
    ``labels.json`` in its order: for the lab's readers of a whole set, pointed at it
    (``lab.real_boards.real_boards_dir`` monkeypatched, or ``RAINDROP_VISION_SAMPLES``)."""
    from lab.real_boards import real_boards_dir

    source = source or real_boards_dir()
    labels = json.loads((source / "labels.json").read_text(encoding="utf-8"))
    kept = [item for item in labels["images"] if item["image"] in names]
    assert len(kept) == len(names), names
    folder.mkdir(parents=True, exist_ok=True)
    for item in kept:
        shutil.copy(source / item["image"], folder / item["image"])
    (folder / "labels.json").write_text(json.dumps({**labels, "images": kept}),
                                        encoding="utf-8")
    return folder
