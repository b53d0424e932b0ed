"""``raindrop play --game GAME --board camera``: the terminal game follows a physical board.

The board source (the camera reader, found through the ``raindrop.boards``
entry point, so the core never imports OpenCV) reports settled boards;
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

from companion.cli import CommandError
from companion.sensors.source import BoardSourceError, SourceStatus, available_sources
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
"""Board names for stone games: a Go board's points, or a chessboard's cells."""


class StoneBoardLink:
    """Feeds a board source's settled boards to the terminal's session."""

    def __init__(self, terminal: Any, say: Callable[[str], None]) -> None:
        self.terminal = terminal
        self.say = say
        self.lock = threading.RLock()
        self.follower = StoneFollower(terminal.rules)
        self.last_message = ""

    def on_snapshot(self, snapshot: StoneSnapshot) -> None:
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
                self.follower.new_turn()
                self.terminal.builder = None
                self.terminal.draw()
                return
            if isinstance(verdict, TurnsFit):
                message = verdict.message + " (type the turn)."
            elif isinstance(verdict, TurnUnfinished):
                message = f"Turn so far: {''.join(verdict.steps)}. {verdict.message}."
            elif isinstance(verdict, BoardMismatch):
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
                           "board) or camera-cells[:SOURCE] (stones on a chessboard's squares), "
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


def follow(terminal: Any, spec: str) -> Callable[[], None]:
    """Start following the board; returns the function that stops it."""
    source = open_stone_board(spec, terminal)
    link = StoneBoardLink(terminal, terminal.say)
    handle = terminal.handle

    def locked(line: str) -> bool:
        with link.lock:
            done: bool = handle(line)
            if line.strip().lower() in ("undo", "redo"):
                link.follower.new_turn()
            return done

    terminal.handle = locked
    source.start(link.on_snapshot, link.on_status)
    terminal.say(f"Following the board ({spec}); typed commands work too.")
    return source.stop  # type: ignore[no-any-return]
