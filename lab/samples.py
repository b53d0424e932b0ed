"""The labelled real photos in ``tests/vision/data/samples`` (in the repository, with
their licence file).

``RAINDROP_VISION_SAMPLES`` overrides where they are. ``labels.json`` gives
each photo's board corners in image order, the quarter turns that put rank 8
at the top, and the position as a FEN board.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import chess

from vision.geometry import BoardGeometry

ENV_VAR = "RAINDROP_VISION_SAMPLES"


@dataclasses.dataclass(frozen=True)
class LabelledPhoto:
    """One real photo with its truth: geometry (a8, h8, h1, a1) and the 8x8 grid."""

    path: Path
    geometry: BoardGeometry
    grid: tuple[str, ...]

    @property
    def empty(self) -> bool:
        return all(row == "........" for row in self.grid)


def samples_dir() -> Path:
    """Where the photos are: the env var, else ``tests/vision/data/samples`` in the repo."""
    override = os.environ.get(ENV_VAR)
    if override:
        return Path(override)
    return Path(__file__).resolve().parent.parent / "tests" / "vision" / "data" / "samples"


def fen_grid(board_fen: str) -> tuple[str, ...]:
    """A FEN board as 8 rows of '.', 'w', 'b' (rank 8 first)."""
    board = chess.BaseBoard(board_fen)
    rows = []
    for rank in range(7, -1, -1):
        row = ""
        for file in range(8):
            piece = board.piece_at(chess.square(file, rank))
            row += "." if piece is None else ("w" if piece.color == chess.WHITE else "b")
        rows.append(row)
    return tuple(rows)


def load_photos(directory: Path | None = None) -> list[LabelledPhoto]:
    """Every labelled photo; raises FileNotFoundError when the labels are missing."""
    directory = directory or samples_dir()
    labels = json.loads((directory / "labels.json").read_text(encoding="utf-8"))
    photos = []
    for item in labels["images"]:
        geometry = BoardGeometry.from_image_quad(item["board_corners_tl_tr_br_bl"],
                                                 int(item["rotation_degrees"]))
        photos.append(LabelledPhoto(directory / item["image"], geometry,
                                    fen_grid(item["board_fen"])))
    return photos
