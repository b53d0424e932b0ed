"""Turn text (rules file, section 7) and one placement at a time, with the reasons.

``a1-c1,b1-d1,c2xe1``: steps separated by commas, each a from-point, ``-``
(or ``x`` exactly when the to-point holds an enemy piece) and a to-point.
:func:`apply_step` checks one step against every rule of section 3 and says
in plain words what is wrong; :class:`Chain` is the turn so far.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from companion.games.base import IllegalTurn
from companion.games.raindrops.engine import Path, State, placements
from companion.games.raindrops.geometry import LETTERS
from companion.games.raindrops.position import SIDE_NAMES
from companion.games.raindrops.units import Context, Plan, slides

LOGGER = logging.getLogger(__name__)

_STEP = re.compile(r"([a-z])([1-9][0-9]?)([-x])([a-z])([1-9][0-9]?)")


@dataclass(frozen=True)
class Chain:
    """A turn in progress: the unit moving, the search state, and the steps so far."""

    plan: Plan | None
    """The moving unit (``None`` before the first step)."""
    state: State
    legal: bool
    """The turn may end here (L1 or L2 holds)."""
    ended: str
    """Why the turn has ended (a capture, a join on the line, a slide); ``""`` if it has not."""
    path: Path = ()


def opening(ctx: Context) -> Chain:
    """The chain before the first step."""
    return Chain(None, (ctx.own, 0, -1, (), False), False, "")


def point_index(ctx: Context, letter: str, number: str, step: str) -> int:
    n = ctx.g.n
    col = LETTERS.index(letter)
    row = int(number) - 1
    if col >= n or not 0 <= row < n:
        raise IllegalTurn(f"step {step!r}: {letter}{number} is not on the {n}x{n} board")
    return row * n + col


def parse_turn(ctx: Context, text: str) -> list[tuple[int, str, int]]:
    """Turn text -> ``(from, separator, to)`` per step; :class:`IllegalTurn` for bad text."""
    parts = [part.strip().lower() for part in text.strip().split(",")]
    if not parts or parts == [""]:
        raise IllegalTurn("empty turn: write steps such as 'a1-c1,b1-d1'")
    steps = []
    for part in parts:
        match = _STEP.fullmatch(part)
        if match is None:
            raise IllegalTurn(
                f"step {part!r}: write FROM-TO or FROMxTO with points such as a1 (e.g. 'a1-c1')")
        a, b, sep, c, d = match.groups()
        steps.append((point_index(ctx, a, b, part), sep, point_index(ctx, c, d, part)))
    return steps


def step_text(ctx: Context, frm: int, to: int) -> str:
    names = ctx.g.names
    sep = "x" if ctx.enemy >> to & 1 else "-"
    return f"{names[frm]}{sep}{names[to]}"


def path_text(ctx: Context, path: Path) -> str:
    return ",".join(step_text(ctx, frm, to) for frm, to in path)


def _check_separator(ctx: Context, frm: int, sep: str, to: int) -> None:
    names = ctx.g.names
    if ctx.enemy >> to & 1 and sep != "x":
        raise IllegalTurn(f"{names[to]} holds an enemy piece: write {names[frm]}x{names[to]}")
    if not ctx.enemy >> to & 1 and sep != "-":
        raise IllegalTurn(f"{names[to]} holds no enemy piece: write {names[frm]}-{names[to]}")


def apply_step(ctx: Context, chain: Chain, frm: int, sep: str, to: int) -> Chain:
    """The chain after lifting ``frm`` and placing it on ``to``; :class:`IllegalTurn` why not."""
    g = ctx.g
    names = g.names
    colour = SIDE_NAMES[ctx.pos.side]
    if chain.ended:
        raise IllegalTurn(f"{names[frm]}{sep}{names[to]}: the turn has already ended "
                          f"({chain.ended})")
    own, group, last, dirs, reduced = chain.state
    plan = chain.plan
    if plan is None:
        if not own >> frm & 1:
            what = "an enemy piece" if ctx.enemy >> frm & 1 else "no piece"
            raise IllegalTurn(f"{names[frm]} holds {what}: lift one of {colour}'s pieces")
        plan = ctx.plan_at(frm)
        assert plan is not None
        if plan.singleton:
            return _slide(ctx, plan, frm, sep, to)
        group = plan.mask
        if not (plan.rule_rows | plan.rule_cols) >> to & 1:
            raise IllegalTurn(
                f"{names[to]} is not on a row or column of the group at {names[frm]}")
    else:
        if not group >> frm & 1:
            raise IllegalTurn(f"{names[frm]} is not a piece of the moving group")
        nexts = [g.next_point[d][last] for d in dirs]
        nexts = [x for x in nexts if x >= 0]
        if to not in nexts:
            lines = {_line_name(g.n, last, d) for d in dirs if not g.line(last, d) >> to & 1}
            if len(lines) == len({_line_name(g.n, last, d) for d in dirs}):
                raise IllegalTurn(f"{names[to]} is not on the movement line "
                                  f"({' or '.join(sorted(lines))})")
            if not nexts:
                raise IllegalTurn(f"the chain cannot go on from {names[last]}: the board ends")
            if len(chain.path) == 1:
                where = " or ".join(names[x] for x in sorted(nexts))
                raise IllegalTurn(
                    f"{names[to]}: the second placement must be beside {names[last]} on the "
                    f"movement line ({where})")
            raise IllegalTurn(f"{names[to]} is not the next point of the chain "
                              f"({names[nexts[0]]}): placements go one point at a time "
                              "in one direction")
    if own >> to & 1:
        raise IllegalTurn(f"{names[to]} holds a {colour} piece: placements go on empty points "
                          "or capture")
    _check_separator(ctx, frm, sep, to)
    if not g.liftable(group) >> frm & 1:
        raise IllegalTurn(f"lifting {names[frm]} would split the group")
    if not g.neighbours[to] & (group & ~(1 << frm)):
        raise IllegalTurn(f"{names[to]} would not touch the rest of the group "
                          f"(without {names[frm]})")
    first = last < 0
    if first:
        n = g.n
        base: tuple[int, ...] = ()
        if plan.rule_rows >> to & 1:
            base += (1, -1)
        if plan.rule_cols >> to & 1:
            base += (n, -n)
        dirs = base
    else:
        dirs = tuple(d for d in dirs if g.next_point[d][last] == to)
    (child,) = placements(ctx, plan, own, group, last, to, dirs, first, reduced, [frm],
                           prune=False)
    _, at2, own2, group2, go2, reduced2, legal2, ended2 = child
    why = ""
    if ended2:
        if ctx.enemy >> to & 1:
            why = f"{names[frm]}x{names[to]} captured"
        else:
            why = f"{names[to]} joined a unit on the movement line"
    return Chain(plan, (own2, group2, at2, go2, reduced2), legal2, why,
                 (*chain.path, (frm, to)))


def _slide(ctx: Context, plan: Plan, frm: int, sep: str, to: int) -> Chain:
    g = ctx.g
    names = g.names
    n = g.n
    if to == frm:
        raise IllegalTurn(f"{names[frm]}: the piece must move")
    if frm // n != to // n and frm % n != to % n:
        raise IllegalTurn(f"{names[frm]}-{names[to]}: a singleton slides along its row or "
                          "column")
    d = (1 if to > frm else -1) if frm // n == to // n else (n if to > frm else -n)
    x = g.next_point[d][frm]
    occupied = ctx.own | ctx.enemy
    while x != to:
        if occupied >> x & 1:
            raise IllegalTurn(f"{names[frm]}-{names[to]}: the slide may not pass over "
                              f"the piece on {names[x]}")
        x = g.next_point[d][x]
    if ctx.own >> to & 1:
        raise IllegalTurn(f"{names[to]} holds a {SIDE_NAMES[ctx.pos.side]} piece")
    _check_separator(ctx, frm, sep, to)
    for dest, own2 in slides(ctx, plan):
        if dest == to:
            return Chain(plan, (own2, own2 & ~(ctx.own ^ plan.mask), to, (), True), True,
                         "a singleton slides once", ((frm, to),))
    if plan.engaged:
        raise IllegalTurn(
            f"{names[frm]}-{names[to]} neither joins nor captures: the singleton on "
            f"{names[frm]} is engaged, so its turn must reduce the number of units")
    raise IllegalTurn(
        f"{names[frm]}-{names[to]} leaves the singleton unengaged: an unengaged unit must end "
        "its turn engaged")


def _line_name(n: int, point: int, direction: int) -> str:
    if direction in (1, -1):
        return f"row {point // n + 1}"
    return f"column {LETTERS[point % n]}"


def stop_reason(ctx: Context, chain: Chain) -> str:
    """Why the turn may not end here (for a chain that is not legal)."""
    if chain.plan is None:
        return "the turn is empty: lift a piece and place it"
    if chain.plan.engaged:
        return ("the group is engaged, so the turn must reduce the number of units "
                "(join another unit or capture) before it ends")
    return "the group is unengaged, so it must end the turn engaged"


def play_path(ctx: Context, text: str) -> Chain:
    """Every step of ``text`` applied and the end checked; :class:`IllegalTurn` naming the step."""
    chain = opening(ctx)
    for frm, sep, to in parse_turn(ctx, text):
        chain = apply_step(ctx, chain, frm, sep, to)
    if not chain.legal:
        raise IllegalTurn(f"{path_text(ctx, chain.path)} cannot end there: "
                          f"{stop_reason(ctx, chain)}")
    return chain
