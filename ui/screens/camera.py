"""The camera calibration wizard: pick the camera, see the live picture, find the
board (the grid is drawn on the picture), save the calibration the camera board
uses. Looks in ``camera.kv``."""

from __future__ import annotations

import logging
import os
from typing import Any

from kivy.lang import Builder
from kivy.properties import NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

import ui.widgets.camera_preview
import ui.widgets.common  # noqa: F401
from ui.camera_feed import DEMO_SOURCE, CameraFeed, vision_problem

LOGGER = logging.getLogger(__name__)


class CameraScreen(Screen):
    """The wizard's steps: 1 camera, 2 find the board, 3 save."""

    feed = ObjectProperty(None)
    step = NumericProperty(1)
    saved_text = StringProperty("")
    problem = StringProperty("")
    demo_source = DEMO_SOURCE

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("feed", CameraFeed())
        super().__init__(**kwargs)
        self.feed.bind(found=self._on_found, running=self._on_running,
                       texture=self._on_texture)

    def on_pre_enter(self, *_: Any) -> None:
        # Checked on entering, not at start-up: importing OpenCV takes a while.
        self.problem = vision_problem()

    def start_camera(self, source: str) -> None:
        self.saved_text = ""
        self.step = 1
        self.feed.texture = None
        self.feed.start(source.strip() or "0")

    def _on_texture(self, _feed: Any, texture: Any) -> None:
        # Step 2 once the camera shows a picture: a camera that fails stays on step 1.
        if texture is not None and self.feed.running and self.step == 1:
            self.step = 2

    def _on_running(self, _feed: Any, running: bool) -> None:
        if not running and self.feed.found is None:
            self.step = 1

    def _on_found(self, _feed: Any, found: Any) -> None:
        self.step = 3 if found is not None else min(self.step, 2)

    def save(self) -> None:
        self.saved_text = self.feed.save()

    def on_leave(self, *_: Any) -> None:
        self.feed.stop()


Builder.load_file(os.path.join(os.path.dirname(__file__), "camera.kv"))
