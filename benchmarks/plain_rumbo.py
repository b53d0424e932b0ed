"""A plain Rumbo, written straight from the rules file: the honest peer for the benchmarks.

What a careful engineer writes in an afternoon: the board kept as the text's
STONES and CLAIMS fields (rows joined by ``/``), a neighbour table per board
size computed once, and per placement the rules' own shortcut (section 11):
only the first stone's empty neighbours can become holes, and only the first
stone's group and the other colour's groups touching it can lose their last
liberty, each found by a flood fill. Texts are written by joining lists. No bit
masks, nothing shared with ``companion.games.rumbo``; tests check the engine
against it and ``bench_rumbo.py`` times both.
"""

from __future__ import annotations

import random
from functools import cache

LETTERS = "abcdefghijklmnopqrstuvwxyz"

OWNER = {
    "N": "v", "S": "v", "E": "h", "W": "h", "NE": "v", "SW": "v", "NW": "h", "SE": "h",
    "NSE": "v", "NSW": "v", "NEW": "h", "SEW": "h", "NS": "v", "EW": "h",
}
"""A direction set (letters in N, S, E, W order) -> its owner: the table of section 6."""


@cache
def table(n: int) -> tuple[tuple[tuple[tuple[str, int], ...], ...], tuple[str, ...]]:
    """For a STONES field of an n x n board: each index's neighbours as (direction, index)
    (none for a ``/``), and each index's point name."""
    stride = n + 1
    near: list[tuple[tuple[str, int], ...]] = []
    names: list[str] = []
    for k in range(n * stride - 1):
        row, col = divmod(k, stride)
        if col == n:
            near.append(())
            names.append("")
            continue
        names.append(f"{LETTERS[col]}{n - row}")
        found = []
        for d, dr, dc in (("N", -1, 0), ("S", 1, 0), ("E", 0, 1), ("W", 0, -1)):
            if 0 <= row + dr < n and 0 <= col + dc < n:
                found.append((d, (row + dr) * stride + col + dc))
        near.append(tuple(found))
    return tuple(near), tuple(names)


def read(text: str) -> tuple[str, str, str, str, list[str]]:
    """(stones, side, komi, claims, options)."""
    fields = text.split()
    options = fields[5].split(",") if len(fields) > 5 else []
    return fields[1], fields[2], fields[3], fields[4], options


def write(stones: str, side: str, komi: str, claims: str, options: list[str]) -> str:
    tail = " " + ",".join(options) if options else ""
    return f"rumbo {stones} {side} {komi} {claims}{tail}"


def group(stones: list[str], start: int, near: tuple[tuple[tuple[str, int], ...], ...]
          ) -> tuple[set[int], bool]:
    """The group through ``start`` and whether it has a liberty."""
    colour = stones[start]
    found = {start}
    todo = [start]
    free = False
    while todo:
        p = todo.pop()
        for _, q in near[p]:
            s = stones[q]
            if s == ".":
                free = True
            elif s == colour and q not in found:
                found.add(q)
                todo.append(q)
    return found, free


def place(stones: list[str], claims: list[str], p: int, colour: str, n: int,
          options: list[str]) -> None:
    """Place, fill holes, claim (section 5), in place on the two lists."""
    near, _ = table(n)
    edgeholes = "edgeholes" in options
    stones[p] = colour
    for _, q in near[p]:
        if stones[q] == "." and (edgeholes or len(near[q]) == 4) and all(
                stones[r] == colour for _, r in near[q]):
            stones[q] = colour
    other = "w" if colour == "b" else "b"
    seen: set[int] = set()
    for start in [p] + [q for _, q in near[p] if stones[q] == other]:
        if start in seen:
            continue
        members, free = group(stones, start, near)
        seen |= members
        if free:
            continue
        letters = "".join(d for d, q in near[p] if q in members)
        owner = OWNER.get(letters, "")
        if owner and "nostraight" in options and letters in ("NS", "EW"):
            owner = ""
        if owner:
            for q in members:
                claims[q] = owner


def turns(text: str) -> list[str]:
    stones, side, _, _, _ = read(text)
    n = stones.count("/") + 1
    if side == "k":
        return [f"komi={k}" for k in range(-n * n, n * n + 1)]
    if side == "s":
        return ["side=v", "side=h"]
    _, names = table(n)
    return [f"{c}@{names[p]}" for p, s in enumerate(stones) if s == "." for c in "bw"]


def play(text: str, turn: str) -> str:
    """The position after a legal canonical turn."""
    stones, side, komi, claims, options = read(text)
    n = stones.count("/") + 1
    if turn.startswith("komi="):
        return write(stones, "s", str(int(turn[5:])), claims, options)
    if turn.startswith("side="):
        return write(stones, "v", komi, claims, options)
    colour, point = turn.split("@")
    _, names = table(n)
    board, marks = list(stones), list(claims)
    place(board, marks, names.index(point), colour, n, options)
    return write("".join(board), "h" if side == "v" else "v", komi, "".join(marks), options)


def successors(text: str) -> set[str]:
    """Every distinct position text one turn reaches."""
    stones, side, komi, claims, options = read(text)
    if side in ("k", "s"):
        return {play(text, turn) for turn in turns(text)}
    n = stones.count("/") + 1
    nxt = "h" if side == "v" else "v"
    tail = " " + ",".join(options) if options else ""
    out: set[str] = set()
    for p, s in enumerate(stones):
        if s != ".":
            continue
        for colour in "bw":
            board, marks = list(stones), list(claims)
            place(board, marks, p, colour, n, options)
            out.add(f"rumbo {''.join(board)} {nxt} {komi} {''.join(marks)}{tail}")
    return out


def score(claims: str, komi: str) -> str:
    vertical = claims.count("v")
    horizontal = claims.count("h") + int(komi)
    if vertical == horizontal:
        return "draw"
    return "vertical" if vertical > horizontal else "horizontal"


def outcome(text: str) -> str | None:
    """``"vertical"``, ``"horizontal"``, ``"draw"`` or None while the game goes on."""
    stones, side, komi, claims, _ = read(text)
    if side in ("k", "s") or "." in stones:
        return None
    return score(claims, komi)


def playout(text: str, rng: random.Random) -> str:
    """Random placements (a random empty point, a random colour) to the full board: the result."""
    stones, _, komi, claims, options = read(text)
    n = stones.count("/") + 1
    board, marks = list(stones), list(claims)
    empty = [p for p, s in enumerate(board) if s == "."]
    while empty:
        p = rng.choice(empty)
        place(board, marks, p, "b" if rng.getrandbits(1) else "w", n, options)
        empty = [q for q in empty if board[q] == "."]
    return score("".join(marks), komi)
