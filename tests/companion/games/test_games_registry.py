"""The registry, option checking and the interface defaults, on the toy game."""

from __future__ import annotations

import pytest
from games_toy import RULES as ROW

from companion import games


@pytest.fixture
def row() -> object:
    games.register(ROW)
    yield ROW
    games.unregister("row")


def test_registered_game_is_found_by_name_and_position(row: object) -> None:
    assert games.get("row") is ROW
    assert games.get(" ROW ") is ROW
    assert "row" in games.names()
    assert games.game_of("row ..b.. w") is ROW


def test_duplicate_and_bad_names_are_refused(row: object) -> None:
    with pytest.raises(ValueError, match="already registered"):
        games.register(ROW)
    with pytest.raises(games.UnknownGameError, match="unknown game 'nope'"):
        games.get("nope")
    with pytest.raises(games.PositionError, match="unknown game 'chess'"):
        games.game_of("chess 8/8 w")
    with pytest.raises(games.PositionError, match="empty"):
        games.game_of("   ")


def test_options_are_checked() -> None:
    assert ROW.check_options({}) == {"size": "5", "first": "b"}
    assert ROW.start(size="3", first="w").text() == "row ... w"
    with pytest.raises(games.OptionError, match="unknown option 'colour'"):
        ROW.start(colour="b")
    with pytest.raises(games.OptionError, match="first='x' is not allowed"):
        ROW.start(first="x")


def test_default_successors_turns_to_and_claims() -> None:
    pos = ROW.parse("row b.w.. b")
    assert {p.text() for p in ROW.successors(pos)} == {
        "row bbw.. w", "row b.wb. w", "row b.w.b w"}
    target = ROW.parse("row b.wb. w")
    assert ROW.turns_to(pos, target) == ("d1",)
    assert ROW.turns_to(pos, pos) == ()
    assert ROW.claims(pos) == ()
    with pytest.raises(games.IllegalTurn, match="none available"):
        ROW.claim(pos, "draw")
    later = ROW.parse("row bbw.. w")
    assert ROW.claims(later) == ("draw",)
    assert ROW.outcome(ROW.claim(later, "draw")) == games.Outcome(None, {}, "drawn by claim")
