"""The occupancy networks: the shipped models, their file format, and the trainer."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from lab.fit_occupancy import fit_board_net, fit_reference_net, matched_scene, train_tanh_net
from vision import synthetic
from vision.features import BOARD_OUTLINE, FEATURES, REFERENCE_FEATURES
from vision.occupancy import (
    OccupancyModelError,
    OccupancyNet,
    board_model,
    reference_model,
)

# Without a reference the features relative to the board follow the raw ones,
# then the outline; with one, the features only a reference gives.
BOARD_FEATURES = BOARD_OUTLINE + 1
WITH_REFERENCE = FEATURES + REFERENCE_FEATURES
MODELS = [(reference_model, WITH_REFERENCE), (board_model, BOARD_FEATURES)]


@pytest.mark.parametrize(("model", "width"), MODELS, ids=["reference", "board"])
def test_the_shipped_models_read_the_square_features(model, width) -> None:  # type: ignore[no-untyped-def]
    net = model()
    assert net.width() <= width
    assert (net.extra_w >= 0).all()
    logits = net.logit(np.zeros((3, width), np.float32))
    assert logits.shape == (3,) and np.isfinite(logits).all()


def test_the_base_ring_only_adds_evidence_for_a_piece() -> None:
    net = reference_model()
    features = np.random.default_rng(3).random((200, WITH_REFERENCE)).astype(np.float32)
    more_ring = features.copy()
    more_ring[:, list(net.extra)] += 0.5
    assert (net.logit(more_ring) >= net.logit(features) - 1e-5).all()


def test_without_a_reference_more_evidence_never_lowers_the_score() -> None:
    net = board_model()
    assert net.monotone
    rng = np.random.default_rng(7)
    features = rng.random((300, BOARD_FEATURES)).astype(np.float32)
    for column in net.inputs + net.extra:
        more = features.copy()
        more[:, column] += rng.random(300).astype(np.float32)
        assert (net.logit(more) >= net.logit(features) - 1e-5).all(), column


@pytest.mark.parametrize(("model", "width"), MODELS, ids=["reference", "board"])
def test_a_model_survives_its_json_form(model, width) -> None:  # type: ignore[no-untyped-def]
    net = model()
    again = OccupancyNet.from_json(json.loads(json.dumps(net.to_json())))
    assert again.monotone == net.monotone
    features = np.random.default_rng(4).random((50, width)).astype(np.float32)
    assert np.allclose(again.logit(features), net.logit(features), atol=1e-3)


@pytest.mark.parametrize("change", [
    lambda d: d.pop("w1"),
    lambda d: d.__setitem__("w2", d["w2"][:-1]),
    lambda d: d.__setitem__("extra_w", [-1.0] * len(d["extra"])),
    lambda d: d.__setitem__("mean", "not numbers"),
])
def test_a_broken_model_file_is_named_as_such(change) -> None:  # type: ignore[no-untyped-def]
    data = reference_model().to_json()
    change(data)
    with pytest.raises(OccupancyModelError):
        OccupancyNet.from_json(data)


def test_a_monotone_model_with_a_negative_weight_is_refused() -> None:
    data = board_model().to_json()
    data["w2"][0] = -0.5
    with pytest.raises(OccupancyModelError, match="monotone"):
        OccupancyNet.from_json(data)


def test_the_trainer_learns_a_boundary_no_line_can_draw() -> None:
    # Occupied inside a circle: a linear score gets much of it wrong.
    rng = np.random.default_rng(5)
    x = rng.uniform(-2, 2, (3000, 2)).astype(np.float32)
    truth = np.hypot(x[:, 0], x[:, 1]) < 1.2
    mean, scale, w1, b1, w2, b2 = train_tanh_net(x, truth, hidden=8, steps=1500, rate=0.05)
    logit = np.tanh(((x - mean) / scale) @ w1 + b1) @ w2 + b2[0]
    assert ((logit > 0) != truth).mean() < 0.03


def test_the_monotone_trainer_keeps_every_weight_at_least_zero() -> None:
    # Occupied when both kinds of evidence are there (an AND: not linear, but monotone).
    rng = np.random.default_rng(8)
    x = rng.random((3000, BOARD_FEATURES)).astype(np.float32)
    truth = (x[:, 0] > 0.5) & (x[:, 7] > 0.5)
    net = fit_board_net(x, truth, hidden=4, steps=800)
    assert net.monotone and (net.w1 >= 0).all() and (net.w2 >= 0).all()
    assert ((net.logit(x) > 0) != truth).mean() < 0.05


def test_the_outline_goes_on_top_of_the_board_network_only_as_evidence() -> None:
    rng = np.random.default_rng(9)
    x = rng.random((3000, BOARD_FEATURES)).astype(np.float32)
    truth = x[:, 0] + x[:, BOARD_OUTLINE] > 1.0
    net = fit_board_net(x, truth, hidden=4, steps=800)
    assert BOARD_OUTLINE not in net.inputs and net.extra == (BOARD_OUTLINE,)
    alone = dataclasses.replace(net, extra=(), extra_w=np.zeros(0, np.float32))
    assert net.extra_w[0] > 0
    assert ((net.logit(x) > 0) != truth).mean() < ((alone.logit(x) > 0) != truth).mean()
    # Outline that argues against a piece is left out, not weighed negatively.
    against = fit_board_net(x, x[:, 0] - x[:, BOARD_OUTLINE] > 0.0, hidden=4, steps=800)
    assert against.extra == ()


def test_fitting_keeps_the_ring_weights_non_negative() -> None:
    # Ring columns that argue against a piece are dropped, not given negative weight.
    rng = np.random.default_rng(6)
    n = 4000
    features = rng.random((n, WITH_REFERENCE)).astype(np.float32)
    truth = features[:, 0] + features[:, 3] > 1.0
    features[:, 20] = np.where(truth, 0.1, 0.9) + rng.normal(0, 0.05, n)  # anti-evidence
    features[:, 21] = np.where(truth, 0.8, 0.2) + rng.normal(0, 0.3, n)  # evidence
    net = fit_reference_net(features, truth, hidden=4, steps=400)
    assert 20 not in net.extra and (net.extra_w >= 0).all()
    assert ((net.logit(features) > 0) != truth).mean() < 0.05


def test_matched_colour_scenes_differ_only_in_the_pieces_colours() -> None:
    plain = synthetic.random_scene(np.random.default_rng(11))
    matched = synthetic.random_scene(np.random.default_rng(11), matched_colours=True)
    assert dataclasses.replace(matched, piece_colors=plain.piece_colors) == plain
    light, dark, _ = synthetic.SCHEMES[plain.scheme]
    # Black pieces in the dark squares' colours, white ones in the light squares'.
    assert np.abs(np.array(matched.piece_colors["black"]) / np.array(dark) - 0.72).max() < 0.35
    assert np.abs(np.array(matched.piece_colors["white"]) / np.array(light) - 1.0).max() < 0.2


@pytest.mark.parametrize("share", [0.0, 0.25, 0.5, 1.0])
def test_a_fit_spreads_its_matched_scenes_evenly(share: float) -> None:
    picked = [matched_scene(i, share) for i in range(40)]
    assert sum(picked) == round(40 * share)
    assert sum(picked[:20]) == round(20 * share)
