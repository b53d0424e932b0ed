"""The Crumble position: its text (rules file, section 9), parsing, validation, and the board.

A :class:`CrumblePosition` is its canonical text; the parsed :class:`State` and the piece
contacts are computed on first use and cached, so successor lists can make positions straight
from the texts the engine writes.
"""

from __future__ import annotations

import itertools
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

from companion.games.base import PositionError
from companion.games.crumble import contacts
from companion.games.crumble.geometry import (
    ALL_SIDES,
    ExactRect,
    Rect,
    fmt,
    legal_shape,
    parse_number,
    rect_text,
    region_text,
    slab_form,
)
from companion.limits import is_digits

LOGGER = logging.getLogger(__name__)

NAME = "crumble"
BLACK, WHITE = 0, 1
COLOUR_LETTER = "bw"
SIDE_NAME = ("black", "white")
DRAW_VALUES = ("0", "1", "2", "3", "=")
MAX_SIZE = 26

Region = tuple[ExactRect, ...]


@dataclass(frozen=True)
class State:
    """A parsed position: pieces as scaled integer rectangles sorted by (y, x)."""

    width: int
    height: int
    scale: int
    rects: tuple[Rect, ...]
    colours: bytes
    side: int
    draw: str
    history: tuple[Region | None, ...]

    @property
    def scaled_width(self) -> int:
        return self.width * self.scale

    @property
    def scaled_height(self) -> int:
        return self.height * self.scale

    def history_texts(self) -> tuple[str, ...]:
        return tuple(region_text(r) for r in self.history)

    def text(self) -> str:
        board = ";".join(
            f"{rect_text(r, self.scale)},{COLOUR_LETTER[c]}"
            for r, c in zip(self.rects, self.colours, strict=True))
        return (f"{NAME} {self.width}x{self.height} {board} {COLOUR_LETTER[self.side]} "
                f"{self.draw} {'|'.join(self.history_texts())}")


@dataclass(frozen=True)
class Board:
    """The contacts of a state's pieces, and the sides each piece touches."""

    side: list[list[int]]
    point: list[list[int]]
    swap: list[list[int]]
    edges: list[int]

    @classmethod
    def of(cls, state: State) -> Board:
        side, point, swap = contacts.build(state.rects)
        w, h = state.scaled_width, state.scaled_height
        return cls(side, point, swap, [contacts.edge_mask(r, w, h) for r in state.rects])


def four_sided_colours(rects: tuple[Rect, ...] | list[Rect], colours: bytes | bytearray,
                       board: Board) -> set[int]:
    """The colours that have a chain touching all four board sides."""
    seen = [False] * len(rects)
    out: set[int] = set()
    for start in range(len(rects)):
        if seen[start] or rects[start][2] <= 0:
            continue
        colour = colours[start]
        seen[start] = True
        stack = [start]
        mask = 0
        while stack:
            i = stack.pop()
            mask |= board.edges[i]
            for j in board.side[i]:
                if not seen[j] and colours[j] == colour:
                    seen[j] = True
                    stack.append(j)
        if mask == ALL_SIDES:
            out.add(colour)
    return out


def enclosed_clusters(rects: tuple[Rect, ...] | list[Rect], colours: bytes | bytearray,
                      board: Board) -> list[list[int]]:
    """Every cluster (point contacts, one colour) none of whose pieces touches a board side."""
    seen = [False] * len(rects)
    out: list[list[int]] = []
    for start in range(len(rects)):
        if seen[start] or rects[start][2] <= 0:
            continue
        colour = colours[start]
        seen[start] = True
        cluster = [start]
        k = 0
        while k < len(cluster):
            for j in board.point[cluster[k]]:
                if not seen[j] and colours[j] == colour:
                    seen[j] = True
                    cluster.append(j)
            k += 1
        if not any(board.edges[i] for i in cluster):
            out.append(cluster)
    return out


@dataclass(frozen=True)
class CrumblePosition:
    """A Crumble position; equal exactly when the canonical texts are equal."""

    canonical: str = field(repr=True)

    @property
    def to_move(self) -> str:
        return SIDE_NAME[self.state.side]

    def text(self) -> str:
        return self.canonical

    def cells(self) -> Mapping[str, str]:
        """Every piece, named ``x,y,w,h`` (exact, lowest terms), and its colour ``b``/``w``."""
        state = self.state
        return {rect_text(r, state.scale): COLOUR_LETTER[c]
                for r, c in zip(state.rects, state.colours, strict=True)}

    @cached_property
    def state(self) -> State:
        state, board = read_state_and_board(self.canonical)
        self.__dict__["board"] = board
        return state

    @cached_property
    def board(self) -> Board:
        return Board.of(self.state)

    @cached_property
    def index(self) -> dict[Rect, int]:
        """Piece index by rectangle (scaled units)."""
        return {r: i for i, r in enumerate(self.state.rects)}

    @cached_property
    def chains(self) -> tuple[list[int], list[int]]:
        """Each piece's chain number, and each chain's sides touched (bits N E S W)."""
        state, board = self.state, self.board
        colours = state.colours
        chain = [-1] * len(state.rects)
        masks: list[int] = []
        for start in range(len(chain)):
            if chain[start] >= 0:
                continue
            number = len(masks)
            chain[start] = number
            mask = 0
            stack = [start]
            while stack:
                i = stack.pop()
                mask |= board.edges[i]
                for j in board.side[i]:
                    if chain[j] < 0 and colours[j] == colours[start]:
                        chain[j] = number
                        stack.append(j)
            masks.append(mask)
        return chain, masks

    @cached_property
    def clusters(self) -> list[int]:
        """Each piece's cluster number (same colour, joined through sides or corners)."""
        state, board = self.state, self.board
        colours = state.colours
        cluster = [-1] * len(state.rects)
        number = 0
        for start in range(len(cluster)):
            if cluster[start] >= 0:
                continue
            cluster[start] = number
            stack = [start]
            while stack:
                i = stack.pop()
                for j in board.point[i]:
                    if cluster[j] < 0 and colours[j] == colours[start]:
                        cluster[j] = number
                        stack.append(j)
            number += 1
        return cluster

    @cached_property
    def edge_distance(self) -> list[int]:
        """Each piece's distance, in point contacts through its own colour, from a piece
        touching a board side (0 for those); every piece of a position has one."""
        state, board = self.state, self.board
        colours = state.colours
        dist = [-1] * len(state.rects)
        queue = [i for i in range(len(dist)) if board.edges[i]]
        for i in queue:
            dist[i] = 0
        k = 0
        while k < len(queue):
            i = queue[k]
            k += 1
            for j in board.point[i]:
                if dist[j] < 0 and colours[j] == colours[i]:
                    dist[j] = dist[i] + 1
                    queue.append(j)
        return dist

    @cached_property
    def winners(self) -> frozenset[int]:
        state = self.state
        return frozenset(four_sided_colours(state.rects, state.colours, self.board))

    def __str__(self) -> str:
        return self.canonical


_SIZE = re.compile(r"^([0-9]{1,9})x([0-9]{1,9})$")


def _rect_fields(item: str, count: int, what: str) -> list[Fraction]:
    parts = item.split(",")
    if len(parts) != count:
        raise PositionError(f"{what}: {item!r} needs {count} comma-separated fields")
    try:
        return [parse_number(p) for p in parts[:4]]
    except ValueError as exc:
        raise PositionError(f"{what}: {item!r}: {exc}") from None


def read_state(text: str) -> State:
    """Parse and validate a position text; :class:`PositionError` (see read_state_and_board)."""
    return read_state_and_board(text)[0]


def _dyadic(text: str, item: str, what: str) -> tuple[int, int]:
    """``7`` or ``p/q`` (q a power of two) as (numerator, denominator) in lowest terms."""
    head, slash, tail = text.partition("/")
    if not is_digits(head) or (slash and not is_digits(tail)):
        raise PositionError(f"{what}: {item!r}: {text!r} is not a number (write 3 or 3/4)")
    n, d = int(head), int(tail) if slash else 1
    if d == 0 or d & (d - 1):
        raise PositionError(
            f"{what}: {item!r}: {text!r} is not dyadic (the denominator is a power of two)")
    while d > 1 and not n & 1:
        n >>= 1
        d >>= 1
    return n, d


def read_state_and_board(text: str) -> tuple[State, Board]:
    """Parse and validate a position text (rules file, section 9); :class:`PositionError`.

    Accepted beyond the canonical form: surrounding and repeated spaces, numbers not in lowest
    terms (``2/4``), pieces in any order, history regions in any rectangle decomposition.
    """
    fields = text.split()
    if len(fields) != 6:
        raise PositionError(
            f"a crumble position has 6 fields (crumble WxH BOARD SIDE DRAW HISTORY), "
            f"not {len(fields)}")
    if fields[0] != NAME:
        raise PositionError(f"first field {fields[0]!r}: expected {NAME!r}")
    size = _SIZE.match(fields[1])
    if not size:
        raise PositionError(f"size field {fields[1]!r}: write WxH, e.g. 6x6")
    width, height = int(size.group(1)), int(size.group(2))
    if not (1 <= width <= MAX_SIZE and 1 <= height <= MAX_SIZE):
        raise PositionError(f"size field {fields[1]!r}: 1 to {MAX_SIZE} each way")
    raw: list[tuple[list[tuple[int, int]], int, str]] = []
    denominator = 1
    for item in fields[2].split(";"):
        parts = item.split(",")
        if len(parts) != 5:
            raise PositionError(f"board field: {item!r} needs 5 comma-separated fields")
        if parts[4] not in ("b", "w"):
            raise PositionError(f"board field: {item!r}: colour must be b or w")
        numbers = [_dyadic(p, item, "board field") for p in parts[:4]]
        denominator = max(denominator, *(d for _, d in numbers))
        raw.append((numbers, COLOUR_LETTER.index(parts[4]), item))
    if fields[3] not in ("b", "w"):
        raise PositionError(f"side field {fields[3]!r}: b or w")
    if fields[4] not in DRAW_VALUES:
        raise PositionError(f"draw field {fields[4]!r}: one of {', '.join(DRAW_VALUES)}")
    history = _read_history(fields[5], width, height)
    scale = 2 * denominator
    pieces = []
    for numbers, c, item in raw:
        x, y, w, h = (n * (scale // d) for n, d in numbers)
        if not legal_shape(w, h):
            raise PositionError(
                f"board field: {item!r} is not a square or a 2:1 half-square of positive size")
        if x + w > width * scale or y + h > height * scale:
            raise PositionError(f"board field: {item!r} sticks out of the {width}x{height} board")
        pieces.append((y, x, (x, y, w, h), c))
    pieces.sort()
    rects = tuple(p[2] for p in pieces)
    colours = bytes(p[3] for p in pieces)
    _check_tiling(rects, width * scale, height * scale, scale)
    state = State(width, height, scale, rects, colours, COLOUR_LETTER.index(fields[3]),
                  fields[4], history)
    board = Board.of(state)
    if enclosed_clusters(rects, colours, board):
        raise PositionError("board field: a cluster touching no board side stands uncaptured")
    if len(four_sided_colours(rects, colours, board)) == 2:
        raise PositionError("board field: both colours have a chain touching all four sides")
    return state, board


def _read_history(field_text: str, width: int, height: int) -> tuple[Region | None, ...]:
    entries = field_text.split("|")
    if len(entries) != 4:
        raise PositionError(
            f"history field {field_text!r}: four entries R1|R2|R3|R4 ('-' for none)")
    out: list[Region | None] = []
    for k, entry in enumerate(entries, 1):
        if entry == "-":
            out.append(None)
            continue
        if out and out[-1] is None:
            raise PositionError(f"history field: R{k} follows a '-' (only '-' may follow '-')")
        rects: list[ExactRect] = []
        for item in entry.split(";"):
            x, y, w, h = _rect_fields(item, 4, f"history field R{k}")
            if w <= 0 or h <= 0:
                raise PositionError(f"history field R{k}: {item!r} is empty")
            if x + w > width or y + h > height:
                raise PositionError(f"history field R{k}: {item!r} sticks out of the board")
            rects.append((x, y, w, h))
        out.append(slab_form(rects))
    return tuple(out)


def _check_tiling(rects: tuple[Rect, ...], width: int, height: int, scale: int) -> None:
    """The pieces cover the board exactly: total area right and no two overlap."""
    area = sum(r[2] * r[3] for r in rects)
    if area != width * height:
        raise PositionError(
            "board field: the pieces do not cover the board exactly "
            f"({'gaps' if area < width * height else 'overlaps'})")
    # Sweep by rows of distinct y values: equal area plus no overlap means an exact tiling.
    events = sorted({r[1] for r in rects} | {r[1] + r[3] for r in rects})
    for y0, y1 in itertools.pairwise(events):
        spans = sorted((r[0], r[0] + r[2]) for r in rects if r[1] <= y0 and r[1] + r[3] >= y1)
        end = 0
        for a, b in spans:
            if a < end:
                raise PositionError(
                    f"board field: pieces overlap at x={fmt(a, scale)}, y={fmt(y0, scale)}")
            end = b
