"""The chessboard widget: squares, coordinates, pieces and highlights, drawn on
its canvas; a tap on a square dispatches ``on_square(square)``.

It only draws what its properties say (a tuple of
:class:`ui.table_view.PiecePicture`, targets, selection...) and knows no rules.
The same widget shows a sensed board: ``markers`` are discs on the squares a
sensor reports occupied.
"""

from __future__ import annotations

import logging
from typing import Any

import chess
from kivy.graphics import Color, Ellipse, Line, Rectangle, Triangle
from kivy.metrics import dp, sp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    OptionProperty,
    StringProperty,
)

from ui import theme
from ui.pieces import glyph_texture, piece_instructions
from ui.widgets.drawing import PieceDrawing

LOGGER = logging.getLogger(__name__)

COORD_FONT = "Roboto"
COORD_MIN_SP = 14     # the file and rank labels are never smaller (in the margin if need be)
COORD_MIN_SQUARE = 1.6  # squares smaller than this many label sizes: no coordinates
MARGIN_GAP = 4.0      # dp between the margin's labels and the board
GUIDE_COLOURS = {"turn": (0.20, 0.80, 0.95, 0.85), "hint": (0.98, 0.62, 0.15, 0.85)}
"""The companion's turn in cyan (as the reed board's lights), a hint in amber."""
ANIMATION_SECONDS = 0.18  # a move slides, a placed piece grows in; 0: no animation


class BoardView(PieceDrawing):
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
    guide = ListProperty()  # squares of the companion's turn or a hint: an arrow or rings
    guide_kind = StringProperty("")  # "turn" (the companion's, to make) or "hint"

    __events__ = ("on_square",)

    redraw_on = ("pos", "size", "pieces", "selected", "targets", "target_kind", "last_move",
                 "check_square", "fix_squares", "markers", "white_at_bottom", "coordinates",
                 "progress", "guide", "guide_kind")

    def __init__(self, **kwargs: Any) -> None:
        self._moving: tuple[chess.Square, ...] = ()
        super().__init__(**kwargs)
        self.fbind("last_move", self._animate)

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
        """(x, y, side) of the drawn squares: the largest square that fits, leaving a
        margin left and below for the coordinates where they would be too small in
        the squares' corners."""
        left, bottom = self._margins()
        side = max(0.0, min(self.width - left, self.height - bottom))
        x = self.x + (self.width - side - left) / 2 + left
        y = self.y + (self.height - side - bottom) / 2 + bottom
        return (x, y, side)

    def coordinate_font(self) -> tuple[float, bool]:
        """(font size in pixels, whether in the margin) of the file and rank labels: a
        fifth of a square in its corner, or at least ``COORD_MIN_SP`` in the margin."""
        least = sp(COORD_MIN_SP)
        cell = min(self.width, self.height) / 8
        if cell * 0.2 >= least:
            return cell * 0.2, False
        return least, True

    def shows_coordinates(self) -> bool:
        """Whether the labels are drawn: asked for, and the squares not smaller than the
        labels (a thumbnail board, e.g. a small sensed board, draws none)."""
        if not self.coordinates or min(self.width, self.height) <= 0:
            return False
        size, margin = self.coordinate_font()
        return not margin or min(self.width, self.height) / 8 >= size * COORD_MIN_SQUARE

    def _margins(self) -> tuple[float, float]:
        if not self.shows_coordinates():
            return 0.0, 0.0
        size, margin = self.coordinate_font()
        if not margin:
            return 0.0, 0.0
        widest = max(glyph_texture(rank, int(size)).width for rank in chess.RANK_NAMES)
        tallest = max(glyph_texture(name, int(size)).height for name in chess.FILE_NAMES)
        gap = dp(MARGIN_GAP)
        return widest + gap * 1.5, tallest + gap

    def coordinate_labels(self) -> list[tuple[str, float, tuple[float, float, float, float]]]:
        """The file and rank labels as drawn: (text, font size in pixels, (x, y, width,
        height) in this widget's parent coordinates)."""
        if not self.shows_coordinates():
            return []
        x0, y0, side = self.board_rect()
        cell = side / 8
        if cell <= 0:
            return []
        size, margin = self.coordinate_font()
        pad = cell * 0.05
        gap = dp(MARGIN_GAP)
        labels = []
        for index in range(8):
            file_square = chess.square(index, 0 if self.white_at_bottom else 7)
            rank_square = chess.square(0 if self.white_at_bottom else 7, index)
            for square, text, corner in ((file_square, chess.FILE_NAMES[index], "bottom"),
                                         (rank_square, chess.RANK_NAMES[index], "left")):
                texture = glyph_texture(text, int(size))
                w, h = texture.size
                sx, sy = self.square_origin(square)
                if margin and corner == "bottom":
                    pos = (sx + (cell - w) / 2, y0 - h - gap * 0.75)
                elif margin:  # beside its rank; on a tiny board, kept inside the widget
                    pos = (x0 - w - gap, min(sy + (cell - h) / 2, self.top - h))
                elif corner == "bottom":
                    pos = (sx + cell - w - pad, sy + pad * 0.4)
                else:
                    pos = (sx + pad, sy + cell - h - pad * 0.4)
                labels.append((text, size, (pos[0], pos[1], w, h)))
        return labels

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
            if self.guide:
                self._draw_guide(cell)
            if self.shows_coordinates():
                self._draw_coordinates(cell)

    def _draw_guide(self, cell: float) -> None:
        """The companion's turn (to make on a sensing board) or a hint's best turn: an
        arrow from the first square to the last, a ring on a single square."""
        rgba = GUIDE_COLOURS.get(self.guide_kind, GUIDE_COLOURS["turn"])
        width = max(2.0, cell * 0.08)
        squares = list(self.guide)
        if len(squares) >= 2 and squares[0] != squares[-1]:
            (x1, y1), (x2, y2) = self.square_center(squares[0]), self.square_center(squares[-1])
            length = max(1.0, ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5)
            ux, uy = (x2 - x1) / length, (y2 - y1) / length
            head = cell * 0.42
            bx, by = x2 - ux * head, y2 - uy * head
            Color(0, 0, 0, 0.45)
            Line(points=[x1, y1, bx, by], width=width * 1.35)
            Color(*rgba)
            Line(points=[x1, y1, bx, by], width=width)
            half = head * 0.6
            Triangle(points=[x2, y2, bx - uy * half, by + ux * half, bx + uy * half,
                             by - ux * half])
            squares = [squares[0]]
        for square in squares:
            cx, cy = self.square_center(square)
            Color(*rgba)
            Line(circle=(cx, cy, cell * 0.44), width=width * 0.7)

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
        _size, margin = self.coordinate_font()
        for text, size, (x, y, w, h) in self.coordinate_labels():
            if margin:
                Color(*theme.TEXT_DIM)
            else:
                square = self.square_at(x + w / 2, y + h / 2)
                light = square is not None and \
                    (chess.square_file(square) + chess.square_rank(square)) % 2 == 1
                Color(*(theme.COORD_ON_LIGHT if light else theme.COORD_ON_DARK))
            Rectangle(texture=glyph_texture(text, int(size)), pos=(x, y), size=(w, h))
