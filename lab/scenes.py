"""Families of synthetic scenes for training and benchmarks, drawn with :mod:`vision.synthetic`.

Each draws from its ``rng`` alone, so a seed names the same scenes in every run:
leaning tops from a low camera, a phone held close, boards with marks printed inside
squares, pieces set off their squares' centres, and varied boards and sets unlike the
named colour schemes (wood, lamps, colour casts).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import chess
import numpy as np

from vision.synthetic import BGR, PRINT_KINDS, SCHEMES, Scene, random_scene

TALL_KINDS = (chess.QUEEN, chess.KING, chess.BISHOP)


def leaning_scene(rng: np.random.Generator) -> Scene:
    """A scene that tests leaning tops: a camera 45 to 60 degrees above the
    horizon (30 to 45 from straight down), a sparse board (10 to 30% of the
    squares) of tall pieces (bishops, queens, kings), so most stand in front
    of empty squares that their tops cover in the picture."""
    return random_scene(rng, fraction=float(rng.uniform(0.1, 0.3)), min_tilt_deg=30.0,
                        max_tilt_deg=45.0, kinds=TALL_KINDS)


def close_scene(rng: np.random.Generator) -> Scene:
    """A phone held over the table: a 4:3 picture through a wide lens (focal
    length 0.6 to 0.9 of the width) from 8 to 12 squares away (the ordinary
    scenes' cameras stand 11 to 20 away), 25 to 45 degrees from straight down,
    15 to 60% of the squares holding pieces of every kind, so the pieces lean
    far and stand in front of one another."""
    return random_scene(rng, fraction=float(rng.uniform(0.15, 0.6)), size=(960, 720),
                        min_tilt_deg=25.0, max_tilt_deg=45.0, distance_squares=(8.0, 12.0),
                        focal_widths=(0.6, 0.9))


def printed_scene(rng: np.random.Generator) -> Scene:
    """A varied scene (:func:`varied_scene`) whose board carries one to four marks
    printed inside squares, as roll-up mats and printed boards do (US Chess prints
    a chequered shield on one corner square of its mats): a chequered emblem, the
    square's name in small letters, or a ring, in the other squares' colour or a dark
    ink (:data:`PRINT_KINDS`). Each mark is on a square drawn at random, under a piece
    or not; the grid is that of the pieces alone."""
    scene = varied_scene(rng)
    count = int(rng.integers(1, 5))
    squares = rng.choice(64, size=count, replace=False)
    kinds = rng.integers(0, len(PRINT_KINDS), size=count)
    return dataclasses.replace(scene, prints={int(square): PRINT_KINDS[int(kind)]
                                              for square, kind in zip(squares, kinds,
                                                                      strict=True)})


def offset_draw(rng: np.random.Generator, spread: float) -> tuple[float, float]:
    """Where a piece set down by hand stands off its square's centre, in squares:
    N(0, ``spread``) along each axis, clipped to 2.5 spreads."""
    limit = 2.5 * spread
    dx, dy = np.clip(rng.normal(0.0, spread, 2), -limit, limit)
    return float(dx), float(dy)


def off_centre(scene: Scene, rng: np.random.Generator, spread: float) -> Scene:
    """``scene`` with each piece set off its square's centre (:func:`offset_draw`, as
    players set pieces down); the draws come from ``rng`` alone, so the scene's other
    properties stay as they were. With ``spread`` 0 the scene is returned as it is."""
    if spread <= 0:
        return scene
    offsets = {square: offset_draw(rng, spread) for square in sorted(scene.pieces)}
    return dataclasses.replace(scene, offsets=offsets)


def _jitter(rng: np.random.Generator, colour: Sequence[float], spread: float) -> BGR:
    b, g, r = (int(v) for v in np.clip(np.array(colour) * rng.uniform(1 - spread, 1 + spread, 3),
                                       0, 255))
    return b, g, r


def game_like_pieces(rng: np.random.Generator) -> dict[chess.Square, tuple[str, int]]:
    """Pieces as a game leaves them: the starting position with some pieces taken
    off and some moved a few squares forwards (rows of pieces standing one
    behind another, as real photos show)."""
    pieces: dict[chess.Square, tuple[str, int]] = {}
    keep = rng.uniform(0.4, 1.0)
    board = chess.Board()
    for square, piece in board.piece_map().items():
        if rng.random() > keep:
            continue
        colour = "white" if piece.color else "black"
        rank = chess.square_rank(square)
        if rng.random() < 0.3:
            step = int(rng.integers(1, 4))
            rank = min(rank + step, 7) if piece.color else max(rank - step, 0)
        target = chess.square(chess.square_file(square), rank)
        if target not in pieces:
            pieces[target] = (colour, piece.piece_type)
    return pieces


def varied_scene(rng: np.random.Generator) -> Scene:
    """A training scene of a board and set unlike the named schemes: half the
    time a wooden board (maple and walnut squares, their tones and grain drawn
    at random) else a named scheme with its colours moved; pieces of wood (45%
    drawn from the squares' own colours: boxwood on maple, brown on walnut; 30%
    boxwood and a brown stain or ebony) or plastic; a warm lamp, daylight or a
    colour cast; half the time a camera 25 to 50 degrees from straight down
    (then 40% of the boards set out as in a game, :func:`game_like_pieces`);
    more blur, noise and JPEG
    loss than :func:`random_scene`. Drawn from ``rng`` alone (a stream of its
    own: no benchmark set draws these)."""
    if rng.random() < 0.5:  # a phone or tripod 25 to 50 degrees from straight down
        scene = random_scene(rng, min_tilt_deg=25.0, max_tilt_deg=50.0)
        if rng.random() < 0.4:
            scene = scene.with_pieces(game_like_pieces(rng))
    else:
        scene = random_scene(rng)
    base_light, base_dark, base_frame = SCHEMES[scene.scheme]
    if rng.random() < 0.5:  # a wooden board
        light_sq = _jitter(rng, (rng.uniform(110, 175), rng.uniform(160, 210),
                                 rng.uniform(190, 240)), 0.06)
        dark_sq = _jitter(rng, (rng.uniform(25, 80), rng.uniform(45, 110),
                                rng.uniform(70, 150)), 0.1)
        frame = _jitter(rng, (rng.uniform(20, 90), rng.uniform(40, 120), rng.uniform(60, 160)),
                        0.1)
        grain = float(rng.uniform(4, 22))
    else:
        light_sq = _jitter(rng, base_light, 0.1)
        dark_sq = _jitter(rng, base_dark, 0.15)
        frame = _jitter(rng, base_frame, 0.2)
        grain = float(rng.uniform(0, 12)) if rng.random() < 0.5 else 0.0
    colours = dict(scene.piece_colors)
    style = rng.random()
    if style < 0.45:  # wooden pieces of the squares' own colours
        colours["white"] = _jitter(rng, tuple(v * rng.uniform(0.85, 1.1) for v in light_sq), 0.06)
        colours["black"] = _jitter(rng, tuple(v * rng.uniform(0.45, 1.0) for v in dark_sq), 0.08)
    elif style < 0.75:  # wooden pieces: boxwood and a brown stain or ebony
        colours["white"] = _jitter(rng, (rng.uniform(90, 170), rng.uniform(150, 205),
                                         rng.uniform(185, 240)), 0.05)
        colours["black"] = _jitter(rng, (rng.uniform(15, 60), rng.uniform(25, 85),
                                         rng.uniform(35, 120)), 0.1)
    # else plastic pieces as random_scene drew them
    lamp = rng.random()
    if lamp < 0.35:  # a warm lamp
        tint = (rng.uniform(0.7, 0.9), rng.uniform(0.9, 1.0), rng.uniform(1.05, 1.2))
    elif lamp < 0.6:  # daylight, a little blue
        tint = (rng.uniform(1.0, 1.12), rng.uniform(0.97, 1.03), rng.uniform(0.88, 1.0))
    else:
        cast = rng.uniform(0.85, 1.15, 3)
        tint = (float(cast[0]), float(cast[1]), float(cast[2]))
    return dataclasses.replace(
        scene, colours=(light_sq, dark_sq, frame), grain=grain, piece_colors=colours,
        tint=tint,
        gradient=(rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(0.6, 1.25)),
        noise=float(rng.uniform(1.0, 8.0)), blur=float(rng.uniform(0.0, 2.0)),
        jpeg_quality=int(rng.integers(30, 95)), shadow_strength=float(rng.uniform(0.2, 0.65)))

