"""Labelling tools for the real board photos (``tests/vision/data/real_boards``).

How a photo from a YOLO export (a Roboflow dataset: one box and one class a piece)
becomes a ``labels.json`` entry, so the labels can be re-made:

1. a rough board outline: :func:`inner_corner_guess` (OpenCV's
   ``findChessboardCornersSB`` on the 7 x 7 inner corners, extended by one square on
   every side) on a board with few pieces, or :func:`box_extent_guess` (the extent of
   the pieces' base points), or corners read by eye;
2. :func:`refine_corners` moves the four outer corners to maximise the
   checkerboard's signed edge strength along the 14 inner lines
   (:func:`edge_strength`);
3. :func:`board_fen` puts every box's base point (the bottom of the box raised by
   0.3 of its width, :func:`base_point`) through the corners onto a square, with
   colour and type from its class; two boxes on one square, or a box off the board,
   are reported, never guessed;
4. :func:`draw_labels` draws the grid and a letter on each labelled square, to be
   looked at before an entry is kept.

``python -m vision.label_real_boards IMAGES LABELS OUT --names ...`` runs steps 1-4
over a folder and writes draft entries (``OUT/draft.json``) and overlays
(``OUT/*.png``); ``rotation_degrees`` and every entry's ``checked`` note are set by
hand after looking.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
from collections.abc import Sequence
from pathlib import Path

import chess
import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import BoardGeometry, Point

LOGGER = logging.getLogger(__name__)

Image = npt.NDArray[np.uint8]
Quad = tuple[Point, Point, Point, Point]

BASE_RAISE = 0.3  # a box's base point: its bottom edge raised by this share of its width
PIECE_LETTERS = {"king": "k", "queen": "q", "rook": "r", "bishop": "b", "knight": "n",
                 "pawn": "p"}


class LabelError(ValueError):
    """A photo whose labels cannot be made without a person deciding."""


@dataclasses.dataclass(frozen=True)
class PieceBox:
    """One source box in image pixels, with its class name (``white-king``...)."""

    name: str
    x_min: float
    y_min: float
    x_max: float
    y_max: float


def piece_symbol(name: str) -> str:
    """The FEN letter of a class name such as ``white-king``, ``Black Pawn``, ``b_knight``."""
    words = name.lower().replace("-", " ").replace("_", " ").split()
    colours = [w for w in words if w in ("white", "black", "w", "b")]
    kinds = [PIECE_LETTERS[w] for w in words if w in PIECE_LETTERS]
    if len(colours) != 1 or len(kinds) != 1:
        raise LabelError(f"class {name!r} does not name one colour and one piece type")
    return kinds[0].upper() if colours[0] in ("white", "w") else kinds[0]


def read_yolo_boxes(text: str, names: Sequence[str], width: int, height: int
                    ) -> list[PieceBox]:
    """The boxes of one YOLO label file (``class cx cy w h``, normalised) in pixels."""
    boxes = []
    for line in text.splitlines():
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 5:
            raise LabelError(f"not a YOLO box line: {line!r}")
        index = int(parts[0])
        cx, cy, w, h = (float(v) for v in parts[1:])
        boxes.append(PieceBox(names[index], (cx - w / 2) * width, (cy - h / 2) * height,
                              (cx + w / 2) * width, (cy + h / 2) * height))
    return boxes


def base_point(box: PieceBox) -> Point:
    """Where the piece stands: the box's bottom centre, raised by 0.3 of its width."""
    return ((box.x_min + box.x_max) / 2, box.y_max - BASE_RAISE * (box.x_max - box.x_min))


def image_order(points: Sequence[Sequence[float]]) -> Quad:
    """Four points as top-left, top-right, bottom-right, bottom-left of the image."""
    pts = np.array(points, dtype=np.float64).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    ring = pts[np.argsort(angles)]  # clockwise on screen, starting anywhere
    start = int(np.argmin(ring.sum(axis=1)))  # the top-left has the smallest x + y
    ordered = [ring[(start + i) % 4] for i in range(4)]
    return tuple((float(p[0]), float(p[1])) for p in ordered)  # type: ignore[return-value]


def _to_unit_board(corners: Quad, rotation_degrees: int) -> npt.NDArray[np.float64]:
    """Image -> board squares: a8's outer corner at (0, 0), h1's at (8, 8)."""
    geometry = BoardGeometry.from_image_quad(corners, rotation_degrees)
    src = np.array(geometry.corners, dtype=np.float32)
    dst = np.array([[0, 0], [8, 0], [8, 8], [0, 8]], dtype=np.float32)
    return np.asarray(cv2.getPerspectiveTransform(src, dst), dtype=np.float64)


def square_of(point: Point, corners: Quad, rotation_degrees: int) -> chess.Square | None:
    """The square under an image point, or None off the board."""
    u, v = cv2.perspectiveTransform(np.array([[point]], dtype=np.float64),
                                    _to_unit_board(corners, rotation_degrees))[0, 0]
    if not (0 <= u < 8 and 0 <= v < 8):
        return None
    return chess.square(int(u), 7 - int(v))


def board_fen(boxes: Sequence[PieceBox], corners: Quad, rotation_degrees: int) -> str:
    """The position the boxes show; raises :class:`LabelError` on a box off the board
    or two boxes on one square (a person must look)."""
    board = chess.BaseBoard.empty()
    problems = []
    for box in boxes:
        square = square_of(base_point(box), corners, rotation_degrees)
        if square is None:
            problems.append(f"{box.name} at {base_point(box)} is off the board")
            continue
        if board.piece_at(square) is not None:
            problems.append(f"{box.name} and {board.piece_at(square)} both on "
                            f"{chess.square_name(square)}")
            continue
        board.set_piece_at(square, chess.Piece.from_symbol(piece_symbol(box.name)))
    if problems:
        raise LabelError("; ".join(problems))
    return board.board_fen()


# Fitting the grid ----------------------------------------------------------------------

_CELL = 16  # pixels a square in the fitting warp
_BAND = 3  # pixels either side of a line that are compared


def edge_strength(gray: Image, corners: Quad) -> float:
    """How well a grid through ``corners`` (image order) sits on a checkerboard: the
    signed brightness step across each of the 14 inner lines, its sign alternating
    square by square as a checkerboard's does, summed (pieces and shadows only
    weaken it)."""
    size = 8 * _CELL
    # pixel i of the warp covers board x in [i, i + 1) / _CELL: its centre is i + 0.5
    d0, d1 = -0.5, size - 0.5
    dst = np.array([[d0, d0], [d1, d0], [d1, d1], [d0, d1]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(np.array(corners, dtype=np.float32), dst)
    board = cv2.warpPerspective(gray, matrix, (size, size), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE).astype(np.float64)
    lo, hi = round(0.2 * _CELL), round(0.8 * _CELL)
    total = 0.0
    for k in range(1, 8):
        edge = k * _CELL
        for r in range(8):
            sign = 1.0 if (r + k) % 2 else -1.0
            rows = slice(r * _CELL + lo, r * _CELL + hi)
            left = board[rows, edge - _BAND:edge].mean() - board[rows, edge:edge + _BAND].mean()
            above = board[edge - _BAND:edge, rows].mean() - board[edge:edge + _BAND, rows].mean()
            total += sign * (left + above)
    return abs(total)


def refine_corners(gray: Image, corners: Quad, start_step: float = 8.0,
                   end_step: float = 0.25) -> Quad:
    """A local search over the 8 corner coordinates that maximises
    :func:`edge_strength`, halving its step from ``start_step`` to ``end_step`` px."""
    best = [list(p) for p in corners]
    best_score = edge_strength(gray, image_order(best))
    step = start_step
    while step >= end_step:
        improved = True
        while improved:
            improved = False
            for i in range(4):
                for axis in range(2):
                    for delta in (step, -step):
                        trial = [p[:] for p in best]
                        trial[i][axis] += delta
                        try:
                            score = edge_strength(gray, image_order(trial))
                        except cv2.error:
                            continue
                        if score > best_score + 1e-9:
                            best, best_score, improved = trial, score, True
        step /= 2
    return image_order(best)


def inner_corner_guess(gray: Image) -> Quad | None:
    """The outer corners extended from OpenCV's 7 x 7 inner corners, or None when
    OpenCV finds no chessboard (too many pieces, too steep a view)."""
    found, points = cv2.findChessboardCornersSB(gray, (7, 7), flags=cv2.CALIB_CB_EXHAUSTIVE)
    if not found:
        return None
    grid = np.array([[x, y] for y in range(1, 8) for x in range(1, 8)], dtype=np.float32)
    matrix, _ = cv2.findHomography(grid, np.asarray(points, np.float32).reshape(-1, 2))
    outer = np.array([[[0, 0], [8, 0], [8, 8], [0, 8]]], dtype=np.float64)
    return image_order(cv2.perspectiveTransform(outer, matrix)[0].tolist())


def box_extent_guess(boxes: Sequence[PieceBox]) -> Quad:
    """A rectangle round the pieces' base points, a little larger: a start for
    :func:`refine_corners` when pieces stand on the outer files and ranks."""
    if not boxes:
        raise LabelError("no boxes to guess the board from")
    pts = np.array([base_point(b) for b in boxes])
    widths = np.array([b.x_max - b.x_min for b in boxes])
    pad = float(np.median(widths))
    (x0, y0), (x1, y1) = pts.min(axis=0) - pad, pts.max(axis=0) + pad
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


# Looking at it ------------------------------------------------------------------------

def draw_labels(image: Image, corners: Quad, rotation_degrees: int, fen: str) -> Image:
    """The photo with the 8 x 8 grid (a8's corner marked) and each piece's letter."""
    out = image.copy()
    to_board = _to_unit_board(corners, rotation_degrees)
    to_image = np.linalg.inv(to_board)

    def at(u: float, v: float) -> tuple[int, int]:
        x, y = cv2.perspectiveTransform(np.array([[[u, v]]], dtype=np.float64), to_image)[0, 0]
        return round(float(x)), round(float(y))

    for k in range(9):
        cv2.line(out, at(k, 0), at(k, 8), (0, 255, 255), 1, cv2.LINE_AA)
        cv2.line(out, at(0, k), at(8, k), (0, 255, 255), 1, cv2.LINE_AA)
    cv2.circle(out, at(0, 0), 6, (0, 0, 255), 2)  # a8
    board = chess.BaseBoard(fen)
    for square, piece in board.piece_map().items():
        x, y = at(chess.square_file(square) + 0.5, 7 - chess.square_rank(square) + 0.5)
        colour = (255, 255, 255) if piece.color == chess.WHITE else (0, 0, 0)
        ring = (0, 0, 0) if piece.color == chess.WHITE else (255, 255, 255)
        cv2.putText(out, piece.symbol(), (x - 5, y + 5), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                    ring, 3, cv2.LINE_AA)
        cv2.putText(out, piece.symbol(), (x - 5, y + 5), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                    colour, 1, cv2.LINE_AA)
    return out


def _round_quad(corners: Quad) -> list[list[float]]:
    return [[round(x, 1), round(y, 1)] for x, y in corners]


def draft(images: Path, labels: Path, out: Path, names: Sequence[str],
          rotation_degrees: int = 0) -> list[dict[str, object]]:
    """Draft entries (and overlays under ``out``) for every image with a label file."""
    out.mkdir(parents=True, exist_ok=True)
    entries: list[dict[str, object]] = []
    for path in sorted(images.glob("*.jpg")):
        label = labels / (path.stem + ".txt")
        loaded = cv2.imread(str(path))
        if loaded is None or not label.exists():
            continue
        image = np.asarray(loaded, np.uint8)
        gray = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
        height, width = gray.shape
        boxes = read_yolo_boxes(label.read_text(encoding="utf-8"), names, width, height)
        guess = inner_corner_guess(gray)
        start = "inner corners"
        if guess is None:
            guess, start = box_extent_guess(boxes), "box extent"
        corners = refine_corners(gray, guess)
        entry: dict[str, object] = {"image": path.name, "source_file": path.name,
                                    "board_corners_tl_tr_br_bl": _round_quad(corners),
                                    "rotation_degrees": rotation_degrees,
                                    "start": start}
        try:
            fen = board_fen(boxes, corners, rotation_degrees)
            entry["board_fen"] = fen
            cv2.imwrite(str(out / (path.stem + ".png")),
                        draw_labels(image, corners, rotation_degrees, fen))
        except LabelError as error:
            entry["problem"] = str(error)
        entries.append(entry)
    (out / "draft.json").write_text(json.dumps(entries, indent=1), encoding="utf-8")
    return entries


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("images", type=Path)
    parser.add_argument("labels", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--names", required=True,
                        help="the export's class names, comma-separated, in data.yaml order")
    parser.add_argument("--rotation", type=int, default=0)
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.names.split(",")]
    entries = draft(args.images, args.labels, args.out, names, args.rotation)
    problems = sum("problem" in e for e in entries)
    print(f"{len(entries)} drafted, {problems} need a person; overlays in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

