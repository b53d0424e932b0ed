"""The komi's parity advice (rules file, section 4) and the terminal diagram of a position."""

from __future__ import annotations

import logging

from companion.games.rumbo.geometry import LETTERS, MAX_SIZE, MIN_SIZE
from companion.games.rumbo.position import RumboPosition

LOGGER = logging.getLogger(__name__)


def _check_size(size: int) -> None:
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"board size {size} is outside {MIN_SIZE} to {MAX_SIZE}")


def komi_range(size: int) -> tuple[int, int]:
    """The komi the proposer may name on an N x N board: -N*N to N*N."""
    _check_size(size)
    return -size * size, size * size


def parity_advice(size: int) -> str:
    """The advice to show when the komi is to be named (``"choose an even komi on 9x9 ..."``)."""
    _check_size(size)
    parity = "even" if size % 2 else "odd"
    low, high = komi_range(size)
    return (f"Name a whole number from {low} to {high}, added to Horizontal's score. "
            f"Choose an {parity} komi on {size}x{size}: then a tie is only possible "
            f"when some stones stay unclaimed.")


def komi_advice(size: int, komi: int) -> str | None:
    """A warning for a komi of the same parity as N (ties become likelier), else ``None``.

    The komi is still allowed (rules file, section 4); ValueError for a size or
    komi outside the rules.
    """
    low, high = komi_range(size)
    if not low <= komi <= high:
        raise ValueError(f"komi {komi} is outside {low} to {high} on {size}x{size}")
    if (size + komi) % 2:
        return None
    parity = "even" if size % 2 else "odd"
    return (f"A komi of {komi} has the same parity as the board size {size}, so the game can "
            f"end in a tie even when every stone is claimed. An {parity} komi avoids that "
            f"(a tie is a draw). The komi is allowed all the same.")


def diagram(pos: RumboPosition) -> str:
    """The stones and the claims side by side, with coordinates, and a status line.

    Claims grid: ``v`` / ``h`` claimed by Vertical / Horizontal, ``x`` a dead
    group nobody owns (it will never score), ``.`` otherwise.
    """
    n = pos.size
    groups = pos.groups
    marks = list(pos.claims)
    for members, libs in zip(groups.members, groups.liberties, strict=True):
        if not libs and pos.claims[members[0]] == ".":
            for q in members:
                marks[q] = "x"
    header = "    " + " ".join(LETTERS[:n])
    width = len(header)
    lines = [f"{header}   {header}"]
    span = n + 1
    for r in range(n):
        row = f"{n - r:>2}  " + " ".join(pos.stones[r * span:r * span + n])
        claim = f"{n - r:>2}  " + " ".join(marks[r * span:r * span + n])
        lines.append(f"{row:<{width}}   {claim}")
    lines.append(f"{'    stones':<{width}}   {'    claims (v, h; x dead unclaimed)'}")
    lines.append(status(pos))
    return "\n".join(lines)


def status(pos: RumboPosition) -> str:
    """One line: whose turn (or the phase), the komi, the score so far, the options."""
    low, high = -pos.size * pos.size, pos.size * pos.size
    options = [name for name in ("edgeholes", "nostraight") if getattr(pos, name)]
    tail = f"; options: {', '.join(options)}" if options else ""
    if pos.side == "k":
        return f"Setup: the proposer names the komi ({low} to {high}){tail}"
    if pos.side == "s":
        return (f"Setup: komi {pos.komi}; the chooser takes Vertical (moves first) "
                f"or Horizontal (gets the komi){tail}")
    vertical = pos.claims.count("v")
    horizontal = pos.claims.count("h") + (pos.komi or 0)
    score = f"Vertical {vertical}, Horizontal {horizontal} (komi {pos.komi})"
    if pos.full:
        return f"Game over: {score}{tail}"
    mover = "Vertical" if pos.side == "v" else "Horizontal"
    return f"{mover} to place; {score}{tail}"
