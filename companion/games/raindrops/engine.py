"""The turn search: every chain of placements of a group.

A *state* is the board part that changes during a turn plus where the chain
stands: ``(own, group, last, dirs, reduced)``:

- ``own``: the mover's pieces (a bit mask); the enemy only changes by the
  capture that ends a turn, so ``own`` alone determines the position;
- ``group``: the moving group now (pieces joined mid-turn included);
- ``last``: the last placement point (``-1`` before the first);
- ``dirs``: the index steps the chain may go on in (after the first
  placement up to four: the group's lines through it, either way; after the
  second, the one direction); empty when the turn has ended;
- ``reduced``: a join or capture happened (L1 is met).

:func:`expand` lists a state's next placements in turn-text order
(lifted point, then placement point), each with the state after it and
whether the turn may stop there. On top of it: every successor
(:func:`finals`, with a limit), the canonical turn of each successor, lazily in
turn-text order (:func:`least_turns`), the direct search for one target position
(:func:`find_turn`), and whether a state can still end legally (:func:`viable`),
which the step builder uses.
"""

from __future__ import annotations

import heapq
import logging
import sys
from collections.abc import Iterator

from companion.games.base import TooManyTurns
from companion.games.raindrops.geometry import Geometry, bits
from companion.games.raindrops.position import OTHER, RaindropsPosition
from companion.games.raindrops.units import Context, Plan, slides

LOGGER = logging.getLogger(__name__)

State = tuple[int, int, int, tuple[int, ...], bool]
"""``(own, group, last, dirs, reduced)``."""

Child = tuple[int, int, int, int, tuple[int, ...], bool, bool, bool]
"""``(lifted, placed, own, group, dirs, reduced, legal, ended)``."""

Path = tuple[tuple[int, int], ...]
"""The steps of a turn as ``(from, to)`` point indexes."""


def root(ctx: Context, plan: Plan) -> State:
    """The state before a group's first placement."""
    return (ctx.own, plan.mask, -1, (), False)


def _useful(plan: Plan, g: Geometry, own: int, group: int, at: int, dirs: tuple[int, ...],
            reduced: bool) -> tuple[int, ...]:
    """The directions worth going on in (a legal end may still be reached that way)."""
    if reduced if plan.engaged else group & plan.goal:
        return dirs
    goal = plan.goal
    return tuple(d for d in dirs if goal & g.ahead[d][at]
                 and (_clear(g, goal, own, at, d) or passable(g, goal, own, group, at, d)))


def _clear(g: Geometry, goal: int, own: int, at: int, d: int) -> bool:
    """Whether a point of ``goal`` comes before any own piece going from ``at`` along ``d``."""
    nxt = g.next_point[d]
    x = nxt[at]
    while x >= 0 and not own >> x & 1:
        if goal >> x & 1:
            return True
        x = nxt[x]
    return False


def passable(g: Geometry, goal: int, own: int, group: int, at: int, d: int) -> bool:
    """Whether the chain at ``at`` going along ``d`` may still reach a point of ``goal``.

    True at once when a goal point comes before any own piece (section 8: the
    chain can always walk on over empty points). When a piece x of the group
    blocks the way first, x must be lifted before the chain gets there, and
    before that every piece of the group outside one part of (the group and
    the points up to x, less x): the placements before x must be enough.
    That is necessary, not sufficient; the search decides the rest.
    """
    nxt = g.next_point[d]
    x = nxt[at]
    between = 0
    count = 0
    while x >= 0 and not own >> x & 1:
        if goal >> x & 1:
            return True
        between |= 1 << x
        count += 1
        x = nxt[x]
    if x < 0 or count == 0 or not group >> x & 1 or not goal & g.ahead[d][x]:
        return False
    rest = group & ~(1 << x)
    total = rest.bit_count()
    for part in g.components(rest | between):
        if total - (part & rest).bit_count() <= count - 1:
            return True
    return False


def expand(ctx: Context, plan: Plan, state: State, prune: bool = True) -> list[Child]:
    """Every next placement from ``state``, sorted by (lifted, placed).

    ``prune`` drops continuation directions that can no longer end legally.
    """
    own, group, last, dirs, reduced = state
    g = ctx.g
    lift = bits(g.liftable(group))
    out: list[Child] = []
    if last < 0:
        n = g.n
        for at in bits(plan.firsts if prune else _rule_firsts(ctx, plan)):
            atb = 1 << at
            row_ok = plan.row_ok if prune else plan.rule_rows
            col_ok = plan.col_ok if prune else plan.rule_cols
            base: tuple[int, ...] = ()
            if row_ok & atb:
                base += (1, -1)
            if col_ok & atb:
                base += (n, -n)
            out.extend(placements(ctx, plan, own, group, -1, at, base, True, reduced, lift,
                                   prune))
        out.sort()
        return out
    for d in dirs:
        at = g.next_point[d][last]
        if at < 0 or own >> at & 1:
            continue
        out.extend(placements(ctx, plan, own, group, last, at, (d,), False, reduced, lift,
                               prune))
    if len(dirs) > 1:
        out.sort()
    return out


def _rule_firsts(ctx: Context, plan: Plan) -> int:
    return (plan.rule_rows | plan.rule_cols) & ~ctx.own & ctx.g.dilate(plan.mask)


def placements(ctx: Context, plan: Plan, own: int, group: int, last: int, at: int,
                dirs: tuple[int, ...], first: bool, reduced: bool, lift: list[int],
                prune: bool) -> list[Child]:
    g = ctx.g
    nbrs = g.neighbours
    atb = 1 << at
    capture = bool(ctx.enemy & atb)
    adjacent = nbrs[at] & own & ~group
    absorbed = 0
    while adjacent:
        low = adjacent & -adjacent
        unit = ctx.unit_at[low.bit_length() - 1]
        absorbed |= unit
        adjacent &= ~unit
    if capture:
        go: tuple[int, ...] = ()
    elif absorbed:
        go = tuple(d for d in dirs if not absorbed & g.line(at, d))
    else:
        go = dirs
    ended = capture or not go
    reduced2 = reduced or capture or bool(absorbed)
    engaged = plan.engaged
    goal = plan.goal
    near = nbrs[at]
    lastb = 1 << last if last >= 0 else 0
    out: list[Child] = []
    for q in lift:
        qb = 1 << q
        if first:
            if not near & (group ^ qb):
                continue
        elif qb == lastb and not near & (group ^ qb):
            continue
        own2 = (own ^ qb) | atb
        group2 = (group ^ qb) | atb | absorbed
        legal = reduced2 if engaged else bool(group2 & goal)
        go2 = _useful(plan, g, own2, group2, at, go, reduced2) if (prune and go) else go
        out.append((q, at, own2, group2, go2, reduced2, legal, ended))
    return out


def finals(ctx: Context, plan: Plan, limit: int = sys.maxsize) -> set[int]:
    """The mover's pieces after every legal turn of this group (as ``own`` masks);
    :class:`TooManyTurns` as soon as there are more than ``limit``.

    The same search as :func:`expand` would drive, written out flat for speed:
    this is what lists successors.
    """
    found: set[int] = set()
    seen: set[tuple[int, int, int]] = set()
    stack: list[tuple[int, int, int, int, bool]] = []
    for _, at, own2, group2, go, reduced2, legal, _ in expand(ctx, plan, root(ctx, plan)):
        if legal:
            found.add(own2)
        for d in go:
            key = (own2, at, d)
            if key not in seen:
                seen.add(key)
                stack.append((own2, group2, at, d, reduced2))
    g = ctx.g
    nxt = g.next_point
    ahead = g.ahead
    nbrs = g.neighbours
    rows, cols, n = g.rows, g.cols, g.n
    enemy = ctx.enemy
    unit_at = ctx.unit_at
    engaged = plan.engaged
    goal = plan.goal
    liftable = g.liftable
    add = found.add
    push = stack.append
    while stack:
        if len(found) > limit:
            raise TooManyTurns(limit, "positions")
        own, group, last, d, reduced = stack.pop()
        at = nxt[d][last]
        if at < 0 or own >> at & 1:
            continue
        atb = 1 << at
        capture = enemy & atb
        adjacent = nbrs[at] & own & ~group
        absorbed = 0
        while adjacent:
            low = adjacent & -adjacent
            unit = unit_at[low.bit_length() - 1]
            absorbed |= unit
            adjacent &= ~unit
        line = rows[at // n] if d in (1, -1) else cols[at % n]
        ended = capture or absorbed & line
        reduced2 = reduced or bool(capture) or bool(absorbed)
        if ended or not (goal & ahead[d][at] or (engaged and reduced2)):
            way = 0  # no lift goes on (an unengaged group that is legal still may)
        elif engaged and reduced2:
            way = 1  # every lift goes on
        else:
            way = 1 if _clear(g, goal, own, at, d) else -1  # blocked: judged per lift
        near = nbrs[at]
        lastb = 1 << last
        lift = liftable(group)
        while lift:
            qb = lift & -lift
            lift ^= qb
            rest = group ^ qb
            if qb == lastb and not near & rest:
                continue
            own2 = (own ^ qb) | atb
            if engaged:
                if reduced2:
                    add(own2)
            elif (rest | atb) & goal:
                add(own2)
                key = (own2, at, d)
                if key not in seen:
                    seen.add(key)
                    push((own2, rest | atb, at, d, reduced2))
                continue
            if way == 0 or (way < 0 and not passable(g, goal, own2, rest | atb, at, d)):
                continue
            key = (own2, at, d)
            if key not in seen:
                seen.add(key)
                push((own2, rest | atb | absorbed, at, d, reduced2))
    if len(found) > limit:
        raise TooManyTurns(limit, "positions")
    return found


def _search(ctx: Context, plan: Plan, start: State, path: Path,
            target: tuple[int, int] | None, found: dict[int, Path]) -> Path | None:
    """Pre-order search in turn-text order; the first path to each end is the least one.

    With ``target`` (own, enemy), only states that can still reach it are
    searched, and the first path reaching it is returned.
    """
    seen: set[tuple[int, int, tuple[int, ...]]] = set()
    g = ctx.g
    stack: list[tuple[State, bool, Path]] = [(start, False, path)]
    while stack:
        state, legal, path = stack.pop()
        own, _, at, go, _ = state
        key = (own, at, go)
        if key in seen:
            continue
        seen.add(key)
        if legal:
            if target is None:
                if own not in found:
                    found[own] = path
            elif own == target[0] and ctx.final_enemy(own) == target[1]:
                return path
        if not go and at >= 0:
            continue
        children = expand(ctx, plan, state)
        for q, at2, own2, group2, go2, reduced2, legal2, _ in reversed(children):
            if target is not None:
                go2 = _toward(g, target[0], own2, at2, go2)
                if not go2 and not (legal2 and own2 == target[0]):
                    continue
            stack.append(((own2, group2, at2, go2, reduced2), legal2, (*path, (q, at2))))
    return None


def _toward(g: Geometry, goal: int, own: int, at: int, dirs: tuple[int, ...]) -> tuple[int, ...]:
    """The directions from ``at`` in which the chain can still turn ``own`` into ``goal``."""
    need = goal & ~own
    if not need:
        return ()
    extra = (own & ~goal).bit_count()
    keep: list[int] = []
    for d in dirs:
        ahead = g.ahead[d]
        if need & ~ahead[at]:
            continue
        far = _farthest(need, ahead)
        if extra <= (ahead[at] & ~ahead[far]).bit_count():
            keep.append(d)
    return tuple(keep)


def _farthest(need: int, ahead: tuple[int, ...]) -> int:
    """The point of ``need`` with no other point of ``need`` beyond it."""
    for x in bits(need):
        if not need & ahead[x]:
            return x
    raise AssertionError("a line always has a farthest point")


def _walk(ctx: Context, plan: Plan) -> Iterator[tuple[Path, int]]:
    """``(path, own)`` for each end this group's turns reach, with the least path to
    it, in turn-text order: :func:`_search`'s pre-order walk, yielding as it goes."""
    seen: set[tuple[int, int, tuple[int, ...]]] = set()
    found: set[int] = set()
    stack: list[tuple[State, bool, Path]] = [(root(ctx, plan), False, ())]
    while stack:
        state, legal, path = stack.pop()
        own, _, at, go, _ = state
        key = (own, at, go)
        if key in seen:
            continue
        seen.add(key)
        if legal and own not in found:
            found.add(own)
            yield path, own
        if not go and at >= 0:
            continue
        children = expand(ctx, plan, state)
        for q, at2, own2, group2, go2, reduced2, legal2, _ in reversed(children):
            stack.append(((own2, group2, at2, go2, reduced2), legal2, (*path, (q, at2))))


def least_turns(ctx: Context) -> Iterator[Path]:
    """The least turn to each successor, in turn-text order, found lazily: each group's
    walk yields its ends in that order, and the walks are merged; taking the first
    few turns searches little more than their paths."""
    walks: list[Iterator[tuple[Path, int]]] = []
    for plan in ctx.plans:
        if plan.singleton:
            s = plan.mask.bit_length() - 1
            walks.append(iter(sorted((((s, to),), own2) for to, own2 in slides(ctx, plan))))
        else:
            walks.append(_walk(ctx, plan))
    listed: set[int] = set()
    for path, own in heapq.merge(*walks):
        if own not in listed:
            listed.add(own)
            yield path


def all_finals(ctx: Context, limit: int = sys.maxsize) -> set[int]:
    """Every successor of the position, as the mover's pieces after the turn;
    :class:`TooManyTurns` as soon as there are more than ``limit``."""
    out: set[int] = set()
    for plan in ctx.plans:
        if plan.singleton:
            out.update(own2 for _, own2 in slides(ctx, plan))
        else:
            out |= finals(ctx, plan, limit)
        if len(out) > limit:
            raise TooManyTurns(limit, "positions")
    return out


def find_turn(ctx: Context, target: RaindropsPosition) -> Path | None:
    """The least turn from ``ctx.pos`` to ``target``, searched from both positions.

    The difference between the two boards fixes the movement line, the
    placements still needed and the pieces still to lift, so only the few
    chains that can produce ``target`` are searched.
    """
    pos = ctx.pos
    if target.size != pos.size or target.side != OTHER[pos.side]:
        return None
    g = ctx.g
    own_t = target.mask(pos.side)
    enemy_t = target.mask(target.side)
    if own_t.bit_count() != ctx.own.bit_count() or enemy_t & ~ctx.enemy:
        return None
    captured = ctx.enemy & ~enemy_t
    if captured and ctx.enemy_unit_at[(captured & -captured).bit_length() - 1] != captured:
        return None
    added = own_t & ~ctx.own
    if not added:
        return None
    in_row = any(added & ~row == 0 for row in g.rows)
    in_col = any(added & ~col == 0 for col in g.cols)
    if not (in_row or in_col):
        return None
    line = 0
    if in_row:
        line |= g.rows[(added.bit_length() - 1) // g.n]
    if in_col:
        line |= g.cols[(added.bit_length() - 1) % g.n]
    best: Path | None = None
    for plan in ctx.plans:
        if not plan.mask & line:
            continue
        if plan.singleton:
            s = plan.mask.bit_length() - 1
            for to, own2 in slides(ctx, plan):
                if own2 == own_t and ctx.final_enemy(own2) == enemy_t:
                    path: Path | None = ((s, to),)
                    break
            else:
                path = None
        else:
            path = _search(ctx, plan, root(ctx, plan), (), (own_t, enemy_t), {})
        if path is not None and (best is None or path < best):
            best = path
    return best


def viable(ctx: Context, plan: Plan, state: State, legal: bool) -> bool:
    """Whether some continuation of ``state`` (or stopping now) is a legal turn."""
    if legal:
        return True
    own, group, at, go, _ = state
    if not go:
        return False
    g = ctx.g
    goal = plan.goal
    # Section 8: the chain can always walk on over empty points (some piece
    # other than the last placed one is liftable), so a clear way is enough.
    if any(_clear(g, goal, own, at, d) for d in go):
        return True
    if not any(passable(g, goal, own, group, at, d) for d in go):
        return False
    key = (own, at, go)
    if key in ctx.dead:
        return False
    for child in expand(ctx, plan, state):
        _, at2, own2, group2, go2, reduced2, legal2, _ = child
        if viable(ctx, plan, (own2, group2, at2, go2, reduced2), legal2):
            return True
    ctx.dead.add(key)
    return False


def has_turn(ctx: Context) -> bool:
    """Whether the mover has any legal turn (section 8 proves it while they have 2+ units)."""
    for plan in ctx.plans:
        if plan.singleton:
            if slides(ctx, plan):
                return True
            continue
        for child in expand(ctx, plan, root(ctx, plan)):
            _, at2, own2, group2, go2, reduced2, legal2, _ = child
            if viable(ctx, plan, (own2, group2, at2, go2, reduced2), legal2):
                return True
    return False
