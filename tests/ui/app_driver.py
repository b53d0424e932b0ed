"""Drives the app headless for the tests: frames, simulated touches, reading what is shown."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import chess
from kivy.base import EventLoop
from kivy.core.window import Window
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from companion.cards import Decks
from companion.game import Game
from companion.journal import Journal
from companion.rules import HouseRules
from ui import touch
from ui.app import RaindropApp
from ui.demo import flip_button, promotion_choice
from ui.options import NewGame

DRAW_EVERY_FRAME = os.environ.get("RAINDROP_FULL") == "1"
"""Draw the window on every frame a test lets pass (by default: once after each test)."""
SETTLING = 10.0
"""Seconds a list may take to come to rest before a tap (a loaded machine is slow)."""


def full_deck(top: str, color: chess.Color, rules: HouseRules | None = None) -> list[str]:
    """A full deck under ``rules`` whose top cards are ``top`` (the rest in the usual order)."""
    rules = rules or HouseRules()
    rest = list(rules.deck_letters(color))
    for card in top:
        rest.remove(card)
    return list(top) + rest


class Driver:
    """One app for the whole test process; each test starts its own game."""

    def __init__(self, app: RaindropApp) -> None:
        self.app = app
        self._skip_drawing = False

    @classmethod
    def start(cls) -> Driver:
        app = RaindropApp(board="screen")
        app._run_prepare()
        driver = cls(app)
        Window.bind(on_draw=driver._skip, on_flip=driver._skip)
        driver.pump(6)
        driver.draw()
        return driver

    def _skip(self, *_args: Any) -> bool:
        """True (the window is not drawn) on the frames :meth:`pump` lets pass."""
        return self._skip_drawing

    def close(self) -> None:
        self.app.stop()

    def reset(self) -> None:
        for child in list(Window.children):
            if isinstance(child, ModalView):
                child.dismiss(animation=False)
        self.app.end_session()
        from ui.settings import AppSettings

        self.app.settings = AppSettings()  # each test starts from the default settings
        self.app.apply_settings()
        if self.app.root.has_screen("settings"):
            screen = self.app.screen("settings")
            screen.settings = None  # equal settings would not count as a change
            screen.settings = self.app.settings
        self.app.show("home")
        self.pump()

    # Frames ----------------------------------------------------------------

    def pump(self, frames: int = 4) -> None:
        """Let ``frames`` frames pass: clock events, input, triggers, layout, textures.

        The window is not drawn on them: software GL draws every pixel of a frame on the
        CPU (four fifths of these tests' time) and no test reads pixels. :meth:`draw`
        draws it, after every test (``conftest.driver``); ``RAINDROP_FULL=1`` draws every
        frame."""
        self._skip_drawing = not DRAW_EVERY_FRAME
        try:
            for _ in range(frames):
                EventLoop.idle()
        finally:
            self._skip_drawing = False

    def draw(self) -> None:
        """One frame, the window drawn as it stands."""
        self._skip_drawing = False
        EventLoop.idle()

    # Games ------------------------------------------------------------------

    def new_game(self, white: str = "", black: str = "", *, rules: HouseRules | None = None,
                 board: str = "screen", source: Any = None) -> Game:
        """A game with the decks' top cards fixed, journalled, on ``board`` (or ``source``)."""
        rules = rules or HouseRules()
        order = {"white": full_deck(white, chess.WHITE, rules),
                 "black": full_deck(black.lower(), chess.BLACK, rules)}
        game = Game(rules, decks=Decks.from_order(order, rules), journal=Journal.create())
        self.app.start_game(NewGame(rules=rules, board=board), game=game, source=source)
        self.pump()
        return game

    @property
    def screen(self) -> Any:
        return self.app.root.current_screen

    @property
    def game_screen(self) -> Any:
        return self.app.screen("game")

    @property
    def view(self) -> Any:
        return self.app.session.view

    # Touches ------------------------------------------------------------------

    def tap(self, widget: Any, frames: int = 2) -> None:
        """Tap a widget, first scrolling it into view as a player would."""
        if touch.scroll_into_view(widget, padding=10):
            self.pump(2)
            self.at_rest(widget)
        touch.tap(widget)
        self.pump(frames)

    def at_rest(self, widget: Any, patience: float = SETTLING) -> None:
        """Let frames pass until ``widget`` stays where it is on the window (at most
        ``patience`` seconds of real time). A list whose rows just changed springs back
        into its bounds over real time, not frames (Kivy's scroll effect): tapped
        mid-spring, a button may still be off the window (the tap then misses)."""
        deadline = time.monotonic() + patience
        last = widget.to_window(*widget.center)
        still = 0
        while still < 2 and time.monotonic() < deadline:  # still over two frames
            self.pump(1)
            now = widget.to_window(*widget.center)
            still = still + 1 if now == last else 0
            if not still:
                time.sleep(0.01)
            last = now

    def tap_square(self, name: str) -> None:
        touch.tap_square(self.game_screen.ids.board, chess.parse_square(name))
        self.pump(2)

    def flip(self, color: chess.Color) -> None:
        ids = self.game_screen.ids
        panel = ids.white_panel if color == chess.WHITE else ids.black_panel
        self.tap(flip_button(panel))

    def place(self, square: str) -> None:
        self.tap_square(square)

    def move(self, origin: str, target: str) -> None:
        self.tap_square(origin)
        self.tap_square(target)

    def play(self, script: Sequence[str]) -> None:
        """Steps: ``flip`` (the side to move), ``N@e4``-style placements, ``e2e3`` moves."""
        for step in script:
            game = self.app.session.game
            if step == "flip":
                self.flip(game.turn)
            elif "@" in step:
                self.place(step.partition("@")[2])
            else:
                self.move(step[:2], step[2:4])

    def pick_promotion(self, piece_type: chess.PieceType) -> None:
        picker = self.game_screen.picker
        assert picker is not None, "no promotion picker is open"
        self.tap(promotion_choice(picker, piece_type))

    def button(self, root: Any, text: str) -> Any:
        """The visible button under ``root`` whose text is ``text``."""
        for widget in root.walk():
            if getattr(widget, "text", None) == text and hasattr(widget, "fill") \
                    and widget.opacity > 0:
                return widget
        raise AssertionError(f"no button {text!r} shown")

    def tap_button(self, root: Any, text: str) -> None:
        self.tap(self.button(root, text))

    # What is shown ---------------------------------------------------------------

    @staticmethod
    def texts(root: Any) -> list[str]:
        """The texts of every visible label under ``root``."""
        return [w.text for w in walk_visible(root) if isinstance(w, Label) and w.text]

    def message(self) -> str:
        """The players' message, as both panels show it (each the right way up for its
        player: Black's panel is turned); fails if the two panels differ."""
        ids = self.game_screen.ids
        white = ids.white_panel.ids.message.text
        black = ids.black_panel.ids.message.text
        assert white == black, (white, black)
        return str(white)

    def shown_pieces(self) -> Mapping[str, str]:
        """The board widget's pieces: square name -> symbol (``Q~`` for a blue queen)."""
        pieces = self.game_screen.ids.board.pieces
        return {chess.square_name(p.square): chess.Piece(p.piece_type, p.color).symbol()
                + ("~" if p.blue else "") for p in pieces}

    def open_modals(self) -> list[ModalView]:
        return [child for child in Window.children if isinstance(child, ModalView)]


def walk_visible(root: Any) -> Iterator[Any]:
    """Widgets under ``root`` that are shown (opacity above 0 all the way down)."""
    if root.opacity <= 0:
        return
    yield root
    for child in root.children:
        yield from walk_visible(child)
