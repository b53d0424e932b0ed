"""Every test vector of the Crumble rules file (section 12), with its exact expected result."""

from __future__ import annotations

from fractions import Fraction

import pytest
from crumble_vectors import (
    P1_B5,
    P2A,
    P2A_CUT,
    P2B,
    P2C,
    P3A,
    P3A_JOIN,
    P3B,
    P3Q,
    P4,
    P5,
    P5_E,
    P5_EEE,
    P6,
    P6_E3,
    P6_E3_WE,
    P6_E5,
    P6B,
    P6B_D2,
    P7,
    P7_WIN,
    P8,
    P8_D3,
    P9,
    P9_D6,
    P10,
    P10_DRAW,
    P11,
    P11_CLAIMED,
    START,
)

from companion.games import IllegalTurn
from companion.games.crumble import RULES
from companion.games.crumble.names import designate, read_designator


def after(position: str, turn: str) -> str:
    return RULES.play(RULES.parse(position), turn).text()


def count(position: str) -> int:
    return len(RULES.successors(RULES.parse(position)))


def in_successors(position: str, result: str) -> bool:
    return any(p.text() == result for p in RULES.successors(RULES.parse(position)))


def illegal(position: str, turn: str) -> None:
    with pytest.raises(IllegalTurn):
        RULES.play(RULES.parse(position), turn)


def test_start_position_text_and_count() -> None:
    assert RULES.start().text() == START
    assert count(START) == 96


def test_12_1_start_turns() -> None:
    assert after(START, "b5-") == P1_B5
    swapped = P1_B5.replace("1,9/2,1,1/2,b", "1,9/2,1,1/2,w").replace("1,5,1,1,w", "1,5,1,1,b")
    assert swapped != P1_B5
    assert after(START, "b5- b5t>N") == swapped
    assert after(START, "b5- b5t>NS") == P1_B5
    assert "0,4,1,1,b;1,4,1/2,1,w;3/2,4,1/2,1,b" in after(START, "b5| b5l>W")
    for turn in ("b5-", "b5- b5t>N", "b5- b5t>NS", "b5| b5l>W"):
        assert in_successors(START, after(START, turn))
    for turn in ("b5- b5t>E", "b5- b5t>S", "b5| b5l>N", "a5-", "b5-d5", "b5- b5b>NN"):
        illegal(START, turn)


def test_12_2_long_splits() -> None:
    assert after(P2A, "a1:a2-c1:c2") == P2A_CUT
    after(P2A, "a1:a2-")
    after(P2A, "c1:c2-")
    assert count(P2A) == 24
    illegal(P2B, "a1:a2-c1:c2")
    after(P2B, "a1:a2-")
    assert count(P2B) == 6
    illegal(P2C, "a1:a2-e1:e2")
    after(P2C, "a1:a2-")
    after(P2C, "e1:e2-")
    cut = after(P2C, "[1,1/2,2,1]|")
    assert "1,1/2,1,1,b;2,1/2,1,1,b" in cut
    assert cut.endswith(" 1,1/2,2,1|-|-|-")
    illegal(P2C, "[1,1/2,2,1]-")
    assert count(P2C) == 15


def test_12_3_joins() -> None:
    assert after(P3A, "+a3:b3") == P3A_JOIN
    assert "0,1,1,2,b" in after(P3A, "+a2:a3")
    illegal(P3A, "+a2:b3")
    illegal(P3A, "+a1:c1")
    assert count(P3A) == 28
    illegal(P3B, "+a3:c3")
    assert count(P3B) == 71
    joined = after(P3Q, "+[3/2,3/2,1,1]")
    assert "3/2,3/2,1,1,b" in joined
    assert joined.endswith(" 3/2,3/2,1,1|-|-|-")
    assert "3/2,3/2,1,1/2,b" in after(P3Q, "+[3/2,3/2,1,1/2]")
    assert "2,1,1,1,b" in after(P3Q, "+c2")
    assert "1,2,1,1/2,b" in after(P3Q, "+b3b")
    illegal(P3Q, "+b2")
    illegal(P3Q, "+[3/2,2,1,1]")
    assert count(P3Q) == 203


def test_12_4_complete_sides() -> None:
    after(P4, "a1:a2-")
    illegal(P4, "a1:a2- a1>E")
    illegal(P4, "a1:a2- a2>E")
    assert count(P4) == 7


def test_12_5_long_swap_and_backtracking() -> None:
    assert after(P5, "a2| a2r>EEE") == P5_EEE
    assert after(P5, "a2| a2r>EEWWE") == P5_E
    assert after(P5, "a2| a2r>E") == P5_E
    illegal(P5, "a2| a2r>EEEE")
    assert count(P5) == 57
    assert after(P6, "e3| e3l>WE") == P6_E3_WE
    assert after(P6, "e3|") != P6_E3_WE


def test_12_6_captures() -> None:
    result = after(P6, "e3| e3l>W")
    assert result == P6_E3
    assert "2,2,1,1,b" in result  # c3 captured
    assert RULES.outcome(RULES.parse(result)) is None
    assert "0,3,1,1,w" in result  # a4, boxed in against the edge, is never captured
    corner = after(P6B, "d2- d2t>N")
    assert corner == P6B_D2
    assert "2,2,1,1,w" in corner  # c3 not captured: corner contact with d2t
    assert RULES.outcome(RULES.parse(corner)) is None
    assert count(P6) == 137
    assert count(P6B) == 222


def test_12_7_winning_during_a_swap() -> None:
    won = after(P6, "e5- e5b>S")
    assert won == P6_E5
    outcome = RULES.outcome(RULES.parse(won))
    assert outcome is not None and outcome.winner == "black"
    illegal(P6, "e5- e5b>SW")
    assert RULES.successors(RULES.parse(won)) == frozenset()
    linked = after(P6, "d2- d2t>N")
    outcome = RULES.outcome(RULES.parse(linked))
    assert outcome is not None and outcome.winner == "black"
    assert "2,2,1,1,w" in linked
    lost = after(P7, "c1| c1l>W")
    assert lost == P7_WIN
    outcome = RULES.outcome(RULES.parse(lost))
    assert outcome is not None and outcome.winner == "white"
    assert count(P7) == 185


def test_12_8_swapping_piece_captured() -> None:
    assert after(P8, "d3| d3l>W") == P8_D3
    illegal(P8, "d3| d3l>WE")
    assert count(P8) == 679


def test_12_9_nested_capture() -> None:
    assert after(P9, "d6- d6b>S") == P9_D6
    illegal(P9, "d6- d6b>SS")
    assert count(P9) == 2778


def test_12_10_three_draw_turns() -> None:
    drawn = after(P10, "b5- b5t>N")
    assert drawn == P10_DRAW
    outcome = RULES.outcome(RULES.parse(drawn))
    assert outcome is not None and outcome.winner is None
    there_and_back = after(P10, "b5- b5t>NS")
    plain = after(P10, "b5-")
    assert there_and_back.split()[4] == "3"
    assert plain.split()[4] == "0"
    assert there_and_back.split()[2] == plain.split()[2]
    assert after(P10, "d5- d5t>N").split()[4] == "0"
    assert count(P10) == 98
    one = P10.replace(" b 2 ", " b 1 ")
    assert after(one, "b5- b5t>N").split()[4] == "2"
    other = P10.replace("|0,4,2,2", "|3,4,1,1")
    assert after(other, "b5- b5t>N").split()[4] == "0"


def test_12_11_one_big_piece() -> None:
    pos = RULES.parse(P11)
    assert RULES.claims(pos) == ("draw",)
    assert RULES.outcome(pos) is None
    assert count(P11) == 11
    claimed = RULES.claim(pos, "draw")
    assert claimed.text() == P11_CLAIMED
    outcome = RULES.outcome(claimed)
    assert outcome is not None and outcome.winner is None
    assert RULES.successors(claimed) == frozenset()
    assert RULES.claims(RULES.start()) == ()
    with pytest.raises(IllegalTurn):
        RULES.claim(RULES.start(), "draw")


@pytest.mark.parametrize(("name", "rect", "printed"), [
    ("a6", (0, 5, 1, 1), "a6"),
    ("a6t", (0, Fraction(11, 2), 1, Fraction(1, 2)), "a6t"),
    ("a6tl", (0, Fraction(11, 2), Fraction(1, 2), Fraction(1, 2)), "a6tl"),
    ("a5:b6", (0, 4, 2, 2), "a5:b6"),
    ("[1/2,1/2,1,1]", (Fraction(1, 2), Fraction(1, 2), 1, 1), "[1/2,1/2,1,1]"),
    ("c2lb", (2, 1, Fraction(1, 2), Fraction(1, 2)), "c2bl"),
    ("c2bl", (2, 1, Fraction(1, 2), Fraction(1, 2)), "c2bl"),
])
def test_12_12_designators(name: str, rect: tuple[Fraction, ...], printed: str) -> None:
    exact = tuple(Fraction(v) for v in rect)
    assert read_designator(name, 6, 6) == exact
    assert designate(read_designator(name, 6, 6)) == printed
