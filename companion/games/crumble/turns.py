"""Turn texts (rules file, section 10.2): reading one into an action and a swap, and playing
it, with errors that name the bad part."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from companion.games.base import IllegalTurn
from companion.games.crumble.engine import (
    Action,
    Successors,
    Work,
    crossing,
    cuttable,
    finished,
    join_pieces,
    midline,
    piece_name,
    split_action,
    swap_prefix,
)
from companion.games.crumble.geometry import DIRECTIONS, Rect, legal_shape, to_scaled
from companion.games.crumble.names import DesignatorError, read_designator
from companion.games.crumble.position import SIDE_NAME, CrumblePosition, State

LOGGER = logging.getLogger(__name__)

SIDE_WORDS = ("north", "east", "south", "west")


@dataclass(frozen=True)
class ParsedTurn:
    """A turn text read against a position: the action, then the optional swap."""

    action: Action
    start: str | None
    """The swap's start piece as typed (``None``: omitted, or no swap)."""
    dirs: str
    """The swap directions, upper case; empty for no swap."""


def locate(pos: CrumblePosition, designator: str, what: str) -> tuple[int, Rect]:
    """The piece a designator names in ``pos``; IllegalTurn if it names no piece."""
    state = pos.state
    rect = scaled(state, designator, what)
    index = pos.index.get(rect)
    if index is None:
        raise IllegalTurn(f"{what} {designator!r} is not a piece on the board")
    return index, rect


def scaled(state: State, designator: str, what: str) -> Rect:
    try:
        exact = read_designator(designator, state.width, state.height)
    except DesignatorError as exc:
        raise IllegalTurn(f"{what}: {exc}") from None
    rect = to_scaled(exact, state.scale)
    if rect is None or rect[2] <= 0 or rect[3] <= 0:
        raise IllegalTurn(f"{what} {designator!r} is not a piece on the board")
    return rect


def read_turn(pos: CrumblePosition, turn: str) -> ParsedTurn:
    """Split a turn text into its action and swap; the action is checked, the swap is not."""
    text = " ".join(turn.split())
    if not text:
        raise IllegalTurn("empty turn: split a piece (b5-, b5|) or join pieces (+a5:b6)")
    action_text, _, swap_text = text.partition(" ")
    if ">" in action_text:
        raise IllegalTurn(
            f"{text!r}: a turn starts with a split or a join, then a space and the swap")
    action = read_action(pos, action_text)
    if not swap_text:
        return ParsedTurn(action, None, "")
    start, mark, dirs = swap_text.replace(" ", "").partition(">")
    if not mark:
        raise IllegalTurn(f"swap {swap_text!r}: write the start piece, '>' and directions")
    dirs = dirs.upper()
    if not dirs or set(dirs) - set(DIRECTIONS):
        raise IllegalTurn(f"swap {swap_text!r}: the directions are one or more of N E S W")
    return ParsedTurn(action, start or None, dirs)


def read_action(pos: CrumblePosition, text: str) -> Action:
    state = pos.state
    me = SIDE_NAME[state.side]
    if text.startswith("+"):
        rect = scaled(state, text[1:], "join")
        x, y, w, h = rect
        if not legal_shape(w, h):
            raise IllegalTurn(f"join {text!r}: the joined piece must be a square or a half-square")
        if x + w > state.scaled_width or y + h > state.scaled_height:
            raise IllegalTurn(f"join {text!r}: the rectangle sticks out of the board")
        inside = [i for i, (px, py, pw, ph) in enumerate(state.rects)
                  if px < x + w and px + pw > x and py < y + h and py + ph > y]
        for i in inside:
            px, py, pw, ph = state.rects[i]
            name = piece_name(state.rects[i], state.scale)
            if state.colours[i] != state.side:
                raise IllegalTurn(f"join {text!r}: {name} inside it is not {me}'s")
            if px < x or py < y or px + pw > x + w or py + ph > y + h:
                raise IllegalTurn(f"join {text!r}: {name} sticks out of it")
        if len(inside) < 2:
            raise IllegalTurn(f"join {text!r}: it is a single piece already (join two or more)")
        assert join_pieces(state, pos.board.side, rect, inside[0]) is not None
        return Action("join", False, tuple(sorted(inside)), (rect,),
                      "+" + piece_name(rect, state.scale))
    horizontal = "-" in text
    if not horizontal and "|" not in text:
        raise IllegalTurn(
            f"{text!r}: an action is a split (b5-, b5|, a1:a2-c1:c2) or a join (+a5:b6)")
    first_text, _, last_text = text.partition("-" if horizontal else "|")
    kind = "horizontal" if horizontal else "vertical"
    first, rect = locate(pos, first_text, "split")
    if state.colours[first] != state.side:
        raise IllegalTurn(f"split {text!r}: {first_text} is not {me}'s")
    if not cuttable(state, first, horizontal):
        raise IllegalTurn(f"split {text!r}: {first_text} may not be cut {kind}ly "
                          f"(a wide piece is cut only vertically, a tall one only horizontally)")
    line = midline(rect, horizontal)
    along = crossing(state, line, horizontal)
    a = along.index(first)
    b = a
    if last_text:
        last, _ = locate(pos, last_text, "split")
        if last not in along:
            raise IllegalTurn(f"split {text!r}: the cut through {first_text} does not reach "
                              f"{last_text}")
        b = along.index(last)
        a, b = min(a, b), max(a, b)
    for i in along[a:b + 1]:
        name = piece_name(state.rects[i], state.scale)
        if state.colours[i] != state.side:
            raise IllegalTurn(f"split {text!r}: the cut would cross {name}, which is not {me}'s")
        if midline(state.rects[i], horizontal) != line or not cuttable(state, i, horizontal):
            raise IllegalTurn(f"split {text!r}: the cut would cross {name} off its midline "
                              f"or the wrong way")
    return split_action(state, along[a:b + 1], horizontal)


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
