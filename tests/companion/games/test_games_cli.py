"""`raindrop games ...` and `raindrop play --game`, on the toy game (no game special-cased)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from games_toy import RULES as ROW

from companion import games
from companion.cli import main
from companion.games.record import read_record


@pytest.fixture(autouse=True)
def row() -> Iterator[None]:
    games.register(ROW)
    yield
    games.unregister("row")


def run(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str = "") -> tuple[int, str, str]:
    import sys

    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(list(argv))
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, out, err


def test_list_start_turns_play(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games", "list")
    assert code == 0 and out.split() == [*games.BUILTIN, "row"]
    assert run(capsys, "games", "start", "row", "size=3")[1] == "row ... b\n"
    code, _, err = run(capsys, "games", "start", "row", "size")
    assert code == 2 and "KEY=VALUE" in err
    code, _, err = run(capsys, "games", "start", "row", "sise=3")
    assert code == 2 and "unknown option 'sise'" in err
    assert run(capsys, "games", "turns", "row b.w b")[1].split() == ["b1"]
    assert run(capsys, "games", "play", "row ... b", "a1", "C1")[1] == "row b.w b\n"
    code, _, err = run(capsys, "games", "play", "row ... b", "a1", "a1")
    assert code == 2 and "turn 2 'a1' is illegal" in err
    code, _, err = run(capsys, "games", "play", "row b.. x")
    assert code == 2 and "side field 'x'" in err


def test_next_jsonl(capsys: pytest.CaptureFixture[str]) -> None:
    lines = "row b.. w\n\nrow bwb w\nrow bx. w\nnonsense\n"
    code, out, _ = run(capsys, "games", "next", "--jsonl", stdin=lines)
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert records[0] == {"position": "row b.. w", "outcome": None,
                          "next": ["row b.w b", "row bw. b"]}
    assert records[1] == {"position": "row bwb w", "outcome": "draw", "next": []}
    assert records[2]["position"] == "row bx. w" and "cells field" in records[2]["error"]
    assert "unknown game 'nonsense'" in records[3]["error"]
    assert len(records) == 4


def test_steps(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games", "steps", "row b.. w")
    assert code == 0 and out.splitlines()[1:] == ["b1", "c1"]
    code, out, _ = run(capsys, "games", "steps", "row b.. w", "b1")
    assert "# complete: b1" in out


def test_play_a_whole_game_in_the_terminal(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    script = "help\na1\nzz\nb1\nundo\nc1\nturns\nb1\nundo\nsave\nquit\n"
    code, out, _ = run(capsys, "play", "--game", "row", "--data-dir", str(tmp_path),
                       "first=b", "size=3", stdin=script)
    assert code == 0
    assert "Black plays a1." in out and "White plays c1." in out
    assert "Not done: 'zz' is not a legal turn" in out
    assert "Not done: cannot undo: the game is over" in out
    assert "GAME OVER" in out
    saved = list((tmp_path / "games").glob("*.txt"))
    assert len(saved) == 1
    record = read_record(saved[0].read_text())
    assert record.session.turns == ["a1", "c1", "b1"]
    assert record.session.result is not None


def test_raindropchess_play_refuses_key_value_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "--board", "none", "size=3")
    assert code == 2 and "go with --game" in err
    code, _, err = run(capsys, "play", "--game", "nope")
    assert code == 2 and "unknown game 'nope'" in err
