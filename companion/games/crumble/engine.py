"""The Crumble turn engine: actions (splits and joins), swap steps with captures and the win
check, the swap search that lists every end state of a turn, and the successor search over
every turn of a position.

Pieces never move during a swap and captures only recolour, so after the action the board's
geometry is fixed: a :class:`Work` holds it (contacts patched locally from the position's own
contacts, not rebuilt) and swap states are just (colouring, swapping piece). The checks after
a step look only where something can have changed (rules file, section 11): clusters touching
the two recoloured pieces, then the flipped pieces; chains through a recoloured piece.
"""

from __future__ import annotations

import bisect
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from companion.games.crumble.contacts import NO_PIECE
from companion.games.crumble.geometry import (
    ALL_SIDES,
    DIRECTIONS,
    ExactRect,
    Rect,
    rect_text,
    slab_form_scaled,
    to_exact,
    to_scaled,
)
from companion.games.crumble.names import designate
from companion.games.crumble.position import COLOUR_LETTER, NAME, CrumblePosition, State
from companion.limits import is_digits

LOGGER = logging.getLogger(__name__)


@lru_cache(maxsize=65536)
def piece_name(rect: Rect, scale: int) -> str:
    """The canonical designator of a piece given in scaled units."""
    return designate(to_exact(rect, scale))


@dataclass(frozen=True)
class Action:
    """A split or a join: which pieces go, which come, and its canonical text."""

    kind: str
    """``"split"`` or ``"join"``."""
    horizontal: bool
    """For a split: True for a horizontal cut (``-``), False for a vertical one (``|``)."""
    removed: tuple[int, ...]
    """Indices (in the position's piece order) of the pieces replaced; splits: in cut order."""
    added: tuple[Rect, ...]
    """The new pieces (a split: both halves of each cut piece, in cut order; a join: one)."""
    text: str
    """The canonical action text: ``b5-``, ``a1:a2-c1:c2``, ``+a5:b6``."""


def split_text(state: State, cut: list[int], horizontal: bool) -> str:
    mark = "-" if horizontal else "|"
    first = piece_name(state.rects[cut[0]], state.scale)
    if len(cut) == 1:
        return first + mark
    return first + mark + piece_name(state.rects[cut[-1]], state.scale)


def halves(rect: Rect, horizontal: bool) -> tuple[Rect, Rect]:
    x, y, w, h = rect
    if horizontal:
        return (x, y, w, h // 2), (x, y + h // 2, w, h // 2)
    return (x, y, w // 2, h), (x + w // 2, y, w // 2, h)


def split_action(state: State, cut: list[int], horizontal: bool) -> Action:
    added: list[Rect] = []
    for i in cut:
        added.extend(halves(state.rects[i], horizontal))
    return Action("split", horizontal, tuple(cut), tuple(added),
                  split_text(state, cut, horizontal))


def cuttable(state: State, i: int, horizontal: bool) -> bool:
    """The mover may cut piece ``i`` along its own midline in that direction."""
    w, h = state.rects[i][2:]
    if state.colours[i] != state.side:
        return False
    return h >= w if horizontal else w >= h


def crossing(state: State, line: int, horizontal: bool) -> list[int]:
    """The pieces whose interior the line meets, in order along it."""
    rects = state.rects
    if horizontal:
        hits = [i for i, (x, y, w, h) in enumerate(rects) if y < line < y + h]
        hits.sort(key=lambda i: rects[i][0])
    else:
        hits = [i for i, (x, y, w, h) in enumerate(rects) if x < line < x + w]
        hits.sort(key=lambda i: rects[i][1])
    return hits


def midline(rect: Rect, horizontal: bool) -> int:
    x, y, w, h = rect
    return y + h // 2 if horizontal else x + w // 2


def crossings(state: State, lines: list[int], horizontal: bool) -> dict[int, list[int]]:
    """For each line (sorted), the pieces whose interior it meets, in order along it.

    One sweep across the lines keeps the pieces the current line crosses, so the work is the
    size of the answer, not lines x pieces."""
    rects = state.rects
    lo, along = (1, 0) if horizontal else (0, 1)
    starts = sorted(range(len(rects)), key=lambda i: rects[i][lo])
    active: list[int] = []
    k = 0
    out: dict[int, list[int]] = {}
    for line in lines:
        while k < len(starts) and rects[starts[k]][lo] < line:
            active.append(starts[k])
            k += 1
        active = [i for i in active if rects[i][lo] + rects[i][lo + 2] > line]
        out[line] = sorted(active, key=lambda i: rects[i][along])
    return out


def split_actions(state: State) -> list[Action]:
    """Every legal split: each run of consecutive cuttable pieces on each cut line."""
    out: list[Action] = []
    rects = state.rects
    for horizontal in (True, False):
        ok = {i for i in range(len(rects)) if cuttable(state, i, horizontal)}
        lines = sorted({midline(rects[i], horizontal) for i in ok})
        for line, along in crossings(state, lines, horizontal).items():
            run: list[int] = []
            for i in [*along, -1]:
                if i in ok and midline(rects[i], horizontal) == line:
                    run.append(i)
                    continue
                for a in range(len(run)):
                    for b in range(a, len(run)):
                        out.append(split_action(state, run[a:b + 1], horizontal))
                run = []
    return out


def join_pieces(state: State, side: list[list[int]], target: Rect, seed: int) -> list[int] | None:
    """The mover's pieces exactly filling ``target`` (reached from piece ``seed`` inside it),
    or None when an opponent piece lies inside or a piece sticks out."""
    tx, ty, tw, th = target
    tx1, ty1 = tx + tw, ty + th
    found = [seed]
    seen = {seed}
    k = 0
    rects, colours, me = state.rects, state.colours, state.side
    while k < len(found):
        for j in side[found[k]]:
            if j in seen:
                continue
            x, y, w, h = rects[j]
            if x < tx1 and x + w > tx and y < ty1 and y + h > ty:
                if colours[j] != me or x < tx or y < ty or x + w > tx1 or y + h > ty1:
                    return None
                seen.add(j)
                found.append(j)
        k += 1
    return found


def join_actions(state: State, side: list[list[int]]) -> list[Action]:
    """Every legal join: a square or half-square exactly covered by two or more own pieces.

    The joined piece's bottom-left corner is an own piece's, its top-right corner another's;
    the corners of a square lie on one diagonal (x - y constant), those of a wide half-square
    on x - 2y constant, of a tall one on 2x - y constant, so the candidates are looked up."""
    rects, colours, me = state.rects, state.colours, state.side
    mine = [i for i in range(len(rects)) if colours[i] == me]
    keys: tuple[dict[int, list[tuple[int, int]]], ...] = ({}, {}, {})
    for j in mine:
        x1, y1 = rects[j][0] + rects[j][2], rects[j][1] + rects[j][3]
        keys[0].setdefault(x1 - y1, []).append((x1, y1))
        keys[1].setdefault(x1 - 2 * y1, []).append((x1, y1))
        keys[2].setdefault(2 * x1 - y1, []).append((x1, y1))
    out: list[Action] = []
    seen: set[Rect] = set()
    for i in mine:
        x, y, w, h = rects[i]
        for table, key in ((keys[0], x - y), (keys[1], x - 2 * y), (keys[2], 2 * x - y)):
            for x1, y1 in table.get(key, ()):
                tw, th = x1 - x, y1 - y
                if tw < w or th < h or (tw, th) == (w, h):
                    continue
                target = (x, y, tw, th)
                if target in seen:
                    continue
                seen.add(target)
                inside = join_pieces(state, side, target, i)
                if inside is None or len(inside) < 2:
                    continue
                if sum(rects[j][2] * rects[j][3] for j in inside) != tw * th:
                    continue
                out.append(Action("join", False, tuple(sorted(inside)), (target,),
                                  "+" + piece_name(target, state.scale)))
    return out


class Work:
    """The board after an action: geometry fixed, contacts patched, base colouring."""

    __slots__ = ("action", "chain", "chain_mask", "cluster", "colours", "dist", "edges", "mover",
                 "new", "order", "point", "rects", "scale", "side", "swap")

    def __init__(self, pos: CrumblePosition, action: Action) -> None:
        state, board = pos.state, pos.board
        n = len(state.rects)
        removed = set(action.removed)
        rects = list(state.rects)
        for i in removed:
            rects[i] = (0, 0, 0, 0)
        side = board.side[:]
        point = board.point[:]
        swap = board.swap[:]
        edges = board.edges[:]
        width, height = state.scaled_width, state.scaled_height
        near: set[int] = set()
        for r in removed:
            near.update(point[r])
        near -= removed
        added = action.added
        new = list(range(n, n + len(added)))
        rects.extend(added)
        for x, y, w, h in added:
            edges.append((y + h == height) | (x + w == width) << 1 | (y == 0) << 2
                         | (x == 0) << 3)
        # Contacts of each new piece with the pieces around the removed ones and each other.
        links: dict[int, tuple[list[int], list[int], list[int]]] = {
            q: ([], [], [NO_PIECE] * 4) for q in (*near, *new)}
        for a in new:
            ax, ay, aw, ah = rects[a]
            ax1, ay1 = ax + aw, ay + ah
            a_side, a_point, a_swap = links[a]
            for q in (*near, *new):
                if q <= a and q >= n:
                    continue
                qx, qy, qw, qh = rects[q]
                qx1, qy1 = qx + qw, qy + qh
                if qx > ax1 or ax > qx1 or qy > ay1 or ay > qy1:
                    continue
                q_side, q_point, q_swap = links[q]
                a_point.append(q)
                q_point.append(a)
                if ax1 == qx or qx1 == ax:
                    touching = min(ay1, qy1) > max(ay, qy)
                    if touching and ay == qy and ah == qh:
                        d = 1 if ax1 == qx else 3
                        a_swap[d] = q
                        q_swap[d ^ 2] = a
                elif ay1 == qy or qy1 == ay:
                    touching = min(ax1, qx1) > max(ax, qx)
                    if touching and ax == qx and aw == qw:
                        d = 0 if ay1 == qy else 2
                        a_swap[d] = q
                        q_swap[d ^ 2] = a
                else:
                    touching = False
                if touching:
                    a_side.append(q)
                    q_side.append(a)
        for a in new:
            a_side, a_point, a_swap = links[a]
            side.append(a_side)
            point.append(a_point)
            swap.append(a_swap)
        for q in near:
            q_side, q_point, q_swap = links[q]
            side[q] = [j for j in side[q] if j not in removed] + q_side
            point[q] = [j for j in point[q] if j not in removed] + q_point
            swap[q] = [q_swap[d] if q_swap[d] >= 0 else
                       (NO_PIECE if j in removed else j) for d, j in enumerate(swap[q])]
        colours = bytearray(state.colours)
        colours.extend(bytes([state.side]) * len(added))
        self.action = action
        self.rects = rects
        self.side, self.point, self.swap, self.edges = side, point, swap, edges
        self.colours = bytes(colours)
        self.mover = state.side
        self.new = new
        self.scale = state.scale
        # The position's pieces are sorted by (y, x): drop the removed, insert the new.
        order = list(range(n))
        for i in sorted(removed, reverse=True):
            del order[i]

        def corner(i: int) -> tuple[int, int]:
            return rects[i][1], rects[i][0]

        for a in new:
            order.insert(bisect.bisect_left(order, corner(a), key=corner), a)
        self.order = order
        # The action keeps every chain of the base colouring (the halves of a split piece are
        # one chain with its contacts; the parts of a joined piece were one chain), so the
        # position's chains carry over: new pieces join the chain of the pieces they replace.
        chain, masks = pos.chains
        chain = chain[:]
        if action.kind == "join":
            chain.append(chain[action.removed[0]])
        else:
            for r in action.removed:
                chain.extend((chain[r], chain[r]))
        self.chain, self.chain_mask = chain, masks
        cluster = pos.clusters[:]  # clusters carry over the same way
        if action.kind == "join":
            cluster.append(cluster[action.removed[0]])
        else:
            for r in action.removed:
                cluster.extend((cluster[r], cluster[r]))
        self.cluster = cluster
        dist = pos.edge_distance[:]
        if action.kind == "join":
            dist.append(0 if edges[n] else min(dist[r] for r in action.removed))
        else:
            for k, r in enumerate(action.removed):
                for a in (n + 2 * k, n + 2 * k + 1):
                    dist.append(0 if edges[a] else dist[r] + 1)
        self.dist = dist

    def step(self, colours: bytearray, cur: int, dst: int) -> tuple[list[int], int | None]:
        """Swap ``cur`` (the mover's) with ``dst`` (the opponent's) in ``colours``, in place;
        then captures to a fixpoint and the win check. Returns (pieces flipped by captures,
        the winning colour or None)."""
        mover = self.mover
        colours[cur] = 1 - mover
        colours[dst] = mover
        point = self.point
        flipped: list[int] = []
        changed = self._changed(colours)
        candidates = {cur, dst, *point[cur], *point[dst]}
        while True:
            captured = self._enclosed(colours, candidates, changed)
            if not captured:
                break
            for i in captured:
                colours[i] ^= 1
            flipped.extend(captured)
            changed = self._changed(colours)
            candidates = set(captured)
            for i in captured:
                candidates.update(point[i])
        return flipped, self._winner(colours, [cur, dst, *flipped], changed)

    def _changed(self, colours: bytearray) -> set[int]:
        """The pieces whose colour differs from the base colouring."""
        diff = int.from_bytes(self.colours, "little") ^ int.from_bytes(colours, "little")
        changed: set[int] = set()
        while diff:  # one set bit per recoloured piece (colours are bytes 0 and 1)
            low = diff & -diff
            changed.add((low.bit_length() - 1) >> 3)
            diff ^= low
        return changed

    def _enclosed(self, colours: bytearray, candidates: set[int],
                  changed: set[int]) -> list[int]:
        """The pieces of every enclosed cluster through a candidate (none touches a side).

        A candidate whose base cluster (which touches a side, as every cluster of a position
        does) has no recoloured piece still has that whole cluster: it is safe at once."""
        point, edges, cluster = self.point, self.edges, self.cluster
        broken = {cluster[x] for x in changed}
        checked: set[int] = set()
        out: list[int] = []
        for c in candidates:
            if c in checked:
                continue
            if edges[c] or (c not in changed and cluster[c] not in broken):
                checked.add(c)
                continue
            colour = colours[c]
            if self._descends(colours, c, colour, changed):
                checked.add(c)
                continue
            visited = {c}
            queue = [c]
            safe = False
            k = 0
            while k < len(queue) and not safe:
                i = queue[k]
                k += 1
                for j in point[i]:
                    if j not in visited and colours[j] == colour:
                        if edges[j] or (j not in changed and cluster[j] not in broken):
                            safe = True
                            break
                        visited.add(j)
                        queue.append(j)
            checked |= visited
            if not safe:
                out.extend(visited)
        return out

    def _descends(self, colours: bytearray, c: int, colour: int, changed: set[int]) -> bool:
        """A path of unchanged pieces of ``colour`` with falling edge distance leads from
        ``c`` to a piece touching a side (a quick proof that ``c``'s cluster is safe)."""
        point, edges, dist = self.point, self.edges, self.dist
        i = c
        while not edges[i]:
            here = dist[i]
            for j in point[i]:
                if dist[j] < here and j not in changed and colours[j] == colour:
                    i = j
                    break
            else:
                return False
        return True

    def _winner(self, colours: bytearray, starts: list[int], changed: set[int]) -> int | None:
        """The colour of a four-sided chain through one of ``starts``, if any.

        A chain now is made of pieces of the base colouring's chains of its colour and of
        recoloured pieces; the sides those touch bound the sides it can touch, and only a
        bound of all four sides needs the exact search."""
        side, edges = self.side, self.edges
        seen: set[int] = set()
        for s in starts:
            if s in seen or self._bound(colours, s, changed) != ALL_SIDES:
                continue
            colour = colours[s]
            seen.add(s)
            mask = edges[s]
            stack = [s]
            while stack:
                i = stack.pop()
                for j in side[i]:
                    if j not in seen and colours[j] == colour:
                        seen.add(j)
                        mask |= edges[j]
                        stack.append(j)
                if mask == ALL_SIDES:
                    return colour
        return None

    def _bound(self, colours: bytearray, s: int, changed: set[int]) -> int:
        """The sides that the chain through ``s`` can touch at most.

        Nodes are recoloured pieces now of ``s``'s colour and base chains of that colour;
        a recoloured piece links to its recoloured neighbours of the colour and to the chains
        of its unchanged neighbours of the colour."""
        colour = colours[s]
        base, side, edges = self.colours, self.side, self.edges
        chain, chain_mask = self.chain, self.chain_mask
        pieces = [x for x in changed if colours[x] == colour]
        mask = 0
        chains: set[int] = set()
        done: set[int] = set()
        stack: list[int] = []  # recoloured pieces to visit

        def add_chain(c: int) -> int:
            chains.add(c)
            for x in pieces:
                if x not in done and any(chain[q] == c and q not in changed for q in side[x]):
                    done.add(x)
                    stack.append(x)
            return chain_mask[c]

        if s in changed:
            done.add(s)
            stack.append(s)
        else:
            mask |= add_chain(chain[s])
        while stack and mask != ALL_SIDES:
            i = stack.pop()
            mask |= edges[i]
            for q in side[i]:
                if q in changed:
                    if colours[q] == colour and q not in done:
                        done.add(q)
                        stack.append(q)
                elif base[q] == colour and chain[q] not in chains:
                    mask |= add_chain(chain[q])
        return mask


def to_scaled_exact(rect: ExactRect, scale: int) -> Rect:
    out = to_scaled(rect, scale)
    assert out is not None
    return out


def inside_scaled(inner: list[Rect], outer: list[Rect]) -> bool:
    """Every rectangle of ``inner`` lies in the union of the disjoint rectangles ``outer``."""
    for x, y, w, h in inner:
        covered = 0
        for ox, oy, ow, oh in outer:
            dx = min(x + w, ox + ow) - max(x, ox)
            dy = min(y + h, oy + oh) - max(y, oy)
            if dx > 0 and dy > 0:
                covered += dx * dy
        if covered != w * h:
            return False
    return True


@dataclass(frozen=True)
class Reached:
    """One end state of a turn's swap: its colouring and how it was reached."""

    colours: bytes
    swapped: bool
    start: int
    dirs: str
    winner: int | None


def explore(work: Work, draw_matters: bool) -> Iterator[Reached]:
    """Every swap state reachable after the action, breadth first (shortest paths, N E S W).

    A state is (colouring, swapping piece), plus whether a step was taken when that decides
    the DRAW field. The start states themselves (no step) are not yielded.
    """
    mover = work.mover
    opp = 1 - mover
    base = work.colours
    swap = work.swap
    seen: set[tuple[bytes, int, bool]] = set()
    frontier: list[tuple[bytes, int, int, str]] = []
    for s in work.new:
        seen.add((base, s, False))
        frontier.append((base, s, s, ""))
    while frontier:
        nxt: list[tuple[bytes, int, int, str]] = []
        for colours, cur, start, dirs in frontier:
            for d in range(4):
                dst = swap[cur][d]
                if dst < 0 or colours[dst] != opp:
                    continue
                after = bytearray(colours)
                _, winner = work.step(after, cur, dst)
                result = bytes(after)
                key = (result, dst, draw_matters)
                if key in seen:
                    continue
                seen.add(key)
                path = dirs + DIRECTIONS[d]
                yield Reached(result, True, start, path, winner)
                if winner is None and after[dst] == mover:
                    nxt.append((result, dst, start, path))
        frontier = nxt


class Successors:
    """Writes the position texts of one position's turns (shared parts computed once)."""

    def __init__(self, pos: CrumblePosition) -> None:
        state = pos.state
        self.pos = pos
        self.state = state
        self.prefix = f"{NAME} {state.width}x{state.height} "
        self.other = COLOUR_LETTER[1 - state.side]
        self.history_tail = "|".join(state.history_texts()[:3])
        scale = state.scale
        self.texts = [(rect_text(r, scale) + ",b", rect_text(r, scale) + ",w")
                      for r in state.rects]
        self.draw_count = int(state.draw) if is_digits(state.draw) else 0
        # The mover's previous two worked regions, on a grid fine enough for them and the
        # pieces (the region of a draw turn must lie inside both).
        self.mine: list[list[Rect]] | None = None
        self.factor = 1
        prev, before = state.history[1], state.history[3]
        if prev is not None and before is not None:
            fine = max([scale] + [2 * v.denominator for r in (*prev, *before) for v in r])
            self.factor = fine // scale
            self.mine = [[to_scaled_exact(r, fine) for r in region] for region in (prev, before)]

    def worked(self, action: Action) -> tuple[str, bool]:
        """The new history field and whether a turn with this action and a swap is a draw turn."""
        state = self.state
        scale = state.scale
        if action.kind == "join":
            rects = [action.added[0]]
        else:
            rects = [state.rects[i] for i in action.removed]
        region = slab_form_scaled(rects)
        text = ";".join(rect_text(r, scale) for r in region)
        candidate = False
        if self.mine is not None:
            f = self.factor
            scaled = [(x * f, y * f, w * f, h * f) for x, y, w, h in region]
            candidate = all(inside_scaled(scaled, other) for other in self.mine)
        return text + "|" + self.history_tail, candidate

    def writer(self, work: Work) -> tuple[list[tuple[str, str]], list[int], str, bool]:
        texts = self.texts[:]
        for i in range(len(self.texts), len(work.rects)):
            t = rect_text(work.rects[i], work.scale)
            texts.append((t + ",b", t + ",w"))
        history, candidate = self.worked(work.action)
        return texts, work.order, history, candidate

    def text(self, texts: list[tuple[str, str]], order: list[int], colours: bytes,
             history: str, draw_turn: bool) -> str:
        board = ";".join([texts[i][colours[i]] for i in order])
        draw = str(self.draw_count + 1) if draw_turn else "0"
        return f"{self.prefix}{board} {self.other} {draw} {history}"


# ----------------------------------------------------------------------
# Every turn of a position


def actions(pos: CrumblePosition) -> list[Action]:
    """Every legal split and join of the player to move."""
    return split_actions(pos.state) + join_actions(pos.state, pos.board.side)


def finished(pos: CrumblePosition) -> bool:
    return bool(pos.winners) or pos.state.draw in ("3", "=")


def swap_prefix(work: Work, start: int) -> str:
    """The start of the swap part: ``b5t>`` after a split, ``>`` after a join."""
    if work.action.kind == "join":
        return ">"
    return piece_name(work.rects[start], work.scale) + ">"


def all_turns(pos: CrumblePosition) -> Iterator[str]:
    """One turn text per action and per swap end state (the shortest swap path to it)."""
    if finished(pos):
        return
    writer = Successors(pos)
    for action in actions(pos):
        work = Work(pos, action)
        _, candidate = writer.worked(action)
        yield action.text
        for reached in explore(work, candidate):
            yield f"{action.text} {swap_prefix(work, reached.start)}{reached.dirs}"


def successor_texts(pos: CrumblePosition, only: list[Action] | None = None) -> set[str]:
    """The texts of every position one complete turn reaches (of ``only`` these actions)."""
    if finished(pos):
        return set()
    writer = Successors(pos)
    out: set[str] = set()
    for action in actions(pos) if only is None else only:
        work = Work(pos, action)
        texts, order, history, candidate = writer.writer(work)
        out.add(writer.text(texts, order, work.colours, history, False))
        for reached in explore(work, candidate):
            out.add(writer.text(texts, order, reached.colours, history, candidate))
    return out


def turns_reaching(pos: CrumblePosition, target: CrumblePosition) -> list[str]:
    """The turns (as :func:`all_turns` lists them) from ``pos`` that reach ``target``.

    Only the actions whose pieces match the target's geometry are searched.
    """
    if finished(pos):
        return []
    a, b = pos.state, target.state
    if (a.width, a.height) != (b.width, b.height) or a.side == b.side:
        return []
    scale = max(a.scale, b.scale)
    mine = {(x * scale // a.scale, y * scale // a.scale, w * scale // a.scale,
             h * scale // a.scale) for x, y, w, h in a.rects}
    theirs = {(x * scale // b.scale, y * scale // b.scale, w * scale // b.scale,
               h * scale // b.scale) for x, y, w, h in b.rects}
    removed, added = mine - theirs, theirs - mine
    out: list[str] = []
    factor = scale // a.scale
    writer = Successors(pos)
    for action in actions(pos):
        gone = {tuple(v * factor for v in a.rects[i]) for i in action.removed}
        new = {tuple(v * factor for v in r) for r in action.added}
        if gone != removed or new != added:
            continue
        work = Work(pos, action)
        texts, order, history, candidate = writer.writer(work)
        if writer.text(texts, order, work.colours, history, False) == target.text():
            out.append(action.text)
        for reached in explore(work, candidate):
            if writer.text(texts, order, reached.colours, history, candidate) == target.text():
                out.append(f"{action.text} {swap_prefix(work, reached.start)}{reached.dirs}")
    return sorted(out)
