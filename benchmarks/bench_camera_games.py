"""Whole Raindropchess games watched by the camera: how often a wrong action is committed.

``python -m benchmarks.bench_camera_games [--games N] [--seed S]`` plays N
random legal games with :class:`companion.game.Game` (seeded flips, drops and
moves, up to 16 board actions each), renders each as video with a hand
reaching in for every action (:func:`vision.synthetic.video`), changes the
lighting halfway through every other game and films every third game from a
low camera (:func:`vision.synthetic.leaning_scene`). The frames go through
:class:`vision.reader.CameraBoardReader` and every snapshot through
:class:`companion.sync.BoardSync`; a simulated player flips each card just
before reaching for the board and answers each question with the truth.

Per game it counts the actions committed right, wrong commits, actions
never committed (missed or stuck) and questions. The peer is the same
frames read with the empty-board reference disabled (``empty_start=False``)
and the ratio line compares the two. By default 3 games (about a minute on one
core); ``RAINDROP_FULL=1`` plays 12.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import time

import chess
import numpy as np

from companion.game import Game
from companion.rules.board import FlipOutcome
from companion.sensors.snapshot import BoardSnapshot
from companion.sync import BoardSync, SyncKind
from tests.vision.vision_helpers import FPS, FakeCapture, game_scene
from vision import synthetic
from vision.reader import CameraBoardReader

STILL, HAND = 7, 6
MAX_ACTIONS = 12
Position = dict[chess.Square, tuple[str, int]]


@dataclasses.dataclass(frozen=True)
class Step:
    """One board action of the true game and the cards flipped just before it."""

    flips: int
    move: chess.Move
    position: Position


@dataclasses.dataclass(frozen=True)
class Tally:
    """What the sync made of one watched game."""

    actions: int
    right: int
    wrong: int
    missed: int
    questions: int

    def __add__(self, other: Tally) -> Tally:
        return Tally(*(a + b for a, b in zip(dataclasses.astuple(self),
                                              dataclasses.astuple(other), strict=True)))


def physical(game: Game) -> Position:
    board = game.board
    return {sq: ("blue" if board.is_blue(sq) else "white" if p.color else "black", p.piece_type)
            for sq, p in board.piece_map().items()}


def random_game(seed: int, limit: int = MAX_ACTIONS) -> list[Step]:
    """A legal game at random: flip when allowed (sometimes), then place or move.

    Stops at ``limit`` board actions, at the end of the game, or at a joker that
    removes a piece (its removal is not rendered here)."""
    rng = np.random.default_rng(seed)
    game = Game(seed=seed)
    steps: list[Step] = []
    flips = 0
    while len(steps) < limit and not game.is_over:
        if game.pending is None and game.can_flip() and (
                not game.legal_moves() or rng.random() < 0.5):
            outcome = game.flip().outcome
            flips += 1
            if outcome in (FlipOutcome.REMOVE_PIECE, FlipOutcome.FAILED_RESCUE):
                break
            continue
        moves = game.legal_moves()
        if not moves:
            break
        move = moves[int(rng.integers(len(moves)))]
        game.play(move)
        steps.append(Step(flips, move, physical(game)))
        flips = 0
    return steps


def render_game(seed: int, steps: list[Step]) -> tuple[list[synthetic.VideoFrame], list[int]]:
    """The frames, and the frame where the hand reaches in for each step."""
    rng = np.random.default_rng(seed)
    if seed % 3 == 2:
        # A low camera as leaning_scene draws it, but framed for markers from the start
        # (a scene drawn without them has its camera too close to see them; an empty
        # board without markers does not show where a1 is).
        scene = synthetic.random_scene(rng, fraction=0.0, markers=True, min_tilt_deg=30.0,
                                       max_tilt_deg=45.0, kinds=synthetic.TALL_KINDS)
    else:
        scene = game_scene(seed, markers=True)
    positions = [s.position for s in steps]
    split = len(positions) // 2 if seed % 2 == 1 else len(positions)
    frames = synthetic.video(scene, positions[:split], still_frames=STILL, hand_frames=HAND,
                             seed=seed)
    starts = [STILL + i * (HAND + STILL) for i in range(split)]
    if split < len(positions):
        # The lighting changes (a lamp turned on, a cloud): another light
        # direction, brightness and tint, the board resting meanwhile.
        azimuth = float(rng.uniform(0, 2 * math.pi))
        elevation = float(rng.uniform(0.6, 1.3))
        lit = dataclasses.replace(
            scene.with_pieces(positions[split - 1] if split else {}),
            light=(math.cos(elevation) * math.cos(azimuth),
                   math.cos(elevation) * math.sin(azimuth), math.sin(elevation)),
            gradient=(scene.gradient[0], scene.gradient[1],
                      scene.gradient[2] * float(rng.uniform(0.7, 1.3))),
            tint=tuple(float(t * rng.uniform(0.9, 1.1)) for t in scene.tint))  # type: ignore[arg-type]
        offset = len(frames)
        frames += synthetic.video(lit, positions[split:], still_frames=STILL, hand_frames=HAND,
                                  seed=seed + 1)
        starts += [offset + STILL + i * (HAND + STILL) for i in range(len(positions) - split)]
    return frames, starts


def read_snapshots(frames: list[synthetic.VideoFrame], empty_start: bool) -> list[BoardSnapshot]:
    snapshots: list[BoardSnapshot] = []
    capture = FakeCapture([f.image for f in frames])
    reader = CameraBoardReader("fake", capture_factory=lambda source: capture, live=False,
                               empty_start=empty_start)
    reader.start(snapshots.append, lambda status: None)
    if not reader.wait(600):
        raise RuntimeError("the camera reader did not finish")
    reader.stop()
    return snapshots


def judge(seed: int, steps: list[Step], starts: list[int],
          snapshots: list[BoardSnapshot]) -> Tally:
    """Feed the snapshots to a BoardSync over a replay of the same decks."""
    game = Game(seed=seed)
    sync = BoardSync(game)
    done = questions = wrong = 0
    flipped = -1  # the step whose cards were flipped
    for snapshot in snapshots:
        frame = round(snapshot.timestamp * FPS)
        # The player flips the cards of the next action as the hand reaches in.
        if done < len(steps) and frame > starts[done] and flipped != done:
            for _ in range(steps[done].flips):
                game.flip()
            flipped = done
        result = sync.update(snapshot)
        if result.kind == SyncKind.ASK:
            questions += 1
            picks = [i for i, c in enumerate(result.choices)
                     if done < len(steps) and c.move == steps[done].move and not c.undo_count]
            if picks:
                result = sync.choose(picks[0])
        played = [m for m in game.board.move_stack if m]
        truth = [s.move for s in steps]
        if played != truth[:len(played)]:
            wrong += 1
            break
        done = len(played)
    right = 0 if wrong else done
    return Tally(len(steps), right, wrong, len(steps) - right - wrong, questions)


def play(seed: int, empty_starts: tuple[bool, ...] = (True, False)
         ) -> tuple[list[Step], dict[bool, Tally]]:
    steps = random_game(seed)
    frames, starts = render_game(seed, steps)
    return steps, {e: judge(seed, steps, starts, read_snapshots(frames, e))
                   for e in empty_starts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    full = os.environ.get("RAINDROP_FULL") == "1"
    parser.add_argument("--games", type=int, default=12 if full else 3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    totals = {True: Tally(0, 0, 0, 0, 0), False: Tally(0, 0, 0, 0, 0)}
    start = time.perf_counter()
    for seed in range(args.seed, args.seed + args.games):
        _, tallies = play(seed)
        for key, tally in tallies.items():
            totals[key] += tally
            print(f"game {seed} {'reference' if key else 'no reference'}: {tally}")
    for key, name in ((True, "camera reader (empty-board reference)"),
                      (False, "peer: same frames, reference disabled")):
        t = totals[key]
        print(f"{name}: {args.games} games, {t.actions} actions, {t.right} right, "
              f"{t.wrong} wrong, {t.missed} missed, {t.questions} questions")
    ours, peer = totals[True], totals[False]
    print(f"ratio (peer / reader): right {peer.right / max(ours.right, 1):.2f}, "
          f"wrong {peer.wrong} vs {ours.wrong}, missed {peer.missed} vs {ours.missed}")
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
