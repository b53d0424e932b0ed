"""Small widgets shared by the screens: a piece icon, a card, a deck strip, a
rounded button and a container that turns its content upside down (for the
player across the table). Their looks live in ``common.kv``."""

from __future__ import annotations

import logging
import os
from typing import Any

import chess
from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.lang import Builder
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.button import Button
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.relativelayout import RelativeLayout
from kivy.uix.widget import Widget

from ui import theme
from ui.pieces import JOKER_GLYPH, glyph_texture, piece_instructions

LOGGER = logging.getLogger(__name__)


class PieceIcon(Widget):
    """One piece (or a joker star when ``piece_type`` is None) drawn to fit the widget."""

    piece_type = ObjectProperty(chess.KNIGHT, allownone=True)
    color = BooleanProperty(True)  # chess.WHITE
    blue = BooleanProperty(False)
    scale = NumericProperty(0.95)

    def __init__(self, **kwargs: Any) -> None:
        self._redraw = Clock.create_trigger(self._draw, -1)
        super().__init__(**kwargs)
        for name in ("pos", "size", "piece_type", "color", "blue", "scale"):
            self.fbind(name, self._redraw)
        self._redraw()

    def _draw(self, *_: Any) -> None:
        self.canvas.clear()
        size = min(self.width, self.height) * self.scale
        if size < 4:
            return
        center = (self.center_x, self.center_y)
        if self.piece_type is None:
            texture = glyph_texture(JOKER_GLYPH, int(size))
            with self.canvas:
                Color(*theme.ACCENT)
                Rectangle(texture=texture, pos=(center[0] - texture.width / 2,
                                                center[1] - texture.height / 2),
                          size=texture.size)
            return
        self.canvas.add(piece_instructions(self.piece_type, self.color, self.blue, center,
                                           size, shadow=False))


class RoundButton(Button):
    """A flat rounded button; ``fill`` is its colour (dimmed when disabled)."""

    fill = ListProperty(list(theme.SURFACE_RAISED))
    radius = NumericProperty(10)


class UpsideDown(FloatLayout):
    """Shows its children turned by 180 degrees when ``flipped``; touches follow."""

    flipped = BooleanProperty(True)

    def to_parent(self, x: float, y: float, relative: bool = False) -> tuple[float, float]:
        if not self.flipped:
            return x, y
        cx, cy = self.center
        return 2 * cx - x, 2 * cy - y

    def to_local(self, x: float, y: float, relative: bool = False) -> tuple[float, float]:
        return self.to_parent(x, y)

    def _turn(self, touch: Any) -> None:
        cx, cy = self.center
        touch.apply_transform_2d(lambda x, y: (2 * cx - x, 2 * cy - y))

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False  # the turned children must never see touches from outside
        if not self.flipped:
            return bool(super().on_touch_down(touch))
        touch.push()
        self._turn(touch)
        try:
            return bool(super().on_touch_down(touch))
        finally:
            touch.pop()

    def on_touch_move(self, touch: Any) -> bool:
        if not self.flipped:
            return bool(super().on_touch_move(touch))
        touch.push()
        self._turn(touch)
        try:
            return bool(super().on_touch_move(touch))
        finally:
            touch.pop()

    def on_touch_up(self, touch: Any) -> bool:
        if not self.flipped:
            return bool(super().on_touch_up(touch))
        touch.push()
        self._turn(touch)
        try:
            return bool(super().on_touch_up(touch))
        finally:
            touch.pop()


class CardView(RelativeLayout):
    """The flipped card, large: ``card`` is a :class:`ui.table.CardPicture` or None
    (then the face-down deck with ``deck_size`` cards left is shown)."""

    card = ObjectProperty(None, allownone=True)
    deck_size = NumericProperty(0)
    note = StringProperty("")  # replaces the card's caption (e.g. "Black's card")


class DeckStrip(Widget):
    """The cards left in a deck by kind: an icon and a count for each kind.

    ``entries`` holds :class:`ui.table.DeckEntry` items; ``color`` the deck's side.
    """

    entries = ObjectProperty(())
    color = BooleanProperty(True)
    columns = NumericProperty(0)  # 0: one row

    def __init__(self, **kwargs: Any) -> None:
        self._redraw = Clock.create_trigger(self._draw, -1)
        super().__init__(**kwargs)
        for name in ("pos", "size", "entries", "color", "columns"):
            self.fbind(name, self._redraw)
        self._redraw()

    def _draw(self, *_: Any) -> None:
        self.canvas.clear()
        entries = list(self.entries or ())
        if not entries:
            with self.canvas:
                Color(*theme.TEXT_DIM)
                texture = glyph_texture("deck empty: chess moves only", int(self.height * 0.4))
                Rectangle(texture=texture, pos=(self.x, self.center_y - texture.height / 2),
                          size=texture.size)
            return
        columns = int(self.columns) or len(entries)
        rows = (len(entries) + columns - 1) // columns
        cell_w = self.width / columns
        cell_h = self.height / rows
        icon = min(cell_h * 0.95, cell_w * 0.48)
        for index, entry in enumerate(entries):
            row, col = divmod(index, columns)
            x = self.x + col * cell_w
            y = self.top - (row + 1) * cell_h
            center = (x + icon * 0.55, y + cell_h / 2)
            if entry.piece_type is None:
                texture = glyph_texture(JOKER_GLYPH, int(icon * 0.8))
                with self.canvas:
                    Color(*theme.ACCENT)
                    Rectangle(texture=texture, pos=(center[0] - texture.width / 2,
                                                    center[1] - texture.height / 2),
                              size=texture.size)
            else:
                self.canvas.add(piece_instructions(entry.piece_type, self.color, False,
                                                   center, icon, shadow=False))
            count = glyph_texture(f"\u00d7{entry.count}", max(10, int(icon * 0.62)))
            with self.canvas:
                Color(*theme.TEXT)
                Rectangle(texture=count, pos=(x + icon * 1.1, center[1] - count.height / 2),
                          size=count.size)


Builder.load_file(os.path.join(os.path.dirname(__file__), "common.kv"))
