"""``raindrop play --game GAME --board camera``: the terminal game follows a physical board.

The board and what is done with each settled board are the app's too
(:class:`~companion.sync.stone_session.StoneBoardSession`); this module only opens it
for the terminal and puts what it decides into words: a legal turn seen is played,
several that fit are named for the players to type the one they meant, and a board
that fits no turn is explained. Typed commands keep working beside it (undo, claims, a
komi, resign...): they hold the session's lock, so a board is never decided halfway
through one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from companion.cli import CommandError
from companion.sensors.source import BoardSourceError, SourceStatus
from companion.sync.stone_session import (
    OCCUPANCY_BOARDS,
    BoardLeads,
    BoardTrouble,
    Report,
    StoneBoardSession,
    open_stone_source,
)
from companion.sync.stone_sim import SimulatedStoneBoard
from companion.sync.stones import (
    BoardMismatch,
    GridLayout,
    StoneSyncError,
    TurnSeen,
    TurnsFit,
    TurnUnfinished,
)

LOGGER = logging.getLogger(__name__)


def open_stone_board(spec: str, terminal: Any) -> Any:
    """The board ``spec`` names (``camera[:SOURCE]``, ``camera-cells[:SOURCE]``,
    ``serial[:PORT]``) for the terminal's game; :class:`CommandError` says why not."""
    try:
        return open_stone_source(spec, terminal.session.position)
    except BoardSourceError as error:
        text = str(error)
        raise CommandError(f"--board {text}" if text.startswith(f"{spec}:") else text) from None


class StoneBoardWords:
    """What the terminal says of each board its :class:`StoneBoardSession` decides."""

    def __init__(self, terminal: Any) -> None:
        self.terminal = terminal
        self.last_message = ""

    def report(self, report: Report) -> None:
        terminal = self.terminal
        if isinstance(report, TurnSeen):  # played already: the game said so
            terminal.builder = None
            self.last_message = ""
            terminal.draw()
            return
        if isinstance(report, BoardTrouble):
            terminal.say(f"Board: {report.message}")
            return
        if isinstance(report, BoardLeads):
            if report.done:
                terminal.companion.board_caught_up()
                terminal.changed = True
            message = f"Board: {report.message}"
            if message != self.last_message:
                self.last_message = message
                terminal.say(message)
            return
        if isinstance(report, TurnsFit):
            message = report.message + " (type the turn)."
        elif isinstance(report, TurnUnfinished):
            message = f"Turn so far: {''.join(report.steps)}. {report.message}."
        elif isinstance(report, BoardMismatch):
            message = report.message
        else:
            return
        if message != self.last_message:
            self.last_message = message
            terminal.say(message)

    def status(self, status: SourceStatus) -> None:
        if not status.connected or "found" in status.message or "lost" in status.message:
            self.terminal.say(f"Board: {status.message}")


def stone_board(terminal: Any, source: Any, spec: str) -> StoneBoardSession:
    """The session following ``source`` for the terminal's game, speaking to it."""
    words = StoneBoardWords(terminal)
    return StoneBoardSession(terminal.session, source, words.report, on_status=words.status,
                             occupancy=spec.partition(":")[0] in OCCUPANCY_BOARDS)


def follow(terminal: Any, spec: str) -> Callable[[], None]:
    """Start following the board; returns the function that stops it."""
    board = stone_board(terminal, open_stone_board(spec, terminal), spec)
    handle = terminal.handle

    def locked(line: str) -> bool:
        with board.lock:
            done: bool = handle(line)
            return done

    terminal.handle = locked
    terminal.board = board
    terminal.call_lock = board.lock
    board.start()
    terminal.companion.follow_board(board, None)
    terminal.say(f"Following the board ({spec}); typed commands work too.")
    return board.stop


def simulate(terminal: Any) -> Callable[[], None]:
    """``--board sim``: a simulated board of stones the players act on by typing ``put d5
    b``, ``take d5``, ``move d5 c5``; typed turns, undos and claims are made on it by the
    simulated hand. A game whose board is not a grid of cells (Crumble) is typed only."""
    session = terminal.session
    try:
        GridLayout.of(session.position)
    except StoneSyncError:
        terminal.say(f"{session.rules.title} has no simulated board (its pieces are not on a "
                     f"grid of cells): turns are typed.")
        return lambda: None
    sim = SimulatedStoneBoard(session.position.cells())
    words = StoneBoardWords(terminal)
    board = StoneBoardSession(session, sim, words.report, on_status=words.status)
    terminal.sim = sim
    terminal.board = board
    terminal.call_lock = board.lock
    board.start()
    terminal.companion.follow_board(board, lambda: sim.set_cells(session.position.cells()))
    terminal.say("On the simulated board of stones: 'put d5 b', 'take d5', 'move d5 c5' act "
                 "on it ('show' draws it); typed turns are made on it by the simulated hand.")
    return board.stop
