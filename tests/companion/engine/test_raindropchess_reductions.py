"""Levels 4 and 5 search late quiet actions a turn shallower first: deeper on the same
nodes, and still sharp (node budgets only, so every answer is the same on any machine)."""

from __future__ import annotations

import pytest

from companion.engine.contract import Budget, Proof
from companion.engine.levels import level
from companion.engine.raindropchess import RaindropchessEngine
from companion.engine.raindropchess.position import Position
from companion.engine.raindropchess.search import Limits, Search
from companion.engine.raindropchess.turns import legal_actions
from companion.rules import RaindropBoard

ENGINE = RaindropchessEngine()

OPENING = "8/8/4N3/8/8/8/8/8[KQRRBBNPPPPPPPPkqrrbbnnppppppp] b QRBNqrbn p 0 1"
"""Black places its first card (a pawn) on any of 39 squares: a ply is dear here."""


def _search(rfen: str, *, reductions: bool, nodes: int | None = None,
            max_depth: int = 64) -> tuple[Search, int]:
    board = RaindropBoard(rfen)
    search = Search(Limits(nodes=nodes, max_depth=max_depth), reductions=reductions)
    result = search.run(Position.from_board(board), legal_actions(board))
    return search, result.depth


def test_reductions_finish_the_same_depth_on_fewer_nodes() -> None:
    plain, plain_depth = _search(OPENING, reductions=False, max_depth=3)
    reduced, reduced_depth = _search(OPENING, reductions=True, max_depth=3)
    assert plain_depth == reduced_depth == 3
    assert reduced.nodes < 0.7 * plain.nodes, (reduced.nodes, plain.nodes)


def test_level_4_completes_a_turn_more_than_level_3_on_the_same_nodes() -> None:
    budget = Budget(playouts=45_000)
    by_level = {number: ENGINE.analyse(OPENING, level=level(number), budget=budget)
                for number in (3, 4)}
    depths = {number: int(analysis.notes["depth"]) for number, analysis in by_level.items()}
    assert depths[4] == depths[3] + 1, depths
    # The benchmark's players force them on or off at any level, for a match at equal nodes.
    forced = {flag: RaindropchessEngine(reductions=flag).analyse(
        OPENING, level=level(3), budget=budget) for flag in (True, False)}
    assert forced[True].notes["depth"] == by_level[4].notes["depth"]
    assert forced[False].notes["depth"] == by_level[3].notes["depth"]
    assert "late-move reductions" in forced[True].notes["search"]
    assert "late-move reductions" not in forced[False].notes["search"]


@pytest.mark.parametrize("number", [4, 5])
def test_the_deeper_levels_keep_the_tactics(number: int) -> None:
    mate = "7k/6pp/8/8/8/8/8/K7[pp] w QRBNqrbn R 0 30"  # a rook on rank 8 mates
    turn = ENGINE.analyse(mate, level=level(number), budget=Budget(playouts=4000)).chosen.turn
    board = RaindropBoard(mate)
    board.push_uci(turn)
    assert board.is_checkmate(), turn
    block = "7k/8/8/8/8/8/PP6/K6r[p] w QRBNqrbn N 0 30"  # only b1 is guarded by the king
    assert ENGINE.analyse(block, level=level(number),
                          budget=Budget(playouts=4000)).chosen.turn == "N@b1"
    rescue = "8/5P2/2P1P3/1Nb5/8/1pKB3p/3n3k/2q~5[RRBPPPPP] w QRBNrbn - 3 25"
    analysis = ENGINE.analyse(rescue, level=level(number), budget=Budget(playouts=20000))
    values = {candidate.turn: candidate for candidate in analysis.candidates}
    assert analysis.chosen.turn == "flip"
    assert values["d3c2"].proof is Proof.LOSS
