"""The settings screen: player names and how the table is laid out. Looks in
``settings.kv``."""

from __future__ import annotations

import logging
import os

from kivy.lang import Builder
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

import ui.widgets.common
import ui.widgets.segmented  # noqa: F401
from companion import journal
from ui import paths
from ui.settings import AppSettings

LOGGER = logging.getLogger(__name__)


CHOICES = ("face_to_face", "white_at_bottom", "sound", "haptics", "highlights",
           "board_colours", "text_size", "pieces", "keep_camera_frames", "voice")
"""The settings the screen's controls choose (names of AppSettings fields and of
the screen's own properties alike)."""


class SettingsScreen(Screen):
    """Edits an :class:`ui.settings.AppSettings`; ``save`` writes it."""

    settings = ObjectProperty(None, allownone=True)
    face_to_face = BooleanProperty(True)
    white_at_bottom = BooleanProperty(True)
    sound = BooleanProperty(True)
    haptics = BooleanProperty(True)
    highlights = StringProperty("standard")
    board_colours = StringProperty("wood")
    text_size = StringProperty("normal")
    pieces = StringProperty("cburnett")
    keep_camera_frames = BooleanProperty(False)
    voice = BooleanProperty(False)
    saved_text = StringProperty("")
    data_text = StringProperty("")

    def on_settings(self, _screen: object, settings: AppSettings | None) -> None:
        if settings is not None:
            for name in CHOICES:
                setattr(self, name, getattr(settings, name))
        self.data_text = (f"Games are journalled in {journal.games_dir()}\n"
                          f"PGN exports go to {paths.export_dir()}\n"
                          f"Camera frames, when kept, go to {paths.kept_frames_dir()}\n"
                          "Chess pieces: Classic is the Cburnett set by Colin M. L. Burnett, "
                          "under the BSD licence (ui/assets/pieces/cburnett/README.md); "
                          "Simple is drawn from the DejaVu Sans font's chess symbols, under "
                          "its free licence (ui/assets/pieces/dejavu/README.md).")

    def save(self, white: str, black: str) -> None:
        settings = self.settings
        if settings is None:
            return
        settings.white_name = white.strip() or "White"
        settings.black_name = black.strip() or "Black"
        for name in CHOICES:
            setattr(settings, name, getattr(self, name))
        from kivy.app import App

        app = App.get_running_app()
        if app is not None:
            app.apply_settings()
        try:
            path = settings.save()
        except OSError as error:
            self.saved_text = f"Could not save: {error}"
            return
        self.saved_text = f"Saved to {path}"
        problem = getattr(app, "voice_problem", "") if settings.voice else ""
        if problem:
            self.saved_text += f"\nThe voice is silent here: {problem}"


Builder.load_file(os.path.join(os.path.dirname(__file__), "settings.kv"))
