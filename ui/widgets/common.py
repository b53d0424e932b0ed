"""Small widgets shared by the screens: a piece icon, a card, a deck strip, a
rounded button and a container that turns its content upside down (for the
player across the table). Their looks live in ``common.kv``."""

from __future__ import annotations

import logging
import os
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.lang import Builder
from kivy.metrics import Metrics, sp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.relativelayout import RelativeLayout
from kivy.uix.scrollview import ScrollView

from ui import theme
from ui.pieces import JOKER_GLYPH, glyph_texture, piece_instructions
from ui.widgets.drawing import PieceDrawing

LOGGER = logging.getLogger(__name__)


class PieceIcon(PieceDrawing):
    """One piece (or a joker star when ``piece_type`` is None) drawn to fit the widget."""

    piece_type = ObjectProperty(2, allownone=True)  # chess.KNIGHT
    color = BooleanProperty(True)  # chess.WHITE
    blue = BooleanProperty(False)
    scale = NumericProperty(0.95)

    redraw_on = ("pos", "size", "piece_type", "color", "blue", "scale")

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


class FitLabel(Label):
    """A label that keeps its size and shrinks its text to fit (from ``max_sp`` down to
    ``min_sp``, wrapping at spaces); only below ``min_sp`` is a line shortened.

    Its height never follows the text, so a screen does not jump when a message
    grows to two lines."""

    max_sp = NumericProperty(18)
    min_sp = NumericProperty(14)

    def __init__(self, **kwargs: Any) -> None:
        self._fit = Clock.create_trigger(self._fit_text, -1)
        super().__init__(**kwargs)
        for name in ("text", "size", "max_sp", "min_sp", "padding"):
            self.fbind(name, self._fit)
        Metrics.bind(fontscale=self._on_fontscale)  # the text size setting (weakly bound)
        self._fit()

    def _on_fontscale(self, *_: Any) -> None:
        self._fit()

    def _fit_text(self, *_: Any) -> None:
        pad_x, pad_y = _padding(self.padding)
        width = max(1.0, self.width - 2 * pad_x)
        height = self.height - 2 * pad_y
        self.text_size = (width, None)
        self.shorten = False
        size = float(self.max_sp)
        while True:
            self.font_size = sp(size)
            self.texture_update()
            fits = self.texture_size[1] <= height + 1 and not _splits_words(self, width)
            if fits or size <= self.min_sp:
                break
            size -= 1
        if not fits:
            self.text_size = (width, max(1.0, height))
            self.shorten = True
            self.texture_update()


class MessageBar(FitLabel):
    """A message on a coloured bar; ``level`` picks the colour (``theme.MESSAGE_FILL``)."""

    level = StringProperty("info")


def _padding(padding: Any) -> tuple[float, float]:
    values = list(padding) if isinstance(padding, list | tuple) else [padding]
    if len(values) == 1:
        return float(values[0]), float(values[0])
    return float(values[0]), float(values[1])


def _splits_words(label: Label, width: float) -> bool:
    """Whether a word of the label's text is wider than ``width`` (Kivy would cut it)."""
    from kivy.core.text import Label as CoreLabel

    words = {w for w in label.text.replace("\n", " ").split(" ") if w}
    if not words:
        return False
    longest = max(words, key=len)
    core = CoreLabel(text=longest, font_size=label.font_size, font_name=label.font_name,
                     bold=label.bold, markup=label.markup)
    return bool(core.get_extents(longest)[0] > width)


class MoveList(ScrollView):
    """The move list, numbered in pairs; ``current`` (an index into ``san``, -1 for
    none) is marked while reviewing. Scrolls to the newest entry or to ``current``."""

    san = ObjectProperty(())
    current = NumericProperty(-1)
    text = StringProperty("")
    marked = BooleanProperty(False)
    """The text carries markup (an entry is marked): plain text renders several times
    faster, which matters on every turn of a game."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.fbind("san", self._update)
        self.fbind("current", self._update)
        self._update()

    def _update(self, *_: Any) -> None:
        from kivy.utils import escape_markup

        san = list(self.san or ())
        current = int(self.current)
        nbsp = "\u00a0"
        entries = []
        marked = 0 <= current < len(san)
        for index, text in enumerate(san):
            word = escape_markup(text) if marked else text
            if index == current:
                word = f"[b][color=#fac048]\u25b8{word}[/color][/b]"
            number = f"{index // 2 + 1}.{nbsp}" if index % 2 == 0 else ""
            entries.append(number + word)
        pairs = [nbsp.join(entries[i:i + 2]) for i in range(0, len(entries), 2)]
        self.marked = marked
        self.text = "   ".join(pairs)
        self.scroll_y = 0 if current < 0 or not san else 1 - current / max(1, len(san) - 1)


class OptionRow(BoxLayout):
    """A titled, explained setting with its control (the row's last child): side by side
    on a wide screen, the control under the text on a narrow one. The row is as tall
    as it needs; the control keeps its own height (at least a touch target)."""

    title = StringProperty("")
    explanation = StringProperty("")
    narrow = BooleanProperty(False)
    text_height = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        self._resize = Clock.create_trigger(self._fit, -1)
        super().__init__(**kwargs)
        self.fbind("width", self._resize)
        self.fbind("text_height", self._resize)

    def add_widget(self, widget: Any, *args: Any, **kwargs: Any) -> None:
        super().add_widget(widget, *args, **kwargs)
        widget.fbind("height", self._resize)
        self._resize()

    def control(self) -> Any:
        return self.children[0] if len(self.children) > 1 else None

    def _fit(self, *_: Any) -> None:
        from kivy.metrics import dp

        self.narrow = self.width < dp(600)
        self.orientation = "vertical" if self.narrow else "horizontal"
        control = self.control()
        if control is not None:
            control.size_hint_y = None
            if control.height < dp(48):
                control.height = dp(52)
        control_h = control.height if control is not None else 0
        pad = self.padding[1] + self.padding[3]
        if self.narrow:
            self.height = self.text_height + control_h + self.spacing + pad
        else:
            self.height = max(self.text_height, control_h) + pad


class ScreenHeader(BoxLayout):
    """Back, the screen's title (shrinking to fit) and its main action (``on_action``)."""

    title = StringProperty("")
    action_text = StringProperty("")

    __events__ = ("on_action",)

    def on_action(self) -> None:
        """Default handler: nothing."""


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
    """The flipped card, large: ``card`` is a :class:`ui.table_view.CardPicture` or None
    (then the face-down deck with ``deck_size`` cards left is shown)."""

    card = ObjectProperty(None, allownone=True)
    deck_size = NumericProperty(0)
    note = StringProperty("")  # replaces the card's caption (e.g. "Black's card")
    show_caption = BooleanProperty(True)  # only where 14sp text fits under the piece


class CapturedStrip(PieceDrawing):
    """The opposing pieces a side has taken, as small overlapping icons, and how much
    material it is ahead ("+3"); ``pieces`` holds (piece type, blue) pairs."""

    pieces = ObjectProperty(())
    color = BooleanProperty(False)  # the taken pieces' colour (the opponent's)
    advantage = NumericProperty(0)
    needed_width = NumericProperty(0)

    redraw_on = ("pos", "size", "pieces", "color", "advantage")

    def _draw(self, *_: Any) -> None:
        self.canvas.clear()
        icon = min(self.height * 0.85, sp(22))
        step = icon * 0.55
        pieces = sorted(self.pieces or (), key=lambda p: -p[0])
        text = glyph_texture(f"+{int(self.advantage)}", int(sp(15))) if self.advantage else None
        width = (len(pieces) - 1) * step + icon if pieces else 0
        width += (text.width + sp(4)) if text is not None else 0
        self.needed_width = width
        if self.width < 4:
            return
        x = self.x
        cy = self.center_y
        for piece_type, blue in pieces:
            if x + icon > self.right - ((text.width + sp(4)) if text is not None else 0):
                break
            self.canvas.add(piece_instructions(piece_type, self.color, blue,
                                               (x + icon / 2, cy), icon, shadow=False))
            x += step
        if text is not None:
            with self.canvas:
                Color(*theme.TEXT)
                Rectangle(texture=text, pos=(self.right - text.width, cy - text.height / 2),
                          size=text.size)


class DeckStrip(PieceDrawing):
    """The cards left in a deck by kind: an icon and a count for each kind.

    ``entries`` holds :class:`ui.table_view.DeckEntry` items; ``color`` the deck's side.
    """

    entries = ObjectProperty(())
    color = BooleanProperty(True)
    columns = NumericProperty(0)  # 0: one row

    redraw_on = ("pos", "size", "entries", "color", "columns")

    def _draw(self, *_: Any) -> None:
        self.canvas.clear()
        entries = list(self.entries or ())
        if not entries:
            with self.canvas:
                Color(*theme.TEXT_DIM)
                texture = glyph_texture("deck empty: chess moves only",
                                        int(max(sp(14), self.height * 0.4)))
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
            count = glyph_texture(f"\u00d7{entry.count}", int(max(sp(14), icon * 0.62)))
            with self.canvas:
                Color(*theme.TEXT)
                Rectangle(texture=count, pos=(x + icon * 1.1, center[1] - count.height / 2),
                          size=count.size)


Builder.load_file(os.path.join(os.path.dirname(__file__), "common.kv"))
