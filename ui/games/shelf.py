"""The game shelf: every game the companion plays, each with a picture, its one-line
pitch, a new game, its rules page and (when there is one) its unfinished game to resume.
Raindropchess leads the shelf and opens its own new-game screen. Looks in ``shelf.kv``.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen

import ui.widgets.common  # noqa: F401  (widgets the rules use)
from companion import games
from ui.games import control
from ui.games.board import GameBoard
from ui.games.geometry import layout

LOGGER = logging.getLogger(__name__)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"


def shelf_games() -> list[Any]:
    """The games that can be loaded, in shelf order (a game that fails to load is left
    out and logged)."""
    found = []
    for name in games.names():
        try:
            found.append(games.get(name))
        except (ImportError, AttributeError, ValueError) as error:
            LOGGER.warning("game %s cannot be loaded: %s", name, error)
    return found


def rules_text(name: str) -> str:
    """The game's rules page (docs/games/NAME.md), or why there is none."""
    path = DOCS / f"{name}.md"
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return f"The rules page of {name} is not installed ({path.name})."


class GameCard(BoxLayout):
    """One game on the shelf."""

    name = StringProperty("")
    title = StringProperty("")
    pitch = StringProperty("")
    resume_text = StringProperty("")


class RulesView(ModalView):
    """A game's rules page, scrollable."""

    text = StringProperty("")


class ShelfScreen(Screen):
    """``names`` are the games shown (set on entering)."""

    names = ListProperty()

    def refresh(self) -> None:
        from ui.games import saved

        box = self.ids.cards
        box.clear_widgets()
        rules_list = shelf_games()
        self.names = [rules.name for rules in rules_list]
        unfinished = saved.unfinished_by_game()
        for rules in rules_list:
            card = GameCard(name=rules.name, title=rules.title, pitch=rules.pitch)
            info = unfinished.get(rules.name)
            card.resume_text = info.text if info is not None else ""
            try:
                picture = layout(rules, rules.start())
            except (ValueError, KeyError) as error:
                LOGGER.warning("no picture of %s: %s", rules.name, error)
                picture = None
            card.ids.picture.add_widget(GameBoard(layout=picture, coordinates=False,
                                                  interactive=False,
                                                  pos_hint={"x": 0, "y": 0}))
            box.add_widget(card)

    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def new_game(self, name: str) -> None:
        app = App.get_running_app()
        setup = app.screen("games_setup")
        setup.game = name
        app.show("games_setup")

    def resume(self, name: str) -> None:
        control.resume_game(App.get_running_app(), name)

    def show_rules(self, name: str) -> RulesView:
        view = RulesView(text=rules_text(name))
        view.open(animation=False)
        return view


Builder.load_file(os.path.join(os.path.dirname(__file__), "shelf.kv"))
