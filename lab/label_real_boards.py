"""Labelling tools for the real board photos (``tests/vision/data/real_boards``).

How a photo from a YOLO export (a Roboflow dataset: one box and one class a piece)
becomes a ``labels.json`` entry, so the labels can be re-made:

1. rough board outlines (:func:`corner_candidates`): OpenCV's
   ``findChessboardCornersSB`` on the 7 x 7 inner corners extended by one square
   (:func:`inner_corner_guess`, boards with few pieces), and any checkered patch it finds
   (at least 3 x 3 inner corners, pieces may hide the rest) placed on the board where
   the squares inside the grid are checkered and the ring outside is not
   (:func:`lattice_guess`, :func:`placement_score`); or :func:`box_extent_guess`, or
   corners read by eye;
2. :func:`refine_corners` moves the four outer corners to maximise the
   checkerboard's signed edge strength along the 14 inner lines
   (:func:`edge_strength`);
3. :func:`board_fen` puts every box's base point (the bottom of the box raised by
   0.3 of its width, :func:`base_point`) through the corners onto a square, with
   colour and type from its class; two boxes on one square, or a box off the board,
   are reported, never guessed. :func:`label_photo` keeps the candidate with the
   strongest edges among those that place every box;
4. the orientation: a8 at a named corner for a series from one place
   (:func:`orientation`), else :func:`rotation_guess` (a8 light, white nearer its home
   rank), to be checked against the board's printed coordinates;
5. :func:`draw_labels` draws the grid and a letter on each labelled square, to be
   looked at before an entry is kept.

``python -m lab.label_real_boards IMAGES LABELS OUT --names ... [--white-home 8]
[--a8-corner tr]`` runs steps 1-5 over a folder and writes draft entries
(``OUT/draft.json``) and overlays (``OUT/*.png``); every entry's ``checked`` note, and
any correction, is written by hand after looking.
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
from vision.labels import Quad, draw_labels, to_unit_board

LOGGER = logging.getLogger(__name__)

Image = npt.NDArray[np.uint8]

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


def is_convex(corners: Quad) -> bool:
    """Whether four points in image order make a convex quadrilateral of some size."""
    pts = np.array(corners, dtype=np.float32).reshape(-1, 1, 2)
    return bool(cv2.isContourConvex(pts)) and abs(cv2.contourArea(pts)) > 64.0


def image_order(points: Sequence[Sequence[float]]) -> Quad:
    """Four points as top-left, top-right, bottom-right, bottom-left of the image."""
    pts = np.array(points, dtype=np.float64).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    ring = pts[np.argsort(angles)]  # clockwise on screen, starting anywhere
    start = int(np.argmin(ring.sum(axis=1)))  # the top-left has the smallest x + y
    ordered = [ring[(start + i) % 4] for i in range(4)]
    return tuple((float(p[0]), float(p[1])) for p in ordered)  # type: ignore[return-value]


def square_of(point: Point, corners: Quad, rotation_degrees: int) -> chess.Square | None:
    """The square under an image point, or None off the board."""
    u, v = cv2.perspectiveTransform(np.array([[point]], dtype=np.float64),
                                    to_unit_board(corners, rotation_degrees))[0, 0]
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
                        if not is_convex(image_order(trial)):
                            continue
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


def cell_means(gray: Image, corners: Quad, ring: int = 0) -> npt.NDArray[np.float64]:
    """The median brightness of each square of the grid through ``corners`` (image
    order), extended by ``ring`` squares on every side: a (8 + 2 ring) square array."""
    n = 8 + 2 * ring
    size = n * _CELL
    lo, hi = ring * _CELL - 0.5, (8 + ring) * _CELL - 0.5
    dst = np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(np.array(corners, dtype=np.float32), dst)
    board = cv2.warpPerspective(gray, matrix, (size, size), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    cells = board.reshape(n, _CELL, n, _CELL).transpose(0, 2, 1, 3).reshape(n, n, -1)
    return np.asarray(np.median(cells[:, :, :].astype(np.float64), axis=2), np.float64)


def placement_score(gray: Image, corners: Quad) -> float:
    """How checkered the 8 x 8 squares are, less how checkered the ring of squares
    just outside them is: high only when the grid covers the whole board and no more."""
    means = cell_means(gray, corners, ring=1)
    signs = np.fromfunction(lambda r, c: np.where((r + c) % 2 == 0, 1.0, -1.0), (10, 10))
    weighted = signs * means
    inner = abs(float(weighted[1:9, 1:9].sum())) / 64
    outer_mask = np.ones((10, 10), bool)
    outer_mask[1:9, 1:9] = False
    outer = abs(float(weighted[outer_mask].sum())) / 36
    return inner - outer


def _placed_lattice(gray: Image) -> tuple[float, Quad] | None:
    found, points, meta = cv2.findChessboardCornersSBWithMeta(
        gray, (3, 3), flags=cv2.CALIB_CB_EXHAUSTIVE | cv2.CALIB_CB_LARGER)
    if not found:
        return None
    found_points = np.asarray(points, np.float32).reshape(-1, 2)
    fits = []
    for rows, cols in (meta.shape[:2], meta.shape[1::-1]):  # its layout is not documented
        grid = np.array([[c, r] for r in range(rows) for c in range(cols)], dtype=np.float32)
        matrix, _ = cv2.findHomography(grid, found_points)
        if matrix is not None:
            moved = cv2.perspectiveTransform(grid.reshape(1, -1, 2).astype(np.float64), matrix)
            fits.append((float(np.abs(moved[0] - found_points).max()), rows, cols, matrix))
    if not fits:
        return None
    _, rows, cols, matrix = min(fits, key=lambda fit: fit[0])
    best: tuple[float, Quad] | None = None
    for ox in range(cols - 9, 1):
        for oy in range(rows - 9, 1):
            outer = np.array([[[ox, oy], [ox + 8, oy], [ox + 8, oy + 8], [ox, oy + 8]]],
                             dtype=np.float64)
            quad = image_order(cv2.perspectiveTransform(outer, matrix)[0].tolist())
            if not is_convex(quad):
                continue
            try:
                score = placement_score(gray, quad)
            except cv2.error:
                continue
            if best is None or score > best[0]:
                best = (score, quad)
    return best


def lattice_guess(gray: Image, tries: int = 4) -> Quad | None:
    """The outer corners from any checkered patch OpenCV finds (at least 3 x 3 inner
    corners, pieces may hide the rest), placed on the board where
    :func:`placement_score` is highest; None when no patch is found.

    OpenCV's search draws from its global random generator, so each try seeds it
    (the same photo always gives the same start) and the best-placed try is kept.
    """
    best: tuple[float, Quad] | None = None
    for seed in range(tries):
        cv2.setRNGSeed(seed)
        placed = _placed_lattice(gray)
        if placed is not None and (best is None or placed[0] > best[0]):
            best = placed
    return None if best is None else best[1]


def light_parity(gray: Image, corners: Quad) -> int:
    """0 when the square at the image-order top-left corner is light, else 1."""
    means = cell_means(gray, corners)
    even = np.fromfunction(lambda r, c: (r + c) % 2 == 0, (8, 8))
    return 0 if float(np.median(means[even])) > float(np.median(means[~even])) else 1


def rotation_guess(gray: Image, corners: Quad, boxes: Sequence[PieceBox],
                   white_home: int = 1) -> int:
    """Of the two quarter-turns that make a8 light, the one that puts the white pieces
    nearer rank ``white_home`` (1, or 8 on a board whose owner set white up at its
    printed rank 8), to be checked by eye against the board's printed letters."""
    parity = light_parity(gray, corners)
    best: tuple[float, int] | None = None
    for rotation in (0, 90, 180, 270):
        geometry = BoardGeometry.from_image_quad(corners, rotation)
        # the image-order corner where a8 lands; its square must be light
        index = [tuple(p) for p in corners].index(tuple(geometry.corners[0]))
        corner_cell = [(0, 0), (0, 7), (7, 7), (7, 0)][index]
        if (sum(corner_cell) + parity) % 2:
            continue
        ranks = []
        for box in boxes:
            square = square_of(base_point(box), corners, rotation)
            if square is not None:
                white = piece_symbol(box.name).isupper()
                rank = chess.square_rank(square)
                toward_home = rank if white_home == 1 else 7 - rank
                ranks.append(toward_home if white else 7 - toward_home)
        score = -float(np.mean(ranks)) if ranks else 0.0
        if best is None or score > best[0]:
            best = (score, rotation)
    assert best is not None
    return best[1]


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


def _lines_to(board: chess.Board, fen: str, plies: int) -> list[list[chess.Move]]:
    """Every sequence of exactly ``plies`` legal moves from ``board`` that ends on ``fen``."""
    if plies == 0:
        return [[]] if board.board_fen() == fen else []
    lines = []
    for move in board.legal_moves:
        board.push(move)
        lines += [[move, *rest] for rest in _lines_to(board, fen, plies - 1)]
        board.pop()
    return lines


def game_moves(fens: Sequence[str], start: str = chess.STARTING_BOARD_FEN,
               max_plies: int = 1) -> list[str]:
    """The moves (SAN, ``""`` for a photo of an unchanged position, several moves joined
    by a space) that join positions read by eye off photos of one game, from ``start``:
    each position must be the one before it or reached from it by one line of at most
    ``max_plies`` legal moves (white moving first, the shortest line unique), else
    :class:`LabelError` names the position's index, so a misread square shows as a
    broken game."""
    board = chess.Board(None)  # white to move
    board.set_board_fen(start)
    board.castling_rights = chess.BB_CORNERS
    board.castling_rights = board.clean_castling_rights()  # where king and rooks stand home
    moves = []
    for index, fen in enumerate(fens):
        lines: list[list[chess.Move]] = []
        for plies in range(max_plies + 1):
            lines = _lines_to(board, fen, plies)
            if lines:
                break
        if len(lines) != 1:
            raise LabelError(f"position {index} ({fen}) is not reached by one line of at "
                             f"most {max_plies} legal moves from {board.board_fen()}")
        moves.append(" ".join(board.san_and_push(move) for move in lines[0]))
    return moves


# Looking at it ------------------------------------------------------------------------

def _round_quad(corners: Quad) -> list[list[float]]:
    return [[round(x, 1), round(y, 1)] for x, y in corners]


def corner_candidates(gray: Image, tries: int = 12) -> list[Quad]:
    """Refined grids from OpenCV's full 7 x 7 inner corners when it finds them, and from
    each seeded partial-lattice placement (:func:`lattice_guess`'s tries, one by one)."""
    starts = []
    full = inner_corner_guess(gray)
    if full is not None:
        starts.append(full)
    for seed in range(tries):
        cv2.setRNGSeed(seed)
        placed = _placed_lattice(gray)
        if placed is not None:
            starts.append(placed[1])
    candidates = []
    for start in starts:
        try:
            candidates.append(refine_corners(gray, start, start_step=4.0))
        except cv2.error:
            continue
    return candidates


def orientation(corners: Quad, a8_corner: str) -> int:
    """The rotation that puts a8 at the image-order corner named ``tl``, ``tr``, ``br``
    or ``bl`` (for a series shot from one fixed place)."""
    target = corners[("tl", "tr", "br", "bl").index(a8_corner)]
    for rotation in (0, 90, 180, 270):
        if BoardGeometry.from_image_quad(corners, rotation).corners[0] == target:
            return rotation
    raise LabelError(f"no rotation puts a8 at {a8_corner}")


def label_photo(image: Image, boxes: Sequence[PieceBox], white_home: int = 1,
                a8_corner: str | None = None, tries: int = 12) -> dict[str, object]:
    """A draft entry for one photo: of the candidate grids, the one with the strongest
    checkerboard edges among those that put every box on its own square; its rotation
    from ``a8_corner`` when given, else from :func:`rotation_guess`. An entry with a
    ``problem`` needs a person (or is left out)."""
    gray = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
    best: tuple[tuple[bool, float], Quad, int, str] | None = None
    for corners in corner_candidates(gray, tries):
        rotation = (orientation(corners, a8_corner) if a8_corner
                    else rotation_guess(gray, corners, boxes, white_home))
        try:
            fen, placed = board_fen(boxes, corners, rotation), True
        except LabelError as error:
            fen, placed = str(error), False
        key = (placed, edge_strength(gray, corners))
        if best is None or key > best[0]:
            best = (key, corners, rotation, fen)
    if best is None:
        return {"problem": "OpenCV finds no checkered patch"}
    (placed, strength), corners, rotation, fen = best
    entry: dict[str, object] = {"board_corners_tl_tr_br_bl": _round_quad(corners),
                                "rotation_degrees": rotation,
                                "edge_strength": round(strength, 1)}
    entry["board_fen" if placed else "problem"] = fen
    return entry


def draft(images: Path, labels: Path, out: Path, names: Sequence[str],
          white_home: int = 1, a8_corner: str | None = None) -> list[dict[str, object]]:
    """Draft entries (and overlays under ``out``) for every image with a label file."""
    out.mkdir(parents=True, exist_ok=True)
    entries: list[dict[str, object]] = []
    for path in sorted(images.glob("*.jpg")):
        label = labels / (path.stem + ".txt")
        loaded = cv2.imread(str(path))
        if loaded is None or not label.exists():
            continue
        image = np.asarray(loaded, np.uint8)
        height, width = image.shape[:2]
        entry: dict[str, object] = {"source_file": path.name}
        try:
            boxes = read_yolo_boxes(label.read_text(encoding="utf-8"), names, width, height)
            entry.update(label_photo(image, boxes, white_home, a8_corner))
        except LabelError as error:
            entry["problem"] = str(error)
        if "board_fen" in entry:
            corners = image_order(entry["board_corners_tl_tr_br_bl"])  # type: ignore[arg-type]
            cv2.imwrite(str(out / (path.stem + ".png")),
                        draw_labels(image, corners, int(str(entry["rotation_degrees"])),
                                    str(entry["board_fen"])))
        entries.append(entry)
        LOGGER.info("%s: %s", path.name, entry.get("problem", "drafted"))
    (out / "draft.json").write_text(json.dumps(entries, indent=1), encoding="utf-8")
    return entries


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("images", type=Path)
    parser.add_argument("labels", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--names", required=True,
                        help="the export's class names, comma-separated, in data.yaml order")
    parser.add_argument("--white-home", type=int, choices=(1, 8), default=1,
                        help="the printed rank the white pieces were set up at")
    parser.add_argument("--a8-corner", choices=("tl", "tr", "br", "bl"),
                        help="where a8 is in every photo (a series from one place)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    names = [n.strip() for n in args.names.split(",")]
    entries = draft(args.images, args.labels, args.out, names, args.white_home,
                    args.a8_corner)
    problems = sum("problem" in e for e in entries)
    print(f"{len(entries)} drafted, {problems} need a person; overlays in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
