"""The colour of each occupied square's piece, read by the hand-made features: blue by
hue, else white or black by its lightness, split between the frame's two groups of pieces
(:func:`piece_colours`, :func:`white_thresholds`, :func:`two_groups`); and, with a
reference, a top read as the piece in front's own colour (:func:`explain_tops`)."""

from __future__ import annotations

import logging

import numpy as np
import numpy.typing as npt

from vision.config import VisionConfig
from vision.features import Evidence
from vision.sampling import SquareSampler, row_medians
from vision.square_reading import BLACK, BLUE, EMPTY, WHITE, FloatArray, IntArray
from vision.tops import covered_by_neighbours

LOGGER = logging.getLogger(__name__)

def piece_colours(config: VisionConfig, sampler: SquareSampler, evidence: Evidence,
             occupied: npt.NDArray[np.bool_]) -> tuple[list[str], FloatArray]:
    """Colour of the occupied squares: blue by hue, then white or black by
    :func:`piece_lightness`, split between the two groups (:func:`white_thresholds`).
    Returns the labels and, per square, the lightness above which a piece is white.

    A piece that a neighbour's piece leans over (see covered_by_neighbours) is
    measured on the far half of its disc only: the near half may show the
    neighbour's top, which is often of the other colour.
    """
    labels = [EMPTY] * 64
    which = np.flatnonzero(occupied)
    if not len(which):
        return labels, np.full(64, config.colour.white_ratio, np.float32)
    pixels = evidence.pixels[which]
    chroma = np.hypot(pixels[..., 1], pixels[..., 2])
    hue = np.degrees(np.arctan2(pixels[..., 2], pixels[..., 1])) % 360
    lo, hi = config.colour.blue_hue_range
    blue_px = ((chroma > config.colour.blue_min_chroma) & (hue >= lo) & (hue <= hi)
               & (pixels[..., 0] > config.colour.blue_min_lightness))
    blue = np.zeros(64, bool)
    blue[which] = blue_px.mean(axis=1) > config.colour.blue_fraction
    covered = covered_by_neighbours(sampler, occupied)
    lightness = piece_lightness(config, evidence, np.flatnonzero(occupied & ~covered))
    if covered.any():
        far_half = sampler.halves[:, :, 0] > 0
        lightness += piece_lightness(config, evidence, np.flatnonzero(covered), far_half)
    threshold = white_thresholds(config, lightness, occupied & ~blue, evidence.light_squares)
    for i in which:
        if blue[i]:
            labels[i] = BLUE
        else:
            labels[i] = WHITE if lightness[i] > threshold[i] else BLACK
    return labels, threshold


def explain_tops(config: VisionConfig, sampler: SquareSampler, evidence: Evidence,
                 logit: FloatArray, labels: list[str], white_above: FloatArray) -> list[str]:
    """Stage (with a reference): ``labels`` less the squares that show only a
    neighbour's top.

    A white or black square with weak evidence (logit below
    top_explain_logit) that a far stronger neighbour (by top_explain_gap)
    leans over is read empty when its whole disc shows that neighbour's
    colour (lighter than ``white_above`` for white): a top shows its own
    piece's colour, never another.
    """
    occupied = np.array([label != EMPTY for label in labels])
    tops = (covered_by_neighbours(sampler, occupied) & (logit < config.lean.top_explain_logit)
            & np.array([label in (WHITE, BLACK) for label in labels]))
    whole = piece_lightness(config, evidence, np.flatnonzero(tops))
    out = list(labels)
    for i in np.flatnonzero(tops):
        shown = WHITE if whole[i] > white_above[i] else BLACK
        stronger = (occupied & (logit > logit[i] + config.lean.top_explain_gap)
                    & sampler.covers[:, i])
        if any(labels[other] == shown for other in np.flatnonzero(stronger)):
            out[i] = EMPTY
    return out


def _split(config: VisionConfig, values: FloatArray) -> float | None:
    """The threshold between two clear groups of ``values``, or None."""
    split = two_groups(values)
    if split is None:
        return None
    middle, separation = split
    lo_mid, hi_mid = config.colour.white_split_range
    return middle if separation >= config.colour.white_gap and lo_mid <= middle <= hi_mid else None


def white_thresholds(config: VisionConfig, lightness: FloatArray,
                     pieces: npt.NDArray[np.bool_], light_squares: npt.NDArray[np.bool_]
                     ) -> FloatArray:
    """Per square, the piece lightness above which a piece is white.

    A piece on a light square looks darker by this measure than the same piece
    on a dark one (its shaded side is what differs most from the square), so
    the pieces on each square colour are split in two groups on their own when
    at least ``colour_split_min`` stand there and the groups are clear; else
    all pieces of the frame are split together; else ``white_ratio`` holds.
    """
    whole = _split(config, lightness[pieces])
    out = np.full(64, config.colour.white_ratio if whole is None else whole, np.float32)
    for colour in (True, False):
        here = pieces & (light_squares == colour)
        if here.sum() >= config.colour.colour_split_min:
            own = _split(config, lightness[here])
            if own is not None:
                out[light_squares == colour] = own
    return out


LIGHTNESS_FLOOR = 0.1  # piece lightness below this is black alike (and logs stay finite)


def two_groups(values: FloatArray) -> tuple[float, float] | None:
    """Otsu's split of positive ``values`` into a low and a high group, on their
    logarithms (lightness is reflectance times light, so groups differ by
    factors): the threshold and how far apart the groups are (the log gap between
    their nearest members plus half the difference of their log means); None
    unless each group can have two members."""
    if len(values) < 4:
        return None
    ordered = np.log(np.sort(np.maximum(values.astype(np.float64), LIGHTNESS_FLOOR)))
    n = len(ordered)
    sizes = np.arange(2, n - 1)
    sums = np.cumsum(ordered)[1:-2]
    low_mean = sums / sizes
    high_mean = (ordered.sum() - sums) / (n - sizes)
    between = sizes * (n - sizes) * (high_mean - low_mean) ** 2
    best = int(np.argmax(between))
    lo, hi = low_mean[best], high_mean[best]
    # The threshold goes in the widest gap between the two groups' means,
    # leaving each group at least two members.
    at = best + 1  # ordered[at] is the last of the low group
    inside = np.flatnonzero((ordered[1:n - 2] >= lo) & (ordered[2:n - 1] <= hi)) + 1
    if len(inside):
        at = int(inside[np.argmax(ordered[inside + 1] - ordered[inside])])
    gap = ordered[at + 1] - ordered[at]
    separation = float(gap + 0.5 * (hi - lo))
    return float(np.exp((ordered[at] + ordered[at + 1]) / 2)), separation


def piece_lightness(config: VisionConfig, evidence: Evidence,
                    which: IntArray | None = None,
                    part: npt.NDArray[np.bool_] | None = None) -> FloatArray:
    """Per square: the lightness of the pixels least like the empty board there,
    relative to the light squares nearby (a black piece's are dark even on a
    light square, a white piece's light even on a dark one).

    Only the squares ``which`` (default all) are measured; the others are 0.
    ``part`` (64, disc pixels), if given, limits each square to those pixels.
    """
    which = np.arange(64) if which is None else which
    out = np.zeros(64, np.float32)
    if not len(which):
        return out
    pixels = evidence.pixels[which]
    expected = evidence.expected[which]
    distance = np.zeros(pixels.shape[:2], np.float32)
    for channel in range(3):
        distance += np.square(pixels[..., channel] - expected[..., channel])
    size = pixels.shape[1]
    if part is not None:
        distance[~part[which]] = -1.0  # never among the least like the board
        size = int(part[which].sum(axis=1).min())
    count = max(1, int(size * config.colour.colour_fraction))
    index = np.argpartition(-distance, count - 1, axis=1)[:, :count]
    chosen = np.take_along_axis(pixels[..., 0], index, axis=1)
    out[which] = row_medians(chosen) / np.maximum(evidence.light_model[which, 0], 5.0)
    return out
