"""Opponents for the Raindropchess engine's benchmark, each seeing only the RFEN.

- :class:`RandomPlayer`: every legal turn alike (a flip is one turn).
- :class:`MaterialPlayer`: one ply of material sense: mates in one, takes the
  best capture, saves a piece left hanging, places cards where they stand safe
  and attack most, flips otherwise.
- :class:`HobbyPlayer`: the one Raindropchess engine that existed before ours
  (a hobby web app), as well as a good engineer writes it in an afternoon:
  alpha-beta to depth 3 with quiescence (depth 1 before both kings are on the
  board), a material evaluation, MVV-LVA ordering, iterative deepening, and a
  flip taken as if the next card were known: the deck's average card.
- :class:`EnginePlayer`: the companion's engine at a level, with a node or a
  time budget.

Every player answers a turn text; the referee checks it.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import chess  # noqa: E402

from companion.engine.contract import Budget  # noqa: E402
from companion.engine.levels import level as level_of  # noqa: E402
from companion.engine.raindropchess.engine import RaindropchessEngine  # noqa: E402
from companion.engine.raindropchess.position import (  # noqa: E402
    DROP,
    FLIP,
    LOST,
    PASS,
    REMOVE,
    Position,
    iter_bits,
)
from companion.engine.raindropchess.turns import legal_actions, turn_text  # noqa: E402
from companion.rules import HouseRules, RaindropBoard  # noqa: E402
from companion.rules.letters import JOKER  # noqa: E402

VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9,
         chess.KING: 0}


class Player:
    """Something that answers a turn text for an RFEN."""

    name = "player"

    def choose(self, rfen: str) -> str:
        raise NotImplementedError

    def nodes(self) -> int:
        """Search nodes used by the last turn (0 for players that do not search)."""
        return 0


class RandomPlayer(Player):
    """Every legal turn equally likely."""

    def __init__(self, rules: HouseRules, seed: int) -> None:
        self.rules = rules
        self.rng = random.Random(f"random:{seed}")
        self.name = "random"

    def choose(self, rfen: str) -> str:
        board = RaindropBoard(rfen, rules=self.rules)
        return turn_text(board, self.rng.choice(legal_actions(board)))


class MaterialPlayer(Player):
    """One ply of material sense (see the module docstring)."""

    def __init__(self, rules: HouseRules, seed: int) -> None:
        self.rules = rules
        self.rng = random.Random(f"material:{seed}")
        self.name = "material"

    def choose(self, rfen: str) -> str:
        board = RaindropBoard(rfen, rules=self.rules)
        actions = legal_actions(board)
        if board.pending is not None and board.pending.upper() == "J":
            return turn_text(board, max(actions, key=lambda a: self._value_at(board, a & 63)))
        mates = [a for a in actions if a != FLIP and self._mates(board, a)]
        if mates:
            return turn_text(board, self.rng.choice(mates))
        if board.pending is not None:
            return turn_text(board, self._placement(board, actions))
        return turn_text(board, self._decision(board, actions))

    def _value_at(self, board: RaindropBoard, square: int) -> int:
        piece = board.piece_at(square)
        return VALUE[piece.piece_type] if piece is not None else 0

    def _mates(self, board: RaindropBoard, action: int) -> bool:
        after = board.copy(stack=False)
        after.push(_move(board, action))
        return after.is_checkmate()

    def _hanging(self, board: RaindropBoard, square: int) -> bool:
        """Whether the piece on ``square`` would be lost to a capture next turn."""
        piece = board.piece_at(square)
        if piece is None:
            return False
        them = not piece.color
        if board.king(them) is None:
            return False  # no king, no captures
        attackers = board.attackers(them, square)
        if not attackers:
            return False
        if board.king(piece.color) is None or not board.attackers(piece.color, square):
            return True
        cheapest = min(VALUE[board.piece_type_at(sq) or chess.PAWN] or 100 for sq in attackers)
        return cheapest < VALUE[piece.piece_type]

    def _placement(self, board: RaindropBoard, actions: list[int]) -> int:
        scored = []
        for action in actions:
            after = board.copy(stack=False)
            after.push(_move(board, action))
            square = action & 63
            safe = not self._hanging(after, square)
            attacked = [VALUE[after.piece_type_at(sq) or chess.PAWN]
                        for sq in after.attacks(square)
                        if after.color_at(sq) == (not board.turn)]
            threat = max(attacked, default=0) if board.king(board.turn) is not None else 0
            scored.append((safe, threat, len(attacked), self.rng.random(), action))
        return max(scored)[-1]

    def _decision(self, board: RaindropBoard, actions: list[int]) -> int:
        moves = [a for a in actions if a != FLIP]
        best_gain, best = 0, None
        for action in moves:
            victim = board.piece_at(action >> 6 & 63)
            if victim is None:
                continue
            after = board.copy(stack=False)
            after.push(_move(board, action))
            attacker = VALUE[board.piece_type_at(action & 63) or chess.PAWN]
            gain = VALUE[victim.piece_type] - (attacker if self._hanging(after, action >> 6 & 63)
                                               else 0)
            if gain > best_gain:
                best_gain, best = gain, action
        if best is not None:
            return best
        hanging = [sq for sq in chess.SquareSet(board.occupied_co[board.turn])
                   if self._hanging(board, sq)]
        if hanging and moves:
            target = max(hanging, key=lambda sq: self._value_at(board, sq))
            escapes = [a for a in moves if a & 63 == target and not self._leaves_hanging(board, a)]
            if escapes:
                return self.rng.choice(escapes)
        if FLIP in actions:
            return FLIP
        safe = [a for a in moves if not self._leaves_hanging(board, a)]
        return self.rng.choice(safe or moves)

    def _leaves_hanging(self, board: RaindropBoard, action: int) -> bool:
        after = board.copy(stack=False)
        after.push(_move(board, action))
        return self._hanging(after, action >> 6 & 63)


def _move(board: RaindropBoard, action: int) -> chess.Move:
    if action & DROP:
        square = action & 63
        piece = board.pending_piece
        assert piece is not None
        return chess.Move(square, square, drop=piece)
    return chess.Move(action & 63, action >> 6 & 63, (action >> 12) or None)


# ----------------------------------------------------------------------
# The hobby engine


MATE = 100_000
HOBBY_VALUE = (0, 100, 300, 300, 500, 900, 0)


class _OutOfBudget(Exception):
    pass


class HobbyPlayer(Player):
    """Alpha-beta to depth 3 with quiescence and a material evaluation; a flip is
    searched as if the next card were the deck's average card (see the module
    docstring). Budget: nodes, or seconds per turn, or both."""

    def __init__(self, rules: HouseRules, *, nodes: int | None = None,
                 seconds: float | None = None, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.rules = rules
        self.node_budget = nodes
        self.seconds = seconds
        self.clock = clock
        self.name = "hobby"
        self._nodes = 0
        self._deadline = 0.0

    def nodes(self) -> int:
        return self._nodes

    def choose(self, rfen: str) -> str:
        board = RaindropBoard(rfen, rules=self.rules)
        actions = legal_actions(board)
        root = Position.from_board(board)
        self._nodes = 0
        self._deadline = (self.clock() + self.seconds * 0.9) if self.seconds else float("inf")
        max_depth = 3 if root.has_king(True) and root.has_king(False) else 1
        ordered = self._order(root, actions)
        best = ordered[0]
        if len(actions) > 1:
            for depth in range(1, max_depth + 1):
                try:
                    best, ordered = self._root(root, ordered, depth)
                except _OutOfBudget:
                    break
        return turn_text(board, best)

    def _tick(self) -> None:
        self._nodes += 1
        if self.node_budget is not None and self._nodes >= self.node_budget:
            raise _OutOfBudget
        if not self._nodes & 63 and self.clock() >= self._deadline:
            raise _OutOfBudget

    def _root(self, root: Position, actions: list[int], depth: int) -> tuple[int, list[int]]:
        alpha = -MATE - 1
        scored = []
        for action in actions:
            value = self._action(root, action, depth, alpha, MATE + 1, 0)
            scored.append((value, action))
            alpha = max(alpha, value)
        scored.sort(key=lambda item: -item[0])
        return scored[0][1], [action for _, action in scored]

    def _action(self, pos: Position, action: int, depth: int, alpha: int, beta: int,
                ply: int) -> int:
        """The value of ``action`` for ``pos``'s side to move."""
        if action == FLIP:
            outcome, child = pos.flip(self._average_card(pos))
            if outcome == LOST or child is None:
                return -MATE + ply
            if outcome == PASS:
                return -self._negamax(child, depth - 1, -beta, -alpha, ply + 1)
            # An extra turn, a placement, a removal: the same side decides.
            return self._negamax(child, depth, alpha, beta, ply + 1)
        return -self._negamax(pos.play(action), depth - 1, -beta, -alpha, ply + 1)

    def _average_card(self, pos: Position) -> int:
        deck = pos.deck()
        kinds = [kind for kind in range(1, len(deck)) if deck[kind] and kind != JOKER]
        if not kinds:
            return JOKER
        count = sum(deck[kind] for kind in kinds)
        mean = sum(deck[kind] * _card_value(kind) for kind in kinds) / count
        return min(kinds, key=lambda kind: (abs(_card_value(kind) - mean), -deck[kind]))

    def _negamax(self, pos: Position, depth: int, alpha: int, beta: int, ply: int) -> int:
        self._tick()
        if pos.pending:
            actions = [(REMOVE if pos.pending == JOKER else DROP) | square
                       for square in iter_bits(pos.pending_targets())]
            if depth <= 0:
                depth = 1  # a card is placed within its turn
        else:
            moves = pos.legal_moves()
            over = pos.result(moves)
            if over is not None:
                return -MATE + ply if over == 0.0 else 0
            if depth <= 0:
                return self._quiesce(pos, alpha, beta, ply, moves)
            actions = self._order(pos, moves + ([FLIP] if pos.can_flip() else []))
        best = -MATE - 1
        for action in actions:
            value = self._action(pos, action, depth, alpha, beta, ply)
            if value > best:
                best = value
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
        return best

    def _quiesce(self, pos: Position, alpha: int, beta: int, ply: int, moves: list[int]) -> int:
        stand = _material(pos)
        if stand >= beta:
            return stand
        alpha = max(alpha, stand)
        best = stand
        for action in self._order(pos, [m for m in moves if pos.is_capture(m)]):
            self._tick()
            child = pos.play(action)
            child_moves = child.legal_moves()
            over = child.result(child_moves)
            if over is not None:
                value = MATE - ply - 1 if over == 0.0 else 0
            else:
                value = -self._quiesce(child, -beta, -alpha, ply + 1, child_moves)
            if value > best:
                best = value
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
        return best

    def _order(self, pos: Position, actions: list[int]) -> list[int]:
        """MVV-LVA: captures first, the flip next, quiet moves last."""
        def score(action: int) -> int:
            if action == FLIP:
                return 50
            if action & (DROP | REMOVE):
                return 0
            victim = pos.piece_type_at(action >> 6 & 63)
            if victim:
                return 1000 + HOBBY_VALUE[victim] * 10 - HOBBY_VALUE[pos.piece_type_at(action & 63)]
            return 100 if action >> 12 else 0
        return sorted(actions, key=score, reverse=True)


def _card_value(kind: int) -> int:
    return HOBBY_VALUE[kind] if kind <= 6 else HOBBY_VALUE[chess.BISHOP]


def _material(pos: Position) -> int:
    """Material on the board for the side to move."""
    total = 0
    for bb, value in ((pos.pawns, 100), (pos.knights, 300), (pos.bishops, 300),
                      (pos.rooks, 500), (pos.queens, 900)):
        total += (bb & pos.white).bit_count() * value - (bb & ~pos.white).bit_count() * value
    return total if pos.turn else -total


# ----------------------------------------------------------------------
# The companion's engine


class EnginePlayer(Player):
    """The companion's engine at a level, on a node budget or the level's time."""

    def __init__(self, rules: HouseRules, level: int, *, nodes: int | None = None,
                 seconds: float | None = None, seed: int = 0, name: str | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 reductions: bool | None = None) -> None:
        self.engine = RaindropchessEngine(rules, clock=clock, reductions=reductions)
        self.level = level_of(level)
        if nodes is None and seconds is None:
            seconds = self.level.seconds
        self.budget = Budget(seconds=seconds, playouts=nodes)
        self.seed = seed
        self.name = name or f"L{level}"
        self._nodes = 0

    def nodes(self) -> int:
        return self._nodes

    def choose(self, rfen: str) -> str:
        analysis = self.engine.analyse(rfen, level=self.level, budget=self.budget,
                                       seed=self.seed)
        self._nodes = analysis.playouts
        self.last = analysis
        return analysis.chosen.turn
