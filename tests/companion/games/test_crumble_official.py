"""Import and export of the official apps' move notation (rules file, section 10.3)."""

from __future__ import annotations

import random

import pytest
from bench_crumble import random_game
from crumble_vectors import P2A, P3Q, P5, P6, P9

from companion.games import IllegalTurn
from companion.games.crumble import RULES, from_official, to_official


@pytest.mark.parametrize(("turn", "official"), [
    ("b5-", "1,4H"),                 # b5 = 1 point right, 4 up; a horizontal cut
    ("b5- b5t>N", "1,4HN"),          # the half is implied by N
    ("b5| b5l>W", "1,4VW"),
    ("a6-", "0,5H"),                 # a first count of 0: straight up
    ("f1| f1l>W", "5VW"),            # bottom row: one number
])
def test_start_position_examples(turn: str, official: str) -> None:
    start = RULES.start()
    assert to_official(start, turn) == official
    assert from_official(start, official) == turn


def test_half_named_when_not_implied_and_long_cuts_numbered() -> None:
    quarters = RULES.parse(P3Q)
    assert to_official(quarters, "a2- a2b>E") == "0,1HS-E"
    assert to_official(quarters, "a2- a2t>E") == "0,1HN-E"
    assert from_official(quarters, "0,1HN-E") == "a2- a2t>E"
    assert to_official(RULES.parse(P6), "b2-d2 b2b>S") == "1,1H3-1S-S"
    two = RULES.parse(P2A)
    assert to_official(two, "a1:a2-c1:c2") == "0H2"
    assert to_official(two, "a1:a2-c1:c2 c2>W") == "0H2-2N-W"
    assert from_official(two, "0H2-2N-W") == "a1:a2-c1:c2 c2>W"


def test_joins_count_points_along_the_sides() -> None:
    quarters = RULES.parse(P3Q)
    assert to_official(quarters, "+c2") == "2,1J2,2"
    assert from_official(quarters, "2,1J2,2") == "+c2"
    assert from_official(quarters, to_official(quarters, "+[3/2,3/2,1,1]")) == "+[3/2,3/2,1,1]"


def test_every_turn_round_trips() -> None:
    positions = [RULES.parse(t) for t in (P2A, P3Q, P5, P6, P9)]
    for g in range(2):
        positions += random_game(31 + g, 40)[::13]
    rng = random.Random(5)
    for pos in positions:
        turns = list(RULES.turns(pos))
        for turn in rng.sample(turns, min(120, len(turns))):
            assert from_official(pos, to_official(pos, turn)) == turn


@pytest.mark.parametrize("bad", ["", "xyz", "9,9H", "1,4Q", "1,4H-", "2,4H", "1,4J9,9",
                                 "1,4HE"])
def test_bad_official_notation_is_refused(bad: str) -> None:
    with pytest.raises(IllegalTurn):
        from_official(RULES.start(), bad)


def test_piece_names_are_walks_to_every_piece() -> None:
    from companion.games.crumble.official import _Points
    positions = [RULES.parse(t) for t in (P3Q, P6)] + random_game(47, 60)[::10]
    for pos in positions:
        points = _Points(pos)
        names = points.names(pos.state.rects)
        assert set(names) == {(x, y) for x, y, _, _ in pos.state.rects}
        for corner, name in names.items():
            assert points.walk(name) == corner
    start = _Points(RULES.start())
    assert start.names(RULES.start().state.rects)[(6, 4)] == "3,2"  # d3, in units of 1/2
