"""The Crumble step builder: the action, then swap steps one at a time, with captures, wins
and the end of the turn shown the moment they happen."""

from __future__ import annotations

import pytest
from crumble_vectors import P6, P6_E3, P6_E3_WE, P6_E5, P8, P8_D3, P9, P9_D6, START

from companion.games import IllegalTurn, Step
from companion.games.crumble import RULES


def test_action_then_swap_steps() -> None:
    start = RULES.start()
    builder = RULES.builder(start)
    assert not builder.complete and builder.steps == ()
    assert "split" in builder.message
    first = builder.next_steps()
    assert len(first) == 36  # 18 black squares, two ways each
    with pytest.raises(IllegalTurn):
        builder.turn()
    cut = builder.add("b5-")
    assert cut.complete and cut.turn() == "b5-"
    assert cut.position == RULES.play(start, "b5-")
    assert cut.swapping is None
    assert [s.text for s in cut.next_steps()] == ["b5b>S", "b5t>N"]
    up = cut.add("b5t>N")
    assert up.swapping == "b6"
    assert up.position == RULES.play(start, "b5- b5t>N")
    assert up.steps[-1].changes == {"1,9/2,1,1/2": "w", "1,5,1,1": "b"}
    assert [s.text for s in up.next_steps()] == ["S"]
    back = up.add(Step("S", {}))
    assert back.turn() == "b5- b5t>NS"
    assert back.position == RULES.play(start, "b5-")
    assert start.text() == START  # builders never change the start


def test_capture_shown_at_the_step_and_backtracking_keeps_it() -> None:
    builder = RULES.builder(RULES.parse(P6)).add("e3|").add("e3l>W")
    assert "captured: c3" in builder.steps[-1].note
    assert builder.steps[-1].changes["2,2,1,1"] == "b"
    assert builder.position.text() == P6_E3
    again = builder.add("E")
    assert again.position.text() == P6_E3_WE
    assert again.turn() == "e3| e3l>WE"


def test_win_ends_the_turn_at_once() -> None:
    builder = RULES.builder(RULES.parse(P6)).add("e5-").add("e5b>S")
    assert builder.position.text() == P6_E5
    assert builder.winner == "black" and builder.ended
    assert "Black wins" in builder.steps[-1].note
    assert builder.next_steps() == ()
    with pytest.raises(IllegalTurn, match="ended"):
        builder.add("W")


def test_captured_swapping_piece_ends_the_turn() -> None:
    builder = RULES.builder(RULES.parse(P8)).add("d3|").add("d3l>W")
    assert builder.position.text() == P8_D3
    assert builder.ended and builder.winner is None
    assert "swapping piece is captured" in builder.steps[-1].note
    assert builder.next_steps() == ()
    nested = RULES.builder(RULES.parse(P9)).add("d6-").add("d6b>S")
    assert nested.position.text() == P9_D6
    assert nested.ended


def test_bad_steps_are_refused_with_reasons() -> None:
    builder = RULES.builder(RULES.start())
    with pytest.raises(IllegalTurn, match="not black's"):
        builder.add("a5-")
    cut = builder.add("b5-")
    with pytest.raises(IllegalTurn, match="name the half"):
        cut.add("N")
    with pytest.raises(IllegalTurn, match="east side"):
        cut.add("b5t>E")
    with pytest.raises(IllegalTurn, match="one direction"):
        cut.add("b5t>NN")
    up = cut.add("b5t>N")
    with pytest.raises(IllegalTurn, match="only the first"):
        up.add("b6>S")


def test_join_swap_needs_no_start_piece() -> None:
    pos = RULES.play(RULES.play(RULES.start(), "b5-"), "a5-")
    joined = RULES.builder(pos).add("+b5")
    assert [s.text for s in joined.next_steps()] == [">N", ">E", ">S"]  # a5 is cut: no W
    assert joined.add("N").turn() == joined.add(">N").turn() == "+b5 >N"


def test_the_swap_path_follows_the_swapping_piece_back_and_forth() -> None:
    builder = RULES.builder(RULES.start()).add("b5-")
    assert builder.path == ()  # no swap step yet
    up = builder.add("b5t>N")
    assert up.path == ("1,9/2,1,1/2", "1,5,1,1")
    back = up.add("S")  # back into the start piece
    assert back.path == ("1,9/2,1,1/2", "1,5,1,1", "1,9/2,1,1/2")
    assert back.path[-1] == "1,9/2,1,1/2" and back.turn() == "b5- b5t>NS"
    assert set(back.path) <= set(back.position.cells())
