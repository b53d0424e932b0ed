"""Raindropchess games watched by the camera, judged by BoardSync.

A game is drawn at random with the engine (flips, drops and moves), rendered with a
hand reaching in for every action and with events while the board rests (light
changes, shadows, a knocked camera, a hand hovering), read by ``CameraBoardReader``
with its empty-board reference, and every snapshot goes to ``BoardSync``. Whole games
are the benchmark's: ``python -m benchmarks.bench_camera_games`` (seeds 0 to 11 and
100 to 111 for the figures, and the watched games of its scenarios with ``--seeds
1,11,602,605,606,809 --off-centre 0``; docs/PERFORMANCE.md, "Camera reader"). Here the
first actions of one of them, as a guard.
"""

from __future__ import annotations

import dataclasses

import chess
import numpy as np

from benchmarks.bench_camera_games import (
    Pace,
    judge,
    placing_offsets,
    random_game,
    read_snapshots,
    render_game,
)
from vision.config import VisionConfig


def test_a_pale_piece_the_camera_cannot_call_is_asked_about_and_the_game_goes_on() -> None:
    """The first five actions of watched game 606: White's rook is put down on c6, cream on a
    cream square; the reference sees almost no change and the network is unsure, so it is
    never read. The camera sends c6 as unsure, the sync asks whether the rook stands there
    (a simulated player answers with the truth) and the game goes on: every action
    committed, none wrongly, and every frame a keeping game would keep shows its label's
    position with no hand over the board. With no square sent as unsure
    (``unsure_log_odds`` 0) the rook is never committed."""
    seed = 606
    steps = random_game(seed, 5)
    assert steps[4].move == chess.Move.from_uci("R@c6")
    frames, starts = render_game(seed, steps, events=[], pace=Pace(still=5, hand=4, rest=8,
                                                                   pictures=2))
    # the first frames, before the empty board is seen, by one photo network (the shipped
    # three take most of the time; every later frame is read against the empty board)
    one_net = VisionConfig().replace(photo_nets=("occupancy_photo.onnx",))
    tally = judge(seed, steps, starts, read_snapshots(frames, True, one_net), frames)
    assert tally.wrong == 0 and tally.right == 5, tally
    assert tally.questions == 1, tally
    assert tally.kept == 6 and tally.kept_wrong == 0, tally


def test_players_set_pieces_off_centre_and_a_piece_keeps_its_place_until_it_moves() -> None:
    pawn, rook = ("white", chess.PAWN), ("black", chess.ROOK)
    positions = [{chess.E2: pawn}, {chess.E2: pawn, chess.A8: rook},
                 {chess.E3: pawn, chess.A8: rook}, {chess.E3: pawn, chess.A8: pawn}]
    offsets = placing_offsets(5, positions, 0.1)
    assert [set(o) for o in offsets] == [set(p) for p in positions]
    assert offsets[1][chess.E2] == offsets[0][chess.E2]      # standing still
    assert offsets[2][chess.A8] == offsets[1][chess.A8]
    assert offsets[2][chess.E3] != offsets[1][chess.E2]      # moved: set down anew
    assert offsets[3][chess.A8] != offsets[2][chess.A8]      # another piece there now
    every = [v for o in placing_offsets(6, [{chess.square(i % 8, i // 8): pawn
                                             for i in range(n)} for n in range(1, 65)], 0.1)
             for xy in o.values() for v in xy]
    assert max(map(abs, every)) <= 0.25 and 0.07 < float(np.std(every)) < 0.12
    assert placing_offsets(5, positions, 0.0) == [{}, {}, {}, {}]


def test_a_piece_set_off_centre_is_drawn_there() -> None:
    from vision_helpers import game_scene

    from vision import synthetic

    scene = game_scene(3).with_pieces({chess.D4: ("black", chess.QUEEN)})
    centred = synthetic.render(scene, 1)
    moved = synthetic.render(dataclasses.replace(scene, offsets={chess.D4: (0.2, 0.0)}), 1)
    assert np.array_equal(centred, synthetic.render(
        dataclasses.replace(scene, offsets={chess.D4: (0.0, 0.0)}), 1))
    diff = np.abs(centred.astype(int) - moved.astype(int)).sum(axis=2) > 40
    assert diff.sum() > 200   # the queen is drawn elsewhere
    # ... a fifth of a square to the right (towards the h-file) in the board's picture
    geometry = scene.geometry()
    ys, xs = np.nonzero(diff)
    h8, a8 = np.array(geometry.corners[1]), np.array(geometry.corners[0])
    towards_h = (h8 - a8) / np.linalg.norm(h8 - a8)
    shift = (np.stack([xs, ys], axis=1) - a8) @ towards_h
    # the black queen's old place is lighter now, its new one darker, and further to h
    old = (centred.astype(int).sum(axis=2) < moved.astype(int).sum(axis=2))[ys, xs]
    assert shift[old].mean() < shift[~old].mean()
