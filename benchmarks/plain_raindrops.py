"""A deliberately plain Raindrops implementation: the peer for the benchmarks and tests.

Written straight from the rules file with dictionaries, sets and loops (no bit
boards, no pruning, nothing shared with ``companion.games.raindrops``).
Positions are canonical position texts. ``successors(text)`` is every
distinct position one legal turn reaches; ``engaged_e1`` is the closed form E1,
``engaged_brute`` the definition (can the unit join or capture in one turn,
ignoring L1 and L2), so tests can check one against the other.
"""

from __future__ import annotations

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
    """Every distinct position one legal turn reaches (none once the game is over)."""
    if winner(text) is not None:
        return set()
    n, grid, side = parse(text)
    other = "w" if side == "b" else "b"
    out: set[str] = set()
    for unit in units(n, grid, side):
        engaged = engaged_e1(n, grid, unit)
        if len(unit) == 1:
            s = next(iter(unit))
            for new, reduced in _slides(n, grid, s):
                if reduced if engaged else _now_engaged(n, new, s, new_unit_point(grid, new, s)):
                    out.add(write(n, new, other))
            continue
        for new, group, reduced, _ in _group_turns(n, grid, unit):
            if engaged:
                if reduced:
                    out.add(write(n, new, other))
            elif engaged_e1(n, new, frozenset(group)):
                out.add(write(n, new, other))
    return out


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
