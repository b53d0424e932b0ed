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
from kivy.metrics import Metrics, dp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

import ui.widgets.board
import ui.widgets.camera_preview
import ui.widgets.panel
import ui.widgets.thinking  # noqa: F401
from ui.layout import MENU_BUTTON_W, TOUCH, game_layout, toolbar_spacing
from ui.table_view import review_frames
from ui.widgets.popups import (
    MenuView,
    PromotionPicker,
    ReviewSheet,
    SensedSheet,
    VerdictView,
    rescue_text,
)

LOGGER = logging.getLogger(__name__)

PROBLEM_KINDS = ("illegal", "mismatch", "touch_move")  # sync results the players must fix
SHARED_MESSAGE = 90  # characters the companion's line and the game's message share a bar in


def fix_message(sensed: Any) -> str:
    """What the players must do to the physical board, said once: the companion's turn
    and its fixes while the board is led to it, else the fix itself, or how many squares
    to fix (the list is shown with the sensed board)."""
    if getattr(sensed, "lead", False):
        return str(sensed.message)
    fixes = list(sensed.fixes)
    if len(fixes) == 1:
        text = fixes[0]
        return f"{text[:1].upper()}{text[1:]}"
    if fixes:
        return f"Put the board right: {len(fixes)} squares to fix (see the list)"
    return str(sensed.message)


class SensedInfo(BoxLayout):
    """The sensing board's connection (with retry and the on-screen board when it is
    lost), the fixes when there are several, and the board's questions as buttons
    (in the sheet, which covers the players' messages, with the question in words)."""

    screen = ObjectProperty(None, allownone=True)
    sensed = ObjectProperty(None, allownone=True)
    board_problem = BooleanProperty(False)
    in_sheet = BooleanProperty(False)


class GameScreen(Screen):
    """Shows a :class:`ui.session.RaindropSession`; ``session`` is set by the app."""

    session = ObjectProperty(None, allownone=True)
    view = ObjectProperty(None, allownone=True)
    sensed = ObjectProperty(None, allownone=True)
    frame = ObjectProperty(None, allownone=True)  # a ReviewFrame while reviewing, else None
    companion = ObjectProperty(None, allownone=True)  # the session's CompanionLink, if any
    companion_line = StringProperty("")  # what the companion says or does now
    guide = ListProperty()          # the companion's turn or a hint, as square names
    guide_kind = StringProperty("")
    hint_label = StringProperty("")  # the Hint button's text; "" when hints are off
    thinking = BooleanProperty(False)   # the companion searches: the bar over the board
    thinking_progress = NumericProperty(0.0)
    landscape = BooleanProperty(True)
    compact = BooleanProperty(False)
    sensed_inline = BooleanProperty(False)
    menu_more = BooleanProperty(False)  # a narrow phone: Moves and Board go in the menu
    board_rect = ListProperty([0, 0, 100, 100])
    black_rect = ListProperty([0, 0, 100, 100])
    toolbar_rect = ListProperty([0, 0, 100, 100])
    middle_rect = ListProperty([0, 0, 100, 100])
    white_rect = ListProperty([0, 0, 100, 100])
    message = StringProperty("")        # shown on both players' panels
    message_level = StringProperty("info")
    face_to_face = BooleanProperty(True)  # Black's panel turned towards the far side
    white_at_bottom = BooleanProperty(True)  # the board as White sees it
    board_problem = BooleanProperty(False)  # the sensing board must be put right
    show_camera = BooleanProperty(True)     # camera board: the picture, else the discs
    camera_texture = ObjectProperty(None, allownone=True)
    camera_corners = ListProperty()
    camera_size = ListProperty([0, 0])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.picker: PromotionPicker | None = None
        self.verdict_view: VerdictView | None = None
        self.review: ReviewSheet | None = None
        self.sensed_sheet: SensedSheet | None = None
        self.menu: MenuView | None = None
        self.fbind("size", self._layout)
        self.fbind("sensed", self._layout)
        self.fbind("hint_label", self._layout)
        Metrics.bind(fontscale=self._on_fontscale)  # the text size setting (weakly bound)
        self.fbind("sensed", self._on_sensed)
        for name in ("view", "sensed", "board_problem", "frame", "companion_line"):
            self.fbind(name, self._message)
        self._layout()

    # Session ------------------------------------------------------------

    def on_session(self, _screen: Any, session: Any) -> None:
        self.close_sheets()
        old = self.companion
        if old is not None:
            old.unbind(thinking_text=self._companion_said, note=self._companion_said,
                       guide=self._companion_said, guide_kind=self._companion_said,
                       hint_label=self._companion_said, thinking=self.setter("thinking"),
                       progress=self.setter("thinking_progress"))
        self.companion = session.companion if session is not None else None
        if self.companion is not None:
            self.companion.bind(thinking_text=self._companion_said, note=self._companion_said,
                                guide=self._companion_said, guide_kind=self._companion_said,
                                hint_label=self._companion_said,
                                thinking=self.setter("thinking"),
                                progress=self.setter("thinking_progress"))
        self._companion_said()
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
            near = self.ids.board.to_window(
                *self.ids.board.square_center(view.promotion.to_square))
            self.picker = PromotionPicker(choices=list(view.promotion.choices),
                                          color=view.promotion.color, near=near,
                                          used=self._used_blue(view.promotion))
            self.picker.bind(on_choice=self._on_promotion, on_cancel=self._on_cancel)
            self.picker.open(animation=False)
        elif view.promotion is None and self.picker is not None:
            picker, self.picker = self.picker, None
            picker.dismiss(animation=False)

    @staticmethod
    def _used_blue(promotion: Any) -> list[int]:
        return [piece for piece in (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
                if piece not in promotion.choices]

    def _on_promotion(self, _picker: Any, piece_type: chess.PieceType) -> None:
        self.picker = None
        self.session.choose_promotion(piece_type)

    def _on_cancel(self, _picker: Any) -> None:
        self.picker = None
        self.session.cancel_promotion()

    def _on_sensed(self, _screen: Any, sensed: Any) -> None:
        self.board_problem = sensed is not None and sensed.kind in PROBLEM_KINDS
        if sensed is not None and not self.sensed_inline and self.sensed_sheet is None \
                and (sensed.choices or sensed.takeback
                     or (self.board_problem and len(sensed.fixes) > 1)):
            self.open_sensed()  # a question, or a list of fixes, needs the sheet

    @staticmethod
    def guide_squares(names: Any) -> list[chess.Square]:
        """The companion's guide (square names) as squares for the board."""
        return [chess.parse_square(name) for name in names if name in chess.SQUARE_NAMES]

    def _companion_said(self, *_: Any) -> None:
        companion = self.companion
        self.companion_line = "" if companion is None else (
            companion.thinking_text or companion.note)
        self.guide = list(companion.guide) if companion is not None else []
        self.guide_kind = companion.guide_kind if companion is not None else ""
        self.hint_label = companion.hint_label if companion is not None else ""

    def _message(self, *_: Any) -> None:
        """The players' message: a fix for the physical board first, then a question
        from it, then the game's."""
        view = self.view
        if self.frame is not None:
            self.message = f"Review: {self.frame.label}\nThe game waits; nothing is changed"
            self.message_level = "info"
        elif self.board_problem and self.sensed is not None:
            self.message = fix_message(self.sensed)
            self.message_level = "fix"
        elif self.sensed is not None and (self.sensed.choices or self.sensed.takeback):
            # The board asks (which action, a piece it cannot call, a takeback): the
            # question, for the buttons below it to answer.
            self.message = str(self.sensed.message)
            self.message_level = "warn"
        elif view is not None:
            # The companion's words (it thinks, its turn, a hint) above the game's.
            # The bar holds two lines: a long sentence of the companion's (a hint) stands
            # alone, unless the game warns (a refused touch says why).
            line = self.companion_line
            if line and len(line) + len(view.message) > SHARED_MESSAGE:
                refused = self.session is not None and bool(self.session.table.refused)
                warned = refused or view.message_level != "info"
                self.message = view.message if warned else line
            else:
                self.message = f"{line}\n{view.message}" if line else view.message
            self.message_level = view.message_level
        else:
            self.message = ""
            self.message_level = "info"

    # Buttons ---------------------------------------------------------------

    def show_verdict(self) -> VerdictView:
        verdict = self.session.table.verdict()
        self.verdict_view = VerdictView(verdict=verdict, rescue_text=rescue_text(verdict),
                                        turned=self.face_to_face and verdict.side == chess.BLACK)
        self.verdict_view.open(animation=False)
        return self.verdict_view

    def sheet_rect(self, *, over_board: bool = False) -> list[float]:
        """Where a sheet goes so the board stays in view: over the column beside the
        board (landscape) or over White's panel and the toolbar (portrait; with
        ``over_board``, over the board too, for a sheet that shows a board)."""
        if self.landscape:
            x = self.white_rect[0]
            return [x, self.white_rect[1], self.width - x - dp(8),
                    self.black_rect[1] + self.black_rect[3] - self.white_rect[1]]
        top = self.board_rect[1] + (self.board_rect[3] if over_board else -dp(8))
        return [self.white_rect[0], self.white_rect[1], self.white_rect[2],
                top - self.white_rect[1]]

    def _faces_black(self) -> bool:
        """Whether a sheet opens turned towards Black: face to face, with Black to move."""
        game = self.session.game if self.session is not None else None
        return bool(self.face_to_face and game is not None and game.turn == chess.BLACK)

    def open_review(self, index: int | None = None) -> ReviewSheet | None:
        """Step through the game's positions on the board; the game is not changed."""
        if self.session is None:
            return None
        frames = review_frames(self.session.game)
        self.close_sheets()
        sheet = ReviewSheet(frames=list(frames), rect=self.sheet_rect(),
                            face_to_face=self.face_to_face, turned=self._faces_black())
        sheet.bind(frame=lambda _s, frame: setattr(self, "frame", frame),
                   on_dismiss=lambda *_: self._review_closed())
        sheet.index = len(frames) - 1 if index is None else index
        self.frame = sheet.frame
        self.review = sheet
        sheet.open(animation=False)
        return sheet

    def _review_closed(self) -> None:
        self.review = None
        self.frame = None

    def open_sensed(self) -> SensedSheet | None:
        """The sensed board and its messages, on screens too small to show them beside
        the board."""
        if self.sensed is None:
            return None
        self.close_sheets()
        sheet = SensedSheet(screen=self, rect=self.sheet_rect(over_board=True),
                            sensed=self.sensed, board_problem=self.board_problem,
                            face_to_face=self.face_to_face, turned=self._faces_black(),
                            white_at_bottom=self.white_at_bottom)
        self.bind(sensed=sheet.setter("sensed"), board_problem=sheet.setter("board_problem"))
        sheet.bind(on_dismiss=lambda *_: self._sensed_closed(sheet))
        self.sensed_sheet = sheet
        sheet.open(animation=False)
        return sheet

    def _sensed_closed(self, sheet: SensedSheet) -> None:
        self.unbind(sensed=sheet.setter("sensed"), board_problem=sheet.setter("board_problem"))
        self.sensed_sheet = None

    def open_menu(self) -> MenuView | None:
        """The menu button: home at once where the toolbar has room for everything;
        on a narrow phone a menu of what it has no room for (the move list, the sensed
        board) and home."""
        from kivy.app import App

        app = App.get_running_app()
        if not self.menu_more:
            app.go_home()
            return None
        self.close_sheets()
        items: list[tuple[str, Any]] = [("Moves", self.open_review)]
        if self.sensed is not None and not self.sensed_inline:
            items.append(("Board", self.open_sensed))
        items.append(("Home", app.go_home))
        button = self.ids.menu
        menu = MenuView(near=list(button.to_window(*button.center)))
        menu.items = items
        menu.bind(on_dismiss=lambda *_: setattr(self, "menu", None))
        self.menu = menu
        menu.open(animation=False)
        return menu

    def close_sheets(self) -> None:
        for sheet in (self.review, self.sensed_sheet, self.menu):
            if sheet is not None:
                sheet.dismiss(animation=False)
        self.review = None
        self.sensed_sheet = None
        self.menu = None
        self.frame = None

    def retry_board(self) -> None:
        from kivy.app import App

        App.get_running_app().reconnect_board()

    def use_screen_board(self) -> None:
        from kivy.app import App

        App.get_running_app().reconnect_board("screen")

    # Layout -------------------------------------------------------------

    def _on_fontscale(self, *_: Any) -> None:
        self._layout()

    def _toolbar_fits(self, width: float, sensed_inline: bool) -> bool:
        """Whether the toolbar (``width`` dp) has room for every button: each at least
        48 dp, wider with larger text (a word like 'Verify' must fit), beside the menu
        button. Where not, the move list and the sensed board go in the menu."""
        buttons = 4 + bool(self.hint_label) + (self.sensed is not None and not sensed_inline)
        each = TOUCH * max(1.0, Metrics.fontscale)
        return width >= MENU_BUTTON_W + buttons * (each + toolbar_spacing(width))

    def _layout(self, *_: Any) -> None:
        scale = dp(1)
        width, height = self.width / scale, self.height / scale
        layout = game_layout(width, height, sensing=self.sensed is not None)
        self.landscape = layout.landscape
        self.compact = layout.compact
        self.sensed_inline = layout.sensed_inline
        self.menu_more = not self._toolbar_fits(layout.toolbar[2], layout.sensed_inline)
        for name in ("board", "white", "black", "toolbar", "middle"):
            rect = getattr(layout, name)
            setattr(self, f"{name}_rect", [value * scale for value in rect])


Builder.load_file(os.path.join(os.path.dirname(__file__), "game.kv"))
