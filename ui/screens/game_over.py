"""The game-over screen: the final position, result and reason, PGN export and a
new game. Looks in ``game_over.kv``."""

from __future__ import annotations

import logging
import os

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

import ui.widgets.board
import ui.widgets.common  # noqa: F401

LOGGER = logging.getLogger(__name__)


class GameOverScreen(Screen):
    """``view`` is the final :class:`ui.table.TableView`; ``export_text`` says where
    the PGN went (or why it could not be written)."""

    view = ObjectProperty(None, allownone=True)
    export_text = StringProperty("")
    export_ok = BooleanProperty(False)


Builder.load_file(os.path.join(os.path.dirname(__file__), "game_over.kv"))
