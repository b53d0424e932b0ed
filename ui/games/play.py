"""The play screen of the abstract games: the board, a panel for each player (the far
one turned towards the far side of the table), the state line, choices and the record.
Looks in ``play.kv``.

It shows a :class:`ui.games.model.PlayModel`'s view and passes touches and presses to
it; it never changes the game itself. After the game it reviews the positions reached.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup

import ui.games.board
import ui.widgets.common
import ui.widgets.segmented
import ui.widgets.thinking  # noqa: F401  (widgets play.kv and the rules use)
from ui import theme
from ui.games.geometry import layout as layout_of
from ui.games.model import PlayModel, PlayView
from ui.widgets.common import RoundButton

LOGGER = logging.getLogger(__name__)

GAP = 10
CONTENT_NAMES = {"b": "Black stone", "w": "White stone"}
BAR_MENU_COMMANDS = ("games", "export", "menu")  # the bar's buttons that a menu can take


def _hex(rgba: Any) -> str:
    return "".join(f"{round(channel * 255):02x}" for channel in rgba[:3])


class SidePanel(BoxLayout):
    """One player's panel: who they are, what to do, and their buttons."""

    side = ObjectProperty("")
    view = ObjectProperty(None, allownone=True)
    confirm_resign = BooleanProperty(False)
    compact = BooleanProperty(False)

    __events__ = ("on_command",)

    def on_command(self, command: str) -> None:
        """Default handler: nothing (the screen binds to it)."""

    text = StringProperty("")
    """The panel's words (Kivy markup): who, whether to move, the alert, what to do."""

    def on_view(self, *_: Any) -> None:
        self.confirm_resign = False
        self._words()

    def on_side(self, *_: Any) -> None:
        self._words()

    def _words(self) -> None:
        view: PlayView | None = self.view
        if view is None or not self.side:
            self.text = ""
            return
        mine = view.to_move == self.side
        head = self.side.capitalize() + ("  \u2022 to move" if mine else "")
        colour = _hex(theme.ACCENT if mine else theme.TEXT)
        parts = [f"[b][color={colour}]{escape_markup(head)}[/color][/b]"]
        if self.side in view.clocks:  # the time left, on the panel that faces its player
            parts[0] += f"  [b]{view.clocks[self.side]}[/b] left"
        if view.alert:
            tint = _hex((0.62, 0.93, 0.68, 1) if view.alert_level == "good"
                        else (1, 0.80, 0.50, 1))
            parts.append(f"[color={tint}]{escape_markup(view.alert)}[/color]")
        if mine or view.everyone or (view.over and not view.alert):
            parts.append(escape_markup(view.message))
        elif not view.over:
            parts.append(escape_markup(
                f"{view.to_move.capitalize()} is playing."
                + (f" Turn so far: {view.turn_so_far}" if view.turn_so_far else "")))
        self.text = "  ".join(parts[:1]) + "  " + "\n".join(parts[1:])


class GamesPlayScreen(Screen):
    """Shows a PlayModel; ``model`` is set by the app."""

    model = ObjectProperty(None, allownone=True)
    view: PlayView | None = ObjectProperty(None, allownone=True)
    landscape = BooleanProperty(True)
    board_rect = ListProperty([0, 0, 100, 100])
    near_rect = ListProperty([0, 0, 100, 100])
    far_rect = ListProperty([0, 0, 100, 100])
    middle_rect = ListProperty([0, 0, 100, 100])
    face_to_face = BooleanProperty(True)
    turned = BooleanProperty(False)       # the board seen from the far side
    review_index = NumericProperty(-1)    # -1: the game as it stands; else a position
    number = NumericProperty(0)           # the value of a numeric action (Rumbo's komi)
    compact = BooleanProperty(False)      # a short screen: no move list, tighter panels
    zoomable = BooleanProperty(False)     # small cells (or Crumble's pieces): offer zoom
    thinking = BooleanProperty(False)     # the companion searches: its bar fills
    thinking_progress = NumericProperty(0.0)
    bar_menu = BooleanProperty(False)     # the bar is crowded: Games and Save in a menu
    choices_room = NumericProperty(0.0)   # the height the choices may take (else scroll)
    status_hidden = BooleanProperty(False)  # no room: the state line gives way to choices

    def __init__(self, **kwargs: Any) -> None:
        self._ticker: Any = None
        super().__init__(**kwargs)
        self._relayout = Clock.create_trigger(self._layout, -1)
        self.fbind("size", self._relayout)
        self.fbind("view", self._relayout)
        self.fbind("view", self._check_zoom)
        self.fbind("board_rect", self._check_zoom)
        self.ids.said.fbind("texture_size", self._relayout)
        self.ids.status.fbind("texture_size", self._relayout)
        self.ids.title.fbind("texture_size", self._relayout)
        self.ids.choices.fbind("minimum_height", self._relayout)
        self._check_bar = Clock.create_trigger(self._fit_bar, -1)
        self.ids.bar.fbind("width", self._check_bar)
        self.ids.bar_choices.fbind("children", self._check_bar)
        for button in self.ids.bar.children:
            if getattr(button, "command", "") not in BAR_MENU_COMMANDS:
                button.fbind("shown", self._check_bar)

    def _check_zoom(self, *_: Any) -> None:
        """Zoom is offered where a finger is wider than a cell, or pieces get halved."""
        view = self.view
        if view is None:
            self.zoomable = False
            return
        board = view.layout
        side = min(self.board_rect[2], self.board_rect[3])
        unit = side / (max(board.columns, board.rows) + 1.5)
        small = float(min((min(shape.w, shape.h) for shape in board.shapes), default=1))
        self.zoomable = (board.style == "pieces" and small < 1) or unit * small < dp(44)

    # The model -----------------------------------------------------------

    def on_model(self, _screen: Any, model: PlayModel | None) -> None:
        self.review_index = -1
        self._follow_companion(model)
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        if model is None:
            self.view = None
            return
        model.on_change = self._on_change
        if "board" in self.ids:  # a new game starts unmagnified
            self.ids.board.zoom_by(0)
        self.view = model.view
        if model.session.clock is not None:  # the clocks count down; a flag may fall
            self._ticker = Clock.schedule_interval(lambda _dt: self._tick(), 0.2)

    def _follow_companion(self, model: PlayModel | None) -> None:
        """The thinking bar follows the model's companion (bound to it directly: its
        progress redraws the bar, not the whole view)."""
        old = getattr(self, "_followed", None)
        if old is not None:
            old.unbind(thinking=self.setter("thinking"), progress=self.setter("thinking_progress"))
        link = getattr(model, "companion", None)
        self._followed = link
        self.thinking = bool(link is not None and link.thinking)
        if link is not None:
            link.bind(thinking=self.setter("thinking"), progress=self.setter("thinking_progress"))

    def _tick(self) -> None:
        if self.model is not None:
            self.model.tick()

    def on_leave(self, *_: Any) -> None:
        """The clocks stop while the game is not on the screen (the pause is journaled),
        and a camera following the board is let go."""
        clock = self.model.session.clock if self.model is not None else None
        if clock is not None and not clock.paused:
            self.model.session.pause()
        sensing = getattr(self.model, "sensing", None)
        if sensing is not None:
            sensing.pause()

    def on_enter(self, *_: Any) -> None:
        clock = self.model.session.clock if self.model is not None else None
        if clock is not None and clock.paused:
            self.model.session.resume_clock()
        sensing = getattr(self.model, "sensing", None)
        if sensing is not None:
            sensing.resume()

    def _on_change(self, view: PlayView) -> None:
        self.view = view

    def on_view(self, _screen: Any, view: PlayView | None) -> None:
        self._rebuild_choices()

    def command(self, command: str, *args: Any) -> None:
        """A button press: ``confirm``, ``back``, ``undo``, ``redo``, ``draw``, ``resign``..."""
        model = self.model
        if model is None:
            return
        side = args[0] if args else None
        if command == "confirm":
            model.confirm()
        elif command == "back":
            model.back()
        elif command == "undo":
            model.undo()
        elif command == "redo":
            model.redo()
        elif command == "resign":
            model.resign(side)
        elif command == "draw":
            if model.session.draw_offer is not None and model.session.draw_offer != side:
                model.accept_draw()
            else:
                model.offer_draw(side)
        elif command == "decline":
            model.decline_draw()
        elif command == "claim":
            model.claim(str(args[0]))
        elif command == "export":
            from ui import paths

            model.export(paths.export_dir())
        elif command == "turn":
            self.turned = not self.turned
        elif command == "review":
            self.review_index = 0 if self.review_index < 0 else -1
        elif command == "hint":
            model.hint()
        elif command == "analyse":
            from kivy.app import App

            from companion.table.review import timeline_of_session

            App.get_running_app().analyse(timeline_of_session(model.session), "games_play")
        else:
            raise ValueError(f"unknown command {command!r}")

    # Review ---------------------------------------------------------------

    def review_view(self, index: float) -> Any:
        """The layout shown in review: the position ``index`` (0: the start)."""
        positions = self.model.session.positions()
        index = max(0, min(int(index), len(positions) - 1))
        return layout_of(self.model.rules, positions[index])

    def review_step(self, delta: int) -> None:
        count = len(self.model.session.positions())
        self.review_index = max(0, min(count - 1, int(self.review_index) + delta))

    def review_text(self, index: float) -> str:
        """What the review shows at position ``index`` (``""`` outside the review)."""
        if self.model is None or index < 0:
            return ""
        record = self.model.session.record
        index = int(index)
        if index == 0:
            return f"Review: the start (of {len(record)} actions)"
        _kind, text, player = record[index - 1]
        return f"Review: {index}. {player.capitalize()} {text} (of {len(record)})"

    # Choices and actions ----------------------------------------------------

    def _rebuild_choices(self) -> None:
        """The rows of buttons that depend on the moment: colours, actions, choices."""
        if "choices" not in self.ids:
            return
        box = self.ids.choices
        box.clear_widgets()
        self.ids.bar_choices.clear_widgets()
        view = self.view
        if view is None or view.over:
            return
        if view.contents and self.compact:
            # On a short screen the colour shares the bottom bar's row: one button that
            # shows the colour the next stone takes, and switches to the next colour.
            now = view.prefer if view.prefer in view.contents else view.contents[0]
            following = view.contents[(view.contents.index(now) + 1) % len(view.contents)]
            button = Factory.BarButton(text=CONTENT_NAMES.get(now, now).split()[0],
                                       command="content", fill=list(theme.ACCENT))
            button.content = following
            button.bind(on_release=lambda b: self.model.choose_content(b.content))
            self.ids.bar_choices.add_widget(button)
        elif view.contents:
            row = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(8))
            for content in view.contents:
                button = RoundButton(text=CONTENT_NAMES.get(content, content),
                                     fill=list(theme.ACCENT if content == view.prefer
                                               else theme.SURFACE_RAISED))
                button.content = content
                button.bind(on_release=lambda b: self.model.choose_content(b.content))
                row.add_widget(button)
            box.add_widget(row)
        for group in view.actions:
            row = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(8))
            if group.numbers:
                low, high = group.numbers[0], group.numbers[-1]
                self.number = max(low, min(high, int(self.number)))
                for delta in (-5, -1):
                    row.add_widget(self._button(f"{delta}", lambda _b, d=delta: self._bump(d)))
                choose = self._button(f"{group.name} = {int(self.number)}",
                                      lambda _b, g=group: self.model.choose(
                                          g.step_for(int(self.number))), accent=True)
                choose.action = group.name
                row.add_widget(choose)
                for delta in (1, 5):
                    row.add_widget(self._button(f"+{delta}", lambda _b, d=delta: self._bump(d)))
            else:
                longest = max(len(step.note or step.text) for step in group.steps)
                row.height = dp(52) if longest * len(group.steps) < 60 else dp(76)
                for step in group.steps:
                    button = self._button(step.note or step.text,
                                          lambda _b, s=step: self.model.choose(s), accent=True)
                    button.step_text = step.text
                    row.add_widget(button)
            box.add_widget(row)
        if view.claims:
            row = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(8))
            for name in view.claims:
                button = self._button(f"Claim: {name}",
                                      lambda _b, n=name: self.command("claim", n))
                button.claim = name
                row.add_widget(button)
            box.add_widget(row)
        sensing = getattr(self.model, "sensing", None)
        for turn in sensing.question if sensing is not None else ():
            button = self._button(turn, lambda _b, t=turn: sensing.choose(t), accent=True)
            button.sensed_turn = turn
            button.size_hint_y = None
            button.height = dp(52)
            box.add_widget(button)
        for step in view.choices:
            button = self._button(step.note or step.text, lambda _b, s=step: self.model.choose(s))
            button.step_text = step.text
            button.size_hint_y = None
            button.height = dp(52)
            box.add_widget(button)

    def _button(self, text: str, action: Any, *, accent: bool = False) -> RoundButton:
        button = RoundButton(text=text, font_size="16sp",
                             fill=list(theme.ACCENT if accent else theme.SURFACE_RAISED))
        button.bind(on_release=action)
        return button

    def _bump(self, delta: int) -> None:
        self.number = int(self.number) + delta
        self._rebuild_choices()

    # Layout -------------------------------------------------------------

    def _fit_bar(self, *_: Any) -> None:
        """Games and Save go in a menu where the bar would give its buttons less than
        53 dp each (a five-letter word at 14 sp, and a 48 dp target)."""
        bar = self.ids.bar
        count = len(self.ids.bar_choices.children) + len(BAR_MENU_COMMANDS) - 1 + sum(
            1 for button in bar.children
            if getattr(button, "shown", False)
            and getattr(button, "command", "") not in BAR_MENU_COMMANDS)
        room = bar.width - bar.spacing * (count - 1)
        self.bar_menu = room / count < dp(53)

    def open_bar_menu(self) -> Any:
        """The crowded bar's menu: the shelf of games and saving the record."""
        from kivy.app import App

        from ui.widgets.popups import MenuView

        app = App.get_running_app()
        button = self.ids.bar_menu_button
        menu = MenuView(near=list(button.to_window(*button.center)))
        menu.items = [("Games", lambda: app.show("shelf")),
                      ("Save record", lambda: self.command("export"))]
        menu.open(animation=False)
        return menu

    def status_min(self) -> float:
        """The state line's least height: two lines on a narrow phone, where it often
        wraps (so the board does not change size from turn to turn), else one."""
        return float(dp(40) if self.width < dp(420) else dp(26))

    def _middle_height(self) -> float:
        """What the middle needs: the headline, the state line, the choices, the bar."""
        ids = self.ids
        if "choices" not in ids:
            return float(dp(150))
        choices = float(ids.choices.minimum_height)
        title = 0.0 if self.compact else max(dp(30), ids.title.texture_size[1] + dp(6))
        said = ids.said
        if said.text:  # the companion's line (it thinks, its turn, a hint), and its bar
            choices += max(dp(26), said.texture_size[1] + dp(6)) + dp(5)
        # the box's spacing comes between all its rows, the empty ones too
        spacing = float(ids.middle.spacing) * (len(ids.middle.children) - 1)
        return float(title + self._status_height() + choices
                + dp(50) + spacing + (dp(60) if not self.compact else 0))

    def _status_height(self) -> float:
        """The state line's height when shown (its label's own rule, in ``play.kv``)."""
        return float(max(self.status_min(), self.ids.status.texture_size[1] + dp(6)))

    def _layout(self, *_: Any) -> None:
        width, height = self.size
        self.landscape = width >= height
        compact = (height < dp(640)) if self.landscape else (height < dp(1000))
        if compact != self.compact:
            self.compact = compact
            self._rebuild_choices()
        panel_min = dp(124) if self.landscape else dp(140)
        gap = dp(GAP) if not self.compact else dp(8)
        middle_h = middle_h_needed = self._middle_height()
        if self.landscape:
            side = min(height - 2 * gap, width * 0.56)
            self.board_rect = [gap, (height - side) / 2, side, side]
            column_x = side + 2 * gap
            column_w = width - column_x - gap
            panel_h = max(panel_min, min(dp(190), (height - middle_h - 4 * gap) / 2))
            middle_h = height - 2 * panel_h - 4 * gap
            self.near_rect = [column_x, gap, column_w, panel_h]
            self.middle_rect = [column_x, 2 * gap + panel_h, column_w, middle_h]
            self.far_rect = [column_x, 3 * gap + panel_h + middle_h, column_w, panel_h]
        else:
            panel_h = max(panel_min, min(dp(170), height * 0.15))
            # five gaps: below the near panel, around the board and the middle, above
            # (the board keeps three quarters of the width: beyond, the choices scroll)
            side = min(width - 2 * gap, max(height - 2 * panel_h - middle_h - 5 * gap,
                                            0.75 * (width - 2 * gap)))
            self.near_rect = [gap, gap, width - 2 * gap, panel_h]
            board_y = 2 * gap + panel_h
            self.board_rect = [(width - side) / 2, board_y, side, side]
            middle_y = board_y + side + gap
            self.middle_rect = [gap, middle_y, width - 2 * gap,
                                height - gap - panel_h - gap - middle_y]
            self.far_rect = [gap, height - gap - panel_h, width - 2 * gap, panel_h]
        # Where the middle is shorter than it needs (a short landscape screen, a
        # piece's choices), the state line gives way to the choices; past that they
        # scroll in the room left.
        ids = self.ids
        short = middle_h_needed - self.middle_rect[3]
        choices_h = float(ids.choices.minimum_height) if "choices" in ids else 0.0
        self.status_hidden = short > 0 and choices_h > 0
        if self.status_hidden:
            short -= self._status_height() + float(ids.middle.spacing)
        self.choices_room = max(0.0, choices_h - short) if short > 0 else choices_h


Builder.load_file(os.path.join(os.path.dirname(__file__), "play.kv"))
