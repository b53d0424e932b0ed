"""A deliberately plain Rumbo, written straight from the rules file for comparison.

No group tables, no bit masks, no shortcuts: every placement copies the board,
looks at every point for holes, flood-fills every group from scratch and judges
every liberty-less unclaimed group against the table. It reads canonical
position texts (valid ones) and shares no code with ``companion.games.rumbo``;
tests cross-check the engine against it and ``bench_rumbo.py`` times both.
"""

from __future__ import annotations

LETTERS = "abcdefghijklmnopqrstuvwxyz"

# direction set (a frozenset of "N", "E", "S", "W") -> owner, the table of section 6
TABLE = {
    frozenset("N"): "v", frozenset("S"): "v", frozenset("E"): "h", frozenset("W"): "h",
    frozenset("NE"): "v", frozenset("SW"): "v", frozenset("NW"): "h", frozenset("SE"): "h",
    frozenset("NSE"): "v", frozenset("NSW"): "v", frozenset("EWN"): "h", frozenset("EWS"): "h",
    frozenset("NS"): "v", frozenset("EW"): "h",
}


class Game:
    """A position read from its text: lists of lists, row 0 = the top row (row N)."""

    def __init__(self, text: str) -> None:
        fields = text.split()
        self.board = [list(row) for row in fields[1].split("/")]
        self.n = len(self.board)
        self.side = fields[2]
        self.komi = fields[3]
        self.claims = [list(row) for row in fields[4].split("/")]
        self.options = fields[5].split(",") if len(fields) > 5 else []

    def copy(self) -> Game:
        other = Game.__new__(Game)
        other.board = [row[:] for row in self.board]
        other.n = self.n
        other.side = self.side
        other.komi = self.komi
        other.claims = [row[:] for row in self.claims]
        other.options = list(self.options)
        return other

    def text(self) -> str:
        stones = "/".join("".join(row) for row in self.board)
        claims = "/".join("".join(row) for row in self.claims)
        options = " " + ",".join(sorted(self.options)) if self.options else ""
        return f"rumbo {stones} {self.side} {self.komi} {claims}{options}"

    def neighbours(self, r: int, c: int) -> list[tuple[str, int, int]]:
        """(direction, row, column) of each neighbour on the board; north is row - 1."""
        out = []
        for d, dr, dc in (("N", -1, 0), ("E", 0, 1), ("S", 1, 0), ("W", 0, -1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < self.n and 0 <= cc < self.n:
                out.append((d, rr, cc))
        return out

    def is_hole(self, r: int, c: int) -> bool:
        if self.board[r][c] != ".":
            return False
        around = self.neighbours(r, c)
        if len(around) < 4 and "edgeholes" not in self.options:
            return False
        colours = {self.board[rr][cc] for _, rr, cc in around}
        return len(colours) == 1 and "." not in colours

    def group(self, r: int, c: int) -> tuple[list[tuple[int, int]], int]:
        """The stones of the group at (r, c) and its number of liberties."""
        colour = self.board[r][c]
        stones = [(r, c)]
        seen = {(r, c)}
        liberties = set()
        i = 0
        while i < len(stones):
            sr, sc = stones[i]
            i += 1
            for _, rr, cc in self.neighbours(sr, sc):
                if self.board[rr][cc] == ".":
                    liberties.add((rr, cc))
                elif self.board[rr][cc] == colour and (rr, cc) not in seen:
                    seen.add((rr, cc))
                    stones.append((rr, cc))
        return stones, len(liberties)

    def place(self, r: int, c: int, colour: str) -> None:
        """Place, fill every hole on the board, claim every liberty-less unclaimed group."""
        self.board[r][c] = colour
        holes = [(rr, cc) for rr in range(self.n) for cc in range(self.n) if self.is_hole(rr, cc)]
        for rr, cc in holes:
            self.board[rr][cc] = self.neighbour_colour(rr, cc)
        done = set()
        for rr in range(self.n):
            for cc in range(self.n):
                if self.board[rr][cc] == "." or (rr, cc) in done:
                    continue
                stones, liberties = self.group(rr, cc)
                done.update(stones)
                if liberties or self.claims[rr][cc] != ".":
                    continue
                directions = set()
                for d, nr, nc in self.neighbours(r, c):
                    if (nr, nc) in stones:
                        directions.add(d)
                owner = TABLE.get(frozenset(directions), "")
                if owner and "nostraight" in self.options and directions in ({"N", "S"},
                                                                             {"E", "W"}):
                    owner = ""
                if owner:
                    for sr, sc in stones:
                        self.claims[sr][sc] = owner
        self.side = "h" if self.side == "v" else "v"

    def neighbour_colour(self, r: int, c: int) -> str:
        _, rr, cc = self.neighbours(r, c)[0]
        return self.board[rr][cc]

    def full(self) -> bool:
        return all(stone != "." for row in self.board for stone in row)


def turns(text: str) -> list[str]:
    game = Game(text)
    if game.side == "k":
        return [f"komi={k}" for k in range(-game.n * game.n, game.n * game.n + 1)]
    if game.side == "s":
        return ["side=v", "side=h"]
    out: list[str] = []
    if game.full():
        return out
    for r in range(game.n):
        for c in range(game.n):
            if game.board[r][c] == ".":
                for colour in "bw":
                    out.append(f"{colour}@{LETTERS[c]}{game.n - r}")
    return out


def play(text: str, turn: str) -> str:
    """The position after a legal canonical turn."""
    game = Game(text)
    if turn.startswith("komi="):
        game.komi = str(int(turn[5:]))
        game.side = "s"
    elif turn.startswith("side="):
        game.side = "v"
    else:
        colour, point = turn.split("@")
        c = LETTERS.index(point[0])
        r = game.n - int(point[1:])
        game.place(r, c, colour)
    return game.text()


def successors(text: str) -> set[str]:
    """Every distinct position text one turn reaches."""
    game = Game(text)
    if game.side in ("k", "s"):
        return {play(text, turn) for turn in turns(text)}
    out = set()
    for r in range(game.n):
        for c in range(game.n):
            if game.board[r][c] != ".":
                continue
            for colour in "bw":
                after = game.copy()
                after.place(r, c, colour)
                out.add(after.text())
    return out


def outcome(text: str) -> str | None:
    """``"vertical"``, ``"horizontal"``, ``"draw"`` or None while the game goes on."""
    game = Game(text)
    if game.side in ("k", "s") or not game.full():
        return None
    vertical = sum(row.count("v") for row in game.claims)
    horizontal = sum(row.count("h") for row in game.claims) + int(game.komi)
    if vertical == horizontal:
        return "draw"
    return "vertical" if vertical > horizontal else "horizontal"
