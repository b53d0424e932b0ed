"""Every worked example of the Rumbo rules file (section 13), with its exact expected result.

Each placement is checked three ways: the engine's ``play``, the plain
implementation in benchmarks/ and membership in the engine's successor set.
"""

from __future__ import annotations

import plain_rumbo
import pytest

from companion import games
from companion.games import PositionError
from companion.games.rumbo import RULES

PLACEMENTS = [
    # example 1: a hole is filled; edge points are never holes
    ("rumbo .b./b.b/... v 0 .../.../...", "b@b1", "rumbo .b./bbb/.b. h 0 .../.../..."),
    # example 2: Vertical claims through a north neighbour, whoever moves
    ("rumbo wb./.../... v 0 .../.../...", "b@a2", "rumbo wb./b../... h 0 v../.../..."),
    ("rumbo wb./.../... h 0 .../.../...", "b@a2", "rumbo wb./b../... v 0 v../.../..."),
    ("rumbo wb./.../... v 0 .../.../...", "w@a2", "rumbo wb./w../... h 0 .../.../..."),
    # example 3: Horizontal claims through a west neighbour
    ("rumbo .../b../w.. v 0 .../.../...", "b@b1", "rumbo .../b../wb. h 0 .../.../h.."),
    # example 4: N+E, and a first stone dying alone unclaimed
    ("rumbo bb./wwb/.wb v 0 .../.../...", "b@a1", "rumbo bb./wwb/bwb h 0 .../vv./.v."),
    # example 4b: the first stone's own group, set N+E
    ("rumbo bb./wwb/.wb v 0 .../.../...", "w@a1", "rumbo bb./wwb/wwb h 0 .../vv./vv."),
    # example 5: three deaths in one turn, an old dead group, the end of the game
    ("rumbo bb./wwb/bwb h 0 .../vv./.v.", "w@c3", "rumbo bbw/wwb/bwb v 0 hh./vvv/.vv"),
    ("rumbo bb./wwb/bwb h 0 .../vv./.v.", "b@c3", "rumbo bbb/wwb/bwb v 0 vvv/vvv/.vv"),
    # example 6: E+W (R10) and a dying first-stone group; nostraight
    ("rumbo www/wbw/w.w v 0 .../.../...", "b@b1", "rumbo www/wbw/wbw h 0 hhh/hvh/hvh"),
    ("rumbo www/wbw/w.w v 0 .../.../...", "w@b1", "rumbo www/wbw/www h 0 hhh/hvh/hhh"),
    ("rumbo www/wbw/w.w v 0 .../.../... nostraight", "b@b1",
     "rumbo www/wbw/wbw h 0 .../.v./.v. nostraight"),
    ("rumbo www/wbw/w.w v 0 .../.../... nostraight", "w@b1",
     "rumbo www/wbw/www h 0 .../.v./... nostraight"),
    # example 7: N+S through the first stone's own group; nostraight
    ("rumbo bw./.w./bw. v 0 .../.../...", "b@a2", "rumbo bw./bw./bw. h 0 v../v../v.."),
    ("rumbo bw./.w./bw. v 0 .../.../... nostraight", "b@a2",
     "rumbo bw./bw./bw. h 0 .../.../... nostraight"),
    # example 8: N+E+S+W after a fill; two placements give one position
    ("rumbo bbbbb/bbbbb/b..bb/bbbbb/bbbbb v 0 ...../...../...../...../.....", "b@c3",
     "rumbo bbbbb/bbbbb/bbbbb/bbbbb/bbbbb h 0 ...../...../...../...../....."),
    ("rumbo bbbbb/bbbbb/b..bb/bbbbb/bbbbb v 0 ...../...../...../...../.....", "b@b3",
     "rumbo bbbbb/bbbbb/bbbbb/bbbbb/bbbbb h 0 ...../...../...../...../....."),
    ("rumbo bbbbb/bbbbb/b..bb/bbbbb/bbbbb v 0 ...../...../...../...../.....", "w@c3",
     "rumbo bbbbb/bbbbb/b.wbb/bbbbb/bbbbb h 0 ...../...../...../...../....."),
    ("rumbo bbbbb/bbbbb/b..bb/bbbbb/bbbbb v 0 ...../...../...../...../.....", "w@b3",
     "rumbo bbbbb/bbbbb/bw.bb/bbbbb/bbbbb h 0 ...../...../...../...../....."),
    # example 9: a triple N+S+E on 4x4
    ("rumbo bb../wwb./.wb./wwb. v 0 ..../..../..../....", "b@a2",
     "rumbo bb../wwb./bwb./wwb. h 0 ..../vv../.v../vv.."),
    ("rumbo bb../wwb./.wb./wwb. v 0 ..../..../..../....", "w@a2",
     "rumbo bb../wwb./wwb./wwb. h 0 ..../vv../vv../vv.."),
    # example 9b: the same turned a quarter, E+W+S
    ("rumbo w.wb/wwwb/bbb./.... h 0 ..../..../..../....", "b@b4",
     "rumbo wbwb/wwwb/bbb./.... v 0 h.h./hhh./..../...."),
    ("rumbo w.wb/wwwb/bbb./.... h 0 ..../..../..../....", "w@b4",
     "rumbo wwwb/wwwb/bbb./.... v 0 hhh./hhh./..../...."),
    # example 10: N+W goes to Horizontal
    ("rumbo .bb/bww/bw. v 0 .../.../...", "b@c1", "rumbo .bb/bww/bwb h 0 .../.hh/.h."),
    # example 11: edgeholes
    ("rumbo .../b../... v 0 .../.../... edgeholes", "b@b1",
     "rumbo .../b../bb. h 0 .../.../... edgeholes"),
    ("rumbo .../b../... v 0 .../.../...", "b@b1", "rumbo .../b../.b. h 0 .../.../..."),
    # example 12: setup
    ("rumbo .../.../... k ? .../.../...", "komi=4", "rumbo .../.../... s 4 .../.../..."),
    ("rumbo .../.../... k ? .../.../...", "komi=-2", "rumbo .../.../... s -2 .../.../..."),
    ("rumbo .../.../... s 4 .../.../...", "side=h", "rumbo .../.../... v 4 .../.../..."),
    ("rumbo .../.../... s 4 .../.../...", "side=v", "rumbo .../.../... v 4 .../.../..."),
]


@pytest.mark.parametrize(("before", "turn", "after"), PLACEMENTS)
def test_worked_example(before: str, turn: str, after: str) -> None:
    pos = RULES.parse(before)
    result = RULES.play(pos, turn)
    assert result.text() == after
    assert result in RULES.successors(pos)
    assert turn in set(RULES.turns(pos))
    assert turn in RULES.turns_to(pos, result)
    assert plain_rumbo.play(before, turn) == after


OUTCOMES = [
    ("rumbo bbw/wwb/bwb v 0 hh./vvv/.vv", "vertical", 5, 2),
    ("rumbo bbw/wwb/bwb v 3 hh./vvv/.vv", "draw", 5, 5),
    ("rumbo bbw/wwb/bwb v 4 hh./vvv/.vv", "horizontal", 5, 6),
    ("rumbo www/wbw/wbw h 0 hhh/hvh/hvh", "horizontal", 2, 7),
    ("rumbo www/wbw/www h 0 hhh/hvh/hhh", "horizontal", 1, 8),
    ("rumbo www/wbw/www h -7 hhh/hvh/hhh", "draw", 1, 1),
    ("rumbo bbbbb/bbbbb/bbbbb/bbbbb/bbbbb h 0 ...../...../...../...../.....", "draw", 0, 0),
    ("rumbo bbbbb/bbbbb/bbbbb/bbbbb/bbbbb h 1 ...../...../...../...../.....", "horizontal", 0, 1),
    ("rumbo bbbbb/bbbbb/bbbbb/bbbbb/bbbbb h -1 ...../...../...../...../.....", "vertical", 0, -1),
]


@pytest.mark.parametrize(("text", "result", "vertical", "horizontal"), OUTCOMES)
def test_outcome_examples(text: str, result: str, vertical: int, horizontal: int) -> None:
    outcome = RULES.outcome(RULES.parse(text))
    assert outcome is not None
    assert outcome.result == result
    assert outcome.scores == {"vertical": vertical, "horizontal": horizontal}
    assert plain_rumbo.outcome(text) == result
    assert not list(RULES.turns(RULES.parse(text)))
    assert RULES.successors(RULES.parse(text)) == frozenset()


@pytest.mark.parametrize("text", [
    "rumbo bb./wwb/bwb h 0 .../vv./.v.",  # example 5: c3 still empty
    "rumbo .../.../... k ? .../.../...",
    "rumbo .../.../... s 4 .../.../...",
    "rumbo .../.../... v 0 .../.../...",
])
def test_no_outcome_while_a_point_is_empty(text: str) -> None:
    assert RULES.outcome(RULES.parse(text)) is None


def test_example_8_successor_set_has_three_positions() -> None:
    pos = RULES.parse("rumbo bbbbb/bbbbb/b..bb/bbbbb/bbbbb v 0 ...../...../...../...../.....")
    expected = {
        "rumbo bbbbb/bbbbb/bbbbb/bbbbb/bbbbb h 0 ...../...../...../...../.....",
        "rumbo bbbbb/bbbbb/b.wbb/bbbbb/bbbbb h 0 ...../...../...../...../.....",
        "rumbo bbbbb/bbbbb/bw.bb/bbbbb/bbbbb h 0 ...../...../...../...../.....",
    }
    assert {p.text() for p in RULES.successors(pos)} == expected
    assert plain_rumbo.successors(pos.text()) == expected
    full = RULES.parse("rumbo bbbbb/bbbbb/bbbbb/bbbbb/bbbbb h 0 ...../...../...../...../.....")
    assert RULES.turns_to(pos, full) == ("b@b3", "b@c3")


def test_example_12_setup_successors() -> None:
    start = RULES.parse("rumbo .../.../... k ? .../.../...")
    assert start == RULES.start(size="3")
    assert start.to_move == "proposer"
    assert {p.text() for p in RULES.successors(start)} == {
        f"rumbo .../.../... s {k} .../.../..." for k in range(-9, 10)}
    chooser = RULES.parse("rumbo .../.../... s 4 .../.../...")
    assert chooser.to_move == "chooser"
    assert {p.text() for p in RULES.successors(chooser)} == {"rumbo .../.../... v 4 .../.../..."}
    agreed = RULES.parse("rumbo .../.../... v 0 .../.../...")
    assert agreed == RULES.start(size="3", komi="0")
    assert agreed.to_move == "vertical"
    assert len(RULES.successors(agreed)) == 18


def test_start_positions_of_the_rules_file() -> None:
    empty = "/".join(["........."] * 9)
    assert RULES.start().text() == f"rumbo {empty} k ? {empty}"
    assert games.get("rumbo").start(size="3", komi="0").text() == (
        "rumbo .../.../... v 0 .../.../...")


INVALID = [
    ("rumbo .b./b.b/.b. v 0 .../.../...", "b2 is a hole"),
    ("rumbo .b./b../... v 0 .../.../... edgeholes", "a3 is a hole"),
    ("rumbo wb./.../... v 0 v../.../...", "claimed but still has a liberty"),
    ("rumbo www/wbw/wbw h 0 hhh/hvh/hhh", "different marks"),
    ("rumbo .../.../... v 0 v../.../...", "on the empty point a3"),
    ("rumbo .../.../... v 10 .../.../...", "outside -9 to 9"),
    ("rumbo .../.../... v ? .../.../...", "'?' is only allowed"),
    ("rumbo b../.../... s 0 .../.../...", "empty during the setup"),
    ("rumbo .../.../... v 0 .../.../... pie", "unknown option 'pie'"),
    ("rumbo . v 0 .", "1 row"),
]


@pytest.mark.parametrize(("text", "reason"), INVALID)
def test_invalid_texts_of_the_rules_file(text: str, reason: str) -> None:
    with pytest.raises(PositionError, match=reason):
        RULES.parse(text)


def test_the_edgeholes_example_is_valid_without_the_option() -> None:
    assert RULES.parse("rumbo .b./b../... v 0 .../.../...").text() == (
        "rumbo .b./b../... v 0 .../.../...")
