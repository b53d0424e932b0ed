"""The official apps' move notation (the Java app and crumble-online.com), for import and export.

Rules file, section 10.3, read against the Java app's ``GameBoard``/``Notation`` sources:

- A **piece name** is a walk from the board's bottom-left corner over *board points* (the
  bottom-left and top-right corners of every piece, and the bottom-right corner of the board):
  alternately right and up, each number the count of board points passed on that line, the
  last one landed on (``3,2``: three points right, two up; the first number may be ``0``).
  The piece named is the one whose bottom-left corner the walk ends on.
- A **split**: the first piece cut (leftmost for ``H``, lowest for ``V``), ``H`` (horizontal cut)
  or ``V``, and the number of pieces cut when more than one. A swap after it: ``-k`` (the k-th
  cut piece along the cut) when several were cut, the half ``S-``/``N-`` (after ``H``) or
  ``W-``/``E-`` (after ``V``) unless the first direction implies it, then the directions.
- A **join**: the bottom-left piece, ``J``, the points counted right along the joined piece's
  bottom side and then up its right side (``0J2,2`` joins a 2x2 block at the corner), then the
  directions.

Export writes each piece name as crumble-online.com shows it (its own naming walk, which the
site needs; the Java app reads any walk, though it may display another name for the piece).
Import accepts any walk.
"""

from __future__ import annotations

import bisect
import logging
import re

from companion.games.base import IllegalTurn
from companion.games.crumble.engine import Work, crossing, halves, midline, piece_name
from companion.games.crumble.geometry import Rect
from companion.games.crumble.position import CrumblePosition
from companion.games.crumble.turns import play_turn, read_turn, swap_start

LOGGER = logging.getLogger(__name__)

_MOVE = re.compile(r"^([0-9]{1,9}(?:,[0-9]{1,9})*)([HVJ])(.*)$")
_SPLIT_REST = re.compile(r"^([0-9]{0,9})(?:-([0-9]{1,9}))?(?:([NESW])-)?([NESW]*)$")
_JOIN = re.compile(r"^([0-9]{1,9}),([0-9]{1,9})([NESW]*)$")


class _Points:
    """The board points of a position, by row and by column (scaled units)."""

    def __init__(self, pos: CrumblePosition) -> None:
        state = pos.state
        points = {(state.scaled_width, 0)}
        for x, y, w, h in state.rects:
            points.add((x, y))
            points.add((x + w, y + h))
        self.rows: dict[int, list[int]] = {}
        self.cols: dict[int, list[int]] = {}
        for x, y in sorted(points):
            self.rows.setdefault(y, []).append(x)
            self.cols.setdefault(x, []).append(y)
        self.corner = {(x, y): i for i, (x, y, _, _) in enumerate(state.rects)}

    def move(self, point: tuple[int, int], count: int, up: bool) -> tuple[int, int] | None:
        """The ``count``-th board point right of (above) ``point``; None if there is none."""
        x, y = point
        if count == 0:
            return point
        line, at = (self.cols[x], y) if up else (self.rows[y], x)
        k = bisect.bisect_left(line, at) + count
        if k >= len(line):
            return None
        return (x, line[k]) if up else (line[k], y)

    def between(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        """1 + the board points strictly between ``a`` and ``b`` on their common line."""
        if a[0] == b[0]:
            line = self.cols[a[0]]
            return bisect.bisect_left(line, b[1]) - bisect.bisect_right(line, a[1]) + 1
        line = self.rows[a[1]]
        return bisect.bisect_left(line, b[0]) - bisect.bisect_right(line, a[0]) + 1

    def walk(self, name: str) -> tuple[int, int]:
        point: tuple[int, int] | None = (0, 0)
        for k, part in enumerate(name.split(",")):
            assert point is not None
            point = self.move(point, int(part), up=bool(k % 2))
            if point is None:
                raise IllegalTurn(f"official piece name {name!r} walks off the board points")
        assert point is not None
        return point

    def names(self, rects: tuple[Rect, ...]) -> dict[tuple[int, int], str]:
        """Every piece's name as crumble-online.com shows it, by bottom-left corner.

        Its ``updateNotations``: a depth-first walk from the corner piece, naming each piece
        on first reach from the piece below it (same left side) or left of it (same bottom),
        counts of board points passed added up while the direction stays the same."""
        by_corner = {(x, y): (x, y, w, h) for x, y, w, h in rects}
        names: dict[tuple[int, int], list[int]] = {(0, 0): [0]}
        stack: list[tuple[tuple[int, int], bool]] = [((0, 0), False)]

        def reach(src: tuple[int, int], dst: tuple[int, int], up: bool) -> bool:
            if dst not in by_corner or dst in names:
                return False
            moves = names[src][:]
            count = self.between(src, dst)
            if (len(moves) % 2 == 0) == up:
                moves[-1] += count
            else:
                moves.append(count)
            names[dst] = moves
            return True

        while stack:
            corner, came_up = stack.pop()
            x, y, w, h = by_corner[corner]
            above, right = (x, y + h), (x + w, y)
            if not came_up and reach(corner, above, True):
                stack.append((above, True))
            if reach(corner, right, False):
                stack.append((right, False))
            if came_up and reach(corner, above, True):
                stack.append((above, True))
        return {c: ",".join(str(n) for n in moves) for c, moves in names.items()}


def to_official(pos: CrumblePosition, turn: str) -> str:
    """A legal turn text of ours written in the official apps' notation."""
    played = play_turn(pos, turn)  # checks legality
    parsed = read_turn(pos, played.turn)
    action = parsed.action
    state = pos.state
    points = _Points(pos)
    names = points.names(state.rects)
    if action.kind == "join":
        x, y, w, h = action.added[0]
        first = names[(x, y)]
        dx = points.between((x, y), (x + w, y))
        dy = points.between((x + w, y), (x + w, y + h))
        return f"{first}J{dx},{dy}{parsed.dirs}"
    cut = list(action.removed)
    first_rect = state.rects[cut[0]]
    out = names[(first_rect[0], first_rect[1])] + ("H" if action.horizontal else "V")
    if len(cut) > 1:
        out += str(len(cut))
    if not parsed.dirs:
        return out
    work = Work(pos, action)
    start = work.rects[swap_start(pos, work, parsed)]
    k, low_half = next((k, halves(state.rects[i], action.horizontal)[0] == start)
                       for k, i in enumerate(cut)
                       if start in halves(state.rects[i], action.horizontal))
    half = ("S" if low_half else "N") if action.horizontal else ("W" if low_half else "E")
    implied = parsed.dirs[0] in (("N", "S") if action.horizontal else ("E", "W"))
    if len(cut) > 1:
        out += f"-{k + 1}{half}-"
    elif not implied:
        out += f"{half}-"
    return out + parsed.dirs


def _select(new: list[Rect], index: int, letter: str) -> Rect:
    """The Java app's choice of start piece: the ``index``-th new piece on the side ``letter``."""
    if letter in "NS":
        edge = max(r[1] for r in new) if letter == "N" else min(r[1] for r in new)
        row = sorted((r for r in new if r[1] == edge), key=lambda r: r[0])
    else:
        edge = max(r[0] for r in new) if letter == "E" else min(r[0] for r in new)
        row = sorted((r for r in new if r[0] == edge), key=lambda r: r[1])
    if not 1 <= index <= len(row):
        raise IllegalTurn(f"official notation: there is no split piece number {index}")
    return row[index - 1]


def from_official(pos: CrumblePosition, notation: str) -> str:
    """A turn in the official apps' notation as our canonical turn text; IllegalTurn."""
    text = notation.strip().upper()
    match = _MOVE.match(text)
    if not match:
        raise IllegalTurn(f"{notation!r} is not official notation (e.g. 3,2H, 1,4HN, 0J2,2NE)")
    name, kind, rest = match.groups()
    state = pos.state
    points = _Points(pos)
    corner = points.walk(name)
    first = points.corner.get(corner)
    if first is None:
        raise IllegalTurn(f"official piece name {name!r} is no piece's bottom-left corner")
    scale = state.scale
    if kind == "J":
        join = _JOIN.match(rest)
        if not join:
            raise IllegalTurn(f"{notation!r}: a join is written NAMEJdx,dy then directions")
        bottom_right = points.move(corner, int(join.group(1)), up=False)
        top_right = None if bottom_right is None else points.move(
            bottom_right, int(join.group(2)), up=True)
        if top_right is None:
            raise IllegalTurn(f"{notation!r}: the join walks off the board points")
        rect = (corner[0], corner[1], top_right[0] - corner[0], top_right[1] - corner[1])
        turn = "+" + piece_name(rect, scale) + (f" >{join.group(3)}" if join.group(3) else "")
        return play_turn(pos, turn).turn
    horizontal = kind == "H"
    split = _SPLIT_REST.match(rest)
    if not split:
        raise IllegalTurn(f"{notation!r}: cannot read {rest!r} after {kind} "
                          f"(count, then -k, the half and the directions)")
    count_text, index_text, half, dirs = split.groups()
    count = int(count_text) if count_text else 1
    head = piece_name(state.rects[first], scale) + ("-" if horizontal else "|")
    along = _along(pos, first, horizontal)
    if count > len(along):
        raise IllegalTurn(f"{notation!r}: the cut does not run through {count} pieces")
    action_text = head + (piece_name(state.rects[along[count - 1]], scale) if count > 1 else "")
    if not dirs:
        if index_text or half:
            raise IllegalTurn(f"{notation!r}: a start piece but no swap directions")
        return play_turn(pos, action_text).turn
    parsed = read_turn(pos, action_text)
    work = Work(pos, parsed.action)
    new = [work.rects[i] for i in work.new]
    start = _select(new, int(index_text) if index_text else 1, half or dirs[0])
    return play_turn(pos, f"{action_text} {piece_name(start, scale)}>{dirs}").turn


def _along(pos: CrumblePosition, first: int, horizontal: bool) -> list[int]:
    """The pieces along the cut line from ``first`` on, in order."""
    state = pos.state
    line = midline(state.rects[first], horizontal)
    pieces = crossing(state, line, horizontal)
    if first not in pieces:
        raise IllegalTurn("official notation: that piece cannot be cut that way")
    return pieces[pieces.index(first):]
