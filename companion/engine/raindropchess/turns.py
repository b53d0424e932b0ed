"""Turn texts for Raindropchess and the root's legal actions, read from the rules engine.

A turn text is what ``raindrop best`` prints and the game reads:

- ``flip``: flip the top card (what comes is chance);
- ``N@e4``: the pending card placed (a bishop card, coloured or not, is ``B@``);
- ``e2e3``, ``e7e8q``: a chess move in UCI, a promotion naming the blue piece;
- ``Jxe5``: a pending remove-piece joker takes the piece on e5 (as the game
  writes it in its history).

The root's actions come from :class:`~companion.rules.RaindropBoard` itself, so
the engine only ever chooses among actions the rules engine allows.
"""

from __future__ import annotations

import logging

import chess

from companion.engine.raindropchess.position import DROP, FLIP, REMOVE, move_action
from companion.rules import RaindropBoard

LOGGER = logging.getLogger(__name__)

FLIP_TEXT = "flip"


def legal_actions(board: RaindropBoard) -> list[int]:
    """Every legal action of the side to move, as the rules engine sees them."""
    pending = board.pending
    if pending is not None and pending.upper() == "J":
        return [REMOVE | square for square in board.legal_removals()]
    if pending is not None:
        return [DROP | move.to_square for move in board.legal_moves]
    actions = [move_action(move.from_square, move.to_square, move.promotion or 0)
               for move in board.legal_moves]
    if board.can_flip():
        actions.append(FLIP)
    return actions


def action_move(board: RaindropBoard, action: int) -> chess.Move:
    """The python-chess move of a placement or a chess move."""
    if action & DROP:
        square = action & 63
        piece = board.pending_piece
        assert piece is not None
        return chess.Move(square, square, drop=piece)
    promotion = action >> 12
    return chess.Move(action & 63, action >> 6 & 63, promotion or None)


def turn_text(board: RaindropBoard, action: int) -> str:
    """The turn text of an action at ``board``."""
    if action == FLIP:
        return FLIP_TEXT
    if action & REMOVE:
        return f"Jx{chess.square_name(action & 63)}"
    return action_move(board, action).uci()


def after(board: RaindropBoard, action: int) -> str | None:
    """The RFEN after an action (``None`` for a flip: chance decides it)."""
    if action == FLIP:
        return None
    board = board.copy(stack=False)
    if action & REMOVE:
        board.push_removal(action & 63)
    else:
        move = action_move(board, action)
        if not board.is_legal(move):
            raise AssertionError(f"the engine chose an illegal action {move.uci()} "
                                 f"at {board.rfen()}")
        board.push(move)
    return board.rfen()
