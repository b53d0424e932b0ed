"""The abstract games' engine: the contract on every game, repeatability, legality, tactics,
proven results, decisions outside turns, and stopping.

Every search here runs on a playout budget (never a time), so the answers are the same on
any machine. Turns are checked against the plain implementations in benchmarks/.
"""

from __future__ import annotations

import io
import json
import random
import sys
import threading
from typing import Any

import plain_crumble
import plain_dropper
import plain_raindrops
import plain_rumbo
import pytest

from companion import games
from companion.cli import main
from companion.engine.abstract import make_engine
from companion.engine.contract import Budget, EngineError, Proof
from companion.engine.levels import level
from companion.engine.thinker import think

PLAIN: dict[str, Any] = {"dropper": plain_dropper, "rumbo": plain_rumbo,
                         "raindrops": plain_raindrops, "crumble": plain_crumble}

CRUMBLE_P6 = (  # rules file 12.6: Black to move wins with e5- e5b>S or d2- d2t>N
    "crumble 5x5 0,0,1,1,b;1,0,1,1,w;2,0,1,1,b;3,0,1,1,w;4,0,1,1,b;0,1,1,1,w;1,1,1,1,b;2,1,1,"
    "1,b;3,1,1,1,b;4,1,1,1,w;0,2,1,1,b;1,2,1,1,b;2,2,1,1,w;3,2,1,1,w;4,2,1,1,b;0,3,1,1,w;1,3,"
    "1,1,b;2,3,1,1,b;3,3,1,1,b;4,3,1,1,w;0,4,1,1,b;1,4,1,1,w;2,4,1,1,b;3,4,1,1,w;4,4,1,1,b b "
    "0 -|-|-|-")
CRUMBLE_P7 = (  # rules file 12.7: c1| c1l>W loses for Black during its own turn
    "crumble 4x4 0,0,1,1,b;1,0,1,1,w;2,0,1,1,b;3,0,1,1,b;0,1,1,1,b;1,1,1,1,b;2,1,1,1,w;3,1,1,"
    "1,w;0,2,1,1,w;1,2,1,1,b;2,2,1,1,b;3,2,1,1,w;0,3,1,1,w;1,3,1,1,w;2,3,1,1,w;3,3,1,1,w b 0 "
    "-|-|-|-")

SMALL_STARTS = {
    "dropper": "dropper ..../..../..../.... w",
    "rumbo": "rumbo ..../..../..../.... v 0 ..../..../..../....",
    "raindrops": "raindrops wbwb/bwbw/wbwb/bwbw b",
    "crumble": ("crumble 3x3 0,0,1,1,w;1,0,1,1,b;2,0,1,1,w;0,1,1,1,b;1,1,1,1,w;2,1,1,1,b;"
                "0,2,1,1,w;1,2,1,1,b;2,2,1,1,w b 0 -|-|-|-"),
}


def analyse(text: str, playouts: int = 40, seed: int = 0, number: int = 3) -> Any:
    engine = make_engine(text.split()[0], {})
    return engine.analyse(text, level=level(number), budget=Budget(playouts=playouts), seed=seed)


def check_turn(text: str, turn: str, after: str | None) -> None:
    """The turn is legal by the rules engine and reaches a plain successor."""
    game = text.split()[0]
    rules = games.get(game)
    pos = rules.parse(text)
    reached = rules.play(pos, turn).text()
    assert after == reached, (text, turn)
    assert reached in PLAIN[game].successors(text), (text, turn)


# ---- the contract on every game -----------------------------------------------------------

@pytest.mark.parametrize("game", sorted(SMALL_STARTS))
def test_best_names_a_legal_turn_and_says_the_estimate(
        game: str, capsys: pytest.CaptureFixture[str]) -> None:
    text = SMALL_STARTS[game]
    assert main(["best", text, "--playouts", "30", "--top", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    turn = lines[0]
    rules = games.get(game)
    assert rules.canonical_turn(rules.parse(text), turn) == turn
    assert "%" in lines[1] or "with best play" in lines[1]
    assert lines[2].split()[:2] == ["1.", turn] or lines[2].startswith(" 1.")


def test_best_jsonl_answers_every_game_and_survives_bad_lines(
        capsys: pytest.CaptureFixture[str]) -> None:
    over = "dropper bbw/bww/ww. w"  # rules file V6: White to move has no turn
    lines = [SMALL_STARTS[g] for g in sorted(SMALL_STARTS)] + [over, "dropper x/y w",
                                                               "rumbo ..", "crumble"]
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(("\n".join(lines) + "\n").encode()))
    try:
        assert main(["best", "--jsonl", "--playouts", "25", "--seed", "4"]) == 0
    finally:
        sys.stdin = old
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(records) == len(lines)
    for record, text in zip(records[:4], lines[:4], strict=True):
        assert set(record) == {"position", "turn", "after", "value", "playouts", "seconds"}
        assert record["position"] == games.game_of(text).parse(text).text()
        assert 0.0 <= record["value"] <= 1.0 and record["playouts"] >= 1
        check_turn(text, record["turn"], record["after"])
    for record in records[4:]:
        assert set(record) == {"position", "error"}
    assert "over" in records[4]["error"]


def test_a_finished_or_foreign_position_is_refused_by_name() -> None:
    engine = make_engine("dropper", {})
    with pytest.raises(EngineError, match="over"):
        engine.analyse("dropper bbw/bww/ww. w", level=level(1), budget=Budget(playouts=5))
    with pytest.raises(EngineError, match="Dropper"):
        engine.analyse("rumbo .../.../... v 0 .../.../...", level=level(1),
                       budget=Budget(playouts=5))
    with pytest.raises(EngineError):
        make_engine("dropper", {"joker_effect": "remove_piece"})


# ---- repeatable under a seed ---------------------------------------------------------------

@pytest.mark.parametrize("game", sorted(SMALL_STARTS))
def test_the_same_budget_and_seed_give_the_same_answer(game: str) -> None:
    text = SMALL_STARTS[game]
    first = analyse(text, playouts=60, seed=11, number=1)
    second = analyse(text, playouts=60, seed=11, number=1)
    assert first.chosen == second.chosen
    assert first.candidates == second.candidates
    assert first.playouts == second.playouts


# ---- legal on random positions of every size ------------------------------------------------

def random_positions(game: str, options: dict[str, str], seed: int, plies: int) -> list[Any]:
    """Every position of a seeded random game (by successors), up to ``plies`` turns."""
    rules = games.get(game)
    rng = random.Random(seed)
    pos = rules.start(**options)
    out = []
    for _ in range(plies):
        if rules.outcome(pos) is not None:
            break
        out.append(pos)
        pos = rng.choice(sorted(rules.successors(pos), key=lambda p: p.text()))
    return out


SIZES: list[tuple[str, dict[str, str], int]] = [
    *[("dropper", {"width": str(w), "height": str(h)}, 30) for w, h in
      ((1, 1), (2, 1), (1, 3), (3, 2), (4, 4), (5, 3), (8, 8))],
    *[("rumbo", {"size": str(n), "komi": "0"}, 40) for n in (2, 3, 4, 6, 9)],
    ("rumbo", {"size": "4", "komi": "1", "edgeholes": "on", "nostraight": "on"}, 20),
    *[("raindrops", {"size": str(n)}, 20) for n in (2, 3, 4, 5, 8)],
    ("raindrops", {"size": "6", "layout": "sparse"}, 20),
    *[("crumble", {"width": str(w), "height": str(h)}, 6) for w, h in
      ((1, 1), (2, 1), (2, 2), (3, 2), (4, 4))],
]


@pytest.mark.parametrize(("game", "options", "plies"), SIZES,
                         ids=[f"{g}-{'-'.join(o.values())}" for g, o, _ in SIZES])
def test_every_chosen_turn_is_legal(game: str, options: dict[str, str], plies: int) -> None:
    positions = random_positions(game, options, seed=len(options) + plies, plies=plies)
    for k, pos in enumerate(positions):
        if k % 3 and k != len(positions) - 1:
            continue  # a third of the positions, and the last
        number = 1 + k % 5
        analysis = analyse(pos.text(), playouts=12, seed=k, number=number)
        check_turn(pos.text(), analysis.chosen.turn, analysis.chosen.after)
        for candidate in analysis.candidates:
            assert candidate.after is not None
            assert 0.0 <= candidate.value <= 1.0


# ---- tactics: a win in one is taken, a loss in one avoided ----------------------------------

def one_ply(text: str, deep: bool) -> tuple[set[str], set[str]]:
    """(successors winning at once for the mover, successors that do not lose: at once,
    nor, when ``deep``, to an opponent's winning reply), by the rules engine."""
    rules = games.game_of(text)
    pos = rules.parse(text)
    mover = pos.to_move
    wins: set[str] = set()
    safe: set[str] = set()
    for after in rules.successors(pos):
        outcome = rules.outcome(after)
        if outcome is not None:
            if outcome.winner == mover:
                wins.add(after.text())
            elif outcome.winner is None:
                safe.add(after.text())
            continue
        if not deep:
            safe.add(after.text())
            continue
        replies = [rules.outcome(reply) for reply in rules.successors(after)]
        if not any(r is not None and r.winner not in (None, mover) for r in replies):
            safe.add(after.text())
    return wins, safe


TACTICS = [
    "raindrops ....w/ww.../...../...bb/b.... b",  # V4 (the seed's figure 2): a1-d1 joins
    "raindrops w....w/....../....../....../..b.../bb...b b",  # V5 (figure 3)
    "raindrops b.....w/......./......./...b.../......./......./w.....b b",  # V6: no capture
    "rumbo bb./wwb/bwb h 4 .../vv./.v.",  # example 5 at komi 4: only w@c3 wins
    "rumbo bb./wwb/bwb h 3 .../vv./.v.",  # at komi 3: w@c3 draws, b@c3 loses
    "dropper bbw/bww/ww. b",  # V6 with Black to move
    CRUMBLE_P6,
    CRUMBLE_P7,
]


@pytest.mark.parametrize("text", TACTICS, ids=[t[:30] for t in TACTICS])
def test_a_win_in_one_is_taken_and_a_loss_in_one_avoided(text: str) -> None:
    wins, safe = one_ply(text, deep=not text.startswith("crumble"))
    analysis = analyse(text, playouts=60, number=1)
    after = analysis.chosen.after
    if wins:
        assert after in wins
        assert analysis.chosen.proof is Proof.WIN
    elif safe:
        assert after in safe


def test_the_raindrops_figure_2_win_is_found_at_every_level() -> None:
    text = TACTICS[0]
    wins, _ = one_ply(text, deep=False)
    assert len(wins) == 3  # a1-d1, a1-e1 and the chain to a2
    for number in range(1, 6):
        assert analyse(text, playouts=30, number=number, seed=number).chosen.after in wins


# ---- proven results on solved tiny boards ---------------------------------------------------

@pytest.mark.parametrize(("board", "proof"), [
    (". w", Proof.WIN), ("... w", Proof.WIN), (".... w", Proof.DRAW),
    ("../.. w", Proof.DRAW), ("..... w", Proof.DRAW), ("... b", Proof.WIN),
])
def test_the_solver_proves_dropper_v9(board: str, proof: Proof) -> None:
    analysis = analyse(f"dropper {board}", playouts=3000)
    assert analysis.chosen.proof is proof


# ---- decisions outside turns ---------------------------------------------------------------

def test_rumbo_komi_and_side_are_turns_the_rules_accept() -> None:
    rules = games.get("rumbo")
    setup = rules.start(size="3")
    analysis = analyse(setup.text(), playouts=200)
    komi = int(analysis.chosen.turn.removeprefix("komi="))
    assert (komi + 3) % 2 == 1  # the parity the rules advise: N's other parity
    assert rules.play(setup, analysis.chosen.turn).text() == analysis.chosen.after
    chooser = rules.play(setup, analysis.chosen.turn)
    side = analyse(chooser.text(), playouts=200)
    assert side.chosen.turn in ("side=v", "side=h")
    assert rules.play(chooser, side.chosen.turn).text() == side.chosen.after


def test_crumble_draws_by_the_engines_judgement() -> None:
    engine = make_engine("crumble", {})
    rules = games.get("crumble")
    start = rules.start().text()
    assert not engine.accepts_draw(start, level=level(3), seed=1)  # even: play on
    assert not engine.offers_draw(start, level=level(3), seed=1)
    assert engine.claim(start, level=level(3), seed=1) is None  # nothing to claim
    lost = CRUMBLE_P6.replace(" b 0 ", " w 0 ")  # White to move; Black wins at once anyway
    assert engine.accepts_draw(lost, level=level(3), seed=1)
    assert engine.offers_draw(lost, level=level(3), seed=1)
    big = "crumble 4x2 0,0,2,2,b;2,0,1,1,w;3,0,1,1,b;2,1,1,1,b;3,1,1,1,w b 0 -|-|-|-"
    assert engine.claim(big, level=level(3), seed=1) in (None, "draw")


# ---- stopping ----------------------------------------------------------------------------

def test_a_stopped_search_answers_at_once_with_a_legal_turn() -> None:
    text = "dropper ......../......../......../...w..../......../......../......../........ b"
    engine = make_engine("dropper", {})
    seen = threading.Event()
    thinking = think(engine, text, level=level(5), on_progress=lambda _: seen.set())
    assert seen.wait(20)
    thinking.stop()
    analysis = thinking.result(timeout=10)
    assert analysis.stopped and analysis.playouts > 0
    check_turn(text, analysis.chosen.turn, analysis.chosen.after)


@pytest.mark.parametrize("game", sorted(SMALL_STARTS))
def test_a_search_stopped_before_it_starts_still_names_a_legal_turn(game: str) -> None:
    text = SMALL_STARTS[game]
    stop = threading.Event()
    stop.set()
    analysis = make_engine(game, {}).analyse(text, level=level(3), budget=Budget(seconds=60),
                                             stop=stop)
    assert analysis.stopped and analysis.playouts == 0
    check_turn(text, analysis.chosen.turn, analysis.chosen.after)
