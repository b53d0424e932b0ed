"""Rumbo position text: every validity rule, the reader's leniency, the canonical form, options."""

from __future__ import annotations

import pytest

from companion.games import OptionError, PositionError
from companion.games.rumbo import RULES, RumboPosition

EMPTY3 = ".../.../..."


@pytest.mark.parametrize(("text", "reason"), [
    ("", "name field: expected 'rumbo', got ''"),
    ("dropper .../.../... v 0 .../.../...", "name field: expected 'rumbo', got 'dropper'"),
    ("RUMBO .../.../... v 0 .../.../...", "name field"),
    ("rumbo .../.../... v 0", "expected 5 or 6 fields"),
    ("rumbo .../.../... v 0 .../.../... edgeholes extra", "expected 5 or 6 fields .*, got 7"),
    ("rumbo . v 0 .", "1 row; 2 to 26 are allowed"),
    ("rumbo " + "/".join(["." * 27] * 27) + " v 0 " + "/".join(["." * 27] * 27), "27 rows"),
    ("rumbo ../../.. v 0 ../../..", "row 3 has 2 points, expected 3"),
    ("rumbo .../..../... v 0 .../.../...", "row 2 has 4 points"),
    ("rumbo .x./.../... v 0 .../.../...", "stones field: 'x' at b3 is not allowed"),
    ("rumbo .B./.../... v 0 .../.../...", "stones field: 'B' at b3"),
    ("rumbo .../.../... x 0 .../.../...", "side field: 'x' must be k"),
    ("rumbo .../.../... V 0 .../.../...", "side field: 'V'"),
    ("rumbo .../.../... v ? .../.../...", "'?' is only allowed"),
    ("rumbo .../.../... s ? .../.../...", "'?' is only allowed"),
    ("rumbo .../.../... k 0 .../.../...", "komi field: '0' with side k"),
    ("rumbo .../.../... v abc .../.../...", "komi field: komi .abc. is not a whole number"),
    ("rumbo .../.../... v 1.5 .../.../...", "not a whole number"),
    ("rumbo .../.../... v 1_0 .../.../...", "not a whole number"),
    ("rumbo .../.../... v +-1 .../.../...", "not a whole number"),
    ("rumbo .../.../... v -10 .../.../...", "komi -10 is outside -9 to 9"),
    ("rumbo .../.../... v 0 ../.../...", "claims field: row 3 has 2 points"),
    ("rumbo .../.../... v 0 .../...", "claims field: 2 rows"),
    ("rumbo .../.../... v 0 ..x/.../...", "claims field: 'x' at c3"),
    ("rumbo .../.../... v 0 ..b/.../...", "claims field: 'b' at c3"),
    ("rumbo b../.../... v 0 .h./.../...", "claim mark 'h' on the empty point b3"),
    ("rumbo .../.../..b k ? .../.../...", "empty during the setup \\(side k\\)"),
    ("rumbo .../.../..b s 0 .../.../...", "empty during the setup \\(side s\\)"),
    ("rumbo .../.../... v 0 .../.../... pie", "unknown option 'pie'"),
    ("rumbo .../.../... v 0 .../.../... edgeholes,", "unknown option ''"),
    ("rumbo .../.../... v 0 .../.../... Edgeholes", "unknown option 'Edgeholes'"),
    ("rumbo .../.../... v 0 .../.../... edgeholes,edgeholes", "'edgeholes' is repeated"),
    ("rumbo .w./w.w/.w. v 0 .../.../...", "b2 is a hole \\(every neighbour is white\\)"),
    ("rumbo .b./..b/... v 0 .../.../... edgeholes", "stones field: c3 is a hole"),
    ("rumbo .b../b.../..../.... v 0 ..../..../..../.... edgeholes", "a4 is a hole"),
    ("rumbo bbw/wwb/bwb v 0 hv./vvv/.vv", "the group at a3 \\(a3, b3\\) carries different"),
    ("rumbo bbw/wwb/bwb v 0 hh./vv./.vv", "different marks"),
    ("rumbo bb./.../... v 0 vv./.../...",
     "group at a3 is claimed but still has a liberty \\(c3\\)"),
])
def test_invalid_position_text_names_the_field(text: str, reason: str) -> None:
    with pytest.raises(PositionError, match=reason):
        RULES.parse(text)


@pytest.mark.parametrize(("text", "canonical"), [
    ("  rumbo   .../.../...\tv  0  .../.../...  ", "rumbo .../.../... v 0 .../.../..."),
    ("rumbo .../.../... v +4 .../.../...", "rumbo .../.../... v 4 .../.../..."),
    ("rumbo .../.../... v 004 .../.../...", "rumbo .../.../... v 4 .../.../..."),
    ("rumbo .../.../... v -04 .../.../...", "rumbo .../.../... v -4 .../.../..."),
    ("rumbo .../.../... v -0 .../.../...", "rumbo .../.../... v 0 .../.../..."),
    ("rumbo .../.../... v 0 .../.../... nostraight,edgeholes",
     "rumbo .../.../... v 0 .../.../... edgeholes,nostraight"),
    ("rumbo .../.../... s 9 .../.../... nostraight",
     "rumbo .../.../... s 9 .../.../... nostraight"),
])
def test_reader_leniency_and_canonical_form(text: str, canonical: str) -> None:
    pos = RULES.parse(text)
    assert pos.text() == canonical
    assert RULES.parse(canonical) == pos
    assert hash(RULES.parse(canonical)) == hash(pos)


def test_valid_corner_cases() -> None:
    # an unclaimed group without liberties is valid (its set was unowned)
    dead = RULES.parse("rumbo bb./wwb/bwb h 0 .../vv./.v.")
    assert dead.claim("a1") == "." and dead.stone("a1") == "b"
    # edge points are never holes by default
    assert RULES.parse("rumbo b../.../... v 0 .../.../...").stone("b3") == "."
    # a 26x26 board, the largest
    big = "/".join(["." * 26] * 26)
    assert RULES.parse(f"rumbo {big} v 676 {big}").komi == 676
    assert RULES.parse(f"rumbo {big} v -676 {big}").komi == -676
    # a full board with any side letter is over
    assert RULES.parse("rumbo bw/wb h 0 ../..").full


def test_position_is_frozen_and_equal_by_text() -> None:
    a = RULES.parse("rumbo wb./b../... h 0 v../.../...")
    b = RULES.parse("rumbo  wb./b../...  h  +0  v../.../...")
    assert a == b and len({a, b}) == 1
    assert str(a) == a.text()
    with pytest.raises(AttributeError):
        a.side = "v"  # type: ignore[misc]
    assert a != RULES.parse("rumbo wb./b../... v 0 v../.../...")
    assert isinstance(a, RumboPosition)


def test_cells_and_to_move() -> None:
    pos = RULES.parse("rumbo wb./b../... h 0 v../.../...")
    assert pos.cells() == {
        "a3": "w", "b3": "b", "c3": ".", "a2": "b", "b2": ".", "c2": ".",
        "a1": ".", "b1": ".", "c1": "."}
    assert pos.to_move == "horizontal"
    assert RULES.parse("rumbo .../.../... v 0 .../.../...").to_move == "vertical"
    assert RULES.parse("rumbo .../.../... k ? .../.../...").to_move == "proposer"
    assert RULES.parse("rumbo .../.../... s 0 .../.../...").to_move == "chooser"
    assert RULES.players == ("vertical", "horizontal")
    assert len(RULES.start(size="26").cells()) == 676


def test_start_options() -> None:
    assert RULES.start().text() == RULES.start(size="9").text()
    assert RULES.start(size="3").text() == f"rumbo {EMPTY3} k ? {EMPTY3}"
    assert RULES.start(size="3", komi="+02").text() == f"rumbo {EMPTY3} v 2 {EMPTY3}"
    assert RULES.start(size="3", komi="-9", edgeholes="on", nostraight="on").text() == (
        f"rumbo {EMPTY3} v -9 {EMPTY3} edgeholes,nostraight")
    assert RULES.start(size="2", nostraight="on").text() == "rumbo ../.. k ? ../.. nostraight"
    assert RULES.start(size="2", edgeholes="off").text() == "rumbo ../.. k ? ../.."
    assert set(RULES.options) == {"size", "komi", "edgeholes", "nostraight"}
    assert RULES.start(size="2", komi="0").options() == {
        "size": "2", "edgeholes": "off", "nostraight": "off"}


@pytest.mark.parametrize(("options", "reason"), [
    ({"size": "1"}, "size='1' must be a whole number from 2 to 26"),
    ({"size": "27"}, "size='27'"),
    ({"size": "nine"}, "size='nine'"),
    ({"size": "3", "komi": "10"}, "komi 10 is outside -9 to 9"),
    ({"komi": "x"}, "'x' is not a whole number"),
    ({"edgeholes": "yes"}, "edgeholes='yes' is not allowed"),
    ({"nostraight": "1"}, "nostraight='1' is not allowed"),
    ({"pie": "on"}, "unknown option 'pie'"),
])
def test_bad_start_options(options: dict[str, str], reason: str) -> None:
    with pytest.raises(OptionError, match=reason):
        RULES.start(**options)
