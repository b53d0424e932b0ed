"""Dropper (Andrea Chia, 2023) behind the games interface.

The specification is the rules file (``docs/games/dropper.md`` condenses it):
a turn drops on an opponent stone and pushes it to an empty neighbour, then
puts a free stone where every neighbour is empty, while any such point is
left; the player to move with nothing to do ends the game, and the bigger
orthogonal groups win.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from typing import ClassVar

from companion.games.base import IllegalTurn, Option, OptionError, Outcome, RulesBase, check_count
from companion.games.dropper import engine
from companion.games.dropper.builder import DropperBuilder
from companion.games.dropper.geometry import LETTERS, MAX_SIDE, grid
from companion.games.dropper.position import (
    OTHER,
    SIDES,
    DropperPosition,
    parse_position,
)
from companion.games.dropper.turns import check_turn, colour_name
from companion.limits import is_digits

LOGGER = logging.getLogger(__name__)

ORDINALS = ("largest", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


class DropperRules(RulesBase[DropperPosition]):
    """Dropper. Extra public methods beyond the interface: :meth:`free_points`,
    :meth:`drops`, :meth:`groups`, :meth:`count_turns`."""

    name: ClassVar[str] = "dropper"
    title: ClassVar[str] = "Dropper"
    pitch: ClassVar[str] = (
        "Drop on an enemy stone and push it aside, then place a lone stone; "
        "the biggest connected group wins.")
    players: ClassVar[tuple[str, str]] = ("white", "black")
    options: ClassVar[Mapping[str, Option]] = {
        "size": Option("8", None, f"points on each side of the board, 1 to {MAX_SIDE}"),
        "width": Option(None, None, f"board width, 1 to {MAX_SIDE} (overrides size)"),
        "height": Option(None, None, f"board height, 1 to {MAX_SIDE} (overrides size)"),
        "first": Option("w", ("w", "b"), "who moves first: w (White, the author's) or b"),
    }

    def start(self, **options: str) -> DropperPosition:
        values = self.check_options(options)
        size = _side_option("size", values["size"])
        width = _side_option("width", values["width"]) if "width" in values else size
        height = _side_option("height", values["height"]) if "height" in values else size
        return DropperPosition(grid(width, height).empty_board, values["first"])

    def parse(self, text: str) -> DropperPosition:
        return parse_position(text)

    def turns(self, pos: DropperPosition) -> Iterator[str]:
        for x, y, f in engine.turn_indexes(pos):
            yield engine.turn_text(pos, x, y, f)

    def canonical_turn(self, pos: DropperPosition, turn: str) -> str:
        checked = check_turn(pos, turn)
        return engine.turn_text(pos, checked.x, checked.y, checked.f)

    def play(self, pos: DropperPosition, turn: str) -> DropperPosition:
        checked = check_turn(pos, turn)
        return engine.apply(pos, checked.x, checked.y, checked.f)

    def successors(self, pos: DropperPosition, *, limit: int | None = None,
                   ) -> frozenset[DropperPosition]:
        found = engine.successors(pos)  # at most 8 a point: bounded by the board
        check_count(len(found), limit, "positions")
        return found

    def count_turns(self, pos: DropperPosition) -> int:
        """The number of legal turns (equal to the number of successors)."""
        return engine.count_turns(pos)

    def turns_to(self, pos: DropperPosition, target: DropperPosition) -> tuple[str, ...]:
        """The turn reaching ``target`` (at most one: rules 8.4), read off the changed points."""
        if target.side != OTHER[pos.side] or len(target.board) != len(pos.board):
            return ()
        me, them = pos.side, target.side
        x = y = f = -1
        for k, (a, b) in enumerate(zip(pos.board, target.board, strict=True)):
            if a == b:
                continue
            if a == them and b == me and x < 0:
                x = k
            elif a == "." and b == them and y < 0:
                y = k
            elif a == "." and b == me and f < 0:
                f = k
            else:
                return ()
        if (x < 0) != (y < 0) or (x < 0 and f < 0):
            return ()
        text = engine.turn_text(pos, x, y, f)
        try:
            reached = self.play(pos, text)
        except IllegalTurn:
            return ()
        return (text,) if reached == target else ()

    def outcome(self, pos: DropperPosition) -> Outcome | None:
        if not engine.is_over(pos):
            return None
        white = engine.group_sizes(pos, "w")
        black = engine.group_sizes(pos, "b")
        scores = {"white": white[0] if white else 0, "black": black[0] if black else 0}
        listing = (f"{colour_name(pos.side)} has no turn. "
                   f"White's groups {_sizes(white)}, Black's {_sizes(black)}")
        if white == black:
            return Outcome(None, scores, f"{listing}: equal all the way, a draw")
        winner = "white" if white > black else "black"
        place = next((i for i, (a, b) in enumerate(zip(white, black, strict=False)) if a != b),
                     min(len(white), len(black)))
        which = ORDINALS[place] if place < len(ORDINALS) else f"{place + 1}th"
        decided = "the largest group" if place == 0 else f"the {which} largest group"
        return Outcome(winner, scores,
                       f"{listing}: {winner.capitalize()} wins on {decided}")

    def builder(self, pos: DropperPosition) -> DropperBuilder:
        return DropperBuilder(pos, pos)

    def diagram(self, pos: DropperPosition) -> str:
        g = pos.grid
        pad = len(str(g.height))
        rows = pos.board.split("/")
        lines = [f"{g.height - i:>{pad}} " + " ".join(row) for i, row in enumerate(rows)]
        lines.append(" " * (pad + 1) + " ".join(LETTERS[: g.width]))
        return "\n".join(lines)

    def free_points(self, pos: DropperPosition) -> tuple[str, ...]:
        """The points that are free now (empty, all neighbours empty)."""
        g = pos.grid
        return tuple(sorted((g.names[k] for k in g.indexes(engine.board_of(pos).free)),
                            key=_point_key))

    def drops(self, pos: DropperPosition) -> tuple[str, ...]:
        """Every legal drop ``X>Y`` of the side to move, sorted by X then Y (a1, a2... b1)."""
        names = pos.grid.names
        pairs = sorted(engine.drops(pos),
                       key=lambda xy: (_point_key(names[xy[0]]), _point_key(names[xy[1]])))
        return tuple(f"{names[x]}>{names[y]}" for x, y in pairs)

    def groups(self, pos: DropperPosition) -> dict[str, list[int]]:
        """Each side's group sizes, largest first: ``{"white": [...], "black": [...]}``."""
        return {SIDES[c]: engine.group_sizes(pos, c) for c in ("w", "b")}

    def mover_name(self, pos: DropperPosition) -> str:
        """``"White"`` or ``"Black"``: the side to move, for messages."""
        return colour_name(pos.side)


def _side_option(key: str, value: str) -> int:
    if not is_digits(value) or not 1 <= int(value) <= MAX_SIDE:
        raise OptionError(f"dropper: {key}={value!r} must be a whole number from 1 to {MAX_SIDE}")
    return int(value)


def _sizes(sizes: list[int]) -> str:
    return ", ".join(map(str, sizes)) if sizes else "none"


def _point_key(point: str) -> tuple[int, int]:
    return LETTERS.index(point[0]), int(point[1:])


RULES = DropperRules()
