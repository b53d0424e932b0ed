"""Expectimax with alpha-beta pruning (Star1 and Star2) over the search's positions.

A decision (a chess move, a placement, a removal, or choosing to flip) is a
max node; a flip is a chance node whose children are the distinct cards the
deck could bring, weighted by their counts (the deck's order is unknown to
both players, so this is exactly the game's chance). Values are expected
scores for the side to move, 0 to 1, so the chances of a flip average them.

- **Star1** (Ballard's \\*-minimax): at a chance node, each card's window is
  narrowed by what the cards already searched guarantee, given that every
  value lies in [0, 1]; a chance node is cut as soon as the rest cannot
  bring its average back inside the window.
- **Star2**: before that, each card's first placement is searched as a probe;
  its value is a lower bound for the card, and enough of them cut the chance
  node at once (and narrow the Star1 windows).
- **Alpha-beta** at decision nodes with principal-variation (null-window)
  searches, a transposition table, killer moves and history ordering;
  iterative deepening at the root.
- **Depth** counts turns: a flip and the placement of its card are one turn;
  an extra-turn joker gives its player the next turn at the same depth.
- **Late-move reductions** (when asked: the engine's levels 4 and 5): two turns
  or more from the horizon, the quiet chess moves after the first two (not
  captures, promotions, killers or checks, nor any move when in check) and the
  placements after the first are searched a turn shallower with a null window
  first; only one that looks better than the best so far is searched again at
  full depth. In the placement phase a ply costs some forty times the nodes of
  the one before; this makes the fourth turn about three times cheaper.
- **Placements**: at the root every square is searched; inside the tree only
  the best few by :func:`~.evaluation.placement_order` (a piece can go on
  forty squares; most are alike).
- **Quiescence** at depth 0: captures and promotions to the best blue piece left
  (only a side with its king on the board can capture), skipping captures that
  lose material to a recapture or cannot reach alpha; in check, every evasion
  and a rescue flip.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from companion.engine.raindropchess.evaluation import (
    VALUE,
    evaluate,
    placement_order,
    win_chance,
)
from companion.engine.raindropchess.position import (
    DROP,
    EXTRA,
    FLIP,
    LOST,
    PASS,
    PLACE,
    REMOVAL,
    REMOVE,
    Position,
    iter_bits,
)

LOGGER = logging.getLogger(__name__)

EXACT, LOWER, UPPER = 0, 1, 2
LOSS = 0.0
PLY_COST = 4e-7
"""A proven result loses this much a ply, so the engine wins fast and loses slowly."""
NULL_WINDOW = 1e-7
PROVEN = 1e-4
"""Values closer than this to 0 or 1 are proven results (evaluations stay inside)."""

PLACEMENT_WIDTH = (0, 6, 8, 10, 10, 12, 12, 12)
"""How many placements are searched at a node ``depth`` turns from the horizon (not
the root), best guesses first."""
DELTA_MARGIN = 200
"""Quiescence skips a capture that could not lift the score to alpha even with this to spare."""
NEXT_ITERATION = 0.5
"""No new iteration starts once this share of the budget (nodes or time) is spent."""
MAX_QPLY = 8
EVAL_CACHE = 300_000
"""Static values remembered at most (then forgotten all at once)."""
CHECK_QPLY = 4
"""Beyond this many quiescence plies, checks are no longer answered by every evasion."""
REDUCE_FROM = 2
"""Late-move reductions (when the search has them): from this many turns from the horizon
on, ..."""
REDUCE_AFTER_MOVES = 2
"""... the quiet chess moves after this many actions are searched a turn shallower first,"""
REDUCE_AFTER_PLACEMENTS = 1
"""... and so are the placements after this many (a full search follows if one looks good)."""


class Stopped(Exception):
    """The search was told to stop, or ran out of nodes or time."""


@dataclass
class Limits:
    """When a search ends: nodes, a deadline on ``clock``, a stop event, a depth."""

    nodes: int | None = None
    deadline: float | None = None
    stop: threading.Event | None = None
    max_depth: int = 64
    clock: Callable[[], float] = time.monotonic


@dataclass
class RootLine:
    """One root action after a search: its value (exact or an upper bound)."""

    action: int
    value: float
    exact: bool
    nodes: int = 0


@dataclass
class RootResult:
    """The root's actions, best first, from the deepest iteration that counted."""

    lines: list[RootLine]
    depth: int
    nodes: int
    complete: bool = True
    history: list[tuple[int, int, float]] = field(default_factory=list)
    """``(depth, action, value)`` after each iteration (for the docs' measurements)."""


class Search:
    """One search of one root position (its tables live as long as it does)."""

    def __init__(self, limits: Limits, *, qsearch: bool = True, star1: bool = True,
                 star2: bool = True, reductions: bool = False) -> None:
        self.limits = limits
        self.nodes = 0
        self.tt: dict[int, tuple[int, int, float, int]] = {}
        self.evals: dict[int, float] = {}
        self.killers: dict[int, list[int]] = {}
        self.history: dict[tuple[bool, int], int] = {}
        self.path: set[int] = set()
        self.qsearch = qsearch
        self.star1 = star1
        self.star2 = star2
        self.reductions = reductions
        self.root_margin = 0.0
        self.on_tick: Callable[[], None] | None = None
        self._next_tick = 0
        self._partial: list[RootLine] = []

    # ------------------------------------------------------------------
    # Limits

    def _check(self) -> None:
        limits = self.limits
        if limits.nodes is not None and self.nodes >= limits.nodes:
            raise Stopped
        if limits.stop is not None and limits.stop.is_set():
            raise Stopped
        if limits.deadline is not None and limits.clock() >= limits.deadline:
            raise Stopped
        if self.on_tick is not None and self.nodes >= self._next_tick:
            self._next_tick = self.nodes + 2048
            self.on_tick()

    # ------------------------------------------------------------------
    # The root

    def run(self, root: Position, actions: list[int], *,
            on_iteration: Callable[[RootResult], None] | None = None) -> RootResult:
        """Iterative deepening over ``actions`` (the root's legal actions).

        An iteration cut short still counts for the actions it finished: the one
        searched first was the best before, so any finished one that beats it is
        better. No new iteration starts once more than :data:`NEXT_ITERATION` of
        the budget is spent (it could not finish, and would mostly be wasted).
        """
        lines = [RootLine(action, 0.5, False) for action in self._root_order(root, actions)]
        result = RootResult(lines, 0, 0, complete=False)
        limits = self.limits
        started = limits.clock()
        for depth in range(1, limits.max_depth + 1):
            self._partial = []
            try:
                lines = self._iterate(root, lines, depth)
            except Stopped:
                if self._partial and result.depth:
                    finished = sorted(self._partial, key=lambda line: line.value, reverse=True)
                    done = {line.action for line in finished}
                    lines = finished + [line for line in lines if line.action not in done]
                    result = RootResult(lines, result.depth, self.nodes, complete=False,
                                        history=result.history)
                break
            result = RootResult(lines, depth, self.nodes, complete=True,
                                history=[*result.history,
                                         (depth, lines[0].action, lines[0].value)])
            if on_iteration is not None:
                on_iteration(result)
            if len(lines) == 1 and depth >= 2:
                break
            best = lines[0].value
            if best > 1 - PROVEN or (best < PROVEN and all(
                    line.exact or line.value < PROVEN for line in lines)):
                break  # proven
            if limits.nodes is not None and self.nodes > NEXT_ITERATION * limits.nodes:
                break
            if limits.deadline is not None and limits.clock() - started > \
                    NEXT_ITERATION * (limits.deadline - started):
                break
        result.nodes = self.nodes
        return result

    def _root_order(self, root: Position, actions: list[int]) -> list[int]:
        """The root's actions in the order the first iteration tries them."""
        if root.pending:
            rank = {action: index for index, action
                    in enumerate(self._placements(root, 99, -1))}
            return sorted(actions, key=lambda action: rank.get(action, len(rank)))
        moves = [action for action in actions if action != FLIP]
        ordered = self._order(root, moves, -1, 0)
        if FLIP in actions:
            ordered.insert(self._flip_slot(ordered, root, -1), FLIP)
        return ordered

    def _iterate(self, root: Position, lines: list[RootLine], depth: int) -> list[RootLine]:
        """One iteration, the previous best first; the lines re-ranked.

        Every action within ``root_margin`` of the best gets an exact value (the
        hint list and the weaker levels' choice need them); the rest an upper bound.
        """
        done: list[RootLine] = []
        best_value = -1.0
        for index, line in enumerate(lines):
            before = self.nodes
            floor = max(0.0, best_value - self.root_margin) if index else 0.0
            value = self._root_action(root, line.action, depth, floor, 1.0)
            exact = index == 0 or value > floor or floor == 0.0
            done.append(RootLine(line.action, value, exact, self.nodes - before))
            self._partial = done
            best_value = max(best_value, value)
        done.sort(key=lambda item: item.value, reverse=True)
        return done

    def _root_action(self, root: Position, action: int, depth: int, alpha: float,
                     beta: float) -> float:
        if action == FLIP:
            return self._chance(root, depth, alpha, beta, 0)
        child = root.play(action)
        if child.turn == root.turn:  # cannot happen for a root action but a flip
            return self._search(child, depth, alpha, beta, 1)
        return 1.0 - self._search(child, depth - 1, 1.0 - beta, 1.0 - alpha, 1)

    # ------------------------------------------------------------------
    # Decision nodes

    def _search(self, pos: Position, depth: int, alpha: float, beta: float, ply: int) -> float:
        self.nodes += 1
        if not self.nodes & 31:
            self._check()
        if depth <= 0:
            if self.qsearch:
                return self._quiesce(pos, alpha, beta, ply, 0)
            return self._static(pos, ply)
        key = hash(pos.key())
        entry = self.tt.get(key)
        tt_action = -1
        if entry is not None:
            e_depth, flag, value, tt_action = entry
            if e_depth >= depth:
                if flag == EXACT:
                    return value
                if flag == LOWER and value >= beta:
                    return value
                if flag == UPPER and value <= alpha:
                    return value
        if pos.pending:
            actions = self._placements(pos, depth, tt_action)
            moves: list[int] = []
        else:
            moves = pos.legal_moves()
            over = pos.result(moves)
            if over is not None:
                return self._terminal(over, ply)
            if key in self.path:
                return 0.5
            actions = self._order(pos, moves, tt_action, ply)
            if pos.can_flip():
                actions.insert(self._flip_slot(actions, pos, tt_action), FLIP)
        alpha_orig = alpha
        best = -1.0
        best_action = -1
        reduce_after = len(actions)
        if self.reductions and depth >= REDUCE_FROM:
            if pos.pending:
                reduce_after = REDUCE_AFTER_PLACEMENTS
            elif not pos.in_check():
                reduce_after = REDUCE_AFTER_MOVES
        killers = self.killers.get(ply, ())
        self.path.add(key)
        try:
            for index, action in enumerate(actions):
                child = None
                if index >= reduce_after and action != FLIP:
                    child = pos.play(action)
                    if self._quiet(pos, action, child, killers):
                        # A late, quiet action: a turn shallower first, with a null window.
                        value = 1.0 - self._search(child, depth - 2, 1.0 - alpha - NULL_WINDOW,
                                                   1.0 - alpha, ply + 1)
                        if value <= alpha:
                            if value > best:
                                best = value
                                best_action = action
                            continue
                if action == FLIP:
                    if index == 0:
                        value = self._chance(pos, depth, alpha, beta, ply)
                    else:
                        value = self._chance(pos, depth, alpha, alpha + NULL_WINDOW, ply)
                        if alpha < value < beta:
                            value = self._chance(pos, depth, value, beta, ply)
                else:
                    if child is None:
                        child = pos.play(action)
                    if index == 0:
                        value = 1.0 - self._search(child, depth - 1, 1.0 - beta, 1.0 - alpha,
                                                   ply + 1)
                    else:
                        value = 1.0 - self._search(child, depth - 1, 1.0 - alpha - NULL_WINDOW,
                                                   1.0 - alpha, ply + 1)
                        if alpha < value < beta:
                            value = 1.0 - self._search(child, depth - 1, 1.0 - beta,
                                                       1.0 - value, ply + 1)
                if value > best:
                    best = value
                    best_action = action
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            if not pos.pending and action != FLIP and not pos.is_capture(action):
                                self._remember(pos, action, depth, ply)
                            break
        finally:
            self.path.discard(key)
        if best <= alpha_orig:
            flag = UPPER
        elif best >= beta:
            flag = LOWER
        else:
            flag = EXACT
        self.tt[key] = (depth, flag, best, best_action)
        return best

    @staticmethod
    def _quiet(pos: Position, action: int, child: Position, killers: Sequence[int]) -> bool:
        """Whether a late action may be reduced: any placement or removal; a chess move
        that captures nothing, promotes nothing, is no killer and gives no check."""
        if pos.pending:
            return True
        return not (pos.is_capture(action) or action >> 12 or action in killers
                    or child.in_check())

    def _terminal(self, result: float, ply: int) -> float:
        if result == 0.0:
            return LOSS + ply * PLY_COST
        return result

    def _static(self, pos: Position, ply: int) -> float:
        if not pos.pending:
            moves = pos.legal_moves()
            over = pos.result(moves)
            if over is not None:
                return self._terminal(over, ply)
        return self._eval(pos)

    def _eval(self, pos: Position) -> float:
        """The static expected score."""
        return win_chance(self._eval_cp(pos))

    def _eval_cp(self, pos: Position) -> float:
        """The static evaluation (centipawns for the side to move), remembered by position."""
        key = hash((pos.key(), pos.halfmove))
        value = self.evals.get(key)
        if value is None:
            if len(self.evals) > EVAL_CACHE:
                self.evals.clear()
            value = evaluate(pos)
            self.evals[key] = value
        return value

    def _remember(self, pos: Position, action: int, depth: int, ply: int) -> None:
        killers = self.killers.setdefault(ply, [])
        if action not in killers:
            killers.insert(0, action)
            del killers[2:]
        key = (pos.turn, action)
        self.history[key] = self.history.get(key, 0) + depth * depth

    def _order(self, pos: Position, moves: list[int], tt_action: int, ply: int) -> list[int]:
        """Chess moves, likely best first: the table's, captures by victim, killers, history."""
        killers = self.killers.get(ply, ())
        history = self.history
        turn = pos.turn
        occupied = pos.occupied
        scored = []
        for move in moves:
            if move == tt_action:
                score = 1e9
            else:
                to = move >> 6 & 63
                if occupied >> to & 1:
                    score = 1e6 + VALUE[pos.piece_type_at(to)] * 10 \
                        - VALUE[pos.piece_type_at(move & 63)] / 10
                elif move >> 12:
                    score = 9e5 + VALUE[move >> 12]
                elif move in killers:
                    score = 8e5
                else:
                    score = history.get((turn, move), 0)
            scored.append((score, move))
        scored.sort(reverse=True)
        return [move for _, move in scored]

    def _flip_slot(self, actions: list[int], pos: Position, tt_action: int) -> int:
        """Where the flip goes among the ordered moves: first when the table says so,
        else after the captures, promotions and killers."""
        if tt_action == FLIP:
            return 0
        occupied = pos.occupied
        for index, move in enumerate(actions):
            if move == tt_action:
                continue
            if not (occupied >> (move >> 6 & 63) & 1) and not move >> 12:
                return index
        return len(actions)

    def _placements(self, pos: Position, depth: int, tt_action: int) -> list[int]:
        """The pending card's squares (or a joker's removals), likely best first; only
        the best few far from the root."""
        targets = pos.pending_targets()
        if pos.pending == 7:  # a joker: remove the most valuable piece first
            squares = sorted(iter_bits(targets), key=lambda sq: -VALUE[pos.piece_type_at(sq)])
            actions = [REMOVE | square for square in squares]
        else:
            order = placement_order(pos, targets)
            width = PLACEMENT_WIDTH[min(depth, len(PLACEMENT_WIDTH) - 1)]
            actions = [DROP | square for _, square in order[:max(width, 1)]]
        if tt_action >= 0 and tt_action in actions:
            actions.remove(tt_action)
            actions.insert(0, tt_action)
        elif tt_action >= 0 and tt_action & (DROP | REMOVE) and \
                targets >> (tt_action & 63) & 1:
            actions.insert(0, tt_action)
        return actions

    # ------------------------------------------------------------------
    # Chance nodes

    def _chance(self, pos: Position, depth: int, alpha: float, beta: float, ply: int,
                quiet: bool = False) -> float:
        """The expected value of flipping now (Star1 pruning when ``star1``; Star2
        probing when ``star2``)."""
        outcomes = pos.flip_outcomes()
        outcomes.sort(key=lambda item: -item[0])
        lows = [0.0] * len(outcomes)
        rest_low = 0.0
        if self.star2 and not quiet and depth >= 2:
            # Star2: a lower bound for each card from one placement of it (the
            # placement the search would try first); enough of them can cut at once.
            bound = 0.0
            for index, (chance, _kind, outcome, child) in enumerate(outcomes):
                if outcome in (PLACE, REMOVAL):
                    assert child is not None
                    lows[index] = self._probe(child, depth, alpha, beta, ply + 1)
                    bound += chance * lows[index]
                    if bound >= beta:
                        return bound
            rest_low = bound
        total = 0.0
        left = 1.0
        star1 = self.star1
        for index, (chance, _kind, outcome, child) in enumerate(outcomes):
            left -= chance
            if left < 1e-12:
                left = 0.0
            rest_low -= chance * lows[index]
            if rest_low < 1e-12:
                rest_low = 0.0
            if star1:
                low = (alpha - total - left) / chance
                high = (beta - total - rest_low) / chance
            else:
                low, high = -1.0, 2.0
            a = low if low > 0.0 else 0.0
            b = high if high < 1.0 else 1.0
            if outcome == LOST:
                value = LOSS + (ply + 1) * PLY_COST
            elif outcome == PASS:
                assert child is not None
                if quiet:
                    value = 1.0 - self._quiesce(child, 1.0 - b, 1.0 - a, ply + 1, 99)
                else:
                    value = 1.0 - self._search(child, depth - 1, 1.0 - b, 1.0 - a, ply + 1)
            else:
                assert child is not None
                if quiet:
                    value = self._quiesce(child, a, b, ply + 1, CHECK_QPLY)
                elif outcome == EXTRA and depth <= 0:
                    value = self._quiesce(child, a, b, ply + 1, 0)
                else:
                    value = self._search(child, depth, a, b, ply + 1)
            if value <= low:
                return total + chance * value + left
            if value >= high:
                return total + chance * value + rest_low
            total += chance * value
        return total

    def _probe(self, child: Position, depth: int, alpha: float, beta: float,
               ply: int) -> float:
        """A lower bound on a pending card's value: its first placement searched."""
        actions = self._placements(child, depth, self._tt_action(child))
        if not actions:
            return 0.0
        after = child.play(actions[0])
        value = 1.0 - self._search(after, depth - 1, 1.0 - beta, 1.0 - alpha, ply + 1)
        return value if value > alpha else 0.0

    def _tt_action(self, pos: Position) -> int:
        entry = self.tt.get(hash(pos.key()))
        return entry[3] if entry is not None else -1

    # ------------------------------------------------------------------
    # Quiescence

    def _quiesce(self, pos: Position, alpha: float, beta: float, ply: int, qply: int) -> float:
        self.nodes += 1
        if not self.nodes & 31:
            self._check()
        if pos.pending:
            # Only after a flip in check: the card must block (or the joker remove).
            best = -1.0
            targets = pos.pending_targets()
            for square in iter_bits(targets):
                action = (REMOVE if pos.pending == 7 else DROP) | square
                value = 1.0 - self._quiesce(pos.play(action), 1.0 - beta, 1.0 - alpha, ply + 1,
                                            qply + 1)
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
            return best
        in_check = pos.in_check()
        if in_check or pos.halfmove >= 150 or not any(pos.decks[pos.turn]):
            moves = pos.legal_moves()
            over = pos.result(moves)
            if over is not None:
                return self._terminal(over, ply)
        if in_check and qply < CHECK_QPLY:
            best = -1.0
            for move in self._order(pos, moves, -1, ply):
                value = 1.0 - self._quiesce(pos.play(move), 1.0 - beta, 1.0 - alpha, ply + 1,
                                            qply + 1)
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            return best
            if pos.can_flip():
                value = self._chance(pos, 0, alpha, beta, ply, quiet=True)
                best = max(best, value)
            return best
        stand_cp = self._eval_cp(pos)
        stand = win_chance(stand_cp)
        if stand >= beta or qply >= MAX_QPLY:
            return stand
        best = stand
        if stand > alpha:
            alpha = stand
        moves = pos.legal_moves(captures_only=True)
        if not moves:
            return stand
        occupied = pos.occupied
        captures = []
        turn = pos.turn
        blue = pos.blue[turn]
        best_blue = next((piece for piece in (5, 4, 3, 2) if blue[piece]), 0)
        recaptures = pos.has_king(not turn)  # a side without its king cannot recapture
        for move in moves:
            to = move >> 6 & 63
            promotion = move >> 12
            if promotion and promotion != best_blue:
                continue  # quiescence promotes to the best blue piece left only
            gain = VALUE[promotion] - VALUE[1] if promotion else 0
            if occupied >> to & 1:
                victim = VALUE[pos.piece_type_at(to)]
                attacker = VALUE[pos.piece_type_at(move & 63)] or 2000
                if not promotion and victim < attacker and recaptures and \
                        pos.attackers(not turn, to):
                    continue  # a capture that loses material to the recapture
                gain += victim
                order = victim * 10 - attacker / 10 + gain
            else:
                order = gain
            if win_chance(stand_cp + gain + DELTA_MARGIN) <= alpha:
                continue  # even winning it all would not reach alpha
            captures.append((order, move))
        if not captures:
            return stand
        captures.sort(reverse=True)
        for _, move in captures:
            value = 1.0 - self._quiesce(pos.play(move), 1.0 - beta, 1.0 - alpha, ply + 1,
                                        qply + 1)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best


__all__ = ["EXTRA", "Limits", "RootLine", "RootResult", "Search", "Stopped"]
