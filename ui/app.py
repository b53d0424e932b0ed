"""The Raindropchess tablet app: screens, the running game, board sources.

:class:`RaindropApp` owns the screen manager and at most one
:class:`ui.session.RaindropSession`. It builds games from the new-game screen,
resumes the journalled game, opens the chosen board source and exports PGN.
"""

from __future__ import annotations

import importlib
import logging
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.screenmanager import NoTransition, ScreenManager

from ui.settings import AppSettings
from ui.widgets.text_textures import use_fresh_textures

if TYPE_CHECKING:  # the game's modules load with the first game, not at start
    from companion.game import Game
    from companion.sensors.source import BoardSource
    from ui.options import NewGame
    from ui.session import RaindropSession

LOGGER = logging.getLogger(__name__)

# Each screen is built (its module imported and its .kv loaded) when first shown.
SCREENS = {
    "home": ("ui.screens.home", "HomeScreen"),
    "new_game": ("ui.screens.new_game", "NewGameScreen"),
    "game": ("ui.screens.game", "GameScreen"),
    "game_over": ("ui.screens.game_over", "GameOverScreen"),
    "settings": ("ui.screens.settings", "SettingsScreen"),
    "camera": ("ui.screens.camera", "CameraScreen"),
    "games": ("ui.screens.games", "GamesScreen"),
    "shelf": ("ui.games.shelf", "ShelfScreen"),
    "games_setup": ("ui.games.setup", "GameSetupScreen"),
    "games_play": ("ui.games.play", "GamesPlayScreen"),
    "analysis": ("ui.screens.analysis", "AnalysisScreen"),
}
REVIEW_SECONDS = 0.3
"""The review's time a position (a 60-turn game: about 20 s, shown as it goes)."""
ESCAPE = 27  # also Android's back key


class RaindropApp(App):  # type: ignore[misc]
    """The app. ``board`` is the default board spec for new games (``sim``, ``screen``,
    ``serial[:PORT]``, ``camera[:ARG]``)."""

    title = "Raindropchess Companion"
    session: RaindropSession | None = ObjectProperty(None, allownone=True)
    board = StringProperty("sim")
    message = StringProperty("")

    def __init__(self, *, board: str = "sim", keep_frames: tuple[Path, str] | None = None,
                 **kwargs: Any) -> None:
        use_fresh_textures()   # before the first label: no frame waits to rewrite a texture
        super().__init__(**kwargs)
        self.board = board
        # --keep-frames DIR and --keep-board NAME: the camera keeps confirmed positions
        self.keep_frames = keep_frames
        self._settings: AppSettings | None = None
        self._sounds: Any = None
        self._haptics: Any = None
        self.first_frame_at: float | None = None
        self.exit_problem: str | None = None
        self.companion_playouts: int | None = None
        """The companion's fixed budget a turn and a hint (tests; None: its level's time)."""
        self.review_playouts: int | None = None
        """The review's budget a position (tests; None: a fraction of a second)."""
        self.speaker_factory: Any = None
        """Makes the voice's speaker (tests: a fake); None: the platform's own."""
        self._voice: Any = None
        self.voice_problem = ""
        from kivy.utils import platform

        self.search_in_process = platform != "android"
        """The companion searches in a process of its own (``ui.search_process``), so the
        screen keeps drawing; False: on a thread of the app's (tests' fake engines)."""

    @property
    def settings(self) -> AppSettings:
        """The app's settings, read from their file on first use (at start, for the
        text size)."""
        if self._settings is None:
            self._settings = AppSettings.load()
        return self._settings

    @property
    def sounds(self) -> Any:
        """The table's sounds (made on first use), muted as the settings say."""
        if self._sounds is None:
            from ui.sound import SoundBoard

            self._sounds = SoundBoard(muted=not self.settings.sound)
        return self._sounds

    @property
    def haptics(self) -> Any:
        """The table's haptic feedback (the vibrator looked up on first use), on or off
        as the settings say."""
        if self._haptics is None:
            from ui.haptics import Haptics

            self._haptics = Haptics(enabled=self.settings.haptics)
        return self._haptics

    def voice(self) -> Any:
        """The speaker the companion's sentences go to (a queue: speaking never blocks the
        screen), or None while the voice setting is off. Where the platform has no speech
        the sentences are only shown, and ``voice_problem`` says why."""
        if not self.settings.voice:
            return None
        if self._voice is None:
            from companion.table.speech import SpeechQueue
            from ui import voice

            speaker = (self.speaker_factory or voice.platform_speaker)()
            self.voice_problem = str(getattr(speaker, "reason", ""))
            self._voice = speaker if self.speaker_factory is not None \
                else SpeechQueue(speaker)
        return self._voice

    def apply_settings(self) -> None:
        """Show the settings on the screens that use them (after a change too)."""
        from ui import theme

        settings = self.settings
        theme.use_highlights(settings.highlights)
        theme.use_board(settings.board_colours)
        self._apply_text_size()
        from ui import pieces

        try:
            pieces.use_piece_set(settings.pieces)
        except ValueError as error:
            LOGGER.warning("ignoring the piece set setting: %s", error)
        if self._sounds is not None:
            self._sounds.muted = not settings.sound
        if self._haptics is not None:
            self._haptics.enabled = settings.haptics
        self._apply_voice()
        if self.root.has_screen("game"):
            screen = self.screen("game")
            screen.face_to_face = settings.face_to_face
            screen.white_at_bottom = settings.white_at_bottom
            screen.ids.board.redraw()

    def _apply_voice(self) -> None:
        """The voice on or off for the running game (the setting changed)."""
        if not self.settings.voice and self._voice is not None:
            close = getattr(self._voice, "close", None)
            if close is not None:
                close()
            self._voice = None
        speaker = self.voice()
        for link in self._companion_links():
            link.speaker = speaker

    def _companion_links(self) -> list[Any]:
        links = []
        if self.session is not None and self.session.companion is not None:
            links.append(self.session.companion)
        if self.root is not None and self.root.has_screen("games_play"):
            model = self.screen("games_play").model
            if model is not None and getattr(model, "companion", None) is not None:
                links.append(model.companion)
        return links

    def companion_link(self, table: Any) -> Any:
        """The companion's link for a game's table (its seats and hints)."""
        from ui.companion_link import CompanionLink

        if self.search_in_process:
            from ui.search_process import ProcessTable, start_worker

            table = ProcessTable(table)
            if table.settings.companions:
                start_worker()   # the process starts now, not in the first search
        return CompanionLink(table, speaker=self.voice(),
                             hint_playouts=self.companion_playouts)

    def _apply_text_size(self) -> None:
        from ui import theme

        try:
            theme.use_text_size(self.settings.text_size)
        except ValueError as error:
            LOGGER.warning("ignoring the text size setting: %s", error)

    @settings.setter
    def settings(self, value: AppSettings) -> None:
        self._settings = value

    # Building -------------------------------------------------------------

    def build(self) -> ScreenManager:
        self._apply_text_size()  # before the first screen (a small JSON file is read)
        manager = ScreenManager(transition=NoTransition())
        self.root = manager
        self.screen("home")
        return manager

    def _make_screen(self, name: str) -> Any:
        module, cls = SCREENS[name]
        factory = getattr(importlib.import_module(module), cls)
        if name == "settings":
            return factory(name=name, settings=self.settings)
        screen = factory(name=name)
        if name == "new_game":
            screen.board = self.board.partition(":")[0]
        return screen

    def on_start(self) -> None:
        from kivy.core.window import Window

        Window.bind(on_keyboard=self._on_key)
        # The journal is read after the first frame; board sources are checked when the
        # new-game screen opens.
        Clock.schedule_once(self._first_frame, 0)

    def _on_key(self, _window: Any, key: int, *_args: Any) -> bool:
        if key != ESCAPE:
            return False
        return self.back()

    def back(self) -> bool:
        """The back key: close what is open, else go back a screen; leaving a running game
        asks first. Returns whether the key was used."""
        from kivy.core.window import Window
        from kivy.uix.modalview import ModalView

        modals = [child for child in Window.children if isinstance(child, ModalView)]
        if modals:
            modals[0].dismiss(animation=False)
            return True
        current = self.root.current
        if current == "game" and self.session is not None and not self.session.over:
            self.confirm("Leave the game?", "The game is kept: come back to it from the home "
                         "screen.", "Leave", self.go_home)
            return True
        if current == "home":
            self.stop()
            return True
        if current == "analysis":
            self.show(self.screen("analysis").back_to)
            return True
        self.show("home")
        return True

    def confirm(self, title: str, text: str, yes: str, action: Any) -> Any:
        """Ask before doing ``action``; returns the question's view."""
        from ui.widgets.popups import ConfirmView

        view = ConfirmView(title=title, text=text, yes_text=yes)
        view.bind(on_yes=lambda *_: action())
        view.open(animation=False)
        return view

    def ask_new_game(self) -> None:
        """New game: with a game running, ask first (it stays saved and can be resumed)."""
        if self.session is not None and not self.session.over:
            self.confirm("Start a new game?", "The running game is saved: it can be "
                         "resumed from the home screen.", "New game",
                         lambda: self.show("new_game"))
            return
        self.show("new_game")

    def _first_frame(self, _dt: float) -> None:
        self.first_frame_at = time.perf_counter()
        self.refresh_home()

    def on_stop(self) -> None:
        self.end_session()
        if self.root is not None and self.root.has_screen("games_play"):
            model = self.screen("games_play").model
            if model is not None and getattr(model, "companion", None) is not None:
                model.companion.close()
        from ui.search_process import close_worker

        close_worker()

    # Navigation -------------------------------------------------------------

    def screen(self, name: str) -> Any:
        """The screen called ``name``, built on first use (the games' screens too)."""
        if not self.root.has_screen(name):
            self.root.add_widget(self._make_screen(name))
        return self.root.get_screen(name)

    def show(self, name: str) -> None:
        self.screen(name)
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
        from ui import resume

        info = resume.describe()
        home.can_resume = info.can_resume and not home.in_game
        home.resume_text = info.text

    def refresh_boards(self) -> None:
        """Check the board sources off the UI thread (importing OpenCV and listing USB
        ports take a moment); the result comes back through the Clock."""
        screen = self.screen("new_game")
        screen.checking = True

        def check() -> None:
            from ui import availability

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
        screen.playouts = self.companion_playouts
        try:
            settings = screen.new_game(spec)
        except ValueError as error:
            self.message = str(error)
            return
        self.start_game(settings)

    def start_game(self, settings: NewGame, *, game: Game | None = None,
                   source: BoardSource | None = None) -> RaindropSession:
        """Start a game (a new one from ``settings`` unless ``game`` is given), on the
        board ``settings.board`` names (or on ``source``, an opened board source)."""
        from companion.game import Game
        from ui import resume

        self.end_session()
        if game is None:
            journal = resume.new_journal()
            game = Game(settings.rules, seed=settings.seed, clock=settings.clock,
                        journal=journal, table=settings.table)
        return self._show_session(game, settings.board, source)

    def resume_game(self) -> RaindropSession | None:
        """Resume the journalled game, if there is one (of any game)."""
        from ui import resume

        info = resume.describe()
        if info.game != "raindropchess" and info.path is not None:
            from ui.games.control import resume_path

            resume_path(self, info.path)
            return None
        self.end_session()  # the running game is saved; it may be the one resumed
        try:
            game, warnings = resume.resume_latest()
        except ValueError as error:
            self.screen("home").resume_text = str(error)
            return None
        self.message = " ".join(warnings)
        return self._show_session(game, self.board)

    def open_saved(self, path: Path, running: bool) -> RaindropSession | None:
        """Resume a saved game that is still running (asking first if another runs),
        or review a finished one (its journal is left as it is)."""
        if running and self.session is not None and not self.session.over:
            self.confirm("Resume this game?", "The running game is saved: it stays in "
                         "the list.", "Resume", lambda: self.open_saved_now(path, running))
            return None
        return self.open_saved_now(path, running)

    def open_saved_now(self, path: Path, running: bool) -> RaindropSession | None:
        from ui import resume

        if running and self._playing(path):
            self.end_session()  # the game resumed is the one running: let go of it first
        try:
            if running:
                game, warnings = resume.resume_path(path)
                self.message = " ".join(warnings)
            else:
                game = resume.load_for_review(path)
        except ValueError as error:
            self.screen("games").empty_text = str(error)
            return None
        self.end_session()
        session = self._show_session(game, self.board if running else "screen")
        if game.is_over:
            self._on_over(session, True)
        return session

    def _show_session(self, game: Game, board: str,
                      source: BoardSource | None = None) -> RaindropSession:
        from companion.sensors.source import BoardSourceError, open_board_source
        from ui.sensing import SensingLink, SensingUnavailableError
        from ui.session import RaindropSession

        link = None
        if source is not None:
            link = SensingLink(source)
        elif board.partition(":")[0] != "screen":
            try:
                opened = open_board_source(board)
                self._keep_frames(opened, board)
                link = SensingLink(opened)
            except (BoardSourceError, SensingUnavailableError) as error:
                LOGGER.warning("board %s unavailable: %s", board, error)
                self.message = f"Board {board!r} not available: {error}"
        companion = None
        if game.table:
            from companion.table.chess_table import ChessTable

            try:
                companion = self.companion_link(ChessTable(game))
            except ValueError as error:  # seats the journal got wrong: two persons then
                LOGGER.warning("no companion: %s", error)
                self.message = f"Playing without the companion: {error}"
        try:
            session = RaindropSession(game, link=link, names=self.names(), sounds=self.sounds,
                                      haptics=self.haptics, companion=companion)
        except SensingUnavailableError as error:
            self.message = str(error)
            session = RaindropSession(game, names=self.names(), sounds=self.sounds,
                                      haptics=self.haptics, companion=companion)
        session.bind(over=self._on_over)
        self.session = session
        self.session_board = board
        screen = self.screen("game")
        self.apply_settings()
        screen.session = session
        self.root.current = "game"
        return session

    def _keep_frames(self, source: BoardSource, board: str) -> None:
        """With ``--keep-frames``, or the setting, have a camera keep the frames of
        confirmed positions."""
        keep = self.keep_frames
        if keep is None and self.settings.keep_camera_frames \
                and board.partition(":")[0] == "camera":
            from ui import paths

            keep = (paths.kept_frames_dir(), "table")
        if keep is None:
            return
        keep_frames_in = getattr(source, "keep_frames_in", None)
        if keep_frames_in is None:
            self.message = f"Board {board!r} has no camera: no frames are kept."
            return
        from companion.sensors.source import BoardSourceError

        try:
            keep_frames_in(*keep)
        except BoardSourceError as error:
            LOGGER.warning("%s", error)
            self.message = f"No frames are kept: {error}"

    def reconnect_board(self, board: str | None = None) -> RaindropSession | None:
        """Open the game's board again (``board``: another one, e.g. ``screen`` for the
        on-screen board); the game goes on where it was."""
        session = self.session
        if session is None:
            return None
        game = session.game
        session.close()
        self.screen("game").session = None
        self.session = None
        return self._show_session(game, board or getattr(self, "session_board", self.board))

    def analyse(self, timeline: Any, back_to: str) -> Any:
        """The review with the companion (graph, marks, better turns) of a finished game's
        ``timeline``, run off the UI thread; Back returns to ``back_to``."""
        from companion.engine.contract import Budget

        budget = Budget(playouts=self.review_playouts) if self.review_playouts \
            else Budget(seconds=REVIEW_SECONDS)
        screen = self.screen("analysis")
        self.show("analysis")
        screen.start(timeline, budget, back_to)
        return screen

    def analyse_game(self) -> Any:
        """From the game-over screen: the companion's review of the game."""
        if self.session is None:
            return None
        from companion.table.review import timeline_of_game

        return self.analyse(timeline_of_game(self.session.game), "game_over")

    def review_game(self) -> None:
        """From the game-over screen: the board, stepping through the game."""
        self.show("game")
        self.screen("game").open_review(0)

    def names(self) -> tuple[str, str]:
        return (self.settings.white_name or "White", self.settings.black_name or "Black")

    def _playing(self, path: Path) -> bool:
        """Whether the running game records to the journal at ``path``."""
        journal = self.session.game.journal if self.session is not None else None
        held = getattr(journal, "path", None)
        return held is not None and Path(held).resolve() == path.resolve()

    def end_session(self) -> None:
        """End the running game: stop its screen and board, let go of its journal."""
        if self.session is not None:
            self.session.close()
            self.session.game.close_journal()
            self.screen("game").session = None
            self.session = None

    def _on_over(self, session: RaindropSession, over: bool) -> None:
        if not over:
            return
        screen = self.screen("game_over")
        screen.face_to_face = self.settings.face_to_face
        screen.view = session.view
        screen.export_text = ""
        screen.export_ok = False
        self.root.current = "game_over"

    def export_pgn(self) -> Path | None:
        """Write the game's PGN to the export folder and show the path."""
        from ui import paths

        screen = self.screen("game_over")
        if self.session is None:
            screen.export_text = "No game to export"
            return None
        from companion.notation import write_pgn
        from companion.saving import write_new

        stamp = time.strftime("%Y%m%d-%H%M%S")
        text = write_pgn(self.session.game)
        try:
            for number in range(1, 100):
                suffix = "" if number == 1 else f"-{number}"
                path = paths.export_dir() / f"raindropchess-{stamp}{suffix}.pgn"
                try:
                    write_new(path, text)   # owner only, as the journals; never over a file
                    break
                except FileExistsError:
                    continue
            else:
                raise OSError(f"too many exports named raindropchess-{stamp}")
        except OSError as error:
            screen.export_ok = False
            screen.export_text = f"Could not save the PGN: {error}"
            return None
        screen.export_ok = True
        screen.export_text = f"Saved to {path}"
        return path
