"""A thin bar that fills while the companion thinks: its search's time against its level's
time. Drawn on the canvas (no text: a label drawn anew is costly while a search holds the
interpreter)."""

from __future__ import annotations

import logging
from typing import Any

from kivy.graphics import Color, Rectangle
from kivy.properties import BooleanProperty, NumericProperty
from kivy.uix.widget import Widget

from ui import theme

LOGGER = logging.getLogger(__name__)


class ThinkingBar(Widget):
    """``progress`` 0 to 1; shown while ``active``."""

    progress = NumericProperty(0.0)
    active = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for name in ("pos", "size", "progress", "active"):
            self.fbind(name, self._draw)
        self._draw()

    def _draw(self, *_: Any) -> None:
        self.canvas.clear()
        if not self.active:
            return
        with self.canvas:
            Color(*theme.SURFACE_RAISED)
            Rectangle(pos=self.pos, size=self.size)
            Color(*theme.ACCENT)
            share = max(0.03, min(1.0, float(self.progress)))
            Rectangle(pos=self.pos, size=(self.width * share, self.height))
