"""Reading the 64 squares of a top-down board: empty, white, black or blue (:func:`read_squares`).

The stages, each in its own module:

- where to look on every square (:mod:`vision.sampling`: the sample disc where a piece's
  base stands, moved along its lean away from the camera; the board's own square colours);
- the light (:mod:`vision.light`: a change since the empty-board reference undone, a dim
  board brightened);
- the hand-made evidence (:mod:`vision.features`), scored by the occupancy models
  (:mod:`vision.occupancy`), less the marks printed on the board (:mod:`vision.printed_marks`);
- the learned square networks (:mod:`vision.net_reading`), alone without a reference and
  fused with the reference's evidence with one (:mod:`vision.fusion`);
- tall pieces' tops over the squares behind (:mod:`vision.tops`, :mod:`vision.leaning`),
  a board's unsure squares settled by their outline (:mod:`vision.outline_vote`);
- each piece's colour (:mod:`vision.piece_colours`; a photo's two armies split by the photo
  itself, :mod:`vision.photo_split`).
"""

from __future__ import annotations

import logging

from vision.config import VisionConfig
from vision.features import BOARD_OUTLINE, Reference, gather_evidence, unexplained
from vision.fusion import net_under_tops, read_fused
from vision.geometry import Image
from vision.leaning import settle_by_base
from vision.net_reading import read_by_net
from vision.occupancy import board_model, reference_model
from vision.outline_vote import outline_vote
from vision.piece_colours import explain_tops, piece_colours
from vision.sampling import SquareSampler
from vision.square_reading import SquareReading
from vision.tops import explain_leans

LOGGER = logging.getLogger(__name__)

def read_squares(config: VisionConfig, sampler: SquareSampler, warped: Image,
                 reference: Image | Reference | None = None) -> SquareReading:
    """Stage: classify every square of ``warped`` (made with the sampler's geometry).

    ``reference`` is an empty-board warp (or one measured by prepare_reference).

    Without a reference (and ``config.nets.board_reader == "net"``) the learned
    square network reads every square (:func:`read_by_net`); with one (and
    ``config.nets.reference_reader == "fused"``) the network and the reference
    together (:func:`read_fused`). Otherwise occupancy is scored from
    :func:`square_features` by the small networks of :mod:`vision.occupancy`
    (one for reading against a reference, one without), then the lean rules
    and :func:`vision.leaning.settle_by_base`. ``occupancy`` in the reading is
    that score's logit (> 0: occupied).
    """
    if reference is None and config.nets.board_reader == "net":
        return read_by_net(config, sampler, warped)
    evidence = gather_evidence(config, sampler, warped, reference)
    model = reference_model() if reference is not None else board_model()
    logit = model.logit(evidence.features)
    if reference is not None and config.nets.reference_reader == "fused":
        return read_fused(config, sampler, evidence, logit)
    threshold = config.lean.lean_explain_logit if reference is not None \
        else config.lean.lean_explain_logit_board
    occupied = explain_leans(sampler, logit, threshold)
    # Without a reference a piece's base is told from the board by its colour
    # only, which a boxwood piece on a maple square hardly changes (real photos):
    # there only the squares hidden behind a nearer piece are settled.
    # With one, a hidden square keeps a colour no piece in front of it has.
    before = occupied
    occupied = settle_by_base(config, sampler.lean, occupied,
                              evidence.foot_unlike if reference is not None else None, logit,
                              config.lean.foot_hidden_logit if reference is not None
                              else config.lean.foot_hidden_logit_board,
                              (lambda: piece_colours(config, sampler, evidence, before)[0])
                              if reference is not None else None)
    if reference is None:
        occupied = outline_vote(config, logit, occupied, evidence.features[:, BOARD_OUTLINE],
                                sampler.light, sampler.covers,
                                unexplained(config, sampler, evidence))
    labels, white_above = piece_colours(config, sampler, evidence, occupied)
    if reference is not None:
        labels = explain_tops(config, sampler, evidence, logit, labels, white_above)
        if config.fusion.net_under_tops:
            labels = net_under_tops(config, sampler, warped, labels, evidence.lab)
    grid = tuple("".join(labels[row * 8:(row + 1) * 8]) for row in range(8))
    return SquareReading(grid, tuple(float(v) for v in logit))
