"""A deliberately plain Raindrops implementation: the peer for the benchmarks and tests.

Written straight from the rules file with dictionaries, sets and loops (no bit
boards, no pruning, nothing shared with ``companion.games.raindrops``).
Positions are canonical position texts. ``successors(text)`` is every
distinct position one legal turn reaches; ``engaged_e1`` is the closed form E1,
``engaged_brute`` the definition (can the unit join or capture in one turn,
ignoring L1 and L2), so tests can check one against the other.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

Point = tuple[int, int]  # (column, row), both from 0
Grid = dict[Point, str]

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def parse(text: str) -> tuple[int, Grid, str]:
    name, board, side = text.split()
    assert name == "raindrops"
    rows = board.split("/")
    n = len(rows)
    grid: Grid = {}
    for i, row in enumerate(rows):
        for c, ch in enumerate(row):
            grid[(c, n - 1 - i)] = ch
    return n, grid, side


def write(n: int, grid: Grid, side: str) -> str:
    rows = []
    for r in range(n - 1, -1, -1):
        rows.append("".join(grid[(c, r)] for c in range(n)))
    return f"raindrops {'/'.join(rows)} {side}"


def neighbours(n: int, p: Point) -> Iterator[Point]:
    c, r = p
    for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= c + dc < n and 0 <= r + dr < n:
            yield (c + dc, r + dr)


def connected(n: int, points: set[Point]) -> bool:
    if not points:
        return True
    start = next(iter(points))
    seen = {start}
    todo = [start]
    while todo:
        p = todo.pop()
        for q in neighbours(n, p):
            if q in points and q not in seen:
                seen.add(q)
                todo.append(q)
    return len(seen) == len(points)


def units(n: int, grid: Grid, colour: str) -> list[frozenset[Point]]:
    seen: set[Point] = set()
    out = []
    for p in sorted(grid):
        if grid[p] != colour or p in seen:
            continue
        part = {p}
        todo = [p]
        while todo:
            x = todo.pop()
            for y in neighbours(n, x):
                if grid[y] == colour and y not in part:
                    part.add(y)
                    todo.append(y)
        seen |= part
        out.append(frozenset(part))
    return out


def lines_of(n: int, unit: frozenset[Point]) -> list[list[Point]]:
    rows = sorted({r for _, r in unit})
    cols = sorted({c for c, _ in unit})
    out = [[(c, r) for c in range(n)] for r in rows]
    out += [[(c, r) for r in range(n)] for c in cols]
    return out


def engaged_e1(n: int, grid: Grid, unit: frozenset[Point]) -> bool:
    colour = grid[next(iter(unit))]
    enemy = "w" if colour == "b" else "b"
    for line in lines_of(n, unit):
        for p in line:
            if grid[p] == enemy:
                return True
            if grid[p] == colour and p not in unit:
                return True
            if grid[p] == ".":
                for q in neighbours(n, p):
                    if grid[q] == colour and q not in unit:
                        return True
    return False


def _unit_of(n: int, grid: Grid, p: Point) -> set[Point]:
    colour = grid[p]
    part = {p}
    todo = [p]
    while todo:
        x = todo.pop()
        for y in neighbours(n, x):
            if grid[y] == colour and y not in part:
                part.add(y)
                todo.append(y)
    return part


def _place(n: int, grid: Grid, group: set[Point], q: Point, p: Point,
           line: list[Point]) -> tuple[Grid, set[Point], bool, bool]:
    """Lift q, put it on p: (grid after, group after, reduced, turn ended)."""
    colour = grid[q]
    new = dict(grid)
    new[q] = "."
    ended = False
    reduced = False
    if new[p] not in (".", colour):
        for x in _unit_of(n, new, p):
            new[x] = "."
        reduced = ended = True
    new[p] = colour
    group2 = (group - {q}) | {p}
    for x in neighbours(n, p):
        if new[x] == colour and x not in group2:
            joined = _unit_of(n, new, x) - group2
            if joined:
                reduced = True
                group2 |= joined
                if any(y in line for y in joined):
                    ended = True
    return new, group2, reduced, ended


def _group_turns(n: int, grid: Grid, unit: frozenset[Point],
                 any_reduction: bool = False) -> Iterator[tuple[Grid, set[Point], bool, bool]]:
    """Every (grid, group, reduced, ended) after one or more placements, each state once."""
    colour = grid[next(iter(unit))]
    for line in lines_of(n, unit):
        index = {p: i for i, p in enumerate(line)}
        seen: set[tuple[str, int, int]] = set()
        todo: list[tuple[Grid, set[Point], int, int, bool]] = []
        for i, p in enumerate(line):
            if grid[p] == colour:
                continue
            for q in sorted(unit):
                rest = set(unit) - {q}
                if not connected(n, rest):
                    continue
                if not any(x in rest for x in neighbours(n, p)):
                    continue
                new, group2, reduced, ended = _place(n, grid, set(unit), q, p, line)
                yield new, group2, reduced, ended
                if any_reduction and reduced:
                    return
                if not ended:
                    todo.append((new, group2, i, 0, reduced))
        while todo:
            board, group, i, d, reduced = todo.pop()
            key = (write(n, board, "b"), i, d)
            if key in seen:
                continue
            seen.add(key)
            for step in ((1, -1) if d == 0 else (d,)):
                j = i + step
                if not 0 <= j < n:
                    continue
                p = line[j]
                if board[p] == colour:
                    continue
                for q in sorted(group):
                    rest = group - {q}
                    if not connected(n, rest):
                        continue
                    if not any(x in rest for x in neighbours(n, p)):
                        continue
                    new, group2, red2, ended = _place(n, board, group, q, p, line)
                    red2 = red2 or reduced
                    yield new, group2, red2, ended
                    if any_reduction and red2:
                        return
                    if not ended:
                        todo.append((new, group2, j, step, red2))
        del index


def _slides(n: int, grid: Grid, s: Point) -> Iterator[tuple[Grid, bool]]:
    colour = grid[s]
    for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        c, r = s[0] + dc, s[1] + dr
        while 0 <= c < n and 0 <= r < n:
            here = grid[(c, r)]
            if here == colour:
                break
            new = dict(grid)
            new[s] = "."
            reduced = here != "."
            if reduced:
                for x in _unit_of(n, new, (c, r)):
                    new[x] = "."
            new[(c, r)] = colour
            if any(new[x] == colour for x in neighbours(n, (c, r))):
                reduced = True
            yield new, reduced
            if here != ".":
                break
            c, r = c + dc, r + dr


def engaged_brute(n: int, grid: Grid, unit: frozenset[Point]) -> bool:
    """The definition: some physical turn of the unit joins or captures."""
    if len(unit) == 1:
        return any(reduced for _, reduced in _slides(n, grid, next(iter(unit))))
    return any(reduced for _, _, reduced, _ in _group_turns(n, grid, unit, any_reduction=True))


def winner(text: str) -> str | None:
    """'b', 'w' or None (game goes on): section 4, without the no-legal-turn fallback."""
    n, grid, side = parse(text)
    b = len(units(n, grid, "b"))
    w = len(units(n, grid, "w"))
    if b == 0:
        return "w"
    if w == 0:
        return "b"
    if b == 1 and w == 1:
        return "w" if side == "b" else "b"
    if b == 1:
        return "b"
    if w == 1:
        return "w"
    return None


def successors(text: str) -> set[str]:
    """Every distinct position one legal turn reaches (none once the game is over).

    The careful version a good engineer writes in an afternoon (the one the
    benchmarks time): the board as a list of characters with a neighbour and
    line table per size, a depth-first search of each group's chains with its
    states de-duplicated, and the two cuts section 8 of the rules file gives
    (an engaged unit only walks lines holding a target, and a chain that has not
    reduced yet stops where no target lies ahead).
    """
    _, board_field, side = text.split()
    rows = board_field.split("/")
    n = len(rows)
    board = list("".join(reversed(rows)))
    near, lines = _tables(n)
    enemy = "w" if side == "b" else "b"
    if _few_units(board, side, near) <= 1 or _few_units(board, enemy, near) <= 1:
        return set()
    out: set[str] = set()
    for unit in _units(board, side, near):
        targets = _targets(board, unit, side, near)
        engaged = any(p in targets for line in _unit_lines(unit, n, lines) for p in line)
        if len(unit) == 1:
            (s,) = unit
            for after, reduced, at in _slide_ends(board, s, side, near, n):
                if reduced if engaged else _engaged_at(after, at, side, near, n, lines):
                    out.add(_text(after, n, enemy))
            continue
        for after, group, reduced in _chains(board, unit, side, engaged, targets, near, lines, n):
            if reduced if engaged else _engaged(after, group, side, near, n, lines):
                out.add(_text(after, n, enemy))
    return out


def _tables(n: int) -> tuple[list[list[int]], list[list[int]]]:
    """Each point's neighbours, and the lines: rows 0..n-1 then columns 0..n-1."""
    near = []
    for p in range(n * n):
        r, c = divmod(p, n)
        near.append([q for q, ok in ((p + n, r + 1 < n), (p - n, r > 0), (p + 1, c + 1 < n),
                                    (p - 1, c > 0)) if ok])
    lines = [[r * n + c for c in range(n)] for r in range(n)]
    lines += [[r * n + c for r in range(n)] for c in range(n)]
    return near, lines


def _text(board: list[str], n: int, side: str) -> str:
    flat = "".join(board)
    return "raindrops " + "/".join(flat[r * n:(r + 1) * n] for r in range(n - 1, -1, -1)) + \
        " " + side


def _flood(board: list[str], start: int, near: list[list[int]]) -> set[int]:
    colour = board[start]
    found = {start}
    todo = [start]
    while todo:
        p = todo.pop()
        for q in near[p]:
            if board[q] == colour and q not in found:
                found.add(q)
                todo.append(q)
    return found


def _units(board: list[str], colour: str, near: list[list[int]]) -> list[set[int]]:
    seen: set[int] = set()
    out = []
    for p, c in enumerate(board):
        if c == colour and p not in seen:
            unit = _flood(board, p, near)
            seen |= unit
            out.append(unit)
    return out


def _few_units(board: list[str], colour: str, near: list[list[int]]) -> int:
    """0, 1 or 2 (two or more)."""
    pieces = [p for p, c in enumerate(board) if c == colour]
    if not pieces:
        return 0
    return 1 if len(_flood(board, pieces[0], near)) == len(pieces) else 2


def _unit_lines(unit: set[int], n: int, lines: list[list[int]]) -> list[list[int]]:
    rows = sorted({p // n for p in unit})
    cols = sorted({p % n for p in unit})
    return [lines[r] for r in rows] + [lines[n + c] for c in cols]


def _targets(board: list[str], unit: set[int], colour: str, near: list[list[int]]) -> set[int]:
    """E1's points for ``unit``: enemy pieces, friendly pieces of other units, and empty
    points next to those friendly pieces."""
    out = set()
    for p, c in enumerate(board):
        if c == "." or p in unit:
            continue
        out.add(p)
        if c == colour:
            out.update(q for q in near[p] if board[q] == ".")
    return out


def _engaged(board: list[str], group: set[int], colour: str, near: list[list[int]], n: int,
             lines: list[list[int]]) -> bool:
    targets = _targets(board, group, colour, near)
    return any(p in targets for line in _unit_lines(group, n, lines) for p in line)


def _engaged_at(board: list[str], at: int, colour: str, near: list[list[int]], n: int,
                lines: list[list[int]]) -> bool:
    return _engaged(board, _flood(board, at, near), colour, near, n, lines)


def _slide_ends(board: list[str], s: int, colour: str, near: list[list[int]], n: int
                ) -> list[tuple[list[str], bool, int]]:
    out = []
    r0, c0 = divmod(s, n)
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        r, c = r0 + dr, c0 + dc
        while 0 <= r < n and 0 <= c < n:
            p = r * n + c
            here = board[p]
            if here == colour:
                break
            after = board[:]
            after[s] = "."
            reduced = here != "."
            if reduced:
                for x in _flood(after, p, near):
                    after[x] = "."
            after[p] = colour
            if any(after[q] == colour for q in near[p]):
                reduced = True
            out.append((after, reduced, p))
            if here != ".":
                break
            r, c = r + dr, c + dc
    return out


def _connected(points: set[int], near: list[list[int]]) -> bool:
    start = next(iter(points))
    found = {start}
    todo = [start]
    while todo:
        p = todo.pop()
        for q in near[p]:
            if q in points and q not in found:
                found.add(q)
                todo.append(q)
    return len(found) == len(points)


def _cut_points(group: set[int], near: list[list[int]]) -> set[int]:
    """The pieces whose lifting would split ``group`` (Tarjan's articulation points)."""
    start = next(iter(group))
    depth = {start: 0}
    low = {start: 0}
    cuts: set[int] = set()
    children = 0
    stack = [(start, -1, iter(near[start]))]
    while stack:
        p, parent, rest = stack[-1]
        for q in rest:
            if q not in group:
                continue
            if q not in depth:
                depth[q] = low[q] = depth[p] + 1
                stack.append((q, p, iter(near[q])))
                if p == start:
                    children += 1
                break
            if q != parent:
                low[p] = min(low[p], depth[q])
        else:
            stack.pop()
            if parent >= 0:
                low[parent] = min(low[parent], low[p])
                if parent != start and low[p] >= depth[parent]:
                    cuts.add(parent)
    if children > 1:
        cuts.add(start)
    return cuts


def _chains(board: list[str], unit: set[int], colour: str, engaged: bool, targets: set[int],
            near: list[list[int]], lines: list[list[int]], n: int
            ) -> list[tuple[list[str], set[int], bool]]:
    """Every (board, group, reduced) after a placement of a chain of the group."""
    out: list[tuple[list[str], set[int], bool]] = []
    for line in _unit_lines(unit, n, lines):
        on_line = set(line)
        if engaged and not on_line & targets:
            continue
        seen: set[tuple[str, int, int]] = set()
        todo: list[tuple[list[str], set[int], int, int, bool]] = []

        def place(cur: list[str], group: set[int], j: int, d: int, reduced: bool,
                  line: list[int] = line, on_line: set[int] = on_line,
                  seen: set[tuple[str, int, int]] = seen,
                  todo: list[tuple[list[str], set[int], int, int, bool]] = todo) -> None:
            p = line[j]
            cuts = _cut_points(group, near)
            for q in sorted(group):
                rest = group - {q}
                if q in cuts or not any(x in rest for x in near[p]):
                    continue
                after = cur[:]
                after[q] = "."
                capture = after[p] != "."
                if capture:
                    for x in _flood(after, p, near):
                        after[x] = "."
                after[p] = colour
                grown = rest | {p}
                ended = capture
                joined = False
                for x in near[p]:
                    if after[x] == colour and x not in grown:
                        other = _flood(after, x, near) - grown
                        grown |= other
                        joined = True
                        ended = ended or bool(other & on_line)
                now = reduced or capture or joined
                out.append((after, grown, now))
                if not ended:
                    key = ("".join(after), j, d)
                    if key not in seen:
                        seen.add(key)
                        todo.append((after, grown, j, d, now))

        for j, p in enumerate(line):
            if board[p] != colour:
                place(board, set(unit), j, 0, False)
        while todo:
            cur, group, i, d, reduced = todo.pop()
            for step in ((1, -1) if d == 0 else (d,)):
                j = i + step
                if not 0 <= j < n or cur[line[j]] == colour:
                    continue
                if engaged and not reduced and not any(
                        line[k] in targets for k in range(j, n if step > 0 else -1, step)):
                    continue
                place(cur, group, j, step, reduced)
    return out


def playout(text: str, rng: random.Random) -> str:
    """A random game to the end (a random successor each turn): the winner, 'b' or 'w'."""
    while True:
        found = winner(text)
        if found is not None:
            return found
        text = rng.choice(sorted(successors(text)))


def new_unit_point(old: Grid, new: Grid, s: Point) -> Point:
    colour = old[s]
    for p, ch in new.items():
        if ch == colour and old[p] != colour:
            return p
    raise AssertionError("a slide always lands somewhere")


def _now_engaged(n: int, grid: Grid, _: Point, at: Point) -> bool:
    return engaged_e1(n, grid, frozenset(_unit_of(n, grid, at)))


def follows(text: str, target: str) -> bool:
    """Whether ``target`` is one legal turn away from ``text`` (by listing every successor)."""
    return target in successors(text)
