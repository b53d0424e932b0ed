"""The Raindropchess engine: reads a public RFEN, searches, answers an :class:`Analysis`.

It sees what a player sees and nothing more: the position text (the cards
left in each deck, never their order) and the house rules. The root's legal
actions come from :class:`~companion.rules.RaindropBoard`, and the position
after the chosen action is made by it too, so whatever the search thinks, the
engine only plays legal actions.

Levels (:data:`STYLES`): each thinks at most its level's time (or the given
budget). Levels 1 and 2 search shallowly, as a beginner sees one or two turns
ahead, and choose among their best few candidates by a softmax of their
values, leaning towards flipping (beginners flip rather than move); levels 3
to 5 play the best they found, and levels 4 and 5 search late quiet actions a
turn shallower first (late-move reductions), so that their longer time buys a
deeper look.
"""

from __future__ import annotations

import logging
import math
import random
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import chess

from companion.engine.contract import (
    Analysis,
    Budget,
    Candidate,
    EngineError,
    Progress,
    ProgressCallback,
    Proof,
    draw_is_welcome,
)
from companion.engine.levels import Level
from companion.engine.raindropchess.position import FLIP, Position
from companion.engine.raindropchess.search import PROVEN, Limits, RootLine, RootResult, Search
from companion.engine.raindropchess.turns import after, legal_actions, turn_text
from companion.rules import HouseRules, HouseRulesError, RaindropBoard

LOGGER = logging.getLogger(__name__)

TIME_SHARE = 0.88
"""The share of a turn's time the search may use; the rest covers stopping and answering."""
ANSWER_SECONDS = 0.005
"""Kept back from every turn's time for reading the position and writing the answer."""
MAX_CANDIDATES = 8
DRAW_NODES = 2000
"""Nodes a level (times its number) looks at a draw offer, at most its time or a second."""


@dataclass(frozen=True)
class Style:
    """How a level plays, beyond its time."""

    max_depth: int
    """The deepest iteration, in turns (a flip and its placement are one)."""
    temperature: float
    """The softmax temperature over candidates' expected scores (0: the best)."""
    choices: int
    """How many of the best candidates a softmax draws from."""
    flip_bias: float
    """Added to a flip's expected score when choosing (a beginner's taste)."""
    margin: float
    """Candidates this close to the best get exact values at the root."""
    reductions: bool = False
    """Late-move reductions: late quiet moves and placements searched a turn shallower
    first, so the search reaches a turn deeper on the same nodes (levels 4 and 5)."""


STYLES: Mapping[int, Style] = {
    1: Style(max_depth=1, temperature=0.05, choices=4, flip_bias=0.04, margin=0.15),
    2: Style(max_depth=2, temperature=0.015, choices=3, flip_bias=0.01, margin=0.1),
    3: Style(max_depth=64, temperature=0.0, choices=1, flip_bias=0.0, margin=0.02),
    4: Style(max_depth=64, temperature=0.0, choices=1, flip_bias=0.0, margin=0.02,
             reductions=True),
    5: Style(max_depth=64, temperature=0.0, choices=1, flip_bias=0.0, margin=0.02,
             reductions=True),
}


def rules_from_options(options: Mapping[str, str]) -> HouseRules | None:
    """House rules from ``KEY=VALUE`` options (``None`` for none: the RFEN shows them)."""
    if not options:
        return None
    try:
        return HouseRules.parse(",".join(f"{key}={value}" for key, value in options.items()))
    except HouseRulesError as error:
        raise EngineError(str(error)) from None


class RaindropchessEngine:
    """The companion's Raindropchess opponent (see the module docstring)."""

    def __init__(self, rules: HouseRules | None = None, *,
                 clock: Callable[[], float] = time.monotonic,
                 star1: bool = True, star2: bool = True,
                 reductions: bool | None = None) -> None:
        self.rules = rules
        self.clock = clock
        self.star1 = star1
        self.star2 = star2
        self.reductions = reductions
        """Late-move reductions on or off at every level (``None``: as the level's style)."""

    def board(self, position: str) -> RaindropBoard:
        """The position as a rules-engine board; :class:`EngineError` if it is not one."""
        try:
            return RaindropBoard(position.strip(), rules=self.rules)
        except ValueError as error:
            raise EngineError(str(error)) from None

    def analyse(self, position: str, *, level: Level, budget: Budget, seed: int = 0,
                stop: threading.Event | None = None,
                progress: ProgressCallback | None = None) -> Analysis:
        """The engine's choice for the side to move in ``position`` (an RFEN)."""
        start = self.clock()
        board = self.board(position)
        outcome = board.outcome()
        if outcome is not None:
            raise EngineError(f"the game is over ({outcome.describe()})")
        actions = legal_actions(board)
        if not actions:  # cannot happen while the game goes on; kept as a guard
            raise EngineError("the side to move has no legal action")
        style = STYLES[level.number]
        deadline = None
        if budget.seconds is not None:
            deadline = start + max(budget.seconds * TIME_SHARE - ANSWER_SECONDS,
                                   budget.seconds / 2)
        limits = Limits(nodes=budget.playouts, deadline=deadline, stop=stop,
                        max_depth=1 if len(actions) == 1 else style.max_depth,
                        clock=self.clock)
        reductions = style.reductions if self.reductions is None else self.reductions
        search = Search(limits, star1=self.star1, star2=self.star2, reductions=reductions)
        search.root_margin = style.margin
        root = Position.from_board(board)
        latest: list[RootResult] = []

        def candidate(line: RootLine) -> Candidate:
            return Candidate(turn=turn_text(board, line.action), value=line.value,
                             visits=line.nodes, after=after(board, line.action),
                             proof=_proof(line))

        if progress is not None:
            def tick() -> None:
                best = candidate(latest[-1].lines[0]) if latest else None
                progress(Progress(search.nodes, self.clock() - start, best))

            search.on_tick = tick
        result = search.run(root, actions, on_iteration=latest.append)
        chosen_line = _choose(result.lines, style, random.Random(f"{seed}:{board.rfen()}"))
        ranked = result.lines[:MAX_CANDIDATES]
        candidates = tuple(candidate(line) for line in ranked)
        chosen = next((item for item, line in zip(candidates, ranked, strict=True)
                       if line is chosen_line), None) or candidate(chosen_line)
        mover = chess.COLOR_NAMES[board.turn]
        return Analysis(
            position=board.rfen(), mover=mover, chosen=chosen, candidates=candidates,
            playouts=search.nodes, seconds=self.clock() - start, level=level.number,
            stopped=bool(stop is not None and stop.is_set()),
            notes={"opponent": chess.COLOR_NAMES[not board.turn], "depth": str(result.depth),
                   "search": "expectimax (Star1, Star2) with alpha-beta and quiescence"
                   + (", late-move reductions" if reductions else "")})

    def accepts_draw(self, position: str, *, level: Level, seed: int = 0) -> bool:
        """Takes a draw when its expected score after a short look is clearly below half."""
        budget = Budget(seconds=min(level.seconds, 1.0), playouts=DRAW_NODES * level.number)
        analysis = self.analyse(position, level=level, budget=budget, seed=seed)
        return draw_is_welcome(analysis.value)


def _proof(line: RootLine) -> Proof | None:
    """A proven result: a win needs an exact value, a loss an upper bound is enough."""
    if line.value < PROVEN:
        return Proof.LOSS
    if line.exact and line.value > 1 - PROVEN:
        return Proof.WIN
    return None


def _choose(lines: list[RootLine], style: Style, rng: random.Random) -> RootLine:
    """The line a level plays: the best, or a softmax draw among the best few."""
    if style.temperature <= 0 or len(lines) == 1:
        return lines[0]
    best = lines[0].value
    if best > 1 - PROVEN:
        return lines[0]  # even a beginner takes a mate it has seen
    pool = [line for line in lines[:style.choices]
            if line.exact and line.value >= best - style.margin]
    if len(pool) < 2:
        return lines[0]
    weights = [math.exp((line.value + (style.flip_bias if line.action == FLIP else 0.0)
                         - best) / style.temperature) for line in pool]
    return rng.choices(pool, weights=weights)[0]


def make_engine(game: str, options: Mapping[str, str]) -> RaindropchessEngine:
    """The registry's hook: the engine under the house rules in ``options``."""
    return RaindropchessEngine(rules_from_options(options))
