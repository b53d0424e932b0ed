"""Fine-tuning the third photo network (lab.finetune_pretrained): the trained weights
go back into the same ONNX graph as the frozen network's, and the file OpenCV reads gives
the logits the trainer computed.

The parts that need PyTorch (the ``finetune`` extra, for training only; not in ``all``)
run where it is installed and are skipped elsewhere, saying so; the rest needs only the
``lab`` extra."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import cv2
import numpy as np
import pytest

from lab import finetune_pretrained as ft
from lab import pretrained
from tests.lab.test_pretrained import _rows
from vision.square_net import LAB_SCALE


@pytest.fixture(scope="module")
def state() -> pretrained.State:
    return pretrained.load_state(pretrained.weights_path())


def _net(model: bytes) -> cv2.dnn.Net:
    return cv2.dnn.readNetFromONNX(np.frombuffer(model, np.uint8))


def _head(seed: int, width: int) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(seed)
    return [((rng.standard_normal((width, 16)) / np.sqrt(width)).astype(np.float32),
             rng.standard_normal(16).astype(np.float32) * 0.1),
            ((rng.standard_normal((16, 4)) / 4).astype(np.float32),
             rng.standard_normal(4).astype(np.float32) * 0.1)]


def _logits(model: bytes, rows: np.ndarray) -> np.ndarray:
    net = _net(model)
    net.setInput(rows)
    return np.asarray(net.forward(), np.float32)


FEATURES = 112 * 8 * 5  # 112 channels on a 120 x 72 picture made 16 times smaller


def test_folded_weights_put_back_give_the_same_network(state: pretrained.State) -> None:
    rows = _rows(3, 6, ft.SCALE)
    head = _head(0, FEATURES)
    before = _logits(pretrained.square_model(state, head, sampling=ft.SAMPLING), rows)
    again = ft.state_with(state, ft.folded_convs(state))
    after = _logits(pretrained.square_model(again, head, sampling=ft.SAMPLING), rows)
    np.testing.assert_allclose(after, before, rtol=1e-4, atol=1e-4)
    assert np.ptp(before, axis=0).min() > 1e-3  # the rows are told apart


def test_changed_weights_change_the_written_network(state: pretrained.State) -> None:
    rows = _rows(4, 4, ft.SCALE)
    head = _head(1, FEATURES)
    convs = ft.folded_convs(state)
    name = "_blocks.3._project_conv.weight"
    weight, bias = convs[name]
    convs[name] = (weight * 0.5, bias + 0.1)
    before = _logits(pretrained.square_model(state, head, sampling=ft.SAMPLING), rows)
    after = _logits(pretrained.square_model(ft.state_with(state, convs), head,
                                            sampling=ft.SAMPLING), rows)
    assert np.abs(after - before).max() > 1e-2


def test_every_convolution_is_named_once_in_order(state: pretrained.State) -> None:
    names = [conv for conv, _ in ft.conv_names(state)]
    assert names[0] == "_conv_stem.weight"
    assert len(names) == len(set(names))
    # block 0 has no expansion; the other ten each expand, filter and project
    assert len(names) == 1 + 2 + 3 * (pretrained.BLOCKS - 1)
    assert all(name in state for name in names)


def test_pictures_round_trip_within_a_step_of_the_uint8_scale() -> None:
    rng = np.random.default_rng(5)
    scaled = rng.uniform(-127 / 128, 128 / 128, (3, 3, 12, 7)).astype(np.float32)
    pictures = ft.to_pictures(scaled)
    assert pictures.shape == (3, 12, 7, 3) and pictures.dtype == np.uint8
    np.testing.assert_allclose(ft.from_pictures(pictures), scaled, atol=0.5 / 128 + 1e-6)


def test_the_tiles_pictures_are_the_tiles_as_opencv_turns_them_into_rgb() -> None:
    rows = _rows(6, 5, ft.SCALE)
    net = ft.rgb_net()
    net.setInput(rows)
    pictures = ft.to_pictures(np.asarray(net.forward(), np.float32))
    high, wide = ft.SAMPLING.picture
    assert pictures.shape == (5, high, wide, 3)
    values = high * wide * 3
    lab = (rows[:, :values].reshape(-1, high, wide, 3) * LAB_SCALE
           + rows[:, None, None, values:] * 100.0)
    for index, tile in enumerate(lab):
        rgb = np.clip(cv2.cvtColor(tile.astype(np.float32), cv2.COLOR_Lab2RGB), 0, 1)
        want = np.rint(rgb * 255)
        assert np.abs(pictures[index].astype(np.float32) - want).max() <= 2, index


def test_the_command_names_a_keep_without_a_board_left_out(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for keep in ("--keep", "--keep-frozen"):
        with pytest.raises(SystemExit) as stop:
            ft.main([keep, str(tmp_path / "x.onnx")])
        assert stop.value.code == 2 and "--leave-out" in capsys.readouterr().err
        assert not (tmp_path / "x.onnx").exists()


needs_torch = pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                                 reason="PyTorch (the finetune extra) is not installed")


@pytest.fixture(scope="module")
def trainer(state: pretrained.State) -> ft.Trainer:
    trainer = ft.Trainer(state, threads=1, seed=0)
    trainer.set_head(_head(2, FEATURES))
    return trainer


def _pictures(rows: np.ndarray) -> np.ndarray:
    net = ft.rgb_net()
    net.setInput(rows)
    return ft.to_pictures(np.asarray(net.forward(), np.float32))


@needs_torch
def test_the_trainer_computes_the_graphs_features(state: pretrained.State,
                                                  trainer: ft.Trainer) -> None:
    rows = _rows(7, 4, ft.SCALE)
    pictures = _pictures(rows)
    ours = trainer.frozen_features(pictures, np.arange(4)).astype(np.float32)
    graph = _net(pretrained.feature_model(state, sampling=ft.SAMPLING))
    graph.setInput(rows)
    theirs = np.asarray(graph.forward(), np.float32)
    assert ours.shape == theirs.shape == (4, FEATURES)
    # the pictures are rounded to uint8, the graph's are not
    error = np.abs(ours - theirs).max() / np.abs(theirs).max()
    assert error < 0.05


@needs_torch
def test_the_written_file_gives_the_trainers_logits_after_training(
        state: pretrained.State) -> None:
    trainer = ft.Trainer(state, threads=1, seed=0)
    trainer.set_head(_head(3, FEATURES))
    rows = _rows(8, 8, ft.SCALE)
    pictures = _pictures(rows)
    before = {name: weight.copy() for name, (weight, _) in trainer.convs().items()}
    labels = np.array([0, 1, 2, 0, 1, 2, 0, 1], np.int64)
    trainer.train(pictures, np.arange(8), labels, np.ones(8, np.float32), epochs=2.0,
                  rate=1e-3, seed=0)
    moved = [name for name, (weight, _) in trainer.convs().items()
             if np.abs(weight - before[name]).max() > 0]
    assert len(moved) == len(before)  # the blocks were trained, not only the head
    theirs = trainer.predict(pictures, mirror=False)
    # the file reads the rows' own pictures (not rounded to uint8): near the trainer's,
    # its logits divided by the temperature given
    ours = _logits(trainer.model(2.0), rows)
    assert ours.shape == theirs.shape == (8, 4)
    np.testing.assert_allclose(ours * 2.0, theirs, atol=0.05 * np.abs(theirs).max() + 1e-3)


@needs_torch
def test_the_features_are_cached_by_the_pictures(state: pretrained.State,
                                                 trainer: ft.Trainer, tmp_path: Path) -> None:
    pictures = _pictures(_rows(9, 3, ft.SCALE))
    first = ft.all_features(trainer, pictures, tmp_path)
    assert len(list(tmp_path.iterdir())) == 1
    again = ft.all_features(trainer, pictures, tmp_path)
    np.testing.assert_array_equal(again, first)
    other = ft.all_features(trainer, pictures[::-1], tmp_path)  # other pictures, own file
    assert len(list(tmp_path.iterdir())) == 2
    np.testing.assert_array_equal(other, first[::-1])
