"""The app follows a stone game on a physical board through the camera.

Dropper, Rumbo and Raindrops are played with stones on a Go board or a chessboard.
With the new-game option ``board: camera`` (a Go board's points) or ``camera-cells``
(stones on a chessboard's squares) a :class:`StoneSensing` opens the camera's grid
reader (found through the ``raindrop.stone_boards`` entry point) and follows the game
with the same :class:`companion.sync.stone_session.StoneBoardSession` as the terminal's
``raindrop play --board camera``, on the UI thread (the source's callbacks hop there
through ``Clock``, as the chess sensing does):

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

from companion.sync.stone_session import (
    BoardLeads,
    BoardTrouble,
    Report,
    StoneBoardSession,
    open_grid_source,
)
from companion.sync.stones import (
    BoardMismatch,
    BoardUnchanged,
    TurnSeen,
    TurnsFit,
    TurnUnfinished,
)
from ui.sensing import on_ui_thread

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


def open_camera(board: str, model: Any, camera: str = "") -> Any:
    """The camera's grid reader for ``model``'s game: ``board`` is ``camera`` or
    ``camera-cells``, ``camera`` the app's camera argument (``""``: the default camera).
    ``ValueError`` says why it cannot be opened."""
    spec = f"{board}:{camera}" if camera else board
    return open_grid_source(spec, model.session.position)


class StoneSensing:
    """The app's side of a :class:`~companion.sync.stone_session.StoneBoardSession`
    following one :class:`~ui.games.model.PlayModel`'s game: the source's callbacks run on
    the UI thread, and what the session decides is told in both players' panels.

    ``source`` is a board source reporting :class:`StoneSnapshot` (the camera's grid
    reader, or in tests a fake): ``start(on_snapshot, on_status)`` and ``stop()``.
    ``reopen`` opens a fresh source to go on with after :meth:`pause` (None: cannot).
    """

    def __init__(self, model: Any, source: Any,
                 reopen: Callable[[], Any] | None = None) -> None:
        self.model = model
        self._reopen = reopen
        self.board = StoneBoardSession(model.session, on_ui_thread(source), self._on_report,
                                       on_status=self.on_status, play=self._play)
        self.status = "starting..."
        self.message = ""
        """The last guidance shown (an unfinished turn, a board that fits nothing)."""
        self.leads = False
        """Whether the board is led to the companion's turn (until it shows it)."""

    @property
    def question(self) -> tuple[str, ...]:
        """Turns that all give the board seen: the players say which."""
        return self.board.question

    @property
    def committed(self) -> list[str]:
        """Turns played from the board, in order."""
        return self.board.committed

    @property
    def paused(self) -> bool:
        return self.board.paused

    # Life ---------------------------------------------------------------

    def start(self) -> None:
        self.model.sensing = self
        companion = getattr(self.model, "companion", None)
        if companion is not None:   # the board follows the companion's turns
            from companion.table.lead import BoardLead

            companion.runner.subscribe(BoardLead(self.board))
        self.board.start()

    def stop(self) -> None:
        self.board.stop()

    def pause(self) -> None:
        """Let go of the camera while the game is off the screen (the shelf, another
        app's screen): no frames are read and nothing is committed until :meth:`resume`."""
        if self.board.stopped or self.board.paused:
            return
        self.board.pause()
        self.status = "paused"
        LOGGER.info("the camera is let go while the game is off the screen")

    def resume(self) -> None:
        """Take the camera again after :meth:`pause` (a fresh source: the board is read
        anew and judged against the game as it stands)."""
        if self.board.stopped or not self.board.paused:
            return
        if self._reopen is None:
            self.board.stop()
            self._tell("The camera stopped while the game was off the screen; play on the "
                       "screen or start a new game with the camera", "warn")
            return
        try:
            source = self._reopen()
        except ValueError as error:
            self.board.stop()
            self._tell(f"The camera cannot follow this game: {error}. Play on the screen",
                       "danger")
            return
        self.status = "starting..."
        self.board.resume(on_ui_thread(source))

    # From the session (UI thread) -------------------------------------------

    def on_status(self, status: Any) -> None:
        self.status = status.message if status.connected else f"not connected: {status.message}"
        if not status.connected or "found" in status.message or "lost" in status.message:
            self._tell(f"Camera: {status.message}", "warn" if status.connected else "danger")

    def refusal(self) -> str | None:
        """Why a person may not play now: the board is still to show the companion's
        turn (its words and what to set up follow); else None."""
        if not self.leads:
            return None
        return f"First make the companion's turn on the board. {self.message}".strip()

    def _on_report(self, report: Report) -> None:
        self.leads = isinstance(report, BoardLeads) and not report.done
        if isinstance(report, TurnSeen):
            self.message = ""  # played: the model said so
        elif isinstance(report, BoardTrouble):
            self._tell(f"Camera: {report.message}", "danger")
        elif isinstance(report, TurnsFit):
            self._tell(f"{len(report.turns)} turns give this board: "
                       f"{', '.join(report.turns)}. Which one was it?", "warn")
        elif isinstance(report, TurnUnfinished):
            self._tell(f"Turn so far: {' '.join(report.steps)}. {report.message}", "warn")
        elif isinstance(report, BoardMismatch):
            self._tell(report.message, "danger")
        elif isinstance(report, BoardLeads):   # the companion's turn, to make on the board
            self._tell(report.message, "good" if report.done else "warn")
        elif isinstance(report, BoardUnchanged) and self.message:
            self._tell("", "")

    # From the players -------------------------------------------------------

    def choose(self, turn: str) -> None:
        """The players answered the question: ``turn`` is the one they played."""
        if self.board.choose(turn):
            self.message = ""

    # ---------------------------------------------------------------------

    def _play(self, turn: str) -> bool:
        played: bool = self.model.play_turn(turn, f"Played {turn} (seen on the board)")
        return played

    def _tell(self, text: str, level: str) -> None:
        self.message = text
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
