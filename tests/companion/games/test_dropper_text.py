"""Dropper's position text, turn text, start options, cells and diagram (rules 9, 10, R11)."""

from __future__ import annotations

import os
import random

import pytest

from companion import games
from companion.games.dropper import RULES, DropperPosition

FULL = os.environ.get("RAINDROP_FULL") == "1"


def test_start_options() -> None:
    assert RULES.check_options({}) == {"size": "8", "first": "w"}
    assert set(RULES.options) == {"size", "width", "height", "first"}
    assert RULES.start(first="b").text().endswith(" b")
    assert RULES.start(size="3").text() == "dropper .../.../... w"
    assert RULES.start(width="4", height="2").text() == "dropper ..../.... w"
    assert RULES.start(size="3", width="5").text() == "dropper ...../...../..... w"
    assert RULES.start(size="2", height="1").text() == "dropper .. w"
    assert RULES.start(size="26").width == 26
    assert RULES.start(size="1").text() == "dropper . w"


@pytest.mark.parametrize(("options", "reason"), [
    ({"size": "0"}, "size='0' must be a whole number from 1 to 26"),
    ({"size": "27"}, "size='27'"),
    ({"size": "x"}, "size='x'"),
    ({"width": "-3"}, "width='-3'"),
    ({"height": "30"}, "height='30'"),
    ({"first": "white"}, "first='white' is not allowed"),
    ({"colour": "b"}, "unknown option 'colour'"),
])
def test_bad_start_options(options: dict[str, str], reason: str) -> None:
    with pytest.raises(games.OptionError, match=reason):
        RULES.start(**options)


def test_position_text_round_trips_and_whitespace() -> None:
    text = "dropper w.b/.../b.. b"
    pos = RULES.parse(text)
    assert pos.text() == text and str(pos) == text
    assert RULES.parse("  dropper   w.b/.../b..\tb \n") == pos
    assert hash(RULES.parse(text)) == hash(pos)
    assert pos != RULES.parse("dropper w.b/.../b.. w")
    assert pos.to_move == "black" and RULES.parse("dropper . w").to_move == "white"
    assert (pos.width, pos.height) == (3, 3)


@pytest.mark.parametrize(("text", "reason"), [
    ("", "empty position text"),
    ("   ", "empty position text"),
    ("rumbo ... w", "name field: expected 'dropper', got 'rumbo'"),
    ("Dropper ... w", "name field.*lower case"),
    ("dropper ...", "expected 3 fields"),
    ("dropper ... w extra", "expected 3 fields"),
    ("dropper ... x", "side field: expected 'w' or 'b', got 'x'"),
    ("dropper ... W", "side field"),
    ("dropper .../.. w", "row 1 .* has 2 points, the top row 3"),
    ("dropper .../.W. w", "row 1 .* has 'W' .*lower case"),
    ("dropper 8/8 w", "has '8' .*no run-length"),
    ("dropper ..x w", "has 'x'"),
    ("dropper ..//.. w", "row 2 .* is empty"),
    ("dropper / w", "row 2 .* is empty"),
    ("dropper " + "." * 27 + " w", "27 points; a board is 1 to 26 points wide"),
    ("dropper " + "/".join(["."] * 27) + " w", "27 rows"),
])
def test_bad_position_texts(text: str, reason: str) -> None:
    with pytest.raises(games.PositionError, match=reason):
        RULES.parse(text)


def test_any_board_is_a_set_up_position() -> None:
    """Reachability is not checked: even a board of one colour is accepted."""
    pos = RULES.parse("dropper bbb/bbb/bbb w")
    outcome = RULES.outcome(pos)
    assert outcome is not None and outcome.result == "black"
    assert RULES.parse("dropper " + "/".join(["." * 26] * 26) + " b").height == 26


def test_cells_and_at() -> None:
    pos = RULES.parse("dropper w.b/.../b.. b")
    cells = pos.cells()
    assert len(cells) == 9
    assert cells["a3"] == "w" and cells["c3"] == "b" and cells["a1"] == "b"
    assert cells["b2"] == "." and set(cells.values()) == {".", "w", "b"}
    assert pos.at("c3") == "b"
    with pytest.raises(KeyError):
        pos.at("d1")


def test_diagram() -> None:
    pos = RULES.parse("dropper w.b/.../b.. b")
    assert RULES.diagram(pos) == "3 w . b\n2 . . .\n1 b . .\n  a b c"
    big = RULES.diagram(RULES.start(width="2", height="12"))
    assert big.splitlines()[0] == "12 . ."
    assert big.splitlines()[-2] == " 1 . ."
    assert big.splitlines()[-1] == "   a b"


def test_turn_text_is_read_leniently_and_written_canonically() -> None:
    pos = RULES.parse("dropper ......../......../......../...w..../......../......../"
                      "......../........ b")
    for typed in ("d5>c5+g5", "D5>C5+G5", " d5 > c5 + g5 ", "B d5>c5+g5", "black D5>C5+G5.",
                  "d5>c5+g5."):
        assert RULES.canonical_turn(pos, typed) == "d5>c5+g5"
    assert RULES.canonical_turn(RULES.start(), "H8") == "h8"
    assert RULES.canonical_turn(RULES.start(size="12"), "c12") == "c12"


@pytest.mark.parametrize(("turn", "reason"), [
    ("", "empty turn text"),
    ("pass", "not a turn text"),
    ("d5>", "not a turn text"),
    ("d5+c5", "not a turn text"),
    ("d5>c5+g5+h5", "not a turn text"),
    ("5d", "not a turn text"),
    ("d05>c5+g5", "without leading zeros"),
    ("d5>c9+g5", "the push point c9 is off the 8 x 8 board .a1 to h8."),
    ("d5>c5+z1", "the free stone z1 is off the 8 x 8 board"),
    ("w d5>c5+g5", "a turn for White, but Black is to move"),
    ("d5>d5+g5", "d5 is not next to d5"),
    ("d5>c5+d5", "cannot go on d5 after the drop d5>c5: it holds a stone"),
    ("d5>c5+c5", "cannot go on c5 after the drop d5>c5: it holds a stone"),
])
def test_bad_turn_texts(turn: str, reason: str) -> None:
    pos = RULES.parse("dropper ......../......../......../...w..../......../......../"
                      "......../........ b")
    with pytest.raises(games.IllegalTurn, match=reason):
        RULES.play(pos, turn)


def test_drop_only_turn_refuses_a_free_stone_it_has_no_room_for() -> None:
    pos = RULES.parse("dropper .w.. b")
    for turn in ("b1>c1+d1", "b1>c1+a1", "b1>c1+b1"):
        with pytest.raises(games.IllegalTurn, match="no free point remains after the drop "
                           "b1>c1, so the turn is b1>c1 alone"):
            RULES.play(pos, turn)
    with pytest.raises(games.IllegalTurn, match="cannot go on b1 after the drop b1>a1: it holds"):
        RULES.play(pos, "b1>a1+b1")


def test_positions_are_plain_values() -> None:
    a = DropperPosition("w.", "b")
    assert a == RULES.parse("dropper w. b")
    assert {a, RULES.parse("dropper w. b")} == {a}
    with pytest.raises(AttributeError):
        a.side = "w"  # type: ignore[misc]


def test_garbage_never_crashes() -> None:
    """Random position and turn texts: a position or PositionError, a turn or IllegalTurn;
    a turn that is accepted is one of the legal turns, canonically written."""
    rng = random.Random(5)
    alphabet = "..wwbbWB/ 0123456789>+-abcdhijz\t"
    for _ in range(3000 if FULL else 600):
        text = "dropper " + "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        try:
            pos = RULES.parse(text)
        except games.PositionError as error:
            assert str(error)
            continue
        assert RULES.parse(pos.text()) == pos
    pos = RULES.parse("dropper ......../......../......../...w..../......../......../"
                      "......../........ b")
    legal = set(RULES.turns(pos))
    parts = ["d5", "D5", "c5", "e6", "g5", "a1", "i9", "z0", "d05", ">", "+", " ", ".", "w ",
             "b ", "x", "5", "h8", "a10"]
    for _ in range(3000 if FULL else 600):
        turn = "".join(rng.choice(parts) for _ in range(rng.randint(0, 6)))
        try:
            written = RULES.canonical_turn(pos, turn)
        except games.IllegalTurn as error:
            assert str(error)
        else:
            assert written in legal
        try:
            built = RULES.builder(pos).add(turn)
        except games.IllegalTurn as error:
            assert str(error)
        else:
            assert built.steps


def test_ordinal_row_names_in_messages() -> None:
    with pytest.raises(games.PositionError, match=r"row 2 \(the 3rd from the top\) has 'x'"):
        RULES.parse("dropper ../../x./.. w")
    with pytest.raises(games.PositionError, match=r"row 1 \(the 12th from the top\)"):
        RULES.parse("dropper " + "/".join(["."] * 11 + [""]) + " w")
