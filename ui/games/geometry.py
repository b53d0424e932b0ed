"""Where every cell of an abstract game's board lies, for drawing and for touches (no Kivy).

A :class:`Layout` places each cell of ``Position.cells()`` as a rectangle in board units
(origin at the bottom-left, one unit per column and row). Grid games name their cells
``c5`` (column letter, row number); Crumble names a piece by its bottom-left corner
``x,y`` and its position text gives each piece's width and height (the format of its
rules file). The drawing style says how a cell is shown: stones on the crossings of
Go-like lines (``points``), stones in squares (``cells``), or coloured rectangles
(``pieces``).
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Mapping
from fractions import Fraction

from companion.games import Position

LOGGER = logging.getLogger(__name__)

LETTERS = "abcdefghijklmnopqrstuvwxyz"
_GRID_CELL = re.compile(r"^([a-z])(\d{1,2})$")

STYLES: Mapping[str, str] = {"rumbo": "points", "raindrops": "points", "dropper": "cells",
                             "crumble": "pieces"}
"""How each seed game is drawn; any other game with grid cells is drawn in squares."""


class LayoutError(ValueError):
    """A position whose cells cannot be placed on a board; the message names the cell."""


@dataclasses.dataclass(frozen=True)
class Shape:
    """One cell: a rectangle in board units and what it holds (``"."`` empty)."""

    cell: str
    x: Fraction
    y: Fraction
    w: Fraction
    h: Fraction
    content: str

    def contains(self, x: float, y: float) -> bool:
        return (float(self.x) <= x < float(self.x + self.w)
                and float(self.y) <= y < float(self.y + self.h))

    @property
    def center(self) -> tuple[float, float]:
        return float(self.x + self.w / 2), float(self.y + self.h / 2)


@dataclasses.dataclass(frozen=True)
class Layout:
    """A board: ``columns`` x ``rows`` units holding ``shapes``, drawn in ``style``."""

    style: str
    columns: int
    rows: int
    shapes: tuple[Shape, ...]
    stars: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_cell", {shape.cell: shape for shape in self.shapes})

    def shape(self, cell: str) -> Shape | None:
        found: Shape | None = self._by_cell.get(cell)  # type: ignore[attr-defined]
        return found

    def cell_at(self, x: float, y: float) -> str | None:
        """The cell under the point (x, y) in board units, or ``None`` off the board."""
        if not (0 <= x < self.columns and 0 <= y < self.rows):
            return None
        if self.style != "pieces":
            column, row = int(x), int(y)
            name = f"{LETTERS[column]}{row + 1}"
            return name if name in self._by_cell else None  # type: ignore[attr-defined]
        for shape in self.shapes:
            if shape.contains(x, y):
                return shape.cell
        return None

    def column_labels(self) -> list[str]:
        return [LETTERS[index] for index in range(self.columns)]

    def row_labels(self) -> list[str]:
        return [str(index + 1) for index in range(self.rows)]


def grid_position(cell: str) -> tuple[int, int]:
    """``"c5"`` -> (2, 4): column and row from 0; :class:`LayoutError` otherwise."""
    match = _GRID_CELL.match(cell)
    if match is None:
        raise LayoutError(f"cell {cell!r} is not a column letter and a row number")
    return LETTERS.index(match[1]), int(match[2]) - 1


def star_points(columns: int, rows: int) -> tuple[tuple[int, int], ...]:
    """Go's star points for a square board of 7 or more lines (none on smaller ones)."""
    if columns != rows or columns < 7:
        return ()
    edge = 2 if columns < 13 else 3
    far = columns - 1 - edge
    middle = columns // 2
    points = [(edge, edge), (edge, far), (far, edge), (far, far)]
    if columns % 2 == 1 and columns >= 9:
        points.append((middle, middle))
        if columns >= 15:
            points += [(edge, middle), (far, middle), (middle, edge), (middle, far)]
    return tuple(sorted(points))


def _fraction(text: str, what: str) -> Fraction:
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise LayoutError(f"{what}: {text!r} is not a number") from None


def _pieces_layout(position: Position) -> Layout:
    """Crumble: ``crumble WxH x,y,w,h,c;... SIDE DRAW HISTORY`` (its rules file, section 9)."""
    fields = position.text().split()
    if len(fields) < 3 or "x" not in fields[1]:
        raise LayoutError(f"no board size and pieces in {position.text()[:60]!r}")
    width_text, _, height_text = fields[1].partition("x")
    columns, rows = int(width_text), int(height_text)
    cells = position.cells()
    shapes = []
    for piece in fields[2].split(";"):
        parts = piece.split(",")
        if len(parts) != 5:
            raise LayoutError(f"piece {piece!r} is not x,y,w,h,colour")
        x, y, w, h = (_fraction(part, f"piece {piece!r}") for part in parts[:4])
        cell = ",".join(parts[:4])  # the engine's cell name: the exact rectangle
        shapes.append(Shape(cell, x, y, w, h, cells.get(cell, parts[4])))
    return Layout("pieces", columns, rows, tuple(shapes))


def layout(rules: object, position: Position) -> Layout:
    """Where each cell of ``position`` lies, and how the game is drawn."""
    name = str(getattr(rules, "name", ""))
    cells = position.cells()
    if STYLES.get(name) == "pieces" or any("," in cell for cell in cells):
        return _pieces_layout(position)
    style = STYLES.get(name, "cells")
    shapes = []
    columns = rows = 0
    one = Fraction(1)
    for cell, content in cells.items():
        column, row = grid_position(cell)
        columns, rows = max(columns, column + 1), max(rows, row + 1)
        shapes.append(Shape(cell, Fraction(column), Fraction(row), one, one, content))
    shapes.sort(key=lambda shape: (shape.y, shape.x))
    stars = star_points(columns, rows) if style == "points" else ()
    return Layout(style, columns, rows, tuple(shapes), stars)


def changed_cells(before: Position | None, after: Position) -> frozenset[str]:
    """The cells whose content differs between two positions (new cells count)."""
    if before is None:
        return frozenset()
    old = before.cells()
    return frozenset(cell for cell, content in after.cells().items()
                     if old.get(cell) != content)


def owners(rules: object, position: Position) -> dict[str, str]:
    """Cells in claimed groups -> the owner's mark: Rumbo's CLAIMS grid (its rules file,
    section 10) marks each stone of a claimed group ``v`` or ``h``. Empty for other games."""
    if getattr(rules, "name", "") != "rumbo":
        return {}
    fields = position.text().split()
    if len(fields) < 5:
        return {}
    rows = fields[4].split("/")
    marks = {}
    for index, row in enumerate(rows):
        number = len(rows) - index
        for column, mark in enumerate(row):
            if mark in "vh":
                marks[f"{LETTERS[column]}{number}"] = mark
    return marks
