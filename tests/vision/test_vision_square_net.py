"""The shipped square networks (vision/models/occupancy*.onnx), read by OpenCV's dnn module.

Its accuracy is checked without retraining: on the real sample photos and the
development part of the real board photos (which it was trained on, with moved
corners), on the held-out part (never trained or tuned on), and on synthetic
scenes of a stream never used in training (lab.train_occupancy draws from
stream 77).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest
from vision_helpers import small_labelled_set

from lab import scenes
from lab.real_boards import (
    listed_errors,
    load_real_boards,
    read_board,
    tripod_pairs,
    wrong_squares,
)
from lab.samples import load_photos, samples_dir
from vision import models, synthetic
from vision.config import VisionConfig
from vision.geometry import BoardGeometry, warp
from vision.net_reading import net_logits
from vision.sampling import make_sampler
from vision.square_net import CLASSES, INPUTS, SquareNet, SquareNetError, load_net

CONFIG = VisionConfig()
# Bounds a little above what the shipped network measured.
NET_PHOTO_WRONG = 0
NET_SYNTHETIC_WRONG = 2  # of the 6 scenes read (0 measured; 1 of 12)
# A handful of the real photos of tests/vision/data/real_boards and every square each
# reads wrong today: a guard that fails when the reading of any of them changes. The
# whole parts are read by the benchmark (python -m benchmarks.bench_real_boards;
# docs/PERFORMANCE.md, "Camera reader"), which checks its figures against
# vision/models/manifest.json and every held-out error against its row in
# docs/dev/camera-real-errors.md. Without a reference, two held-out photos (a walnut
# position full of tops over the squares behind, the empty wooden board) and two
# development ones; with the empty photo of their tripod as the reference, a tournament
# frame and a mat photo.
GUARD_PHOTOS = {
    "walnut_03.jpg": {"h1 w->b"},  # 4 wrong without lowering pieces under tops
    "wood_07.jpg": {"b4 .->w"},
    "greywood_15.jpg": {"e6 b->w"},
    "folding_05.jpg": {"d7 .->w"},
}
GUARD_TRIPOD = {
    "tournament_02.jpg": {"d2 w->.", "f2 w->b", "g2 w->b", "h2 w->b"},
    "mat_70.jpg": set(),
}
# The empty photos each split's tripod pairs read against.
TRIPOD_EMPTIES = {"held_out": {"mat_65.jpg", "tournament_10.jpg"}}


def read(image: np.ndarray, geometry: BoardGeometry) -> str:
    sampler = make_sampler(CONFIG, geometry)
    logits = net_logits(CONFIG, sampler, warp(CONFIG, image, geometry))
    return "".join(CLASSES[i] for i in logits.argmax(axis=1))


def test_the_shipped_network_loads_and_gives_four_logits_a_square() -> None:
    rows = np.zeros((64, INPUTS), np.float32)
    assert load_net().logits(rows).shape == (64, len(CLASSES))


def test_a_network_is_loaded_by_its_path_as_by_its_shipped_name(tmp_path: Path) -> None:
    # A fit kept by `train_occupancy --leave-out BOARD --keep PATH` is read by its path.
    copy = tmp_path / "fit.onnx"
    copy.write_bytes(models.read_bytes("occupancy.onnx"))
    rows = np.random.default_rng(5).normal(0, 1, (64, INPUTS)).astype(np.float32)
    np.testing.assert_array_equal(load_net(str(copy)).logits(rows),
                                  load_net("occupancy.onnx").logits(rows))
    with pytest.raises(SquareNetError, match="no square network"):
        load_net(str(tmp_path / "missing.onnx"))


def test_a_broken_file_is_refused() -> None:
    with pytest.raises(SquareNetError):
        SquareNet(b"not an onnx file")


def test_the_network_reads_the_real_sample_photos() -> None:
    wrong = total = 0
    for photo in load_photos():
        image = np.asarray(cv2.imread(str(photo.path)), np.uint8)
        h, w = image.shape[:2]
        grid = read(image, BoardGeometry(photo.geometry.corners, (w, h)))
        truth = "".join(photo.grid)
        wrong += sum(a != b for a, b in zip(grid, truth, strict=True))
        total += 64
    assert total == 832
    assert wrong <= NET_PHOTO_WRONG, f"{wrong} of {total} squares wrong"


def test_the_network_reads_held_out_synthetic_scenes() -> None:
    rng = np.random.default_rng(2024)  # a stream training never drew from
    wrong = total = 0
    for index in range(6):
        scene = synthetic.random_scene(rng) if index % 3 else scenes.leaning_scene(rng)
        grid = read(synthetic.render(scene, 2024_000 + index), scene.geometry())
        truth = "".join(scene.grid())
        wrong += sum(a != b for a, b in zip(grid, truth, strict=True))
        total += 64
    assert wrong <= NET_SYNTHETIC_WRONG, f"{wrong} of {total} squares wrong"


def test_a_handful_of_real_photos_read_as_measured() -> None:
    photos = {photo.path.name: photo for photo in load_real_boards()}
    held_out = listed_errors()
    for name, expected in GUARD_PHOTOS.items():
        photo = photos[name]
        assert set(wrong_squares(photo.grid, read_board(CONFIG, photo))) == expected, name
        if photo.split == "held_out":  # as listed, each with its cause
            assert {error for photo_name, error in held_out if photo_name == name} == expected


def test_a_tripods_photos_read_against_its_empty_photo_as_measured() -> None:
    pairs = {photo.path.name: (photo, empty) for photo, empty in tripod_pairs(
        load_real_boards(), "held_out")}
    assert {empty.path.name for _, empty in pairs.values()} == TRIPOD_EMPTIES["held_out"]
    for name, expected in GUARD_TRIPOD.items():
        photo, empty = pairs[name]
        assert set(wrong_squares(photo.grid, read_board(CONFIG, photo, empty))) == expected, name


def test_the_fused_reader_beats_the_features_on_real_photos_with_a_reference() -> None:
    """The design choice, on the development part: the hand-made features read
    the same photos against the same reference far worse."""
    pairs = tripod_pairs(load_real_boards(), "dev")[::6]  # fused 0 wrong, features 24
    features = CONFIG.replace(reference_reader="features")
    wrong = {name: sum(len(wrong_squares(photo.grid, read_board(config, photo, empty)))
                       for photo, empty in pairs)
             for name, config in (("fused", CONFIG), ("features", features))}
    assert wrong["fused"] * 10 < wrong["features"], wrong


def test_training_writes_a_network_opencv_reads_as_numpy_computes() -> None:
    pytest.importorskip("onnx", reason="the lab extra is not installed")
    from lab.train_occupancy import fit, forward, to_onnx

    rng = np.random.default_rng(3)
    rows = rng.normal(0, 1, (200, INPUTS)).astype(np.float32)
    labels = (rows[:, 0] > 0).astype(np.int64) + 2 * (rows[:, 1] > 1)
    layers = fit(rows, labels, np.ones(200, np.float32), seed=1, epochs=5)
    again = fit(rows, labels, np.ones(200, np.float32), seed=1, epochs=5)
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(layers, again, strict=True))
    net = SquareNet(to_onnx(layers))
    np.testing.assert_allclose(net.logits(rows[:64]), forward(layers, rows[:64]),
                               rtol=1e-4, atol=1e-4)
    assert (forward(layers, rows).argmax(axis=1) == labels).mean() > 0.8


def test_varied_scenes_draw_boards_and_sets_the_named_schemes_lack() -> None:
    rng = np.random.default_rng(5)
    drawn = [scenes.varied_scene(rng) for _ in range(12)]
    boards = {scene.colours for scene in drawn}
    assert None not in boards and len(boards) == 12
    assert all(scene.colours not in synthetic.SCHEMES.values() for scene in drawn)
    # about half are wooden boards with grain, some pieces take the squares' colours
    assert sum(scene.grain is not None and scene.grain > 3 for scene in drawn) >= 4
    image = synthetic.render(drawn[0], 1)
    assert image.shape == (720, 1280, 3)
    again = scenes.varied_scene(np.random.default_rng(5))
    assert again == drawn[0]


def test_close_scenes_stand_nearer_than_any_ordinary_one_and_see_the_whole_board() -> None:
    rng = np.random.default_rng(6)
    close = [scenes.close_scene(rng) for _ in range(20)]
    ordinary = [scenes.leaning_scene(rng) for _ in range(20)]

    def distance(scene: synthetic.Scene) -> float:
        return float(np.linalg.norm(scene.camera.position)) / scene.square_mm

    # 8 to 12 squares from the point looked at (within half a square of the middle)
    assert max(map(distance, close)) <= 12.5 < min(map(distance, ordinary))
    for scene in close:
        width, height = scene.camera.size
        assert (width, height) == (960, 720)
        corners = np.array(scene.geometry().corners)
        assert (corners >= 0).all() and (corners[:, 0] < width).all()
        assert (corners[:, 1] < height).all()
    # the same stream draws the same scenes, the others' streams are untouched
    assert scenes.close_scene(np.random.default_rng(6)) == close[0]


def test_a_board_colour_given_to_a_scene_is_the_colour_drawn() -> None:
    scene = synthetic.random_scene(np.random.default_rng(8), fraction=0.0, markers=False)
    assert scene.colours is None and scene.grain is None
    light, dark = (90, 160, 230), (20, 40, 80)
    spreads = []
    for grain in (0.0, 20.0):
        painted = dataclasses.replace(scene, colours=(light, dark, (30, 30, 30)), grain=grain)
        texture, half_mm = synthetic.board_texture(painted)
        s = scene.square_mm * texture.shape[0] / (2 * half_mm)  # texture pixels a square
        middle = texture.shape[0] / 2
        a8 = texture[round(middle - 3.5 * s), round(middle - 3.5 * s)]
        b8 = texture[round(middle - 3.5 * s), round(middle - 2.5 * s)]
        assert np.abs(a8.astype(int) - light).max() < 25 + 2 * grain  # a8 is light
        assert np.abs(b8.astype(int) - dark).max() < 25 + 2 * grain
        inner = texture[round(middle - 4 * s):round(middle + 4 * s),
                        round(middle - 4 * s):round(middle + 4 * s), 1]
        spreads.append(float(np.median(np.abs(np.diff(inner.astype(np.float32), axis=0)))))
    assert spreads[1] >= spreads[0] + 1  # the grain shows as fine stripes


def test_augmentation_changes_tiles_as_another_light_would_and_zero_leaves_them() -> None:
    from lab.train_occupancy import augmented, flipped
    from vision.square_net import TILE_VALUES, mirrored

    rng = np.random.default_rng(0)
    rows = rng.normal(0, 0.3, (32, INPUTS)).astype(np.float32)
    assert augmented(rows, rng, 0.0) is rows
    changed = augmented(rows, np.random.default_rng(1), 1.0)
    assert changed.shape == rows.shape
    assert not np.allclose(changed, rows)
    # a jitter, not a new picture: each tile still follows its own pattern
    for a, b in zip(rows[:, :TILE_VALUES], changed[:, :TILE_VALUES], strict=True):
        assert np.corrcoef(a, b)[0, 1] > 0.8
    assert np.array_equal(changed, augmented(rows, np.random.default_rng(1), 1.0))
    which = np.arange(32) % 2 == 0
    half = flipped(rows, which)
    assert np.array_equal(half[which], mirrored(rows[which]))
    assert np.array_equal(half[~which], rows[~which])


def test_each_tile_weighs_as_its_part_and_a_blue_piece_times_the_blue_weight() -> None:
    from lab.train_occupancy import tile_weights

    parts = [{"rows": np.zeros((3, 1)), "labels": np.array([0, 3, 2]), "weight": 1.0},
             {"rows": np.zeros((2, 1)), "labels": np.array([3, 1]), "weight": 2.5}]
    assert tile_weights(parts, 3.0).tolist() == [1.0, 3.0, 1.0, 7.5, 2.5]
    assert tile_weights(parts, 1.0).tolist() == [1.0, 1.0, 1.0, 2.5, 2.5]


def test_training_reads_every_development_photo_labels_json_lists(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from lab import real_boards
    from lab.train_occupancy import real_dev_set

    # three development photos of two boards and a held-out one, as labels.json lists them
    folder = small_labelled_set(tmp_path, ["mat_02.jpg", "walnut_53.jpg", "mat_03.jpg",
                                          "wood_07.jpg"])
    monkeypatch.setattr(real_boards, "real_boards_dir", lambda: folder)
    dev = load_real_boards(split="dev")
    assert [photo.path.name for photo in dev] == ["mat_02.jpg", "mat_03.jpg", "walnut_53.jpg"]
    rows, labels, boards = real_dev_set(CONFIG, 1, 0)
    assert rows.shape == (64 * len(dev), INPUTS) and len(labels) == len(boards) == len(rows)
    assert list(boards[::64]) == [photo.board for photo in dev]
    assert "wood" not in set(boards) and "walnut" in set(boards)
    truth = "".join(dev[0].grid)
    assert "".join(CLASSES[label] for label in labels[:64]) == truth


def test_the_convolutional_network_runs_in_opencv_as_numpy_computes() -> None:
    pytest.importorskip("onnx", reason="the lab extra is not installed")
    from lab import tile_conv
    from lab.train_occupancy import fit_conv

    EPOCHS = 12
    rng = np.random.default_rng(4)
    rows = rng.normal(0, 0.2, (300, INPUTS)).astype(np.float32)
    # the label is whether a bright patch lies in the tile's lower or upper half,
    # wherever across the tile it falls
    labels = np.zeros(300, np.int64)
    tiles = rows[:, :-3].reshape(300, 30, 18, 3)
    for i in range(300):
        labels[i] = i % 2
        y = int(rng.integers(2, 12)) + 15 * (i % 2)
        x = int(rng.integers(2, 14))
        tiles[i, y:y + 3, x:x + 3, 0] += 2.0
    layers = fit_conv(rows, labels, np.ones(300, np.float32), seed=2, epochs=EPOCHS,
                      channels=(4, 8), hidden=16)
    again = fit_conv(rows, labels, np.ones(300, np.float32), seed=2, epochs=EPOCHS,
                     channels=(4, 8), hidden=16)
    assert all(np.array_equal(a, b) for a, b in zip(layers.params, again.params, strict=True))
    net = SquareNet(tile_conv.to_onnx(layers))
    np.testing.assert_allclose(net.logits(rows[:64]), tile_conv.forward(layers, rows[:64]),
                               rtol=1e-4, atol=1e-4)
    assert (tile_conv.forward(layers, rows).argmax(axis=1) == labels).mean() > 0.9
    # with its tiles moved (train_occupancy --move) it fits otherwise, and as well
    moved = fit_conv(rows, labels, np.ones(300, np.float32), seed=2, epochs=EPOCHS,
                     channels=(4, 8), hidden=16, move=0.1)
    assert not all(np.array_equal(a, b) for a, b in zip(layers.params, moved.params,
                                                         strict=True))
    assert (tile_conv.forward(moved, rows).argmax(axis=1) == labels).mean() > 0.9


def test_the_convolutional_networks_gradients_are_the_losss_slopes() -> None:
    from lab import tile_conv

    rng = np.random.default_rng(6)
    rows = rng.normal(0, 1, (8, INPUTS)).astype(np.float32)
    labels = rng.integers(0, len(CLASSES), 8)
    weights = np.ones(8, np.float32)
    layers = tile_conv.init(np.random.default_rng(1), (4, 6), 12)
    _loss, grads = tile_conv.loss_and_grads(layers, rows, labels, weights)
    for k, grad in enumerate(grads):
        where = np.unravel_index(int(np.abs(grad).argmax()), grad.shape)
        param = layers.params[k]
        old = float(param[where])
        slopes = []
        for step in (1e-2, -1e-2):
            param[where] = old + step
            slopes.append(tile_conv.loss_and_grads(layers, rows, labels, weights)[0])
        param[where] = old
        slope = (slopes[0] - slopes[1]) / 2e-2 / 8  # the gradient is of the mean loss
        assert slope == pytest.approx(float(grad[where]), rel=0.05, abs=1e-4), k


def test_a_board_left_out_of_training_is_read_and_its_network_kept(
        tmp_path: Path, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``--leave-out B --keep PATH``: trains without board B's dev photos, reads them,
    writes the network so fitted (and nothing at ``--out``); the reader can use it."""
    import logging

    from lab import real_boards
    from lab.train_occupancy import main as train
    from vision import net_reading

    folder = small_labelled_set(tmp_path / "photos", ["mat_02.jpg", "marble_01.jpg",
                                                     "marble_02.jpg"])
    monkeypatch.setattr(real_boards, "real_boards_dir", lambda: folder)
    monkeypatch.setenv("RAINDROP_VISION_SAMPLES", str(small_labelled_set(
        tmp_path / "samples", ["chessBoard005.jpg"], samples_dir())))
    kept, out = tmp_path / "without_marble.onnx", tmp_path / "never.onnx"
    with caplog.at_level(logging.INFO):
        assert train(["--scenes", "2", "--leaning", "0", "--varied", "0",
                      "--photo-draws", "1", "--real-draws", "1", "--epochs", "1",
                      "--leave-out", "marble", "--keep", str(kept), "--out", str(out)]) == 0
    assert "left out marble: " in caplog.text and "of 128 squares wrong" in caplog.text
    assert kept.exists() and not out.exists()
    net = SquareNet(kept.read_bytes())
    monkeypatch.setattr(net_reading, "load_net", lambda *args: net)
    photo = next(p for p in load_real_boards(split="dev") if p.board == "marble")
    grid = read_board(CONFIG, photo)
    assert len(grid) == 8 and all(len(row) == 8 and set(row) <= set(CLASSES) for row in grid)


def test_keep_without_a_board_left_out_is_refused_before_any_training(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from lab.train_occupancy import main as train

    kept = tmp_path / "kept.onnx"
    with pytest.raises(SystemExit) as stop:
        train(["--keep", str(kept)])
    assert stop.value.code == 2 and not kept.exists()
    assert "--leave-out" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        train(["--arch", "dense", "--move", "0.06"])
    assert stop.value.code == 2
    assert "--arch conv" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        train(["--move", "-0.06"])
    assert stop.value.code == 2
    assert "--move -0.06: a spread of squares" in capsys.readouterr().err


def test_leave_out_takes_one_board_or_several_and_refuses_an_unknown_one(
        capsys: pytest.CaptureFixture[str]) -> None:
    # several boards: how the game network, fitted before the later boards were added
    # (they come last in labels.json), is fitted again byte for byte
    import argparse

    from lab.train_occupancy import left_out

    parser = argparse.ArgumentParser()
    boards = np.array(["mat", "walnut", "", "greywood", "walnut", "amber"])
    assert not left_out(parser, boards, None).any()
    assert list(left_out(parser, boards, "walnut")) == [False, True, False, False, True,
                                                        False]
    assert list(left_out(parser, boards, "walnut, greywood,amber")) == [
        False, True, False, True, True, True]
    with pytest.raises(SystemExit):
        left_out(parser, boards, "walnut,oak")
    assert "no development photo of a board 'oak'" in capsys.readouterr().err


def test_a_photo_is_read_by_the_mean_of_every_network_and_of_each_mirror_image(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``logits_of``: the logits averaged over the networks named and, with
    ``mirror_average``, over each tile and its mirror image."""
    from vision import net_reading, square_net
    from vision.square_net import TILE_W, mirrored

    class Scaled:
        scale = 1

        def __init__(self, factor: float) -> None:
            self.factor = factor

        def logits(self, rows: np.ndarray) -> np.ndarray:
            # the left half of each tile's lightness, scaled: a mirror image reads otherwise
            tiles = rows[:, :-3].reshape(len(rows), -1, TILE_W, 3)
            left = tiles[:, :, : TILE_W // 2, 0].sum(axis=(1, 2))
            return np.stack([left * self.factor, -left, left, 0 * left], axis=1)

    nets = {"one.onnx": Scaled(1.0), "two.onnx": Scaled(3.0)}
    monkeypatch.setattr(net_reading, "load_net", lambda name="occupancy.onnx": nets[name])
    rows = np.random.default_rng(2).normal(0, 1, (5, INPUTS)).astype(np.float32)
    both = net_reading.logits_of(rows, False, ("one.onnx", "two.onnx"))
    np.testing.assert_allclose(both, (nets["one.onnx"].logits(rows)
                                      + nets["two.onnx"].logits(rows)) / 2, rtol=1e-5)
    weighed = net_reading.logits_of(rows, False, ("one.onnx", "two.onnx"), weights=(3.0, 1.0))
    np.testing.assert_allclose(weighed, (3 * nets["one.onnx"].logits(rows)
                                         + nets["two.onnx"].logits(rows)) / 4, rtol=1e-5)
    with pytest.raises(square_net.SquareNetError, match="2 networks"):
        net_reading.logits_of(rows, False, ("one.onnx", "two.onnx"), weights=(1.0,))
    mirror = net_reading.logits_of(rows, True, ("two.onnx",))
    np.testing.assert_allclose(mirror, (nets["two.onnx"].logits(rows)
                                        + nets["two.onnx"].logits(mirrored(rows))) / 2,
                               rtol=1e-5)
    assert not np.allclose(mirror, nets["two.onnx"].logits(rows))


def test_off_centre_sets_every_piece_aside_within_its_clip_and_leaves_all_else() -> None:
    scene = synthetic.random_scene(np.random.default_rng(11), fraction=0.5)
    assert scenes.off_centre(scene, np.random.default_rng(1), 0.0) is scene
    aside = scenes.off_centre(scene, np.random.default_rng(1), 0.1)
    assert set(aside.offsets) == set(scene.pieces)
    values = np.array(list(aside.offsets.values()))
    assert np.abs(values).max() <= 0.25 and 0.05 < values.std() < 0.15
    assert dataclasses.replace(aside, offsets={}) == scene
    assert scenes.off_centre(scene, np.random.default_rng(1), 0.1) == aside
    # a piece set aside is drawn aside: the picture changes, the labels do not
    assert not np.array_equal(synthetic.render(aside, 2), synthetic.render(scene, 2))
    assert aside.grid() == scene.grid()


def test_training_with_off_centre_draws_the_same_scenes_with_their_pieces_aside(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from lab import train_occupancy

    drawn: list[synthetic.Scene] = []
    monkeypatch.setattr(train_occupancy.synthetic, "render",
                        lambda scene, seed: drawn.append(scene) or np.zeros((720, 1280, 3),
                                                                            np.uint8))
    monkeypatch.setattr(train_occupancy, "board_rows",
                        lambda config, image, geometry: np.zeros((64, INPUTS), np.float32))
    for spread in (0.0, 0.1):
        train_occupancy.synthetic_set(CONFIG, 2, 5, 1, spread)
        train_occupancy.varied_set(CONFIG, 2, 5, spread)
    centred, aside = drawn[:5], drawn[5:]
    assert all(not scene.offsets for scene in centred)
    assert all(set(scene.offsets) == set(scene.pieces) for scene in aside)
    assert [dataclasses.replace(scene, offsets={}) for scene in aside] == centred


def test_every_network_a_photo_is_read_with_is_shipped_and_they_differ() -> None:
    # each reads the same squares' tiles, the pretrained one sampled more finely
    from vision import net_reading

    scene = synthetic.random_scene(np.random.default_rng(3))
    geometry = scene.geometry()
    tiles = net_reading.board_tiles(CONFIG, make_sampler(CONFIG, geometry),
                                warp(CONFIG, synthetic.render(scene, 3), geometry))
    nets = [load_net(name) for name in CONFIG.nets.photo_nets]
    assert [net.scale for net in nets] == [1, 1, 4]
    logits = [net.logits(tiles.rows(net.scale)) for net in nets]
    assert len(logits) == 3
    assert not np.allclose(logits[0], logits[1])  # trained with their own seeds
    assert not np.allclose(logits[0], logits[2])  # on ImageNet's features (pretrained)
    # and all three read the scene: each net's likeliest class, most squares right
    truth = np.array([CLASSES.index(c) for c in "".join(scene.grid())])
    for out in logits:
        assert (out.argmax(axis=1) == truth).mean() > 0.9


def test_a_games_frames_are_read_by_every_game_network_together(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The reading with a reference (a game's frames) averages the logits of
    # VisionConfig.nets.game_nets (one network as shipped, not one of the photos' since the
    # thirteenth session), as a photo's reading does photo_nets.
    from vision import net_reading, square_net, squares

    rng = np.random.default_rng(8)
    scene = synthetic.random_scene(rng)
    geometry = scene.geometry()
    sampler = make_sampler(CONFIG, geometry)
    warped = warp(CONFIG, synthetic.render(scene, 8), geometry)
    empty = warp(CONFIG, synthetic.render(scene.with_pieces({}), 9), geometry)
    nets = CONFIG.nets
    assert len(nets.game_nets) == 1 and nets.game_nets[0] not in nets.photo_nets
    pair = CONFIG.replace(game_nets=CONFIG.nets.game_nets + CONFIG.nets.photo_nets[:1])
    both = squares.read_squares(pair, sampler, warped, empty)
    assert "".join(both.grid) == "".join(scene.grid())
    called: list[str] = []
    shipped = square_net.load_net

    def recording(name: str = "occupancy.onnx") -> SquareNet:
        called.append(name)
        return shipped(name)

    monkeypatch.setattr(net_reading, "load_net", recording)
    for nets in (pair.nets.game_nets, pair.nets.game_nets[:1], pair.nets.game_nets[1:]):
        called.clear()
        config = CONFIG.replace(game_nets=nets)
        reading = squares.read_squares(config, sampler, warped, empty)
        assert called == list(nets)
        if len(nets) == 2:
            assert reading == both
        else:
            assert reading.occupancy != both.occupancy  # each network alone reads otherwise
