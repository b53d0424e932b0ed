"""Listings are lazy and have a limit (issue 60, item 8): a crafted Raindrops position
with hundreds of thousands of turns. ``games turns`` and ``games next`` stop at their
limit with one clear line, and the ``turns`` command in play works out only the turns it
shows (the engine's search is counted, never timed)."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from fault_helpers import one_line_error, run_main

from companion import games
from companion.cli.play_games import GamesTerminal
from companion.games.raindrops import engine
from companion.games.session import GameSession

BLOCK = ("raindrops .w......w./........../........../........../.bbbbbbbb./.bbbbbbbb./"
         ".bbbbbbbb./.bbbbbbbb./........../b......... b")
"""10 x 10: a 4 x 8 block of Black against two White pieces: 58,619 turns, whose whole
search expands 10,189 chain states."""


@pytest.fixture
def expansions(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many chain states the Raindrops search expanded (one item a state)."""
    counted: list[int] = []
    original = engine.expand

    def counting(*args: Any, **kwargs: Any) -> Any:
        counted.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(engine, "expand", counting)
    return counted


def test_turns_are_listed_lazily(expansions: list[int]) -> None:
    rules = games.get("raindrops")
    first = list(itertools.islice(rules.turns(rules.parse(BLOCK)), 40))
    assert len(first) == 40
    assert len(expansions) < 1_000


def test_the_lazy_turns_are_the_least_turn_of_each_successor_in_order() -> None:
    rules = games.get("raindrops")
    for text in ("raindrops bwbwb/wbwbw/bw.wb/wbwbw/bwbwb b",
                 "raindrops ....../.bbb../.bb.w./...w../....../...... b",
                 "raindrops wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/"
                 "bwbwbwbw b"):
        position = rules.parse(text)
        listed = list(rules.turns(position))
        assert listed == sorted(listed, key=lambda t: _path_key(rules, position, t))
        reached = [rules.play(position, turn) for turn in listed]
        assert len(set(reached)) == len(reached)
        assert set(reached) == rules.successors(position)


def _path_key(rules: Any, position: Any, turn: str) -> tuple[Any, ...]:
    from companion.games.raindrops.engine import Context
    from companion.games.raindrops.turns import play_path

    return tuple(play_path(Context(position), turn).path)


def test_games_turns_stops_at_its_limit_with_one_line(
        capsys: pytest.CaptureFixture[str], expansions: list[int]) -> None:
    code, out, err = run_main(capsys, ["games", "turns", BLOCK, "--limit", "500"])
    assert code == 2
    assert len(out.splitlines()) == 500
    assert "more than 500 legal turns" in one_line_error(err)
    assert len(expansions) < 5_000


def test_games_next_stops_at_its_limit_and_goes_on(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(capsys, ["games", "next", "--jsonl", "--limit", "500"],
                            BLOCK + "\nraindrops b./.w b\n")
    assert code == 0
    first, second = (json.loads(line) for line in out.splitlines())
    assert "more than 500" in first["error"] and "next" not in first
    assert second["next"] == [] and second["outcome"] is not None


def test_the_play_turns_command_shows_forty_and_searches_little(
        capsys: pytest.CaptureFixture[str], expansions: list[int]) -> None:
    rules = games.get("raindrops")
    terminal = GamesTerminal(GameSession(rules, rules.parse(BLOCK)))
    expansions.clear()
    terminal.show_turns()
    out = capsys.readouterr().out
    assert out.startswith("Legal turns: ") and out.rstrip().endswith("...")
    assert len(out.split(": ", 1)[1].split()) == 41
    assert len(expansions) < 1_000


def test_a_line_too_long_for_games_next_is_answered_with_an_error(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(capsys, ["games", "next", "--jsonl"],
                            "x" * 200_000 + "\nraindrops b./.w b\n")
    assert code == 0
    first, second = (json.loads(line) for line in out.splitlines())
    assert "longer than" in first["error"] and len(first["position"]) <= 100
    assert "next" in second
