"""The home screen: new game, resume the journalled game, camera setup, settings.
Looks in ``home.kv``."""

from __future__ import annotations

import logging
import os

from kivy.lang import Builder
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

import ui.widgets.common  # noqa: F401  (widgets the rule uses)

LOGGER = logging.getLogger(__name__)


class HomeScreen(Screen):
    """``can_resume``/``resume_text`` describe the journalled game, set by the app."""

    can_resume = BooleanProperty(False)
    resume_text = StringProperty("No unfinished game")
    in_game = BooleanProperty(False)


Builder.load_file(os.path.join(os.path.dirname(__file__), "home.kv"))
