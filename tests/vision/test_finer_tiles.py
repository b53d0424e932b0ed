"""Finer tiles: a square network may read each square's tile sampled more finely than
the others (vision.square_net.tile_maps' scale), and the reader gives it those rows."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from vision.config import VisionConfig
from vision.geometry import BoardGeometry, warp
from vision.square_net import (
    INPUTS,
    TILE_H,
    TILE_VALUES,
    TILE_W,
    SquareNetError,
    input_width,
    load_net,
    mirrored,
    row_scale,
    tile_maps,
    tile_shape,
)
from vision.synthetic import random_scene, render

CONFIG = VisionConfig()


def _geometry(seed: int = 5) -> BoardGeometry:
    return random_scene(np.random.default_rng(seed)).geometry()


@pytest.mark.parametrize("scale", [3, 5])
def test_finer_maps_sample_the_same_points_between_theirs(scale: int) -> None:
    """At an odd scale, every scale-th pixel of a finer tile from the middle one on is
    the square networks' tile pixel: the same part of the board, more finely."""
    coarse = tile_maps(CONFIG, _geometry())
    fine = tile_maps(CONFIG, _geometry(), scale)
    high, wide = tile_shape(scale)
    assert fine.map_x.shape == (64 * high, wide) == (64 * TILE_H * scale, TILE_W * scale)
    middle = scale // 2
    for name in ("map_x", "map_y"):
        picked = getattr(fine, name).reshape(64, high, wide)[:, middle::scale, middle::scale]
        np.testing.assert_allclose(picked, getattr(coarse, name).reshape(64, TILE_H, TILE_W),
                                   atol=1e-3)


def test_row_scale_names_the_scale_or_refuses() -> None:
    assert row_scale(INPUTS) == 1
    assert row_scale(TILE_VALUES * 16 + 3) == 4
    for width in (INPUTS - 1, TILE_VALUES * 2 + 3, 3):
        with pytest.raises(SquareNetError, match="no tiles"):
            row_scale(width)


def test_mirrored_flips_finer_tiles_across_the_lean() -> None:
    high, wide = tile_shape(3)
    rows = np.random.default_rng(0).normal(size=(4, high * wide * 3 + 3)).astype(np.float32)
    flipped = mirrored(rows)
    tiles = rows[:, :-3].reshape(4, high, wide, 3)
    np.testing.assert_array_equal(flipped[:, :-3].reshape(4, high, wide, 3),
                                  tiles[:, :, ::-1])
    np.testing.assert_array_equal(flipped[:, -3:], rows[:, -3:])
    np.testing.assert_array_equal(mirrored(flipped), rows)


def test_input_width_agrees_with_onnx_on_every_shipped_network() -> None:
    onnx = pytest.importorskip("onnx")
    names = [entry.name for entry in resources.files("vision.models").iterdir()
             if entry.name.endswith(".onnx")]
    assert len(names) >= 4
    for name in names:
        data = resources.files("vision.models").joinpath(name).read_bytes()
        dims = onnx.load_from_string(data).graph.input[0].type.tensor_type.shape.dim
        assert input_width(data) == dims[-1].dim_value, name


def test_input_width_refuses_a_cut_or_foreign_file() -> None:
    data = resources.files("vision.models").joinpath("occupancy.onnx").read_bytes()
    for bad in (data[:40], b"\x3a\x05abc", b"\x07"):
        with pytest.raises(SquareNetError):
            input_width(bad)


def _mean_net(scale: int) -> bytes:
    """An ONNX network over rows of tiles ``scale`` times as fine: every logit the
    mean of the tile's values times 1, 2, 3, 4."""
    from onnx import helper, numpy_helper

    from lab.net_fitting import model_bytes

    high, wide = tile_shape(scale)
    width = high * wide * 3 + 3
    weight = np.zeros((width, 4), np.float32)
    weight[:width - 3] = np.arange(1, 5, dtype=np.float32) / (width - 3)
    nodes = [helper.make_node("Gemm", ["tiles", "w", "b"], ["logits"])]
    inits = [numpy_helper.from_array(weight, "w"),
             numpy_helper.from_array(np.zeros(4, np.float32), "b")]
    return model_bytes(nodes, inits, "mean", source=("tiles", ["n", width]))


def test_the_reader_gives_a_finer_network_its_finer_tiles(tmp_path: Path) -> None:
    pytest.importorskip("onnx")
    from vision import net_reading, sampling

    scene = random_scene(np.random.default_rng(8))
    geometry = scene.geometry()
    sampler = sampling.make_sampler(CONFIG, geometry)
    tiles = net_reading.board_tiles(CONFIG, sampler, warp(CONFIG, render(scene, 8), geometry))
    coarse, fine = tmp_path / "coarse.onnx", tmp_path / "fine.onnx"
    coarse.write_bytes(_mean_net(1))
    fine.write_bytes(_mean_net(3))
    assert load_net(str(coarse)).scale == 1 and load_net(str(fine)).scale == 3
    rows, finer = tiles.rows(), tiles.rows(3)
    assert finer.shape == (64, TILE_VALUES * 9 + 3)
    np.testing.assert_array_equal(finer[:, -3:], rows[:, -3:])
    # the same tiles, more finely: their means agree to a small part of their spread
    spread = rows[:, :-3].mean(axis=1).std()
    assert np.abs(finer[:, :-3].mean(axis=1) - rows[:, :-3].mean(axis=1)).max() < 0.1 * spread
    both = net_reading.logits_of(rows, True, (str(coarse), str(fine)), tiles.rows)
    expected = (load_net(str(coarse)).logits(rows) + load_net(str(fine)).logits(finer)) / 2
    np.testing.assert_allclose(both, expected, rtol=1e-5, atol=1e-6)  # means: mirror-proof
    assert sampler.tiles_at(3) is sampler.tiles_at(3)  # made once for the pose
    with pytest.raises(SquareNetError, match="3 times as fine"):
        net_reading.logits_of(rows, False, (str(fine),))
