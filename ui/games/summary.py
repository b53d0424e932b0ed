"""Score and state of a game in one line for the play screen (no Kivy).

Each seed game has its own measure of how things stand (Dropper's group sizes,
Rumbo's claimed points and komi, Raindrops' unit counts, Crumble's draw counter);
they are read from the engines' public helpers where they exist, else from the
position text of the game's rules file. Any other game shows its stone counts.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from typing import Any

from companion.games import Position
from companion.games.session import Result

LOGGER = logging.getLogger(__name__)

NAMES = {"b": "Black", "w": "White", "v": "Vertical", "h": "Horizontal"}


def _orthogonal_groups(position: Position, content: str) -> list[int]:
    """Sizes of the orthogonally connected groups of ``content`` on a grid, largest first."""
    from ui.games.geometry import grid_position

    points = {grid_position(cell) for cell, held in position.cells().items() if held == content}
    sizes = []
    while points:
        stack = [points.pop()]
        size = 0
        while stack:
            column, row = stack.pop()
            size += 1
            for near in ((column + 1, row), (column - 1, row), (column, row + 1),
                         (column, row - 1)):
                if near in points:
                    points.remove(near)
                    stack.append(near)
        sizes.append(size)
    return sorted(sizes, reverse=True)


def _sizes(sizes: list[int]) -> str:
    return ", ".join(map(str, sizes[:6])) + (" ..." if len(sizes) > 6 else "") if sizes \
        else "none"


def dropper(rules: Any, position: Position) -> str:
    groups = rules.groups(position) if hasattr(rules, "groups") else {
        "white": _orthogonal_groups(position, "w"), "black": _orthogonal_groups(position, "b")}
    return (f"Groups, largest first: White {_sizes(groups['white'])}; "
            f"Black {_sizes(groups['black'])}")


def raindrops(rules: Any, position: Position) -> str:
    black = len(_orthogonal_groups(position, "b"))
    white = len(_orthogonal_groups(position, "w"))
    return f"Units: Black {black}, White {white} (one unit wins)"


def rumbo(rules: Any, position: Position) -> str:
    fields = position.text().split()
    if len(fields) < 5:
        return ""
    komi, claims = fields[3], fields[4]
    vertical, horizontal = claims.count("v"), claims.count("h")
    if komi == "?":
        return "The komi is still to be named"
    value = int(komi)
    return (f"Claimed: Vertical (blue marks) {vertical}, Horizontal (red marks) "
            f"{horizontal} + komi {value} = {horizontal + value}")


def crumble(rules: Any, position: Position) -> str:
    fields = position.text().split()
    if len(fields) < 5:
        return ""
    pieces = Counter(piece.rsplit(",", 1)[-1] for piece in fields[2].split(";"))
    draw = fields[4]
    counter = {"=": "drawn", "3": "drawn (three draw turns)"}.get(
        draw, f"draw turns in a row: {draw} of 3")
    return f"Pieces: Black {pieces['b']}, White {pieces['w']}; {counter}"


def generic(rules: Any, position: Position) -> str:
    counts = Counter(content for content in position.cells().values() if content != ".")
    return ", ".join(f"{NAMES.get(content, content)} {count}"
                     for content, count in sorted(counts.items()))


SUMMARIES: dict[str, Callable[[Any, Position], str]] = {
    "dropper": dropper, "rumbo": rumbo, "raindrops": raindrops, "crumble": crumble}


def summary(rules: Any, position: Position, result: Result | None = None) -> str:
    """The state line; with the final scores once the game is over."""
    try:
        line = SUMMARIES.get(rules.name, generic)(rules, position)
    except (ValueError, KeyError, IndexError) as error:
        LOGGER.warning("no summary for %s: %s", position.text()[:60], error)
        line = ""
    if result is not None and result.scores:
        scores = ", ".join(f"{side.capitalize()} {score}" for side, score in result.scores.items())
        line = f"Final score: {scores}" + (f". {line}" if line else "")
    return line
