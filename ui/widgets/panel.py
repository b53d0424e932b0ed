"""One player's side of the table: the flipped card, the deck by kind, the clock,
a large Flip button, draw offers and resignation. Looks in ``panel.kv``.

The panel only shows a :class:`ui.table_view.PlayerView` and reports presses as
events (``on_flip``, ``on_offer_draw``, ``on_answer_draw``, ``on_resign``).
"""

from __future__ import annotations

import logging
import os

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

import ui.widgets.common  # noqa: F401  (the shared widgets the rule uses)

LOGGER = logging.getLogger(__name__)


class PlayerPanel(BoxLayout):
    """A player's controls; ``player`` is a PlayerView, ``card`` a CardPicture or None."""

    player = ObjectProperty(None, allownone=True)
    card = ObjectProperty(None, allownone=True)
    confirm_resign = BooleanProperty(False)
    message = StringProperty("")   # the players' message, shown on both panels
    level = StringProperty("info")  # its colour: a key of theme.MESSAGE_FILL
    compact = BooleanProperty(False)  # no row for the deck by kind (phones)

    __events__ = ("on_flip", "on_offer_draw", "on_answer_draw", "on_resign", "on_claim_draw")

    def on_claim_draw(self) -> None:
        """Default handler: nothing."""

    def on_flip(self) -> None:
        """Default handler: nothing."""

    def on_offer_draw(self) -> None:
        """Default handler: nothing."""

    def on_answer_draw(self, accept: bool) -> None:
        """Default handler: nothing."""

    def on_resign(self) -> None:
        """Default handler: nothing."""


Builder.load_file(os.path.join(os.path.dirname(__file__), "panel.kv"))
