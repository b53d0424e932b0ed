"""The small photo networks reading each tile five times: where it is cut and moved a
little along each of the board's axes (``VisionConfig.nets.photo_shift``, off as shipped)."""

from __future__ import annotations

import numpy as np
import pytest

from lab.real_boards import _image, load_real_boards
from vision import net_reading, sampling, square_net, square_reading, synthetic
from vision.config import VisionConfig
from vision.geometry import BoardGeometry, warp
from vision.square_net import INPUTS, LAB_SCALE, TILE_H, TILE_PX, TILE_W, mirrored


class _Lopsided:
    """A stand-in network whose logits follow the left half of each tile's lightness
    and a row's last value (a mirror image, or a moved cut, reads otherwise)."""

    def __init__(self, scale: int = 1) -> None:
        self.scale = scale

    def logits(self, rows: np.ndarray) -> np.ndarray:
        tiles = rows[:, :TILE_H * TILE_W * 3].reshape(len(rows), TILE_H, TILE_W, 3)
        left = tiles[:, :, : TILE_W // 2, 0].sum(axis=(1, 2))
        return np.stack([left, -left, rows[:, -1] * 5.0, 0 * left], axis=1)


def test_a_moved_cut_samples_the_board_that_many_squares_further_along_each_axis() -> None:
    config = VisionConfig()
    geometry = synthetic.random_scene(np.random.default_rng(3)).geometry()
    sampler = sampling.make_sampler(config, geometry)
    side = sampler.crop
    ys, xs = np.mgrid[0:side, 0:side].astype(np.float32)
    # a board whose lightness is its pixel column and whose a* is its pixel row
    lab = np.stack([xs, ys, np.zeros_like(xs)], axis=2)
    tiles = net_reading.BoardTiles(sampler, lab, np.zeros((64, 3), np.float32),
                               np.full(64, 70.0, np.float32))
    here = tiles.rows()[:, :-3].reshape(64, TILE_H, TILE_W, 3) * LAB_SCALE
    inner = [27, 28, 35, 36]  # d5, e5, d4, e4: their tiles lie on the board whatever the lean
    for dx, dy in net_reading.shift_steps(0.25):
        moved = tiles.moved_rows(dx, dy)[:, :-3].reshape(64, TILE_H, TILE_W, 3) * LAB_SCALE
        step = (moved - here)[inner]
        np.testing.assert_allclose(step[..., 0], dx * config.warp.square_px, atol=1e-3)
        np.testing.assert_allclose(step[..., 1], dy * config.warp.square_px, atol=1e-3)
    assert net_reading.shift_steps(0.06) == ((0.06, 0.0), (-0.06, 0.0), (0.0, 0.06),
                                         (0.0, -0.06))


def test_a_shifted_network_reads_the_mean_of_five_cuts_and_the_others_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    nets = {"small.onnx": _Lopsided(), "other.onnx": _Lopsided(), "fine.onnx": _Lopsided(4)}
    monkeypatch.setattr(net_reading, "load_net", lambda name="occupancy.onnx": nets[name])
    rng = np.random.default_rng(5)
    rows = rng.normal(0, 1, (6, INPUTS)).astype(np.float32)
    cuts = {step: rng.normal(0, 1, (6, INPUTS)).astype(np.float32)
            for step in net_reading.shift_steps(0.1)}
    asked: list[tuple[float, float]] = []

    def moved(dx: float, dy: float) -> np.ndarray:
        asked.append((dx, dy))
        return cuts[(dx, dy)]

    net = nets["small.onnx"]

    def both_ways(view: np.ndarray) -> np.ndarray:
        return (net.logits(view) + net.logits(mirrored(view))) / 2

    got = net_reading.logits_of(rows, True, ("small.onnx", "other.onnx"), moved=moved,
                            shifted=("small.onnx",), shift=0.1)
    small = np.mean([both_ways(rows)] + [both_ways(cut) for cut in cuts.values()], axis=0)
    np.testing.assert_allclose(got, (small + both_ways(rows)) / 2, rtol=1e-5, atol=1e-5)
    assert sorted(asked) == sorted(cuts)  # each moved cut asked for once, for one network
    once = net_reading.logits_of(rows, True, ("small.onnx", "other.onnx"))
    assert not np.allclose(got, once)
    # no shift, or no network named: every network reads each tile once, as before
    for shift, shifted in ((0.0, ("small.onnx",)), (0.1, ())):
        np.testing.assert_array_equal(
            net_reading.logits_of(rows, True, ("small.onnx", "other.onnx"), moved=moved,
                              shifted=shifted, shift=shift), once)
    with pytest.raises(square_net.SquareNetError, match="none were given"):
        net_reading.logits_of(rows, False, ("small.onnx",), shifted=("small.onnx",), shift=0.1)
    with pytest.raises(square_net.SquareNetError, match="4 times as fine"):
        net_reading.logits_of(rows, False, ("fine.onnx",), finer=lambda scale: rows,
                          moved=moved, shifted=("fine.onnx",), shift=0.1)


def test_a_photo_read_without_a_reference_reads_the_moved_cuts() -> None:
    photo = next(p for p in load_real_boards(split="dev") if p.board == "folding")
    image = _image(photo)
    height, width = image.shape[:2]
    geometry = BoardGeometry(photo.geometry.corners, (width, height))

    # the two small networks, which the moved cuts are for (the third reads finer tiles)
    small = VisionConfig().nets.photo_shifted_nets

    def read(**change: object) -> square_reading.SquareReading:
        config = VisionConfig().replace(photo_nets=small, **change)
        return net_reading.read_by_net(config, sampling.make_sampler(config, geometry),
                                   warp(config, image, geometry))

    # off as shipped (the twentieth candidate failed its rule): every tile read once
    assert VisionConfig().nets.photo_shift == 0.0
    moved = read(photo_shift=0.06)
    off, none_named = read(), read(photo_shift=0.06, photo_shifted_nets=())
    assert off.occupancy == none_named.occupancy
    assert not np.allclose(moved.occupancy, off.occupancy)
    # the moves steady the reading, they do not remake it: the same squares read alike
    changed = [a != b for a, b in zip("".join(moved.grid), "".join(off.grid), strict=True)]
    assert sum(changed) <= 2


def test_a_training_tile_moved_shows_its_content_that_far_and_keeps_its_colour() -> None:
    from lab.train_occupancy import moved

    rows = np.zeros((200, INPUTS), np.float32)
    tiles = rows[:, :-3].reshape(200, TILE_H, TILE_W, 3)
    tiles[..., 0] = np.arange(TILE_W)[None, None, :]  # lightness: the pixel's column
    tiles[..., 1] = np.arange(TILE_H)[None, :, None]  # a*: its row
    rows[:, :-3] = tiles.reshape(200, -1)
    rows[:, -3:] = 0.7
    assert moved(rows, np.random.default_rng(1), 0.0) is rows
    out = moved(rows, np.random.default_rng(1), 0.1)
    after = out[:, :-3].reshape(200, TILE_H, TILE_W, 3)
    np.testing.assert_array_equal(out[:, -3:], rows[:, -3:])
    # away from the edges each tile is its own ramp moved by one step: the same step on
    # every pixel, a step of about 0.1 square (TILE_PX pixels a square) spread
    inner = after[:, 8:22, 6:12]
    across = inner[..., 0] - tiles[:, 8:22, 6:12, 0]
    along = inner[..., 1] - tiles[:, 8:22, 6:12, 1]
    small = (np.abs(across).max(axis=(1, 2)) < 5) & (np.abs(along).max(axis=(1, 2)) < 7)
    assert small.mean() > 0.95
    np.testing.assert_allclose(across[small].std(axis=(1, 2)), 0.0, atol=1e-4)
    np.testing.assert_allclose(along[small].std(axis=(1, 2)), 0.0, atol=1e-4)
    spread = np.concatenate([across[:, 0, 0], along[:, 0, 0]]).std() / TILE_PX
    assert 0.08 < spread < 0.12
