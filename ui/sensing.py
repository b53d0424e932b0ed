"""A sensing board wired to the game for the app.

:class:`SensingLink` starts a :class:`~companion.sensors.source.BoardSource`;
its snapshots and status reports (from the source's own thread) hop to the
UI thread with ``Clock.schedule_once``, where :class:`companion.sync.BoardSync`
turns each snapshot into a game action or a list of fixes. The result is
published as a frozen :class:`SensedView` in the ``sensed`` property, and
the result's light hint goes back to the board.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from typing import Any

import chess
from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.properties import ListProperty, ObjectProperty

from companion.sensors.source import BoardSource, PostedSource, SourceStatus
from ui.table_words import plain

LOGGER = logging.getLogger(__name__)

SENSED_COLOURS = {
    "white": (0.97, 0.97, 0.97, 1),
    "black": (0.12, 0.12, 0.13, 1),
    "blue": (0.25, 0.55, 0.95, 1),
    None: (0.60, 0.62, 0.66, 1),  # occupancy only: something stands there
}


@dataclasses.dataclass(frozen=True)
class SensedView:
    """What the sensing board shows now, for the screen."""

    source: str
    connected: bool
    status: str
    markers: tuple[tuple[chess.Square, tuple[float, float, float, float]], ...]
    message: str
    kind: str                        # the SyncKind value, or "" before the first snapshot
    fix_squares: tuple[chess.Square, ...]
    fixes: tuple[str, ...]
    choices: tuple[str, ...]
    takeback: bool
    lead: bool = False
    """The board is led to the companion's turn (or held while it thinks): ``message``
    says the turn and what to set up, and is what the players read."""


def words(text: str) -> str:
    """The sync's message in the app's words: one term for the marked squares (the
    board's lights and the screen's marks are both "highlighted"), no rule codes."""
    return plain(text.replace("lit square", "highlighted square"))


class SensingUnavailableError(ValueError):
    """The sync engine the sensing board needs is not available."""


def _session_class() -> Any:
    try:
        from companion.sync.session import PhysicalBoardSession
    except ImportError as error:
        raise SensingUnavailableError(
            f"sensing boards are not available: companion.sync cannot be imported "
            f"({error})") from None
    return PhysicalBoardSession


def _post_to_ui(call: Callable[[], None]) -> None:
    Clock.schedule_once(lambda _dt: call(), -1)


def on_ui_thread(source: Any) -> PostedSource:
    """``source`` with its callbacks run on the UI thread (via ``Clock``): the chess
    sensing's board sources and the stone games' grid readers alike."""
    return PostedSource(source, _post_to_ui)


CAMERA_INTERVAL = 0.25  # seconds between camera preview updates in the game screen


class SensingLink(EventDispatcher):  # type: ignore[misc]
    """One board source feeding one game through
    :class:`companion.sync.session.PhysicalBoardSession`, everything on the UI thread.

    A camera source (one with ``last_frame`` and ``located``, as
    :class:`vision.reader.CameraBoardReader`) also gets a live preview:
    ``camera_texture`` and the found board's ``camera_corners`` (a8, h8, h1, a1)."""

    sensed: SensedView | None = ObjectProperty(None, allownone=True)
    camera_texture = ObjectProperty(None, allownone=True)
    camera_corners = ListProperty()
    camera_size = ListProperty([0, 0])

    def __init__(self, source: BoardSource, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.source = source
        self.physical: Any = None
        self._status = SourceStatus(source.name, False, "starting...")
        self._result: Any = None
        self._stopped = False
        self._intended: chess.Move | None = None
        self._camera_event: Any = None
        self._frame: Any = None

    # Life ---------------------------------------------------------------

    def start(self, session: Any) -> None:
        """Start the source for ``session`` (a :class:`ui.session.RaindropSession`)."""
        physical_class = _session_class()
        game = session.game
        set_position = getattr(self.source, "set_position", None)
        if set_position is not None:  # a simulated board starts as the game stands
            set_position(game.board)
        self.physical = physical_class(game, on_ui_thread(self.source), self._on_result,
                                       on_status=self._on_status)
        self._publish()
        self.physical.start()
        if hasattr(self.source, "last_frame"):
            self._camera_event = Clock.schedule_interval(self._poll_camera, CAMERA_INTERVAL)

    def _poll_camera(self, _dt: float) -> None:
        """Show the camera reader's newest frame and found grid (read on the UI thread;
        the reader's thread only replaces these references)."""
        from ui.camera_feed import frame_texture

        frame = getattr(self.source, "last_frame", None)
        if frame is not None and frame is not self._frame:
            self._frame = frame
            self.camera_texture = frame_texture(frame, self.camera_texture)
            self.camera_size = [frame.shape[1], frame.shape[0]]
        located = getattr(self.source, "located", None)
        corners = list(located.geometry.corners) if located is not None else []
        if corners != list(self.camera_corners):
            self.camera_corners = corners

    def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        if self._camera_event is not None:
            self._camera_event.cancel()
        if self.physical is not None:
            try:
                self.physical.stop()
            except Exception:  # a dying source must not take the app down
                LOGGER.exception("stopping board source %s", self.source.name)

    # Results (UI thread) ---------------------------------------------------

    def _on_result(self, result: Any) -> None:
        if self._stopped:
            return
        self._result = result
        intended = self._intended
        if result.committed:
            self._intended = None
        if intended is not None and result.kind.value == "ask":
            # A tap already said which action (e.g. which blue piece): answer for it.
            for index, choice in enumerate(result.choices):
                if choice.move == intended and not choice.undo_count:
                    self._intended = None
                    self.choose(index)
                    return
        self._publish()

    def _on_status(self, status: SourceStatus) -> None:
        self._status = status
        self._publish()

    def choose(self, index: int) -> None:
        """The players picked one of an ASK result's choices."""
        if self.physical is None:
            return
        try:
            self.physical.choose(index)
        except ValueError as error:
            LOGGER.info("choice refused: %s", error)

    def accept_takeback(self) -> None:
        """The players confirm the board's earlier position: undo in the game."""
        if self.physical is None:
            return
        try:
            self.physical.accept_takeback()
        except ValueError as error:
            LOGGER.info("takeback refused: %s", error)

    # The simulated board: taps act on it like hands -------------------------

    @property
    def busy(self) -> bool:
        """Whether an action done on the simulated board is still to be committed."""
        return self._intended is not None

    @property
    def simulated(self) -> bool:
        return hasattr(self.source, "perform")

    def physical_board(self, move: chess.Move) -> bool:
        """On a simulated board, do ``move`` with the board's hands (the sync then
        commits it from the snapshots); False for a real board (play on screen)."""
        perform = getattr(self.source, "perform", None)
        if perform is None or self.physical is None:
            return False
        try:
            self._intended = move
            perform(move, self.physical.game.turn)
            self.source.advance(self.source.settle)  # type: ignore[attr-defined]
        except ValueError as error:
            LOGGER.info("simulated board refused %s: %s", move.uci(), error)
            return False
        return True

    def make_game_position(self) -> bool:
        """On a simulated board, set it as the game stands (the companion's turn made by
        the board's hand); False for a real board."""
        set_position = getattr(self.source, "set_position", None)
        if set_position is None or not self.simulated or self.physical is None:
            return False
        set_position(self.physical.game.board)   # the board reports it once settled
        return True

    def physical_removal(self, square: chess.Square) -> bool:
        """On a simulated board, take a piece off for a joker; False for a real board."""
        remove = getattr(self.source, "remove", None)
        if remove is None or not self.simulated:
            return False
        try:
            remove(square)
            self.source.advance(self.source.settle)  # type: ignore[attr-defined]
        except ValueError as error:
            LOGGER.info("simulated board refused removing %s: %s", chess.square_name(square),
                        error)
            return False
        return True

    # Publishing ---------------------------------------------------------------

    def _publish(self) -> None:
        snapshot = None
        if self.physical is not None:
            snapshot = self.physical.sync.snapshot
        markers: list[tuple[chess.Square, tuple[float, float, float, float]]] = []
        if snapshot is not None:
            colours = snapshot.colors
            for square in snapshot.occupied:
                colour = colours.get(square) if colours is not None else None
                markers.append((square, SENSED_COLOURS[colour]))
        result = self._result
        status = self._status
        connection = "connected" if status.connected else "not connected"
        if status.message and not status.connected:
            connection += f": {status.message}"
        self.sensed = SensedView(
            source=self.source.name,
            connected=status.connected,
            status=connection,
            markers=tuple(markers),
            message=words(result.message) if result is not None else "Waiting for the board...",
            kind=result.kind.value if result is not None else "",
            fix_squares=tuple(fix.square for fix in result.fixes) if result is not None else (),
            fixes=tuple(words(fix.text) for fix in result.fixes) if result is not None else (),
            choices=tuple(choice.label for choice in result.choices)
            if result is not None else (),
            takeback=result is not None and result.kind.value == "takeback",
            lead=result is not None and result.kind.value == "mismatch"
            and self.physical is not None and self.physical.sync.leading is not None,
        )
