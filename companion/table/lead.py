"""A sensing board follows the companion's turns: the players make them on it.

:class:`BoardLead` listens to a :class:`~companion.table.runner.CompanionRunner` and
drives the board session (a Raindropchess
:class:`~companion.sync.session.PhysicalBoardSession` or a stone game's
:class:`~companion.sync.stone_session.StoneBoardSession`, shared by the terminal and the
app): while the companion thinks the board is *held* (nothing set up on it is played);
once it has played a turn that changes the board, the board is *led* (its words first,
the turn's squares lit where the board has lights) until it shows the game, with the
existing mismatch words guiding a wrong setup; a search stopped or an undo *releases*
it. A flip changes nothing on the board: its words lead the placement that follows.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any, Protocol

from companion.table.events import (
    CompanionChose,
    CompanionEvent,
    CompanionFailed,
    CompanionStopped,
    CompanionThinking,
    TakenBack,
)

LOGGER = logging.getLogger(__name__)


class LedBoard(Protocol):
    """What :class:`BoardLead` needs of a board session."""

    def hold(self, note: str) -> Any: ...

    def lead(self, note: str, squares: Iterable[str]) -> Any: ...

    def release(self) -> Any: ...


class BoardLead:
    """Turns the runner's events into a board session's hold, lead and release."""

    def __init__(self, board: LedBoard) -> None:
        self.board = board
        self._said: list[str] = []
        self.leading = False
        """Whether the board is being led to a turn of the companion's now."""

    def __call__(self, event: CompanionEvent) -> None:
        if isinstance(event, CompanionThinking):
            if event.progress is None:
                self.board.hold(" ".join([*self._said, event.words]))
        elif isinstance(event, CompanionChose):
            self._said.append(event.words)
            if event.squares:
                note = " ".join(self._said)
                self._said.clear()
                self.leading = True
                self.board.lead(note, event.squares)
        elif isinstance(event, CompanionStopped | TakenBack | CompanionFailed):
            self._said.clear()
            self.leading = False
            self.board.release()

    def done(self) -> None:
        """The board showed the companion's turn (the front end saw the lead end)."""
        self.leading = False
