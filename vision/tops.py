"""A tall piece's top over the next square: occupied squares whose weak evidence a
stronger neighbour leaning over them explains (:func:`explain_leans`), and the squares a
neighbour's piece leans over (:func:`covered_by_neighbours`)."""

from __future__ import annotations

import logging

import numpy as np
import numpy.typing as npt

from vision.sampling import SquareSampler
from vision.square_reading import FloatArray

LOGGER = logging.getLogger(__name__)

def explain_leans(sampler: SquareSampler, logit: FloatArray,
                  threshold: float) -> npt.NDArray[np.bool_]:
    """Stage: occupied squares, less weak ones a tall neighbour leans over.

    A square with weak evidence (logit below ``threshold``) next to a
    clearly occupied square whose piece, seen from this camera, leans towards
    it far enough to cover its disc, is taken to be empty: what was seen there
    is the neighbour's top.
    """
    occupied = np.asarray(logit > 0)
    for square in np.flatnonzero(occupied & (logit < threshold)):
        if sampler.covers[occupied & (logit > logit[square] + threshold), square].any():
            occupied[square] = False
    return occupied


def covered_by_neighbours(sampler: SquareSampler,
                          occupied: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Occupied squares that a piece on a neighbouring square leans over."""
    return np.asarray(occupied & sampler.covers[occupied].any(axis=0))
