"""Events a game sends out, as frozen dataclasses.

Listeners (the terminal, the app, a board's LEDs, the journal) receive these
and never change the game directly: they call the game's methods.
"""

from __future__ import annotations

import dataclasses

import chess

from companion.rules import FlipOutcome, Outcome


@dataclasses.dataclass(frozen=True)
class CardFlipped:
    """A card was flipped and shown to both players; ``outcome`` says what it led to."""

    color: chess.Color
    card: str                      # RFEN letter, e.g. "N" or "p" or "J"
    outcome: FlipOutcome
    targets: chess.SquareSet       # legal squares to place it (or pieces a joker may remove)
    cards_left: int                # cards left in that deck after the flip


@dataclasses.dataclass(frozen=True)
class PiecePlaced:
    color: chess.Color
    move: chess.Move               # a drop, e.g. N@e4
    san: str


@dataclasses.dataclass(frozen=True)
class MovePlayed:
    color: chess.Color
    move: chess.Move
    san: str
    captured: chess.PieceType | None


@dataclasses.dataclass(frozen=True)
class Promoted:
    color: chess.Color
    square: chess.Square
    piece_type: chess.PieceType    # the blue piece now on ``square``


@dataclasses.dataclass(frozen=True)
class PieceRemoved:
    """A joker removed an opposing piece (R12, remove_piece)."""

    color: chess.Color             # the side that removed it
    square: chess.Square
    piece: chess.Piece


@dataclasses.dataclass(frozen=True)
class Check:
    color: chess.Color             # the side in check
    checkers: chess.SquareSet


@dataclasses.dataclass(frozen=True)
class RescueFailed:
    """A card flipped in check could not block (R7)."""

    color: chess.Color
    card: str
    lost: bool                     # failed_rescue=lose: the game is lost


@dataclasses.dataclass(frozen=True)
class DrawOffered:
    color: chess.Color


@dataclasses.dataclass(frozen=True)
class DrawDeclined:
    color: chess.Color


@dataclasses.dataclass(frozen=True)
class GameOver:
    outcome: Outcome


@dataclasses.dataclass(frozen=True)
class Undone:
    description: str               # what was undone, e.g. "N@e4" or "flip N"


@dataclasses.dataclass(frozen=True)
class Redone:
    description: str


@dataclasses.dataclass(frozen=True)
class ClockTick:
    white_seconds: float
    black_seconds: float
    running: chess.Color | None    # whose clock runs (None: paused or stopped)


@dataclasses.dataclass(frozen=True)
class Flagged:
    color: chess.Color             # whose time ran out


@dataclasses.dataclass(frozen=True)
class PositionChanged:
    """Sent after every committed change (including undo and redo): redraw."""

    rfen: str
    turn: chess.Color
    pending: str | None


GameEvent = (CardFlipped | PiecePlaced | MovePlayed | Promoted | PieceRemoved | Check
             | RescueFailed | DrawOffered | DrawDeclined | GameOver | Undone | Redone
             | ClockTick | Flagged | PositionChanged)
