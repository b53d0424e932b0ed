"""``raindrop play --game GAME --board camera``: the terminal game follows a physical board.

The board source reports settled boards: the camera reader (found through
the ``raindrop.boards`` entry point, so the core never imports OpenCV), or
for Dropper on 8 x 8 the reed-switch board (``serial[:PORT]``), which sees
only whether a square is occupied: every change it reports is noted, and the
order of changes tells turns apart that end on the same occupancy.
:class:`~companion.sync.stones.StoneFollower` judges each against the game:
a legal turn is played, several are named for the players to type the one
they meant, and a board that fits no turn is explained in words. Typed
commands keep working beside it (undo, claims, a komi, resign...).
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Callable
from typing import Any

import chess

from companion.cli import CommandError
from companion.sensors.snapshot import BoardSnapshot
from companion.sensors.source import (
    BoardSourceError,
    SourceStatus,
    available_sources,
    open_board_source,
)
from companion.sync.stones import (
    BoardMismatch,
    GridLayout,
    StoneFollower,
    StoneSnapshot,
    StoneSyncError,
    TurnSeen,
    TurnsFit,
    TurnUnfinished,
)

LOGGER = logging.getLogger(__name__)

BOARDS = {"camera": "points", "camera-cells": "cells"}
"""Camera boards for stone games: a Go board's points, or a chessboard's cells."""
OCCUPANCY_BOARDS = ("serial",)
"""Occupancy-only boards (reed switches on an 8 x 8 chessboard)."""


def occupancy_snapshot(snapshot: BoardSnapshot, layout: GridLayout) -> StoneSnapshot:
    """A reed board's occupied squares as a stone board (``x`` occupied)."""
    cells = {layout.cell(r, c): "." for r in range(len(layout.rows))
             for c in range(len(layout.columns))}
    for square in snapshot.occupied:
        name = chess.square_name(square)
        if name not in cells:
            raise StoneSyncError(f"the board reports {name}, which this game's board lacks")
        cells[name] = "x"
    return StoneSnapshot(cells, snapshot.timestamp, snapshot.source)


class StoneBoardLink:
    """Feeds a board source's settled boards to the terminal's session."""

    def __init__(self, terminal: Any, say: Callable[[str], None]) -> None:
        self.terminal = terminal
        self.say = say
        self.lock = threading.RLock()
        self.follower = StoneFollower(terminal.rules)
        self.last_message = ""

    def on_board(self, snapshot: BoardSnapshot) -> None:
        """An occupancy-only board's snapshot (every change it reports)."""
        with self.lock:
            try:
                board = occupancy_snapshot(snapshot, GridLayout.of(self.terminal.session.position))
            except StoneSyncError as error:
                self.say(f"Board: {error}")
                return
            self.follower.changes(board)
            self.on_snapshot(board, in_hand=any(
                v != "." and board.cells.get(c) == "."
                for c, v in self.terminal.session.position.cells().items()))

    def on_snapshot(self, snapshot: StoneSnapshot, *, in_hand: bool = False) -> None:
        """A settled board; ``in_hand``: a stone of the position is lifted (a reed
        board reports every act), so a board that fits nothing yet is not wrong."""
        with self.lock:
            session = self.terminal.session
            if session.is_over:
                return
            try:
                verdict = self.follower.judge(session.position, snapshot)
            except StoneSyncError as error:
                self.say(f"Board: {error}")
                return
            if isinstance(verdict, TurnSeen):
                session.play(verdict.turn)
                self.follower.new_turn(snapshot)
                self.terminal.builder = None
                self.last_message = ""
                self.terminal.draw()
                return
            if isinstance(verdict, TurnsFit):
                message = verdict.message + " (type the turn)."
            elif isinstance(verdict, TurnUnfinished):
                message = f"Turn so far: {''.join(verdict.steps)}. {verdict.message}."
            elif isinstance(verdict, BoardMismatch):
                if in_hand:
                    return
                message = verdict.message
            else:
                return
            if message != self.last_message:
                self.last_message = message
                self.say(message)

    def on_status(self, status: SourceStatus) -> None:
        if not status.connected or "found" in status.message or "lost" in status.message:
            self.say(f"Board: {status.message}")


def open_stone_board(spec: str, terminal: Any) -> Any:
    """Open ``camera[:SOURCE]`` or ``camera-cells[:SOURCE]`` for the terminal's game."""
    name, _, argument = spec.partition(":")
    if name not in BOARDS:
        raise CommandError(f"--board {spec}: a stone game follows --board camera[:SOURCE] (a Go "
                           "board), camera-cells[:SOURCE] (stones on a chessboard's squares) "
                           "or, for Dropper on 8 x 8, serial[:PORT] (the reed-switch board); "
                           "or none")
    target = available_sources().get("camera")
    if target is None:
        raise CommandError("the camera board is not installed (pip install -e '.[vision]')")
    try:
        layout = GridLayout.of(terminal.session.position)
        module = importlib.import_module(target.partition(":")[0])
        width, height = layout.size
        size = f"{width}" if width == height else f"{width}x{height}"
        empty = all(v == "." for v in terminal.session.position.cells().values())
        return module.open_grid_board(argument, f"{BOARDS[name]}:{size}", layout,
                                      empty_start=empty)
    except ImportError as error:
        raise CommandError(f"the camera board needs a missing dependency ({error.name})") from None
    except (BoardSourceError, StoneSyncError) as error:
        raise CommandError(str(error)) from None


def open_occupancy_board(spec: str, terminal: Any) -> Any:
    """The reed-switch board for a game on an 8 x 8 grid named like a chessboard."""
    layout = GridLayout.of(terminal.session.position)
    if layout.columns != tuple("abcdefgh") or layout.rows != tuple(range(8, 0, -1)):
        raise CommandError(f"--board {spec}: the reed-switch board is 8 x 8; this game's board "
                           f"is {layout.size[0]} x {layout.size[1]}")
    try:
        return open_board_source(spec)
    except BoardSourceError as error:
        raise CommandError(str(error)) from None


def follow(terminal: Any, spec: str) -> Callable[[], None]:
    """Start following the board; returns the function that stops it."""
    occupancy = spec.partition(":")[0] in OCCUPANCY_BOARDS
    source = (open_occupancy_board(spec, terminal) if occupancy
              else open_stone_board(spec, terminal))
    link = StoneBoardLink(terminal, terminal.say)
    handle = terminal.handle

    def locked(line: str) -> bool:
        with link.lock:
            done: bool = handle(line)
            if line.strip().lower() in ("undo", "redo"):
                link.follower.new_turn()
            return done

    terminal.handle = locked
    source.start(link.on_board if occupancy else link.on_snapshot, link.on_status)
    terminal.say(f"Following the board ({spec}); typed commands work too.")
    return source.stop  # type: ignore[no-any-return]
