"""Level 5 spends a third of its budget as level 4 would, then searches its best root
actions deeper with the rest (node budgets only: the same answer on any machine)."""

from __future__ import annotations

import threading

import pytest

from companion.engine.contract import Budget
from companion.engine.levels import level
from companion.engine.raindropchess import RaindropchessEngine
from companion.engine.raindropchess.engine import STYLES
from companion.engine.raindropchess.position import Position
from companion.engine.raindropchess.search import Limits, RootLine, Search, merge_verified
from companion.engine.raindropchess.turns import legal_actions
from companion.rules import RaindropBoard

ENGINE = RaindropchessEngine()

POSITIONS = [
    "8/8/4N3/8/8/8/8/8[KQRRBBNPPPPPPPPkqrrbbnnppppppp] b QRBNqrbn p 0 1",
    "2r5/6R1/1PPPNN1P/3qnb2/2B5/2p1pp2/8/8[KQRBPPPPkrnppppp] b QRBNqrbn b 0 8",
]


@pytest.mark.parametrize("rfen", POSITIONS)
def test_level_5_looks_deeper_at_level_4s_best_actions(rfen: str) -> None:
    nodes = 90_000
    wide = ENGINE.analyse(rfen, level=level(4), budget=Budget(playouts=nodes // 3))
    deep = ENGINE.analyse(rfen, level=level(5), budget=Budget(playouts=nodes))
    assert int(deep.notes["depth"]) > int(wide.notes["depth"]), (deep.notes, wide.notes)
    verified = STYLES[5].verify
    assert deep.chosen.turn in [candidate.turn for candidate in wide.candidates[:verified]]
    assert deep.playouts <= nodes + 64
    # The hint list stays best first: the actions not searched deeper rank below them.
    values = [candidate.value for candidate in deep.candidates]
    assert values == sorted(values, reverse=True)


def test_on_the_same_nodes_verifying_reaches_deeper_than_full_width() -> None:
    budget = Budget(playouts=90_000)
    full = ENGINE.analyse(POSITIONS[1], level=level(4), budget=budget)
    verified = ENGINE.analyse(POSITIONS[1], level=level(5), budget=budget)
    assert int(verified.notes["depth"]) > int(full.notes["depth"]), \
        (verified.notes, full.notes)


def test_every_root_action_is_still_ranked_after_verifying() -> None:
    board = RaindropBoard(POSITIONS[1])
    actions = legal_actions(board)
    search = Search(Limits(nodes=60_000), reductions=True)
    search.verify = 3
    result = search.run(Position.from_board(board), actions)
    assert sorted(line.action for line in result.lines) == sorted(actions)
    assert result.nodes <= 60_000 + 64


def test_a_stop_while_verifying_ends_the_search() -> None:
    board = RaindropBoard(POSITIONS[0])
    stop = threading.Event()
    search = Search(Limits(nodes=150_000, stop=stop), reductions=True)
    search.verify = 3

    def tick() -> None:
        if search.nodes >= 60_000:  # past the full-width share (50,000 nodes)
            stop.set()

    search.on_tick = tick
    result = search.run(Position.from_board(board), legal_actions(board))
    assert stop.is_set()
    assert search.nodes < 60_000 + 2_200
    assert result.lines[0].action in legal_actions(board)


def test_the_actions_not_verified_rank_below_the_verified_ones() -> None:
    deeper = [RootLine(1, 0.46, True), RootLine(2, 0.40, True), RootLine(3, 0.00001, False)]
    rest = [RootLine(4, 0.47, True), RootLine(5, 0.30, True), RootLine(6, 0.0, False)]
    merged = merge_verified(deeper, rest)
    # The lost verified action falls below the others: they are not known to lose.
    assert [line.action for line in merged] == [1, 2, 4, 5, 3, 6]
    values = [line.value for line in merged]
    assert values == sorted(values, reverse=True)
    capped = {line.action: line for line in merged}
    assert capped[4].value == 0.40 and not capped[4].exact  # lowered: an upper bound now
    assert capped[5].value == 0.30 and capped[5].exact  # under the cap: as it was
    assert capped[6].value == 0.0  # a loss it had proven stays one


def test_when_every_verified_action_loses_the_others_come_first() -> None:
    deeper = [RootLine(1, 0.00002, True), RootLine(2, 0.00001, False)]
    rest = [RootLine(3, 0.2, True), RootLine(4, 0.35, False)]
    merged = merge_verified(deeper, rest)
    assert [line.action for line in merged] == [4, 3, 1, 2]
    assert merged[0].value == 0.35 and merged[1].value == 0.2  # their own values
