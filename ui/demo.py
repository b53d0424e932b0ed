"""The scripted demo: a short game played by simulated touches (and, on the
simulated sensing board, by moving pieces on that board), ending in a check by a
blue queen with Black's rescue card waiting. Used by ``raindrop app --demo``,
``--screenshot`` and the docs' screenshots.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import chess
from kivy.clock import Clock

from companion.cards import Decks
from companion.game import Game
from companion.rules import HouseRules
from ui import touch
from ui.options import NewGame

LOGGER = logging.getLogger(__name__)

DEMO_DECKS = {"white": list("KPQNPPRBPPNRBPPP"), "black": list("kpnqbrpppnrpbppp")}
DEMO_SCRIPT = ("flip", "K@e1", "flip", "k@e8", "flip", "P@g6", "flip", "p@d6", "g6g7",
               "flip", "n@c6", "flip", "Q@a4", "flip", "q@b6", "g7g8", "promote:q", "flip")
FRAMES_PER_STEP = 3
FRAMES_BEFORE_SHOT = 8
MAX_WAIT_STEPS = 40


class DemoError(ValueError):
    """The scripted demo could not go on (a step had no effect)."""


def demo_game(rules: HouseRules | None = None) -> Game:
    """The demo's game: fixed deck orders, so the script always fits."""
    rules = rules or HouseRules()
    return Game(rules, decks=Decks.from_order(DEMO_DECKS, rules))


def parse_step(step: str) -> tuple[str, chess.Move | None]:
    """("flip", None), ("promote", None) or ("move", move) for a placement ``N@e4`` or a
    move ``e2e3``."""
    if step == "flip":
        return "flip", None
    if step.startswith("promote:"):
        return "promote", None
    if "@" in step:
        letter, _, square = step.partition("@")
        return "move", chess.Move.from_uci(f"{letter.upper()}@{square}")
    return "move", chess.Move.from_uci(step)


def play_step(app: Any, step: str) -> None:
    """Perform one scripted step the way a player would: tap the Flip button, tap the
    board (and the promotion picker), or move pieces on the simulated board."""
    screen = app.screen("game")
    session = app.session
    kind, move = parse_step(step)
    if kind == "flip":
        panel = screen.ids.white_panel if session.game.turn == chess.WHITE \
            else screen.ids.black_panel
        touch.tap(flip_button(panel))
        return
    if kind == "promote":
        piece_type = chess.Piece.from_symbol(step.partition(":")[2]).piece_type
        if screen.picker is None:
            raise ValueError("no promotion picker is open")
        touch.tap(promotion_choice(screen.picker, piece_type))
        return
    assert move is not None
    board = screen.ids.board
    if move.drop:
        touch.tap_square(board, move.to_square)
        return
    touch.tap_square(board, move.from_square)
    touch.tap_square(board, move.to_square)


def promotion_choice(picker: Any, piece_type: chess.PieceType) -> Any:
    """The picker's button for ``piece_type``."""
    return next(w for w in picker.walk()
                if hasattr(w, "picker") and getattr(w, "piece_type", None) == piece_type)


def flip_button(panel: Any) -> Any:
    """The Flip button of a player's panel."""
    return next(w for w in panel.walk() if getattr(w, "text", "").startswith("Flip"))


class DemoDriver:
    """Runs the demo script (``play``), saves a screenshot and stops the app."""

    def __init__(self, app: Any, *, screenshot: str | None = None, play: bool = True,
                 on_done: Callable[[], None] | None = None) -> None:
        self.app = app
        self.screenshot = screenshot
        self.play = play
        self.on_done = on_done
        self.steps = list(DEMO_SCRIPT) if play else []
        self._frames = 0
        self._event: Any = None
        self._mark: tuple[int, str | None, bool] | None = None
        self._shot_at = FRAMES_BEFORE_SHOT
        self._waited = 0

    def _progress(self) -> tuple[int, str | None, bool]:
        game = self.app.session.game
        picker = self.app.screen("game").picker is not None
        return (len(game.actions()), game.pending, picker)

    def _waiting(self) -> bool:
        """Whether the last step has not shown its effect yet (a sensing board reports
        a frame or two later)."""
        link = self.app.session.link
        if link is not None and link.busy:
            return True
        if self._mark is None or self._progress() != self._mark:
            self._waited = 0
            return False
        self._waited += 1
        if self._waited > MAX_WAIT_STEPS:
            raise DemoError(f"the demo step before {self.steps[0]!r} had no effect")
        return True

    def attach(self) -> None:
        if self.screenshot:
            import ui.widgets.board

            ui.widgets.board.ANIMATION_SECONDS = 0  # the picture shows the position
            self.app.settings.sound = False
        self.app.demo_driver = self  # Kivy holds bound methods weakly: keep the driver alive
        self.app.bind(on_start=self._on_start)

    def _on_start(self, *_: Any) -> None:
        board = "sim" if self.play else "screen"
        game = demo_game()
        self.app.start_game(NewGame(board=board), game=game)
        self._event = Clock.schedule_interval(self._tick, 0)

    def _tick(self, _dt: float) -> bool:
        try:
            return self._step()
        except Exception as error:
            LOGGER.exception("demo failed")
            self.app.exit_problem = f"demo failed: {error}"
            self.app.stop()
            return False

    def _step(self) -> bool:
        self._frames += 1
        if self._frames % FRAMES_PER_STEP:
            return True
        if self.steps and self._waiting():
            return True
        if self.steps:
            step = self.steps.pop(0)
            self._mark = self._progress()
            play_step(self.app, step)
            self._shot_at = self._frames + FRAMES_BEFORE_SHOT
            return True
        if self._frames < self._shot_at:
            return True
        if self.screenshot:
            from ui.shots import save_window

            save_window(self.screenshot)
            print(f"screenshot saved to {self.screenshot}")
            self.app.stop()
        if self.on_done is not None:
            self.on_done()
        return False
