"""The game screen: the board, both players' panels, announcements, the move
list, undo/redo, verify and, with a sensing board, the sensed board beside the
game's. Landscape puts the board left and the players' panels right (Black's
turned towards the far side of the table); portrait stacks them around the
board. Looks in ``game.kv``.
"""

from __future__ import annotations

import logging
import os
from typing import Any

import chess
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty
from kivy.uix.screenmanager import Screen

import ui.widgets.board
import ui.widgets.panel  # noqa: F401
from ui.widgets.popups import PromotionPicker, VerdictView, rescue_text

LOGGER = logging.getLogger(__name__)

GAP = 12
PROBLEM_KINDS = ("illegal", "mismatch", "touch_move")  # sync results the players must fix


class GameScreen(Screen):
    """Shows a :class:`ui.session.GameSession`; ``session`` is set by the app."""

    session = ObjectProperty(None, allownone=True)
    view = ObjectProperty(None, allownone=True)
    sensed = ObjectProperty(None, allownone=True)
    landscape = BooleanProperty(True)
    board_rect = ListProperty([0, 0, 100, 100])
    black_rect = ListProperty([0, 0, 100, 100])
    middle_rect = ListProperty([0, 0, 100, 100])
    white_rect = ListProperty([0, 0, 100, 100])
    face_to_face = BooleanProperty(True)  # Black's panel turned towards the far side
    board_problem = BooleanProperty(False)  # the sensing board must be put right
    show_camera = BooleanProperty(True)     # camera board: the picture, else the discs
    camera_texture = ObjectProperty(None, allownone=True)
    camera_corners = ListProperty()
    camera_size = ListProperty([0, 0])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.picker: PromotionPicker | None = None
        self.verdict_view: VerdictView | None = None
        self.fbind("size", self._layout)
        self.fbind("sensed", self._layout)
        self.fbind("sensed", self._on_sensed)

    # Session ------------------------------------------------------------

    def on_session(self, _screen: Any, session: Any) -> None:
        if session is None:
            self.view = None
            self.sensed = None
            return
        session.bind(view=self._on_view, sensed=self.setter("sensed"))
        self.view = session.view
        self.sensed = session.sensed
        link = session.link
        self.camera_texture = None
        self.camera_corners = []
        if link is not None:
            link.bind(camera_texture=self.setter("camera_texture"),
                      camera_corners=self.setter("camera_corners"),
                      camera_size=self.setter("camera_size"))

    def _on_view(self, _session: Any, view: Any) -> None:
        self.view = view

    def on_view(self, _screen: Any, view: Any) -> None:
        if view is None:
            return
        if view.promotion is not None and self.picker is None:
            self.picker = PromotionPicker(choices=list(view.promotion.choices),
                                          color=view.promotion.color)
            self.picker.bind(on_choice=self._on_promotion, on_cancel=self._on_cancel)
            self.picker.open(animation=False)
        elif view.promotion is None and self.picker is not None:
            picker, self.picker = self.picker, None
            picker.dismiss(animation=False)

    def _on_promotion(self, _picker: Any, piece_type: chess.PieceType) -> None:
        self.picker = None
        self.session.choose_promotion(piece_type)

    def _on_cancel(self, _picker: Any) -> None:
        self.picker = None
        self.session.cancel_promotion()

    def _on_sensed(self, _screen: Any, sensed: Any) -> None:
        self.board_problem = sensed is not None and sensed.kind in PROBLEM_KINDS

    # Buttons ---------------------------------------------------------------

    def show_verdict(self) -> VerdictView:
        verdict = self.session.table.verdict()
        self.verdict_view = VerdictView(verdict=verdict, rescue_text=rescue_text(verdict))
        self.verdict_view.open(animation=False)
        return self.verdict_view

    # Layout -------------------------------------------------------------

    def _layout(self, *_: Any) -> None:
        width, height = self.size
        self.landscape = width >= height
        sensing = self.sensed is not None
        if self.landscape:
            side = min(height - 2 * GAP, width * 0.62)
            self.board_rect = [GAP, (height - side) / 2, side, side]
            column_x = side + 2 * GAP
            column_w = width - column_x - GAP
            middle_h = max(height * (0.4 if sensing else 0.3), 180)
            panel_h = (height - middle_h - 4 * GAP) / 2
            self.white_rect = [column_x, GAP, column_w, panel_h]
            self.middle_rect = [column_x, 2 * GAP + panel_h, column_w, middle_h]
            self.black_rect = [column_x, 3 * GAP + panel_h + middle_h, column_w, panel_h]
        else:
            panel_h = max(150, height * 0.14)
            middle_h = max(height * (0.18 if sensing else 0.13), 150)
            side = min(width - 2 * GAP, height - 2 * panel_h - middle_h - 5 * GAP)
            self.white_rect = [GAP, GAP, width - 2 * GAP, panel_h]
            board_y = 2 * GAP + panel_h
            self.board_rect = [(width - side) / 2, board_y, side, side]
            self.middle_rect = [GAP, board_y + side + GAP, width - 2 * GAP, middle_h]
            self.black_rect = [GAP, height - GAP - panel_h, width - 2 * GAP, panel_h]


Builder.load_file(os.path.join(os.path.dirname(__file__), "game.kv"))
