"""Crumble position texts (every validity rule), options, turn texts, claims, cells, diagram."""

from __future__ import annotations

import pytest
from crumble_vectors import P3Q, P6, P11, START

from companion import games
from companion.games import IllegalTurn, OptionError, PositionError
from companion.games.crumble import RULES

SMALL = "crumble 2x1 0,0,1,1,b;1,0,1,1,w b 0 -|-|-|-"


def test_registered_under_its_name() -> None:
    assert games.get("crumble") is RULES
    assert games.game_of(START) is RULES
    assert RULES.players == ("black", "white")
    assert set(RULES.options) == {"width", "height", "topleft"}
    assert {k: o.default for k, o in RULES.options.items()} == {
        "width": "6", "height": "6", "topleft": "b"}


def test_start_options() -> None:
    assert RULES.start().text() == START
    assert RULES.start(width="6", height="6", topleft="b").text() == START
    flipped = RULES.start(topleft="w").text()
    assert flipped.startswith("crumble 6x6 0,0,1,1,b;1,0,1,1,w")
    assert "0,5,1,1,w" in flipped
    odd = RULES.start(width="3", height="3", topleft="w")
    assert odd.text() == ("crumble 3x3 0,0,1,1,w;1,0,1,1,b;2,0,1,1,w;0,1,1,1,b;1,1,1,1,w;"
                          "2,1,1,1,b;0,2,1,1,w;1,2,1,1,b;2,2,1,1,w b 0 -|-|-|-")
    assert RULES.start(width="4", height="2").text().startswith("crumble 4x2 0,0,1,1,w;")
    for bad in ({"width": "0"}, {"height": "27"}, {"width": "x"}, {"topleft": "g"},
                {"size": "6"}):
        with pytest.raises(OptionError):
            RULES.start(**bad)


def test_lenient_reading_gives_the_canonical_text() -> None:
    shuffled = "  crumble 2x1   1,0,2/2,1,w;0,0,1,1,b b 0 -|-|-|-  "
    assert RULES.parse(shuffled).text() == SMALL
    regions = "crumble 2x1 0,0,1,1,b;1,0,1,1,w b 0 0,0,1,1/2;0,1/2,1,1/2;1,0,1,1|-|-|-"
    assert RULES.parse(regions).text().endswith(" 0,0,2,1|-|-|-")
    assert RULES.parse(P3Q).text() == P3Q


@pytest.mark.parametrize(("text", "field"), [
    ("crumble 2x1 0,0,1,1,b;1,0,1,1,w b 0", "6 fields"),
    ("rumble 2x1 0,0,1,1,b;1,0,1,1,w b 0 -|-|-|-", "first field"),
    ("crumble 2by1 0,0,1,1,b;1,0,1,1,w b 0 -|-|-|-", "size field"),
    ("crumble 0x1 0,0,1,1,b;1,0,1,1,w b 0 -|-|-|-", "size field"),
    ("crumble 27x1 0,0,1,1,b;1,0,1,1,w b 0 -|-|-|-", "size field"),
    ("crumble 2x1 0,0,1,1,b;1,0,1,1 b 0 -|-|-|-", "board field"),
    ("crumble 2x1 0,0,1,1,b;1,0,1,1,x b 0 -|-|-|-", "colour"),
    ("crumble 2x1 0,0,1,1,b;1,0,1/3,1,w b 0 -|-|-|-", "dyadic"),
    ("crumble 2x1 0,0,1,1,b;1,0,-1,1,w b 0 -|-|-|-", "not a number"),
    ("crumble 3x1 0,0,3,1,b b 0 -|-|-|-", "half-square"),
    ("crumble 2x1 0,0,1,1,b;1,0,0,0,w b 0 -|-|-|-", "half-square"),
    ("crumble 2x1 0,0,1,1,b;3/2,0,1,1,w b 0 -|-|-|-", "sticks out"),
    ("crumble 2x1 0,0,1,1,b b 0 -|-|-|-", "gaps"),
    ("crumble 2x1 0,0,1,1,b;1,0,1,1,w;1/2,0,1/2,1/2,w b 0 -|-|-|-", "overlaps"),
    ("crumble 2x1 0,0,1,1,b;1,0,1,1/2,w;1,0,1,1/2,w b 0 -|-|-|-", "overlap"),
    ("crumble 2x1 0,0,1,1,b;1,0,1,1,w x 0 -|-|-|-", "side field"),
    ("crumble 2x1 0,0,1,1,b;1,0,1,1,w b 4 -|-|-|-", "draw field"),
    ("crumble 2x1 0,0,1,1,b;1,0,1,1,w b 0 -|-|-", "history field"),
    ("crumble 2x1 0,0,1,1,b;1,0,1,1,w b 0 -|0,0,1,1|-|-", "follows a '-'"),
    ("crumble 2x1 0,0,1,1,b;1,0,1,1,w b 0 0,0,0,1|-|-|-", "is empty"),
    ("crumble 2x1 0,0,1,1,b;1,0,1,1,w b 0 2,0,1,1|-|-|-", "sticks out"),
    ("crumble 2x1 0,0,1,1,b;1,0,1,1,w b 0 0,0,1|-|-|-", "4 comma"),
])
def test_invalid_position_texts_name_the_field(text: str, field: str) -> None:
    with pytest.raises(PositionError, match=field):
        RULES.parse(text)


def test_an_enclosed_cluster_cannot_stand() -> None:
    ring = ("crumble 3x3 0,0,1,1,b;1,0,1,1,b;2,0,1,1,b;0,1,1,1,b;1,1,1,1,w;2,1,1,1,b;"
            "0,2,1,1,b;1,2,1,1,b;2,2,1,1,b w 0 -|-|-|-")
    with pytest.raises(PositionError, match="uncaptured"):
        RULES.parse(ring)


def test_finished_positions() -> None:
    won = RULES.parse("crumble 2x1 0,0,1,1,b;1,0,1,1,b w 0 -|-|-|-")
    outcome = RULES.outcome(won)
    assert outcome is not None and outcome.winner == "black"
    assert list(RULES.turns(won)) == []
    assert RULES.successors(won) == frozenset()
    assert RULES.claims(won) == ()
    with pytest.raises(IllegalTurn, match="over"):
        RULES.play(won, "a1-")
    with pytest.raises(IllegalTurn, match="over"):
        RULES.agree_draw(won)


def test_turn_texts_are_normalized() -> None:
    start = RULES.start()
    assert RULES.canonical_turn(start, " B5-   b5T > n ") == "b5- b5t>N"
    assert RULES.canonical_turn(start, "[1,4,1,1]| [1,4,1/2,1]>w") == "b5| b5l>W"
    assert RULES.canonical_turn(start, "b5-b5") == "b5-"
    quarters = RULES.parse(P3Q)
    assert RULES.canonical_turn(quarters, "+[2,1,1,1]") == "+c2"
    assert RULES.canonical_turn(quarters, "c2lb|") == "c2bl|"
    joined = RULES.play(quarters, "+c2 >E")
    assert joined == RULES.play(quarters, "+c2 c2>E")
    assert RULES.canonical_turn(quarters, "+c2 c2>E") == "+c2 >E"
    assert RULES.canonical_turn(RULES.parse(P6), "d2- d2t>N") == "d2- d2t>N"


@pytest.mark.parametrize(("turn", "message"), [
    ("", "empty turn"),
    ("b5", "split .* or a join"),
    ("b5>N", "starts with a split"),
    ("z9-", "off the 6x6 board"),
    ("b5x-", "not a piece designator"),
    ("[1,4,1/3,1]-", "dyadic"),
    ("b5- >N", "name the half"),
    ("b5- b5t>X", "N E S W"),
    ("b5- b5t N", "'>'"),
    ("b5- c5>N", "not a piece this turn's split made"),
    ("+b5", "single piece"),
    ("+a5:b6", "not black's"),
    ("a5-", "not black's"),
    ("b5tl-", "not a piece on the board"),
    ("b5-d5", "cross c5"),
    ("b5-b1", "does not reach"),
    ("b5- b5t>E", "east side"),
    ("b5- b5b>N", "black's own"),
])
def test_illegal_turns_name_the_bad_part(turn: str, message: str) -> None:
    with pytest.raises(IllegalTurn, match=message):
        RULES.play(RULES.start(), turn)


def test_turns_are_canonical_and_distinct() -> None:
    pos = RULES.parse(P6)
    turns = list(RULES.turns(pos))
    assert len(turns) == len(set(turns))
    for turn in turns[:: max(1, len(turns) // 40)]:
        assert RULES.canonical_turn(pos, turn) == turn


def test_claims_and_agreement() -> None:
    start = RULES.start()
    assert RULES.claims(start) == ()
    agreed = RULES.agree_draw(start)
    assert agreed.text() == START.replace(" b 0 ", " b = ")
    assert RULES.claim(start, "agreed") == agreed
    outcome = RULES.outcome(agreed)
    assert outcome is not None and outcome.winner is None
    assert RULES.claims(agreed) == ()
    big = RULES.parse(P11)
    assert RULES.big_pieces(big) == ("0,0,2,2",)
    white_to_move = RULES.parse(P11.replace(" b 0 ", " w 0 "))
    assert RULES.claims(white_to_move) == ()


def test_draw_by_three_renewable_turns() -> None:
    pos = RULES.start()
    draws = []
    for turn in ("b5-", "a5-", "+b5", "+a5", "b5- b5t>NS", "a5- a5t>NS", "+b5 >NS"):
        pos = RULES.play(pos, turn)
        draws.append(pos.text().split()[4])
    assert draws == ["0", "0", "0", "0", "1", "2", "3"]
    outcome = RULES.outcome(pos)
    assert outcome is not None and outcome.winner is None
    assert RULES.successors(pos) == frozenset()


def test_cells_name_every_piece() -> None:
    cells = RULES.parse(P3Q).cells()
    assert cells["3/2,1,1/2,1/2"] == "w"
    assert cells["0,0,1,1"] == "w"
    assert len(cells) == 28
    after = RULES.builder(RULES.start()).add("b5-")
    assert after.steps[0].changes == {"1,4,1,1": ".", "1,4,1,1/2": "b", "1,9/2,1,1/2": "b"}


def test_diagram() -> None:
    drawing = RULES.diagram(RULES.start())
    assert drawing.splitlines()[0] == "6 X . X . X ."
    assert "  a b c d e f" in drawing
    assert "pieces other" not in drawing
    quarters = RULES.diagram(RULES.parse(P3Q)).splitlines()
    assert quarters[8].strip() == "a  b  c  d"
    assert quarters[1] == "  XX .. XX .."
    assert quarters[9].startswith("pieces other than unit squares: b2bl=. b2br=. c2bl=X")
    assert "c3tr=." in " ".join(quarters[9:])
    assert "Black to move" in quarters[-1]
