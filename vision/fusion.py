"""With a reference: the square network and the reference read together
(:func:`read_fused`), and the network's label on squares a nearer piece's silhouette
reaches (:func:`net_under_tops`, off as shipped)."""

from __future__ import annotations

import logging

import numpy as np

from vision.config import VisionConfig
from vision.features import Evidence
from vision.geometry import Image
from vision.leaning import fuse_by_base
from vision.net_reading import logits_of, net_logits
from vision.sampling import SquareSampler
from vision.square_net import CLASSES, piece_log_odds, square_inputs
from vision.square_reading import EMPTY, FloatArray, SquareReading

LOGGER = logging.getLogger(__name__)

def read_fused(config: VisionConfig, sampler: SquareSampler, evidence: Evidence,
               change_logit: FloatArray) -> SquareReading:
    """Stage (with a reference, ``config.nets.reference_reader == "fused"``):
    occupancy from the square network's log-odds and the reference's change
    logit together (:func:`vision.leaning.fuse_by_base`); an occupied square's
    colour is the network's likeliest piece class. The network reads the
    frame as the evidence saw it (its light's colour undone), each square
    less the reference's empty colour there (corrected for a change of
    lightness), not colours fitted again to this frame. ``occupancy`` in the
    reading is the fused log-odds."""
    side = sampler.crop
    own = np.where(sampler.light[:, None], evidence.light_model, evidence.dark_model)
    lab = evidence.lab
    if evidence.printed is not None:  # (gather_evidence leaves it None when switched off)
        pixels, printed = evidence.printed
        lab = lab.copy()
        lab[pixels] -= printed
    logits = logits_of(square_inputs(sampler.tiles, lab.reshape(side, side, 3),
                                     own.astype(np.float32)), False, config.nets.game_nets)
    occupied, fused = fuse_by_base(sampler.lean, piece_log_odds(logits), change_logit,
                                   config.fusion.fused_reference_weight,
                                   config.fusion.fused_hidden_bias)
    piece = logits[:, 1:].argmax(axis=1) + 1
    labels = "".join(CLASSES[k] if on else EMPTY
                     for k, on in zip(piece, occupied, strict=True))
    grid = tuple(labels[row * 8:(row + 1) * 8] for row in range(8))
    return SquareReading(grid, tuple(float(v) for v in fused))


def net_under_tops(config: VisionConfig, sampler: SquareSampler, warped: Image,
                   labels: list[str], lab: FloatArray | None = None) -> list[str]:
    """Stage (with a reference): the squares that a nearer piece's silhouette
    reaches (vision.leaning) take the square network's label where it is sure
    (its log-odds of a piece beyond +-net_under_tops_logit). The reference
    shows that something changed there, not whether it is a piece's base or
    the top of the piece in front; the network, which sees each square's tile
    turned along its lean, learned that from the synthetic scenes."""
    occupied = np.array([label != EMPTY for label in labels])
    reached = np.flatnonzero(sampler.lean.reaches[occupied].any(axis=0))
    if not len(reached):
        return labels
    logits = net_logits(config, sampler, warped, reached, lab)
    sure = np.abs(piece_log_odds(logits)) > config.fusion.net_under_tops_logit
    out = list(labels)
    for square, index, take in zip(reached, logits.argmax(axis=1), sure, strict=True):
        if take:
            out[square] = CLASSES[index]
    return out
