"""The app follows a stone game on a physical board through the camera.

Dropper, Rumbo and Raindrops are played with stones on a Go board or a chessboard.
With the new-game option ``board: camera`` (a Go board's points) or ``camera-cells``
(stones on a chessboard's squares) a :class:`StoneSensing` opens the camera's grid
reader (:mod:`vision.grid_reader`, found through the ``raindrop.boards`` entry point as
the terminal's ``raindrop play --board camera`` does) and judges each settled board
with :class:`companion.sync.stones.StoneFollower`, on the UI thread (the source's
callbacks hop there through ``Clock``, as the chess sensing does):

- one legal turn fits: the :class:`~ui.games.model.PlayModel` plays it;
- several fit: both players read which, and the play screen shows one button a turn
  (:attr:`StoneSensing.question`; a turn built on the screen answers too);
- the board is part-way through a turn, or fits no turn: the guidance in words
  ("the white stone on d4 should be on e5"), in both players' panels.

Touch play keeps working beside the camera (undo, claims, Rumbo's komi...): after
anything changes the game on the screen, the next settled board is judged against it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from companion.sync.stones import (
    BoardMismatch,
    BoardUnchanged,
    StoneFollower,
    StoneSnapshot,
    StoneSyncError,
    TurnSeen,
    TurnsFit,
    TurnUnfinished,
)
from ui.sensing import OnUiThread

LOGGER = logging.getLogger(__name__)

FOLLOWED = ("dropper", "rumbo", "raindrops")
"""The games played with stones that the camera can follow."""
BOARDS = ("on-screen", "camera", "camera-cells")
"""The new-game choices of ``board``."""
BOARD_HELP = ("on-screen: play by touching the screen. camera: the camera follows stones "
              "on a Go board's points; camera-cells: on a chessboard's squares. The turns "
              "can still be touched on the screen.")


def follows(game: str) -> bool:
    """Whether the new-game screen offers the camera for ``game``."""
    return game in FOLLOWED


class _GameView:
    """What :func:`companion.cli.play_stones.open_stone_board` reads of a game."""

    def __init__(self, session: Any) -> None:
        self.session = session


def open_camera(board: str, model: Any, camera: str = "") -> Any:
    """The camera's grid reader for ``model``'s game: ``board`` is ``camera`` or
    ``camera-cells``, ``camera`` the app's camera argument (``""``: the default camera).
    ``ValueError`` says why it cannot be opened."""
    from companion.cli import CommandError
    from companion.cli.play_stones import open_stone_board

    spec = f"{board}:{camera}" if camera else board
    try:
        return open_stone_board(spec, _GameView(model.session))
    except CommandError as error:
        raise ValueError(str(error)) from None


class StoneSensing:
    """One board source following one :class:`~ui.games.model.PlayModel`'s game.

    ``source`` is a board source reporting :class:`StoneSnapshot` (the camera's grid
    reader, or in tests a fake): ``start(on_snapshot, on_status)`` and ``stop()``.
    """

    def __init__(self, model: Any, source: Any,
                 reopen: Callable[[], Any] | None = None) -> None:
        self.model = model
        self.source = source
        self._reopen = reopen
        """Opens a fresh source to resume with after :meth:`pause` (None: cannot)."""
        self.paused = False
        self.follower = StoneFollower(model.rules)
        self.question: tuple[str, ...] = ()
        """Turns that all give the board seen: the players say which."""
        self.status = "starting..."
        self.message = ""
        """The last guidance shown (an unfinished turn, a board that fits nothing)."""
        self.committed: list[str] = []
        """Turns played from the board, in order."""
        self._board: StoneSnapshot | None = None
        self._seen_state = self._game_state()
        self._stopped = False

    # Life ---------------------------------------------------------------

    def start(self) -> None:
        self.model.sensing = self
        self._listen()

    def _listen(self) -> None:
        """Start the current source; what an earlier (stopped) source still reports is
        dropped."""
        source = self.source

        def on_snapshot(snapshot: StoneSnapshot) -> None:
            if source is self.source and not self.paused:
                self.on_snapshot(snapshot)

        def on_status(status: Any) -> None:
            if source is self.source and not self.paused:
                self.on_status(status)

        OnUiThread(source).start(on_snapshot, on_status)

    def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        self._stop_source()

    def _stop_source(self) -> None:
        try:
            self.source.stop()
        except Exception:  # a dying camera must not take the app down
            LOGGER.exception("stopping the stone board source")

    def pause(self) -> None:
        """Let go of the camera while the game is off the screen (the shelf, another
        app's screen): no frames are read and nothing is committed until :meth:`resume`."""
        if self._stopped or self.paused:
            return
        self.paused = True
        self._stop_source()
        self.status = "paused"
        LOGGER.info("the camera is let go while the game is off the screen")

    def resume(self) -> None:
        """Take the camera again after :meth:`pause` (a fresh source: the board is read
        anew and judged against the game as it stands)."""
        if self._stopped or not self.paused:
            return
        self.paused = False
        if self._reopen is None:
            self._stopped = True
            self._tell("The camera stopped while the game was off the screen; play on the "
                       "screen or start a new game with the camera", "warn")
            return
        try:
            self.source = self._reopen()
        except ValueError as error:
            self._stopped = True
            self._tell(f"The camera cannot follow this game: {error}. Play on the screen",
                       "danger")
            return
        self._board = None
        self._seen_state = self._game_state()
        self.status = "starting..."
        self._listen()

    # From the source (UI thread) -------------------------------------------

    def on_status(self, status: Any) -> None:
        self.status = status.message if status.connected else f"not connected: {status.message}"
        if not status.connected or "found" in status.message or "lost" in status.message:
            self._tell(f"Camera: {status.message}", "warn" if status.connected else "danger")

    def on_snapshot(self, snapshot: StoneSnapshot) -> None:
        """A settled board: commit the turn it shows, ask, or guide."""
        if self._stopped:
            return
        session = self.model.session
        self._board = snapshot
        if self._game_state() != self._seen_state:
            # The game changed on the screen (a touched turn, undo): a new turn's changes.
            self.follower.new_turn()
            self._seen_state = self._game_state()
        if session.is_over:
            return
        try:
            verdict = self.follower.judge(session.position, snapshot)
        except StoneSyncError as error:
            self._tell(f"Camera: {error}", "danger")
            return
        if isinstance(verdict, TurnSeen):
            self._play(verdict.turn)
        elif isinstance(verdict, TurnsFit):
            self.question = verdict.turns
            self._tell(f"{len(verdict.turns)} turns give this board: "
                       f"{', '.join(verdict.turns)}. Which one was it?", "warn")
        elif isinstance(verdict, TurnUnfinished):
            self._tell(f"Turn so far: {' '.join(verdict.steps)}. {verdict.message}", "warn")
        elif isinstance(verdict, BoardMismatch):
            self._tell(verdict.message, "danger")
        elif isinstance(verdict, BoardUnchanged) and (self.message or self.question):
            self._tell("", "")

    # From the players -------------------------------------------------------

    def choose(self, turn: str) -> None:
        """The players answered the question: ``turn`` is the one they played."""
        if turn in self.question:
            self._play(turn)

    # ---------------------------------------------------------------------

    def _play(self, turn: str) -> None:
        self.question = ()
        self.message = ""
        if self.model.play_turn(turn, f"Played {turn} (seen on the board)"):
            self.committed.append(turn)
            self.follower.new_turn(self._board)
        self._seen_state = self._game_state()

    def _game_state(self) -> tuple[int, str]:
        session = self.model.session
        return len(session.record), session.position.text()

    def _tell(self, text: str, level: str) -> None:
        self.message = text
        if not text:
            self.question = ()
        self.model.notify(text, level)


def follow_camera(app: Any, model: Any, board: str) -> StoneSensing | None:
    """Have the camera follow ``model``'s game (``board``: ``camera`` or ``camera-cells``);
    the app's camera argument (its ``board`` of ``camera:ARG``) picks the camera. None,
    with the reason in both panels, when it cannot be opened."""
    app_board = str(getattr(app, "board", ""))
    camera = app_board.partition(":")[2] if app_board.startswith("camera") else ""
    try:
        source = open_camera(board, model, camera)
    except ValueError as error:
        model.notify(f"The camera cannot follow this game: {error}. Play on the screen",
                     "danger")
        return None
    sensing = StoneSensing(model, source,
                           reopen=lambda: open_camera(board, model, camera))
    sensing.start()
    return sensing
