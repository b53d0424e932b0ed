"""A photo read without a reference is decided by where its own scores split."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision.config import VisionConfig
from vision.photo_split import split_labels, split_threshold

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
    rng = np.random.default_rng(1)
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
    values = np.concatenate([[9.0], np.random.default_rng(2).normal(-20, 2, 20)])
    assert split_threshold(values, **SPLIT, min_each=2) == 0.0


def test_occupancy_stays_the_networks_own() -> None:
    rng = np.random.default_rng(3)
    odds = np.full(64, -14.0) + rng.normal(0, 1.5, 64)
    whiteness = np.zeros(64)
    pieces = rng.choice(64, 20, replace=False)
    odds[pieces] = rng.uniform(-4.0, 6.0, 20)
    whiteness[pieces[:10]], whiteness[pieces[10:]] = 12.0, -12.0
    logits = logits_for(list(odds), list(whiteness))
    labels, piece_odds = split_labels(CONFIG, logits)
    assert np.allclose(piece_odds, odds, atol=1e-3)
    assert set(np.flatnonzero(labels)) == set(np.flatnonzero(odds > 0))


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
    whiteness[:16] = rng.permutation(np.linspace(-4.2, 3.3, 16))
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


def test_blue_pieces_keep_their_class() -> None:
    logits = logits_for([8.0] * 6 + [-14.0] * 58, [12.0, 11.0, -12.0, -11.0, 0.0, 0.0]
                        + [0.0] * 58)
    logits[4:6, 3] = 30.0  # blue
    labels, _ = split_labels(CONFIG, logits)
    assert list(labels[:6]) == [1, 1, 2, 2, 3, 3]


def test_the_reader_without_a_reference_splits_each_photo_when_asked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from vision import squares

    rng = np.random.default_rng(6)
    odds = np.full(64, -14.0) + rng.normal(0, 1.0, 64)
    whiteness = np.zeros(64)
    odds[:24] = 6.0
    whiteness[:8] = rng.uniform(-3.5, -1.0, 8)  # boxwood, read darkish
    whiteness[8:12] = rng.uniform(6.0, 12.0, 4)
    whiteness[12:24] = rng.uniform(-20.0, -10.0, 12)
    logits = logits_for(list(odds), list(whiteness))
    monkeypatch.setattr(squares, "net_logits", lambda *args, **kwargs: logits)
    plain = squares.read_by_net(dataclasses.replace(CONFIG, photo_split=False), None, None)
    split = squares.read_by_net(dataclasses.replace(CONFIG, photo_split=True), None, None)
    assert "".join(plain.grid) == "b" * 8 + "w" * 4 + "b" * 12 + "." * 40
    assert "".join(split.grid) == "w" * 12 + "b" * 12 + "." * 40
    assert split.occupancy == plain.occupancy
