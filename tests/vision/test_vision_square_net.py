"""The shipped square networks (vision/occupancy*.onnx), read by OpenCV's dnn module.

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

from lab import scenes
from lab.real_boards import load_real_boards, read_board, tripod_pairs, wrong_squares
from lab.samples import load_photos
from vision import models, synthetic
from vision.config import VisionConfig
from vision.geometry import BoardGeometry, warp
from vision.net_reading import net_logits
from vision.sampling import make_sampler
from vision.square_net import CLASSES, INPUTS, SquareNet, SquareNetError, load_net

CONFIG = VisionConfig()
# Bounds a little above what the shipped network measured (see docs/camera.md).
NET_PHOTO_WRONG = 0
NET_SYNTHETIC_WRONG = 6
# The real photos of tests/vision/data/real_boards, read without a reference (the
# networks of the seventh and eighth sessions, trained on every development photo,
# each tile read as it is and mirrored, each photo's colours, with the pieces' own lightness, and
# occupancy split by the photo: vision.photo_split; the camera pose with the pixels'
# shape, geometry.pixel_aspect): the development part was trained on (8 squares wrong
# of 10,432: 3 on the wooden folding board, 5 on the mat); the held-out part never
# was, and was read for the report (78 of 4,544 wrong: 65 on the walnut board, 10 on
# the tournament board, 2 on the empty wooden board, 1 on the mat). Since the eighth
# session photos are read by two networks together (VisionConfig.nets.photo_nets); the dev
# figure stayed 8. Thirteenth session: the walnut board's 23 development photos joined
# (trained on, with the photo networks retrained): the photos there before 7, the
# walnut ones 2 (f8 on walnut_58 and walnut_61: a black piece whose base the white
# piece in front of it hides, read white). A first fit read one walnut square wrong,
# walnut_48 f1: a black bishop the source had no box for; its label was corrected
# (README.md there) and the networks fitted again. The dev bound is 9 since.
# Seventeenth session: the photo networks trained with 400 pictures rendered by Blender
# for 30 epochs (docs/camera-development.md, "A third candidate"): dev 8 (mat_68 a5 and
# walnut_21 a5 new, mat_54 c4, folding_12 e1 and folding_32 g3 gone); the dev bound 8.
# Twenty-third session: the two wooden boards of overhead video frames joined (40
# photos; their first reading, by networks that never saw them, 147 of 2,560 wrong,
# docs/camera-development.md "Two boards never seen, read once") and the three photo
# networks were fitted again with them ("A thirteenth candidate"): the 186 photos there
# before 7 (mat_54 c4, folding_12 e1 and walnut_53 e5 new; walnut_21 a5, walnut_58 f8
# and walnut_61 f8 gone), the 40 new ones 1 (greywood_15 e6); the dev bound 8.
# Its history, each reading once, after the change was chosen: 159 with the fourth
# session's network alone, 130 with the colour split, 112 with the occupancy split
# too, 121 with the mirrored reading too (kept though it read worse: the held-out part
# chooses nothing), 104 with the lightness too, 83 with the pixels' shape and the
# network retrained with it, 82 with a second network beside the first, 78 with each
# piece's lightness against the light squares where it stands, 71 with the photo
# networks trained with the walnut board's development photos too (thirteenth session;
# the 26 later held-out walnut photos added then, 50 more: 121 of 6,208 in all), 83 with
# the photo networks trained with Blender's pictures too (seventeenth session), 61 with
# a third photo network on ImageNet's features beside them (twenty-first session), 69
# with that network shown tiles four times as fine (twenty-second session; chosen by its
# rule on the development part and synthetic scenes, worse here), 57 with the three
# fitted again with the development part's two new wooden boards (twenty-third session),
# 52 with a photo's pieces under a top of their own colour lowered (twenty-eighth
# session; 7 on the development part, 8 before)
# (docs/camera-real-errors.md says what was known before
# each reading). The training recipe and the reader were chosen on the development
# part and synthetic streams (docs/camera.md); the held-out count only guards them.
NET_DEV_WRONG = 7
NET_HELD_OUT_WRONG = 52
# The mat photos taken from the tripod of its empty photo (mat_65), read against it
# as a game's camera reads (the fused reader): 2 of 2,688 wrong (dev) and none of
# 1,408 (held out, read once), where the hand-made features read 117 and 64
# (docs/camera.md). The tournament board's seven video frames, read against the
# empty frame of the same webcam (tournament_10): 58 of 448 wrong with the seventh
# session's network (55 with the fourth session's; 14 without the reference: the
# reading with a reference does not split colours), all on the tournament board. Raised
# 55 -> 58 with the network, which was chosen by a rule written before this reading
# (docs/camera-development.md, "Seventh session"), and not to make it pass.
# The dev figure rose 1 -> 2 with fused_hidden_bias (mat_42 e3, a black piece hidden
# behind another, now read empty), a reading the bias was chosen with
# (docs/camera-development.md, "A square hidden behind a nearer piece"), not a change made to pass.
FUSED_DEV_WRONG = 2
# 54 since the twenty-sixth session: the empty board's printed marks taken out of each
# tile (VisionConfig.marks.fused_reference_tiles), chosen by its rule on development data and
# printed synthetic scenes, this part read once after (docs/camera-real-errors.md).
FUSED_HELD_OUT_WRONG = 54
# The empty photos each split's tripod pairs read against.
TRIPOD_EMPTIES = {"dev": {"mat_65.jpg"}, "held_out": {"mat_65.jpg", "tournament_10.jpg"}}


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
    for index in range(12):
        scene = synthetic.random_scene(rng) if index % 3 else scenes.leaning_scene(rng)
        grid = read(synthetic.render(scene, 2024_000 + index), scene.geometry())
        truth = "".join(scene.grid())
        wrong += sum(a != b for a, b in zip(grid, truth, strict=True))
        total += 64
    assert wrong <= NET_SYNTHETIC_WRONG, f"{wrong} of {total} squares wrong"


@pytest.mark.parametrize(("split", "bound"), [("dev", NET_DEV_WRONG),
                                              ("held_out", NET_HELD_OUT_WRONG)])
def test_the_real_board_photos_are_read_as_measured(split: str, bound: int) -> None:
    photos = load_real_boards(split=split)
    errors = {(photo.path.name, error) for photo in photos
              for error in wrong_squares(photo.grid, read_board(CONFIG, photo))}
    assert len(photos) >= 60
    assert len(errors) <= bound, f"{split}: {len(errors)} of {64 * len(photos)} squares wrong"
    if split == "held_out":  # every held-out error is listed, with its cause, in the docs
        listed = listed_held_out_errors()
        assert errors == listed, (f"docs/camera-real-errors.md is out of date: not listed "
                                  f"{sorted(errors - listed)[:5]}, no longer wrong "
                                  f"{sorted(listed - errors)[:5]}")


@pytest.mark.parametrize(("split", "bound"), [("dev", FUSED_DEV_WRONG),
                                              ("held_out", FUSED_HELD_OUT_WRONG)])
def test_real_photos_read_against_an_empty_photo_of_their_tripod(split: str,
                                                                 bound: int) -> None:
    pairs = tripod_pairs(load_real_boards(), split)
    assert len(pairs) >= 20 and {empty.path.name for _, empty in pairs} == TRIPOD_EMPTIES[split]
    errors = {(photo.path.name, error) for photo, empty in pairs
              for error in wrong_squares(photo.grid, read_board(CONFIG, photo, empty))}
    assert len(errors) <= bound, f"{split}: {len(errors)} of {64 * len(pairs)} squares wrong"
    if split == "held_out":  # those the plain reading lacks are listed in their own table
        assert errors - listed_held_out_errors() == listed_held_out_errors(reference=True)


def test_the_fused_reader_beats_the_features_on_real_photos_with_a_reference() -> None:
    """The design choice, on the development part: the hand-made features read
    the same photos against the same reference far worse."""
    pairs = tripod_pairs(load_real_boards(), "dev")[::3]
    features = CONFIG.replace(reference_reader="features")
    wrong = {name: sum(len(wrong_squares(photo.grid, read_board(config, photo, empty)))
                       for photo, empty in pairs)
             for name, config in (("fused", CONFIG), ("features", features))}
    assert wrong["fused"] * 10 < wrong["features"], wrong


ERRORS_DOC = Path(__file__).resolve().parents[2] / "docs" / "camera-real-errors.md"
_LETTERS = {"empty": ".", "white": "w", "black": "b", "blue": "u"}


REFERENCE_HEADING = "## Read against an empty photo"


def listed_held_out_errors(reference: bool = False) -> set[tuple[str, str]]:
    """The table of docs/camera-real-errors.md as (photo, ``e4 w->.``) pairs; every row
    must name a cause. With ``reference``, the table under its heading
    ``REFERENCE_HEADING``: the squares only the reading against an empty photo gets
    wrong."""
    plain, heading, with_reference = ERRORS_DOC.read_text(encoding="utf-8").partition(
        REFERENCE_HEADING)
    assert heading, f"no {REFERENCE_HEADING!r} in {ERRORS_DOC.name}"
    rows = set()
    for line in (with_reference if reference else plain).splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 5 or not cells[0].startswith("`"):
            continue
        photo, square, expected, read_as, cause = cells
        assert cause, f"no cause for {photo} {square}"
        rows.add((photo.strip("`"),
                  f"{square} {_LETTERS[expected]}->{_LETTERS[read_as]}"))
    return rows


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


def test_training_reads_every_development_photo_labels_json_lists() -> None:
    from lab.train_occupancy import real_dev_set

    dev = load_real_boards(split="dev")
    rows, labels, boards = real_dev_set(CONFIG, 1, 0)
    assert rows.shape == (64 * len(dev), INPUTS) and len(labels) == len(boards) == len(rows)
    assert list(boards[::64]) == [photo.board for photo in dev]
    assert "wood" not in set(boards) and "walnut" in set(boards)


def test_the_convolutional_network_runs_in_opencv_as_numpy_computes() -> None:
    pytest.importorskip("onnx", reason="the lab extra is not installed")
    from lab import tile_conv
    from lab.train_occupancy import fit_conv

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
    layers = fit_conv(rows, labels, np.ones(300, np.float32), seed=2, epochs=30,
                      channels=(4, 8), hidden=16)
    again = fit_conv(rows, labels, np.ones(300, np.float32), seed=2, epochs=30,
                     channels=(4, 8), hidden=16)
    assert all(np.array_equal(a, b) for a, b in zip(layers.params, again.params, strict=True))
    net = SquareNet(tile_conv.to_onnx(layers))
    np.testing.assert_allclose(net.logits(rows[:64]), tile_conv.forward(layers, rows[:64]),
                               rtol=1e-4, atol=1e-4)
    assert (tile_conv.forward(layers, rows).argmax(axis=1) == labels).mean() > 0.9
    # with its tiles moved (train_occupancy --move) it fits otherwise, and as well
    moved = fit_conv(rows, labels, np.ones(300, np.float32), seed=2, epochs=30,
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

    from lab.train_occupancy import main as train
    from vision import net_reading

    kept, out = tmp_path / "without_marble.onnx", tmp_path / "never.onnx"
    with caplog.at_level(logging.INFO):
        assert train(["--scenes", "2", "--leaning", "0", "--varied", "0",
                      "--photo-draws", "1", "--real-draws", "1", "--epochs", "1",
                      "--leave-out", "marble", "--keep", str(kept), "--out", str(out)]) == 0
    assert "left out marble: " in caplog.text and "of 768 squares wrong" in caplog.text
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
