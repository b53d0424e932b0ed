"""The engines' shared contract: levels, budgets, words, the background search, `raindrop best`.

A fake engine stands in for the real ones, registered under a game name of its
own: it counts "playouts" until its budget or a stop, and ranks two turns.
"""

from __future__ import annotations

import io
import json
import threading
import time
from collections.abc import Iterator, Mapping

import pytest

from companion.cli import main
from companion.engine import registry
from companion.engine.contract import (
    Analysis,
    Budget,
    Candidate,
    EngineError,
    Progress,
    ProgressCallback,
    Proof,
)
from companion.engine.levels import LEVELS, Level, LevelError, level
from companion.engine.thinker import think
from companion.engine.words import chance_words


class FakeEngine:
    """Plays ``a`` (value 0.7) over ``b`` (0.4); ``fake over`` is a finished game."""

    def __init__(self, options: Mapping[str, str]) -> None:
        self.options = dict(options)

    def analyse(self, position: str, *, level: Level, budget: Budget, seed: int = 0,
                stop: threading.Event | None = None,
                progress: ProgressCallback | None = None) -> Analysis:
        if position.split()[1:] == ["over"]:
            raise EngineError("the game is over")
        start = time.monotonic()
        playouts = 0
        best = Candidate("a", 0.7, 0, "fake after-a")
        while True:
            elapsed = time.monotonic() - start
            if stop is not None and stop.is_set():
                break
            if budget.playouts is not None and playouts >= budget.playouts:
                break
            if budget.seconds is not None and elapsed >= budget.seconds:
                break
            playouts += 1
            if progress is not None and playouts % 50 == 0:
                progress(Progress(playouts, elapsed, best))
            time.sleep(0.0005)
        chosen = Candidate("a", 0.7, playouts, "fake after-a", proof=None)
        other = Candidate("b", 0.4, playouts // 3, None)
        return Analysis(position=position.strip(), mover="white", chosen=chosen,
                        candidates=(chosen, other), playouts=playouts,
                        seconds=time.monotonic() - start, level=level.number,
                        stopped=bool(stop and stop.is_set()), notes={"opponent": "black"})

    def accepts_draw(self, position: str, *, level: Level, seed: int = 0) -> bool:
        return False


@pytest.fixture(autouse=True)
def fake_engine() -> Iterator[None]:
    registry.register("fake", lambda game, options: FakeEngine(options))
    yield
    registry.unregister("fake")


def test_levels_are_five_with_rising_time_caps() -> None:
    assert [item.number for item in LEVELS] == [1, 2, 3, 4, 5]
    assert [item.seconds for item in LEVELS] == [0.1, 0.5, 2.0, 5.0, 15.0]
    assert level() is LEVELS[2]
    assert level("5") is LEVELS[4]
    for bad in ("0", "6", "-1", "x", "３", "1" * 5000, ""):
        with pytest.raises(LevelError):
            level(bad)


def test_a_budget_refuses_nonsense_and_a_level_sets_the_time() -> None:
    assert Budget.for_level(level(2)) == Budget(seconds=0.5)
    assert Budget.for_level(level(2), playouts=100) == Budget(playouts=100)
    for bad in ({}, {"seconds": 0}, {"seconds": float("nan")}, {"seconds": 1e9},
                {"playouts": 0}, {"playouts": True}):
        with pytest.raises(ValueError):
            Budget(**bad)  # type: ignore[arg-type]


def test_an_estimate_is_said_from_the_movers_side() -> None:
    assert chance_words(0.5, "white", "black") == "The game is even (about 50% for White)"
    assert chance_words(0.95, "vertical", "horizontal").startswith("Vertical is winning")
    assert chance_words(0.05, "vertical", "horizontal").startswith("Horizontal is winning")
    assert chance_words(0.2, "black", "white").startswith("White is clearly better")
    assert chance_words(1.0, "black", "white", proof=Proof.WIN) == "Black wins with best play"


def test_the_registry_tells_abstract_positions_from_rfen() -> None:
    assert registry.game_of("dropper ..../..../..../.... w") == "dropper"
    assert registry.game_of("fake x") == "fake"
    assert registry.game_of("8/8/8/8/8/8/8/8[Kk] w - - 0 1") == "raindropchess"
    with pytest.raises(EngineError):
        registry.game_of("   ")
    with pytest.raises(EngineError):
        registry.engine_for_game("nosuchgame")


def test_a_search_runs_off_the_callers_thread_and_stops_at_once() -> None:
    seen: list[Progress] = []
    threads: set[str] = set()

    def on_progress(progress: Progress) -> None:
        seen.append(progress)
        threads.add(threading.current_thread().name)

    thinking = think(FakeEngine({}), "fake x", level=level(5), on_progress=on_progress)
    assert not thinking.done()  # the caller was not blocked for the level's 15 s
    deadline = time.monotonic() + 5
    while thinking.progress is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert thinking.progress is not None
    thinking.stop()
    analysis = thinking.result(timeout=2)
    assert analysis.stopped and analysis.chosen.turn == "a"
    assert seen and threading.current_thread().name not in threads


def test_a_search_error_reaches_the_caller() -> None:
    thinking = think(FakeEngine({}), "fake over", level=level(1))
    with pytest.raises(EngineError, match="over"):
        thinking.result(timeout=2)


def run(capsys: pytest.CaptureFixture[str], *argv: str,
        stdin: bytes = b"") -> tuple[int, str, str]:
    import sys

    class Stdin(io.TextIOWrapper):
        pass

    old = sys.stdin
    sys.stdin = Stdin(io.BytesIO(stdin))
    try:
        code = main(list(argv))
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, out, err


def test_best_prints_the_turn_and_the_estimate_in_words(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "best", "fake x", "--playouts", "10", "--top", "2")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "a"
    assert lines[1] == "White is clearly better (about 70% for White)"
    assert lines[2].split()[:3] == ["1.", "a", "70%"] and lines[3].split()[:3] == ["2.", "b", "40%"]


def test_best_refuses_bad_arguments_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["best", "fake over"], ["best"], ["best", "fake x", "--jsonl"],
                 ["best", "fake x", "--rules", "a=b"], ["best", "fake x", "--rules", ",,,"]):
        code, _, err = run(capsys, *argv)
        assert code == 2 and err.startswith("raindrop: ") and err.count("\n") == 1, argv
    for argv in (["best", "fake x", "--level", "9"], ["best", "fake x", "--seconds", "nan"],
                 ["best", "fake x", "--seconds", "1" * 5000], ["best", "fake x", "--seed", "٣"]):
        with pytest.raises(SystemExit) as exit_info:
            run(capsys, *argv)
        assert exit_info.value.code == 2, argv


def test_best_jsonl_answers_every_line_in_order_and_survives_bad_ones(
        capsys: pytest.CaptureFixture[str]) -> None:
    stdin = (b"fake x\n\nfake over\nnot a position at all\n" + b"y" * 70_000 + b"\n"
             + b"\xff\xfe\n" + b"fake again\n")
    code, out, _ = run(capsys, "best", "--jsonl", "--playouts", "5", stdin=stdin)
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == 6
    assert records[0] == {"position": "fake x", "turn": "a", "after": "fake after-a",
                          "value": 0.7, "playouts": 5, "seconds": records[0]["seconds"]}
    assert records[1]["position"] == "fake over" and "over" in records[1]["error"]
    assert set(records[2]) == {"position", "error"}  # read as an RFEN and refused
    assert "longer than" in records[3]["error"]
    assert "UTF-8" in records[4]["error"]
    assert records[5]["turn"] == "a"
