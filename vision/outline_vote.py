"""Without a reference: the board's sure squares settle its unsure ones by outline.

Seen from above, a piece shows a round outline wherever it stands on its
square, and an empty square of a real board shows none; but how strong an
outline is depends on the set, the board and the light, so no level fits
every board. The board itself shows it: its sure squares (the occupancy
network's logit far below or above 0) give the outline of an empty square
and of a piece on this board, for each square colour on its own (grain
differs between them).

An unsure square whose outline is at most ``outline_empty_factor`` times the
strongest outline of a sure empty square of its colour, and below the piece
level, is empty. One whose
outline is at least ``outline_piece_factor`` times the weakest of a sure
piece (``outline_no_piece`` when that colour has none) is a piece, but only
where the outline divides all squares of that colour cleanly (none lies
between the two levels) and nothing else explains it: no piece on a
neighbouring square leans over it (its top), no shadow and no lit board
between shadows shows on it (:func:`vision.features.unexplained`; hard
shadows have curved edges too).

Real photographs taken from above divide cleanly (in the 13 sample photos no
square lies between the two levels); synthetic scenes under a low, hard light
seldom do, and there the rule stays out of the way.
"""

from __future__ import annotations

import logging

import numpy as np
import numpy.typing as npt

from vision.config import VisionConfig

LOGGER = logging.getLogger(__name__)

FloatArray = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]


def outline_vote(config: VisionConfig, logit: FloatArray, occupied: BoolArray,
                 outline: FloatArray, light: BoolArray, covers: BoolArray,
                 unexplained: BoolArray) -> BoolArray:
    """Stage: ``occupied`` (64,) with its unsure squares settled by ``outline``.

    ``logit`` is the occupancy network's (64,), ``outline`` the round-outline
    evidence of :func:`vision.features.board_outline`, ``light`` which squares
    are light, ``covers`` the lean table (``SquareSampler.covers``) and
    ``unexplained`` the squares whose change neither a shadow nor lit board
    explains (only those may become pieces).
    """
    empty_logit, piece_logit = config.outline.outline_sure_logits
    unsure = (logit > empty_logit) & (logit < piece_logit)
    out = occupied.copy()
    if not unsure.any():
        return out
    leaned_over: BoolArray = np.asarray(covers[occupied].any(axis=0))
    for colour in (light, ~light):
        sure_empty = colour & (logit <= empty_logit)
        sure_piece = colour & (logit >= piece_logit) & occupied
        if not sure_empty.any():
            continue
        settings = config.outline
        empty_level = settings.outline_empty_factor * max(float(outline[sure_empty].max()),
                                                          settings.outline_floor)
        piece_level = settings.outline_piece_factor * (
            float(outline[sure_piece].min()) if sure_piece.any() else settings.outline_no_piece)
        if empty_level >= piece_level:
            continue
        clean = not (colour & (outline > empty_level) & (outline < piece_level)).any()
        for square in np.flatnonzero(unsure & colour):
            if (clean and not out[square] and outline[square] >= piece_level
                    and unexplained[square] and not leaned_over[square]):
                LOGGER.debug("square %d: a piece by its outline (logit %.2f)", square,
                             logit[square])
                out[square] = True
            elif out[square] and outline[square] <= empty_level:
                LOGGER.debug("square %d: empty by its outline (logit %.2f)", square,
                             logit[square])
                out[square] = False
    return np.asarray(out)
