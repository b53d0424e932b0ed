"""A row of toggle buttons choosing one value (a segmented control)."""

from __future__ import annotations

import logging
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.metrics import Metrics, dp, sp
from kivy.properties import ListProperty, ObjectProperty
from kivy.uix.gridlayout import GridLayout

from ui import theme
from ui.widgets.common import RoundButton

LOGGER = logging.getLogger(__name__)


class SegmentButton(RoundButton):
    """One option of a :class:`Segmented`; ``value`` is what it stands for."""

    value = ObjectProperty(None, allownone=True)


class Segmented(GridLayout):
    """``options`` is a list of (value, label); ``value`` the chosen one.

    ``disabled_values`` lists options shown but not selectable. The options wrap into
    rows when their labels do not fit side by side (never a word cut in two).
    """

    options = ListProperty()
    value = ObjectProperty(None, allownone=True)
    disabled_values = ListProperty()

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("spacing", dp(6))
        kwargs.setdefault("rows", None)
        kwargs.setdefault("cols", 1)
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("row_force_default", True)
        kwargs.setdefault("row_default_height", dp(52))
        self._reflow = Clock.create_trigger(self._flow, -1)
        super().__init__(**kwargs)
        self.fbind("options", self._build)
        self.fbind("disabled_values", self._build)
        self.fbind("value", self._mark)
        self.fbind("width", self._reflow)
        Metrics.bind(fontscale=self._on_fontscale)  # the text size setting (weakly bound)
        self._build()

    def _on_fontscale(self, *_: Any) -> None:
        self._reflow()

    def _flow(self, *_: Any) -> None:
        """As many columns as the widest label allows; as many rows as that needs."""
        count = max(1, len(self.options))
        widest = 0.0
        for _value, label in self.options:
            for word in str(label).split():
                core = CoreLabel(text=word, font_size=sp(15), bold=True)
                widest = max(widest, core.get_extents(word)[0])
        need = widest + dp(16)
        gap = dp(6)
        columns = max(1, min(count, int((self.width + gap) // (need + gap))))
        self.cols = columns
        rows = -(-count // columns)
        # Rows as tall as the tallest wrapped label needs (larger text), at least 52 dp.
        column_w = max(1.0, (self.width - (columns - 1) * gap) / columns - dp(8))
        tallest = 0.0
        for _value, label in self.options:
            core = CoreLabel(text=str(label), font_size=sp(15), bold=True,
                             text_size=(column_w, None), halign="center")
            core.refresh()
            tallest = max(tallest, float(core.texture.size[1]))
        row = max(dp(52), tallest + dp(8))
        self.row_default_height = row
        self.height = rows * row + (rows - 1) * gap

    def _build(self, *_: Any) -> None:
        self.clear_widgets()
        for value, label in self.options:
            button = SegmentButton(text=label, value=value, font_size="15sp",
                                   disabled=value in self.disabled_values)
            button.bind(on_release=self._pressed)
            self.add_widget(button)
        self._mark()
        self._reflow()

    def _pressed(self, button: SegmentButton) -> None:
        self.value = button.value

    def _mark(self, *_: Any) -> None:
        for button in self.children:
            chosen = button.value == self.value
            button.fill = list(theme.ACCENT if chosen else theme.SURFACE_RAISED)
