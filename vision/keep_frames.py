"""Keep the camera's frames of confirmed positions as labelled real photos.

While a game is played under the camera, every position the game confirms (the board
shows the game's position: nothing pending, or an action just committed) is the truth
for the frame the camera read it from. :class:`FrameKeeper` writes that frame and its
labels into a folder, in the format of ``tests/vision/data/real_boards/labels.json``
(:mod:`lab.real_boards`): the board's corners in image order, the quarter turns that
put rank 8 at the top, the position as a FEN board. So a table's own board and set,
seen from its own camera, become labelled photos without anyone typing a position
(``raindrop play --board camera --keep-frames DIR``; the app's ``--keep-frames DIR``;
docs/camera.md, "Keeping the camera's frames as labelled photos").

Every entry is a draft (``split`` is ``"unassigned"``, ``checked`` says nobody looked):
a position the players confirmed can still be wrong where the game committed a wrong
action, so a person looks at each frame before it joins the real-photo set
(``raindrop vision kept DIR --draw OUT`` draws each frame's grid and pieces;
``python -m benchmarks.bench_real_boards --labels DIR`` reads them as the real photos are
read).

``labels.json`` is written whole to a temporary file and moved over the old one, so a
stop at any moment leaves the old file or the new one, never half of one; a folder
whose ``labels.json`` cannot be read is refused (:class:`KeptFramesError`) and left as
it is.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import chess
import cv2

from vision.errors import VisionError
from vision.geometry import BoardGeometry, Image

LOGGER = logging.getLogger(__name__)

LABELS = "labels.json"
UNASSIGNED = "unassigned"  # not yet given to dev or held_out (real_boards README's rule)
JPEG_QUALITY = 92
SOURCE = "kept by the companion during play (vision.keep_frames)"
CHECKED = ("not yet: the position is the one the game confirmed; look at the frame "
           "before it joins a split")
_BOARD_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")


class KeptFramesError(VisionError):
    """A folder of kept frames that cannot be used (its labels unreadable, a bad name)."""


@dataclasses.dataclass(frozen=True)
class KeptFrame:
    """One frame written: its file and the position it shows."""

    path: Path
    board_fen: str
    blue: tuple[chess.Square, ...] = ()


def image_quad(geometry: BoardGeometry) -> tuple[list[list[float]], int]:
    """The geometry's corners in image order (top-left first, clockwise) and the
    clockwise turn, in degrees, that puts rank 8 at the top: the labels' form,
    which :meth:`BoardGeometry.from_image_quad` reads back to the same corners."""
    corners = geometry.corners  # a8, h8, h1, a1
    start = min(range(4), key=lambda i: corners[i][0] + corners[i][1])
    quad = [[round(float(corners[(start + i) % 4][0]), 1),
             round(float(corners[(start + i) % 4][1]), 1)] for i in range(4)]
    return quad, 90 * start


class FrameKeeper:
    """Writes confirmed positions' frames and their labels into ``directory``.

    ``board`` names the physical board (and set) in the labels and the file names
    (``<board>_001.jpg`` on, after any already there). A position the same as the
    last one kept is not kept again (a board at rest is confirmed again and again).
    """

    def __init__(self, directory: Path, board: str = "table") -> None:
        if not _BOARD_NAME.match(board):
            raise KeptFramesError(f"board name {board!r}: use 1 to 32 lower-case letters, "
                                  "digits and dashes (it names the files)")
        self.directory = Path(directory)
        self.board = board
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise KeptFramesError(f"cannot make the folder {self.directory}: "
                                  f"{error.strerror}") from None
        self._labels = self._read(self.directory)

    @staticmethod
    def entries(directory: Path) -> list[dict[str, Any]]:
        """The labels of the frames kept in ``directory`` (raises :class:`KeptFramesError`
        when its ``labels.json`` cannot be read)."""
        labels: list[dict[str, Any]] = FrameKeeper._read(Path(directory))["images"]
        return labels

    def keep(self, image: Image, geometry: BoardGeometry, board_fen: str,
             blue: Sequence[chess.Square] = ()) -> KeptFrame | None:
        """Write ``image`` as the photo of the position ``board_fen`` (``blue``: the
        squares whose pieces are blue), seen through ``geometry``; None when it is the
        position kept last. Raises :class:`KeptFramesError` when it cannot be written
        (the folder's labels stay as they were)."""
        chess.BaseBoard(board_fen)  # a malformed position is the caller's error: ValueError
        blue_names = sorted(chess.square_name(square) for square in blue)
        kept = [item for item in self._labels["images"] if item.get("board") == self.board]
        if kept and (kept[-1]["board_fen"], kept[-1].get("blue_squares", [])) == \
                (board_fen, blue_names):
            return None
        number = 1 + max((self._number_of(item["image"]) for item in kept), default=0)
        name = f"{self.board}_{number:03d}.jpg"
        path = self.directory / name
        if not cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY]):
            raise KeptFramesError(f"cannot write {path}")
        quad, rotation = image_quad(geometry)
        entry: dict[str, Any] = {
            "image": name,
            "board_corners_tl_tr_br_bl": quad,
            "rotation_degrees": rotation,
            "board_fen": board_fen,
            "split": UNASSIGNED,
            "board": self.board,
            "source": SOURCE,
            "source_file": name,
            "checked": CHECKED,
        }
        if blue_names:
            entry["blue_squares"] = blue_names
        labels = {**self._labels, "images": [*self._labels["images"], entry]}
        try:
            self._write_labels(labels)
        except OSError as error:
            path.unlink(missing_ok=True)
            raise KeptFramesError(f"cannot write {self.directory / LABELS}: "
                                  f"{error.strerror}") from None
        self._labels = labels
        LOGGER.info("kept %s: %s", name, board_fen)
        return KeptFrame(path, board_fen, tuple(blue))

    # The labels file -------------------------------------------------------------

    @staticmethod
    def _read(directory: Path) -> dict[str, Any]:
        path = directory / LABELS
        if not path.exists():
            return {"source": SOURCE,
                    "note": "Frames kept during play: the format of "
                            "tests/vision/data/real_boards/labels.json; split "
                            f"'{UNASSIGNED}' until a person has looked at each.",
                    "images": []}
        try:
            labels = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise KeptFramesError(f"{path} cannot be read ({error}); it is left as it is: "
                                  "keep frames in another folder, or mend it") from None
        if not isinstance(labels, dict) or not isinstance(labels.get("images"), list) or \
                not all(isinstance(item, dict) and isinstance(item.get("image"), str)
                        and isinstance(item.get("board_fen"), str)
                        for item in labels["images"]):
            raise KeptFramesError(f"{path} is not a labels file (an object whose 'images' "
                                  "list names each image and its board_fen); it is left "
                                  "as it is")
        return labels

    def _write_labels(self, labels: dict[str, Any]) -> None:
        handle, temporary = tempfile.mkstemp(prefix=".labels-", suffix=".json",
                                             dir=self.directory)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                json.dump(labels, stream, indent=1)
                stream.write("\n")
                stream.flush()
                os.fsync(stream.fileno())
            os.replace(temporary, self.directory / LABELS)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def _number_of(self, image: str) -> int:
        stem = Path(image).stem
        prefix = f"{self.board}_"
        if stem.startswith(prefix) and stem[len(prefix):].isdigit():
            return int(stem[len(prefix):])
        return 0
