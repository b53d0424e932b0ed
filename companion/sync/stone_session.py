"""A stone game played on a physical board, for the terminal and the app alike.

The counterpart of :class:`~companion.sync.session.PhysicalBoardSession` for the stone
games (Dropper, Rumbo, Raindrops): :func:`open_stone_source` opens the board a game
follows, and a :class:`StoneBoardSession` hands each settled board to one
:class:`~companion.sync.stones.StoneFollower` and acts on what it finds:

- one legal turn fits: the turn is played (through ``play``, the front end's way of
  committing a turn) and reported as :class:`~companion.sync.stones.TurnSeen`;
- several fit: :attr:`StoneBoardSession.question` holds them until the players say which
  (:meth:`StoneBoardSession.choose`, or a turn played any other way);
- a turn half made, or a board that fits nothing: the guidance is reported, except that a
  board with a stone lifted off it (an occupancy board reports every act) is not wrong yet;
- a board the game's board cannot be (a cell it lacks): a :class:`BoardTrouble`.

Whenever the game changes elsewhere (a turn typed or touched, an undo) the next board
starts a new turn's changes. Boards come in on any thread and are decided one at a time
(under :attr:`StoneBoardSession.lock`); a front end that wants them on its own thread
wraps the source in a :class:`~companion.sensors.source.PostedSource`.

Boards: ``camera[:SOURCE]`` (a Go board's points) and ``camera-cells[:SOURCE]`` (stones
on a chessboard's squares) are the grid readers registered under the
``raindrop.stone_boards`` entry point (the camera's lives in ``vision``, which the core
never imports); ``serial[:PORT]`` is the reed-switch board, for a game on an 8 x 8 grid
named like a chessboard: it sees only whether a square is occupied, and the order in
which squares changed tells apart turns that end on the same occupancy.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable, Iterable
from typing import Any, Protocol

import chess

from companion.games.base import Position
from companion.games.session import GameSession
from companion.sensors.snapshot import BoardSnapshot
from companion.sensors.source import (
    BoardSourceError,
    SourceStatus,
    available_stone_sources,
    load_factory,
    open_board_source,
)
from companion.sync.stones import (
    BoardMismatch,
    BoardUnchanged,
    GridLayout,
    StoneFollower,
    StoneSnapshot,
    StoneSyncError,
    TurnSeen,
    TurnsFit,
    Verdict,
    describe_fixes,
)

LOGGER = logging.getLogger(__name__)

GRID_BOARDS = {"camera": "points", "camera-cells": "cells"}
"""The grid readers' board names and the grids they read: a Go board's points, or a
chessboard's cells."""
OCCUPANCY_BOARDS = ("serial",)
"""Occupancy-only boards (reed switches on an 8 x 8 chessboard)."""
BOARD_CHOICES = ("camera[:SOURCE] (a Go board), camera-cells[:SOURCE] (stones on a "
                 "chessboard's squares) or, for Dropper on 8 x 8, serial[:PORT] (the "
                 "reed-switch board)")


@dataclasses.dataclass(frozen=True)
class BoardTrouble:
    """A sensed board that does not fit the game's board at all; ``message`` says why."""

    message: str


@dataclasses.dataclass(frozen=True)
class BoardLeads:
    """The game leads the board (the companion's turn, see :meth:`StoneBoardSession.lead`):
    ``message`` guides the players; ``done``: the board now shows the game."""

    message: str
    fixes: tuple[str, ...] = ()
    done: bool = False


Report = Verdict | BoardTrouble | BoardLeads
"""What the session tells its front end about a board."""


class StoneSource(Protocol):
    """A board source of settled boards: :class:`StoneSnapshot` from a grid reader, or
    :class:`~companion.sensors.snapshot.BoardSnapshot` from an occupancy board."""

    name: str

    def start(self, on_snapshot: Callable[[Any], None],
              on_status: Callable[[SourceStatus], None]) -> None: ...

    def stop(self) -> None: ...


def is_stone_board(spec: str) -> bool:
    """Whether ``--board``'s ``spec`` names a board a stone game can follow."""
    name = spec.partition(":")[0]
    return name in GRID_BOARDS or name in OCCUPANCY_BOARDS


def occupancy_snapshot(snapshot: BoardSnapshot, layout: GridLayout) -> StoneSnapshot:
    """A reed board's occupied squares as a stone board (``x`` occupied);
    :class:`StoneSyncError` for a square the game's board lacks."""
    cells = {layout.cell(r, c): "." for r in range(len(layout.rows))
             for c in range(len(layout.columns))}
    for square in snapshot.occupied:
        name = chess.square_name(square)
        if name not in cells:
            raise StoneSyncError(f"the board reports {name}, which this game's board lacks")
        cells[name] = "x"
    return StoneSnapshot(cells, snapshot.timestamp, snapshot.source)


def open_grid_source(spec: str, position: Position) -> StoneSource:
    """The grid reader ``camera[:SOURCE]`` or ``camera-cells[:SOURCE]`` for a game now at
    ``position``; :class:`BoardSourceError` says why it cannot be opened."""
    name, _, argument = spec.partition(":")
    if name not in GRID_BOARDS:
        raise BoardSourceError(f"{spec}: a stone game follows {BOARD_CHOICES}")
    target = available_stone_sources().get("camera")
    if target is None:
        raise BoardSourceError("the camera board is not installed (pip install -e '.[vision]')")
    try:
        layout = GridLayout.of(position)
        factory = load_factory(target)
    except ImportError as error:
        raise BoardSourceError(f"the camera board needs a missing dependency "
                               f"({error.name})") from None
    except StoneSyncError as error:
        raise BoardSourceError(str(error)) from None
    width, height = layout.size
    size = f"{width}" if width == height else f"{width}x{height}"
    empty = all(v == "." for v in position.cells().values())
    source: StoneSource = factory(argument, f"{GRID_BOARDS[name]}:{size}", layout,
                                  empty_start=empty)
    return source


def open_occupancy_source(spec: str, position: Position) -> StoneSource:
    """The reed-switch board for a game on an 8 x 8 grid named like a chessboard;
    :class:`BoardSourceError` otherwise."""
    layout = GridLayout.of(position)
    if layout.columns != tuple("abcdefgh") or layout.rows != tuple(range(8, 0, -1)):
        raise BoardSourceError(f"{spec}: the reed-switch board is 8 x 8; this game's board "
                               f"is {layout.size[0]} x {layout.size[1]}")
    return open_board_source(spec)


def open_stone_source(spec: str, position: Position) -> StoneSource:
    """Any board a stone game follows (see the module's text), for a game at ``position``."""
    if spec.partition(":")[0] in OCCUPANCY_BOARDS:
        return open_occupancy_source(spec, position)
    return open_grid_source(spec, position)


class StoneBoardSession:
    """One board source following one stone game's :class:`GameSession`.

    ``on_report`` hears of every board decided (a :data:`Report`), on the thread that
    brought the board; ``on_status`` of the source's health. ``play`` commits a turn
    seen on the board and says whether it was played (the default plays it on the
    session); ``occupancy``: the source reports
    :class:`~companion.sensors.snapshot.BoardSnapshot` (every change), not grids.
    """

    def __init__(self, session: GameSession, source: StoneSource,
                 on_report: Callable[[Report], None], *,
                 on_status: Callable[[SourceStatus], None] | None = None,
                 play: Callable[[str], bool] | None = None,
                 occupancy: bool = False) -> None:
        self.session = session
        self.source = source
        self.occupancy = occupancy
        self.follower = StoneFollower(session.rules)
        self.question: tuple[str, ...] = ()
        """Turns that all give the board seen: the players say which."""
        self.committed: list[str] = []
        """Turns played from the board, in order."""
        self.status: SourceStatus | None = None
        self.paused = False
        self._on_report = on_report
        self._on_status = on_status
        self._play = play or self._play_on_session
        self._lock = threading.RLock()
        self._board: StoneSnapshot | None = None
        self._seen = self._game_state()
        self._stopped = False
        self._lead: tuple[str, bool] | None = None   # (note, until the board shows it)

    @property
    def lock(self) -> threading.RLock:
        """Held while a board is decided; hold it to change the game from elsewhere."""
        return self._lock

    # Life ---------------------------------------------------------------

    def start(self) -> None:
        """Start the source: its boards are decided from now on."""
        self._listen(self.source)

    def _listen(self, source: StoneSource) -> None:
        """Start ``source``; what an earlier (stopped) source still reports is dropped."""

        def on_snapshot(snapshot: Any) -> None:
            if source is self.source and not self.paused and not self._stopped:
                if self.occupancy:
                    self.on_board(snapshot)
                else:
                    self.on_snapshot(snapshot)

        def on_status(status: SourceStatus) -> None:
            if source is self.source and not self.paused and not self._stopped:
                self.status = status
                if self._on_status is not None:
                    self._on_status(status)

        source.start(on_snapshot, on_status)

    @property
    def stopped(self) -> bool:
        """Whether :meth:`stop` was called (nothing more is decided)."""
        return self._stopped

    def stop(self) -> None:
        """Stop the source for good; the game is left as it is."""
        if self._stopped:
            return
        self._stopped = True
        if not self.paused:  # a paused source was stopped already
            self._stop_source()

    def pause(self) -> None:
        """Let go of the source (the game is off the screen): nothing is decided until
        :meth:`resume`."""
        if self._stopped or self.paused:
            return
        self.paused = True
        self._stop_source()

    def resume(self, source: StoneSource) -> None:
        """Go on with a fresh ``source`` after :meth:`pause`: the board is read anew and
        judged against the game as it stands."""
        if self._stopped or not self.paused:
            return
        self.paused = False
        self.source = source
        self._board = None
        self._seen = self._game_state()
        self.status = None
        self._listen(source)

    def _stop_source(self) -> None:
        try:
            self.source.stop()
        except Exception:  # a dying camera must not take the game down
            LOGGER.exception("stopping the stone board source")

    # Boards -------------------------------------------------------------

    def on_board(self, snapshot: BoardSnapshot) -> None:
        """An occupancy board's snapshot (it reports every change)."""
        with self._lock:
            try:
                board = occupancy_snapshot(snapshot, GridLayout.of(self.session.position))
            except StoneSyncError as error:
                self._report(BoardTrouble(str(error)))
                return
            self._catch_up()
            self.follower.changes(board)
            in_hand = any(v != "." and board.cells.get(c) == "."
                          for c, v in self.session.position.cells().items())
            self._decide(board, in_hand=in_hand)

    def on_snapshot(self, snapshot: StoneSnapshot) -> None:
        """A grid reader's settled board: play the turn it shows, ask, or guide."""
        with self._lock:
            self._catch_up()
            self._decide(snapshot, in_hand=False)

    def lead(self, note: str, cells: Iterable[str] = ()) -> None:
        """The companion played a turn the board does not show yet: nothing on the board
        is played until it shows the game's position; each board is guided towards it
        (``note`` first), and the lead ends once it does (:class:`BoardLeads`). ``cells``
        (the turn's): for boards with lights; the grid readers have none."""
        with self._lock:
            self._seen = self._game_state()
            self._lead = (note, True)
            if self._board is not None:
                self._decide(self._board, in_hand=False)

    def hold(self, note: str) -> None:
        """The companion is thinking: the board should stay as the game is; nothing set
        up on it is played. The hold ends when the game changes, or at :meth:`release`."""
        with self._lock:
            self._seen = self._game_state()
            self._lead = (note, False)

    def release(self) -> None:
        """End a lead or a hold: the board is followed as usual again."""
        with self._lock:
            if self._lead is None:
                return
            self._lead = None
            self.follower.new_turn(self._board)
            self._seen = self._game_state()
            if self._board is not None:
                self._decide(self._board, in_hand=False)

    @property
    def leading(self) -> bool:
        """Whether a lead or a hold is in force."""
        return self._lead is not None

    def choose(self, turn: str) -> bool:
        """The players answered the question: ``turn`` is the one they played."""
        with self._lock:
            if turn not in self.question:
                return False
            return self._commit(turn)

    def _catch_up(self) -> None:
        """A game changed elsewhere (a turn typed or touched, an undo) starts a new turn's
        changes (and ends a hold: whoever held leads next)."""
        if self._game_state() != self._seen:
            if self._lead is not None and not self._lead[1]:
                self._lead = None
            self.follower.new_turn()
            self.question = ()
            self._seen = self._game_state()

    def _decide(self, snapshot: StoneSnapshot, *, in_hand: bool) -> None:
        self._board = snapshot
        if self._lead is not None:
            self._led(snapshot, self._lead, in_hand=in_hand)
            return
        if self.session.is_over:
            return
        try:
            verdict = self.follower.judge(self.session.position, snapshot)
        except StoneSyncError as error:
            self._report(BoardTrouble(str(error)))
            return
        if isinstance(verdict, TurnSeen):
            if self._commit(verdict.turn):
                self._report(verdict)
            return
        if isinstance(verdict, TurnsFit):
            self.question = verdict.turns
        elif isinstance(verdict, BoardMismatch) and in_hand:
            return  # a stone in hand: the board is not wrong yet
        elif isinstance(verdict, BoardUnchanged):
            self.question = ()
        self._report(verdict)

    def _led(self, snapshot: StoneSnapshot, lead: tuple[str, bool], *, in_hand: bool) -> None:
        note, until_in_sync = lead
        want = self.session.position.cells()
        fixes = describe_fixes(dict(snapshot.cells), want,
                               self.occupancy or snapshot.occupancy_only)
        if not fixes:
            if until_in_sync:
                self._lead = None
                self.follower.new_turn(snapshot)
                self._seen = self._game_state()
                self._report(BoardLeads("The board shows it.", (), done=True))
            return
        if in_hand:
            return  # a stone in hand: the board is not wrong yet
        what = "On the board" if until_in_sync else "Put the board back as it was"
        self._report(BoardLeads(f"{note} {what}: {'; '.join(fixes)}.".strip(), fixes))

    def _commit(self, turn: str) -> bool:
        self.question = ()
        played = self._play(turn)
        if played:
            self.committed.append(turn)
            self.follower.new_turn(self._board)
        self._seen = self._game_state()
        return played

    def _play_on_session(self, turn: str) -> bool:
        self.session.play(turn)
        return True

    def _game_state(self) -> tuple[int, str]:
        return len(self.session.record), self.session.position.text()

    def _report(self, report: Report) -> None:
        try:
            self._on_report(report)
        except Exception:  # a front end's failure must never stop the board
            LOGGER.exception("reporting %s", type(report).__name__)
