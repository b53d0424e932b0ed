"""Rumbo's knowledge for the engine: a bit-board search state, playouts, komi and side.

The search state is ``(black, white, vclaims, hclaims, player)`` on the masks
of :mod:`companion.games.rumbo.fast` (player 0 Vertical, 1 Horizontal: the
order of ``RULES.players``); the komi and options are fixed for a game. A turn
is ``(point bit index, black?)``.

Decisions outside turns (rules file, section 4): as proposer the engine names
the komi that makes the game even by its own estimate (a few self-play games of
its own playout policy at the board size); as chooser it takes the side whose
value is higher at the named komi.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from functools import cache

from companion.engine.bots import Setup, Style
from companion.engine.contract import Analysis, Budget, Candidate, ProgressCallback
from companion.engine.levels import Level
from companion.engine.mcts import Children, Search, Settings
from companion.games.rumbo.fast import Board, Masks, board_of, fields_of, masks, place
from companion.games.rumbo.geometry import geometry
from companion.games.rumbo.position import RumboPosition

LOGGER = logging.getLogger(__name__)

State = tuple[int, int, int, int, int]
"""``(black, white, vclaims, hclaims, player to move)``."""
Turn = tuple[int, bool]
"""``(bit index of the point, black?)``."""


class RumboDomain:
    """Rumbo's play phase on bit boards, at a fixed komi."""

    def __init__(self, m: Masks, komi: int) -> None:
        self.m = m
        self.komi = komi

    def mover(self, state: State) -> int:
        return state[4]

    def result(self, state: State) -> float | None:
        b, w, vc, hc, _ = state
        if (b | w) != self.m.valid:
            return None
        v = vc.bit_count()
        h = hc.bit_count() + self.komi
        return 1.0 if v > h else 0.0 if v < h else 0.5

    def children(self, state: State, rng: random.Random) -> Children[Turn]:
        b, w, _, _, _ = state
        empty = self.m.valid & ~(b | w)
        turns: list[Turn] = []
        while empty:
            low = empty & -empty
            empty ^= low
            p = low.bit_length() - 1
            turns.append((p, True))
            turns.append((p, False))
        return Children(turns, [1.0] * len(turns))

    def play(self, state: State, turn: Turn) -> State:
        b, w, vc, hc, player = state
        board = place((b, w, vc, hc), turn[0], turn[1], self.m)
        return (*board, player ^ 1)


class Playout:
    """Random placements (a random empty point, a random colour) to the full board."""

    def __init__(self, domain: RumboDomain) -> None:
        self.domain = domain

    def evaluate(self, state: State, rng: random.Random) -> float:
        b, w, vc, hc, _ = state
        board = play_out((b, w, vc, hc), self.domain.m, rng)
        v = board[2].bit_count()
        h = board[3].bit_count() + self.domain.komi
        return 1.0 if v > h else 0.0 if v < h else 0.5


def play_out(board: Board, m: Masks, rng: random.Random) -> Board:
    """The board after random placements (a random empty point, a random colour) fill it."""
    valid = m.valid
    getrandbits = rng.getrandbits
    randrange = rng.randrange
    while True:
        empty = valid & ~(board[0] | board[1])
        if not empty:
            return board
        k = randrange(empty.bit_count())
        while k:
            empty &= empty - 1
            k -= 1
        p = (empty & -empty).bit_length() - 1
        board = place(board, p, bool(getrandbits(1)), m)


def state_of(pos: RumboPosition) -> State:
    return (*board_of(pos.stones, pos.claims), 0 if pos.side == "v" else 1)


def text_of(state: State, pos: RumboPosition, m: Masks) -> str:
    stones, claims = fields_of(state[:4], m)
    after = RumboPosition(pos.size, stones, "vh"[state[4]], pos.komi, claims, pos.edgeholes,
                          pos.nostraight)
    return after.text()


@cache
def _names(size: int) -> tuple[str, ...]:
    return geometry(size).names


class RumboBot:
    """Rumbo for the engine."""

    def setup(self, position: RumboPosition, style: Style) -> Setup:
        if position.komi is None:
            raise ValueError("the komi is still to be named")
        m = masks(position.size, position.edgeholes, position.nostraight)
        domain = RumboDomain(m, position.komi)
        names = _names(position.size)

        def turn(state: State, action: Turn) -> str:
            return f"{'b' if action[1] else 'w'}@{names[action[0]]}"

        mover = "vertical" if position.side == "v" else "horizontal"
        return Setup(state=state_of(position), domain=domain, evaluator=Playout(domain),
                     settings=Settings(c_puct=1.0, widen_base=10, widen_rate=2.0),
                     turn_text=turn, position_text=lambda state: text_of(state, position, m),
                     mover=mover, opponent="horizontal" if mover == "vertical" else "vertical")

    def decide(self, position: RumboPosition, *, level: Level, budget: Budget, seed: int,
               stop: threading.Event | None,
               progress: ProgressCallback | None) -> Analysis | None:
        if position.side == "k":
            return self._komi(position, level, budget, seed, stop)
        if position.side == "s":
            return self._side(position, level, budget, seed, stop)
        return None

    def _komi(self, position: RumboPosition, level: Level, budget: Budget, seed: int,
              stop: threading.Event | None) -> Analysis:
        start = time.monotonic()
        komi, value, playouts = fair_komi(position, budget, seed, stop)
        after = RumboPosition(position.size, position.stones, "s", komi, position.claims,
                              position.edgeholes, position.nostraight)
        chosen = Candidate(f"komi={komi}", 0.5, playouts, after.text())
        return Analysis(position=position.text(), mover="proposer", chosen=chosen,
                        candidates=(chosen,), playouts=playouts,
                        seconds=time.monotonic() - start, level=level.number,
                        stopped=bool(stop and stop.is_set()),
                        notes={"opponent": "chooser",
                               "komi": f"Vertical's expected score at komi {komi} is about "
                                       f"{round(value * 100)}%: the nearest to even"})

    def _side(self, position: RumboPosition, level: Level, budget: Budget, seed: int,
              stop: threading.Event | None) -> Analysis:
        start = time.monotonic()
        assert position.komi is not None
        value, playouts = vertical_value(position, position.komi, budget, seed, stop)
        side = "v" if value >= 0.5 else "h"
        after = RumboPosition(position.size, position.stones, "v", position.komi,
                              position.claims, position.edgeholes, position.nostraight)
        mine = value if side == "v" else 1.0 - value
        chosen = Candidate(f"side={side}", mine, playouts, after.text())
        other = Candidate(f"side={'h' if side == 'v' else 'v'}", 1.0 - mine, playouts,
                          after.text())
        name = "Vertical" if side == "v" else "Horizontal"
        return Analysis(position=position.text(), mover="chooser", chosen=chosen,
                        candidates=(chosen, other), playouts=playouts,
                        seconds=time.monotonic() - start, level=level.number,
                        stopped=bool(stop and stop.is_set()),
                        notes={"opponent": "proposer",
                               "side": f"{name} scores about {round(mine * 100)}% at komi "
                                       f"{position.komi}"})

    def accepts_draw(self, position: RumboPosition, *, level: Level, seed: int) -> bool:
        return False


def vertical_value(position: RumboPosition, komi: int, budget: Budget,
                   seed: int, stop: threading.Event | None) -> tuple[float, int]:
    """Vertical's expected score on the empty board at ``komi``: a search of the first turn."""
    m = masks(position.size, position.edgeholes, position.nostraight)
    domain = RumboDomain(m, komi)
    state = (*board_of(position.stones, position.claims), 0)
    search = Search(domain, Playout(domain), Settings(c_puct=1.0, widen_base=10, widen_rate=2.0),
                    seed=seed)
    seconds = budget.seconds
    playouts = budget.playouts
    outcome = search.run(state, playouts=playouts, seconds=seconds, stop=stop)
    return outcome.root_value, outcome.playouts


def fair_komi(position: RumboPosition, budget: Budget, seed: int,
              stop: threading.Event | None) -> tuple[int, float, int]:
    """The komi nearest to an even game by the engine's own estimate.

    Random games from the position with the playout policy of the search (at
    most 400, or what the budget allows) give the distribution of Vertical's
    margin of claimed stones; for each komi of the parity the rules advise (N's
    other parity) it gives Vertical's expected score, and the komi whose score
    is nearest a half is named. Returns (komi, that score, games played).
    """
    m = masks(position.size, position.edgeholes, position.nostraight)
    rng = random.Random(seed)
    total = budget.playouts if budget.playouts is not None else 400
    deadline = None if budget.seconds is None else time.monotonic() + budget.seconds
    margins: list[int] = []
    state = board_of(position.stones, position.claims)
    domain = RumboDomain(m, 0)
    policy = Playout(domain)
    played = 0
    while played < max(1, total):
        if stop is not None and stop.is_set():
            break
        if deadline is not None and time.monotonic() >= deadline and played >= 8:
            break
        margins.append(_margin(state, policy, rng))
        played += 1
    best_komi = 0
    best_value = 1.0
    limit = position.size * position.size
    for komi in range(-limit, limit + 1):
        if (komi - position.size) % 2 == 0:
            continue
        value = sum(1.0 if d > komi else 0.5 if d == komi else 0.0
                    for d in margins) / len(margins)
        if abs(value - 0.5) < abs(best_value - 0.5):
            best_komi, best_value = komi, value
    return best_komi, best_value, played


def _margin(board: Board, policy: Playout, rng: random.Random) -> int:
    """Vertical's claimed stones minus Horizontal's after a playout (komi aside)."""
    board = play_out(board, policy.domain.m, rng)
    return board[2].bit_count() - board[3].bit_count()


BOT = RumboBot()
