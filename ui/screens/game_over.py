"""The game-over screen: the result on both sides of the table, what decided the game
(the card flipped in vain, or the last move) with the mate verdict's reasons, the final
position, the move list; review, back to the board, PGN export, a new game. Looks in
``game_over.kv``."""

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
    """``view`` is the final :class:`ui.table_view.TableView`; ``export_text`` says where
    the PGN went (or why it could not be written)."""

    view = ObjectProperty(None, allownone=True)
    ending = ObjectProperty(None, allownone=True)   # the view's Ending
    banner = StringProperty("")                     # result and headline, on both sides
    face_to_face = BooleanProperty(True)
    export_text = StringProperty("")
    export_ok = BooleanProperty(False)

    def on_view(self, _screen: object, view: object) -> None:
        ending = getattr(view, "ending", None)
        self.ending = ending
        self.banner = f"{ending.result}   {ending.headline}" if ending is not None else ""


Builder.load_file(os.path.join(os.path.dirname(__file__), "game_over.kv"))
