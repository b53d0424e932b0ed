"""Training the square networks (lab.train_occupancy, lab.tile_conv) and the scenes they
learn from (lab.scenes): what the fits read, write and draw, on small data."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from lab import scenes
from lab.real_boards import (
    load_real_boards,
    read_board,
)
from lab.samples import samples_dir
from tests.vision.vision_helpers import small_labelled_set
from vision import synthetic
from vision.config import VisionConfig
from vision.square_net import CLASSES, INPUTS, SquareNet

CONFIG = VisionConfig()


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
