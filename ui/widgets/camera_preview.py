"""A camera picture with the found board grid drawn over it."""

from __future__ import annotations

import logging
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Line, Rectangle
from kivy.properties import ListProperty, ObjectProperty
from kivy.uix.widget import Widget

from ui import theme
from ui.camera_feed import grid_lines

LOGGER = logging.getLogger(__name__)


class CameraPreview(Widget):
    """``texture``: the frame; ``corners``: a8, h8, h1, a1 in image pixels (or empty);
    ``image_size``: the frame's (width, height)."""

    texture = ObjectProperty(None, allownone=True)
    corners = ListProperty()
    image_size = ListProperty([0, 0])

    def __init__(self, **kwargs: Any) -> None:
        self._redraw = Clock.create_trigger(self._draw, -1)
        super().__init__(**kwargs)
        for name in ("pos", "size", "texture", "corners", "image_size"):
            self.fbind(name, self._redraw)
        self._redraw()

    def _draw(self, *_: Any) -> None:
        self.canvas.clear()
        with self.canvas:
            Color(0.05, 0.05, 0.07, 1)
            Rectangle(pos=self.pos, size=self.size)
        texture = self.texture
        if texture is None:
            return
        tw, th = texture.size
        scale = min(self.width / tw, self.height / th) if tw and th else 0
        if scale <= 0:
            return
        w, h = tw * scale, th * scale
        x0, y0 = self.x + (self.width - w) / 2, self.y + (self.height - h) / 2
        with self.canvas:
            Color(1, 1, 1, 1)
            Rectangle(texture=texture, pos=(x0, y0), size=(w, h))
            if len(self.corners) == 4:
                iw, ih = self.image_size if self.image_size[0] else (tw, th)
                sx, sy = w / iw, h / ih

                def place(point: tuple[float, float]) -> tuple[float, float]:
                    return x0 + point[0] * sx, y0 + h - point[1] * sy

                Color(*theme.GOOD)
                for start, end in grid_lines(tuple(tuple(c) for c in self.corners)):
                    (ax, ay), (bx, by) = place(start), place(end)
                    Line(points=[ax, ay, bx, by], width=1.6)
                Color(*theme.ACCENT)
                ax, ay = place(self.corners[3])  # a1
                Line(circle=(ax, ay, 10), width=2.5)
