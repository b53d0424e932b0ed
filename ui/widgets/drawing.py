"""The base of the widgets that draw pieces and sp-sized text on their own canvas."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.metrics import Metrics
from kivy.uix.widget import Widget

from ui.pieces import PIECE_SET


class PieceDrawing(Widget):
    """Redrawn (at most once a frame) when a property named in ``redraw_on`` changes,
    when the settings' piece set changes and when the text size does (both bound
    weakly, so a dropped widget is not kept alive). Subclasses draw in ``_draw``."""

    redraw_on: tuple[str, ...] = ("pos", "size")

    def __init__(self, **kwargs: Any) -> None:
        self._redraw = Clock.create_trigger(self._draw, -1)
        super().__init__(**kwargs)
        for name in self.redraw_on:
            self.fbind(name, self._redraw)
        Metrics.bind(fontscale=self._on_look)
        PIECE_SET.bind(name=self._on_look)
        self._redraw()

    def _on_look(self, *_: Any) -> None:
        self._redraw()

    def _draw(self, *_: Any) -> None:
        raise NotImplementedError
