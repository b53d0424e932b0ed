"""Random Raindropchess games watched by the camera, judged by BoardSync.

Each game is drawn at random with the engine (flips, drops, moves), rendered
with a hand reaching in for every action, read by ``CameraBoardReader`` with
its empty-board reference, and every snapshot goes to ``BoardSync`` (see
``benchmarks/bench_camera_games.py``).
"""

from __future__ import annotations

from benchmarks.bench_camera_games import judge, random_game, read_snapshots, render_game


def test_a_random_game_is_committed_action_by_action_and_never_wrong() -> None:
    seed = 0  # steady light, markers, a camera from above
    steps = random_game(seed)
    frames, starts = render_game(seed, steps)
    tally = judge(seed, steps, starts, read_snapshots(frames, empty_start=True))
    assert len(steps) >= 10
    assert tally.wrong == 0, tally
    assert tally.right == len(steps), tally


def test_a_lighting_change_mid_game_stalls_the_game_but_commits_nothing_wrong() -> None:
    """Known limit (measured, not hidden): when the light changes halfway
    through (another light direction and brightness, the board at rest), the
    reader reports most of the empty squares as occupied (34 of 64 in this
    game, 6 pieces on the board), with its empty-board reference and without
    it alike, so the sync can commit nothing more. What the game must do is
    not commit a wrong action: everything before the change is committed
    right, nothing is committed wrong after it."""
    seed = 1  # the light changes after half the actions
    steps = random_game(seed)
    frames, starts = render_game(seed, steps)
    tally = judge(seed, steps, starts, read_snapshots(frames, empty_start=True))
    assert tally.wrong == 0, tally
    assert tally.right >= len(steps) // 2, tally
