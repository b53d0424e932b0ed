"""Glue between a board source, :class:`BoardSync` and a game, for the CLI and the app.

A :class:`PhysicalBoardSession` starts a :class:`~companion.sensors.BoardSource`,
hands every snapshot (from whatever thread the source reports on) to one
:class:`BoardSync`, one at a time, lights the board with each result's LED
hint, decides again whenever the game changes elsewhere (a flip on the
screen, an undo, a move typed in), and reports every
:class:`~companion.sync.result.SyncResult` to ``on_result``.

A source that can keep what it saw (the camera: ``keep_position(snapshot, board_fen,
blue)``, see :mod:`vision.keep_frames`) is told each position the game confirms: the
board shows the game's position (in sync, or an action just committed or corrected), so
that position is the truth for the snapshot it was decided on.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable

import chess

from companion import events
from companion.events import GameEvent
from companion.sensors.snapshot import BoardSnapshot
from companion.sensors.source import BoardSource, SourceStatus
from companion.sync.board_sync import BoardSync, Lead, SyncGame
from companion.sync.result import SyncKind, SyncResult

LOGGER = logging.getLogger(__name__)

ResultCallback = Callable[[SyncResult], None]
StatusCallback = Callable[[SourceStatus], None]

# The results after which the board shows the game's position.
CONFIRMED = frozenset({SyncKind.IN_SYNC, SyncKind.COMMITTED, SyncKind.CORRECTED})


class PhysicalBoardSession:
    """A game played on a physical (or simulated) board.

    Snapshots may arrive on any thread; they are decided one at a time (under
    :attr:`lock`). ``on_result`` is called on the thread that caused the decision
    (the source's thread for a snapshot, the caller's for a game change); a UI
    hops over to its own thread. ``on_status`` receives the source's health.
    The game itself is not thread-safe: call its methods from one thread, or
    hold :attr:`lock` while calling them, or have the source report on the game's
    thread (as ``raindrop play`` does).
    """

    def __init__(self, game: SyncGame, source: BoardSource, on_result: ResultCallback, *,
                 on_status: StatusCallback | None = None,
                 touch_move: str | None = None) -> None:
        self.game = game
        self.source = source
        self.sync = BoardSync(game, touch_move=touch_move)
        self._on_result = on_result
        self._on_status = on_status
        self._lock = threading.RLock()
        self._unsubscribe: Callable[[], None] | None = None
        self._stopping = False
        self.status: SourceStatus | None = None

    @property
    def last_result(self) -> SyncResult:
        return self.sync.last_result

    @property
    def lock(self) -> threading.RLock:
        """Held while a snapshot or a game change is decided."""
        return self._lock

    def start(self) -> None:
        """Listen to the game and start the source (its first snapshot is reported)."""
        if self._unsubscribe is None:
            self._unsubscribe = self.game.subscribe(self._on_game_event)
        self.source.start(self._on_snapshot, self._on_source_status)

    def stop(self) -> None:
        """Stop the source and stop listening; the game is left as it is."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._stopping = True
        self.source.stop()
        self.sync.close()

    def choose(self, index: int) -> SyncResult:
        """Answer the open question (see :meth:`BoardSync.choose`)."""
        with self._lock:
            return self._report(self.sync.choose(index))

    def accept_takeback(self) -> SyncResult:
        """Undo as offered by the last TAKEBACK."""
        with self._lock:
            return self._report(self.sync.accept_takeback())

    def refresh(self) -> SyncResult:
        """Decide again on the last snapshot and report it."""
        with self._lock:
            return self._report(self.sync.refresh())

    def lead(self, note: str, squares: Iterable[str | int] = ()) -> SyncResult:
        """The companion played a turn the board does not show yet: guide the players
        until it does (``note`` first, ``squares``, names or numbers, lit in the
        companion's colour); what they set up meanwhile is never played (see
        :meth:`BoardSync.lead`)."""
        lit = chess.SquareSet(chess.parse_square(s) if isinstance(s, str) else s
                              for s in squares)
        with self._lock:
            self.sync.lead(Lead(note, lit))
            return self._report(self.sync.refresh())

    def hold(self, note: str) -> SyncResult:
        """The companion is thinking: the board should stay as the game is; nothing set
        up on it is played. The hold ends when the game changes, or at :meth:`release`."""
        with self._lock:
            self.sync.lead(Lead(note, until_in_sync=False))
            return self._report(self.sync.refresh())

    def release(self) -> SyncResult:
        """End a lead or a hold: the board is followed as usual again."""
        with self._lock:
            self.sync.release()
            return self._report(self.sync.refresh())

    def _on_snapshot(self, snapshot: BoardSnapshot) -> None:
        with self._lock:
            previous = self.sync.last_result
            result = self.sync.update(snapshot)
            if result is not previous:  # a repeated snapshot, decided already: no news
                self._report(result)

    def _on_source_status(self, status: SourceStatus) -> None:
        self.status = status
        if not status.connected and not self._stopping:
            LOGGER.warning("board %s: %s", status.source, status.message)
        if self._on_status is not None:
            self._on_status(status)

    def _on_game_event(self, event: GameEvent) -> None:
        if not isinstance(event, events.PositionChanged | events.GameOver | events.Flagged) \
                or self.sync.committing:
            return
        with self._lock:
            lead = self.sync.leading
            if lead is not None and not lead.until_in_sync:
                self.sync.release()   # a hold ends with the change: whoever held leads next
                return
            if self.sync.snapshot is not None:
                self._report(self.sync.refresh())

    def _report(self, result: SyncResult) -> SyncResult:
        try:
            self.source.show(result.led)
        except Exception:  # a board's lights must never stop the game
            LOGGER.exception("board %s could not show the LED hint", self.source.name)
        self._keep(result)
        self._on_result(result)
        return result

    def _keep(self, result: SyncResult) -> None:
        """Tell a source that keeps what it saw which position its snapshot showed."""
        keep = getattr(self.source, "keep_position", None)
        snapshot = self.sync.snapshot
        if keep is None or snapshot is None or result.kind not in CONFIRMED:
            return
        board = self.game.board
        blue = list(chess.SquareSet(board.promoted & board.occupied))
        try:
            keep(snapshot, board.board_fen(), blue)
        except Exception:  # keeping a frame must never stop the game
            LOGGER.exception("board %s could not keep the position", self.source.name)
