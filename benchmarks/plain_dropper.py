"""A plain Dropper, written straight from the rules file: the honest peer for the benchmarks.

What a careful engineer writes in an afternoon: the board kept as its text (rows
joined by ``/``, one character a point), a neighbour table per board size
computed once, the free points listed once per position (a drop only takes
away the free points next to the pushed stone: the point dropped on was taken
already), each successor written by slicing the text. No bit masks, nothing
shared with ``companion.games.dropper``. The tests check the engine against it
and ``bench_dropper.py`` / ``bench_engine.py`` time it beside the engine.
"""

from __future__ import annotations

import random
from functools import cache

LETTERS = "abcdefghijklmnopqrstuvwxyz"


@cache
def table(width: int, height: int) -> tuple[tuple[tuple[int, ...], ...], tuple[str, ...]]:
    """For a board text of this size: each index's neighbour indexes (eight directions;
    none for a ``/``), and each index's point name."""
    stride = width + 1
    length = height * stride - 1
    near: list[tuple[int, ...]] = []
    names: list[str] = []
    for k in range(length):
        row, col = divmod(k, stride)
        if col == width:
            near.append(())
            names.append("")
            continue
        names.append(f"{LETTERS[col]}{height - row}")
        found = []
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (dr or dc) and 0 <= row + dr < height and 0 <= col + dc < width:
                    found.append((row + dr) * stride + col + dc)
        near.append(tuple(found))
    return tuple(near), tuple(names)


def read(text: str) -> tuple[str, str, int, int]:
    """(board text, side to move, width, height)."""
    name, board, side = text.split()
    assert name == "dropper"
    width = board.find("/")
    if width < 0:
        return board, side, len(board), 1
    return board, side, width, (len(board) + 1) // (width + 1)


def turns(text: str) -> dict[str, str]:
    """Every legal turn text -> the position text it reaches."""
    board, me, width, height = read(text)
    them = "b" if me == "w" else "w"
    near, names = table(width, height)
    free = [k for k, c in enumerate(board)
            if c == "." and all(board[j] == "." for j in near[k])]
    out: dict[str, str] = {}
    dropped = False
    for x, c in enumerate(board):
        if c != them:
            continue
        for y in near[x]:
            if board[y] != ".":
                continue
            dropped = True
            if x < y:
                after = board[:x] + me + board[x + 1:y] + them + board[y + 1:]
            else:
                after = board[:y] + them + board[y + 1:x] + me + board[x + 1:]
            spoiled = near[y]
            left = [f for f in free if f != y and f not in spoiled]
            drop = f"{names[x]}>{names[y]}"
            if not left:
                out[drop] = f"dropper {after} {them}"
            for f in left:
                out[f"{drop}+{names[f]}"] = f"dropper {after[:f]}{me}{after[f + 1:]} {them}"
    if not dropped:
        for f in free:
            out[names[f]] = f"dropper {board[:f]}{me}{board[f + 1:]} {them}"
    return out


def successors(text: str) -> set[str]:
    """Every position text one legal turn reaches (the same loop as :func:`turns`)."""
    board, me, width, height = read(text)
    them = "b" if me == "w" else "w"
    near, _ = table(width, height)
    free = [k for k, c in enumerate(board)
            if c == "." and all(board[j] == "." for j in near[k])]
    out: set[str] = set()
    add = out.add
    dropped = False
    head, tail = "dropper ", " " + them
    for x, c in enumerate(board):
        if c != them:
            continue
        for y in near[x]:
            if board[y] != ".":
                continue
            dropped = True
            if x < y:
                after = board[:x] + me + board[x + 1:y] + them + board[y + 1:]
            else:
                after = board[:y] + them + board[y + 1:x] + me + board[x + 1:]
            spoiled = near[y]
            left = [f for f in free if f != y and f not in spoiled]
            if not left:
                add(head + after + tail)
            for f in left:
                add(head + after[:f] + me + after[f + 1:] + tail)
    if not dropped:
        for f in free:
            add(head + board[:f] + me + board[f + 1:] + tail)
    return out


def groups(board: str, width: int, height: int, colour: str) -> list[int]:
    """Sizes of the orthogonal groups of ``colour``, largest first."""
    stride = width + 1
    seen = set()
    sizes = []
    for k, c in enumerate(board):
        if c != colour or k in seen:
            continue
        stack = [k]
        seen.add(k)
        size = 0
        while stack:
            p = stack.pop()
            size += 1
            for q in (p - 1, p + 1, p - stride, p + stride):
                if 0 <= q < len(board) and board[q] == colour and q not in seen:
                    seen.add(q)
                    stack.append(q)
        sizes.append(size)
    return sorted(sizes, reverse=True)


def over(board: str, me: str, width: int, height: int) -> bool:
    """True when the side to move has no turn: no drop and no free point."""
    them = "b" if me == "w" else "w"
    near, _ = table(width, height)
    for k, c in enumerate(board):
        if c == them and any(board[j] == "." for j in near[k]):
            return False
        if c == "." and all(board[j] == "." for j in near[k]):
            return False
    return True


def winner(board: str, width: int, height: int) -> str:
    """"white", "black" or "draw" by the sorted group lists (rules file, section 6)."""
    white = groups(board, width, height, "w")
    black = groups(board, width, height, "b")
    for i in range(max(len(white), len(black))):
        a = white[i] if i < len(white) else 0
        b = black[i] if i < len(black) else 0
        if a != b:
            return "white" if a > b else "black"
    return "draw"


def outcome(text: str) -> str | None:
    """None while the game goes on; else "white", "black" or "draw"."""
    board, me, width, height = read(text)
    if not over(board, me, width, height):
        return None
    return winner(board, width, height)


def playout(text: str, rng: random.Random) -> str:
    """A random game to the end, as the engine's playout draws it (a droppable stone,
    then one of its empty neighbours, then a free point left): the result."""
    board, me, width, height = read(text)
    near, _ = table(width, height)
    cells = list(board)
    while True:
        them = "b" if me == "w" else "w"
        targets = [x for x, c in enumerate(cells)
                   if c == them and any(cells[y] == "." for y in near[x])]
        free = [k for k, c in enumerate(cells)
                if c == "." and all(cells[j] == "." for j in near[k])]
        if targets:
            x = rng.choice(targets)
            y = rng.choice([q for q in near[x] if cells[q] == "."])
            cells[x], cells[y] = me, them
            left = [f for f in free if f != y and f not in near[y]]
            if left:
                cells[rng.choice(left)] = me
        elif free:
            cells[rng.choice(free)] = me
        else:
            return winner("".join(cells), width, height)
        me = them
