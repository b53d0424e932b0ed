"""Reading a typed Dropper turn and checking it, with a reason for every refusal.

Turn text (section 10 of the rules): ``F`` (free only), ``X>Y`` (drop only)
or ``X>Y+F`` (drop and free stone); points in lower case, upper case read
too. Also read (our leniency, for copying from game records): spaces around
the parts, a leading colour as the author writes it (``W d5>c5+g5``; it must
be the side to move) and a final full stop.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from companion.games.base import IllegalTurn
from companion.games.dropper.engine import board_of
from companion.games.dropper.geometry import LETTERS
from companion.games.dropper.position import OTHER, SIDES, DropperPosition

LOGGER = logging.getLogger(__name__)

POINT = re.compile(r"([a-z])([0-9]{1,9})")
SHAPE = re.compile(r"([a-z][0-9]{1,9})(?:>([a-z][0-9]{1,9})(?:\+([a-z][0-9]{1,9}))?)?")
COLOUR_WORDS = {"w": "w", "white": "w", "b": "b", "black": "b"}


@dataclass(frozen=True)
class Turn:
    """A checked turn as board-string indexes, ``-1`` for a missing part."""

    x: int
    y: int
    f: int


def colour_name(side: str) -> str:
    return SIDES[side].capitalize()


def point_index(pos: DropperPosition, point: str, role: str) -> int:
    """The index of a point name; :class:`IllegalTurn` if malformed or off the board."""
    g = pos.grid
    match = POINT.fullmatch(point)
    if not match:
        raise IllegalTurn(f"{role} {point!r} is not a point (a column letter and a row number)")
    if len(match.group(2)) > 1 and match.group(2).startswith("0"):
        raise IllegalTurn(f"{role} {point!r}: write the row number without leading zeros")
    index = g.index.get(point)
    if index is None:
        corner = f"{LETTERS[g.width - 1]}{g.height}"
        raise IllegalTurn(
            f"{role} {point} is off the {g.width} x {g.height} board (a1 to {corner})")
    return index


def normalise(pos: DropperPosition, text: str) -> str:
    """The bare turn text in lower case, the colour prefix and final full stop removed."""
    raw = text.strip()
    if raw.endswith("."):
        raw = raw[:-1].rstrip()
    words = raw.split(None, 1)
    if len(words) == 2 and words[0].lower() in COLOUR_WORDS:
        side = COLOUR_WORDS[words[0].lower()]
        if side != pos.side:
            raise IllegalTurn(
                f"{text.strip()!r} is a turn for {colour_name(side)}, "
                f"but {colour_name(pos.side)} is to move")
        raw = words[1]
    return "".join(raw.split()).lower()


def check_turn(pos: DropperPosition, text: str) -> Turn:
    """The turn ``text`` describes, if legal in ``pos``; :class:`IllegalTurn` otherwise."""
    bare = normalise(pos, text)
    if not bare:
        raise IllegalTurn("empty turn text (expected F, X>Y or X>Y+F, e.g. d5>c5+g5)")
    match = SHAPE.fullmatch(bare)
    if not match:
        raise IllegalTurn(
            f"{text.strip()!r} is not a turn text: expected F (a free stone), X>Y (a drop) "
            "or X>Y+F (a drop and a free stone), e.g. d5>c5+g5")
    first, push, place = match.groups()
    mover, opponent = colour_name(pos.side), colour_name(OTHER[pos.side])
    b = board_of(pos)
    g = pos.grid
    if not b.droppable and not b.free:
        raise IllegalTurn(
            f"the game is over: {mover} has no {opponent} stone to drop on and no free point")
    if push is None:
        f = point_index(pos, first, "the point")
        if b.droppable:
            example = g.names[g.indexes(b.droppable)[0]]
            raise IllegalTurn(
                f"{first} alone is a free-only turn, but a drop comes first: "
                f"{opponent}'s stone on {example} (or another with an empty neighbour) "
                "must be dropped on (X>Y or X>Y+F)")
        check_free(pos, b.free, f, "")
        return Turn(-1, -1, f)
    x = point_index(pos, first, "the drop point")
    y = point_index(pos, push, "the push point")
    content = pos.board[x]
    if content != OTHER[pos.side]:
        what = "is empty" if content == "." else f"holds {mover}'s own stone"
        raise IllegalTurn(f"cannot drop on {first}: it {what}; drop on a {opponent} stone")
    if not g.neighbours[x] & g.bit(y):
        raise IllegalTurn(
            f"cannot push the {opponent} stone from {first} to {push}: "
            f"{push} is not next to {first}")
    if pos.board[y] != ".":
        raise IllegalTurn(
            f"cannot push the {opponent} stone from {first} to {push}: {push} is not empty")
    left = b.free & ~g.around[y]
    if place is None:
        if left:
            example = g.names[g.indexes(left)[0]]
            raise IllegalTurn(
                f"after {first}>{push} free points remain (such as {example}): "
                f"the free stone is due ({first}>{push}+F)")
        return Turn(x, y, -1)
    f = point_index(pos, place, "the free stone")
    if not left:
        raise IllegalTurn(
            f"the free stone cannot go on {place}: no free point remains after the drop "
            f"{first}>{push}, so the turn is {first}>{push} alone")
    check_free(pos, left, f, f" after the drop {first}>{push}", pushed=y)
    return Turn(x, y, f)


def check_free(pos: DropperPosition, free: int, f: int, when: str, pushed: int = -1) -> None:
    """Refuse ``f`` unless it is in the ``free`` mask, saying why it is not free."""
    g = pos.grid
    if free & g.bit(f):
        return
    name = g.names[f]
    if pushed == f or pos.board[f] != ".":
        raise IllegalTurn(f"the free stone cannot go on {name}{when}: it holds a stone")
    blockers = [j for j in g.neighbour_indexes[f] if pos.board[j] != "." or j == pushed]
    if blockers:
        raise IllegalTurn(
            f"the free stone cannot go on {name}{when}: its neighbour {g.names[blockers[0]]} "
            "holds a stone (a free point and all its neighbours are empty)")
    raise IllegalTurn(f"the free stone cannot go on {name}{when}")  # pragma: no cover
