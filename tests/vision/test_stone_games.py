"""Whole synthetic stone games watched through the camera pipeline, frame by frame.

Each game is played at random with the engine; every turn is rendered as a
hand reaching in, the stones changing under it, the hand leaving and the
board resting. The frames go through :class:`vision.grid_reader.GridPipeline`
and :class:`GridSettler`; every settled board is judged by
:class:`companion.sync.stones.StoneFollower`. Every turn must be committed
right and nothing else committed. By default three turns of three games (one a
game, one on a chessboard's cells); ``RAINDROP_FULL=1`` plays five games of 40 turns,
and ``RAINDROP_STONE_TURNS=1000`` with it plays each game to its end (Rumbo: the full
board).
"""

from __future__ import annotations

import itertools
import os
from typing import Any

import numpy as np
import pytest

from companion import games
from companion.sync.stones import (
    BoardUnchanged,
    GridLayout,
    StoneFollower,
    StoneSnapshot,
    TurnSeen,
    TurnUnfinished,
)
from lab.stone_scenes import game_video, random_stone_scene
from tests.vision.vision_helpers import FPS, FULL
from vision.grid import GridSpec
from vision.grid_reader import GridPipeline, GridSettler

TURNS = int(os.environ.get("RAINDROP_STONE_TURNS", "40" if FULL else "3"))
STILL = 8 if FULL else 5  # frames the board rests between turns (4 settle it)


def _places(layout: GridLayout, cells: dict[str, str]) -> dict[tuple[int, int], str]:
    rows = layout.rows_of(cells)
    return {(r, c): v for r, row in enumerate(rows) for c, v in enumerate(row) if v != "."}


def play_watched(game: str, options: dict[str, str], spec_text: str, seed: int
                 ) -> tuple[int, list[str]]:
    rules: Any = games.get(game)
    rng = np.random.default_rng(seed)
    pos = rules.start(**options)
    layout = GridLayout.of(pos)
    spec = GridSpec.parse(spec_text)
    scene = random_stone_scene(rng, spec, fraction=0.0, markers=False)
    follower = StoneFollower(rules)
    positions, played = [], []
    # The game's own course, chosen at random (turns that change nothing are typed).
    while len(played) < TURNS and rules.outcome(pos) is None:
        turns = list(itertools.islice(rules.turns(pos), 400))
        if not turns:
            break
        turn = turns[int(rng.integers(len(turns)))]
        after = rules.play(pos, turn)
        played.append(turn)
        positions.append((pos, after))
        pos = after
    start_empty = all(v == "." for v in rules.start(**options).cells().values())
    scene = scene.with_stones(_places(layout, dict(rules.start(**options).cells())), rng)
    pipeline = GridPipeline(scene.geometry(), empty_start=start_empty)
    settler = GridSettler()
    # Render the board changes only; typed turns (a komi) show no change.
    shown = [(b, t) for (a, b), t in zip(positions, played, strict=True)
             if dict(a.cells()) != dict(b.cells())]
    frames = game_video(scene, [_places(layout, dict(b.cells())) for b, _ in shown],
                        seed=seed, still_frames=STILL, still_pictures=0 if FULL else 2)
    pos = rules.start(**options)
    queue = list(zip([p for p, _ in positions], played, strict=True))
    committed: list[str] = []
    problems: list[str] = []
    for index, frame in enumerate(frames):
        grid = settler.feed(pipeline.process(frame.image, index / FPS))
        if grid is None:
            continue
        # Typed turns (no change on the board) are played as they come.
        while queue and dict(rules.play(queue[0][0], queue[0][1]).cells()) == dict(
                queue[0][0].cells()):
            pos = rules.play(pos, queue.pop(0)[1])
        verdict = follower.judge(pos, StoneSnapshot(layout.cells_of(grid)))
        if isinstance(verdict, TurnSeen):
            expected = queue[0][1] if queue else None
            if verdict.turn != expected:
                problems.append(f"frame {index}: committed {verdict.turn}, played {expected}")
                break
            committed.append(verdict.turn)
            pos = rules.play(pos, queue.pop(0)[1])
            follower.new_turn()
        elif not isinstance(verdict, BoardUnchanged | TurnUnfinished):
            problems.append(f"frame {index}: {verdict}")
    missing = [t for _, t in queue if True]
    visible = [t for (a, b), t in zip(positions, played, strict=True)
               if dict(a.cells()) != dict(b.cells())]
    if committed != visible:
        problems.append(f"committed {committed}, played {visible} (left {missing})")
    return len(committed), problems


CASES = [
    ("dropper", {"size": "8"}, "cells:8", 1),
    ("dropper", {"size": "9"}, "points:9", 2),
    ("rumbo", {"size": "9", "komi": "5"}, "points:9", 3),
    ("raindrops", {"size": "8"}, "points:8", 4),
    ("raindrops", {"size": "9", "layout": "sparse"}, "points:9", 5),
]
if not FULL:
    CASES = [CASES[0], CASES[2], CASES[4]]


@pytest.mark.parametrize(("game", "options", "spec", "seed"), CASES)
def test_every_turn_committed_right(game: str, options: dict[str, str], spec: str,
                                    seed: int) -> None:
    count, problems = play_watched(game, options, spec, seed)
    assert not problems, problems
    assert count >= 3


def test_camera_grid_reader_reports_settled_boards_from_a_video() -> None:
    """The reader thread on a video (a fake capture): it finds the grid by itself (the
    corner markers) and sends each settled board once, as the game's cells."""
    from vision_helpers import FakeCapture

    from vision.grid_reader import CameraGridReader

    rules: Any = games.get("dropper")
    pos = rules.start(size="9")
    layout = GridLayout.of(pos)
    rng = np.random.default_rng(11)
    scene = random_stone_scene(rng, GridSpec.parse("points:9"), fraction=0.0, markers=True,
                               size=(960, 540))
    boards = []
    for turn in ("e5", "e5>f5+a1", "e5>d5+i9"):
        pos = rules.play(pos, turn)
        boards.append(dict(pos.cells()))
    frames = game_video(scene, [_places(layout, b) for b in boards], seed=11, still_frames=6,
                        still_pictures=2)
    seen: list[dict[str, str]] = []
    statuses: list[str] = []
    reader = CameraGridReader("game.avi", GridSpec.parse("points:9"), layout, live=False,
                              capture_factory=lambda _s: FakeCapture([f.image for f in frames]))
    reader.start(lambda snap: seen.append(dict(snap.cells)),
                 lambda status: statuses.append(status.message))
    assert reader.wait(120)
    assert "grid found" in statuses
    empty = {cell: "." for cell in layout.cells_of(["." * 9] * 9)}
    assert seen == [empty, *boards]
