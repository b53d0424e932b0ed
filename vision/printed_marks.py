"""Marks printed on the board itself (a mat's emblem, coordinates in the squares): where
an empty board departs from its square colours (:func:`departures`), so that, read with
that empty board as the reference, what it shows too is taken away from a frame's tiles
(:func:`printed_on_board`) and is never read as a piece."""

from __future__ import annotations

import dataclasses
import logging

import cv2
import numpy as np
import numpy.typing as npt

from vision.sampling import SquareSampler, square_of_pixel
from vision.square_reading import FloatArray

LOGGER = logging.getLogger(__name__)

@dataclasses.dataclass(frozen=True, eq=False)
class PrintedMarks:
    """The pixels of an empty board's crop where something is printed on it (its
    :func:`departures` not zero), each pixel's square, and the least and greatest
    departure near it (k, 3 each)."""

    pixels: npt.NDArray[np.intp]
    squares: npt.NDArray[np.intp]
    low: FloatArray
    high: FloatArray


def printed_marks(sampler: SquareSampler, spans: FloatArray) -> PrintedMarks:
    """The pixels where :func:`departures` ``spans`` (2, crop * crop, 3) are not zero."""
    pixels = np.flatnonzero(np.abs(spans).max(axis=(0, 2)) > 0)
    index, _keep = square_of_pixel(sampler)
    return PrintedMarks(pixels, index[pixels], spans[0][pixels], spans[1][pixels])


def departures(sampler: SquareSampler, lab: FloatArray, models: tuple[FloatArray, FloatArray],
               shift: int, least: float = 0.0) -> FloatArray:
    """What is printed or grown on an empty board itself (2, crop * crop, 3): its Lab
    less the square models (its own square's colour at each pixel), the least and the
    greatest of that within ``shift`` pixels (per channel), so that a picture a pixel
    or two off the empty one still finds its marks' departures. Zero within 2 pixels of
    a grid line, where a pixel's shift moves a border, and outside the squares."""
    index, keep = square_of_pixel(sampler)
    own = np.where(sampler.light[:, None], models[0], models[1])[index]
    away = lab - own
    if least > 0:  # only marks: fainter departures (grain, noise) are left in the tiles
        keep = keep & (np.abs(away).max(axis=1) >= least)
    away = np.where(keep[:, None], away, 0.0).astype(np.float32)
    if shift <= 0:
        return np.stack([away, away])
    side = sampler.crop
    window = np.ones((2 * shift + 1, 2 * shift + 1), np.uint8)
    grid = away.reshape(side, side, 3)
    low = cv2.erode(grid, window).reshape(-1, 3)
    high = cv2.dilate(grid, window).reshape(-1, 3)
    return np.stack([np.where(keep[:, None], low, 0.0),
                     np.where(keep[:, None], high, 0.0)]).astype(np.float32)


def printed_on_board(sampler: SquareSampler, lab: FloatArray, models: tuple[FloatArray, FloatArray],
                     marks: PrintedMarks, scale: FloatArray
                     ) -> tuple[npt.NDArray[np.intp], FloatArray] | None:
    """What of a frame's Lab (crop * crop, 3) the empty board shows too, as (pixels,
    Lab to take away there): each marked pixel's departure from its square's colour, per
    channel, as far as it lies within the marks' departures near it (brought to this
    frame's light by ``scale``). None where the board has no marks."""
    if not len(marks.pixels):
        return None
    own = np.where(sampler.light[:, None], models[0], models[1])[marks.squares]
    return marks.pixels, np.asarray(np.clip(lab[marks.pixels] - own, marks.low * scale,
                                            marks.high * scale), np.float32)
