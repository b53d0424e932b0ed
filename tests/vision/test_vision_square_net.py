"""The shipped square networks (vision/models/occupancy*.onnx), read by OpenCV's dnn module.

Guarded without retraining: the game network alone on the real sample photos and on
synthetic scenes of a stream never used in training (lab.train_occupancy draws from
stream 77); the whole reader on a handful of real photos, development and held out,
without and with the empty photo of their tripod. Training is tested in
tests/lab/test_train_occupancy.py.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from lab import scenes
from lab.real_boards import (
    listed_errors,
    load_real_boards,
    read_board,
    tripod_pairs,
    wrong_squares,
)
from lab.samples import load_photos
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
