"""Rumbo turn text (rules file, section 12) and what a placement does, for players and the app.

Turn texts: ``komi=K`` in phase k, ``side=v`` / ``side=h`` in phase s, and a
placement ``b@c3`` / ``w@c3`` in the play phase. Reading ignores case and
surrounding spaces; everything wrong raises :class:`IllegalTurn` naming the bad part.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass

from companion.games.base import IllegalTurn
from companion.games.rumbo.engine import PLAYER_OF, Placement, direction_name, place
from companion.games.rumbo.position import HORIZONTAL, VERTICAL, RumboPosition, parse_komi

LOGGER = logging.getLogger(__name__)

COLOUR_NAMES = {"b": "black", "w": "white"}
SIDE_CHOICES = {"v": "v", "h": "h", "vertical": "v", "horizontal": "h"}

_KOMI = re.compile(r"komi\s*=\s*(\S*)")
_SIDE = re.compile(r"side\s*=\s*(\S*)")
_PLACE = re.compile(r"(\S*?)\s*@\s*(\S*)")


@dataclass(frozen=True)
class Turn:
    """A turn read from its text."""

    kind: str
    """``"komi"``, ``"side"`` or ``"place"``."""
    text: str
    """Canonical turn text."""
    komi: int | None = None
    side: str | None = None
    """``"v"`` or ``"h"`` for ``side=...``."""
    point: int | None = None
    colour: str | None = None


def read_turn(pos: RumboPosition, turn: str) -> Turn:
    """``turn`` read and checked against ``pos``; :class:`IllegalTurn` naming what is wrong."""
    text = turn.strip().lower()
    if not text:
        raise IllegalTurn("empty turn: " + expected(pos))
    n = pos.size
    komi_match = _KOMI.fullmatch(text)
    side_match = _SIDE.fullmatch(text)
    place_match = _PLACE.fullmatch(text)
    if pos.side == "k":
        if komi_match is None:
            raise IllegalTurn(f"{turn.strip()!r}: the komi must be named first; " + expected(pos))
        try:
            komi = parse_komi(komi_match.group(1), n)
        except ValueError as error:
            raise IllegalTurn(f"{turn.strip()!r}: {error}") from None
        return Turn("komi", f"komi={komi}", komi=komi)
    if komi_match is not None:
        raise IllegalTurn(f"{turn.strip()!r}: the komi is already named ({pos.komi}); "
                          + expected(pos))
    if pos.side == "s":
        if side_match is None:
            raise IllegalTurn(f"{turn.strip()!r}: a side must be chosen first; " + expected(pos))
        side = SIDE_CHOICES.get(side_match.group(1))
        if side is None:
            raise IllegalTurn(
                f"{turn.strip()!r}: the side is v (Vertical) or h (Horizontal), "
                f"not {side_match.group(1)!r}")
        return Turn("side", f"side={side}", side=side)
    if side_match is not None:
        raise IllegalTurn(f"{turn.strip()!r}: the sides are already chosen; " + expected(pos))
    if pos.full:
        raise IllegalTurn(f"{turn.strip()!r}: the game is over (the board is full)")
    if place_match is None:
        raise IllegalTurn(
            f"{turn.strip()!r} is not a placement; " + expected(pos))
    colour, where = place_match.groups()
    if colour not in COLOUR_NAMES:
        raise IllegalTurn(
            f"{turn.strip()!r}: the colour {colour!r} must be b (black) or w (white)")
    geo = pos.geometry
    try:
        point = geo.point(where)
    except ValueError as error:
        raise IllegalTurn(f"{turn.strip()!r}: {error}") from None
    if pos.stones[point] != ".":
        raise IllegalTurn(
            f"{turn.strip()!r}: {geo.names[point]} is occupied "
            f"(a {COLOUR_NAMES[pos.stones[point]]} stone); place on an empty point")
    return Turn("place", f"{colour}@{geo.names[point]}", point=point, colour=colour)


def all_turns(pos: RumboPosition) -> Iterator[str]:
    """Every legal turn text of ``pos``: each komi, each side, each placement."""
    if pos.side == "k":
        limit = pos.size * pos.size
        for komi in range(-limit, limit + 1):
            yield f"komi={komi}"
    elif pos.side == "s":
        yield "side=v"
        yield "side=h"
    elif not pos.full:
        names = pos.geometry.names
        for p, stone in enumerate(pos.stones):
            if stone == ".":
                yield f"b@{names[p]}"
                yield f"w@{names[p]}"


def play_turn(pos: RumboPosition, turn: str) -> RumboPosition:
    """The position after ``turn``; :class:`IllegalTurn` naming what is wrong."""
    read = read_turn(pos, turn)
    if read.kind == "komi":
        return RumboPosition(pos.size, pos.stones, "s", read.komi, pos.claims,
                             pos.edgeholes, pos.nostraight)
    if read.kind == "side":
        return RumboPosition(pos.size, pos.stones, "v", pos.komi, pos.claims,
                             pos.edgeholes, pos.nostraight)
    assert read.point is not None and read.colour is not None
    return place(pos, read.point, read.colour).after


def expected(pos: RumboPosition) -> str:
    """What a turn must look like here, in plain words."""
    limit = pos.size * pos.size
    if pos.side == "k":
        return f"the proposer names the komi: komi=K with K a whole number from -{limit} to {limit}"
    if pos.side == "s":
        return "the chooser picks a side: side=v (Vertical, moves first) or side=h (Horizontal)"
    if pos.full:
        return "the game is over (the board is full)"
    return "place a stone: colour@point, like b@c3 (black) or w@c3 (white), on an empty point"


@dataclass(frozen=True)
class GroupDeath:
    """A group that lost its last liberty in a placement."""

    owner: str | None
    """``"vertical"`` or ``"horizontal"`` (claimed), or ``None`` (stays unclaimed for good)."""
    colour: str
    """``"b"`` or ``"w"``."""
    cells: tuple[str, ...]
    """Its points, in reading order of the position text."""
    directions: str
    """Its direction set as the rules file writes it (``"N+E"``), or ``"none"``."""


@dataclass(frozen=True)
class Effects:
    """What one placement did: the app animates the fills and the claims from it."""

    point: str
    colour: str
    filled: tuple[str, ...]
    """Holes filled with the placed colour, in reading order."""
    dead: tuple[GroupDeath, ...]
    """Groups that lost their last liberty (the first stone's own group first)."""
    after: RumboPosition

    @property
    def claimed(self) -> tuple[GroupDeath, ...]:
        """The dead groups a player claimed."""
        return tuple(death for death in self.dead if death.owner is not None)

    @property
    def unclaimed(self) -> tuple[GroupDeath, ...]:
        """The dead groups nobody owns (they will never score)."""
        return tuple(death for death in self.dead if death.owner is None)

    def changes(self) -> dict[str, str]:
        """Point -> stone placed on it by this turn (the first stone and the fills)."""
        return {self.point: self.colour, **dict.fromkeys(self.filled, self.colour)}

    def note(self) -> str:
        """The placement in plain words: the stone, the fills, every death and claim."""
        parts = [f"{COLOUR_NAMES[self.colour]} on {self.point}"]
        if self.filled:
            holes = "the hole" if len(self.filled) == 1 else "the holes"
            parts.append(f"fills {holes} {_listing(self.filled)} {COLOUR_NAMES[self.colour]}")
        for death in self.dead:
            group = _group(death)
            if death.owner is None and death.directions == "none":
                parts.append(f"{group} has no liberty, but it touches the new stone from no "
                             f"direction (the empty set, owned by nobody): it stays unclaimed")
            elif death.owner is None:
                parts.append(
                    f"{group} has no liberty, but nobody owns the set {death.directions}: "
                    f"it stays unclaimed")
            else:
                parts.append(f"{death.owner.capitalize()} claims {group} "
                             f"(set {death.directions})")
        if self.after.full:
            parts.append("the board is full: the game ends")
        return "; ".join(parts)


def _listing(cells: tuple[str, ...]) -> str:
    return cells[0] if len(cells) == 1 else ", ".join(cells[:-1]) + " and " + cells[-1]


def _group(death: GroupDeath) -> str:
    colour = COLOUR_NAMES[death.colour]
    if len(death.cells) == 1:
        return f"{colour} {death.cells[0]}"
    if len(death.cells) <= 6:
        return f"the {colour} group {'-'.join(death.cells)}"
    return f"the {len(death.cells)}-stone {colour} group at {death.cells[0]}"


def effects_of(pos: RumboPosition, placement: Placement) -> Effects:
    """A :class:`Placement` (indices) as :class:`Effects` (point names, players)."""
    names = pos.geometry.names
    dead = tuple(
        GroupDeath(PLAYER_OF.get(d.owner), d.colour, tuple(names[q] for q in d.members),
                   direction_name(d.directions))
        for d in placement.deaths)
    return Effects(names[placement.point], placement.colour,
                   tuple(names[q] for q in placement.filled), dead, placement.after)


def effects(pos: RumboPosition, turn: str) -> Effects:
    """What the placement ``turn`` does in ``pos``; :class:`IllegalTurn` if it is not one."""
    read = read_turn(pos, turn)
    if read.point is None or read.colour is None:
        raise IllegalTurn(f"{turn.strip()!r} is not a placement (only placements fill and claim)")
    return effects_of(pos, place(pos, read.point, read.colour))


def seating(turn: str) -> dict[str, str]:
    """Role -> side after the chooser's ``side=v`` or ``side=h``.

    For example ``{"chooser": "horizontal", "proposer": "vertical"}``.

    The position text does not record it (both choices give the same position);
    the session keeps it, the way it keeps player names.
    """
    match = _SIDE.fullmatch(turn.strip().lower())
    side = SIDE_CHOICES.get(match.group(1)) if match else None
    if side is None:
        raise IllegalTurn(f"{turn.strip()!r} is not a side choice (side=v or side=h)")
    chooser = VERTICAL if side == "v" else HORIZONTAL
    proposer = HORIZONTAL if side == "v" else VERTICAL
    return {"chooser": chooser, "proposer": proposer}
