"""Playing a whole turn text, and the successor search over every turn of a position."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass

from companion.games.base import IllegalTurn
from companion.games.crumble.engine import (
    Action,
    Successors,
    Work,
    explore,
    join_actions,
    piece_name,
    split_actions,
)
from companion.games.crumble.geometry import DIRECTIONS, to_scaled
from companion.games.crumble.names import DesignatorError, read_designator
from companion.games.crumble.state import SIDE_NAME, CrumblePosition
from companion.games.crumble.turntext import ParsedTurn, read_turn

LOGGER = logging.getLogger(__name__)

SIDE_WORDS = ("north", "east", "south", "west")


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


@dataclass(frozen=True)
class Played:
    """A turn applied: the resulting text, the canonical turn text, and how the swap ended."""

    text: str
    turn: str
    winner: int | None
    captured: bool


def swap_start(pos: CrumblePosition, work: Work, parsed: ParsedTurn) -> int:
    """The piece the swap starts from (one of the action's new pieces)."""
    if work.action.kind == "join" and parsed.start is None:
        return work.new[0]
    if parsed.start is None:
        raise IllegalTurn("swap: after a split, name the half that swaps first (b5- b5t>N)")
    state = pos.state
    try:
        exact = read_designator(parsed.start, state.width, state.height)
    except DesignatorError as exc:
        raise IllegalTurn(f"swap start: {exc}") from None
    rect = to_scaled(exact, state.scale)
    for i in work.new:
        if work.rects[i] == rect:
            return i
    raise IllegalTurn(f"swap start {parsed.start!r} is not a piece this turn's "
                      f"{work.action.kind} made")


def play_turn(pos: CrumblePosition, turn: str) -> Played:
    """Apply a turn text; IllegalTurn names the bad part."""
    if finished(pos):
        raise IllegalTurn("the game is over: no more turns")
    parsed = read_turn(pos, turn)
    work = Work(pos, parsed.action)
    writer = Successors(pos)
    texts, order, history, candidate = writer.writer(work)
    colours = bytearray(work.colours)
    winner: int | None = None
    captured = False
    canonical = parsed.action.text
    if parsed.dirs:
        cur = swap_start(pos, work, parsed)
        canonical += " " + swap_prefix(work, cur) + parsed.dirs
        mover = work.mover
        for k, letter in enumerate(parsed.dirs):
            name = piece_name(work.rects[cur], work.scale)
            if winner is not None or captured:
                why = (f"{SIDE_NAME[winner]} won" if winner is not None
                       else f"the swapping piece {name} was captured")
                raise IllegalTurn(f"swap: the turn ended after step {k} ({why}); "
                                  f"{parsed.dirs[k:]!r} cannot follow")
            d = DIRECTIONS.index(letter)
            dst = work.swap[cur][d]
            if dst < 0:
                raise IllegalTurn(f"swap step {k + 1} ({letter}): no piece shares the whole "
                                  f"{SIDE_WORDS[d]} side of {name}")
            if colours[dst] == mover:
                other = piece_name(work.rects[dst], work.scale)
                raise IllegalTurn(f"swap step {k + 1} ({letter}): {other} is "
                                  f"{SIDE_NAME[mover]}'s own piece")
            _, winner = work.step(colours, cur, dst)
            cur = dst
            captured = colours[cur] != mover
    text = writer.text(texts, order, bytes(colours), history, candidate and bool(parsed.dirs))
    return Played(text, canonical, winner, captured)


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
