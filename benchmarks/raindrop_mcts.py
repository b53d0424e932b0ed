"""The search tried against expectimax: Monte Carlo tree search over the flips' chance.

In Raindropchess the only hidden thing is the order of the decks, hidden from
both players alike, so information-set MCTS (each iteration deals a fresh
order, the tree keyed by what the players saw) is MCTS with chance nodes: a
flip's child is sampled by the deck's counts. This one:

- selects by UCT (values are expected scores, 0 to 1);
- widens progressively: a node tries its actions best guess first (captures,
  the flip, :func:`placement_order` for placements) and may have
  ``1 + 2 * sqrt(visits)`` children;
- evaluates a new leaf by the engine's own static evaluation after a capture
  quiescence (random playouts are hopeless in a chess game played this slowly).

It shares the engine's position and evaluation, so a match between the two
measures the search alone. Used by ``bench_engine_raindropchess.py --pairing
L3:mcts`` and described in docs/dev/engine-raindropchess.md.
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.engine.contract import Budget  # noqa: E402
from companion.engine.raindropchess.evaluation import VALUE, placement_order  # noqa: E402
from companion.engine.raindropchess.position import (  # noqa: E402
    DROP,
    FLIP,
    LOST,
    REMOVE,
    Position,
    iter_bits,
)
from companion.engine.raindropchess.search import Limits, Search  # noqa: E402
from companion.engine.raindropchess.turns import legal_actions, turn_text  # noqa: E402
from companion.rules import HouseRules, RaindropBoard  # noqa: E402
from companion.rules.letters import JOKER  # noqa: E402

EXPLORATION = 0.4


class _Node:
    __slots__ = ("actions", "children", "edges", "pos", "result", "total", "visits")

    def __init__(self, pos: Position | None, result: float | None = None) -> None:
        self.pos = pos
        self.result = result  # for the side to move here, when the game is over
        self.actions: list[int] | None = None
        self.children: dict[int, _Node] = {}
        self.edges: dict[int, list[float]] = {}  # action -> [visits, this side's total]
        self.visits = 0
        self.total = 0.0  # the side to move's summed values


class MctsSearch:
    """MCTS with chance nodes and a static evaluation at the leaves."""

    def __init__(self, *, nodes: int | None, deadline: float | None,
                 clock: Callable[[], float], seed: str) -> None:
        self.nodes = nodes
        self.deadline = deadline
        self.clock = clock
        self.rng = random.Random(seed)
        self.count = 0
        self.quiet = Search(Limits())

    def run(self, root_pos: Position, root_actions: list[int]) -> int:
        root = _Node(root_pos)
        root.actions = self._ordered(root_pos, root_actions)
        while True:
            if self.nodes is not None and self.count >= self.nodes:
                break
            if self.deadline is not None and not self.count & 15 and \
                    self.clock() >= self.deadline:
                break
            self._iterate(root)
            if len(root.actions) == 1:
                break
        return max(root.edges.items(), key=lambda item: item[1][0])[0]

    def _ordered(self, pos: Position, actions: list[int]) -> list[int]:
        if pos.pending and pos.pending != JOKER:
            rank = {DROP | sq: i for i, (_, sq) in
                    enumerate(placement_order(pos, pos.pending_targets()))}
            return sorted(actions, key=lambda a: rank.get(a, 99))
        if pos.pending == JOKER:
            return sorted(actions, key=lambda a: -VALUE[pos.piece_type_at(a & 63)])

        def score(action: int) -> float:
            if action == FLIP:
                return 500
            to = action >> 6 & 63
            if pos.occupied >> to & 1:
                return 1000 + VALUE[pos.piece_type_at(to)]
            return 0
        return sorted(actions, key=score, reverse=True)

    def _actions(self, pos: Position) -> list[int]:
        if pos.pending == JOKER:
            actions = [REMOVE | sq for sq in iter_bits(pos.removal_mask())]
        elif pos.pending:
            actions = [DROP | sq for sq in iter_bits(pos.drop_mask(pos.pending))]
        else:
            actions = pos.legal_moves()
            if pos.can_flip():
                actions.append(FLIP)
        return self._ordered(pos, actions)

    def _leaf(self, pos: Position) -> float:
        self.count += 1
        return self.quiet._quiesce(pos, 0.0, 1.0, 0, 0)

    def _iterate(self, node: _Node) -> float:
        """One iteration below ``node``; the value for ``node``'s side to move."""
        if node.result is not None:
            value = node.result
        elif node.visits == 0 and node.actions is None:
            assert node.pos is not None
            pos = node.pos
            if not pos.pending:
                over = pos.result(pos.legal_moves())
                if over is not None:
                    node.result = over
                    value = over
                else:
                    value = self._leaf(pos)
            else:
                value = self._leaf(pos) if pos.pending != JOKER else 0.5
            node.actions = None if node.result is not None else self._actions(pos)
        else:
            if node.actions is None:
                assert node.pos is not None
                node.actions = self._actions(node.pos)
            value = self._select(node)
        node.visits += 1
        node.total += value
        return value

    def _select(self, node: _Node) -> float:
        assert node.actions is not None and node.pos is not None
        width = min(len(node.actions), 1 + int(2 * math.sqrt(node.visits)))
        best_action = node.actions[0]
        best_score = -1.0
        log_n = math.log(node.visits + 1)
        for action in node.actions[:width]:
            edge = node.edges.get(action)
            if edge is None:
                best_action = action
                break
            mean = edge[1] / edge[0]
            score = mean + EXPLORATION * math.sqrt(log_n / (edge[0] + 1))
            if score > best_score:
                best_score, best_action = score, action
        value = self._visit(node, best_action)
        edge = node.edges.setdefault(best_action, [0.0, 0.0])
        edge[0] += 1
        edge[1] += value
        return value

    def _visit(self, node: _Node, action: int) -> float:
        """Play ``action`` at ``node``; the value for ``node``'s side to move."""
        assert node.pos is not None
        pos = node.pos
        child = node.children.get(action)
        if action == FLIP:
            if child is None:
                child = node.children[action] = _Node(None)
            value = self._chance(child, pos)
            child.visits += 1
            child.total += value
            return value
        if child is None:
            child = node.children[action] = _Node(pos.play(action))
        return 1.0 - self._iterate(child)

    def _chance(self, chance: _Node, pos: Position) -> float:
        deck = pos.deck()
        kinds = [kind for kind in range(1, len(deck)) if deck[kind]]
        kind = self.rng.choices(kinds, weights=[deck[kind] for kind in kinds])[0]
        child = chance.children.get(kind)
        if child is None:
            outcome, after = pos.flip(kind)
            if outcome == LOST:
                child = _Node(None, result=1.0)  # for the opponent: the flipper lost
                child.actions = []
                chance.children[kind] = child
                child.visits += 1
                child.total += 1.0
                return 0.0
            assert after is not None
            child = _Node(after)
            chance.children[kind] = child
        if child.result == 1.0 and child.pos is None:
            child.visits += 1
            child.total += 1.0
            return 0.0
        assert child.pos is not None
        if child.pos.turn != pos.turn:  # the turn passed (PASS)
            return 1.0 - self._iterate(child)
        # A placement, a removal, a returned card or an extra turn: the same side.
        return self._iterate(child)


class MctsPlayer:
    """The MCTS search as a player (see the module docstring)."""

    def __init__(self, rules: HouseRules, *, nodes: int | None = None,
                 seconds: float | None = None, seed: int = 0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rules = rules
        self.budget = Budget(seconds=seconds, playouts=nodes)
        self.seed = seed
        self.clock = clock
        self.name = "mcts"
        self._count = 0

    def nodes(self) -> int:
        return self._count

    def choose(self, rfen: str) -> str:
        board = RaindropBoard(rfen, rules=self.rules)
        actions = legal_actions(board)
        deadline = (self.clock() + self.budget.seconds * 0.9) if self.budget.seconds else None
        search = MctsSearch(nodes=self.budget.playouts, deadline=deadline, clock=self.clock,
                            seed=f"mcts:{self.seed}:{rfen}")
        action = search.run(Position.from_board(board), actions)
        self._count = search.count
        return turn_text(board, action)
