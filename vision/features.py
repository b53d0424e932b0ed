"""The hand-made evidence of a piece on every square (:func:`gather_evidence`): a disc's
pixels against the empty board (the reference, or the board's own square colours),
shadows told from pieces, edges beyond the board's grain, the ring where a base meets the
board, and with a reference what only it shows (colour moved, grain hidden, a round
outline, a change no shadow explains). The occupancy models (:mod:`vision.occupancy`)
score these features."""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.config import VisionConfig
from vision.geometry import Image
from vision.light import (
    exposed_board,
    log_bgr,
    mode_ratio,
    relight,
    ring_log,
)
from vision.printed_marks import PrintedMarks, departures, printed_marks, printed_on_board
from vision.sampling import SquareSampler, row_medians, square_models, to_lab
from vision.square_reading import FloatArray, IntArray

LOGGER = logging.getLogger(__name__)

@dataclasses.dataclass(frozen=True, eq=False)
class Gradients:
    """Sobel derivatives of a warp's lightness and their magnitude, flattened."""

    gx: FloatArray
    gy: FloatArray
    magnitude: FloatArray


def gradients(lab: FloatArray, shape: tuple[int, ...]) -> Gradients:
    """The lightness gradients of a warp (``lab`` flattened, ``shape`` the warp's)."""
    gray = np.ascontiguousarray(lab[:, 0].reshape(shape[:2]))
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    magnitude = np.sqrt(gx * gx + gy * gy)

    def flat(a: npt.NDArray[Any]) -> FloatArray:
        return np.asarray(a.reshape(-1), np.float32)
    return Gradients(flat(gx), flat(gy), flat(magnitude))


def isotropic_edges(index: IntArray, halves: FloatArray, grads: Gradients) -> FloatArray:
    """Per square and half (64, 2) of the pixels ``index`` (64, n) split by
    ``halves`` (64, n, 2): the smaller eigenvalue of the gradient structure
    tensor. A piece's round outline and highlights have gradients in every
    direction; wood grain, print and a straight shadow edge mostly in one."""
    x, y = grads.gx[index], grads.gy[index]
    tensor = np.stack([x * x, y * y, x * y], axis=1) @ halves  # (64, 3, 2)
    jxx, jyy, jxy = tensor[:, 0], tensor[:, 1], tensor[:, 2]
    return np.asarray(0.5 * (jxx + jyy - np.sqrt(np.square(jxx - jyy) + 4 * jxy * jxy)),
                      np.float32)


FEATURES = 23  # length of a square's feature vector (see square_features)

# Without a reference, gather_evidence appends 22 features relative to the board
# and board_outline; with one, the REFERENCE_FEATURES of reference_features.
REFERENCE_FEATURES = 18
BOARD_OUTLINE = 2 * FEATURES - 1  # without a reference: the column of board_outline


def shadow_distances(config: VisionConfig, pixels: FloatArray, expected: FloatArray
                     ) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per disc pixel (Lab): its lightness over the empty board's, its squared
    distance from the board, and from the board darkened as much when that
    ratio is one a shadow gives (dark_ratio to shadow_ratio): a shadow darkens
    the board but keeps its colour."""
    ratio = pixels[..., 0] / np.maximum(expected[..., 0], 5.0)
    in_shadow = (ratio >= config.features.dark_ratio) & (ratio <= config.features.shadow_ratio)
    shade = np.where(in_shadow, ratio, np.float32(1.0))
    raw_d2 = np.zeros(ratio.shape, np.float32)
    shadowed_d2 = np.zeros(ratio.shape, np.float32)
    for channel in range(3):
        want = expected[..., channel]
        got = pixels[..., channel]
        raw_d2 += np.square(got - want)
        shadowed_d2 += np.square(got - want * shade)
    return (np.asarray(ratio, np.float32), np.asarray(raw_d2, np.float32),
            np.asarray(shadowed_d2, np.float32))


def square_features(config: VisionConfig, sampler: SquareSampler, pixels: FloatArray,
                    expected: FloatArray, edges: FloatArray, base: FloatArray,
                    base_expected: FloatArray, base_edges: FloatArray) -> FloatArray:
    """The occupancy evidence of every square (64, FEATURES).

    Each test below is a per-pixel condition; a feature is the fraction of
    disc pixels meeting it in the half towards the camera and in the half
    away from it (as min and max of the two halves), so a piece's base (which
    covers both halves) tells apart from a neighbour leaning in or a shadow.
    The last two look at the ring where a piece's base meets the board (its
    contact shadow and outline): the least fraction, over the ring's four
    quarters, of pixels unlike the empty board, and of edge pixels; a base rings
    the whole square, a neighbour's lean or shadow one side.
    """
    ratio, raw_d2, scaled2 = shadow_distances(config, pixels, expected)
    tests = np.stack([
        scaled2 > 36.0, scaled2 > 144.0, scaled2 > 576.0, raw_d2 > 100.0,
        ratio < config.features.dark_ratio, ratio > 1.08, ratio < 0.92,
        edges > 8.0, edges > 16.0, edges > 30.0,
    ], axis=1).astype(np.float32)  # (64, T, n)
    fractions = tests @ sampler.halves  # (64, T, 2): the fraction in the far and near half
    lo = fractions.min(axis=2)
    hi = fractions.max(axis=2)
    b_diff2 = np.zeros(base_edges.shape, np.float32)
    for channel in range(3):
        b_diff2 += np.square(base[..., channel] - base_expected[..., channel])
    ring_tests = np.stack([b_diff2 > 144.0, base_edges > 16.0], axis=1
                          ).astype(np.float32)  # (64, 2, k)
    ring = (ring_tests @ sampler.quarters).min(axis=2)  # the least of the four quarters
    return np.asarray(np.concatenate([lo, hi, ring, np.ones((64, 1), np.float32)], axis=1),
                      np.float32)


def _less_texture(sampler: SquareSampler, edges: FloatArray) -> FloatArray:
    """Edge strengths less the board's own texture (grain, print), per square colour.

    The texture level of a colour is the lower quartile, over its 32 squares,
    of their median edge strength: an empty square's, unless three quarters
    of that colour's squares are occupied.
    """
    typical = row_medians(edges)
    out = np.empty_like(edges)
    for light in (True, False):
        mask = sampler.light == light
        out[mask] = np.maximum(edges[mask] - np.quantile(typical[mask], 0.25), 0.0)
    return out


def _relative(sampler: SquareSampler, features: FloatArray) -> FloatArray:
    """Features with and without the board's own baseline.

    Without a reference, what an empty square of this board looks like is
    estimated as the lower quartile of each feature over the squares of the
    same colour; the excess over it is appended to the raw features.
    """
    excess = _over_board(sampler, features)
    return np.asarray(np.concatenate([features, excess[:, :-1]], axis=1), np.float32)


def _over_board(sampler: SquareSampler, values: FloatArray) -> FloatArray:
    """``values`` (64, ...) less their lower quartile over the squares of the
    same colour: what an empty square of this board shows, when most are empty."""
    excess = np.empty_like(values)
    for light in (True, False):
        mask = sampler.light == light
        excess[mask] = values[mask] - np.quantile(values[mask], 0.25, axis=0)
    return excess


def board_outline(sampler: SquareSampler, grads: Gradients) -> FloatArray:
    """Without a reference: a round outline on each square (64,).

    The isotropic edges (see isotropic_edges) of the core disc round the
    square centre, the lesser of its two halves, beyond the board's own (the
    lower quartile over the squares of the same colour), as log(1 + x / 50).
    From above a piece's outline is round wherever it stands on its square;
    grain and print are not round.
    """
    edges = isotropic_edges(sampler.core, sampler.core_halves, grads).min(axis=1)
    excess = _over_board(sampler, edges)
    return np.asarray(np.log1p(np.maximum(excess, 0.0) / 50.0), np.float32)


@dataclasses.dataclass(frozen=True, eq=False)
class Reference:
    """An empty-board warp measured once: its Lab values and edges at the sampled pixels."""

    ring_l: FloatArray  # (64, m) lightness on the square borders
    disc: FloatArray  # (64, n, 3) Lab on the sample discs
    edges: FloatArray  # (64, n) edge strength on the sample discs
    base: FloatArray  # (64, k, 3) Lab on the base rings
    base_edges: FloatArray  # (64, k) edge strength on the base rings
    texture: FloatArray  # (64, n) lightness on the sample discs less each disc's mean
    texture_energy: FloatArray  # (64,) the sum of texture's squares
    texture_std: FloatArray  # (64,) texture's standard deviation
    isotropic: FloatArray  # (64, 2) isotropic_edges of the empty board
    log_bgr: FloatArray  # (3, 64, n) log(B, G, R + SHADE_OFFSET) on the sample discs
    models: tuple[FloatArray, FloatArray]  # square_models of the empty board
    foot: FloatArray  # (64, f, 3) Lab on the footprints (sampler.lean)
    ring_log: FloatArray  # (3, 64 m) log(B, G, R + SHADE_OFFSET) on the square borders
    marks: PrintedMarks  # what is printed on the board (config.marks.fused_reference_least)


def prepare_reference(config: VisionConfig, sampler: SquareSampler, warped: Image) -> Reference:
    """Measure an empty-board warp once, for every later frame."""
    board = sampler.cut(warped)
    lab = to_lab(board)
    grads = gradients(lab, board.shape)
    edges = grads.magnitude
    models = square_models(config, sampler, lab)
    disc = lab[sampler.disc]
    texture = disc[..., 0] - disc[..., 0].mean(axis=1, keepdims=True)
    return Reference(lab[:, 0][sampler.ring], disc, edges[sampler.disc],
                     lab[sampler.base], edges[sampler.base], texture,
                     np.square(texture).sum(axis=1), texture.std(axis=1),
                     isotropic_edges(sampler.disc, sampler.halves, grads), log_bgr(sampler, board),
                     models, lab[sampler.lean.footprint], ring_log(sampler, board),
                     printed_marks(sampler, departures(sampler, lab, models,
                                                       config.marks.fused_reference_shift,
                                                       config.marks.fused_reference_least)))


def _expectation(sampler: SquareSampler, grads: Gradients, reference: Reference | None,
                 models: tuple[FloatArray, FloatArray], gain: float
                 ) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """What the empty board looks like on each disc, and the edges not in it;
    the same on each base ring. ``gain`` is the change of light since the
    reference was taken."""
    all_edges = grads.magnitude
    edges, base_edges = all_edges[sampler.disc], all_edges[sampler.base]
    if reference is None:
        light_model, dark_model = models
        own = np.where(sampler.light[:, None], light_model, dark_model)[:, None, :]
        return own, edges, own, base_edges
    scale = np.array([gain, 1.0, 1.0], np.float32)
    return (reference.disc * scale, np.maximum(edges - reference.edges, 0.0),
            reference.base * scale, np.maximum(base_edges - reference.base_edges, 0.0))


def reference_features(sampler: SquareSampler, pixels: FloatArray, expected: FloatArray,
                       reference: Reference, grads: Gradients, board: Image) -> FloatArray:
    """Evidence only an empty-board reference gives (64, REFERENCE_FEATURES).

    - The fractions (min and max over the disc halves, as in square_features)
      of pixels whose colour (Lab a, b) moved from the empty board's by more
      than 4, 8 and 16, whose lightness fell below 0.35 of it, or rose above
      1.25 of it. A shadow darkens the board but keeps its colour.
    - How unlike the empty board's texture the disc's is (1 less their
      correlation), and how much more varied its lightness is: a shadow keeps
      the grain, a piece hides it.
    - Isotropic edges (see isotropic_edges) beyond the empty board's, per half,
      as min and max: a piece's round outline.
    - The fractions (per half, min and max) of pixels a shadow cannot explain:
      a shadow scales the board's blue, green and red alike, by 0.3 to 1.1;
      more than 0.1 and 0.2 apart (in log units) or out of that range.
    """
    ab = np.sqrt(np.square(pixels[..., 1] - expected[..., 1])
                 + np.square(pixels[..., 2] - expected[..., 2]))
    ratio = pixels[..., 0] / np.maximum(expected[..., 0], 5.0)
    tests = np.stack([ab > 4.0, ab > 8.0, ab > 16.0, ratio < 0.35, ratio > 1.25],
                     axis=1).astype(np.float32)  # (64, T, n)
    fractions = tests @ sampler.halves
    texture = pixels[..., 0] - pixels[..., 0].mean(axis=1, keepdims=True)
    correlation = (texture * reference.texture).sum(axis=1) / np.sqrt(
        np.square(texture).sum(axis=1) * reference.texture_energy + 1e-3)
    grain = np.log1p(np.maximum(texture.std(axis=1) - reference.texture_std, 0.0))
    outline = np.log1p(np.maximum(
        isotropic_edges(sampler.disc, sampler.halves, grads) - reference.isotropic, 0.0) / 50.0)
    blue, green, red = log_bgr(sampler, board) - reference.log_bgr  # each (64, n)
    mean = (blue + green + red) * np.float32(1 / 3)
    spread2 = np.square(blue - mean) + np.square(green - mean) + np.square(red - mean)
    darkened = (mean > np.log(0.3)) & (mean < np.log(1.1))
    unshaded = np.stack([(spread2 > 0.01) | ~darkened, (spread2 > 0.04) | ~darkened],
                        axis=1).astype(np.float32) @ sampler.halves
    return np.asarray(np.column_stack([
        fractions.min(axis=2), fractions.max(axis=2), 1.0 - correlation, grain,
        outline.min(axis=1), outline.max(axis=1), unshaded.min(axis=2), unshaded.max(axis=2)]),
        np.float32)


@dataclasses.dataclass(frozen=True, eq=False)
class Evidence:
    """What the square reader measured on one warp, before deciding."""

    lab: FloatArray  # the warp in Lab, flattened
    pixels: FloatArray  # (64, n, 3) the sample discs
    expected: FloatArray  # (64, n|1, 3) the empty board there
    light_model: FloatArray  # (64, 3) the light-square colour at each square
    dark_model: FloatArray  # (64, 3) the dark-square colour at each square
    features: FloatArray  # (64, FEATURES)
    light_squares: npt.NDArray[np.bool_]  # (64,) which squares are light
    foot_unlike: npt.NDArray[np.bool_]  # (64, f) footprint pixels unlike the empty board
    # with a reference: what of this frame the empty board shows too (printed_on_board)
    printed: tuple[npt.NDArray[np.intp], FloatArray] | None = None


def gather_evidence(config: VisionConfig, sampler: SquareSampler, warped: Image,
                    reference: Image | Reference | None = None) -> Evidence:
    """Stage: measure every square of ``warped`` (made with the sampler's geometry)."""
    board = sampler.cut(warped)
    if reference is not None and not isinstance(reference, Reference):
        reference = prepare_reference(config, sampler, reference)
    if reference is not None:
        # A change of light since the reference (its colour too) is undone first.
        board = relight(sampler, board, reference.ring_log)
    lab = to_lab(board)
    if reference is None:
        board, lab, models = exposed_board(config, sampler, board, lab)
        gain = 1.0
    else:
        # The empty board's square colours, corrected for a global change of light.
        gain = mode_ratio(lab[:, 0][sampler.ring], reference.ring_l)
        scale = np.array([gain, 1.0, 1.0], np.float32)
        models = (reference.models[0] * scale, reference.models[1] * scale)
    pixels = lab[sampler.disc]
    grads = gradients(lab, board.shape)
    expected, edges, base_expected, base_edges = _expectation(
        sampler, grads, reference, models, gain)
    features = square_features(config, sampler, pixels, expected,
                               _less_texture(sampler, edges), lab[sampler.base],
                               base_expected, _less_texture(sampler, base_edges))
    if reference is None:
        features = np.concatenate(
            [_relative(sampler, features), board_outline(sampler, grads)[:, None]], axis=1)
    else:
        features = np.concatenate(
            [features, reference_features(sampler, pixels, expected, reference, grads, board)],
            axis=1)
    foot = lab[sampler.lean.footprint]
    if reference is None:
        foot_expected = np.where(sampler.light[:, None], models[0], models[1])[:, None, :]
    else:
        foot_expected = reference.foot * np.array([gain, 1.0, 1.0], np.float32)
    _ratio, foot_d2, _shadowed = shadow_distances(config, foot, foot_expected)
    foot_unlike = foot_d2 > np.float32(config.lean.foot_unlike ** 2)
    return Evidence(lab, pixels, expected, models[0], models[1], features, sampler.light,
                    foot_unlike,
                    None if reference is None or not config.marks.fused_reference_tiles
                    else printed_on_board(sampler, lab, models, reference.marks, scale))


def unexplained(config: VisionConfig, sampler: SquareSampler,
                evidence: Evidence) -> npt.NDArray[np.bool_]:
    """Squares (64,) whose change from the board neither a shadow nor lit
    board explains, in either half of the disc: a shadow (pixels unlike the
    board by 10 Lab units, but like it darkened as a shadow darkens it) in
    outline_shadow_fraction of a half, or lit board (lighter than the board's
    model by a factor in outline_lit_ratio, its colour within
    outline_lit_chroma) in outline_lit_fraction of both halves. Hard shadows
    have curved edges, and between them the board looks lit. A white piece
    on a dark square is far lighter than lit board, and on a light square whiter.
    """
    pixels, expected = evidence.pixels, evidence.expected
    ratio, raw_d2, shadowed_d2 = shadow_distances(config, pixels, expected)
    shadow_px = (raw_d2 > 100.0) & (shadowed_d2 <= 36.0)
    chroma = np.hypot(pixels[..., 1] - expected[..., 1], pixels[..., 2] - expected[..., 2])
    low, high = config.outline.outline_lit_ratio
    lit_px = (ratio > low) & (ratio < high) & (chroma < config.outline.outline_lit_chroma)
    halves = np.stack([shadow_px, lit_px], axis=1).astype(np.float32) @ sampler.halves
    shadow = halves[:, 0].max(axis=1) >= config.outline.outline_shadow_fraction
    lit = halves[:, 1].min(axis=1) >= config.outline.outline_lit_fraction
    return np.asarray(~shadow & ~lit)
