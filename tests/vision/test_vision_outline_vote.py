"""The outline vote: a board's sure squares settle its unsure ones by outline."""

from __future__ import annotations

import numpy as np
import pytest

from vision.config import VisionConfig
from vision.features import Evidence, unexplained
from vision.geometry import BoardGeometry
from vision.outline_vote import outline_vote
from vision.sampling import make_sampler

CONFIG = VisionConfig()
LIGHT = np.array([(i // 8 + i % 8) % 2 == 0 for i in range(64)])
NO_COVERS = np.zeros((64, 64), bool)
ALL_UNEXPLAINED = np.ones(64, bool)


def board(pieces: dict[int, float] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Logits, occupancy and outlines of a clean board: sure empty squares with
    a faint outline, sure pieces (square -> outline) with a clear one."""
    logit = np.full(64, -10.0, np.float32)
    outline = np.full(64, 0.04, np.float32)
    for square, level in (pieces or {}).items():
        logit[square], outline[square] = 8.0, level
    return logit, logit > 0, outline


def vote(logit: np.ndarray, occupied: np.ndarray, outline: np.ndarray,
         covers: np.ndarray = NO_COVERS, free: np.ndarray = ALL_UNEXPLAINED,
         config: VisionConfig = CONFIG) -> np.ndarray:
    return outline_vote(config, logit, occupied, outline, LIGHT, covers, free)


DARK_PIECES = {1: 1.2, 3: 1.0, 5: 1.4, 10: 1.1}  # b8 d8 f8 c7: dark squares


def test_an_unsure_square_with_a_pieces_outline_is_a_piece() -> None:
    logit, occupied, outline = board(DARK_PIECES)
    logit[8], outline[8] = -3.6, 1.1  # a7, dark: the network missed it
    out = vote(logit, occupied, outline)
    assert out[8]
    assert (out == (occupied | (np.arange(64) == 8))).all()


def test_an_unsure_square_with_an_empty_outline_is_empty() -> None:
    logit, occupied, outline = board(DARK_PIECES)
    logit[40], occupied[40], outline[40] = 0.3, True, 0.1  # a3, dark: grain read as a piece
    assert not vote(logit, occupied, outline)[40]


def test_each_square_colour_is_settled_on_its_own() -> None:
    logit, occupied, outline = board(DARK_PIECES | {0: 1.2, 2: 1.3})
    logit[8], outline[8] = -3.6, 1.1  # a7, dark
    logit[16], outline[16] = -3.0, 1.5  # a6, light
    outline[24] = 0.4  # a sure empty dark square with some outline: dark empty level
    # 3 x 0.4 is above the dark pieces' 0.6 x 1.0, so the outline does not divide them
    out = vote(logit, occupied, outline)
    assert not out[8]
    assert out[16]


def test_a_square_between_the_levels_stops_promotions_not_demotions() -> None:
    logit, occupied, outline = board(DARK_PIECES)
    logit[8], outline[8] = -3.6, 1.1  # a7, dark: would become a piece
    logit[26], outline[26] = -2.0, 0.3  # c5, dark: above 3 x 0.04, below 0.6 x 1.0
    logit[40], occupied[40], outline[40] = 0.3, True, 0.1  # a3, dark: empty by its outline
    out = vote(logit, occupied, outline)
    assert not out[8] and not out[26]
    assert not out[40]


def test_a_neighbours_top_or_an_explained_change_does_not_become_a_piece() -> None:
    logit, occupied, outline = board(DARK_PIECES)
    logit[8], outline[8] = -3.6, 1.1
    covers = NO_COVERS.copy()
    covers[1, 8] = True  # the piece on b8 leans over a7
    assert not vote(logit, occupied, outline, covers=covers)[8]
    free = ALL_UNEXPLAINED.copy()
    free[8] = False  # a7's change is a shadow's, or lit board
    assert not vote(logit, occupied, outline, free=free)[8]


def test_an_empty_board_uses_the_no_piece_level() -> None:
    logit, occupied, outline = board()
    logit[40], occupied[40], outline[40] = 0.3, True, 0.1
    assert not vote(logit, occupied, outline).any()
    logit[40], occupied[40], outline[40] = -1.0, False, 0.9  # above 0.6 x outline_no_piece
    assert vote(logit, occupied, outline)[40]
    high = CONFIG.replace(outline_no_piece=2.0)
    assert not vote(logit, occupied, outline, config=high).any()


@pytest.mark.parametrize("logit", [-5.0, 3.0])
def test_only_unsure_squares_are_settled(logit: float) -> None:
    logits, occupied, outline = board(DARK_PIECES)
    logits[8], outline[8] = logit, 0.04 if logit > 0 else 1.1
    occupied = logits > 0
    assert (vote(logits, occupied, outline) == occupied).all()


def test_what_explains_a_change() -> None:
    sampler = make_sampler(CONFIG, BoardGeometry(((0, 0), (256, 0), (256, 256), (0, 256)),
                                                 (256, 256)))
    n = sampler.disc.shape[1]
    expected = np.zeros((64, 1, 3), np.float32)
    expected[:] = (45.0, 8.0, 20.0)  # walnut, Lab
    pixels = np.repeat(expected, n, axis=1).copy()
    rng = np.random.default_rng(1)
    pixels[0, :, 1:] += rng.uniform(-6, 6, (n, 2))  # a brown pawn on walnut: near, but not it
    far = sampler.halves[1, :, 0] > 0
    pixels[1, far] *= 0.7  # a shadow over half the disc: darker, the same colour
    pixels[2, :, 0] *= 1.25  # lit board: lighter, the same colour
    pixels[3, :, :] = (95.0, 0.0, 5.0)  # a white piece on the dark square
    pixels[4, :, 0] *= 1.2
    pixels[4, :, 2] -= 15.0  # a whitish piece, a little lighter than the square
    evidence = Evidence(np.zeros(1, np.float32), pixels, expected, expected[:, 0],
                        expected[:, 0], np.zeros((64, 46), np.float32), LIGHT,
                        np.zeros((64, 1), bool))
    free = unexplained(CONFIG, sampler, evidence)
    assert free[0] and not free[1] and not free[2] and free[3] and free[4]
