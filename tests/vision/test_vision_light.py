"""A change of light after the empty-board reference was taken (issue 22, watched games).

The reference is the empty board under the light of its time. A lamp switched
on or a cloud changes the light's brightness, colour and gradient; the reader
must not take the changed bare squares for pieces (it did: phantom pieces that
stalled watched games). Two mechanisms, tested here on synthetic scenes:

- every frame, a change in the colour of the light is undone before the
  comparison (``tint_change`` / ``relight``);
- each time the board comes to rest, the change of light since it last
  rested is measured on the two views (``light_between``) and the reference
  re-lit to match (``BoardPipeline``).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from vision import synthetic
from vision.config import VisionConfig
from vision.features import prepare_reference
from vision.geometry import warp
from vision.light import apply_light, light_between, relight, tint_change
from vision.pipeline import BoardPipeline
from vision.sampling import make_sampler
from vision.squares import read_squares

CONFIG = VisionConfig()


def _scene(seed: int, fraction: float = 0.2) -> synthetic.Scene:
    return synthetic.random_scene(np.random.default_rng(seed), fraction=fraction, markers=True)


def _lit(scene: synthetic.Scene, tint: tuple[float, float, float], brightness: float,
         gradient: tuple[float, float] | None = None) -> synthetic.Scene:
    a, b = gradient if gradient is not None else scene.gradient[:2]
    return dataclasses.replace(
        scene, tint=tuple(t * k for t, k in zip(scene.tint, tint, strict=True)),  # type: ignore[arg-type]
        gradient=(a, b, scene.gradient[2] * brightness))


def _occupied(*scenes: synthetic.Scene) -> np.ndarray:
    """(64,) rank 8 first: occupied in any of ``scenes``."""
    return np.array([any(sc.grid()[row][col] != "." for sc in scenes)
                     for row in range(8) for col in range(8)])


def _warp(scene: synthetic.Scene, seed: int) -> np.ndarray:
    return warp(CONFIG, synthetic.render(scene, seed), scene.geometry())


def test_a_new_colour_of_light_is_measured_and_undone_and_no_phantom_is_read() -> None:
    scene = _scene(3)
    sampler = make_sampler(CONFIG, scene.geometry())
    reference = prepare_reference(CONFIG, sampler, _warp(scene.with_pieces({}), 1))
    tint = (1.12, 1.0, 0.88)  # bluer light (B, G, R), and dimmer
    lit = _warp(_lit(scene, tint, 0.85), 2)
    expected = np.log(np.array(tint))
    measured = tint_change(sampler, sampler.cut(lit), reference.ring_log)
    assert np.abs(measured - (expected - expected.mean())).max() < 0.02, measured
    assert read_squares(CONFIG, sampler, lit, reference).grid == tuple(scene.grid())


def test_in_steady_light_the_board_is_left_exactly_as_it_is() -> None:
    scene = _scene(5, fraction=0.5)  # a crowded board: many borders covered or shaded
    sampler = make_sampler(CONFIG, scene.geometry())
    reference = prepare_reference(CONFIG, sampler, _warp(scene.with_pieces({}), 1))
    board = sampler.cut(_warp(scene, 2))
    assert np.abs(tint_change(sampler, board, reference.ring_log)).max() < 0.01
    assert relight(sampler, board, reference.ring_log) is board


def test_the_change_of_light_between_two_rests_is_measured_a_moved_piece_left_out() -> None:
    scene = _scene(7, fraction=0.25)
    sampler = make_sampler(CONFIG, scene.geometry())
    before = _warp(scene, 1)
    # The same board in steady light: no change.
    assert light_between(sampler, before, _warp(scene, 2), _occupied(scene)) is None
    # A lamp from one side: brighter on one side, another colour; and a piece
    # was put down meanwhile.
    empty = [sq for sq in range(64) if sq not in scene.pieces]
    moved = scene.with_pieces({**scene.pieces, empty[0]: ("white", 1)})
    lit = _lit(moved, (0.9, 1.0, 1.1), 1.1, gradient=(scene.gradient[0] + 0.3,
                                                      scene.gradient[1] - 0.2))
    after = _warp(lit, 3)
    field = light_between(sampler, before, after, _occupied(scene, moved))
    assert field is not None
    # Re-lit with it, the bare squares of the first view match the second.
    relit = apply_light(CONFIG, _warp(scene.with_pieces({}), 4), field)
    target = _warp(lit.with_pieces({}), 5)
    s, m = CONFIG.warp.square_px, round(CONFIG.warp.margin_squares * CONFIG.warp.square_px)
    for square in range(64):
        row, col = divmod(square, 8)
        y, x = m + row * s, m + col * s
        cell = (slice(y + 4, y + s - 4), slice(x + 4, x + s - 4))
        ratio = np.log((relit[cell].astype(float) + 4).mean(axis=(0, 1))
                       / (target[cell].astype(float) + 4).mean(axis=(0, 1)))
        assert np.abs(ratio).max() < 0.05, (square, ratio)


def _turned(scene: synthetic.Scene) -> synthetic.Scene:
    """The light comes from elsewhere and its gradient turns round: one side
    of the board brightens, the other darkens (one gain cannot undo that)."""
    azimuth = math.radians(200)
    return dataclasses.replace(_lit(scene, (1.0, 1.0, 1.0), 1.0, gradient=(0.35, -0.35)),
                               light=(0.5 * math.cos(azimuth), 0.5 * math.sin(azimuth), 0.87))


def _frames(scene: synthetic.Scene, count: int, seed: int) -> list[np.ndarray]:
    """``count`` frames of ``scene`` at rest: three pictures (each its own sensor noise),
    over and over."""
    pictures = [synthetic.render(scene, seed + i) for i in range(min(count, 3))]
    return [pictures[i % len(pictures)] for i in range(count)]


# The pipeline reads frames without a reference until it has the empty board's picture;
# one photo network does for that here (the shipped three take most of these tests' time).
ONE_PHOTO_NET = CONFIG.replace(photo_nets=("occupancy_photo.onnx",))


def test_the_pipeline_relights_its_reference_when_the_light_changes_at_rest() -> None:
    scene = _scene(11, fraction=0.15)
    pipeline = BoardPipeline(ONE_PHOTO_NET, scene.geometry(), empty_start=True)
    lit = _turned(scene)
    # The board rests long enough each time for a change without motion to be
    # taken as the board's, not a hand's (config.motion.hand_still_seconds).
    frames = (_frames(scene.with_pieces({}), 6, 0) + _frames(scene, 14, 10)
              + _frames(lit, 14, 30))
    readings = [pipeline.process(frame, i / 10).reading for i, frame in enumerate(frames)]
    first_reference = pipeline.reference_warp is not None
    last = readings[-1]
    assert first_reference and last is not None
    assert last.grid == tuple(scene.grid())


def test_without_relighting_the_same_change_of_light_reads_phantoms() -> None:
    """The test above can fail: the same frames read by the hand-made features
    against the reference as it was taken (no re-lighting) show pieces where
    there are none. The fused reader (the default) reads these right even so."""
    scene = _scene(11, fraction=0.15)
    sampler = make_sampler(CONFIG, scene.geometry())
    reference = prepare_reference(CONFIG, sampler, _warp(scene.with_pieces({}), 0))
    lit = _warp(_turned(scene), 27)
    features = CONFIG.replace(reference_reader="features")
    assert read_squares(features, sampler, lit, reference).grid != tuple(scene.grid())
    assert read_squares(CONFIG, sampler, lit, reference).grid == tuple(scene.grid())


def test_after_a_bluer_light_at_rest_white_pieces_keep_their_colour() -> None:
    """After a bluer light at rest every square is still read right, white
    pieces white (the light's colour is taken off the frames, the rest of the
    change put on the reference). This scene reads right with the whole change
    put on the reference too; the case that did not was a held-out game
    (docs/dev/camera.md, "Light")."""
    scene = _scene(13, fraction=0.2)
    pipeline = BoardPipeline(ONE_PHOTO_NET, scene.geometry(), empty_start=True)
    bluer = _lit(scene, (1.15, 1.0, 0.85), 0.9, gradient=(0.2, -0.3))
    frames = (_frames(scene.with_pieces({}), 6, 0) + _frames(scene, 14, 10)
              + _frames(bluer, 14, 30))
    readings = [pipeline.process(frame, i / 10).reading for i, frame in enumerate(frames)]
    assert pipeline.light is not None  # the change was measured at rest
    assert readings[-1] is not None and readings[-1].grid == tuple(scene.grid())
    assert "w" in "".join(scene.grid())
