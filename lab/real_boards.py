"""The labelled real chessboard photos in ``tests/vision/data/real_boards`` (with their
licences in its README.md).

``labels.json`` has the samples' format (``lab.samples``: corners in image order,
the quarter turns that put rank 8 at the top, the position as a FEN board) and more:
``split`` is ``dev`` (may be looked at and tuned on) or ``held_out`` (never used to
choose anything), ``board`` names the physical board, ``source`` where the photo
came from. ``read_board`` reads one photo as ``raindrop vision classify --corners``
does: no empty-board reference, from the labelled corners; given an empty photo of
the same board from the same camera (``tripod_pairs``), against that photo as its
reference, as a game's camera reads once it has seen the empty board.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path

import chess
import cv2
import numpy as np

from lab.samples import fen_grid
from vision.config import VisionConfig
from vision.geometry import BoardGeometry, Image, warp
from vision.sampling import make_sampler
from vision.square_reading import SquareReading
from vision.squares import read_squares

SPLITS = ("dev", "held_out")
FILES = "abcdefgh"
TRIPOD_PX = 8.0  # corners this close: the same camera pose (a tripod), see tripod_pairs


@dataclasses.dataclass(frozen=True)
class RealBoardPhoto:
    """One labelled photo: where it is, its part, its board, geometry and truth grid."""

    path: Path
    split: str
    board: str
    geometry: BoardGeometry
    grid: tuple[str, ...]


LATER_WALNUT = 20  # walnut_20 on: the thirteenth session's photos, reported apart


def is_later_walnut(photo: RealBoardPhoto) -> bool:
    """Whether a photo is one of the walnut board's later photos (``walnut_20`` on,
    from its source's train part, thirteenth session: README.md there), whose
    held-out figures are reported apart from those of the photos read before them."""
    stem = photo.path.stem
    return photo.board == "walnut" and int(stem.rsplit("_", 1)[1]) >= LATER_WALNUT


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
                                     geometry, with_blue(fen_grid(item["board_fen"]),
                                                         item.get("blue_squares", ()))))
    return photos


def with_blue(grid: tuple[str, ...], blue: Sequence[str]) -> tuple[str, ...]:
    """``grid`` with the squares named in ``blue`` (a Raindropchess game's blue pieces,
    in frames kept during play: :mod:`vision.keep_frames`) marked ``u``."""
    rows = [list(row) for row in grid]
    for name in blue:
        square = chess.parse_square(name)
        rows[7 - chess.square_rank(square)][chess.square_file(square)] = "u"
    return tuple("".join(row) for row in rows)


def _image(photo: RealBoardPhoto) -> Image:
    loaded = cv2.imread(str(photo.path))
    if loaded is None:
        raise FileNotFoundError(photo.path)
    return np.asarray(loaded, np.uint8)


def read_board(config: VisionConfig, photo: RealBoardPhoto,
               empty: RealBoardPhoto | None = None) -> tuple[str, ...]:
    """The reader's grid for one photo (rank 8 first): without a reference, or
    against the ``empty`` photo (warped by this photo's corners) as one."""
    return read_photo(config, photo, empty).grid


def read_photo(config: VisionConfig, photo: RealBoardPhoto,
               empty: RealBoardPhoto | None = None) -> SquareReading:
    """:func:`read_board`'s whole reading (grid and occupancy log-odds)."""
    image = _image(photo)
    height, width = image.shape[:2]
    geometry = BoardGeometry(photo.geometry.corners, (width, height))
    reference = None if empty is None else warp(config, _image(empty), geometry)
    return read_squares(config, make_sampler(config, geometry), warp(config, image, geometry),
                        reference)


def tripod_pairs(photos: list[RealBoardPhoto], split: str | None = None
                 ) -> list[tuple[RealBoardPhoto, RealBoardPhoto]]:
    """(photo, empty photo) for every photo with pieces (of ``split``, when
    given) whose board has an empty photo taken from the same camera pose: its
    corners within ``TRIPOD_PX`` pixels of the empty photo's. The empty photos
    may come from either split: they are references, never read."""
    empties = [p for p in photos if all(set(row) == {"."} for row in p.grid)]
    pairs = []
    for photo in photos:
        if photo in empties or (split is not None and photo.split != split):
            continue
        for empty in empties:
            if (empty.board == photo.board
                    and np.abs(np.subtract(photo.geometry.corners,
                                           empty.geometry.corners)).max() <= TRIPOD_PX):
                pairs.append((photo, empty))
                break
    return pairs


def wrong_squares(truth: tuple[str, ...], read: tuple[str, ...]) -> list[str]:
    """Every square read wrong, as ``e4 w->.`` (expected, then read)."""
    return [f"{FILES[c]}{8 - r} {truth[r][c]}->{read[r][c]}"
            for r in range(8) for c in range(8) if truth[r][c] != read[r][c]]


ERRORS_DOC = Path(__file__).resolve().parent.parent / "docs" / "dev" / "camera-real-errors.md"
REFERENCE_HEADING = "## Read against an empty photo"
_LETTERS = {"empty": ".", "white": "w", "black": "b", "blue": "u"}


def listed_errors(reference: bool = False, doc: Path = ERRORS_DOC) -> set[tuple[str, str]]:
    """The held-out squares the reader gets wrong as listed, each with its cause, in
    docs/dev/camera-real-errors.md: (photo, ``e4 w->.``) pairs. With ``reference``, the
    table under ``REFERENCE_HEADING``: the squares only the reading against an empty photo
    gets wrong. Raises ``ValueError`` for a row without a cause or a missing heading."""
    plain, heading, with_reference = doc.read_text(encoding="utf-8").partition(
        REFERENCE_HEADING)
    if not heading:
        raise ValueError(f"no {REFERENCE_HEADING!r} in {doc.name}")
    rows = set()
    for line in (with_reference if reference else plain).splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 5 or not cells[0].startswith("`"):
            continue
        photo, square, expected, read_as, cause = cells
        if not cause:
            raise ValueError(f"{doc.name}: no cause for {photo} {square}")
        rows.add((photo.strip("`"), f"{square} {_LETTERS[expected]}->{_LETTERS[read_as]}"))
    return rows
