"""The new-game screen: every house rule with its one-line explanation, jokers,
the clock and the board source (with what is not available and why). Looks in
``new_game.kv``."""

from __future__ import annotations

import logging
import os
from typing import Any, ClassVar

from kivy.lang import Builder
from kivy.properties import (
    BooleanProperty,
    DictProperty,
    ListProperty,
    NumericProperty,
    StringProperty,
)
from kivy.uix.screenmanager import Screen

import ui.widgets.common
import ui.widgets.segmented  # noqa: F401
from companion.rules import EXPLANATIONS, HouseRules
from ui import seat_choice
from ui.options import (
    BOARD_EXPLANATIONS,
    BOARD_KINDS,
    BOARD_TITLES,
    CLOCK_CHOICES,
    JOKER_EFFECT_TEXT,
    NewGame,
)

LOGGER = logging.getLogger(__name__)


class NewGameScreen(Screen):
    """Collects a :class:`ui.options.NewGame`; ``board_status`` maps each board kind
    to "" (available) or the reason it is not, set by the app."""

    jokers = NumericProperty(0)
    joker_effect = StringProperty("extra_turn")
    failed_rescue = StringProperty("lose")
    touch_rule = StringProperty("warn")
    blue_returns = BooleanProperty(False)
    coloured_bishops = BooleanProperty(False)
    blue_pieces = StringProperty("QRBN")
    clock_index = NumericProperty(0)
    board = StringProperty("sim")
    board_status = DictProperty({kind: "" for kind in BOARD_KINDS})
    unavailable = ListProperty()      # board kinds that cannot be used now
    unavailable_text = StringProperty("")
    checking = BooleanProperty(False)  # the board sources are being checked
    white_seat = StringProperty(seat_choice.PERSON)   # "person" or the companion's level
    black_seat = StringProperty(seat_choice.PERSON)
    hints = StringProperty(seat_choice.DEFAULT_HINTS)
    playouts: int | None = None
    """The companion's fixed budget a turn (tests; the app's ``companion_playouts``)."""

    seat_options = seat_choice.SEAT_OPTIONS
    hint_options = seat_choice.HINT_OPTIONS
    seat_help = staticmethod(seat_choice.seat_help)
    hint_help = seat_choice.HINT_HELP

    explanations = EXPLANATIONS
    joker_effect_text = JOKER_EFFECT_TEXT
    board_titles = BOARD_TITLES
    board_explanations = BOARD_EXPLANATIONS
    clock_options: ClassVar[list[tuple[int, str]]] = [
        (index, label) for index, (label, _) in enumerate(CLOCK_CHOICES)]
    board_options: ClassVar[list[tuple[str, str]]] = [
        (kind, BOARD_TITLES[kind]) for kind in BOARD_KINDS]

    def toggle_blue(self, letter: str) -> None:
        if letter in self.blue_pieces:
            self.blue_pieces = self.blue_pieces.replace(letter, "")
        else:
            self.blue_pieces = "".join(p for p in "QRBN" if p in self.blue_pieces + letter)

    def new_game(self, board_spec: str | None = None) -> NewGame:
        """The chosen settings (raises HouseRulesError for impossible combinations)."""
        rules = HouseRules(
            jokers_per_deck=int(self.jokers),
            joker_effect=self.joker_effect,  # type: ignore[arg-type]
            failed_rescue=self.failed_rescue,  # type: ignore[arg-type]
            touch_move=self.touch_rule,  # type: ignore[arg-type]
            blue_returns_when_captured=self.blue_returns,
            coloured_bishop_cards=self.coloured_bishops,
            blue_pieces=self.blue_pieces,
        )
        clock = CLOCK_CHOICES[int(self.clock_index)][1]
        return NewGame(rules=rules, clock=clock, board=board_spec or self.board,
                       table=self.table_settings().to_dict())

    def table_settings(self) -> Any:
        """Who plays each side, and the hints, as chosen."""
        return seat_choice.table_settings(
            ("white", "black"), {"white": self.white_seat, "black": self.black_seat},
            self.hints, playouts=self.playouts)

    def on_board_status(self, *_: Any) -> None:
        self.unavailable = [kind for kind in BOARD_KINDS if self.board_status.get(kind)]
        self.unavailable_text = "; ".join(
            f"{BOARD_TITLES[kind]}: not available: {self.board_status[kind]}"
            for kind in self.unavailable)
        if self.board_status.get(self.board):
            self.board = "screen"


Builder.load_file(os.path.join(os.path.dirname(__file__), "new_game.kv"))
