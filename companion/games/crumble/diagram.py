"""A plain-text drawing of a Crumble board for a terminal."""

from __future__ import annotations

import logging

from companion.games.crumble.geometry import to_exact
from companion.games.crumble.names import LETTERS, designate
from companion.games.crumble.position import SIDE_NAME, State

LOGGER = logging.getLogger(__name__)

MAX_CHARS_PER_UNIT = 4
MARKS = "X."
WRAP = 78


def draw(state: State) -> str:
    """Rows from the top, ``X`` black, ``.`` white; a unit square gets up to 4x4 characters
    (finer pieces show ``+`` where both colours share a character); coordinates around; then
    every piece that is not a unit square, by designator with its mark (``b5t=X``)."""
    per = max(1, min(MAX_CHARS_PER_UNIT, state.scale // 2))
    step = state.scale // per
    cols, rows = state.width * per, state.height * per
    grid: list[list[set[int]]] = [[set() for _ in range(cols)] for _ in range(rows)]
    for (x, y, w, h), colour in zip(state.rects, state.colours, strict=True):
        for gy in range(y // step, -(-(y + h) // step)):
            for gx in range(x // step, -(-(x + w) // step)):
                grid[gy][gx].add(colour)
    label = len(str(state.height))
    lines = []
    for gy in range(rows - 1, -1, -1):
        row = "".join(MARKS[next(iter(c))] if len(c) == 1 else "+" for c in grid[gy])
        number = str(gy // per + 1) if gy % per == per - 1 else ""
        cells = " ".join(row[i:i + per] for i in range(0, cols, per))
        lines.append(f"{number:>{label}} {cells}")
    letters = " ".join(LETTERS[i].ljust(per) for i in range(state.width))
    lines.append(f"{'':>{label}} {letters}".rstrip())
    others = [f"{designate(to_exact(r, state.scale))}={MARKS[c]}"
              for r, c in zip(state.rects, state.colours, strict=True)
              if r[2] != state.scale or r[3] != state.scale or r[0] % state.scale
              or r[1] % state.scale]
    line = "pieces other than unit squares:"
    for item in others:
        if len(line) + len(item) + 1 > WRAP:
            lines.append(line)
            line = " "
        line += " " + item
    if others:
        lines.append(line)
    extra = {"3": "drawn (three draw turns)", "=": "drawn (claim or agreement)"}.get(state.draw)
    lines.append(f"{SIDE_NAME[state.side].capitalize()} to move, {len(state.rects)} pieces"
                 + (f", {extra}" if extra else ""))
    return "\n".join(lines)
