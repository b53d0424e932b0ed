"""The labelled real chessboard photos in ``tests/vision/data/real_boards`` (with their
licences in its README.md).

``labels.json`` has the samples' format (``vision.samples``: corners in image order,
the quarter turns that put rank 8 at the top, the position as a FEN board) and more:
``split`` is ``dev`` (may be looked at and tuned on) or ``held_out`` (never used to
choose anything), ``board`` names the physical board, ``source`` where the photo
came from. ``read_board`` reads one photo as ``raindrop vision classify --corners``
does: no empty-board reference, from the labelled corners.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import cv2
import numpy as np

from vision.config import VisionConfig
from vision.geometry import BoardGeometry, warp
from vision.samples import fen_grid
from vision.squares import make_sampler, read_squares

SPLITS = ("dev", "held_out")
FILES = "abcdefgh"


@dataclasses.dataclass(frozen=True)
class RealBoardPhoto:
    """One labelled photo: where it is, its part, its board, geometry and truth grid."""

    path: Path
    split: str
    board: str
    geometry: BoardGeometry
    grid: tuple[str, ...]


def real_boards_dir() -> Path:
    return Path(__file__).resolve().parent.parent / "tests" / "vision" / "data" / "real_boards"


def load_real_boards(directory: Path | None = None, split: str | None = None
                     ) -> list[RealBoardPhoto]:
    """Every labelled photo (of one split, when given), in the order of ``labels.json``."""
    directory = directory or real_boards_dir()
    labels = json.loads((directory / "labels.json").read_text(encoding="utf-8"))
    photos = []
    for item in labels["images"]:
        if split is not None and item["split"] != split:
            continue
        geometry = BoardGeometry.from_image_quad(item["board_corners_tl_tr_br_bl"],
                                                 int(item["rotation_degrees"]))
        photos.append(RealBoardPhoto(directory / item["image"], item["split"], item["board"],
                                     geometry, fen_grid(item["board_fen"])))
    return photos


def read_board(config: VisionConfig, photo: RealBoardPhoto) -> tuple[str, ...]:
    """The reader's grid for one photo (rank 8 first), without a reference."""
    loaded = cv2.imread(str(photo.path))
    if loaded is None:
        raise FileNotFoundError(photo.path)
    image = np.asarray(loaded, np.uint8)
    height, width = image.shape[:2]
    geometry = BoardGeometry(photo.geometry.corners, (width, height))
    return read_squares(config, make_sampler(config, geometry), warp(config, image, geometry)).grid


def wrong_squares(truth: tuple[str, ...], read: tuple[str, ...]) -> list[str]:
    """Every square read wrong, as ``e4 w->.`` (expected, then read)."""
    return [f"{FILES[c]}{8 - r} {truth[r][c]}->{read[r][c]}"
            for r in range(8) for c in range(8) if truth[r][c] != read[r][c]]
