"""How a game ends (R14): a python-chess style outcome with Raindropchess terminations."""

from __future__ import annotations

import dataclasses
import enum

import chess


class Termination(enum.Enum):
    """Why a game ended."""

    CHECKMATE = enum.auto()
    FAILED_RESCUE = enum.auto()
    STALEMATE = enum.auto()
    INSUFFICIENT_MATERIAL = enum.auto()
    SEVENTYFIVE_MOVES = enum.auto()
    FIVEFOLD_REPETITION = enum.auto()
    FIFTY_MOVES = enum.auto()
    THREEFOLD_REPETITION = enum.auto()
    AGREEMENT = enum.auto()
    RESIGNATION = enum.auto()
    TIME_FORFEIT = enum.auto()

    @property
    def description(self) -> str:
        return _DESCRIPTIONS[self]


_DESCRIPTIONS = {
    Termination.CHECKMATE: "checkmate",
    Termination.FAILED_RESCUE: "failed rescue: the card flipped in check could not block",
    Termination.STALEMATE: "stalemate",
    Termination.INSUFFICIENT_MATERIAL: "insufficient material",
    Termination.SEVENTYFIVE_MOVES: "seventy-five-move rule",
    Termination.FIVEFOLD_REPETITION: "fivefold repetition",
    Termination.FIFTY_MOVES: "fifty-move rule (claimed)",
    Termination.THREEFOLD_REPETITION: "threefold repetition (claimed)",
    Termination.AGREEMENT: "draw by agreement",
    Termination.RESIGNATION: "resignation",
    Termination.TIME_FORFEIT: "time forfeit",
}


@dataclasses.dataclass(frozen=True)
class Outcome:
    """The end of a game: a termination and a winner (``None`` for a draw)."""

    termination: Termination
    winner: chess.Color | None

    def result(self) -> str:
        """``1-0``, ``0-1`` or ``1/2-1/2``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == chess.WHITE else "0-1"

    def describe(self) -> str:
        """The outcome in words: ``"Black wins by checkmate"``."""
        if self.winner is None:
            return f"Draw: {self.termination.description}"
        return (f"{chess.COLOR_NAMES[self.winner].capitalize()} wins by "
                f"{self.termination.description}")
