"""Simulated touches, delivered through the window like a finger's (for the
scripted demo, the screenshot script and the headless tests)."""

from __future__ import annotations

import itertools
import logging
from typing import Any

import chess
from kivy.base import EventLoop
from kivy.input.motionevent import MotionEvent

LOGGER = logging.getLogger(__name__)

_IDS = itertools.count(1000)


class SimulatedTouch(MotionEvent):  # type: ignore[misc]
    """A one-finger touch at window coordinates (x, y)."""

    def __init__(self, x: float, y: float) -> None:
        window = EventLoop.window
        super().__init__("simulated", next(_IDS),
                         {"x": x / max(1.0, window.width - 1.0),
                          "y": y / max(1.0, window.height - 1.0)},
                         is_touch=True, type_id="touch")
        self.profile = ["pos"]

    def depack(self, args: dict[str, float]) -> None:
        self.sx = args["x"]
        self.sy = args["y"]
        super().depack(args)


def tap_at(x: float, y: float) -> None:
    """Press and release at window coordinates."""
    touch = SimulatedTouch(x, y)
    EventLoop.post_dispatch_input("begin", touch)
    EventLoop.post_dispatch_input("end", touch)


def scroll_into_view(widget: Any, padding: float = 0) -> bool:
    """Scroll the list (the nearest ScrollView) that holds ``widget`` until it shows, as
    a finger would before tapping it; whether there was such a list."""
    from kivy.uix.scrollview import ScrollView

    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        if isinstance(parent, ScrollView):
            parent.scroll_to(widget, padding=padding, animate=False)
            return True
        parent = parent.parent
    return False


def tap(widget: Any) -> None:
    """Tap the middle of a widget (wherever it is, turned or not)."""
    x, y = widget.to_window(*widget.center)
    tap_at(x, y)


def tap_square(board_view: Any, square: chess.Square) -> None:
    """Tap a square of a :class:`ui.widgets.board.BoardView`."""
    x, y = board_view.to_window(*board_view.square_center(square))
    tap_at(x, y)
