"""A photo read without a reference is decided by where its own scores split."""

from __future__ import annotations

import numpy as np
import pytest

from vision.config import VisionConfig
from vision.photo_split import colours_unsure, split_labels, split_threshold

CONFIG = VisionConfig()
SPLIT = {"separation": 2.5, "penalty": 0.05, "lowest": -8.0, "highest": 8.0}


def logits_for(piece_odds: list[float], whiteness: list[float]) -> np.ndarray:
    """Logits (n, 4) whose piece log-odds and white-against-black scores are
    the given ones (blue far below)."""
    rows = []
    for odds, white in zip(piece_odds, whiteness, strict=True):
        w, b = white / 2, -white / 2
        piece = max(w, b) + np.log(np.exp(w - max(w, b)) + np.exp(b - max(w, b)))
        rows.append([piece - odds, w, b, -40.0])
    return np.array(rows, np.float32)


def test_two_groups_split_between_them_and_one_group_does_not_split() -> None:
    rng = np.random.default_rng(7)
    low, high = rng.normal(-12, 1.5, 40), rng.normal(-3, 1.0, 24)
    threshold = split_threshold(np.concatenate([low, high]), **SPLIT)
    assert low.max() < threshold < high.min()
    assert split_threshold(rng.normal(-12, 2.0, 64), **SPLIT) == 0.0
    assert split_threshold([], **SPLIT) == 0.0
    assert split_threshold([3.0], **SPLIT) == 0.0


def test_a_split_outside_the_allowed_range_or_too_small_a_group_is_not_taken() -> None:
    values = np.concatenate([np.full(30, -6.0), np.full(34, -2.0)])
    assert split_threshold(values, **SPLIT) == pytest.approx(-4.0)
    assert split_threshold(values, **(SPLIT | {"lowest": -3.0})) == 0.0
    # one outlier is no group of its own when each group needs two
    values = np.concatenate([[9.0], np.random.default_rng(7).normal(-20, 2, 20)])
    assert split_threshold(values, **SPLIT, min_each=2) == 0.0


def test_occupancy_stays_the_networks_own_where_it_is_sure_of_few_pieces() -> None:
    rng = np.random.default_rng(7)
    odds = np.full(64, -14.0) + rng.normal(0, 1.5, 64)
    whiteness = np.zeros(64)
    pieces = rng.choice(64, 20, replace=False)
    odds[pieces] = np.linspace(-4.0, 4.5, 20)  # sure (beyond 4) of one
    whiteness[pieces[:10]], whiteness[pieces[10:]] = 12.0, -12.0
    logits = logits_for(list(odds), list(whiteness))
    labels, piece_odds = split_labels(CONFIG, logits)
    assert np.allclose(piece_odds, odds, atol=1e-3)
    assert set(np.flatnonzero(labels)) == set(np.flatnonzero(odds > 0))


def test_an_unfamiliar_sets_doubtful_pieces_are_found_below_the_empty_squares_gap() -> None:
    rng = np.random.default_rng(7)
    # mahogany_09 read by a network trained without that board (log-odds
    # rounded): its 31 pieces one broad spread reaching below 0, its 33 empty
    # squares far below
    pieces = [-3.6, -1.5, -1.0, -0.7, -0.4, -0.4, -0.1, 1.4, 1.9, 1.9, 3.3, 3.3, 3.5, 4.1, 4.2,
              4.4, 4.5, 4.7, 4.7, 5.4, 5.8, 6.6, 6.9, 7.3, 7.4, 7.5, 7.5, 9.9, 10.8, 11.2, 13.5]
    empty = [-18.5, -18.0, -16.6, -16.5, -15.7, -15.6, -15.4, -15.3, -15.2, -14.8, -14.8, -14.7,
             -14.6, -14.6, -14.6, -14.5, -14.3, -13.7, -13.7, -13.3, -13.2, -13.2, -12.5, -12.3,
             -11.7, -11.7, -11.5, -11.4, -11.4, -11.2, -11.1, -10.9, -8.1]
    odds = np.concatenate([rng.permutation(pieces), rng.permutation(empty)])
    whiteness = np.zeros(64)
    whiteness[:31:2], whiteness[1:31:2] = 12.0, -12.0
    logits = logits_for(list(odds), list(whiteness))
    labels, piece_odds = split_labels(CONFIG, logits)
    assert (labels[:31:2] == 1).all() and (labels[1:31:2] == 2).all()
    assert (labels[31:] == 0).all()
    assert set(np.flatnonzero(piece_odds > 0)) == set(range(31))
    plain = split_labels(CONFIG.replace(split_occupancy=False), logits)[0]
    assert set(np.flatnonzero(plain)) == set(np.flatnonzero(odds > 0))
    assert len(np.flatnonzero(plain)) == 24
    # never below split_occupancy_lowest: pieces as far down as the empty squares
    # stay unseen
    odds[:7] = rng.uniform(-8.0, -7.5, 7)
    labels, _ = split_labels(CONFIG, logits_for(list(odds), list(whiteness)))
    assert set(np.flatnonzero(labels)) == set(range(7, 31))


def test_an_empty_boards_few_sure_false_pieces_do_not_move_occupancy() -> None:
    rng = np.random.default_rng(8)
    odds = rng.normal(-10.0, 2.0, 64)  # grain and veins: a wide spread
    odds[:4] = rng.uniform(4.5, 8.0, 4)  # as sure as the worst marble photo's
    odds[4:20] = rng.uniform(-4.0, -1.0, 16)
    logits = logits_for(list(odds), [0.0] * 64)
    labels, _ = split_labels(CONFIG, logits)
    assert set(np.flatnonzero(labels)) == set(range(4))


def test_two_armies_shifted_the_same_way_are_still_told_apart() -> None:
    rng = np.random.default_rng(4)
    odds = np.full(64, -14.0)
    whiteness = np.zeros(64)
    odds[:32] = 8.0
    whiteness[:16] = rng.permutation(np.linspace(-4.0, 10.0, 16))  # boxwood, read darkish
    whiteness[16:32] = rng.permutation(np.linspace(-20.0, -9.0, 16))  # brown
    logits = logits_for(list(odds), list(whiteness))
    assert (logits[:16].argmax(axis=1) == 2).sum() >= 4
    labels, _ = split_labels(CONFIG, logits)
    assert (labels[:16] == 1).all() and (labels[16:32] == 2).all() and (labels[32:] == 0).all()
    # with no piece the network is sure is white, no split: its reading stands
    whiteness[:16] = rng.permutation(np.linspace(-4.2, 1.8, 16))
    logits = logits_for(list(odds), list(whiteness))
    assert (split_labels(CONFIG, logits)[0] == logits.argmax(axis=1)).all()


def test_a_board_of_one_colour_and_an_empty_board_keep_the_networks_reading() -> None:
    # each alone spreads enough that a split of it would often be taken
    rng = np.random.default_rng(5)
    odds = np.full(64, -14.0) + rng.normal(0, 1.0, 64)
    whiteness = np.zeros(64)
    odds[:12] = rng.uniform(4.0, 10.0, 12)
    whiteness[:12] = rng.normal(-14.0, 2.5, 12)  # black pieces only
    logits = logits_for(list(odds), list(whiteness))
    labels, _ = split_labels(CONFIG, logits)
    assert (labels == logits.argmax(axis=1)).all()
    empty = logits_for(list(rng.normal(-14.0, 2.0, 64)), [0.0] * 64)
    assert (split_labels(CONFIG, empty)[0] == 0).all()


def test_colours_are_unsure_where_the_network_is_sure_of_one_army_only() -> None:
    # a washed-out photo: 16 boxwood pieces read darkish, 16 brown ones surely black;
    # the network is sure of no white piece, so the photo's split cannot act
    rng = np.random.default_rng(11)
    odds = np.full(64, -14.0) + rng.normal(0, 1.0, 64)
    odds[:32] = rng.uniform(4.0, 10.0, 32)
    whiteness = np.zeros(64)
    whiteness[:16] = rng.uniform(-6.0, -2.5, 16)
    whiteness[16:32] = rng.uniform(-18.0, -8.0, 16)
    logits = logits_for(list(odds), list(whiteness))
    labels, _ = split_labels(CONFIG, logits)
    assert (labels[:32] == 2).all() and colours_unsure(CONFIG, logits, labels)
    # one sure white piece is not enough; two are, and then the split acts
    for sure_white, unsure in ((1, True), (2, False)):
        told = whiteness.copy()
        told[:sure_white] = 3.0
        logits = logits_for(list(odds), list(told))
        assert colours_unsure(CONFIG, logits, split_labels(CONFIG, logits)[0]) is unsure
    # fewer pieces than colours_unsure_pieces: nothing to say
    few = logits_for([8.0] * 3 + [-14.0] * 61, [-9.0] * 3 + [0.0] * 61)
    assert not colours_unsure(CONFIG, few, split_labels(CONFIG, few)[0])
    assert colours_unsure(CONFIG.replace(colours_unsure_pieces=3), few,
                          split_labels(CONFIG, few)[0])


def test_blue_pieces_keep_their_class() -> None:
    logits = logits_for([8.0] * 6 + [-14.0] * 58, [12.0, 11.0, -12.0, -11.0, 0.0, 0.0]
                        + [0.0] * 58)
    logits[4:6, 3] = 30.0  # blue
    labels, _ = split_labels(CONFIG, logits)
    assert list(labels[:6]) == [1, 1, 2, 2, 3, 3]


def test_the_reader_without_a_reference_splits_each_photo_when_asked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from vision import net_reading

    rng = np.random.default_rng(6)
    odds = np.full(64, -14.0) + rng.normal(0, 1.0, 64)
    whiteness = np.zeros(64)
    odds[:24] = 6.0
    whiteness[:8] = rng.uniform(-3.5, -1.0, 8)  # boxwood, read darkish
    whiteness[8:12] = rng.uniform(6.0, 12.0, 4)
    whiteness[12:24] = rng.uniform(-20.0, -10.0, 12)
    logits = logits_for(list(odds), list(whiteness))
    from vision.square_net import INPUTS

    class Fixed:
        scale = 1

        def logits(self, rows: np.ndarray) -> np.ndarray:
            return logits

    class Tiles:
        light = np.full(64, 80.0, np.float32)

        def rows(self, scale: int = 1, which: None = None) -> np.ndarray:
            return np.zeros((64, INPUTS), np.float32)

    monkeypatch.setattr(net_reading, "board_tiles", lambda *args, **kwargs: Tiles())
    monkeypatch.setattr(net_reading, "load_net", lambda *args: Fixed())
    # the split alone: no board, so no camera pose for the tops of the pieces in front
    alone = CONFIG.replace(photo_top_bias=0.0)
    plain = net_reading.read_by_net(alone.replace(photo_split=False), None, None)
    split = net_reading.read_by_net(alone.replace(photo_split=True), None, None)
    assert "".join(plain.grid) == "b" * 8 + "w" * 4 + "b" * 12 + "." * 40
    assert "".join(split.grid) == "w" * 12 + "b" * 12 + "." * 40
    assert not split.colours_unsure  # sure of 4 white and 12 black pieces: split
    # the occupancy threshold moved down into the gap below the pieces, so the
    # reading's log-odds are the network's less that threshold
    shift = np.array(split.occupancy) - np.array(plain.occupancy)
    assert np.allclose(shift, shift[0], atol=1e-4) and -7.0 <= -shift[0] < 0.0


def test_without_a_reference_each_tile_is_read_as_it_is_and_mirrored(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from vision import net_reading, sampling
    from vision.geometry import warp
    from vision.square_net import TILE_VALUES, TILE_W, mirrored
    from vision.synthetic import random_scene, render

    seen: list[np.ndarray] = []

    class LeftHalf:
        """A stand-in network whose logits see only the left half of each tile."""

        scale = 1

        def logits(self, rows: np.ndarray) -> np.ndarray:
            seen.append(rows)
            tiles = rows[:, :TILE_VALUES].reshape(len(rows), -1, TILE_W, 3)
            left = tiles[:, :, : TILE_W // 2].mean(axis=(1, 2, 3))
            return np.stack([left, -left, 2 * left, -3 * left], axis=1).astype(np.float32)

    scene = random_scene(np.random.default_rng(3))
    geometry = scene.geometry()
    sampler = sampling.make_sampler(CONFIG, geometry)
    warped = warp(CONFIG, render(scene, 3), geometry)
    monkeypatch.setattr(net_reading, "load_net", lambda *args: LeftHalf())
    plain = net_reading.net_logits(CONFIG, sampler, warped)
    both = net_reading.net_logits(CONFIG, sampler, warped, mirror_average=True)
    rows, flipped = seen[1], seen[2]
    assert np.array_equal(flipped, mirrored(rows)) and np.array_equal(mirrored(flipped), rows)
    mirror = LeftHalf().logits(flipped)
    assert not np.allclose(plain, mirror)
    assert np.allclose(both, (plain + mirror) / 2, atol=1e-6)


def test_a_tiles_lightness_is_its_changed_footprint_pixels_own_lightness() -> None:
    from vision.square_net import FOOTPRINT, INPUTS, LAB_SCALE, TILE_VALUES, tile_lightness

    rows = np.zeros((3, INPUTS), np.float32)
    rows[:, TILE_VALUES] = 0.40  # each square's empty colour: L 40
    tiles = rows[:, :TILE_VALUES].reshape(3, *FOOTPRINT.shape, 3)
    tiles[0][FOOTPRINT, 0] = 30.0 / LAB_SCALE[0]  # a pale piece on the footprint: L 70
    tiles[1][~FOOTPRINT, 0] = -30.0 / LAB_SCALE[0]  # something dark beside it only
    lightness = tile_lightness(rows)
    assert lightness[0] == pytest.approx(70.0, abs=1e-3)
    assert np.isnan(lightness[1]) and np.isnan(lightness[2])


def _two_wooden_armies(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Logits of 32 pieces whose white-against-black scores overlap (a boxwood
    and a brown set the network has not seen), their lightness, and the truth."""
    odds = np.full(64, -14.0)
    odds[:32] = 8.0
    whiteness = np.zeros(64)
    whiteness[:16] = rng.uniform(-3.0, 10.0, 16)  # boxwood
    whiteness[16:32] = rng.uniform(-14.0, 0.5, 16)  # brown
    lightness = np.full(64, np.nan, np.float32)
    lightness[:16] = rng.normal(68.0, 3.0, 16)
    lightness[16:32] = rng.normal(32.0, 3.0, 16)
    truth = np.array([1] * 16 + [2] * 16 + [0] * 32)
    return logits_for(list(odds), list(whiteness)), lightness, truth


def test_the_pieces_own_lightness_tells_two_unfamiliar_woods_apart() -> None:
    rng = np.random.default_rng(9)
    logits, lightness, truth = _two_wooden_armies(rng)
    scores_only = split_labels(CONFIG, logits)[0]
    assert (scores_only != truth).sum() >= 3
    assert (split_labels(CONFIG, logits, lightness)[0] == truth).all()
    off = CONFIG.replace(split_lightness=False)
    assert (split_labels(off, logits, lightness)[0] == scores_only).all()


def test_a_pieces_lightness_against_the_light_squares_where_it_stands_outlasts_a_side_lamp(
) -> None:
    from vision.square_net import luminance, relative_lightness

    # A lamp to one side: the light squares' model runs from L 45 at the dim edge to
    # 85 under the lamp. Boxwood reflects 0.85 of what maple does, brown wood 0.25,
    # so a boxwood piece at the dim edge is darker than a brown one under the lamp.
    rng = np.random.default_rng(11)
    odds = np.full(64, -14.0)
    odds[:32] = 8.0
    whiteness = np.zeros(64)
    whiteness[:16] = rng.uniform(-3.0, 10.0, 16)
    whiteness[16:32] = rng.uniform(-14.0, 0.5, 16)
    light_squares = np.linspace(45.0, 85.0, 64).astype(np.float32)
    rng.shuffle(light_squares)
    reflectance = np.array([0.85] * 16 + [0.25] * 16 + [1.0] * 32)
    seen = luminance(light_squares) * reflectance
    lightness = (116.0 * np.cbrt(seen) - 16.0).astype(np.float32)
    lightness[32:] = np.nan
    truth = np.array([1] * 16 + [2] * 16 + [0] * 32)
    assert lightness[:16].min() < lightness[16:32].max()  # the raw lightness overlaps
    relative = relative_lightness(lightness, light_squares)
    assert np.allclose(relative[:32], np.log(reflectance[:32]), atol=1e-4)
    assert np.isnan(relative[32:]).all()
    logits = logits_for(list(odds), list(whiteness))
    assert (split_labels(CONFIG, logits, relative)[0] == truth).all()
    assert (split_labels(CONFIG, logits, lightness)[0] != truth).sum() >= 1


def test_lightness_that_splits_the_pieces_less_clearly_than_the_scores_is_not_used() -> None:
    # glossy black pieces show only their highlights as changed pixels: three
    # black pieces look as light as the white ones, and the scores are clear
    rng = np.random.default_rng(10)
    odds = np.full(64, -14.0)
    odds[:24] = 8.0
    whiteness = np.concatenate([rng.uniform(8, 14, 12), rng.uniform(-14, -8, 12), np.zeros(40)])
    lightness = np.full(64, np.nan, np.float32)
    lightness[:12] = rng.normal(72.0, 2.0, 12)
    lightness[12:24] = rng.normal(22.0, 4.0, 12)
    lightness[12:15] = rng.normal(72.0, 2.0, 3)
    logits = logits_for(list(odds), list(whiteness))
    labels = split_labels(CONFIG, logits, lightness)[0]
    assert list(labels[:24]) == [1] * 12 + [2] * 12
