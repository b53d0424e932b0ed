"""Following a stone game on a physical board: sensed boards -> committed turns.

A sensor (the camera, a reed-switch board) reports settled boards as
:class:`StoneSnapshot`: every cell ``"."``, ``"b"``, ``"w"``, or ``"x"``
(occupied, colour unknown: an occupancy-only board). :class:`StoneFollower`
compares each with the game:

- the board the turn started from: nothing to do;
- the board after one legal turn: :class:`TurnSeen` (commit it); after two or
  more different turns that look alike: :class:`TurnsFit` (ask which, naming
  them);
- the board part-way through a turn (a drop made, the free stone not yet
  placed): :class:`TurnUnfinished`, with what to do next;
- anything else: :class:`BoardMismatch`, guiding in words towards the
  nearest legal board ("the white stone on d4 should be on e5").

Turns are found with the game's step-wise builder, following only the steps
whose changes agree with the sensed board, so games whose turn spaces reach
hundreds of thousands are never listed whole; every candidate is confirmed
with ``rules.turns_to``. For an occupancy-only board the order in which cells
changed (:meth:`StoneFollower.changes`) tells apart turns that end on the same
occupancy (which stone was pushed where, which was the free stone).
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import GameRules, Position, TurnBuilder

LOGGER = logging.getLogger(__name__)

EMPTY, BLACK, WHITE, OCCUPIED = ".", "b", "w", "x"
SENSED = (EMPTY, BLACK, WHITE, OCCUPIED)
COLOUR_WORDS = {BLACK: "black", WHITE: "white", OCCUPIED: "a"}
SEARCH_LIMIT = 20_000
"""Builder nodes visited at most for one board (far more than any real turn needs)."""
NEAREST_TURNS = 3_000
"""Successors compared at most when guiding towards the nearest legal board."""


class StoneSyncError(ValueError):
    """A sensed board that does not fit the game's board (wrong size, unknown cell)."""


@dataclasses.dataclass(frozen=True)
class StoneSnapshot:
    """A settled board: cell -> ``"."``, ``"b"``, ``"w"`` or ``"x"`` (occupied)."""

    cells: Mapping[str, str]
    timestamp: float = 0.0
    source: str = ""

    def __post_init__(self) -> None:
        cells = dict(self.cells)
        bad = sorted(c for c, v in cells.items() if v not in SENSED)
        if bad:
            raise StoneSyncError(f"cell {bad[0]} holds {cells[bad[0]]!r}; a sensed cell is "
                                 f"one of {', '.join(SENSED)}")
        object.__setattr__(self, "cells", cells)

    @property
    def occupancy_only(self) -> bool:
        return OCCUPIED in self.cells.values()


@dataclasses.dataclass(frozen=True)
class TurnSeen:
    """The board shows one legal turn: commit it."""

    turn: str


@dataclasses.dataclass(frozen=True)
class TurnsFit:
    """Several legal turns give this board: ask the players which."""

    turns: tuple[str, ...]
    message: str


@dataclasses.dataclass(frozen=True)
class TurnUnfinished:
    """The board is part-way through a legal turn."""

    steps: tuple[str, ...]
    message: str


@dataclasses.dataclass(frozen=True)
class BoardMismatch:
    """No legal turn gives this board; ``message`` says how to put it right."""

    message: str
    fixes: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class BoardUnchanged:
    """The board still shows the position the turn starts from."""


Verdict = TurnSeen | TurnsFit | TurnUnfinished | BoardMismatch | BoardUnchanged


# ----------------------------------------------------------------------------
# Grid layout: cell names <-> rows of a picture


_CELL = re.compile(r"([a-z]+)([0-9]+)")


def _column_index(letters: str) -> int:
    value = 0
    for char in letters:
        value = value * 26 + (ord(char) - ord("a") + 1)
    return value


@dataclasses.dataclass(frozen=True)
class GridLayout:
    """Where each named cell of a game's board lies: columns left to right,
    rows top first (the highest row number at the top)."""

    columns: tuple[str, ...]
    rows: tuple[int, ...]

    @classmethod
    def of(cls, position: Position) -> GridLayout:
        """The layout of a position's cells (names like ``a1``...``s19``)."""
        columns: set[str] = set()
        rows: set[int] = set()
        for cell in position.cells():
            match = _CELL.fullmatch(cell)
            if match is None:
                raise StoneSyncError(f"cell {cell!r} is not a column letter and row number: "
                                     "this game's board is not a grid a sensor can read")
            columns.add(match.group(1))
            rows.add(int(match.group(2)))
        return cls(tuple(sorted(columns, key=_column_index)), tuple(sorted(rows, reverse=True)))

    @property
    def size(self) -> tuple[int, int]:
        return len(self.columns), len(self.rows)

    def cell(self, row: int, col: int) -> str:
        return f"{self.columns[col]}{self.rows[row]}"

    def cells_of(self, grid: Sequence[str]) -> dict[str, str]:
        """Rows of a picture (top first) -> cell -> content."""
        width, height = self.size
        if len(grid) != height or any(len(row) != width for row in grid):
            raise StoneSyncError(
                f"the sensed board is {len(grid[0]) if grid else 0} x {len(grid)}; "
                f"the game's board is {width} x {height}")
        return {self.cell(r, c): grid[r][c] for r in range(height) for c in range(width)}

    def rows_of(self, cells: Mapping[str, str]) -> tuple[str, ...]:
        width, height = self.size
        return tuple("".join(cells.get(self.cell(r, c), EMPTY) for c in range(width))
                     for r in range(height))


# ----------------------------------------------------------------------------
# Matching


def _seen(value: str, occupancy: bool) -> str:
    if not occupancy:
        return value
    return EMPTY if value == EMPTY else OCCUPIED


def _agrees(changes: Mapping[str, str], target: Mapping[str, str], occupancy: bool) -> bool:
    return all(_seen(v, occupancy) == target.get(c) for c, v in changes.items())


def _differences(cells: Mapping[str, str], target: Mapping[str, str], occupancy: bool
                 ) -> list[str]:
    return [c for c, v in cells.items() if _seen(v, occupancy) != target.get(c, EMPTY)]


@dataclasses.dataclass(frozen=True)
class _Found:
    complete: tuple[tuple[Position, tuple[str, ...]], ...]  # final position, step texts
    partial: tuple[tuple[TurnBuilder[Any], tuple[str, ...]], ...]


def _search(rules: GameRules[Any], pos: Position, target: Mapping[str, str], occupancy: bool
            ) -> _Found:
    """Builder paths whose every change agrees with ``target``."""
    complete: dict[str, tuple[Position, tuple[str, ...]]] = {}
    partial: list[tuple[TurnBuilder[Any], tuple[str, ...]]] = []
    stack: list[TurnBuilder[Any]] = [rules.builder(pos)]
    visited = 0
    while stack and visited < SEARCH_LIMIT:
        builder = stack.pop()
        visited += 1
        if builder.steps and not _differences(builder.position.cells(), target, occupancy):
            texts = tuple(s.text for s in builder.steps)
            if builder.complete:
                complete.setdefault(builder.position.text(), (builder.position, texts))
            else:
                partial.append((builder, texts))
        for step in builder.next_steps():
            if _agrees(step.changes, target, occupancy):
                stack.append(builder.add(step))
    if visited >= SEARCH_LIMIT:
        LOGGER.warning("turn search stopped after %d builder steps", visited)
    return _Found(tuple(complete.values()), tuple(partial))


def _cell_words(value: str) -> str:
    return f"{COLOUR_WORDS.get(value, value)} stone"


def describe_fixes(now: Mapping[str, str], want: Mapping[str, str], occupancy: bool
                   ) -> tuple[str, ...]:
    """Plain words that turn the board ``now`` (sensed) into ``want`` (a position's cells)."""
    extra: dict[str, list[str]] = {}  # colour seen -> cells where it should not be
    missing: dict[str, list[str]] = {}  # colour wanted -> cells where it is missing
    wrong: list[str] = []
    for cell in sorted(want, key=_cell_order):
        have, should = now.get(cell, EMPTY), _seen(want[cell], occupancy)
        if have == should:
            continue
        if have != EMPTY and should != EMPTY:
            wrong.append(f"the stone on {cell} should be {COLOUR_WORDS[should]}")
        elif have != EMPTY:
            extra.setdefault(have, []).append(cell)
        else:
            missing.setdefault(should, []).append(cell)
    fixes: list[str] = []
    for colour in sorted(set(extra) | set(missing)):
        froms, tos = extra.get(colour, []), missing.get(colour, [])
        for source, dest in zip(froms, tos, strict=False):
            fixes.append(f"the {_cell_words(colour)} on {source} should be on {dest}")
        for source in froms[len(tos):]:
            fixes.append(f"take the {_cell_words(colour)} off {source}")
        for dest in tos[len(froms):]:
            article = "a " if colour != OCCUPIED else ""
            fixes.append(f"put {article}{_cell_words(colour)} on {dest}")
    return tuple(wrong + fixes)


def _cell_order(cell: str) -> tuple[int, int]:
    match = _CELL.fullmatch(cell)
    if match is None:
        return (0, 0)
    return (-int(match.group(2)), _column_index(match.group(1)))


class StoneFollower:
    """Judges each settled board against the game's position (which it does not change)."""

    def __init__(self, rules: GameRules[Any]) -> None:
        self.rules = rules
        self._order: dict[str, int] = {}  # cell -> when it first changed this turn
        self._clock = itertools.count()
        self._last: dict[str, str] | None = None

    def new_turn(self, board: StoneSnapshot | None = None) -> None:
        """Forget the order of changes (a turn was committed or undone); ``board`` is
        what the sensor shows now, the start of the next turn's changes."""
        self._order.clear()
        self._last = None if board is None else dict(board.cells)

    def changes(self, snapshot: StoneSnapshot) -> None:
        """Note which cells a board differs in from the one before (order of changes)."""
        cells = dict(snapshot.cells)
        if self._last is not None:
            for cell, value in cells.items():
                if self._last.get(cell) != value and cell not in self._order:
                    self._order[cell] = next(self._clock)
        self._last = cells

    def judge(self, pos: Position, snapshot: StoneSnapshot) -> Verdict:
        target = dict(snapshot.cells)
        cells = pos.cells()
        unknown = sorted(set(target) - set(cells))
        if unknown or len(target) != len(cells):
            raise StoneSyncError(
                f"the sensed board has {len(target)} cells"
                + (f" (unknown: {', '.join(unknown[:3])})" if unknown else "")
                + f"; the game's board has {len(cells)}")
        occupancy = snapshot.occupancy_only or (all(
            v in (EMPTY, OCCUPIED) for v in target.values()) and OCCUPIED in target.values())
        if not _differences(cells, target, occupancy):
            return BoardUnchanged()
        found = _search(self.rules, pos, target, occupancy)
        turns: list[str] = []
        steps_of: dict[str, tuple[str, ...]] = {}
        for final, texts in found.complete:
            for turn in self.rules.turns_to(pos, final):
                if turn not in turns:
                    turns.append(turn)
                    steps_of[turn] = texts
        if occupancy and len(turns) > 1:
            turns = self._by_order(pos, turns, steps_of) or turns
        if len(turns) == 1:
            return TurnSeen(turns[0])
        if turns:
            why = (" (this board cannot tell the stones' colours)" if occupancy else "")
            return TurnsFit(tuple(sorted(turns)),
                            f"{len(turns)} turns give this board{why}: {', '.join(sorted(turns))}"
                            "; say which")
        if found.partial:
            builder, texts = found.partial[0]
            return TurnUnfinished(texts, builder.message)
        return self._mismatch(pos, target, occupancy)

    def _by_order(self, pos: Position, turns: list[str],
                  steps_of: Mapping[str, tuple[str, ...]]) -> list[str]:
        """The turns whose steps touch cells in the order the board reported changes."""
        if not self._order:
            return []
        fitting = []
        for turn in turns:
            builder = self.rules.builder(pos)
            times: list[tuple[int, int]] = []
            touched_all: set[str] = set()
            lifted_unseen = False
            for step_text in steps_of[turn]:
                before = builder.position.cells()
                builder = builder.add(step_text)
                changes = builder.steps[-1].changes
                touched_all.update(changes)
                # A stone replaced by another must have been lifted: a change seen there.
                lifted_unseen |= any(before.get(c, EMPTY) not in (EMPTY, v) and v != EMPTY
                                     and c not in self._order for c, v in changes.items())
                touched = [self._order[c] for c in changes if c in self._order]
                if touched:
                    times.append((min(touched), max(touched)))
            if (not lifted_unseen and set(self._order) <= touched_all
                    and all(a[1] <= b[0] for a, b in itertools.pairwise(times))):
                fitting.append(turn)
        return fitting

    def _mismatch(self, pos: Position, target: Mapping[str, str], occupancy: bool
                  ) -> BoardMismatch:
        cells = pos.cells()
        best: tuple[int, Mapping[str, str]] = (len(_differences(cells, target, occupancy)),
                                               cells)
        for turn in itertools.islice(self.rules.turns(pos), NEAREST_TURNS):
            after = self.rules.play(pos, turn).cells()
            count = len(_differences(after, target, occupancy))
            if count < best[0]:
                best = (count, after)
        fixes = describe_fixes(target, best[1], occupancy)
        message = ("The board fits no legal turn: " + "; ".join(fixes) + "."
                   if fixes else "The board fits no legal turn.")
        return BoardMismatch(message, fixes)
