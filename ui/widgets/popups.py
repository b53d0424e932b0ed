"""Modal views of the game screen: the promotion picker and the mate verdict.
Looks in ``popups.kv``."""

from __future__ import annotations

import logging
import os
from typing import Any

import chess
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.modalview import ModalView

import ui.widgets.common  # noqa: F401  (the shared widgets the rules use)

LOGGER = logging.getLogger(__name__)


class PromotionPicker(ModalView):
    """Offers only the blue pieces still available; turned towards the mover.

    ``on_choice(piece_type)`` is dispatched when a piece is tapped;
    ``on_cancel`` when the picker is dismissed without a choice.
    """

    choices = ListProperty()
    color = BooleanProperty(True)

    __events__ = ("on_choice", "on_cancel")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._chosen = False

    def choose(self, piece_type: chess.PieceType) -> None:
        self._chosen = True
        self.dispatch("on_choice", piece_type)
        self.dismiss(animation=False)

    def on_dismiss(self) -> None:
        if not self._chosen:
            self.dispatch("on_cancel")

    def on_choice(self, piece_type: chess.PieceType) -> None:
        """Default handler: nothing."""

    def on_cancel(self) -> None:
        """Default handler: nothing."""


class VerdictView(ModalView):
    """The mate verdict: summary, the leaflet's four conditions, the rescue chance."""

    verdict = ObjectProperty(None, allownone=True)
    rescue_text = StringProperty("")


def rescue_text(verdict: Any) -> str:
    """The rescue cards and chance in words (empty when not in check)."""
    if not verdict.conditions[0].holds:
        return ""
    lines = []
    if verdict.rescue_cards:
        cards = ", ".join(f"{r.card} \u00d7{r.copies} ({r.effect})" for r in verdict.rescue_cards)
        lines.append(f"Rescuing cards in the deck: {cards}")
    else:
        lines.append("No card left in the deck can rescue.")
    if verdict.deck_size and verdict.flip_allowed:
        chance = verdict.rescue_probability
        lines.append(f"Chance a flip now lifts the check: {chance.numerator}/{chance.denominator}"
                     f" ({float(chance):.0%})")
    return "\n".join(lines)


Builder.load_file(os.path.join(os.path.dirname(__file__), "popups.kv"))
