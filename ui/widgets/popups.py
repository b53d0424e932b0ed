"""Modal views of the game screen: the promotion picker and the mate verdict.
Looks in ``popups.kv``."""

from __future__ import annotations

import logging
import os
from typing import Any

import chess
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.modalview import ModalView

import ui.widgets.common  # noqa: F401  (the shared widgets the rules use)

LOGGER = logging.getLogger(__name__)


class PlacedModal(ModalView):
    """A modal view placed at ``rect`` (window coordinates) instead of the centre;
    ``near`` (a window point) places it beside that point instead."""

    rect = ListProperty()
    near = ListProperty()

    def on_open(self) -> None:
        self._align_center()  # ModalView.open centres the view without asking

    def _align_center(self, *_args: Any) -> None:
        if not self._is_open:
            return
        window = self._window
        if self.rect:
            self.pos = self.rect[:2]
            self.size = self.rect[2:]
        elif self.near:
            x = min(max(0.0, self.near[0] - self.width / 2), window.width - self.width)
            above = self.near[1] + dp(40)
            y = above if above + self.height <= window.height else \
                self.near[1] - dp(40) - self.height
            self.pos = (x, min(max(0.0, y), window.height - self.height))
        else:
            self.center = window.center


class PromotionPicker(PlacedModal):
    """The blue pieces, by name, beside the promotion square and turned towards the
    player who promotes; blue pieces already used are shown greyed. A cancel takes
    the pawn back to its square.

    ``on_choice(piece_type)`` is dispatched when a piece is tapped;
    ``on_cancel`` when the picker is dismissed without a choice.
    """

    choices = ListProperty()
    used = ListProperty()
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


class ReviewSheet(PlacedModal):
    """Steps through the game's positions (``frames``, :class:`ui.table_view.ReviewFrame`);
    the screen shows ``frame`` on its board. Nothing here touches the game. Face to
    face (``face_to_face``), a button turns it towards the other player (``turned``:
    towards Black)."""

    face_to_face = BooleanProperty(False)
    turned = BooleanProperty(False)
    frames = ListProperty()
    index = NumericProperty(0)
    frame = ObjectProperty(None, allownone=True)

    def on_index(self, _sheet: Any, index: float) -> None:
        if self.frames:
            self.frame = self.frames[max(0, min(int(index), len(self.frames) - 1))]

    def on_frames(self, _sheet: Any, _frames: Any) -> None:
        self.on_index(self, self.index)

    def step(self, delta: int) -> None:
        self.index = max(0, min(int(self.index) + delta, len(self.frames) - 1))

    def go(self, index: int) -> None:
        self.index = max(0, min(index, len(self.frames) - 1))


class SensedSheet(PlacedModal):
    """The sensed board with its status, fixes and questions, for small screens; face
    to face, turned towards the player to move (a button turns it over)."""

    face_to_face = BooleanProperty(False)
    turned = BooleanProperty(False)
    white_at_bottom = BooleanProperty(True)
    screen = ObjectProperty(None, allownone=True)
    sensed = ObjectProperty(None, allownone=True)
    board_problem = BooleanProperty(False)


class MenuView(PlacedModal):
    """A small menu of what a crowded toolbar or bar has no room for (the chess
    screen's on a narrow phone, the games screen's bar): ``items`` are (text, callback)
    pairs, one button each, placed beside the menu button (``near``). A tap runs the
    item after the menu closes."""

    _anim_duration = 0

    items = ListProperty()

    def on_items(self, _view: Any, items: list[tuple[str, Any]]) -> None:
        from ui.widgets.common import RoundButton

        box = self.ids.rows
        box.clear_widgets()
        for text, action in items:
            button = RoundButton(text=text, size_hint_y=None, height=dp(52),
                                 font_size="17sp")
            button.bind(on_release=lambda _b, a=action: self.pick(a))
            box.add_widget(button)

    def pick(self, action: Any) -> None:
        self.dismiss(animation=False)
        action()


class ConfirmView(ModalView):
    """A question with two answers; ``on_yes`` is dispatched for the first. The back key
    closes it at once (no fade, so the next back press finds it gone)."""

    _anim_duration = 0

    title = StringProperty("")
    text = StringProperty("")
    yes_text = StringProperty("Yes")
    no_text = StringProperty("Cancel")

    __events__ = ("on_yes",)

    def answer(self, yes: bool) -> None:
        self.dismiss(animation=False)
        if yes:
            self.dispatch("on_yes")

    def on_yes(self) -> None:
        """Default handler: nothing."""


class VerdictView(ModalView):
    """The mate verdict: summary, the leaflet's four conditions, the rescue chance."""

    _anim_duration = 0

    verdict = ObjectProperty(None, allownone=True)
    rescue_text = StringProperty("")
    turned = BooleanProperty(False)  # upside down, for the player across the table


def card_count(card: str, copies: int) -> str:
    """``"1 knight"``, ``"2 bishops"``, ``"3 jokers"``: a card letter and its count in words."""
    from companion.rules import card_name, parse_card_letter

    name = card_name(parse_card_letter(card)[0])
    return f"{copies} {name}{'' if copies == 1 else 's'}"


def rescue_text(verdict: Any) -> str:
    """The rescue cards and chance in words (empty when not in check)."""
    if not verdict.conditions[0].holds:
        return ""
    lines = []
    if verdict.rescue_cards:
        cards = ", ".join(card_count(r.card, r.copies) + f" ({r.effect})"
                          for r in verdict.rescue_cards)
        lines.append(f"Cards in the deck that rescue: {cards}")
    else:
        lines.append("No card left in the deck can rescue.")
    if verdict.deck_size and verdict.flip_allowed:
        chance = verdict.rescue_probability
        lines.append(f"Chance a flip now lifts the check: {chance.numerator}/{chance.denominator}"
                     f" ({float(chance):.0%})")
    return "\n".join(lines)


Builder.load_file(os.path.join(os.path.dirname(__file__), "popups.kv"))
