"""The saved games: every journalled game, newest first, to resume (a game still
running) or to review (a finished one). Looks in ``games.kv``."""

from __future__ import annotations

import logging
import os
from typing import Any

from kivy.lang import Builder
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

import ui.widgets.common  # noqa: F401  (widgets the rules use)

LOGGER = logging.getLogger(__name__)


class SavedGameRow(BoxLayout):
    """One saved game (a :class:`ui.resume.SavedGame`) and its button."""

    game = ObjectProperty(None, allownone=True)


class GamesScreen(Screen):
    """Lists the journals when shown; ``empty_text`` says when there are none."""

    empty_text = StringProperty("")

    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        from ui import resume

        games = resume.saved_games()
        rows = self.ids.rows
        rows.clear_widgets()
        for game in games:
            rows.add_widget(SavedGameRow(game=game))
        self.empty_text = "" if games else ("No saved games yet: a new game is saved as it "
                                            "is played.")


Builder.load_file(os.path.join(os.path.dirname(__file__), "games.kv"))
