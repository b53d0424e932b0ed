"""The labelling tools of the real board photos (lab/label_real_boards.py)."""

from __future__ import annotations

import json

import chess
import cv2
import numpy as np
import pytest

from lab.label_real_boards import (
    LabelError,
    PieceBox,
    base_point,
    board_fen,
    box_extent_guess,
    draw_labels,
    edge_strength,
    game_moves,
    image_order,
    inner_corner_guess,
    label_photo,
    light_parity,
    piece_symbol,
    read_yolo_boxes,
    refine_corners,
    square_of,
)
from lab.real_boards import real_boards_dir
from vision.geometry import BoardGeometry

TRUE = ((112.0, 58.0), (505.0, 80.0), (548.0, 420.0), (70.0, 396.0))  # image order


def rendered_board(corners: tuple[tuple[float, float], ...]) -> np.ndarray:
    """A checkerboard with a mid-grey frame warped into ``corners`` on a noisy table."""
    cell, frame = 40, 20
    side = 8 * cell + 2 * frame
    flat = np.full((side, side), 128, np.uint8)
    for r in range(8):
        for c in range(8):
            y, x = frame + r * cell, frame + c * cell
            flat[y:y + cell, x:x + cell] = 215 if (r + c) % 2 == 0 else 60
    a, b = frame - 0.5, side - frame - 0.5  # pixel edges, in pixel-centre coordinates
    src = np.array([[a, a], [b, a], [b, b], [a, b]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, np.array(corners, np.float32))
    table = np.random.default_rng(5).integers(90, 140, (480, 640)).astype(np.uint8)
    warped = cv2.warpPerspective(flat, matrix, (640, 480), borderMode=cv2.BORDER_TRANSPARENT,
                                 dst=table.copy())
    return np.asarray(cv2.GaussianBlur(warped, (3, 3), 0), np.uint8)


def test_class_names_of_the_exports_become_fen_letters() -> None:
    assert piece_symbol("white-king") == "K"
    assert piece_symbol("Black Pawn") == "p"
    assert piece_symbol("b_knight") == "n"
    with pytest.raises(LabelError):
        piece_symbol("bishop")  # the exports' colourless class: a person decides


def test_yolo_lines_become_pixel_boxes_and_base_points() -> None:
    boxes = read_yolo_boxes("1 0.5 0.5 0.1 0.2\n\n0 0.25 0.75 0.05 0.1\n",
                            ["white-pawn", "black-king"], 400, 200)
    assert boxes[0].name == "black-king"
    assert (boxes[0].x_min, boxes[0].y_min, boxes[0].x_max, boxes[0].y_max) == pytest.approx(
        (180.0, 80.0, 220.0, 120.0))
    assert base_point(boxes[0]) == pytest.approx((200.0, 120.0 - 0.3 * 40.0))
    assert boxes[1].name == "white-pawn"
    with pytest.raises(LabelError):
        read_yolo_boxes("1 0.5 0.5\n", ["a", "b"], 10, 10)


def test_points_map_to_squares_through_the_corners_and_rotation() -> None:
    square = ((0.0, 0.0), (800.0, 0.0), (800.0, 800.0), (0.0, 800.0))
    assert square_of((50.0, 50.0), square, 0) == chess.A8
    assert square_of((750.0, 750.0), square, 0) == chess.H1
    # rank 8 runs up the image's left side (turn it a quarter clockwise to put it on top)
    assert square_of((50.0, 50.0), square, 90) == chess.H8
    assert square_of((50.0, 750.0), square, 90) == chess.A8
    assert square_of((850.0, 50.0), square, 0) is None


def test_boxes_become_a_position_and_clashes_are_refused() -> None:
    square = ((0.0, 0.0), (800.0, 0.0), (800.0, 800.0), (0.0, 800.0))
    king = PieceBox("white-king", 420.0, 640.0, 480.0, 760.0)  # base in e1
    pawn = PieceBox("black-pawn", 320.0, 90.0, 380.0, 190.0)  # base (350, 172) in d7
    assert board_fen([king, pawn], square, 0) == "8/3p4/8/8/8/8/8/4K3"
    with pytest.raises(LabelError, match="both on e1"):
        board_fen([king, PieceBox("black-rook", 425.0, 650.0, 475.0, 760.0)], square, 0)
    with pytest.raises(LabelError, match="off the board"):
        board_fen([PieceBox("white-rook", 900.0, 10.0, 950.0, 60.0)], square, 0)


def test_the_fit_finds_a_rendered_board_from_a_rough_start() -> None:
    gray = rendered_board(TRUE)
    rng = np.random.default_rng(11)
    rough = image_order((np.array(TRUE) + rng.uniform(-7, 7, (4, 2))).tolist())
    assert edge_strength(gray, TRUE) > edge_strength(gray, rough)
    fitted = refine_corners(gray, rough)
    assert np.abs(np.array(fitted) - np.array(TRUE)).max() < 1.0


def test_opencv_inner_corners_give_a_start_on_an_empty_board() -> None:
    guess = inner_corner_guess(rendered_board(TRUE))
    assert guess is not None
    assert np.abs(np.array(guess) - np.array(TRUE)).max() < 3.0
    boxes = [PieceBox("white-pawn", 100.0, 300.0, 130.0, 360.0),
             PieceBox("black-pawn", 480.0, 40.0, 510.0, 100.0)]
    (x0, y0), _, (x1, y1), _ = box_extent_guess(boxes)
    assert x0 < 100 and x1 > 510 and y0 < 100 and y1 > 360


def test_a_labelled_photo_refits_onto_its_own_grid() -> None:
    """A dev photo's stored corners, moved 10-12 px (about a sixth of a square), fit
    back to within a tenth of a square, and the overlay draws."""
    folder = real_boards_dir()
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))["images"]
    item = next(i for i in labels if i["image"] == "marble_10.jpg")
    image = cv2.imread(str(folder / item["image"]))
    assert image is not None
    gray = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
    stored = image_order(item["board_corners_tl_tr_br_bl"])
    shift = np.array([[12, -10], [-10, 12], [10, 10], [-12, -12]], np.float64)
    moved = image_order((np.array(stored) + shift).tolist())
    fitted = np.array(refine_corners(gray, moved))
    square_px = np.linalg.norm(np.array(stored[1]) - np.array(stored[0])) / 8
    assert np.abs(np.array(moved) - np.array(stored)).max() > 0.15 * square_px
    assert np.abs(fitted - np.array(stored)).max() < 0.1 * square_px
    drawn = draw_labels(np.asarray(image, np.uint8), stored, item["rotation_degrees"],
                        "8/8/8/8/8/8/8/8")
    assert drawn.shape == image.shape and not np.array_equal(drawn, image)


def test_every_labelled_photo_has_a_light_a8() -> None:
    """The labels' orientation keeps a8 on a light square on every real photo."""
    folder = real_boards_dir()
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))["images"]
    dark = []
    for item in labels:
        gray = cv2.imread(str(folder / item["image"]), cv2.IMREAD_GRAYSCALE)
        corners = image_order(item["board_corners_tl_tr_br_bl"])
        a8 = BoardGeometry.from_image_quad(corners, item["rotation_degrees"]).corners[0]
        corner = corners.index(a8)  # 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left
        cell_parity = (0, 1, 0, 1)[corner]  # (row + column) % 2 of that corner's square
        if (cell_parity + light_parity(np.asarray(gray, np.uint8), corners)) % 2:
            dark.append(item["image"])
    assert len(labels) > 100 and not dark, dark


def test_a_photo_becomes_a_draft_entry_in_the_orientation_asked_for() -> None:
    """A rendered board with one box standing on the square a8 + (4, 7) squares away:
    e1 with a8 at the top-left, d8 with a8 at the bottom-right; a box off the board is
    reported, not placed."""
    image = cv2.cvtColor(rendered_board(TRUE), cv2.COLOR_GRAY2BGR)
    to_image = cv2.getPerspectiveTransform(
        np.array([[0, 0], [8, 0], [8, 8], [0, 8]], np.float32), np.array(TRUE, np.float32))
    x, y = cv2.perspectiveTransform(np.array([[[4.5, 7.5]]], np.float64), to_image)[0, 0]
    king = PieceBox("white-king", x - 15, y + 9 - 60, x + 15, y + 9)
    entry = label_photo(np.asarray(image, np.uint8), [king], a8_corner="tl", tries=2)
    assert entry["board_fen"] == "8/8/8/8/8/8/8/4K3" and entry["rotation_degrees"] == 0
    corners = np.array(entry["board_corners_tl_tr_br_bl"])
    assert np.abs(corners - np.array(TRUE)).max() < 1.5
    turned = label_photo(np.asarray(image, np.uint8), [king], a8_corner="br", tries=2)
    assert turned["board_fen"] == "3K4/8/8/8/8/8/8/8" and turned["rotation_degrees"] == 180
    away = PieceBox("black-pawn", 600.0, 400.0, 630.0, 460.0)
    assert "off the board" in str(label_photo(np.asarray(image, np.uint8), [king, away],
                                              a8_corner="tl", tries=2)["problem"])


def test_positions_read_off_one_game_are_joined_by_legal_moves() -> None:
    """Photos of one game: repeats are allowed, a misread square breaks the game."""
    start = chess.STARTING_BOARD_FEN
    after_d4 = "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR"
    after_d5 = "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR"
    assert game_moves([start, after_d4, after_d4, after_d5]) == ["", "d4", "", "d5"]
    misread = after_d5.replace("RNBQKBNR", "RNBKQBNR")  # king and queen swapped
    with pytest.raises(LabelError, match="position 2"):
        game_moves([after_d4, after_d5, misread])
    assert game_moves([after_d5], max_plies=2) == ["d4 d5"]  # a move nobody photographed
    with pytest.raises(LabelError, match="position 0"):
        game_moves([after_d5])


def test_the_mahogany_photos_are_one_legal_game() -> None:
    """The mahogany board's positions were read by eye; in photo order they are one game."""
    labels = json.loads((real_boards_dir() / "labels.json").read_text(encoding="utf-8"))
    fens = [item["board_fen"] for item in labels["images"] if item["board"] == "mahogany"]
    moves = game_moves(fens)
    assert len(fens) == 34 and moves[-1] == "Bxa8" and sum(bool(m) for m in moves) == 29
