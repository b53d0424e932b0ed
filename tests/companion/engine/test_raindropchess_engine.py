"""The Raindropchess engine: legal in every game, blind to the deck order, sharp, repeatable.

Budgets are node counts (never time), so every answer here is the same on any
machine.
"""

from __future__ import annotations

import json
import threading
import time

import chess
import pytest

from benchmarks.raindrop_players import EnginePlayer, RandomPlayer
from benchmarks.raindrop_referee import Referee, RefereeRules
from companion.cards import Decks
from companion.cli import main
from companion.engine import registry
from companion.engine.contract import Budget, EngineError, Proof
from companion.engine.levels import level
from companion.engine.raindropchess import RaindropchessEngine, make_engine
from companion.engine.thinker import think
from companion.game import Game
from companion.rules import HouseRules, RaindropBoard, mate_verdict

ENGINE = RaindropchessEngine()


def best(rfen: str, nodes: int = 3000, *, number: int = 3, seed: int = 0,
         rules: HouseRules | None = None) -> str:
    engine = RaindropchessEngine(rules) if rules is not None else ENGINE
    return engine.analyse(rfen, level=level(number), budget=Budget(playouts=nodes),
                          seed=seed).chosen.turn


# ----------------------------------------------------------------------
# Legality: whole games judged by the referee's own rules


HOUSE_RULES = (
    "",
    "jokers_per_deck=2,joker_effect=extra_turn",
    "jokers_per_deck=2,joker_effect=remove_piece",
    "jokers_per_deck=1,joker_effect=remove_piece,failed_rescue=return",
    "failed_rescue=return",
    "coloured_bishop_cards=true,jokers_per_deck=1",
    "blue_returns_when_captured=true,blue_pieces=QN",
)


@pytest.mark.parametrize("rules_text", HOUSE_RULES, ids=lambda text: text or "default")
def test_every_engine_turn_is_legal_by_the_referees_own_rules(rules_text: str) -> None:
    rules = HouseRules.parse(rules_text)
    referee = Referee(RefereeRules.parse(rules_text), seed=31)
    engine = EnginePlayer(rules, 1, nodes=150)
    rival = RandomPlayer(rules, seed=31)
    engine_side = True
    while referee.ending is None:
        player = engine if referee.white_to_move == engine_side else rival
        referee.play(player.choose(referee.rfen()))  # IllegalTurn fails the test
    assert referee.turns


# ----------------------------------------------------------------------
# It never sees the order of the decks


def _game_after(decks: Decks, actions: list[str]) -> Game:
    game = Game(HouseRules(), decks=decks)
    for action in actions:
        if action == "flip":
            game.flip()
        else:
            game.play_text(action)
    return game


def test_the_same_rfen_gives_the_same_decision_whatever_the_hidden_order() -> None:
    # Two games whose first cards are the same and the rest of the decks in
    # different orders: the same public position, different secrets.
    rules = HouseRules()
    first = Decks.stacked("NK", "pkq", rules)
    order = first.export_order()
    second = Decks.from_order({"white": order["white"][:2] + order["white"][2:][::-1],
                               "black": order["black"][:3] + order["black"][3:][::-1]}, rules)
    assert first.export_order() != second.export_order()
    actions = ["flip", "N@e4", "flip", "P@d5", "flip", "K@a1", "flip", "K@h8"]
    games = [_game_after(first, actions), _game_after(second, actions)]
    assert games[0].rfen() == games[1].rfen()
    rfen = games[0].rfen()
    answers = [ENGINE.analyse(game.rfen(), level=level(3), budget=Budget(playouts=2500),
                              seed=7) for game in games]
    assert answers[0].chosen == answers[1].chosen
    assert answers[0].candidates == answers[1].candidates
    assert answers[0].position == rfen
    # And the engine has no way to be told more: it takes a position text only.
    with pytest.raises(TypeError):
        ENGINE.analyse(rfen, level=level(3), budget=Budget(playouts=10),
                       decks=first)  # type: ignore[call-arg]


# ----------------------------------------------------------------------
# Tactics


def test_it_mates_in_one_by_placement() -> None:
    rfen = "7k/6pp/8/8/8/8/8/K7[pp] w QRBNqrbn R 0 30"  # pawns cannot block on rank 8
    turn = best(rfen)
    board = RaindropBoard(rfen)
    board.push_uci(turn)
    assert board.is_checkmate(), turn


def test_it_mates_in_one_by_move_and_flips_no_card_for_it() -> None:
    rfen = "7k/6pp/8/8/8/8/8/R3K3[Pp] w QRBNqrbn - 0 30"
    analysis = ENGINE.analyse(rfen, level=level(1), budget=Budget(playouts=2000))
    assert analysis.chosen.turn == "a1a8"
    assert analysis.chosen.proof is Proof.WIN


def test_it_does_not_take_a_blockable_check_for_mate() -> None:
    # The same back-rank check, but Black's deck holds a bishop and a knight: a
    # rescue flip blocks it for sure, so it is no mate.
    rfen = "7k/6pp/8/8/8/8/8/R3K3[Pbn] w QRBNqrbn - 0 30"
    analysis = ENGINE.analyse(rfen, level=level(3), budget=Budget(playouts=4000))
    values = {candidate.turn: candidate for candidate in analysis.candidates}
    assert "a1a8" not in values or (values["a1a8"].proof is None
                                    and values["a1a8"].value < 0.95)


def test_it_blocks_a_check_by_placement_where_the_block_is_defended() -> None:
    # The knight must block on the first rank; only on b1 does the king guard it.
    rfen = "7k/8/8/8/8/8/PP6/K6r[p] w QRBNqrbn N 0 30"
    assert best(rfen) == "N@b1"


def test_in_check_it_takes_the_rescue_flip_when_its_move_loses() -> None:
    # The queen checks along the c-file. The bishop can block on c2, but then the
    # knight and the pawn finish White off; every card in White's deck blocks.
    rfen = "8/5P2/2P1P3/1Nb5/8/1pKB3p/3n3k/2q~5[RRBPPPPP] w QRBNrbn - 3 25"
    board = RaindropBoard(rfen)
    assert board.is_check() and [m.uci() for m in board.legal_moves] == ["d3c2"]
    assert mate_verdict(board).rescue_probability == 1
    analysis = ENGINE.analyse(rfen, level=level(3), budget=Budget(playouts=20000))
    values = {candidate.turn: candidate for candidate in analysis.candidates}
    assert analysis.chosen.turn == "flip"
    assert values["d3c2"].proof is Proof.LOSS


# ----------------------------------------------------------------------
# Repeatable under a seed, stoppable at once


def test_the_same_seed_and_node_budget_give_the_same_analysis() -> None:
    rfen = "4k3/8/8/8/8/8/8/4K3[QRRBBNNPPPPPPPPqrrbbnnpppppppp] w QRBNqrbn - 0 3"
    for number in (1, 3):
        runs = [RaindropchessEngine().analyse(rfen, level=level(number),
                                              budget=Budget(playouts=1500), seed=11)
                for _ in range(2)]
        assert runs[0].chosen == runs[1].chosen
        assert runs[0].candidates == runs[1].candidates
        assert runs[0].playouts == runs[1].playouts <= 1500 + 200


def test_a_stopped_search_answers_at_once_with_a_legal_action() -> None:
    rfen = "8/8/8/8/8/8/8/8[KQRRBBNPPPPPPPPkqrrbbnnpppppppp] w QRBNqrbn N 0 1"
    thinking = think(ENGINE, rfen, level=level(5))
    time.sleep(0.3)
    asked = time.monotonic()
    thinking.stop()
    analysis = thinking.result(timeout=5)
    assert time.monotonic() - asked < 2.0
    assert analysis.stopped
    board = RaindropBoard(rfen)
    board.push_uci(analysis.chosen.turn)  # legal, or this raises
    assert analysis.chosen.after == board.rfen()


def test_progress_is_reported_while_it_thinks() -> None:
    seen = []
    stop = threading.Event()
    rfen = "8/8/8/8/8/8/8/8[KQRRBBNPPPPPPPPkqrrbbnnpppppppp] w QRBNqrbn N 0 1"
    ENGINE.analyse(rfen, level=level(3), budget=Budget(playouts=6000), stop=stop,
                   progress=seen.append)
    assert seen and seen[-1].playouts > seen[0].playouts
    assert seen[-1].best is not None and seen[-1].best.turn.startswith("N@")


# ----------------------------------------------------------------------
# What it answers


def test_every_kind_of_turn_text_and_its_after() -> None:
    # A flip has no "after"; a placement and a move have the rules engine's RFEN.
    flip = ENGINE.analyse("8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w QRBNqrbn - 0 1",
                          level=level(1), budget=Budget(playouts=200))
    assert flip.chosen.turn == "flip" and flip.chosen.after is None
    assert flip.mover == "white" and flip.notes["opponent"] == "black"
    # A promotion names the blue piece.
    promotion = "7k/4P3/8/8/8/8/8/K7[] w QRBNqrbn - 0 30"
    analysis = ENGINE.analyse(promotion, level=level(3), budget=Budget(playouts=3000))
    assert analysis.chosen.turn == "e7e8q"
    assert analysis.chosen.after is not None and "Q~" in analysis.chosen.after
    # A remove-piece joker names the piece it takes.
    rules = HouseRules(jokers_per_deck=1, joker_effect="remove_piece")
    joker = "k7/8/8/8/8/8/PP6/K6r[NPq] w QRBNqrbn J 0 20"
    turn = best(joker, rules=rules)
    assert turn == "Jxh1"
    assert best(joker.replace(" J ", " - ").replace("[NPq]", "[NPJq]"), rules=rules) == "flip"


def test_a_finished_game_or_a_bad_rfen_is_refused_by_name() -> None:
    with pytest.raises(EngineError, match="game is over"):
        ENGINE.analyse("8/8/8/8/8/3n4/1q6/K7[QRRBBNNPPPPPPPPkrrbbnpppppppp] w QRBNqrbn - 0 8",
                       level=level(1), budget=Budget(playouts=10))
    with pytest.raises(EngineError, match="RFEN"):
        ENGINE.analyse("8/8/8[] w - - 0 1", level=level(1), budget=Budget(playouts=10))
    with pytest.raises(EngineError, match="jokers_per_deck"):
        make_engine("raindropchess", {"jokers_per_deck": "7"})
    assert isinstance(registry.engine_for("8/8/8/8/8/8/8/8[Kk] w - - 0 1"),
                      RaindropchessEngine)


def test_it_takes_a_draw_only_when_it_is_worse() -> None:
    losing = "k7/8/8/8/8/8/qr6/7K[] w QRBNqrbn - 0 30"
    winning = "K7/8/8/8/8/8/QR6/7k[] w QRBNqrbn - 0 30"
    assert ENGINE.accepts_draw(losing, level=level(1))
    assert not ENGINE.accepts_draw(winning, level=level(1))


def test_raindrop_best_and_its_jsonl_stream(capsys: pytest.CaptureFixture[str]) -> None:
    import io
    import sys

    start = "8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w QRBNqrbn - 0 1"
    knight = "8/8/8/8/8/8/8/8[KQRRBBNPPPPPPPPkqrrbbnnpppppppp] w QRBNqrbn N 0 1"
    assert main(["best", knight, "--playouts", "500", "--top", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("N@") and "White" in lines[1] and lines[2].startswith(" 1.")
    old = sys.stdin
    mate = "7k/6pp/8/8/8/8/8/R3K3[Pp] w QRBNqrbn - 0 30"
    sys.stdin = io.TextIOWrapper(io.BytesIO(
        f"{start}\n{knight}\nnot an rfen\n{mate}\n".encode()))
    try:
        assert main(["best", "--jsonl", "--playouts", "300"]) == 0
    finally:
        sys.stdin = old
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [record["position"] for record in records] == [start, knight, "not an rfen", mate]
    assert records[0]["turn"] == "flip" and "after" not in records[0]
    board = RaindropBoard(knight)
    assert records[1]["turn"].startswith("N@")
    board.push_uci(records[1]["turn"])
    assert records[1]["after"] == board.rfen()
    assert "RFEN" in records[2]["error"] and "turn" not in records[2]
    assert records[3]["turn"] == "a1a8" and records[3]["value"] == 1.0  # a chess move in UCI
    board = RaindropBoard(mate)
    board.push_uci("a1a8")
    assert records[3]["after"] == board.rfen()
    code = main(["best", start, "--rules", "jokers_per_deck=9"])
    assert code == 2 and "jokers_per_deck" in capsys.readouterr().err
    assert main(["best", start, "--rules", "joker_effect=remove_piece",
                 "--playouts", "100"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "flip"


def test_a_stronger_level_is_not_weaker_by_accident() -> None:
    # Levels 1 and 2 may choose among near-equal candidates; level 3 never does.
    rfen = "8/8/8/8/8/8/8/8[KQRRBBNPPPPPPPPkqrrbbnnpppppppp] w QRBNqrbn N 0 1"
    chosen = {ENGINE.analyse(rfen, level=level(3), budget=Budget(playouts=800),
                             seed=seed).chosen.turn for seed in range(4)}
    assert len(chosen) == 1
    assert chess.parse_square(next(iter(chosen))[2:]) in chess.SQUARES
