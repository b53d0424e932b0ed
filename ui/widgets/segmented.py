"""A row of toggle buttons choosing one value (a segmented control)."""

from __future__ import annotations

import logging
from typing import Any

from kivy.properties import ListProperty, ObjectProperty
from kivy.uix.boxlayout import BoxLayout

from ui import theme
from ui.widgets.common import RoundButton

LOGGER = logging.getLogger(__name__)


class SegmentButton(RoundButton):
    """One option of a :class:`Segmented`; ``value`` is what it stands for."""

    value = ObjectProperty(None, allownone=True)


class Segmented(BoxLayout):
    """``options`` is a list of (value, label); ``value`` the chosen one.

    ``disabled_values`` lists options shown but not selectable.
    """

    options = ListProperty()
    value = ObjectProperty(None, allownone=True)
    disabled_values = ListProperty()

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("spacing", 6)
        super().__init__(**kwargs)
        self.fbind("options", self._build)
        self.fbind("disabled_values", self._build)
        self.fbind("value", self._mark)
        self._build()

    def _build(self, *_: Any) -> None:
        self.clear_widgets()
        for value, label in self.options:
            button = SegmentButton(text=label, value=value, font_size="15sp",
                                   disabled=value in self.disabled_values)
            button.bind(on_release=self._pressed)
            self.add_widget(button)
        self._mark()

    def _pressed(self, button: SegmentButton) -> None:
        self.value = button.value

    def _mark(self, *_: Any) -> None:
        for button in self.children:
            chosen = button.value == self.value
            button.fill = list(theme.ACCENT if chosen else theme.SURFACE_RAISED)
