"""Turn inference from settled stone boards (colour boards and occupancy-only boards)."""

from __future__ import annotations

import itertools

import pytest

from companion import games
from companion.sync.stones import (
    BoardMismatch,
    BoardUnchanged,
    GridLayout,
    StoneFollower,
    StoneSnapshot,
    StoneSyncError,
    TurnSeen,
    TurnsFit,
    TurnUnfinished,
    describe_fixes,
)

DROPPER = games.get("dropper")


def _snap(cells: dict[str, str], occupancy: bool = False) -> StoneSnapshot:
    if occupancy:
        cells = {c: ("x" if v != "." else ".") for c, v in cells.items()}
    return StoneSnapshot(cells)


def test_every_dropper_turn_is_found_against_a_plain_comparison() -> None:
    """The builder search agrees with comparing every successor (the plain way)."""
    follower = StoneFollower(DROPPER)
    pos = DROPPER.start(size="5")
    for turn in ("c3", "c3>d3+a1", "c3>b4+e5"):
        pos = DROPPER.play(pos, turn)
    for turn in itertools.islice(DROPPER.turns(pos), 60):
        after = DROPPER.play(pos, turn)
        verdict = follower.judge(pos, _snap(dict(after.cells())))
        plain = sorted(t for t in DROPPER.turns(pos)
                       if dict(DROPPER.play(pos, t).cells()) == dict(after.cells()))
        if len(plain) == 1:
            assert verdict == TurnSeen(plain[0])
        else:
            assert isinstance(verdict, TurnsFit) and list(verdict.turns) == plain


def test_unchanged_unfinished_and_mismatch_words() -> None:
    follower = StoneFollower(DROPPER)
    pos = DROPPER.play(DROPPER.start(size="5"), "c3")
    assert follower.judge(pos, _snap(dict(pos.cells()))) == BoardUnchanged()
    # The drop made (black on c3, white pushed to d3), the free stone not yet placed.
    cells = dict(pos.cells()) | {"c3": "b", "d3": "w"}
    verdict = follower.judge(pos, _snap(cells))
    assert isinstance(verdict, TurnUnfinished) and verdict.steps == ("c3", ">d3")
    # The white stone slid to the wrong place: guided in words.
    cells = dict(pos.cells()) | {"c3": ".", "e5": "w"}
    verdict = follower.judge(pos, _snap(cells))
    assert isinstance(verdict, BoardMismatch)
    assert "the white stone on e5 should be on c3" in verdict.message


def test_fix_words() -> None:
    assert describe_fixes({"a1": "b", "b1": "."}, {"a1": ".", "b1": "b"}, False) == (
        "the black stone on a1 should be on b1",)
    assert describe_fixes({"a1": "w"}, {"a1": "b"}, False) == ("the stone on a1 should be black",)
    assert describe_fixes({"a1": "."}, {"a1": "w"}, False) == ("put a white stone on a1",)


def test_occupancy_board_uses_the_order_of_changes() -> None:
    """Reed switches see no colour: with White on a1 and c1, Black dropping on a1 and
    pushing to b1, or on c1 pushing to b1, ends on the same occupancy; the order the
    cells changed in (which stone was lifted first) tells them apart."""
    pos = DROPPER.parse("dropper ...../...../...../...../w.w.. b")
    first, second = "a1>b1+e5", "c1>b1+e5"
    after = dict(DROPPER.play(pos, first).cells())
    assert {c for c, v in after.items() if v != "."} == {
        c for c, v in DROPPER.play(pos, second).cells().items() if v != "."}
    follower = StoneFollower(DROPPER)
    verdict = follower.judge(pos, _snap(after, occupancy=True))
    assert isinstance(verdict, TurnsFit) and first in verdict.turns and second in verdict.turns
    assert "cannot tell the stones' colours" in verdict.message
    # The reed board reports each change: lift a1, the pushed stone on b1, a1 again, e5.
    board = {c: ("x" if v != "." else ".") for c, v in pos.cells().items()}
    follower.changes(StoneSnapshot(board))
    for cell, value in (("a1", "."), ("b1", "x"), ("a1", "x"), ("e5", "x")):
        board = board | {cell: value}
        follower.changes(StoneSnapshot(board))
    assert follower.judge(pos, StoneSnapshot(board)) == TurnSeen(first)
    follower.new_turn()
    board = {c: ("x" if v != "." else ".") for c, v in pos.cells().items()}
    follower.changes(StoneSnapshot(board))
    for cell, value in (("c1", "."), ("b1", "x"), ("c1", "x"), ("e5", "x")):
        board = board | {cell: value}
        follower.changes(StoneSnapshot(board))
    assert follower.judge(pos, StoneSnapshot(board)) == TurnSeen(second)


def test_layout_and_bad_input() -> None:
    pos = DROPPER.start(size="3")
    layout = GridLayout.of(pos)
    assert layout.columns == ("a", "b", "c") and layout.rows == (3, 2, 1)
    assert layout.cells_of(["b..", "...", "..w"])["a3"] == "b"
    with pytest.raises(StoneSyncError, match="3 x 3"):
        layout.cells_of(["....", "....", "...."])
    with pytest.raises(StoneSyncError, match="holds 'q'"):
        StoneSnapshot({"a1": "q"})
    with pytest.raises(StoneSyncError, match="cells"):
        StoneFollower(DROPPER).judge(pos, StoneSnapshot({"a1": "."}))
