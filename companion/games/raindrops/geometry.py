"""Bit-board geometry of an N x N Raindrops board.

A set of points is an ``int`` whose bit ``row * N + col`` is set for each
point (``a1`` is bit 0, ``b1`` bit 1, ``a2`` bit N). Every table here is built
once per board size and shared; the helpers work on whole sets at once
(dilation, flood fill, the pieces a group can lift without splitting), which
is what keeps the turn search fast in pure Python.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache

LOGGER = logging.getLogger(__name__)

LETTERS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Geometry:
    """Tables for one board size."""

    n: int
    full: int
    """Every point."""
    not_first_col: int
    not_last_col: int
    rows: tuple[int, ...]
    """Mask of each row (index 0 is row 1)."""
    cols: tuple[int, ...]
    """Mask of each column (index 0 is column a)."""
    neighbours: tuple[int, ...]
    """Orthogonal neighbours of each point, as a mask."""
    directions: tuple[int, ...]
    """The four index steps along a line: +1, -1 (rows), +N, -N (columns)."""
    next_point: dict[int, tuple[int, ...]]
    """direction -> point -> the next point that way, or -1 off the board."""
    ahead: dict[int, tuple[int, ...]]
    """direction -> point -> mask of every point strictly beyond it that way."""
    names: tuple[str, ...]
    """Point index -> name (``"c10"``)."""

    def line(self, point: int, direction: int) -> int:
        """The mask of the line through ``point`` along ``direction``."""
        if direction in (1, -1):
            return self.rows[point // self.n]
        return self.cols[point % self.n]

    def lines_of(self, mask: int) -> int:
        """Every point on a row or column holding a point of ``mask``."""
        hit = 0
        for row in self.rows:
            if mask & row:
                hit |= row
        for col in self.cols:
            if mask & col:
                hit |= col
        return hit

    def dilate(self, mask: int) -> int:
        """``mask`` with every orthogonal neighbour of its points added."""
        n = self.n
        return (mask | ((mask >> 1) & self.not_last_col) | ((mask << 1) & self.not_first_col)
                | (mask >> n) | ((mask << n) & self.full))

    def flood(self, seed: int, within: int) -> int:
        """The points of ``within`` connected to ``seed`` (orthogonally)."""
        n, nlc, nfc = self.n, self.not_last_col, self.not_first_col
        cur = seed & within
        while True:
            grown = (cur | ((cur >> 1) & nlc) | ((cur << 1) & nfc) | (cur >> n)
                     | (cur << n)) & within
            if grown == cur:
                return cur
            cur = grown

    def components(self, mask: int) -> list[int]:
        """The connected parts of ``mask`` (units when ``mask`` is one colour)."""
        parts: list[int] = []
        while mask:
            part = self.flood(mask & -mask, mask)
            parts.append(part)
            mask &= ~part
        return parts

    def liftable(self, group: int) -> int:
        """The pieces of a connected ``group`` whose removal leaves it connected.

        A piece whose orthogonal neighbours in the group are connected through
        its eight surrounding points is never a cut point; that is decided for
        every piece at once with bit operations. Of the others, those on trees
        hanging off the group's cycles are cut points (found by peeling leaves);
        the few left are settled by growing fronts from their neighbours.
        """
        n, nlc, nfc, full = self.n, self.not_last_col, self.not_first_col, self.full
        up = group >> n
        down = (group << n) & full
        east = (group >> 1) & nlc
        west = (group << 1) & nfc
        ne = (group >> (n + 1)) & nlc
        nw = (group >> (n - 1)) & nfc
        se = (group << (n - 1)) & nlc & full
        sw = (group << (n + 1)) & nfc & full
        s_up = up & ~(west & nw)
        s_east = east & ~(up & ne)
        s_down = down & ~(east & se)
        s_west = west & ~(down & sw)
        two = (s_up & s_east) | (s_down & s_west) | ((s_up | s_east) & (s_down | s_west))
        simple = group & ~two
        doubtful = group & two
        if not doubtful:
            return simple
        edges = (group & east).bit_count() + (group & up).bit_count()
        if edges == group.bit_count() - 1:
            return simple
        # Peel leaves until none is left: what was peeled hangs in trees off
        # the rest (the core), so every peeled piece but an original leaf, and
        # every core piece a tree hangs from, is a cut point.
        core = group
        peeled = 0
        while True:
            u = core >> n
            d = (core << n) & full
            e = (core >> 1) & nlc
            w = (core << 1) & nfc
            leaves = core & (u | d | e | w) & ~((u & d) | (e & w) | ((u | d) & (e | w)))
            if not leaves:
                break
            peeled |= leaves
            core ^= leaves
        doubtful &= core & ~self.dilate(peeled)
        nbrs = self.neighbours
        while doubtful:
            low = doubtful & -doubtful
            doubtful ^= low
            if not self._cuts(core ^ low, nbrs[low.bit_length() - 1] & core):
                simple |= low
        return simple

    def _cuts(self, rest: int, around: int) -> bool:
        """Whether the neighbours ``around`` of a removed piece fall apart in ``rest``.

        Grows one front from each neighbour at once and merges fronts that
        meet: a front that stops growing alone proves a cut, fronts that all
        meet prove none. Either way it ends as soon as the smaller side is
        known, which keeps long tails cheap.
        """
        n, nlc, nfc = self.n, self.not_last_col, self.not_first_col
        first = around & -around
        second = around ^ first
        if second & (second - 1) == 0:
            # Two neighbours (the usual case): grow both fronts in turn.
            a, b = first, second
            while True:
                a2 = (a | ((a >> 1) & nlc) | ((a << 1) & nfc) | (a >> n) | (a << n)) & rest
                if a2 & b:
                    return False
                if a2 == a:
                    return True
                b2 = (b | ((b >> 1) & nlc) | ((b << 1) & nfc) | (b >> n) | (b << n)) & rest
                if b2 & a2:
                    return False
                if b2 == b:
                    return True
                a, b = a2, b2
        everyone = around
        fronts: list[int] = []
        while around:
            low = around & -around
            fronts.append(low)
            around ^= low
        while True:
            grown: list[int] = []
            for cur in fronts:
                nxt = (cur | ((cur >> 1) & nlc) | ((cur << 1) & nfc) | (cur >> n)
                       | (cur << n)) & rest
                if nxt == cur:
                    return nxt & everyone != everyone
                kept = [nxt]
                for other in grown:
                    if other & kept[0]:
                        kept[0] |= other
                    else:
                        kept.append(other)
                grown = kept
            if len(grown) == 1:
                return False
            fronts = grown


def bits(mask: int) -> list[int]:
    """The point indexes of ``mask``, ascending."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@lru_cache(maxsize=32)
def geometry(n: int) -> Geometry:
    """The tables for an ``n`` x ``n`` board (2 <= n <= 26)."""
    if not 2 <= n <= 26:
        raise ValueError(f"board size {n} is outside 2..26")
    count = n * n
    full = (1 << count) - 1
    rows = tuple(((1 << n) - 1) << (r * n) for r in range(n))
    cols = tuple(sum(1 << (r * n + c) for r in range(n)) for c in range(n))
    not_first_col = full & ~cols[0]
    not_last_col = full & ~cols[n - 1]
    neighbours: list[int] = []
    for p in range(count):
        r, c = divmod(p, n)
        m = 0
        for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= rr < n and 0 <= cc < n:
                m |= 1 << (rr * n + cc)
        neighbours.append(m)
    directions = (1, -1, n, -n)
    next_point: dict[int, tuple[int, ...]] = {}
    ahead: dict[int, tuple[int, ...]] = {}
    for d in directions:
        nxt: list[int] = []
        for p in range(count):
            r, c = divmod(p, n)
            if d in (1, -1):
                nxt.append(p + d if 0 <= c + d < n else -1)
            else:
                step = 1 if d > 0 else -1
                nxt.append(p + d if 0 <= r + step < n else -1)
        next_point[d] = tuple(nxt)
        far: list[int] = []
        for p in range(count):
            m = 0
            q = nxt[p]
            while q >= 0:
                m |= 1 << q
                q = nxt[q]
            far.append(m)
        ahead[d] = tuple(far)
    names = tuple(f"{LETTERS[p % n]}{p // n + 1}" for p in range(count))
    return Geometry(n, full, not_first_col, not_last_col, rows, cols, tuple(neighbours),
                    directions, next_point, ahead, names)
