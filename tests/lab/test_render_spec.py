"""The scenes drawn for the Blender renderer (lab.render_spec) and their labels,
checked without Blender: the camera's projection against OpenCV's own, the labels
against the samples' loader, the draws against what they promise; and the rendered
pictures' part of the training (lab.train_occupancy --rendered)."""

from __future__ import annotations

import importlib
import json
import math
from pathlib import Path

import chess
import cv2
import numpy as np
import pytest

from lab.render_spec import (
    OVER_THE_EDGE,
    SHIPPED_LABELS_KEY,
    SHIPPED_RUNS,
    VERSIONS,
    RenderCamera,
    board_corners,
    board_fen,
    draw_scene,
    image_name,
    label_entry,
    labels_text,
    look_at,
    project,
)
from lab.samples import fen_grid, load_photos
from vision import synthetic
from vision.config import VisionConfig
from vision.geometry import BoardGeometry

SEEDS = range(60)


def test_the_same_seed_draws_the_same_scene_and_another_seed_another() -> None:
    assert draw_scene(7) == draw_scene(7)
    assert draw_scene(7) != draw_scene(8)
    assert draw_scene(7, 1) == draw_scene(7, 1) != draw_scene(7, 2)
    assert [draw_scene(7, version).version for version in VERSIONS] == list(VERSIONS)


def test_a_version_that_was_never_drawn_is_refused() -> None:
    with pytest.raises(ValueError, match="no scene version 3"):
        draw_scene(7, 3)


def test_the_projection_is_opencvs_pinhole_for_the_same_camera() -> None:
    """A second implementation: OpenCV's projectPoints, with the camera turned from
    Blender's axes (looking along minus z, y up) to OpenCV's (along z, y down)."""
    rng = np.random.default_rng(3)
    for seed in range(10):
        camera = draw_scene(seed).camera
        rotation = np.array(camera.rotation)  # columns: right, up, back (world)
        to_camera = (rotation @ np.diag([1.0, -1.0, -1.0])).T  # world -> OpenCV camera
        position = np.array(camera.position)
        width, height = camera.size
        focal = camera.focal_mm / 36.0 * width
        matrix = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1]])
        points = np.column_stack([rng.uniform(-5, 5, (20, 2)), rng.uniform(0, 2, 20)])
        rvec, _ = cv2.Rodrigues(to_camera)
        expected, _ = cv2.projectPoints(points, rvec, -to_camera @ position, matrix, None)
        assert np.allclose(project(camera, points), expected.reshape(-1, 2), atol=1e-6)


def test_a_camera_straight_above_sees_the_board_as_a_centred_square() -> None:
    rotation = look_at(np.array([0.0, 0.0, 20.0]), np.zeros(3), 0.0)
    camera = RenderCamera((0.0, 0.0, 20.0), tuple(tuple(row) for row in rotation.tolist()),
                          36.0, (640, 480))
    a8, h8, h1, a1 = board_corners(camera)
    side = 640 * 8 / 20  # the focal length in pixels (640) times 8 squares / 20 away
    assert np.allclose(a8, (320 - side / 2, 240 - side / 2))  # a8 top left: rank 8 at +y
    assert np.allclose(h1, (320 + side / 2, 240 + side / 2))
    assert np.allclose([h8[0], a1[0]], [320 + side / 2, 320 - side / 2])


def test_a_point_behind_the_camera_projects_to_nothing() -> None:
    camera = draw_scene(0).camera
    behind = 2 * np.array(camera.position)  # the far side of the camera from the board
    assert np.isnan(project(camera, behind[None, :])).all()


def _tilt(camera: RenderCamera) -> float:
    x, y, z = camera.position
    return math.degrees(math.atan2(math.hypot(x, y), z))


def _inside(points: np.ndarray, camera: RenderCamera) -> bool:
    width, height = camera.size
    return bool(((points >= 0) & (points <= (width, height))).all())


def test_every_camera_sees_the_whole_board_from_0_to_60_degrees_on_all_sides() -> None:
    """Version 1: the board and its frame in the picture."""
    tilts, sides = [], set()
    for seed in SEEDS:
        camera = draw_scene(seed, 1).camera
        width, height = camera.size
        corners = board_corners(camera)
        assert _inside(corners, camera)
        BoardGeometry(tuple(map(tuple, corners)), (width, height))  # convex, in order
        x, y, _ = camera.position
        tilts.append(_tilt(camera))
        sides.add(int((math.degrees(math.atan2(y, x)) + 360 + 45) // 90) % 4)
    assert 0 <= min(tilts) < 12 and 48 < max(tilts) <= 62
    assert sides == {0, 1, 2, 3}


def test_version_2_cameras_come_closer_and_lower_and_may_cut_the_frame() -> None:
    """Version 2: the squares always in the picture, the frame not always; tilts to 68
    degrees; half the cameras close with a wide lens."""
    tilts, close, cut = [], 0, 0
    for seed in SEEDS:
        scene = draw_scene(seed, 2)
        camera = scene.camera
        corners = board_corners(camera)
        assert _inside(corners, camera)
        BoardGeometry(tuple(map(tuple, corners)), camera.size)
        tilts.append(_tilt(camera))
        close += float(np.linalg.norm(camera.position)) < 9.0
        edge = 4.0 + scene.board.frame_width
        frame = project(camera, np.array([[x, y, 0.0] for x in (-edge, edge)
                                          for y in (-edge, edge)]))
        cut += not _inside(frame, camera)
    assert 62 < max(tilts) <= 68 and sum(tilt > 45 for tilt in tilts) >= len(SEEDS) // 4
    assert close >= len(SEEDS) // 10 and cut >= len(SEEDS) // 10


@pytest.mark.parametrize("version", VERSIONS)
def test_positions_hold_real_pieces_on_their_squares_and_some_boards_are_games(
        version: int) -> None:
    games, far, over = 0, 0, 0
    for seed in SEEDS:
        pieces = draw_scene(seed, version).pieces
        squares = [piece.square for piece in pieces]
        assert len(squares) == len(set(squares)) <= 32
        reach = 0.15 if version == 1 else OVER_THE_EDGE
        assert all(piece.colour in ("white", "black") and 1 <= piece.kind <= 6
                   and abs(piece.dx) <= reach and abs(piece.dy) <= reach for piece in pieces)
        for piece in pieces:  # past a quarter square only outwards, on the board's edge
            file, rank = chess.square_file(piece.square), chess.square_rank(piece.square)
            if abs(piece.dx) > 0.25:
                assert (file, piece.dx > 0) in ((0, False), (7, True))
            if abs(piece.dy) > 0.25:
                assert (rank, piece.dy > 0) in ((0, False), (7, True))
            far += max(abs(piece.dx), abs(piece.dy)) > 0.15
            over += max(abs(piece.dx), abs(piece.dy)) > 0.25
        board = chess.Board(board_fen(pieces) + " w - - 0 1")
        kings = [len(board.pieces(chess.KING, colour)) for colour in (True, False)]
        games += kings == [1, 1] and len(pieces) >= 2
    assert games >= len(SEEDS) // 3
    assert (far, over) == (0, 0) if version == 1 else far > 100 and over > 10


def test_version_2_sets_include_brown_pieces_as_light_as_walnut_squares() -> None:
    """A brown stain between ebony and boxwood: the walnut board's set (linear red
    0.06 to 0.32, sRGB 0.26 to 0.60); version 1 draws such browns only in sets of the
    squares' own colours on a brown board, version 2 half as often again at least."""
    def brown(seed: int, version: int) -> bool:
        black = draw_scene(seed, version).piece_set.black
        return 0.07 < black[0] < 0.35 and black[0] > black[2] * 1.5

    assert sum(brown(seed, 2) for seed in SEEDS) >= len(SEEDS) // 6
    assert sum(brown(seed, 2) for seed in SEEDS) > 1.5 * sum(brown(seed, 1) for seed in SEEDS)


def test_the_labels_load_as_the_photos_do_with_the_scenes_corners_and_position(
        tmp_path: Path) -> None:
    scenes = [draw_scene(seed) for seed in (1, 2, 3)]
    entries = [label_entry(scene, f"render_{scene.seed:06d}.jpg") for scene in scenes]
    (tmp_path / "labels.json").write_text(json.dumps({"images": entries}), encoding="utf-8")
    photos = load_photos(tmp_path)
    assert [photo.path.name for photo in photos] == [entry["image"] for entry in entries]
    for scene, photo in zip(scenes, photos, strict=True):
        assert np.allclose(photo.geometry.corners, board_corners(scene.camera), atol=0.01)
        grid = photo.grid
        for piece in scene.pieces:
            row, col = 7 - chess.square_rank(piece.square), chess.square_file(piece.square)
            assert grid[row][col] == piece.colour[0]
        assert sum(row.count(".") for row in grid) == 64 - len(scene.pieces)


def _rendered_folder(folder: Path, fen: str) -> synthetic.Scene:
    """A folder as lab.render_blender writes it, with one picture (drawn by the
    OpenCV renderer: these tests have no Blender) and its labels."""
    scene = synthetic.random_scene(np.random.default_rng(5))
    cv2.imwrite(str(folder / "render_000000.jpg"), synthetic.render(scene))
    corners = [list(point) for point in scene.geometry().corners]
    entry = {"image": "render_000000.jpg", "board_corners_tl_tr_br_bl": corners,
             "rotation_degrees": 0, "board_fen": fen}
    (folder / "labels.json").write_text(json.dumps({"images": [entry]}), encoding="utf-8")
    return scene


def test_rendered_pictures_join_training_labelled_by_their_labels_json(
        tmp_path: Path) -> None:
    from lab.train_occupancy import rendered_set
    from vision.square_net import CLASSES, INPUTS

    fen = "4k3/8/8/3q4/8/8/4P3/4K3"
    _rendered_folder(tmp_path, fen)
    rows, labels = rendered_set(VisionConfig(), tmp_path, 2, 0)
    assert rows.shape == (128, INPUTS)
    expected = [CLASSES.index(c) for row in fen_grid(fen) for c in row]
    assert labels.tolist() == expected * 2
    assert not np.array_equal(rows[:64], rows[64:])  # the second read's corners moved


def test_training_with_a_folder_that_has_no_labels_is_refused_before_any_training(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from lab.train_occupancy import main as train

    out = tmp_path / "net.onnx"
    with pytest.raises(SystemExit) as stop:
        train(["--rendered", str(tmp_path / "nothing"), "--out", str(out)])
    assert stop.value.code == 2 and not out.exists()
    assert "labels.json does not exist" in capsys.readouterr().err


def test_the_labels_file_gathers_what_was_written_beside_each_picture(
        tmp_path: Path) -> None:
    """lab.render_blender writes each picture's labels beside it as it renders; its
    labels.json gathers them (no Blender needed for that), leaving out a picture whose
    labels are missing (a render stopped halfway), and loads as the photos do."""
    from lab.render_blender import write_labels

    for seed, version in ((4, 1), (9, 2)):  # the versions share a folder
        path = tmp_path / image_name(seed, version)
        path.write_bytes(b"")
        path.with_suffix(".json").write_text(
            json.dumps(label_entry(draw_scene(seed, version), path.name)), encoding="utf-8")
    (tmp_path / image_name(12)).write_bytes(b"")  # no labels beside it
    assert write_labels(tmp_path) == 2
    photos = load_photos(tmp_path)
    assert [photo.path.name for photo in photos] == ["render_000004.jpg",
                                                     "render_v2_000009.jpg"]
    assert photos[1].grid == fen_grid(board_fen(draw_scene(9, 2).pieces))
    entries = json.loads((tmp_path / "labels.json").read_text(encoding="utf-8"))["images"]
    assert [entry["version"] for entry in entries] == [1, 2]


@pytest.mark.parametrize("trainer", ["train_occupancy", "train_pretrained",
                                     "finetune_pretrained"])
def test_training_with_labels_that_list_no_picture_is_refused_before_any_training(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], trainer: str) -> None:
    train = importlib.import_module(f"lab.{trainer}").main

    (tmp_path / "labels.json").write_text(json.dumps({"images": []}), encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        train(["--rendered", str(tmp_path), "--out", str(tmp_path / "net.onnx")])
    assert stop.value.code == 2 and "lists none" in capsys.readouterr().err
    assert not (tmp_path / "net.onnx").exists()


def test_a_rendered_picture_that_cannot_be_read_is_named(tmp_path: Path) -> None:
    from lab.train_occupancy import rendered_set
    from vision.errors import FrameUnreadable

    _rendered_folder(tmp_path, "8/8/8/8/8/8/8/8")
    (tmp_path / "render_000000.jpg").write_bytes(b"not a picture")
    with pytest.raises(FrameUnreadable, match=r"render_000000\.jpg"):
        rendered_set(VisionConfig(), tmp_path, 1, 0)


def test_the_shipped_networks_pictures_are_drawn_again_from_their_seeds(
        tmp_path: Path) -> None:
    """The photo networks learned from the pictures of ``SHIPPED_RUNS``: rendered again
    from those seeds, anywhere, their labels.json is the one they were trained with
    (the digest training keyed its cache by). A change to the drawing that moves those
    scenes fails here: raise VERSION, and render and train again."""
    from lab.train_occupancy import labels_key

    seeds = [seed for first, count in SHIPPED_RUNS for seed in range(first, first + count)]
    assert len(seeds) == 400
    labels = tmp_path / "labels.json"
    labels.write_text(labels_text([label_entry(draw_scene(seed, 1), image_name(seed))
                                   for seed in seeds]), encoding="utf-8")
    assert labels_key(labels) == SHIPPED_LABELS_KEY
