"""One photo's pieces split into two armies by the photo itself.

The square network reads each square alone. On a set it has never seen, its
white-against-black scores for one photo are often shifted as a whole: every
brown piece of an unfamiliar wooden set scores a little nearer "white", or
every boxwood piece nearer "black". The order within the photo is mostly
right even then: the two armies still stand apart. So a photo read without a
reference takes the colour threshold from where its own occupied squares'
white-against-black scores split, as a person tells a strange set's two
woods apart by comparing its pieces with each other.

Only a photo in which the network is already sure of some pieces of each
army is split: one army's pieces alone spread enough that a split of them
would often be taken (of 376 single armies on the development photos, 245
were split without this guard, 5 with it).

A split is the cut of the sorted scores with the largest between-group
separation (Otsu's criterion: the distance between the groups' means over
their pooled spread), less a small penalty per unit the threshold moves
from 0, so a photo's tail is not cut off as a group of its own. It is used
only where that separation is at least ``config.photo.split_separation``.

The network scores a piece's colour against its square's, so on an unfamiliar
wooden set a brown piece on a dark square can score "white". Where the colour
split acts, each piece's own lightness (``square_net.tile_lightness``: the
median Lab L of the footprint pixels that differ from the empty square) joins
the scores: both are scaled by their spread in the photo and added, and the
sum decides where it separates the photo's pieces more clearly than the
scores alone (Otsu's criterion again). Where it does not (glossy black
plastic, whose changed pixels are its highlights), the scores decide.

Occupancy is split the same way, but only downwards and with its own
guard. On a set it has never seen, the network misses pieces it should see:
their log-odds of a piece fall a little below 0 (mostly -5 to 0) while the
photo's empty squares stay far below (-8 and less), so the photo's 64
log-odds still split, lower than 0. The threshold moves there only where the
network is already sure of several pieces (``config.photo.split_occupancy_sure_count``
beyond ``config.photo.split_occupancy_sure``) and never below
``config.photo.split_occupancy_lowest``: without that guard, the grain and veins of
an empty board never trained on (the marble board left out of training) split
off as pieces (76 squares wrong, 145 split); its photos have at most four sure
false pieces, so with it they stay at 76.
"""

from __future__ import annotations

import logging

import numpy as np
import numpy.typing as npt

from vision.config import VisionConfig
from vision.square_net import piece_log_odds

LOGGER = logging.getLogger(__name__)

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.intp]

SPREAD_FLOOR = 0.5  # added to the pooled spread: two tight groups a hair apart are no split
LIGHTNESS_MIN_EACH = 2  # pieces each army needs in the split by lightness and scores


def _cuts(values: npt.ArrayLike, min_each: int, floor: float
          ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None:
    """For every cut of the sorted ``values`` leaving at least ``min_each`` on
    each side: the distance between the two groups' means over their pooled
    spread (plus ``floor``), and the threshold between them; None when there
    are too few values."""
    ordered = np.sort(np.asarray(values, np.float64))
    n = len(ordered)
    if n < 2 * min_each or n < 2:
        return None
    cuts = np.arange(max(min_each, 1), n - max(min_each, 1) + 1)
    total = np.cumsum(ordered)
    squares = np.cumsum(ordered ** 2)
    below_n = cuts.astype(np.float64)
    above_n = n - below_n
    below_mean = total[cuts - 1] / below_n
    above_mean = (total[-1] - total[cuts - 1]) / above_n
    # n * pooled variance = sum of squares about each group's own mean
    inner = (squares[-1] - below_n * below_mean ** 2 - above_n * above_mean ** 2)
    spread = np.sqrt(np.maximum(inner, 0.0) / n) + floor
    ratio = (above_mean - below_mean) / spread
    return ratio, (ordered[cuts - 1] + ordered[cuts]) / 2


def split_threshold(values: npt.ArrayLike, *, separation: float, penalty: float,
                    lowest: float, highest: float, min_each: int = 1) -> float:
    """Where ``values`` split into two groups, or 0.0 when they do not split
    clearly (separation below ``separation``), the split lies outside
    [``lowest``, ``highest``], or either group would hold fewer than ``min_each``."""
    found = _cuts(values, min_each, SPREAD_FLOOR)
    if found is None:
        return 0.0
    ratio, thresholds = found
    best = int(np.argmax(ratio - penalty * np.abs(thresholds)))
    threshold = float(thresholds[best])
    if ratio[best] < separation or not lowest <= threshold <= highest:
        return 0.0
    return threshold


def best_separation(values: npt.ArrayLike, min_each: int = 2) -> float:
    """How clearly ``values`` split in two at best (the largest ratio of
    :func:`split_threshold`'s criterion, with no floor), 0.0 for too few values."""
    found = _cuts(values, min_each, 1e-9)
    return 0.0 if found is None else float(found[0].max())


def occupancy_threshold(config: VisionConfig, piece_odds: npt.ArrayLike) -> float:
    """The piece log-odds above which one photo's squares hold a piece: 0, or
    lower where the network is sure of ``config.photo.split_occupancy_sure_count``
    pieces and the photo's 64 log-odds split clearly between
    ``config.photo.split_occupancy_lowest`` and 0 (module docstring)."""
    odds = np.asarray(piece_odds, np.float64)
    if (odds > config.photo.split_occupancy_sure).sum() < config.photo.split_occupancy_sure_count:
        return 0.0
    threshold = split_threshold(odds, separation=config.photo.split_separation, penalty=0.0,
                                lowest=config.photo.split_occupancy_lowest, highest=0.0)
    if threshold:
        LOGGER.debug("photo split: occupancy at %.2f", threshold)
    return threshold


def _split_with_lightness(config: VisionConfig, labels: IntArray, armies: IntArray,
                          whiteness: FloatArray, lightness: FloatArray) -> None:
    """Where the pieces' own lightness (``square_net.tile_lightness``) and the
    network's white-against-black scores, each scaled by its spread in the photo
    and added, split the photo's pieces more clearly than the scores alone, the
    pieces with a lightness take their colour from that sum's split (``labels``
    changed in place)."""
    known = ~np.isnan(lightness)
    if known.sum() < 2 * LIGHTNESS_MIN_EACH:
        return
    light = lightness[known] - np.median(lightness[known])
    scores = whiteness[known] / (np.std(whiteness[known]) + 1e-6)
    both = light / (np.std(light) + 1e-6) + scores
    if best_separation(both, LIGHTNESS_MIN_EACH) < best_separation(scores, LIGHTNESS_MIN_EACH):
        return
    cut = split_threshold(both, separation=config.photo.split_separation, penalty=0.0,
                          lowest=-np.inf, highest=np.inf, min_each=LIGHTNESS_MIN_EACH)
    if cut:
        labels[armies[known]] = np.where(both > cut, 1, 2)
        LOGGER.debug("photo split: colour by lightness and scores at %.2f", cut)


def _sure_of_both_armies(config: VisionConfig, whiteness: FloatArray) -> bool:
    """The colour split's guard: the network is sure of ``config.photo.split_sure_count``
    pieces of each army (white-against-black scores beyond +-``config.photo.split_colour_sure``)."""
    sure = config.photo.split_colour_sure
    return bool(min((whiteness > sure).sum(), (whiteness < -sure).sum())
                >= config.photo.split_sure_count)


def colours_unsure(config: VisionConfig, logits: FloatArray, labels: npt.ArrayLike) -> bool:
    """Whether a photo's colours are unsure: it reads at least
    ``config.photo.colours_unsure_pieces`` white or black pieces (``labels``, class
    indices) and the network is sure of too few of one army for the photo's colour
    split to act, so each piece's colour is the network's alone. On a set or in a
    light it has not seen, that is where whole armies are read in the other colour
    (a washed-out photo's boxwood pieces all read black)."""
    labels = np.asarray(labels)
    armies = np.flatnonzero((labels == 1) | (labels == 2))
    if len(armies) < config.photo.colours_unsure_pieces:
        return False
    logits = np.asarray(logits, np.float32)
    return not _sure_of_both_armies(config, logits[armies, 1] - logits[armies, 2])


def split_labels(config: VisionConfig, logits: FloatArray,
                 lightness: FloatArray | None = None) -> tuple[IntArray, FloatArray]:
    """Class indices (64,) for one photo's square-network logits (64, 4: empty,
    white, black, blue): a square holds a piece where its log-odds of one are
    above 0, and a white or black piece's colour is decided by the photo's
    own split (module docstring); blue pieces keep their class. With
    ``config.photo.split_occupancy`` a square holds a piece above the photo's own
    occupancy threshold instead (:func:`occupancy_threshold`). ``lightness``
    (64,; NaN where unknown), each piece's own lightness, joins the colour
    split with ``config.photo.split_lightness`` (module docstring). Also each
    square's log-odds of a piece less that threshold: above 0 exactly where a
    piece is read."""
    logits = np.asarray(logits, np.float32)
    piece_odds = piece_log_odds(logits)
    piece = logits[:, 1:].argmax(axis=1) + 1
    threshold = occupancy_threshold(config, piece_odds) if config.photo.split_occupancy else 0.0
    labels = np.where(piece_odds > threshold, piece, 0)
    armies = np.flatnonzero((labels == 1) | (labels == 2))
    whiteness = logits[armies, 1] - logits[armies, 2]
    if _sure_of_both_armies(config, whiteness):
        colour = split_threshold(whiteness, separation=config.photo.split_separation,
                                 penalty=config.photo.split_penalty, lowest=-np.inf,
                                 highest=np.inf, min_each=config.photo.split_colour_min_each)
        labels[armies] = np.where(whiteness > colour, 1, 2)
        LOGGER.debug("photo split: colour at %.2f", colour)
        if lightness is not None and config.photo.split_lightness:
            _split_with_lightness(config, labels, armies, whiteness, lightness[armies])
    return np.asarray(labels, np.intp), np.asarray(piece_odds - threshold, np.float32)
