"""The board of any abstract game, drawn from a :class:`ui.games.geometry.Layout`.

Stones on the crossings of Go-like lines with star points (Rumbo, Raindrops), stones
in squares (Dropper and any grid game), or coloured rectangles at any depth of halving
(Crumble). Marks: the cells the last turn changed, the legal next touches, the cells
touched for the step being picked, claims (a mark per cell in its owner's colour).
A touch dispatches ``on_cell(cell)``; on Crumble's pieces a finger drawn across the board
(unmagnified) dispatches ``on_stroke(cells crossed, horizontal)`` instead, and ``path``
draws the swap path. ``turned`` shows the board from the far side.
The widget knows no rules: it draws what its properties say.
"""

from __future__ import annotations

import logging
from typing import Any

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import (
    BooleanProperty,
    DictProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.stencilview import StencilView

from ui import theme
from ui.games.geometry import Layout
from ui.pieces import glyph_texture

LOGGER = logging.getLogger(__name__)

WOOD = (0.86, 0.70, 0.44, 1)
WOOD_LINE = (0.25, 0.17, 0.08, 1)
CELL_LIGHT = (0.88, 0.78, 0.60, 1)
STONE = {"b": ((0.08, 0.08, 0.09, 1), (0.55, 0.55, 0.58, 1)),
         "w": ((0.97, 0.97, 0.95, 1), (0.18, 0.18, 0.20, 1))}
PIECE = {"b": (0.12, 0.12, 0.14, 1), "w": (0.95, 0.94, 0.90, 1)}
OTHER = ((0.80, 0.30, 0.25, 1), (0.25, 0.45, 0.80, 1), (0.30, 0.65, 0.35, 1))
MARKS = {"v": (0.15, 0.45, 0.95, 1), "h": (0.92, 0.30, 0.18, 1),
         "x": (0.55, 0.55, 0.55, 1)}
TARGET = (0.10, 0.55, 0.25, 0.75)
TOUCHED = (0.98, 0.70, 0.10, 1)
LAST = (0.95, 0.25, 0.55, 1)
GUIDE = {"turn": (0.20, 0.80, 0.95, 1), "hint": (0.98, 0.62, 0.15, 1)}
"""The companion's turn in cyan (as the reed board's lights), a hint in amber."""


MAX_ZOOM = 16.0
PAN_SLOP = 12  # pixels a finger may wander and still tap


class GameBoard(StencilView):
    """``layout`` is a Layout (or None); marks are lists and dicts of cell names.

    ``zoom`` (1 to 16) magnifies around ``focus`` (the point of the board, in board
    units, shown in the middle); a finger dragged on a magnified board pans it, a
    mouse wheel zooms. Drawing is clipped to the widget.
    """

    layout = ObjectProperty(None, allownone=True)
    targets = ListProperty()
    touched = ListProperty()
    last = ListProperty()
    building = ListProperty()
    path = ListProperty()
    """Cells a piece moved through this turn, drawn as a line with an arrow (Crumble's swap)."""
    stroke = ListProperty()
    """The line a finger is drawing now (widget-parent coordinates: x1, y1, x2, y2)."""
    claims = DictProperty()   # cell -> owner mark ("v", "h", "x": dead, nobody's)
    guide = ListProperty()
    """Cells of the companion's turn (to make on the physical board) or of a hint."""
    guide_kind = StringProperty("")
    turned = BooleanProperty(False)
    coordinates = BooleanProperty(True)
    interactive = BooleanProperty(True)
    zoom = NumericProperty(1.0)
    focus = ListProperty([0.0, 0.0])
    flash = NumericProperty(0.0)
    """1 -> 0 after a turn: rings spread from the cells it changed and the groups it
    claimed (filled holes and new claims are seen happening)."""

    __events__ = ("on_cell", "on_stroke")

    def __init__(self, **kwargs: Any) -> None:
        self._redraw = Clock.create_trigger(self._draw, -1)
        super().__init__(**kwargs)
        for name in ("pos", "size", "layout", "targets", "touched", "last", "building", "path",
                     "stroke",
                     "claims", "turned", "coordinates", "zoom", "focus", "flash", "guide",
                     "guide_kind"):
            self.fbind(name, self._redraw)
        self.fbind("layout", self._on_layout)
        self._fresh: set[str] = set()
        self._seen_claims: dict[str, str] = {}
        self.fbind("last", self._on_last)
        self.fbind("claims", self._on_last)
        self._redraw()
        self._press: tuple[float, float] | None = None
        self._panned = False

    def _on_last(self, *_: Any) -> None:
        claims = dict(self.claims)
        fresh = set(self.last) | {cell for cell, owner in claims.items()
                                  if self._seen_claims.get(cell) != owner}
        self._seen_claims = claims
        if not fresh or fresh == self._fresh:
            return
        self._fresh = fresh
        Animation.cancel_all(self, "flash")
        self.flash = 1.0
        Animation(flash=0.0, duration=0.9, t="out_quad").start(self)

    def _on_layout(self, *_: Any) -> None:
        board: Layout | None = self.layout
        if board is None:
            return
        if self.zoom <= 1.0 or not (0 <= self.focus[0] <= board.columns
                                    and 0 <= self.focus[1] <= board.rows):
            self.focus = [board.columns / 2, board.rows / 2]

    def zoom_by(self, factor: float) -> None:
        """Magnify (factor > 1) or shrink around the board's middle as shown (0: the
        whole board again)."""
        self.zoom = max(1.0, min(MAX_ZOOM, self.zoom * factor))
        if self.zoom == 1.0 and self.layout is not None:
            self.focus = [self.layout.columns / 2, self.layout.rows / 2]

    # Geometry -----------------------------------------------------------

    def frame(self) -> tuple[float, float, float]:
        """(x, y, unit): the board's bottom-left corner in window-parent coordinates
        and the size of one unit."""
        board: Layout | None = self.layout
        if board is None or board.columns <= 0 or board.rows <= 0:
            return self.x, self.y, 0.0
        margin = 0.75 if self.coordinates else 0.15
        unit = min(self.width / (board.columns + 2 * margin),
                   self.height / (board.rows + 2 * margin)) * self.zoom
        if self.zoom <= 1.0:
            focus_x, focus_y = board.columns / 2, board.rows / 2
        else:
            focus_x, focus_y = self.focus
            if self.turned:
                focus_x, focus_y = board.columns - focus_x, board.rows - focus_y
        x = self.center_x - focus_x * unit
        y = self.center_y - focus_y * unit
        return x, y, unit

    def to_screen(self, bx: float, by: float) -> tuple[float, float]:
        """Board units -> widget-parent coordinates (turned when ``turned``)."""
        board: Layout = self.layout
        if self.turned:
            bx, by = board.columns - bx, board.rows - by
        x, y, unit = self.frame()
        return x + bx * unit, y + by * unit

    def to_board(self, px: float, py: float) -> tuple[float, float]:
        x, y, unit = self.frame()
        if unit <= 0:
            return -1.0, -1.0
        bx, by = (px - x) / unit, (py - y) / unit
        if self.turned:
            board: Layout = self.layout
            bx, by = board.columns - bx, board.rows - by
        return bx, by

    def cell_center(self, cell: str) -> tuple[float, float]:
        """Where ``cell`` is drawn (its centre), in widget-parent coordinates."""
        shape = self.layout.shape(cell) if self.layout is not None else None
        if shape is None:
            raise KeyError(f"no cell {cell!r} on this board")
        return self.to_screen(*shape.center)

    # Input -------------------------------------------------------------

    def on_touch_down(self, touch: Any) -> bool:
        if self.layout is None or not self.interactive or not self.collide_point(*touch.pos):
            return False
        if getattr(touch, "is_mouse_scrolling", False):
            self.zoom_by(1.25 if touch.button == "scrolldown" else 0.8)
            return True
        touch.grab(self)
        self._press = touch.pos
        self._panned = False
        return True

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is not self or self._press is None:
            return False
        dx, dy = touch.x - self._press[0], touch.y - self._press[1]
        if self._strokes() and (self.stroke or abs(dx) + abs(dy) > 3 * PAN_SLOP):
            self.stroke = [*self._press, touch.x, touch.y]
        elif self.zoom > 1.0 and (self._panned or abs(dx) + abs(dy) > PAN_SLOP):
            _, _, unit = self.frame()
            sign = -1 if self.turned else 1
            self.focus = [self.focus[0] - sign * (touch.dx / unit),
                          self.focus[1] - sign * (touch.dy / unit)]
            self._panned = True
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return False
        touch.ungrab(self)
        press, self._press = self._press, None
        if self.stroke:
            x1, y1, x2, y2 = self.stroke
            self.stroke = []
            crossed = self.cells_on_line(x1, y1, x2, y2)
            if crossed:
                horizontal = abs(x2 - x1) >= abs(y2 - y1)
                self.dispatch("on_stroke", crossed, horizontal)
            return True
        if self._panned or press is None:
            return True
        cell = self.layout.cell_at(*self.to_board(*press)) if self.layout else None
        if cell is not None:
            self.dispatch("on_cell", cell)
        return True

    def on_cell(self, cell: str) -> None:
        """Default handler: nothing (the screen binds to it)."""

    def on_stroke(self, cells: tuple[str, ...], horizontal: bool) -> None:
        """Default handler: nothing (the screen binds to it)."""

    def _strokes(self) -> bool:
        """Lines may be drawn: pieces to cut, shown whole (a drag pans a magnified board)."""
        return self.layout is not None and self.layout.style == "pieces" and self.zoom <= 1.0

    def cells_on_line(self, x1: float, y1: float, x2: float, y2: float) -> tuple[str, ...]:
        """The cells a line between two points (widget-parent coordinates) crosses, in
        order; sampled finely enough for a sixty-fourth of a square."""
        board: Layout | None = self.layout
        _, _, unit = self.frame()
        if board is None or unit <= 0:
            return ()
        samples = max(2, int(max(abs(x2 - x1), abs(y2 - y1)) / max(1.0, unit / 32)))
        found: list[str] = []
        for index in range(samples + 1):
            t = index / samples
            cell = board.cell_at(*self.to_board(x1 + (x2 - x1) * t, y1 + (y2 - y1) * t))
            if cell is not None and cell not in found:
                found.append(cell)
        return tuple(found)

    # Drawing -----------------------------------------------------------

    def _rect(self, shape: Any, inset: float = 0.0) -> tuple[float, float, float, float]:
        """A shape's rectangle on screen (x, y, w, h), shrunk by ``inset`` pixels."""
        x1, y1 = self.to_screen(float(shape.x), float(shape.y))
        x2, y2 = self.to_screen(float(shape.x + shape.w), float(shape.y + shape.h))
        left, right = min(x1, x2), max(x1, x2)
        bottom, top = min(y1, y2), max(y1, y2)
        return (left + inset, bottom + inset, max(0.0, right - left - 2 * inset),
                max(0.0, top - bottom - 2 * inset))

    def _draw(self, *_: Any) -> None:
        canvas = self.canvas
        canvas.clear()
        board: Layout | None = self.layout
        x0, y0, unit = self.frame()
        if board is None or unit <= 0:
            return
        width, height = board.columns * unit, board.rows * unit
        with canvas:
            pad = unit * (0.72 if board.style != "pieces" and self.coordinates else 0.12)
            Color(*WOOD)
            Rectangle(pos=(x0 - pad, y0 - pad), size=(width + 2 * pad, height + 2 * pad))
            if board.style == "points":
                self._draw_lines(board, unit)
            elif board.style == "cells":
                self._draw_cells(board, unit)
            else:
                self._draw_pieces(board, unit)
            self._draw_marks(board, unit)
            self._draw_path(board, unit)
            self._draw_flash(board)
            if self.coordinates:
                self._draw_coordinates(board, unit)

    def _draw_lines(self, board: Layout, unit: float) -> None:
        Color(*WOOD_LINE)
        width = max(1.0, unit * 0.03)
        for column in range(board.columns):
            Line(points=[*self.to_screen(column + 0.5, 0.5),
                         *self.to_screen(column + 0.5, board.rows - 0.5)], width=width)
        for row in range(board.rows):
            Line(points=[*self.to_screen(0.5, row + 0.5),
                         *self.to_screen(board.columns - 0.5, row + 0.5)], width=width)
        radius = max(2.0, unit * 0.09)
        for column, row in board.stars:
            cx, cy = self.to_screen(column + 0.5, row + 0.5)
            Ellipse(pos=(cx - radius, cy - radius), size=(2 * radius, 2 * radius))
        self._draw_stones(board, unit)

    def _draw_cells(self, board: Layout, unit: float) -> None:
        Color(*CELL_LIGHT)
        x0, y0, _ = self.frame()
        Rectangle(pos=(x0, y0), size=(board.columns * unit, board.rows * unit))
        Color(*WOOD_LINE)
        width = max(1.0, unit * 0.025)
        for column in range(board.columns + 1):
            Line(points=[*self.to_screen(column, 0), *self.to_screen(column, board.rows)],
                 width=width)
        for row in range(board.rows + 1):
            Line(points=[*self.to_screen(0, row), *self.to_screen(board.columns, row)],
                 width=width)
        self._draw_stones(board, unit)

    def _draw_stones(self, board: Layout, unit: float) -> None:
        radius = unit * 0.44
        others: dict[str, tuple[float, ...]] = {}
        for shape in board.shapes:
            if shape.content == ".":
                continue
            cx, cy = self.to_screen(*shape.center)
            fill, edge = STONE.get(shape.content) or (
                others.setdefault(shape.content, OTHER[len(others) % len(OTHER)]), (0, 0, 0, 1))
            Color(0, 0, 0, 0.3)
            Ellipse(pos=(cx - radius + unit * 0.03, cy - radius - unit * 0.04),
                    size=(2 * radius, 2 * radius))
            Color(*fill)
            Ellipse(pos=(cx - radius, cy - radius), size=(2 * radius, 2 * radius))
            Color(*edge)
            Line(circle=(cx, cy, radius), width=max(1.0, unit * 0.025))

    def _draw_pieces(self, board: Layout, unit: float) -> None:
        for shape in board.shapes:
            x, y, w, h = self._rect(shape)
            Color(*PIECE.get(shape.content, OTHER[0]))
            Rectangle(pos=(x, y), size=(w, h))
        Color(0.55, 0.45, 0.30, 1)
        for shape in board.shapes:
            x, y, w, h = self._rect(shape)
            Line(rectangle=(x, y, w, h), width=1.0)

    def _draw_marks(self, board: Layout, unit: float) -> None:
        for cell, owner in self.claims.items():
            shape = board.shape(cell)
            if shape is None:
                continue
            cx, cy = self.to_screen(*shape.center)
            size = unit * 0.2
            Color(*MARKS.get(owner, MARKS["x"]))
            Rectangle(pos=(cx - size / 2, cy - size / 2), size=(size, size))
        for cells, rgba, kind in ((self.last, LAST, "last"), (self.building, TOUCHED, "ring"),
                                  (self.touched, TOUCHED, "frame"),
                                  (self.targets, TARGET, "target")):
            for cell in cells:
                shape = board.shape(cell)
                if shape is None:
                    continue
                self._mark(shape, rgba, kind, unit)
        colour = GUIDE.get(self.guide_kind, GUIDE["turn"])
        for cell in self.guide:
            shape = board.shape(cell)
            if shape is not None:
                self._mark(shape, colour, "guide", unit)

    def _draw_path(self, board: Layout, unit: float) -> None:
        """The swap path: a line from piece to piece, a ring at its start, a dot at its end;
        and the line a finger is drawing."""
        points = [self.to_screen(*shape.center) for cell in self.path
                  if (shape := board.shape(cell)) is not None]
        if len(points) >= 2:
            width = max(2.0, min(unit * 0.06, 6.0))
            Color(0, 0, 0, 0.55)
            Line(points=[value for point in points for value in point], width=width + 1.5)
            Color(*TOUCHED)
            Line(points=[value for point in points for value in point], width=width)
            radius = max(5.0, min(unit * 0.12, 14.0))
            (sx, sy), (ex, ey) = points[0], points[-1]
            Line(circle=(sx, sy, radius), width=width)
            Ellipse(pos=(ex - radius, ey - radius), size=(2 * radius, 2 * radius))
        if self.stroke:
            Color(*TARGET[:3], 0.9)
            Line(points=list(self.stroke), width=max(2.0, min(unit * 0.05, 5.0)),
                 dash_length=0)

    def _draw_flash(self, board: Layout) -> None:
        if self.flash <= 0.01:
            return
        for cell in self._fresh:
            shape = board.shape(cell)
            if shape is None:
                continue
            x, y, w, h = self._rect(shape)
            radius = min(w, h) * (0.5 + 0.5 * (1 - self.flash))
            Color(*LAST[:3], self.flash)
            Line(circle=(x + w / 2, y + h / 2, radius), width=max(1.5, min(w, h) * 0.06))

    def _mark(self, shape: Any, rgba: tuple[float, ...], kind: str, unit: float) -> None:
        x, y, w, h = self._rect(shape)
        small = min(w, h)
        cx, cy = x + w / 2, y + h / 2
        Color(*rgba)
        if kind == "target":
            if shape.content == ".":
                radius = max(3.0, small * 0.16)
                Ellipse(pos=(cx - radius, cy - radius), size=(2 * radius, 2 * radius))
            else:
                Line(circle=(cx, cy, small * 0.47), width=max(1.5, small * 0.06))
        elif kind == "frame":
            inset = max(1.0, small * 0.04)
            Line(rectangle=(x + inset, y + inset, w - 2 * inset, h - 2 * inset),
                 width=max(2.0, small * 0.07))
        elif kind == "ring":
            Line(circle=(cx, cy, small * 0.3), width=max(1.5, small * 0.05))
        elif kind == "guide":
            Line(circle=(cx, cy, small * 0.5), width=max(2.0, small * 0.09))
        else:  # the last turn: a small dot in the middle
            radius = max(2.5, small * 0.1)
            Ellipse(pos=(cx - radius, cy - radius), size=(2 * radius, 2 * radius))

    def _draw_coordinates(self, board: Layout, unit: float) -> None:
        size = max(9, int(min(unit * 0.36, 28)))
        Color(*(theme.TEXT_DIM if board.style == "pieces" else WOOD_LINE))
        away = unit * (0.36 if board.style != "pieces" else 0.42)
        for column, label in enumerate(board.column_labels()):
            texture = glyph_texture(label, size)
            for edge in (0, board.rows):
                cx, cy = self.to_screen(column + 0.5, edge)
                outward = -1 if (edge == 0) != self.turned else 1
                pos = (cx - texture.width / 2, cy + outward * away - texture.height / 2)
                Rectangle(texture=texture, pos=pos, size=texture.size)
        for row, label in enumerate(board.row_labels()):
            texture = glyph_texture(label, size)
            for edge in (0, board.columns):
                cx, cy = self.to_screen(edge, row + 0.5)
                outward = -1 if (edge == 0) != self.turned else 1
                pos = (cx + outward * away - texture.width / 2, cy - texture.height / 2)
                Rectangle(texture=texture, pos=pos, size=texture.size)
