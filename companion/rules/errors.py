"""Errors of the rules engine. All are ``ValueError`` subclasses."""

from __future__ import annotations

import chess


class RfenError(ValueError):
    """A malformed or impossible RFEN; ``field`` names the part that is wrong."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"invalid RFEN {field}: {message}")
        self.field = field


class IllegalActionError(chess.IllegalMoveError):
    """An action the rules do not allow now; the message says why."""


class IllegalFlipError(IllegalActionError):
    """A card may not be flipped now (or is not in the deck)."""


class IllegalRemovalError(IllegalActionError):
    """A joker removal the rules do not allow."""
