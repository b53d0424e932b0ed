"""A generic Monte Carlo tree search with priors, progressive widening and a solver.

The search knows no game. It is handed a :class:`Domain` (the rules on the
game's own fast state: who moves, whether it is over, the candidate turns with
their prior weights, the state after a turn) and an :class:`Evaluator` (what a
state is worth to player 0: a random playout, a heuristic, or both). Game
knowledge lives in each game's ``bot`` module, never here.

Shape (after OpenSpiel's ``mcts.py``): select by PUCT (a child's mean value
plus a bonus weighted by its prior), expand one node, evaluate it, back the
value up. Where a game's turns are many, only the best-prior children are
open to selection, more as the node's visits grow (progressive widening).
Terminal states carry proven values, and a node whose mover has a proven win
among its children, or whose children are all proven, is proven too
(MCTS-Solver, Winands et al. 2008); proven losses are never chosen while any
alternative is left.

Repeatable: with a playout budget and a seed the answer is the same on every
machine. Stoppable: ``stop`` is checked before every playout. Progress is
reported now and then through a callback.
"""

from __future__ import annotations

import logging
import math
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

LOGGER = logging.getLogger(__name__)

S = TypeVar("S")
A = TypeVar("A")
S_contra = TypeVar("S_contra", contravariant=True)

WIN, DRAW, LOSS = 1.0, 0.5, 0.0


@dataclass(frozen=True)
class Children(Generic[A]):
    """The candidate turns of a state, with their prior weights (the best first, ideally)."""

    actions: Sequence[A]
    priors: Sequence[float]
    """One non-negative weight per action; the search normalises them."""
    complete: bool = True
    """False when ``actions`` is a sample of the legal turns: the solver then proves no loss."""


class Domain(Protocol[S, A]):
    """A game's rules on its search state."""

    def mover(self, state: S) -> int:
        """0 or 1: the player to move."""
        ...

    def result(self, state: S) -> float | None:
        """Player 0's score (1 win, 0.5 draw, 0 loss) if the game is over, else ``None``."""
        ...

    def children(self, state: S, rng: random.Random) -> Children[A]:
        """The turns the search may try from ``state`` (never empty unless it is over).

        A domain whose turns take long to list may read the search's deadline (its
        ``deadline`` attribute, a ``time.monotonic()`` value or ``None``, set by the
        search when it has one) and return fewer, marked incomplete, once it passes.
        """
        ...

    def play(self, state: S, action: A) -> S:
        """The state after ``action`` (one of :meth:`children`'s)."""
        ...


class Evaluator(Protocol[S_contra]):
    """What a state is worth: player 0's expected score, 0 to 1."""

    def evaluate(self, state: S_contra, rng: random.Random) -> float: ...


@dataclass(frozen=True)
class Settings:
    """How the tree grows."""

    c_puct: float = 1.4
    """Weight of the exploration bonus."""
    widen_base: int = 0
    """With progressive widening, children open at first (0: every child is open)."""
    widen_rate: float = 1.0
    """Open children = ``widen_base + widen_rate * visits ** widen_power`` (when widening)."""
    widen_power: float = 0.5
    max_depth: int = 0
    """Grow the tree at most this deep below the root (0: no limit)."""
    early_stop: bool = True
    """Stop once the most visited turn can no longer be overtaken within the budget."""


@dataclass
class Node(Generic[S, A]):
    """One state in the tree. ``total`` and ``proof`` are from the view of ``who``,
    the player who made the turn into this node."""

    __slots__ = ("action", "child_actions", "child_priors", "children", "complete", "depth",
                 "mover", "prior", "proof", "state", "total", "visits", "who")

    state: S
    action: A | None
    who: int
    mover: int
    prior: float
    depth: int
    visits: int
    total: float
    proof: float | None
    children: list[Node[S, A]] | None
    child_actions: Sequence[A]
    child_priors: list[float]
    complete: bool

    @property
    def value(self) -> float:
        """Mean value for ``who`` (0.5 before any visit)."""
        if self.proof is not None:
            return self.proof
        return self.total / self.visits if self.visits else 0.5


@dataclass(frozen=True)
class Line(Generic[A]):
    """A root child's statistics after the search."""

    action: A
    value: float
    """The root mover's expected score after this turn."""
    visits: int
    prior: float
    proof: float | None
    """Proven score for the root mover (1, 0.5, 0), or ``None``."""
    continuation: tuple[A, ...]
    """The most visited line after the turn."""
    state: object = None
    """The search state after the turn (for the caller's texts)."""


@dataclass(frozen=True)
class Outcome(Generic[A]):
    """A finished search."""

    lines: tuple[Line[A], ...]
    """Every root child searched, most visited (or proven best) first."""
    playouts: int
    seconds: float
    stopped: bool
    root_value: float
    """The root mover's expected score."""
    root_proof: float | None


ProgressHook = Callable[[int, float, "Line[A] | None"], None]


class Search(Generic[S, A]):
    """One search from one root state."""

    def __init__(self, domain: Domain[S, A], evaluator: Evaluator[S], settings: Settings,
                 *, seed: int = 0) -> None:
        self.domain = domain
        self.evaluator = evaluator
        self.settings = settings
        self.rng = random.Random(seed)

    def _node(self, state: S, action: A | None, who: int, prior: float, depth: int
              ) -> Node[S, A]:
        domain = self.domain
        result = domain.result(state)
        proof = None
        mover = who ^ 1
        if result is not None:
            proof = result if who == 0 else 1.0 - result
        else:
            mover = domain.mover(state)
        return Node(state, action, who, mover, prior, depth, 0, 0.0, proof, None, (), [], True)

    def _expand(self, node: Node[S, A]) -> None:
        kids = self.domain.children(node.state, self.rng)
        actions = list(kids.actions)
        priors = [max(0.0, float(p)) for p in kids.priors]
        if len(priors) != len(actions):
            raise ValueError("a domain gave priors that do not match its turns")
        total = sum(priors)
        if total <= 0:
            priors = [1.0 / len(actions)] * len(actions) if actions else []
        else:
            priors = [p / total for p in priors]
        order = sorted(range(len(actions)), key=lambda k: -priors[k])
        node.child_actions = [actions[k] for k in order]
        node.child_priors = [priors[k] for k in order]
        node.complete = kids.complete
        node.children = []

    def _open(self, node: Node[S, A]) -> int:
        """How many of ``node``'s children may be selected now."""
        s = self.settings
        count = len(node.child_actions)
        if s.widen_base <= 0:
            return count
        return min(count, s.widen_base + int(s.widen_rate * node.visits ** s.widen_power))

    def _select(self, node: Node[S, A]) -> Node[S, A] | None:
        """The child to descend into (made on first use); ``None`` if every open one is proven."""
        assert node.children is not None
        opened = self._open(node)
        children = node.children
        while len(children) < opened:
            k = len(children)
            child_state = self.domain.play(node.state, node.child_actions[k])
            children.append(self._node(child_state, node.child_actions[k], node.mover,
                                       node.child_priors[k], node.depth + 1))
        c = self.settings.c_puct * math.sqrt(node.visits + 1)
        parent_q = 1.0 - node.value if node.visits else 0.5
        best: Node[S, A] | None = None
        best_score = -1e9
        for child in children:
            proof = child.proof
            if proof is not None:
                if proof == WIN:
                    return child
                if proof == LOSS:
                    continue
                q = proof
            elif child.visits:
                q = child.total / child.visits
            else:
                q = parent_q
            score = q + c * child.prior / (1 + child.visits)
            if score > best_score:
                best_score = score
                best = child
        return best

    def _prove(self, node: Node[S, A]) -> None:
        """Mark ``node`` proven when its children settle it (for ``node.who``)."""
        children = node.children
        if not children:
            return
        best = -1.0
        all_proven = node.complete and len(children) == len(node.child_actions)
        for child in children:
            proof = child.proof
            if proof == WIN:
                node.proof = LOSS  # the mover here wins: bad for who moved into it
                return
            if proof is None:
                all_proven = False
            elif proof > best:
                best = proof
        if all_proven and best >= 0:
            node.proof = 1.0 - best

    def run(self, root_state: S, *, playouts: int | None = None, seconds: float | None = None,
            stop: threading.Event | None = None,
            progress: Callable[[int, float, Line[A] | None], None] | None = None,
            progress_every: float = 0.25) -> Outcome[A]:
        """Search until the budget is spent, the root is proven, or ``stop`` is set."""
        start = time.monotonic()
        domain = self.domain
        if domain.result(root_state) is not None:
            raise ValueError("the game is over: there is no turn to search")
        deadline = start + seconds if seconds is not None else None
        if hasattr(domain, "deadline"):
            domain.deadline = deadline
        root = self._node(root_state, None, domain.mover(root_state) ^ 1, 1.0, 0)
        self._expand(root)
        if not root.child_actions:
            raise ValueError("the domain lists no turn in a state that is not over")
        limit = playouts
        done = 0
        stopped = False
        next_report = start + progress_every
        settings = self.settings
        max_depth = settings.max_depth
        evaluate = self.evaluator.evaluate
        rng = self.rng
        while True:
            if limit is not None and done >= limit:
                break
            if stop is not None and stop.is_set():
                stopped = True
                break
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                break
            if root.proof is not None:
                break
            if settings.early_stop and done >= 32 and done % 16 == 0 and self._settled(
                    root, done, limit, now - start, None if deadline is None else deadline - now):
                break
            if progress is not None and now >= next_report:
                next_report = now + progress_every
                progress(done, now - start, self._best_line(root))
            # selection
            path = [root]
            node = root
            while True:
                if node.proof is not None:
                    break
                if node.children is None:
                    if max_depth and node.depth >= max_depth:
                        break
                    self._expand(node)
                    child = self._select(node)
                    if child is not None:
                        path.append(child)
                        node = child
                    break
                child = self._select(node)
                if child is None:
                    break
                path.append(child)
                node = child
            # evaluation: player 0's score
            if node.proof is not None:
                value0 = node.proof if node.who == 0 else 1.0 - node.proof
            else:
                value0 = evaluate(node.state, rng)
            # backup; proofs move up only from a node proven this time
            changed = node.proof is not None
            for item in reversed(path):
                item.visits += 1
                item.total += value0 if item.who == 0 else 1.0 - value0
                if changed and item is not node:
                    if item.proof is None:
                        self._prove(item)
                    changed = item.proof is not None
            done += 1
        elapsed = time.monotonic() - start
        if not root.children:  # stopped before the first playout: the turns by prior
            assert root.children is not None
            for k, action in enumerate(root.child_actions[:8]):
                root.children.append(self._node(domain.play(root.state, action), action,
                                                root.mover, root.child_priors[k], 1))
        lines = self._lines(root)
        if root.proof is not None:
            root_value = 1.0 - root.proof
        else:
            root_value = 1.0 - root.total / root.visits if root.visits else 0.5
        return Outcome(tuple(lines), done, elapsed, stopped, root_value,
                       None if root.proof is None else 1.0 - root.proof)

    def _settled(self, root: Node[S, A], done: int, limit: int | None, elapsed: float,
                 left_seconds: float | None) -> bool:
        """True when no other child can catch the most visited one in the budget left."""
        children = root.children
        if not children or len(children) < 2:
            return bool(children) and len(root.child_actions) == 1
        left: float | None = None
        if limit is not None:
            left = limit - done
        if left_seconds is not None and elapsed > 0:
            by_time = done / elapsed * left_seconds
            left = by_time if left is None else min(left, by_time)
        if left is None:
            return False
        first = second = 0
        for child in children:
            v = child.visits
            if v > first:
                first, second = v, first
            elif v > second:
                second = v
        unopened = len(root.child_actions) - len(children)
        if unopened and self.settings.widen_base <= 0:
            return False
        return first - second > left

    def _rank_key(self, child: Node[S, A]) -> tuple[float, int, float]:
        proof = child.proof
        if proof == WIN:
            tier = 2.0
        elif proof == LOSS:
            tier = -1.0
        else:
            tier = 0.0
        return (tier, child.visits, child.value)

    def _best_line(self, root: Node[S, A]) -> Line[A] | None:
        children = root.children
        if not children:
            return None
        best = max(children, key=self._rank_key)
        return self._line(best)

    def _line(self, child: Node[S, A]) -> Line[A]:
        continuation: list[A] = []
        node = child
        while node.children:
            nxt = max(node.children, key=self._rank_key)
            if nxt.visits == 0 and nxt.proof is None:
                break
            assert nxt.action is not None
            continuation.append(nxt.action)
            node = nxt
            if len(continuation) >= 12:
                break
        assert child.action is not None
        return Line(child.action, child.value, child.visits, child.prior, child.proof,
                    tuple(continuation), child.state)

    def _lines(self, root: Node[S, A]) -> list[Line[A]]:
        children = root.children or []
        ranked = sorted(children, key=self._rank_key, reverse=True)
        return [self._line(child) for child in ranked]


def search(domain: Domain[S, A], evaluator: Evaluator[S], state: S, *,
           settings: Settings | None = None, seed: int = 0, playouts: int | None = None,
           seconds: float | None = None, stop: threading.Event | None = None,
           progress: Callable[[int, float, Line[A] | None], None] | None = None
           ) -> Outcome[A]:
    """Search ``state`` within the budget (playouts, seconds, or both); see :class:`Search`."""
    if playouts is None and seconds is None:
        raise ValueError("a search needs playouts, seconds or both")
    return Search(domain, evaluator, settings or Settings(), seed=seed).run(
        state, playouts=playouts, seconds=seconds, stop=stop, progress=progress)


def choose(lines: Sequence[Line[A]], temperature: float, rng: random.Random,
           *, among: int = 6) -> Line[A]:
    """The line to play: the first (best) at temperature 0, else a softmax over the
    best ``among`` by value, so a weak level slips to a near-best turn, not a random one.
    A proven win is always taken and a proven loss never chosen while another is left."""
    if not lines:
        raise ValueError("no turn to choose from")
    best = lines[0]
    if temperature <= 0 or best.proof == WIN or len(lines) == 1:
        return best
    pool = [line for line in lines[:among] if line.proof != LOSS and line.visits > 0] or [best]
    top = max(line.value for line in pool)
    weights = [math.exp((line.value - top) / temperature) for line in pool]
    pick = rng.random() * sum(weights)
    for line, weight in zip(pool, weights, strict=True):
        pick -= weight
        if pick <= 0:
            return line
    return pool[-1]
