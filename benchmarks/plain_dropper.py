"""A deliberately plain Dropper, written straight from the rules file.

Grids of characters, loops over every point and its eight neighbours, a new
grid copied for every try: no bit masks, nothing shared with
``companion.games.dropper``. It is the peer the benchmark measures the engine
against, and the second implementation the tests check the engine with.
"""

from __future__ import annotations

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def read(text: str) -> tuple[list[list[str]], str]:
    """Position text -> (grid of rows, top row first; side to move)."""
    name, board, side = text.split()
    assert name == "dropper"
    return [list(row) for row in board.split("/")], side


def write(grid: list[list[str]], side: str) -> str:
    return "dropper " + "/".join("".join(row) for row in grid) + " " + side


def neighbours(grid: list[list[str]], r: int, c: int) -> list[tuple[int, int]]:
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == 0 and dc == 0:
                continue
            rr, cc = r + dr, c + dc
            if 0 <= rr < len(grid) and 0 <= cc < len(grid[0]):
                out.append((rr, cc))
    return out


def is_free(grid: list[list[str]], r: int, c: int) -> bool:
    if grid[r][c] != ".":
        return False
    return all(grid[rr][cc] == "." for rr, cc in neighbours(grid, r, c))


def free_points(grid: list[list[str]]) -> list[tuple[int, int]]:
    return [(r, c) for r in range(len(grid)) for c in range(len(grid[0])) if is_free(grid, r, c)]


def copy(grid: list[list[str]]) -> list[list[str]]:
    return [row[:] for row in grid]


def point(grid: list[list[str]], r: int, c: int) -> str:
    return f"{LETTERS[c]}{len(grid) - r}"


def turns(text: str) -> dict[str, str]:
    """Every legal turn text -> the position text it reaches."""
    grid, me = read(text)
    them = "b" if me == "w" else "w"
    out: dict[str, str] = {}
    dropped = False
    for r in range(len(grid)):
        for c in range(len(grid[0])):
            if grid[r][c] != them:
                continue
            for rr, cc in neighbours(grid, r, c):
                if grid[rr][cc] != ".":
                    continue
                dropped = True
                after = copy(grid)
                after[rr][cc] = them
                after[r][c] = me
                drop = point(grid, r, c) + ">" + point(grid, rr, cc)
                spots = free_points(after)
                if not spots:
                    out[drop] = write(after, them)
                for fr, fc in spots:
                    final = copy(after)
                    final[fr][fc] = me
                    out[drop + "+" + point(grid, fr, fc)] = write(final, them)
    if not dropped:
        for fr, fc in free_points(grid):
            final = copy(grid)
            final[fr][fc] = me
            out[point(grid, fr, fc)] = write(final, them)
    return out


def successors(text: str) -> set[str]:
    """Every position text one legal turn reaches."""
    return set(turns(text).values())


def groups(grid: list[list[str]], colour: str) -> list[int]:
    """Sizes of the orthogonal groups of ``colour``, largest first."""
    seen: set[tuple[int, int]] = set()
    sizes = []
    for r in range(len(grid)):
        for c in range(len(grid[0])):
            if grid[r][c] != colour or (r, c) in seen:
                continue
            stack = [(r, c)]
            seen.add((r, c))
            size = 0
            while stack:
                pr, pc = stack.pop()
                size += 1
                for rr, cc in ((pr - 1, pc), (pr + 1, pc), (pr, pc - 1), (pr, pc + 1)):
                    if (0 <= rr < len(grid) and 0 <= cc < len(grid[0])
                            and grid[rr][cc] == colour and (rr, cc) not in seen):
                        seen.add((rr, cc))
                        stack.append((rr, cc))
            sizes.append(size)
    return sorted(sizes, reverse=True)


def outcome(text: str) -> str | None:
    """None while the game goes on; else "white", "black" or "draw"."""
    if turns(text):
        return None
    grid, _ = read(text)
    white, black = groups(grid, "w"), groups(grid, "b")
    for i in range(max(len(white), len(black))):
        a = white[i] if i < len(white) else 0
        b = black[i] if i < len(black) else 0
        if a != b:
            return "white" if a > b else "black"
    return "draw"
