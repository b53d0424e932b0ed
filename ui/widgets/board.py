"""The chessboard widget: squares, coordinates, pieces and highlights, drawn on
its canvas; a tap on a square dispatches ``on_square(square)``.

It only draws what its properties say (a tuple of
:class:`ui.table.PiecePicture`, targets, selection...) and knows no rules.
The same widget shows a sensed board: ``markers`` are discs on the squares a
sensor reports occupied.
"""

from __future__ import annotations

import logging
from typing import Any

import chess
from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    OptionProperty,
)
from kivy.uix.widget import Widget

from ui import theme
from ui.pieces import glyph_texture, piece_instructions

LOGGER = logging.getLogger(__name__)

COORD_FONT = "Roboto"
ANIMATION_SECONDS = 0.18  # a move slides, a placed piece grows in; 0: no animation


class BoardView(Widget):
    """A square board drawn in the largest square that fits the widget."""

    pieces = ObjectProperty((), allownone=True)
    selected = ObjectProperty(None, allownone=True)
    targets = ListProperty()
    target_kind = OptionProperty("none", options=["move", "drop", "remove", "none"])
    last_move = ListProperty()
    check_square = ObjectProperty(None, allownone=True)
    fix_squares = ListProperty()
    markers = ListProperty()  # [(square, rgba), ...]: discs, for a sensed board
    white_at_bottom = BooleanProperty(True)
    coordinates = BooleanProperty(True)
    interactive = BooleanProperty(True)
    square_size = NumericProperty(0)
    progress = NumericProperty(1.0)  # of the last move's animation (1: at rest)

    __events__ = ("on_square",)

    def __init__(self, **kwargs: Any) -> None:
        self._redraw = Clock.create_trigger(self._draw, -1)
        super().__init__(**kwargs)
        for name in ("pos", "size", "pieces", "selected", "targets", "target_kind", "last_move",
                     "check_square", "fix_squares", "markers", "white_at_bottom",
                     "coordinates", "progress"):
            self.fbind(name, self._redraw)
        self._moving: tuple[chess.Square, ...] = ()
        self.fbind("last_move", self._animate)
        self._redraw()

    def _animate(self, *_: Any) -> None:
        """Start the last move's animation: the piece slides from its square (a move)
        or grows on its square (a placement)."""
        from kivy.animation import Animation

        Animation.cancel_all(self, "progress")
        moving = tuple(self.last_move)
        occupied = {p.square for p in (self.pieces or ())}
        if ANIMATION_SECONDS <= 0 or not moving or moving[-1] not in occupied \
                or moving == self._moving:
            self._moving = moving
            self.progress = 1.0
            return
        self._moving = moving
        self.progress = 0.0
        Animation(progress=1.0, duration=ANIMATION_SECONDS, t="out_quad").start(self)

    def redraw(self) -> None:
        """Draw again (after the theme changed)."""
        self._redraw()

    # Geometry ----------------------------------------------------------

    def board_rect(self) -> tuple[float, float, float]:
        """(x, y, side) of the drawn board."""
        side = min(self.width, self.height)
        return (self.x + (self.width - side) / 2, self.y + (self.height - side) / 2, side)

    def square_origin(self, square: chess.Square) -> tuple[float, float]:
        x0, y0, side = self.board_rect()
        cell = side / 8
        file, rank = chess.square_file(square), chess.square_rank(square)
        if not self.white_at_bottom:
            file, rank = 7 - file, 7 - rank
        return x0 + file * cell, y0 + rank * cell

    def square_center(self, square: chess.Square) -> tuple[float, float]:
        x, y = self.square_origin(square)
        cell = self.board_rect()[2] / 8
        return x + cell / 2, y + cell / 2

    def square_at(self, x: float, y: float) -> chess.Square | None:
        """The square under a point in this widget's parent coordinates, or None."""
        x0, y0, side = self.board_rect()
        if side <= 0 or not (x0 <= x < x0 + side and y0 <= y < y0 + side):
            return None
        cell = side / 8
        file, rank = int((x - x0) // cell), int((y - y0) // cell)
        if not self.white_at_bottom:
            file, rank = 7 - file, 7 - rank
        return chess.square(file, rank)

    # Input -------------------------------------------------------------

    def on_touch_down(self, touch: Any) -> bool:
        if not self.interactive or not self.collide_point(*touch.pos):
            return False
        square = self.square_at(*touch.pos)
        if square is None:
            return False
        self.dispatch("on_square", square)
        return True

    def on_square(self, square: chess.Square) -> None:
        """Default handler: nothing (the screen binds to it)."""

    # Drawing -----------------------------------------------------------

    def _draw(self, *_: Any) -> None:
        x0, y0, side = self.board_rect()
        cell = side / 8
        self.square_size = cell
        canvas = self.canvas
        canvas.clear()
        if cell <= 0:
            return
        with canvas:
            Color(0.08, 0.09, 0.12, 1)
            frame = max(2.0, cell * 0.04)
            Rectangle(pos=(x0 - frame, y0 - frame), size=(side + 2 * frame, side + 2 * frame))
            for square in chess.SQUARES:
                light = (chess.square_file(square) + chess.square_rank(square)) % 2 == 1
                Color(*(theme.LIGHT_SQUARE if light else theme.DARK_SQUARE))
                Rectangle(pos=self.square_origin(square), size=(cell, cell))
            for square in self.last_move:
                Color(*theme.LAST_MOVE)
                Rectangle(pos=self.square_origin(square), size=(cell, cell))
            if self.selected is not None:
                Color(*theme.SELECTED)
                Rectangle(pos=self.square_origin(self.selected), size=(cell, cell))
            if self.check_square is not None:
                cx, cy = self.square_center(self.check_square)
                for scale, alpha in ((1.0, 0.25), (0.8, 0.45), (0.6, 0.7)):
                    Color(*theme.CHECK_GLOW[:3], alpha)
                    radius = cell * scale / 2
                    Ellipse(pos=(cx - radius, cy - radius), size=(2 * radius, 2 * radius))
        occupied = {picture.square for picture in (self.pieces or ())}
        moving = tuple(self.last_move)
        for picture in self.pieces or ():
            center = self.square_center(picture.square)
            size = cell * 0.9
            if self.progress < 1 and moving and picture.square == moving[-1]:
                if len(moving) == 2:  # a move: from the first square to the last
                    fx, fy = self.square_center(moving[0])
                    t = self.progress
                    center = (fx + (center[0] - fx) * t, fy + (center[1] - fy) * t)
                else:  # a placement or removal square: the piece grows in
                    size *= 0.55 + 0.45 * self.progress
            canvas.add(piece_instructions(picture.piece_type, picture.color, picture.blue,
                                          center, size))
        with canvas:
            for square, rgba in self.markers:
                cx, cy = self.square_center(square)
                radius = cell * 0.32
                Color(0, 0, 0, 0.35)
                Ellipse(pos=(cx - radius + 1, cy - radius - 2), size=(2 * radius, 2 * radius))
                Color(*rgba)
                Ellipse(pos=(cx - radius, cy - radius), size=(2 * radius, 2 * radius))
                Color(0.1, 0.1, 0.1, 1)
                Line(circle=(cx, cy, radius), width=max(1.0, cell * 0.02))
            if self.target_kind in ("move", "drop", "remove"):
                self._draw_targets(cell, occupied)
            for square in self.fix_squares:
                sx, sy = self.square_origin(square)
                Color(*theme.FIX_FRAME)
                inset = max(2.0, cell * 0.05)
                Line(rectangle=(sx + inset, sy + inset, cell - 2 * inset, cell - 2 * inset),
                     width=max(1.5, cell * 0.05))
            if self.coordinates:
                self._draw_coordinates(cell)

    def _draw_targets(self, cell: float, occupied: set[chess.Square]) -> None:
        """Highlighted squares: a dark dot in a light ring on an empty square, a ring of
        both colours round a piece (readable on light and dark squares alike)."""
        core = theme.REMOVE_TARGET if self.target_kind == "remove" else theme.TARGET_CORE
        ring = max(1.5, cell * 0.035)
        for square in self.targets:
            cx, cy = self.square_center(square)
            if square in occupied or self.target_kind == "remove":
                radius = cell * 0.46
                Color(*theme.TARGET_RING)
                Line(circle=(cx, cy, radius), width=ring * 2.2)
                Color(*core)
                Line(circle=(cx, cy, radius), width=ring)
            else:
                radius = cell * 0.15
                Color(*theme.TARGET_RING)
                Ellipse(pos=(cx - radius - ring, cy - radius - ring),
                        size=(2 * (radius + ring), 2 * (radius + ring)))
                Color(*core)
                Ellipse(pos=(cx - radius, cy - radius), size=(2 * radius, 2 * radius))

    def _draw_coordinates(self, cell: float) -> None:
        size = max(8, int(cell * 0.2))
        pad = cell * 0.05
        for index in range(8):
            file_square = chess.square(index, 0 if self.white_at_bottom else 7)
            rank_square = chess.square(0 if self.white_at_bottom else 7, index)
            for square, text, corner in ((file_square, chess.FILE_NAMES[index], "right"),
                                         (rank_square, chess.RANK_NAMES[index], "left")):
                light = (chess.square_file(square) + chess.square_rank(square)) % 2 == 1
                Color(*(theme.COORD_ON_LIGHT if light else theme.COORD_ON_DARK))
                texture = glyph_texture(text, size)
                sx, sy = self.square_origin(square)
                if corner == "right":
                    pos = (sx + cell - texture.width - pad, sy + pad * 0.4)
                else:
                    pos = (sx + pad, sy + cell - texture.height - pad * 0.4)
                Rectangle(texture=texture, pos=pos, size=texture.size)
