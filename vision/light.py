"""The light on the board: a change of its colour or brightness since the empty-board
reference (:func:`tint_change`, :func:`relight`, :func:`mode_ratio`), square by square at
rest (:func:`light_between`, :func:`apply_light`), and a dim board brightened before it is
read without a reference (:func:`brightening`, :func:`exposed_board`)."""

from __future__ import annotations

import logging
import warnings

import cv2
import numpy as np
import numpy.typing as npt

from vision.config import VisionConfig
from vision.geometry import Image
from vision.sampling import SquareSampler, row_medians, square_models, to_lab
from vision.square_net import luminance
from vision.square_reading import FloatArray

LOGGER = logging.getLogger(__name__)

MODE_BINS, MODE_RANGE = 150, (0.4, 1.9)


def mode_ratio(now: FloatArray, before: FloatArray) -> float:
    """The most common lightness ratio now/before: the change of light on the bare
    board, even when pieces cover most of it."""
    ratio = np.ascontiguousarray(now / np.maximum(before, 5.0), np.float32).reshape(-1, 1)
    counts = cv2.calcHist([ratio], [0], None, [MODE_BINS], list(MODE_RANGE)).ravel()
    smooth = np.convolve(counts, np.ones(5), mode="same")
    best = int(np.argmax(smooth))
    width = (MODE_RANGE[1] - MODE_RANGE[0]) / MODE_BINS
    return float(MODE_RANGE[0] + (best + 0.5) * width)


SHADE_OFFSET = 4.0  # grey levels added before a logarithm: noise in dark pixels
_LOG_LEVELS = np.log(np.arange(256, dtype=np.float32) + np.float32(SHADE_OFFSET))


def log_bgr(sampler: SquareSampler, board: Image) -> FloatArray:
    """log(B, G, R + SHADE_OFFSET) of the sample discs of a cut board (3, 64, n)."""
    flat = np.ascontiguousarray(board).reshape(-1)
    return np.stack([_LOG_LEVELS[flat[sampler.disc * 3 + channel]] for channel in range(3)])


def ring_log(sampler: SquareSampler, board: Image) -> FloatArray:
    """log(B, G, R + SHADE_OFFSET) on every square's border band, flattened (3, 64 m).

    Borders are where pieces least often stand (a base covers the middle of
    its square), so most of them show the bare board."""
    flat = np.ascontiguousarray(board).reshape(-1)
    ring = sampler.ring.reshape(-1)
    return np.stack([_LOG_LEVELS[flat[ring * 3 + channel]] for channel in range(3)])


TINT_BINS, TINT_RANGE = 240, (-0.6, 0.6)  # log units, 0.005 a bin

# A change of colour smaller than this (log units, about 2%) is left alone: it
# is within JPEG and sensor noise, and the reading stays as it always was.
TINT_MIN = 0.02


def tint_change(sampler: SquareSampler, board: Image, reference_ring: FloatArray) -> FloatArray:
    """How the colour of the light changed since the empty-board reference, whose
    :func:`ring_log` is ``reference_ring``:
    log gains on B, G and R (3,), their mean 0 (brightness is left to the
    lightness gain, see mode_ratio).

    A lamp switched on, the daylight fading, a camera that re-balances its
    white: each scales the board's blue, green and red by its own factor.
    A shadow scales them alike, so it leaves this colour change alone; a
    piece or a hand changes some border pixels, not the most common change,
    which is what is taken (per channel, the mode of log(now / then) less its
    mean over the three channels, over every border pixel)."""
    change = ring_log(sampler, board) - reference_ring
    change -= change.mean(axis=0, keepdims=True)
    width = (TINT_RANGE[1] - TINT_RANGE[0]) / TINT_BINS
    modes = []
    for channel in change:
        values = np.ascontiguousarray(channel, np.float32).reshape(-1, 1)
        counts = cv2.calcHist([values], [0], None, [TINT_BINS], list(TINT_RANGE)).ravel()
        best = int(np.argmax(np.convolve(counts, np.ones(5), mode="same")))
        modes.append(TINT_RANGE[0] + (best + 0.5) * width)
    tint = np.array(modes, np.float32)
    return np.asarray(tint - tint.mean(), np.float32)


def relight(sampler: SquareSampler, board: Image, reference_ring: FloatArray) -> Image:
    """``board`` with the colour of the light brought back to the reference's (its
    :func:`ring_log` ``reference_ring``; see tint_change); unchanged when that colour has
    not changed."""
    tint = tint_change(sampler, board, reference_ring)
    if float(np.abs(tint).max()) < TINT_MIN:
        return board
    return np.asarray(cv2.LUT(np.ascontiguousarray(board), tint_table(-tint)), np.uint8)


def tint_table(gains: FloatArray) -> Image:
    """A cv2.LUT table (256, 1, 3) putting the log gains (B, G, R) on each
    value (+ SHADE_OFFSET, as the logs were taken)."""
    levels = np.arange(256, dtype=np.float32)[:, None] + np.float32(SHADE_OFFSET)
    table = levels * np.exp(gains)[None, :] - np.float32(SHADE_OFFSET)
    return np.clip(np.round(table), 0, 255).astype(np.uint8).reshape(256, 1, 3)


def light_colour(field: FloatArray) -> FloatArray:
    """The colour part of a change of light (see light_between): the median
    log gain of B, G and R over the squares, less their mean (3,); zeros when
    under TINT_MIN."""
    colour = np.median(field.reshape(-1, 3), axis=0)
    colour = np.asarray(colour - colour.mean(), np.float32)
    return colour if float(np.abs(colour).max()) >= TINT_MIN else np.zeros(3, np.float32)


RELIGHT_MIN = 0.03  # log units (3%): a smaller change of light is left to relight
_SAME_COLOUR = ((0, 0), (-1, -1), (-1, 1), (1, -1), (1, 1), (0, -2), (0, 2), (-2, 0), (2, 0))
_OTHER_COLOUR = ((0, -1), (0, 1), (-1, 0), (1, 0))


def _around(squares: FloatArray, steps: tuple[tuple[int, int], ...]) -> FloatArray:
    """(len(steps), 8, 8, 3): each square's neighbours ``steps`` away (NaN off the board)."""
    padded = np.pad(squares, ((2, 2), (2, 2), (0, 0)), constant_values=np.nan)
    return np.stack([padded[2 + dy:10 + dy, 2 + dx:10 + dx] for dy, dx in steps])


def light_between(sampler: SquareSampler, before: Image, now: Image,
                  occupied: npt.NDArray[np.bool_], odd: float | None = None
                  ) -> FloatArray | None:
    """How the light changed between two warps of a board at rest: log(now /
    before) of B, G and R at every square (8, 8, 3; rank 8 first), or None
    when no square is bare, or when the median change over each square's
    neighbourhood (below) is under RELIGHT_MIN everywhere: a change of light
    covers more than one square, a piece put down unseen one.

    ``occupied`` (64,) marks the squares read occupied in either view. Only
    the other squares, bare in both and not under a tall piece's top
    (sampler.covers), are measured: the median change on their border band is
    the change of light there. A piece standing, put down or taken away
    changes its square for reasons other than light, so it takes the median
    of its nearest measured squares of the same colour (the four diagonal and
    the four two squares away; failing those, of all the measured squares of
    its colour). With ``odd``, a measured square whose change is unlike that
    median by more than ``odd`` (log units) takes it too: a piece may have
    been put down there unseen. A lamp, a cloud or someone's shadow changes
    the light over several squares, which is kept square by square. Light
    and dark squares are kept apart: a camera's response is not proportional near white (its
    tone curve, clipping), so under a brighter light the light squares gain
    less than the dark ones."""
    hidden = occupied | (sampler.covers & occupied[:, None]).any(axis=0)
    if hidden.all():
        return None
    change = ring_log(sampler, sampler.cut(now)) - ring_log(sampler, sampler.cut(before))
    squares = row_medians(change.reshape(3, 64, -1)).T.astype(np.float32)
    if float(np.abs(squares[~hidden]).max()) < RELIGHT_MIN:
        return None
    squares[hidden] = np.nan
    grid = squares.reshape(8, 8, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN neighbourhoods
        near = np.nanmedian(_around(grid, _SAME_COLOUR), axis=0)
        light = sampler.light.reshape(8, 8)
        for own in (light, ~light):
            measured = grid[own & ~np.isnan(grid[..., 0])]
            fallback = np.median(measured, axis=0) if len(measured) \
                else np.nanmedian(grid.reshape(64, 3), axis=0)
            near[own] = np.where(np.isnan(near[own]), fallback, near[own])
    if float(np.abs(near).max()) < RELIGHT_MIN:
        return None
    if odd is not None:
        grid = np.where((np.abs(grid - near) > odd).any(axis=2, keepdims=True), np.nan, grid)
    return np.asarray(np.where(np.isnan(grid), near, grid), np.float32)


def light_gain(config: VisionConfig, shape: tuple[int, ...], field: FloatArray) -> FloatArray:
    """The gain (h, w, 3) on a whole warp of ``shape`` (margin included) that
    ``field`` (see light_between) stands for: each of the light and the dark
    squares' changes interpolated between their square centres (on a square
    of the other colour, from its four neighbours), each used on its own
    squares."""
    m = round(config.warp.margin_squares)
    h, w = shape[:2]
    s = config.warp.square_px
    light = ((np.arange(8)[:, None] + np.arange(8)[None, :]) % 2 == 0)[..., None]
    neighbours = np.asarray(np.nanmean(_around(field, _OTHER_COLOUR), axis=0), np.float32)
    gains = []
    for own in (light, ~light):
        cells = np.asarray(np.where(own, field, neighbours), np.float32)
        padded = cv2.copyMakeBorder(cells, m, m, m, m, cv2.BORDER_REPLICATE)
        gains.append(cv2.resize(padded, (w, h), interpolation=cv2.INTER_LINEAR))
    rows = np.clip((np.arange(h) - m * s) // s, 0, 7)
    cols = np.clip((np.arange(w) - m * s) // s, 0, 7)
    on_light = ((rows[:, None] + cols[None, :]) % 2 == 0)[..., None]
    return np.asarray(np.exp(np.where(on_light, gains[0], gains[1])), np.float32)


def apply_gain(warped: Image, gain: FloatArray) -> Image:
    """``warped`` with ``gain`` (see light_gain) on each pixel's (B, G, R + SHADE_OFFSET)."""
    out = (warped.astype(np.float32) + np.float32(SHADE_OFFSET)) * gain \
        - np.float32(SHADE_OFFSET)
    return np.asarray(np.clip(out + 0.5, 0, 255), np.uint8)


def apply_light(config: VisionConfig, warped: Image, field: FloatArray) -> Image:
    """``warped`` (a whole warp, margin included) under the light changed by ``field``."""
    return apply_gain(warped, light_gain(config, warped.shape, field))


def brightening(config: VisionConfig, light_l: float) -> float:
    """The gain on B, G and R that brings a board whose light squares have
    lightness ``light_l`` (Lab L) up to ``config.light.dim_light_l``; 1 if it is there.

    Lightness is about the cube root of luminance, and sRGB values about its
    power 1 / 2.2, so the gain is the luminance ratio to the power 1 / 2.2.
    """
    if light_l >= config.light.dim_light_l:
        return 1.0
    ratio = luminance(max(config.light.dim_light_l, 8.0)) / luminance(max(light_l, 8.0))
    return float(float(ratio) ** (1 / 2.2))


def exposed_board(config: VisionConfig, sampler: SquareSampler, board: Image,
                  lab: FloatArray) -> tuple[Image, FloatArray, tuple[FloatArray, FloatArray]]:
    """Without a reference: the cut board (and its Lab) brightened when dim
    (see brightening), and its light and dark square models."""
    models = square_models(config, sampler, lab)
    exposure = brightening(config, float(np.median(models[0][:, 0])))
    if exposure > 1.0:
        board = np.asarray(cv2.convertScaleAbs(board, alpha=exposure), np.uint8)
        lab = to_lab(board)
        models = square_models(config, sampler, lab)
    return board, lab, models
