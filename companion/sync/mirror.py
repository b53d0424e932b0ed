"""A private copy of the game's board, kept up to date from the game's events.

``game.board`` copies the board with its whole history, which costs more the
longer the game gets. BoardSync needs a board (with history, for takebacks) after
every change, so it keeps one copy and replays each change on it from the game's
events (a flip, a placement or move, a removal, an undo). After every change the
copy's RFEN is checked against the one the game announced
(:class:`~companion.events.PositionChanged`); on any difference, or an event it
cannot replay (a redo), it copies the game's board again. So the copy is always
the game's position, and usually costs one RFEN instead of a history copy.
"""

from __future__ import annotations

import logging

from companion import events
from companion.events import GameEvent
from companion.rules import RaindropBoard
from companion.sync.position import GameView

LOGGER = logging.getLogger(__name__)

_REPLAYED = (events.CardFlipped, events.PiecePlaced, events.MovePlayed, events.PieceRemoved,
             events.Undone, events.Redone)


class BoardMirror:
    """The game's board, replayed from its events (see the module docstring)."""

    def __init__(self, game: GameView) -> None:
        self._game = game
        self._board: RaindropBoard | None = None
        self._changes: list[GameEvent] = []
        self._rfen: str | None = None
        self.copies = 0    # how often the game's board was copied (for tests)

    def on_event(self, event: GameEvent) -> None:
        """Note a change; it is replayed when :meth:`board` is next asked for."""
        if isinstance(event, _REPLAYED):
            self._changes.append(event)
        elif isinstance(event, events.PositionChanged):
            self._rfen = event.rfen

    def board(self) -> RaindropBoard:
        """The game's board now. The caller may read it; it changes on the next call
        after the game changed (copy it to keep it)."""
        board = self._board
        if board is not None and self._changes and not self._replay(board):
            board = None
        self._changes = []
        if board is None:
            board = self._game.board
            self.copies += 1
            self._board = board
        return board

    def _replay(self, board: RaindropBoard) -> bool:
        try:
            for event in self._changes:
                if isinstance(event, events.CardFlipped):
                    board.flip(event.card)
                elif isinstance(event, events.PiecePlaced | events.MovePlayed):
                    board.push(event.move)
                elif isinstance(event, events.PieceRemoved):
                    board.push_removal(event.square)
                elif isinstance(event, events.Undone):
                    board.pop()
                else:
                    return False
        except (ValueError, IndexError) as error:
            LOGGER.debug("board mirror could not replay: %s", error)
            return False
        if self._rfen is None or board.rfen() != self._rfen:
            LOGGER.debug("board mirror differs from the game; copying it again")
            return False
        return True
