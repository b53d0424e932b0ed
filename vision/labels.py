"""The labels of a board photo, as kept frames (:mod:`vision.keep_frames`) and the lab's
labelled photos store them: the board's outer corners in image order (top-left,
top-right, bottom-right, bottom-left), the quarter turns that put rank 8 at the top, and
the position as a FEN board. :func:`draw_labels` draws them on the photo, for a person
to check before the photo joins a labelled set (``raindrop vision kept --draw``).
"""

from __future__ import annotations

import chess
import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import BoardGeometry, Image, Point

Quad = tuple[Point, Point, Point, Point]


def to_unit_board(corners: Quad, rotation_degrees: int) -> npt.NDArray[np.float64]:
    """Image -> board squares: a8's outer corner at (0, 0), h1's at (8, 8)."""
    geometry = BoardGeometry.from_image_quad(corners, rotation_degrees)
    src = np.array(geometry.corners, dtype=np.float32)
    dst = np.array([[0, 0], [8, 0], [8, 8], [0, 8]], dtype=np.float32)
    return np.asarray(cv2.getPerspectiveTransform(src, dst), dtype=np.float64)


def draw_labels(image: Image, corners: Quad, rotation_degrees: int, fen: str) -> Image:
    """The photo with the 8 x 8 grid (a8's corner marked) and each piece's letter."""
    out = image.copy()
    to_board = to_unit_board(corners, rotation_degrees)
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
