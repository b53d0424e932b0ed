"""Board geometry: corner order, orientation, parsing and storing."""

from __future__ import annotations

import numpy as np
import pytest

from lab import scenes
from vision import synthetic
from vision.calibration import Calibration, load_calibration, save_calibration
from vision.errors import CalibrationError
from vision.geometry import BoardGeometry, parse_corners

QUAD = [(10.0, 20.0), (110.0, 22.0), (108.0, 120.0), (12.0, 118.0)]


@pytest.mark.parametrize(("rotation", "a8"), [(0, 0), (90, 3), (180, 2), (270, 1)])
def test_rotation_picks_the_corner_that_becomes_a8(rotation: int, a8: int) -> None:
    geometry = BoardGeometry.from_image_quad(QUAD, rotation)
    assert geometry.corners[0] == QUAD[a8]
    # Going round clockwise from a8: h8, h1, a1.
    assert geometry.corners[1] == QUAD[(a8 + 1) % 4]


def test_rotated_four_times_is_the_same() -> None:
    geometry = BoardGeometry(tuple(QUAD))  # type: ignore[arg-type]
    assert geometry.rotated(4) == geometry
    assert geometry.rotated(1).rotated(3) == geometry


@pytest.mark.parametrize("text", ["1,2,3", "a,b,c,d,e,f,g,h", "0,0,0,0,0,0,0,0",
                                  "0,0,100,100,100,0,0,100"])
def test_bad_corners_are_refused_with_a_reason(text: str) -> None:
    with pytest.raises(CalibrationError) as info:
        BoardGeometry(parse_corners(text))
    assert str(info.value)


def _true_position(scene: synthetic.Scene) -> np.ndarray:
    cam = np.array(scene.camera.position) * np.array([1.0, -1.0, 1.0])  # board coordinates
    s = scene.square_mm
    return np.array([cam[0] / s + 4, cam[1] / s + 4, cam[2] / s])


def test_camera_position_is_estimated_from_the_corners() -> None:
    rng = np.random.default_rng(4)
    for _ in range(5):
        scene = synthetic.random_scene(rng, fraction=0.0)
        truth = _true_position(scene)
        x, y, h = scene.geometry().camera_position()
        assert abs(h - truth[2]) < 0.25 * truth[2]
        assert abs(x - truth[0]) < 0.2 * truth[2] and abs(y - truth[1]) < 0.2 * truth[2]


def test_camera_position_holds_still_when_a_straight_down_views_corners_wobble() -> None:
    # Seen nearly straight down, the corners say almost nothing about the focal
    # length; a pixel or two of error in them must not throw the camera across
    # the room (it moved the lean of every piece, and misread real photos).
    rng = np.random.default_rng(11)
    for _ in range(4):
        scene = synthetic.random_scene(rng, fraction=0.0, max_tilt_deg=3.0)
        truth = _true_position(scene)
        corners = np.array(scene.geometry().corners)
        side = np.ptp(corners, axis=0).max() / 8
        for _ in range(10):
            noisy = corners + rng.normal(0, 0.03 * side, corners.shape)
            geometry = BoardGeometry(tuple(map(tuple, noisy)), scene.camera.size)  # type: ignore[arg-type]
            x, y, h = geometry.camera_position()
            assert abs(h - truth[2]) < 0.35 * truth[2], (h, truth)
            # The lean of a piece top at a corner square, per square of height.
            lean = np.array([0.5 - x, 0.5 - y]) / (h - 1)
            true_lean = np.array([0.5 - truth[0], 0.5 - truth[1]]) / (truth[2] - 1)
            assert np.linalg.norm(lean - true_lean) < 0.1, (lean, true_lean)


def test_calibration_round_trip_and_broken_files(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("RAINDROP_CONFIG_DIR", str(tmp_path))
    assert load_calibration() is None
    calibration = Calibration(BoardGeometry(tuple(QUAD), (640, 480)), "markers", "0")  # type: ignore[arg-type]
    path = save_calibration(calibration)
    assert path.parent == tmp_path
    assert load_calibration() == calibration
    path.write_text("{not json")
    with pytest.raises(CalibrationError, match="not valid JSON"):
        load_calibration()
    path.write_text('{"version": 1, "geometry": {"corners_a8_h8_h1_a1": [[0, 0]]}}')
    with pytest.raises(CalibrationError, match="calibrate"):
        load_calibration()


def test_a_photo_stretched_to_another_shape_is_seen_through() -> None:
    # Published photo sets often squeeze 4:3 pictures to 640 x 640. With the
    # pixels taken for square, the camera lands far from where it stood and the
    # pieces' lean points the wrong way. One case cannot be told: a camera
    # straight out from the middle of a side, the picture stretched along that
    # way, looks like a steeper view with square pixels.
    rng = np.random.default_rng(8)
    seen = 0
    for _ in range(12):
        scene = scenes.leaning_scene(rng)
        truth = _true_position(scene)
        true_lean = np.array([0.5 - truth[0], 0.5 - truth[1]]) / (truth[2] - 1)
        assert scene.geometry().pixel_aspect() == 1.0
        for stretch, aspect in (((1.0, 4 / 3), 0.75), ((4 / 3, 1.0), 4 / 3)):
            corners = np.array(scene.geometry().corners) * np.array(stretch)
            size = (round(scene.camera.size[0] * stretch[0]),
                    round(scene.camera.size[1] * stretch[1]))
            stretched = BoardGeometry(tuple(map(tuple, corners)), size)  # type: ignore[arg-type]
            if stretched.pixel_aspect() == 1.0:
                continue
            assert stretched.pixel_aspect() == pytest.approx(aspect)
            seen += 1
            x, y, h = stretched.camera_position()
            lean = np.array([0.5 - x, 0.5 - y]) / (h - 1)
            assert np.linalg.norm(lean - true_lean) < 0.05, (lean, true_lean)
    assert seen >= 20  # of 24


def test_square_pixels_stay_square_when_the_corners_are_off() -> None:
    rng = np.random.default_rng(21)
    switched = 0
    for make in (scenes.leaning_scene, scenes.varied_scene):
        for _ in range(150):
            scene = make(rng)
            corners = np.array(scene.geometry().corners)
            side = np.ptp(corners, axis=0).max() / 8
            noisy = corners + rng.normal(0, 0.03 * side, corners.shape)
            geometry = BoardGeometry(tuple(map(tuple, noisy)), scene.camera.size)  # type: ignore[arg-type]
            switched += geometry.pixel_aspect() != 1.0
    assert switched <= 1


def test_the_real_photos_stretched_by_their_source_are_told_from_the_others() -> None:
    # tests/vision/data/real_boards/README.md: the folding board's photos were
    # squeezed from 4:3 to 640 x 640 by their author; the mahogany board's and
    # the black and white mat's were only scaled.
    import cv2

    from lab.real_boards import load_real_boards

    aspects: dict[str, set[float]] = {}
    for photo in load_real_boards(split="dev"):
        if photo.board not in ("folding", "mahogany", "bwmat"):
            continue
        image = cv2.imread(str(photo.path))
        height, width = image.shape[:2]
        geometry = BoardGeometry(photo.geometry.corners, (width, height))
        aspects.setdefault(photo.board, set()).add(round(geometry.pixel_aspect(), 2))
    assert aspects == {"folding": {0.75}, "mahogany": {1.0}, "bwmat": {1.0}}
