"""The Raindropchess tablet app: screens, the running game, board sources.

:class:`RaindropApp` owns the screen manager and at most one
:class:`ui.session.GameSession`. It builds games from the new-game screen,
resumes the journalled game, opens the chosen board source and exports PGN.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.game import Game
from companion.sensors.source import BoardSource, BoardSourceError, open_board_source
from ui import availability, paths, resume
from ui.options import NewGame
from ui.screens.camera import CameraScreen
from ui.screens.game import GameScreen
from ui.screens.game_over import GameOverScreen
from ui.screens.home import HomeScreen
from ui.screens.new_game import NewGameScreen
from ui.screens.settings import SettingsScreen
from ui.sensing import SensingLink, SensingUnavailableError
from ui.session import GameSession
from ui.settings import AppSettings

LOGGER = logging.getLogger(__name__)


class RaindropApp(App):  # type: ignore[misc]
    """The app. ``board`` is the default board spec for new games (``sim``, ``screen``,
    ``serial[:PORT]``, ``camera[:ARG]``)."""

    title = "Raindropchess Companion"
    session: GameSession | None = ObjectProperty(None, allownone=True)
    board = StringProperty("sim")
    message = StringProperty("")

    def __init__(self, *, board: str = "sim", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.board = board
        self.settings = AppSettings.load()
        self.first_frame_at: float | None = None
        self.exit_problem: str | None = None

    # Building -------------------------------------------------------------

    def build(self) -> ScreenManager:
        manager = ScreenManager(transition=NoTransition())
        manager.add_widget(HomeScreen(name="home"))
        new_game = NewGameScreen(name="new_game")
        new_game.board = self.board.partition(":")[0]
        manager.add_widget(new_game)
        manager.add_widget(GameScreen(name="game"))
        manager.add_widget(GameOverScreen(name="game_over"))
        manager.add_widget(SettingsScreen(name="settings", settings=self.settings))
        manager.add_widget(CameraScreen(name="camera"))
        return manager

    def on_start(self) -> None:
        self.refresh_home()  # board sources are checked when the new-game screen opens
        Clock.schedule_once(self._first_frame, 0)

    def _first_frame(self, _dt: float) -> None:
        self.first_frame_at = time.perf_counter()

    def on_stop(self) -> None:
        self.end_session()

    # Navigation -------------------------------------------------------------

    def screen(self, name: str) -> Any:
        if not self.root.has_screen(name):
            from ui.games.control import make_screen  # the games' screens, made when needed

            self.root.add_widget(make_screen(name))
        return self.root.get_screen(name)

    def show(self, name: str) -> None:
        if name == "home":
            self.refresh_home()
        if name == "new_game":
            self.refresh_boards()
        self.screen(name)
        session = self.session
        if session is not None and not session.over:
            # The clock stands still while the players are away from the game screen.
            if name == "game":
                session.game.resume()
            elif self.root.current == "game":
                session.game.pause()
        self.root.current = name

    def go_home(self) -> None:
        self.show("home")

    def refresh_home(self) -> None:
        home = self.screen("home")
        home.in_game = self.session is not None and not self.session.over
        info = resume.describe()
        home.can_resume = info.can_resume and not home.in_game
        home.resume_text = info.text

    def refresh_boards(self) -> None:
        """Check the board sources off the UI thread (importing OpenCV and listing USB
        ports take a moment); the result comes back through the Clock."""
        screen = self.screen("new_game")
        screen.checking = True

        def check() -> None:
            status = availability.board_status(self.board)
            Clock.schedule_once(lambda _dt: apply(status), -1)

        def apply(status: dict[str, str]) -> None:
            screen.board_status = status
            screen.checking = False

        threading.Thread(target=check, name="board-check", daemon=True).start()

    # Games ------------------------------------------------------------------

    def start_from_new_game_screen(self) -> None:
        screen = self.screen("new_game")
        kind = screen.board
        spec = self.board if self.board.partition(":")[0] == kind else kind
        try:
            settings = screen.new_game(spec)
        except ValueError as error:
            self.message = str(error)
            return
        self.start_game(settings)

    def start_game(self, settings: NewGame, *, game: Game | None = None,
                   source: BoardSource | None = None) -> GameSession:
        """Start a game (a new one from ``settings`` unless ``game`` is given), on the
        board ``settings.board`` names (or on ``source``, an opened board source)."""
        self.end_session()
        if game is None:
            journal = resume.new_journal()
            game = Game(settings.rules, seed=settings.seed, clock=settings.clock,
                        journal=journal)
        return self._show_session(game, settings.board, source)

    def resume_game(self) -> GameSession | None:
        """Resume the journalled game, if there is one (of any game)."""
        info = resume.describe()
        if info.game != "raindropchess" and info.path is not None:
            from ui.games.control import resume_path

            resume_path(self, info.path)
            return None
        try:
            game, warnings = resume.resume_latest()
        except ValueError as error:
            self.screen("home").resume_text = str(error)
            return None
        self.message = " ".join(warnings)
        return self._show_session(game, self.board)

    def _show_session(self, game: Game, board: str,
                      source: BoardSource | None = None) -> GameSession:
        link = None
        if source is not None:
            link = SensingLink(source)
        elif board.partition(":")[0] != "screen":
            try:
                link = SensingLink(open_board_source(board))
            except (BoardSourceError, SensingUnavailableError) as error:
                LOGGER.warning("board %s unavailable: %s", board, error)
                self.message = f"Board {board!r} not available: {error}"
        try:
            session = GameSession(game, link=link, names=self.names())
        except SensingUnavailableError as error:
            self.message = str(error)
            session = GameSession(game, names=self.names())
        session.bind(over=self._on_over)
        self.session = session
        screen = self.screen("game")
        screen.face_to_face = self.settings.face_to_face
        screen.session = session
        self.root.current = "game"
        return session

    def names(self) -> tuple[str, str]:
        return (self.settings.white_name or "White", self.settings.black_name or "Black")

    def end_session(self) -> None:
        if self.session is not None:
            self.session.close()
            self.screen("game").session = None
            self.session = None

    def _on_over(self, session: GameSession, over: bool) -> None:
        if not over:
            return
        screen = self.screen("game_over")
        screen.view = session.view
        screen.export_text = ""
        screen.export_ok = False
        self.root.current = "game_over"

    def export_pgn(self) -> Path | None:
        """Write the game's PGN to the export folder and show the path."""
        screen = self.screen("game_over")
        if self.session is None:
            screen.export_text = "No game to export"
            return None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = paths.export_dir() / f"raindropchess-{stamp}.pgn"
        try:
            path.write_text(self.session.game.pgn(), encoding="utf-8")
        except OSError as error:
            screen.export_ok = False
            screen.export_text = f"Could not save the PGN: {error}"
            return None
        screen.export_ok = True
        screen.export_text = f"Saved to {path}"
        return path
