"""Dropper's knowledge for the engine: a fast search state, playouts, an evaluation.

The search state is ``(white, black, player)``: each colour's stones as a bit
mask on the board's :class:`~companion.games.dropper.geometry.Grid` (one bit per
character of the board text) and the player to move (0 White, 1 Black: the
order of ``RULES.players``). A turn is ``(x, y, f)``: the single-bit masks of
the point dropped on, the push point and the free stone (0 for a part the turn
lacks). Drawing a random turn never lists the turns: a droppable stone, then
one of its empty neighbours, then a free point left after the push, each
picked from a mask.

The evaluation counts what decides the game (the sorted group sizes, largest
first) and what grows them: stones next to the own largest groups.
"""

from __future__ import annotations

import logging
import random
import threading
from dataclasses import dataclass
from functools import cache

from companion.engine.bots import Setup, Style
from companion.engine.contract import Analysis, Budget, ProgressCallback
from companion.engine.levels import Level
from companion.engine.mcts import Children, Settings
from companion.games.dropper.engine import turn_text
from companion.games.dropper.geometry import Grid
from companion.games.dropper.position import DropperPosition

LOGGER = logging.getLogger(__name__)

State = tuple[int, int, int]
"""``(white, black, player to move)``."""
Turn = tuple[int, int, int]
"""``(x, y, f)`` single-bit masks, 0 where the turn has no such part."""


@dataclass(frozen=True, eq=False)
class Tables:
    """Per-bit neighbour masks of one grid (bit ``b`` is board index ``length - 1 - b``)."""

    grid: Grid
    near: tuple[int, ...]
    """bit -> mask of its up to eight neighbours."""
    around: tuple[int, ...]
    """bit -> mask of it and its neighbours."""
    valid: int
    stride: int


@cache
def tables(grid: Grid) -> Tables:
    last = grid.length - 1
    near = [0] * grid.length
    around = [0] * grid.length
    for k in range(grid.length):
        if grid.names[k]:
            near[last - k] = grid.neighbours[k]
            around[last - k] = grid.around[k]
    return Tables(grid, tuple(near), tuple(around), grid.valid, grid.stride)


def bits_of(mask: int) -> list[int]:
    """The single-bit masks of ``mask``."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def random_bit(mask: int, rng: random.Random) -> int:
    """One set bit of ``mask`` (not 0), uniformly."""
    k = rng.randrange(mask.bit_count())
    while k:
        mask &= mask - 1
        k -= 1
    return mask & -mask


def group_sizes(stones: int, t: Tables) -> list[int]:
    """Orthogonal group sizes of ``stones``, largest first."""
    s = t.stride
    valid = t.valid
    sizes = []
    while stones:
        group = stones & -stones
        while True:
            grown = (group | group << 1 | group >> 1 | group << s | group >> s) & stones
            if grown == group:
                break
            group = grown
        stones ^= group
        sizes.append(group.bit_count())
    del valid
    sizes.sort(reverse=True)
    return sizes


def final_score(white: int, black: int, t: Tables) -> float:
    """White's score of a finished game (1, 0.5, 0): sorted group lists compared."""
    a = group_sizes(white, t)
    b = group_sizes(black, t)
    if a == b:
        return 0.5
    return 1.0 if a > b else 0.0


class DropperDomain:
    """Dropper's rules on ``(white, black, player)`` states."""

    def __init__(self, t: Tables) -> None:
        self.t = t

    def mover(self, state: State) -> int:
        return state[2]

    def masks(self, state: State) -> tuple[int, int, int, int, int]:
        """(mine, theirs, empty, free, droppable) from the mover's side."""
        white, black, player = state
        t = self.t
        mine, theirs = (white, black) if player == 0 else (black, white)
        taken = white | black
        s = t.stride
        valid = t.valid
        empty = valid & ~taken
        d = taken | taken << 1 | taken >> 1
        free = empty & ~(d | d << s | d >> s)
        e = empty | empty << 1 | empty >> 1
        droppable = theirs & (e | e << s | e >> s)
        return mine, theirs, empty, free, droppable

    def result(self, state: State) -> float | None:
        _, _, _, free, droppable = self.masks(state)
        if free or droppable:
            return None
        return final_score(state[0], state[1], self.t)

    def turns(self, state: State) -> list[Turn]:
        """Every legal turn."""
        _, _, empty, free, droppable = self.masks(state)
        near, around = self.t.near, self.t.around
        out: list[Turn] = []
        if not droppable:
            return [(0, 0, f) for f in bits_of(free)]
        for x in bits_of(droppable):
            xi = x.bit_length() - 1
            for y in bits_of(near[xi] & empty):
                left = free & ~around[y.bit_length() - 1]
                if not left:
                    out.append((x, y, 0))
                else:
                    out.extend((x, y, f) for f in bits_of(left))
        return out

    def children(self, state: State, rng: random.Random) -> Children[Turn]:
        turns = self.turns(state)
        return Children(turns, self.priors(state, turns))

    def priors(self, state: State, turns: list[Turn]) -> list[float]:
        """Prior weights: drops that join the mover's stones and split the opponent's."""
        white, black, player = state
        mine, theirs = (white, black) if player == 0 else (black, white)
        t = self.t
        s = t.stride
        out = []
        for x, y, _f in turns:
            if not x:
                out.append(1.0)
                continue
            orth_x = (x << 1 | x >> 1 | x << s | x >> s)
            orth_y = (y << 1 | y >> 1 | y << s | y >> s)
            joins = (orth_x & mine).bit_count()
            splits = (orth_x & theirs).bit_count()
            theirs_join = (orth_y & theirs & ~x).bit_count()
            out.append(1.0 + joins + 0.5 * splits - 0.5 * theirs_join)
        return [max(0.1, p) for p in out]

    def play(self, state: State, turn: Turn) -> State:
        white, black, player = state
        x, y, f = turn
        if player == 0:
            return (white | x | f, (black & ~x) | y, 1)
        return ((white & ~x) | y, black | x | f, 0)


class Playout:
    """A random game to the end from a state (uniform drop, push and free stone)."""

    def __init__(self, domain: DropperDomain) -> None:
        self.domain = domain

    def evaluate(self, state: State, rng: random.Random) -> float:
        t = self.domain.t
        near, around = t.near, t.around
        s = t.stride
        valid = t.valid
        white, black, player = state
        randrange = rng.randrange
        while True:
            mine, theirs = (white, black) if player == 0 else (black, white)
            taken = white | black
            empty = valid & ~taken
            d = taken | taken << 1 | taken >> 1
            free = empty & ~(d | d << s | d >> s)
            e = empty | empty << 1 | empty >> 1
            droppable = theirs & (e | e << s | e >> s)
            if droppable:
                x = _pick(droppable, randrange)
                y = _pick(near[x.bit_length() - 1] & empty, randrange)
                left = free & ~around[y.bit_length() - 1]
                f = _pick(left, randrange) if left else 0
                mine |= x | f
                theirs = (theirs & ~x) | y
            elif free:
                mine |= _pick(free, randrange)
            else:
                break
            if player == 0:
                white, black, player = mine, theirs, 1
            else:
                white, black, player = theirs, mine, 0
        return final_score(white, black, t)


def _pick(mask: int, randrange: object) -> int:
    k = randrange(mask.bit_count())  # type: ignore[operator]
    while k:
        mask &= mask - 1
        k -= 1
    return mask & -mask


def state_of(pos: DropperPosition) -> State:
    return (pos.white, pos.black, 0 if pos.side == "w" else 1)


def text_of(state: State, t: Tables) -> str:
    """The canonical position text of a state."""
    white, black, player = state
    g = t.grid
    length = g.length
    chars = []
    for k in range(length):
        if not g.names[k]:
            chars.append("/")
            continue
        bit = 1 << (length - 1 - k)
        chars.append("w" if white & bit else "b" if black & bit else ".")
    return f"dropper {''.join(chars)} {'wb'[player]}"


class DropperBot:
    """Dropper for the engine."""

    def setup(self, position: DropperPosition, style: Style) -> Setup:
        t = tables(position.grid)
        domain = DropperDomain(t)
        last = t.grid.length - 1

        def index(bit: int) -> int:
            return last - (bit.bit_length() - 1) if bit else -1

        def turn(state: State, action: Turn) -> str:
            x, y, f = action
            return turn_text(position, index(x), index(y), index(f))

        mover = "white" if position.side == "w" else "black"
        return Setup(state=state_of(position), domain=domain, evaluator=Playout(domain),
                     settings=Settings(c_puct=1.0, widen_base=8, widen_rate=2.0,
                                       widen_power=0.5),
                     turn_text=turn, position_text=lambda state: text_of(state, t),
                     mover=mover, opponent="black" if mover == "white" else "white")

    def decide(self, position: DropperPosition, *, level: Level, budget: Budget, seed: int,
               stop: threading.Event | None,
               progress: ProgressCallback | None) -> Analysis | None:
        return None

    def accepts_draw(self, position: DropperPosition, *, level: Level, seed: int) -> bool:
        return False


BOT = DropperBot()
