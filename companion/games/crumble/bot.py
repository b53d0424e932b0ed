"""Crumble's knowledge for the engine: turns with their positions, an evaluation, draws.

The search state is the position (its canonical text, parsed on first use);
a turn is ``(turn text, position text after it)``: every action and, for each,
every swap end state, as :func:`companion.games.crumble.engine.all_turns` lists
them. The evaluation reads what wins: for each colour, how many enemy pieces
its best chain still has to take to link west to east and south to north (a
shortest path through pieces, own pieces free, enemy ones costing one), and
the share of the board each colour covers.

Draws (rules file, section 8): the engine claims the one-big-piece draw and
accepts an offered draw when its expected score is clearly below a half; it
offers one under the same condition.
"""

from __future__ import annotations

import logging
import math
import random
import threading
import time
from collections import deque

from companion.engine.bots import Setup, Style, style_of
from companion.engine.contract import Analysis, Budget, ProgressCallback, draw_is_welcome
from companion.engine.levels import Level
from companion.engine.mcts import Children, Search, Settings
from companion.games.crumble.engine import (
    Successors,
    Work,
    actions,
    explore,
    finished,
    swap_prefix,
)
from companion.games.crumble.position import CrumblePosition

LOGGER = logging.getLogger(__name__)

Turn = tuple[str, str]
"""``(turn text, position text after it)``."""

WEST, EAST, SOUTH, NORTH = 8, 2, 4, 1

KEPT = 64
"""The most turns a node keeps (the best by their score): a Crumble position text is a
kilobyte or two, and a level-5 search expands about a thousand nodes."""


def turns_and_positions(pos: CrumblePosition) -> list[Turn]:
    """Every turn (one per distinct end state) with the text of the position it reaches."""
    return [(turn, after) for turn, after, _ in scored_turns(pos)[0]]


def scored_turns(pos: CrumblePosition, rng: random.Random | None = None,
                 deadline: float | None = None) -> tuple[list[tuple[str, str, float]], bool]:
    """Every turn (one per distinct end state), the text it reaches, and Black's expected
    score there by :func:`heuristic`, worked out on the board after the action (no text
    is read back); and whether every action was listed. With ``rng`` the actions are taken
    in a random order; past ``deadline`` (``time.monotonic()``) the listing stops after the
    action in hand, keeping at least one."""
    if finished(pos):
        return [], True
    writer = Successors(pos)
    out: list[tuple[str, str, float]] = []
    seen: set[str] = set()
    side = 1 - pos.state.side  # to move after the turn
    todo = actions(pos)
    if rng is not None:
        rng.shuffle(todo)
    for number, action in enumerate(todo):
        if deadline is not None and out and time.monotonic() >= deadline:
            return out, number >= len(todo)
        work = Work(pos, action)
        texts, order, history, candidate = writer.writer(work)
        alive = [i for i, r in enumerate(work.rects) if r[2] > 0]
        after = writer.text(texts, order, work.colours, history, False)
        if after not in seen:
            seen.add(after)
            out.append((action.text, after, work_value(work, work.colours, alive, side, None)))
        for reached in explore(work, candidate):
            after = writer.text(texts, order, reached.colours, history, candidate)
            if after in seen:
                continue
            seen.add(after)
            value = work_value(work, reached.colours, alive, side, reached.winner)
            out.append((f"{action.text} {swap_prefix(work, reached.start)}{reached.dirs}",
                        after, value))
    return out, True


def work_value(work: Work, colours: bytes, alive: list[int], side: int,
               winner: int | None) -> float:
    """Black's expected score on the board after an action (and a swap): :func:`value_of`."""
    if winner is not None:
        return 1.0 if winner == 0 else 0.0
    area = [0, 0]
    rects = work.rects
    for i in alive:
        r = rects[i]
        area[colours[i]] += r[2] * r[3]
    edges, contacts = work.edges, work.side
    black = (cost(colours, edges, contacts, alive, 0, WEST, EAST)
             + cost(colours, edges, contacts, alive, 0, SOUTH, NORTH))
    white = (cost(colours, edges, contacts, alive, 1, WEST, EAST)
             + cost(colours, edges, contacts, alive, 1, SOUTH, NORTH))
    return value_of(black, white, area[0] / (area[0] + area[1]), side)


def cost(colours: bytes | bytearray, edges: list[int], contacts: list[list[int]],
         pieces: list[int], colour: int, start: int, goal: int) -> int:
    """Enemy pieces a chain of ``colour`` must still take to join the board sides
    ``start`` and ``goal`` (0-1 shortest path over side contacts)."""
    best: dict[int, int] = {}
    queue: deque[int] = deque()
    for i in pieces:
        if edges[i] & start:
            c = 0 if colours[i] == colour else 1
            best[i] = c
            if c:
                queue.append(i)
            else:
                queue.appendleft(i)
    far = 1 << 30
    while queue:
        i = queue.popleft()
        here = best[i]
        if edges[i] & goal:
            return here
        for j in contacts[i]:
            c = here + (0 if colours[j] == colour else 1)
            if c < best.get(j, far):
                best[j] = c
                if c == here:
                    queue.appendleft(j)
                else:
                    queue.append(j)
    return len(pieces)


def value_of(black: int, white: int, share: float, side: int) -> float:
    """Black's expected score from the crossing costs, Black's share and the side to move."""
    tempo = 0.3 if side == 0 else -0.3
    value = 1.0 / (1.0 + math.exp(-(0.6 * (white - black) + 4.0 * (share - 0.5) + tempo)))
    return min(1.0 - 1e-9, max(1e-9, value))  # 0 and 1 are kept for finished games


def crossing_cost(pos: CrumblePosition, colour: int, start: int, goal: int) -> int:
    """Enemy pieces a chain of ``colour`` must still take to join the board sides
    ``start`` and ``goal`` (:func:`cost` on the position's pieces)."""
    state, board = pos.state, pos.board
    return cost(state.colours, board.edges, board.side, list(range(len(state.colours))),
                colour, start, goal)


def features(pos: CrumblePosition) -> tuple[int, int, float]:
    """(black's crossing cost, white's, black's share of the board)."""
    state = pos.state
    area = [0, 0]
    for (_, _, w, h), c in zip(state.rects, state.colours, strict=True):
        area[c] += w * h
    share = area[0] / (area[0] + area[1])
    black = crossing_cost(pos, 0, WEST, EAST) + crossing_cost(pos, 0, SOUTH, NORTH)
    white = crossing_cost(pos, 1, WEST, EAST) + crossing_cost(pos, 1, SOUTH, NORTH)
    return black, white, share


def heuristic(pos: CrumblePosition) -> float:
    """Black's expected score of a position that is not over."""
    black, white, share = features(pos)
    return value_of(black, white, share, pos.state.side)


class CrumbleDomain:
    """Crumble on positions; a turn carries the position it reaches.

    Listing a node's turns also scores each one (:func:`scored_turns`): the
    score is the turn's prior and, kept in :attr:`values`, the value of its
    position when the search first reaches it, so no text is read back to
    evaluate a leaf.
    """

    def __init__(self) -> None:
        self.values: dict[str, float] = {}
        self.results: dict[str, float | None] = {}
        """Position text -> Black's score if the turn listed ended the game (a win, or the
        third draw turn), else ``None``: known from the listing, so no text is read back."""
        self.deadline: float | None = None
        """Set by the search: listing a node's turns stops once it passes."""

    def mover(self, state: CrumblePosition) -> int:
        return 0 if state.text().split(" ", 4)[3] == "b" else 1  # the SIDE field, unparsed

    def result(self, state: CrumblePosition) -> float | None:
        text = state.text()
        if text in self.results:
            return self.results[text]
        winners = state.winners
        if winners:
            return 1.0 if 0 in winners else 0.0
        if state.state.draw in ("3", "="):
            return 0.5
        return None

    def children(self, state: CrumblePosition, rng: random.Random) -> Children[Turn]:
        scored, complete = scored_turns(state, rng, self.deadline)
        black = state.state.side == 0
        if len(scored) > KEPT:  # the best by score only: each holds a whole position text
            scored.sort(key=lambda item: -item[2] if black else item[2])
            del scored[KEPT:]
            complete = False
        values = self.values
        results = self.results
        priors = []
        for _, after, value in scored:
            values[after] = value
            if value in (0.0, 1.0):  # a win listed as such (an evaluation never reaches 0 or 1)
                results[after] = value
            else:
                results[after] = 0.5 if after.split(" ", 5)[4] == "3" else None
            mine = value if black else 1.0 - value
            priors.append(math.exp(6.0 * mine))
        return Children([(turn, after) for turn, after, _ in scored], priors, complete)

    def play(self, state: CrumblePosition, turn: Turn) -> CrumblePosition:
        return CrumblePosition(turn[1])


class Heuristic:
    """The evaluation at the leaves: the score worked out when the turn was listed."""

    def __init__(self, domain: CrumbleDomain) -> None:
        self.domain = domain

    def evaluate(self, state: CrumblePosition, rng: random.Random) -> float:
        value = self.domain.values.get(state.text())
        return heuristic(state) if value is None else value


def settings_for() -> Settings:
    return Settings(c_puct=1.2, widen_base=8, widen_rate=1.5)


class CrumbleBot:
    """Crumble for the engine."""

    def setup(self, position: CrumblePosition, style: Style) -> Setup:
        mover = "black" if position.state.side == 0 else "white"
        domain = CrumbleDomain()
        return Setup(state=position, domain=domain, evaluator=Heuristic(domain),
                     settings=settings_for(),
                     turn_text=lambda state, action: action[0],
                     position_text=lambda state: state.text(),
                     mover=mover, opponent="white" if mover == "black" else "black")

    def decide(self, position: CrumblePosition, *, level: Level, budget: Budget, seed: int,
               stop: threading.Event | None,
               progress: ProgressCallback | None) -> Analysis | None:
        return None

    def value(self, position: CrumblePosition, *, level: Level, seed: int,
              playouts: int = 24) -> float:
        """The mover's expected score by a short search."""
        setup = self.setup(position, style_of(level))
        outcome = Search(setup.domain, setup.evaluator, setup.settings, seed=seed).run(
            setup.state, playouts=playouts)
        return outcome.root_value

    def accepts_draw(self, position: CrumblePosition, *, level: Level, seed: int) -> bool:
        return draw_is_welcome(self.value(position, level=level, seed=seed))

    def claims_draw(self, position: CrumblePosition, *, level: Level, seed: int) -> bool:
        """Whether to make the one-big-piece claim now (when the rules offer it)."""
        from companion.games.crumble.rules import RULES

        if not RULES.claims(position):
            return False
        return self.value(position, level=level, seed=seed) < 0.5

    def offers_draw(self, position: CrumblePosition, *, level: Level, seed: int) -> bool:
        """Whether to offer a draw before its turn."""
        return self.accepts_draw(position, level=level, seed=seed)

    def claim(self, position: CrumblePosition, *, level: Level, seed: int) -> str | None:
        """``"draw"`` when the one-big-piece claim is open and worth making, else ``None``."""
        return "draw" if self.claims_draw(position, level=level, seed=seed) else None


BOT = CrumbleBot()
