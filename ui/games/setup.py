"""The new-game screen of an abstract game, built from the game's named options: a row
of choices where the rules file lists the values, a field where any value may do (the
engine checks it), each with its plain explanation. Looks in ``setup.kv``."""

from __future__ import annotations

import logging
import os
from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.properties import DictProperty, StringProperty
from kivy.uix.screenmanager import Screen
from kivy.uix.textinput import TextInput

import ui.widgets.common
import ui.widgets.segmented  # noqa: F401  (widgets the rules use)
from companion import games
from companion.games import OptionError
from ui import seat_choice
from ui.games import control
from ui.games.control import CLOCKS
from ui.games.sensing import BOARD_HELP, BOARDS, follows
from ui.widgets.segmented import Segmented

LOGGER = logging.getLogger(__name__)

ABSENT = "(none)"
"""The choice shown for an option with no default: left out (Rumbo's komi: the players
name it in the game)."""


class OptionField(TextInput):
    """A free-form option value."""

    key = StringProperty("")


class GameSetupScreen(Screen):
    """``game`` is the game's name; ``values`` the options chosen so far."""

    game = StringProperty("")
    title = StringProperty("")
    problem = StringProperty("")
    values = DictProperty()
    clock = StringProperty("none")
    """The clock chosen: ``"none"`` or one of :data:`ui.games.control.CLOCKS`."""
    board = StringProperty(BOARDS[0])
    """Where the game is played: on the screen, or followed by the camera."""
    seats = DictProperty()
    """Each seat's choice: ``"person"`` or the companion's level ``"1"``..``"5"``."""
    hints = StringProperty(seat_choice.DEFAULT_HINTS)

    def on_pre_enter(self, *_: Any) -> None:
        self.build_options()  # every visit starts from the defaults

    def build_options(self) -> None:
        box = self.ids.options
        box.clear_widgets()
        self.problem = ""
        if not self.game:
            return
        rules = games.get(self.game)
        self.title = f"New game of {rules.title}"
        self.values = {}
        for key, option in rules.options.items():
            row = Factory.OptionRow(title=key, explanation=option.help)
            default = option.default if option.default is not None else ""
            self.values[key] = default
            if option.choices is not None:
                choices = [(value, value) for value in option.choices]
                widget: Any = Segmented(options=choices, value=default)
                widget.bind(value=lambda w, v, k=key: self.values.__setitem__(k, v))
            else:
                widget = OptionField(key=key, text=default, multiline=False,
                                     hint_text=ABSENT if option.default is None else "",
                                     font_size="20sp", write_tab=False)
                widget.bind(text=lambda w, v, k=key: self.values.__setitem__(k, v.strip()))
            widget.option_key = key
            row.add_widget(widget)
            box.add_widget(row)
        self._seat_rows(box, rules)
        self.clock = "none"
        row = Factory.OptionRow(title="clock", explanation=(
            "A chess clock for both players: minutes each, plus seconds added after "
            "every turn. A player whose time runs out loses."))
        widget = Segmented(options=[(value, value) for value in CLOCKS], value="none")
        widget.bind(value=lambda w, v: setattr(self, "clock", v))
        widget.option_key = "clock"
        row.add_widget(widget)
        box.add_widget(row)
        self.board = BOARDS[0]
        if follows(self.game):  # stone games: the camera may follow the physical board
            row = Factory.OptionRow(title="board", explanation=BOARD_HELP)
            widget = Segmented(options=[(b, b) for b in BOARDS], value=self.board)
            widget.bind(value=lambda w, v: setattr(self, "board", v))
            widget.option_key = "board"
            row.add_widget(widget)
            box.add_widget(row)

    def seat_names(self) -> tuple[str, str]:
        """The game's seats (its sides; Rumbo's roles, proposer and chooser)."""
        from companion.table.games_table import seat_names

        rules = games.get(self.game)
        try:
            start = rules.start(**self.chosen())
        except (OptionError, ValueError, TypeError):
            start = rules.start()
        return seat_names(rules, start)

    def _seat_rows(self, box: Any, rules: Any) -> None:
        """A row for each seat (a person or the companion at a level), and the hints."""
        self.seats = {}
        for name in self.seat_names():
            self.seats[name] = seat_choice.PERSON
            row = Factory.OptionRow(title=name, explanation=seat_choice.SEAT_HELP)
            widget = Segmented(options=seat_choice.SEAT_OPTIONS, value=seat_choice.PERSON)
            widget.bind(value=lambda w, v, k=name, r=row: self._seat_chosen(k, v, r))
            widget.option_key = f"seat:{name}"
            row.add_widget(widget)
            box.add_widget(row)
        self.hints = seat_choice.DEFAULT_HINTS
        row = Factory.OptionRow(title="hints", explanation=seat_choice.HINT_HELP)
        widget = Segmented(options=seat_choice.HINT_OPTIONS, value=self.hints)
        widget.bind(value=lambda w, v: setattr(self, "hints", v))
        widget.option_key = "hints"
        row.add_widget(widget)
        box.add_widget(row)

    def _seat_chosen(self, name: str, value: str, row: Any) -> None:
        self.seats[name] = value
        row.explanation = seat_choice.seat_help(value)

    def table_settings(self) -> Any:
        """Who plays each seat, and the hints, as chosen."""
        app = App.get_running_app()
        return seat_choice.table_settings(self.seat_names(), self.seats, self.hints,
                                          playouts=getattr(app, "companion_playouts", None))

    def chosen(self) -> dict[str, str]:
        return {key: value for key, value in self.values.items() if value}

    def start(self) -> None:
        """Start the game with the chosen options; a bad value is named, nothing starts."""
        try:
            control.start_game(App.get_running_app(), self.game, self.chosen(),
                               clock=control.clock_settings(self.clock),
                               board=self.board, table=self.table_settings().to_dict())
        except OptionError as error:
            self.problem = str(error)


Builder.load_file(os.path.join(os.path.dirname(__file__), "setup.kv"))
