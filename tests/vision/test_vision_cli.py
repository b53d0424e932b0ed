"""``raindrop vision``: markers, calibrate, classify, watch; errors without tracebacks."""

from __future__ import annotations

import functools
import hashlib
import json

import chess
import cv2
import numpy as np
import pytest
from vision_helpers import OPENING, game_scene, settled_grids

from companion.cli import main
from lab import videos
from lab.samples import load_photos
from vision import cli, synthetic
from vision.calibration import load_calibration
from vision.config import VisionConfig
from vision.reader import CameraBoardReader, open_board
from vision.square_reading import SquareReading

PHOTOS = load_photos()


@pytest.fixture(autouse=True)
def config_dir(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("RAINDROP_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path / "config"


_READINGS: dict[tuple[object, ...], SquareReading] = {}


@pytest.fixture(autouse=True)
def each_photo_read_once(monkeypatch):  # type: ignore[no-untyped-def]
    """These tests are about the command's output, and classify the same photos many
    times: each photo, corners and reference are read by the shipped reader once."""
    read = cli.classify_image

    def remembered(config, image, geometry, reference=None):  # type: ignore[no-untyped-def]
        key = (hashlib.sha256(image.tobytes()).hexdigest(), geometry.corners,
               geometry.image_size, None if reference is None
               else hashlib.sha256(reference.tobytes()).hexdigest())
        if key not in _READINGS:
            _READINGS[key] = read(config, image, geometry, reference)
        return _READINGS[key]

    monkeypatch.setattr(cli, "classify_image", remembered)


def corners_arg(photo) -> str:  # type: ignore[no-untyped-def]
    return ",".join(f"{v:g}" for point in photo.geometry.corners for v in point)


def test_classify_prints_the_grid_rank_8_first(capsys) -> None:  # type: ignore[no-untyped-def]
    photo = next(p for p in PHOTOS if p.path.name == "chessBoard003.jpg")
    assert main(["vision", "classify", str(photo.path), "--corners", corners_arg(photo)]) == 0
    assert capsys.readouterr().out.splitlines() == list(photo.grid)


def test_classify_json_gives_the_grid_as_8_strings(capsys) -> None:  # type: ignore[no-untyped-def]
    photo = next(p for p in PHOTOS if p.path.name == "chessBoard003.jpg")
    assert main(["vision", "classify", str(photo.path), "--corners", corners_arg(photo),
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["grid"] == list(photo.grid)
    assert all(len(row) == 8 for row in data["grid"]) and len(data["grid"]) == 8


def test_classify_finds_an_empty_board_by_itself(capsys) -> None:  # type: ignore[no-untyped-def]
    photo = next(p for p in PHOTOS if p.path.name == "chessBoard004.jpg")
    assert main(["vision", "classify", str(photo.path), "--json"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["grid"] == ["........"] * 8 and data["method"] == "chessboard"
    assert err == ""  # an empty board found by its pattern needs no note


def test_classify_says_when_a_photo_was_stretched_to_another_shape(
        capsys) -> None:  # type: ignore[no-untyped-def]
    # The folding board's photos were squeezed from 4:3 to 640 x 640 by their source.
    from lab.real_boards import load_real_boards

    folding = next(p for p in load_real_boards(split="dev") if p.board == "folding")
    assert main(["vision", "classify", str(folding.path), "--corners", corners_arg(folding),
                 "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["pixel_aspect"] == 0.75
    assert "0.75 times as tall as wide" in err
    photo = next(p for p in PHOTOS if p.path.name == "chessBoard003.jpg")
    assert main(["vision", "classify", str(photo.path), "--corners", corners_arg(photo),
                 "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["pixel_aspect"] == 1.0 and err == ""


def test_classify_says_a_board_with_pieces_found_without_markers_may_be_misread(
        capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # the start position, found by its squares' pattern: corners a few pixels off. The
    # note hangs on how the board was found and on there being pieces, not on the
    # reading's squares: every photo here reads as the start position.
    start = ("bbbbbbbb", "bbbbbbbb", *["........"] * 4, "wwwwwwww", "wwwwwwww")
    monkeypatch.setattr(cli, "classify_image",
                        lambda *args: SquareReading(start, (9.0,) * 16 + (-9.0,) * 32
                                                    + (9.0,) * 16))
    photo = next(p for p in PHOTOS if p.path.name == "chessBoard012.jpg")
    assert main(["vision", "classify", str(photo.path), "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["method"] == "chessboard"
    assert "without corner markers" in err and "--corners" in err
    assert main(["vision", "classify", str(photo.path), "--corners", corners_arg(photo)]) == 0
    assert capsys.readouterr().err == ""
    # calibrated once on an empty board of the same camera size (its pattern, a1
    # said): the calibration is used, no note
    first, full = (next(p for p in PHOTOS if p.path.name == name)
                   for name in ("chessBoard001.jpg", "chessBoard005.jpg"))
    assert main(["vision", "classify", str(full.path)]) == 0
    assert "without corner markers" in capsys.readouterr().err
    assert main(["vision", "calibrate", str(first.path), "--a1", "bottom-left"]) == 0
    assert main(["vision", "classify", str(full.path)]) == 0
    assert "without corner markers" not in capsys.readouterr().err


@pytest.mark.parametrize(("args", "message"), [
    (["--corners", "1,2,3"], "8 numbers"),
    (["--corners", "0,0,100,0,0,100,100,100"], "convex"),
])
def test_classify_bad_corners_are_a_clear_error(capsys, args, message) -> None:  # type: ignore[no-untyped-def]
    photo = PHOTOS[0]
    assert main(["vision", "classify", str(photo.path), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_classify_unreadable_images_name_the_file(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"not a png at all")
    assert main(["vision", "classify", str(broken)]) == 2
    assert "broken.png" in capsys.readouterr().err
    assert main(["vision", "classify", str(tmp_path / "missing.jpg")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_calibrate_a_photo_then_classify_without_corners(tmp_path, config_dir, capsys) -> None:  # type: ignore[no-untyped-def]
    scene = game_scene(51, markers=True)
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), synthetic.render(scene, 1))
    assert main(["vision", "calibrate", str(empty)]) == 0
    assert "board found (markers)" in capsys.readouterr().out
    calibration = load_calibration()
    assert calibration is not None and calibration.method == "markers"
    assert (config_dir / "camera.json").exists()
    played = tmp_path / "played.png"
    position = scene.with_pieces(OPENING[3])
    cv2.imwrite(str(played), synthetic.render(position, 2))
    assert main(["vision", "classify", str(played)]) == 0
    assert capsys.readouterr().out.splitlines() == position.grid()


def test_calibrate_without_markers_takes_a1_from_the_option(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    photo = next(p for p in PHOTOS if p.path.name == "chessBoard004.jpg")
    assert main(["vision", "calibrate", str(photo.path), "--a1", "bottom-left"]) == 0
    calibration = load_calibration()
    assert calibration is not None and calibration.method == "chessboard"
    a1 = calibration.geometry.corners[3]
    assert a1[0] < 320 and a1[1] > 240  # bottom-left of the 640x480 picture


def test_calibrate_reports_a_board_it_cannot_find(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), cv2.UMat(480, 640, cv2.CV_8UC3, (90, 90, 90)).get())
    assert main(["vision", "calibrate", str(blank)]) == 2
    assert "board not found" in capsys.readouterr().err


def test_markers_command_writes_the_sheet(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "m.pdf"
    assert main(["vision", "markers", "--out", str(out)]) == 0
    assert out.read_bytes().startswith(b"%PDF")
    assert main(["vision", "markers", "--out", str(tmp_path / "m.gif")]) == 2


def test_watch_prints_each_settled_board_of_a_video(tmp_path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    scene = game_scene(52, markers=True, size=(960, 540))
    video = videos.video(scene, OPENING[:1], still_frames=6, hand_frames=6, seed=52,
                         still_pictures=2)
    path = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (960, 540))
    for frame in video:
        writer.write(frame.image)
    writer.release()
    # (the frames before the empty board is seen read by one photo network: the shipped
    # three take most of the time, and watch prints what the reader sends)
    one_net = VisionConfig().replace(photo_nets=("occupancy_photo.onnx",))
    monkeypatch.setattr(cli, "CameraBoardReader", functools.partial(CameraBoardReader,
                                                                    config=one_net))
    # One grid a settled board, the empty board first ...
    preview = tmp_path / "now.png"
    assert main(["vision", "watch", str(path), "--preview", str(preview)]) == 0
    out = capsys.readouterr().out
    assert "camera: board found (markers)" in out
    settled = settled_grids(video)
    assert out.count("board:") == len(settled) == 2
    for grid in settled:
        assert "\n".join(grid) + "\n" in out
    assert "camera: the video ended (disconnected)" in out
    assert cv2.imread(str(preview)) is not None
    # ... and the reader opened on the file (as play's camera board) is the same one.
    assert open_board(str(path)).source == str(path)
    assert main(["vision", "watch", str(tmp_path / "nothing.avi")]) == 2
    assert "nothing.avi" in capsys.readouterr().err


def grid_text(snapshot) -> list[str]:  # type: ignore[no-untyped-def]
    letters = {"white": "w", "black": "b", "blue": "u"}
    colors = dict(snapshot.colors or {})
    return ["".join(letters[colors[chess.square(f, r)]] if chess.square(f, r) in colors else "."
                    for f in range(8)) for r in range(7, -1, -1)]


def test_the_preview_draws_the_board_and_the_hint() -> None:
    from companion.sensors.source import LedHint
    from vision.cli import draw_preview
    from vision.locate import Located
    from vision.reader import CameraBoardReader

    scene = game_scene(53, markers=True)
    reader = CameraBoardReader(0)
    reader.last_frame = synthetic.render(scene, 1)
    reader.located = Located(scene.geometry(), "markers")
    plain = draw_preview(reader)
    reader.show(LedHint(fix=chess.SquareSet([chess.E4])))
    hinted = draw_preview(reader)
    assert plain is not None and hinted is not None
    # The fix square is outlined in red around e4's centre in the picture.
    changed = np.argwhere((hinted != plain).any(axis=2))
    g = scene.geometry()
    h = cv2.getPerspectiveTransform(np.array([[0, 0], [8, 0], [8, 8], [0, 8]], np.float32),
                                    np.array(g.corners, np.float32))
    centre = cv2.perspectiveTransform(np.array([[[4.5, 4.5]]], np.float32), h)[0, 0]
    assert len(changed) > 50
    assert np.abs(changed[:, ::-1].mean(axis=0) - centre).max() < 0.3 * np.ptp(
        np.array(g.corners)[:, 0]) / 8 + 5


def test_classify_names_the_squares_it_is_unsure_of(capsys) -> None:  # type: ignore[no-untyped-def]
    # A photo of the roll-up mat: the empty c1 is read as a white piece, only just;
    # the reading lists it for a person to look at, among a few more at most. (A
    # held-out walnut photo was the example until the thirteenth session's photo
    # networks found its d5 pawn, though black; then folding_07's g5, until the
    # twenty-second session's sharper third network read it black, sure of itself.)
    from lab.real_boards import load_real_boards

    photo = next(p for p in load_real_boards(split="dev") if p.path.name == "mat_44.jpg")
    assert photo.grid[7][2] == "."
    args = ["vision", "classify", str(photo.path), "--corners", corners_arg(photo)]
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["grid"][7][2] == "w"
    assert "c1" in data["unsure"]
    assert len(data["unsure"]) <= 8
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "unsure of" in err and "c1" in err and "look at those squares" in err


def test_classify_says_a_reading_unsure_of_many_squares_may_be_misplaced(
        capsys) -> None:  # type: ignore[no-untyped-def]
    # calibrated on one photo, then a photo of the same size with the board
    # elsewhere: the corners are wrong, and so is most of the reading; it says so
    first, moved = (next(p for p in PHOTOS if p.path.name == name)
                    for name in ("chessBoard001.jpg", "chessBoard005.jpg"))
    assert main(["vision", "calibrate", str(first.path), "--a1", "bottom-left"]) == 0
    capsys.readouterr()
    assert main(["vision", "classify", str(moved.path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["grid"] != list(moved.grid) and len(data["unsure"]) > 8
    assert main(["vision", "classify", str(moved.path)]) == 0
    err = capsys.readouterr().err
    assert f"unsure of {len(data['unsure'])} squares" in err and "where the corners" in err
    # with the right corners it reads the start position, unsure of nothing
    assert main(["vision", "classify", str(moved.path), "--corners", corners_arg(moved),
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["grid"] == list(moved.grid) and data["unsure"] == []


def test_classify_says_when_it_could_not_tell_the_armies_apart(
        capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # a reading sure of one army only (vision.photo_split.colours_unsure) says the
    # colours may be wrong, in the note and in the JSON; a reading that told them
    # apart says nothing
    from vision import cli
    from vision.square_reading import SquareReading

    photo = next(p for p in PHOTOS if p.path.name == "chessBoard003.jpg")
    args = ["vision", "classify", str(photo.path), "--corners", corners_arg(photo)]
    assert main([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["colours_unsure"] is False
    assert main(args) == 0
    assert "armies apart" not in capsys.readouterr().err
    read = cli.classify_image

    def one_army(*call_args: object) -> SquareReading:
        reading = read(*call_args)  # type: ignore[arg-type]
        return SquareReading(reading.grid, reading.occupancy, colours_unsure=True)

    monkeypatch.setattr(cli, "classify_image", one_army)
    assert main([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["colours_unsure"] is True
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "could not tell the two armies apart" in err and "check which pieces" in err


def test_classify_with_a_reference_lists_no_unsure_squares(capsys) -> None:  # type: ignore[no-untyped-def]
    # the margin was chosen for readings without a reference; with one, none is listed
    photo = next(p for p in PHOTOS if p.path.name == "chessBoard003.jpg")
    assert main(["vision", "classify", str(photo.path), "--corners", corners_arg(photo),
                 "--reference", str(photo.path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "unsure" not in data and "colours_unsure" not in data
    assert main(["vision", "classify", str(photo.path), "--corners", corners_arg(photo),
                 "--reference", str(photo.path)]) == 0
    assert "unsure" not in capsys.readouterr().err


def test_watch_names_the_squares_the_camera_is_unsure_of() -> None:
    from companion.sensors.snapshot import BoardSnapshot
    from vision.cli import snapshot_text

    plain = BoardSnapshot(chess.SquareSet([chess.E1]), {chess.E1: "white"}, 3.5, "camera")
    assert snapshot_text(plain).splitlines() == ["[    3.50s] board:", *["........"] * 7,
                                                 "....w..."]
    unsure = BoardSnapshot(chess.SquareSet([chess.E1]), {chess.E1: "white"}, 3.5, "camera",
                           unsure=chess.SquareSet([chess.C6, chess.A1]))
    lines = snapshot_text(unsure).splitlines()
    assert lines[:9] == snapshot_text(plain).splitlines()
    assert lines[9] == "unsure (read empty, but with some sign of a piece): a1, c6"


def test_other_commands_do_not_load_opencv() -> None:
    """Every ``raindrop`` command builds the whole parser: the vision commands' arguments
    come without OpenCV, which loads only when a vision subcommand runs."""
    import subprocess
    import sys

    probe = ("import sys; from companion.cli import build_parser; "
             "parser = build_parser(); "
             "parser.parse_args(['vision', 'markers', '--size', '20']); "
             "print(sorted(name for name in ('cv2', 'numpy', 'vision.cli') "
             "if name in sys.modules))")
    output = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True).stdout
    assert output.strip() == "[]"
