"""What the Raindropchess game screen shows, as frozen values (no Kivy): the view types
:class:`ui.table.Table` renders, and the pictures built from a board (pieces, captures,
material, the review's positions). The Kivy layer only displays these.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any, Literal

import chess

from companion.rules import ActionKind, FlipOutcome

LOGGER = logging.getLogger(__name__)

TargetKind = Literal["move", "drop", "remove", "none"]
AlertLevel = Literal["info", "warn", "danger", "good"]


@dataclasses.dataclass(frozen=True)
class PiecePicture:
    """One piece as drawn: where, what, whose, and whether it is blue (promoted)."""

    square: chess.Square
    piece_type: chess.PieceType
    color: chess.Color
    blue: bool


@dataclasses.dataclass(frozen=True)
class DeckEntry:
    """One kind of card left in a deck: its letter, piece (None: joker) and count."""

    letter: str
    piece_type: chess.PieceType | None
    count: int
    label: str  # e.g. "Knight"


@dataclasses.dataclass(frozen=True)
class CardPicture:
    """The card shown large: its letter, piece (None: joker), title and what it led to."""

    letter: str
    color: chess.Color
    piece_type: chess.PieceType | None
    title: str
    caption: str
    live: bool  # still to be dealt with (placed, or a joker's removal)


@dataclasses.dataclass(frozen=True)
class PlayerView:
    """One side of the table: deck, flip button, clock, draw offers."""

    color: chess.Color
    name: str
    to_move: bool
    deck: tuple[DeckEntry, ...]
    deck_size: int
    can_flip: bool
    flip_hint: str
    clock_text: str
    clock_running: bool
    draw_offer_to_answer: bool   # the opponent offered a draw: accept or decline
    draw_offered: bool           # this side's offer is open
    can_act: bool                # game running: draw offer and resignation allowed
    can_claim_draw: bool = False  # to move, and threefold repetition or fifty moves allow it
    captured: tuple[tuple[chess.PieceType, bool], ...] = ()  # opposing pieces taken (type, blue)
    material: int = 0            # material ahead of the opponent (pawns), 0 when not ahead


@dataclasses.dataclass(frozen=True)
class Promotion:
    """A pawn move waiting for its blue piece."""

    color: chess.Color
    from_square: chess.Square
    to_square: chess.Square
    choices: tuple[chess.PieceType, ...]


@dataclasses.dataclass(frozen=True)
class Ending:
    """How the game ended, for the game-over screen: what decided it and why."""

    headline: str                  # "White wins by checkmate"
    result: str                    # "1-0"
    decider: str                   # the deciding card or move in words
    card: CardPicture | None       # the deciding card (a failed rescue), else None
    move: str                      # the deciding move in SAN ("" for none)
    summary: str                   # the verdict's summary ("" without a verdict)
    reasons: tuple[tuple[bool, str], ...]  # the verdict's conditions: (holds, text)


@dataclasses.dataclass(frozen=True)
class ReviewFrame:
    """One position of the game, for stepping through it (review never changes the game)."""

    index: int                     # 0: the start; n: after the n-th entry of the move list
    label: str                     # "Start" or "3. N@f7+"
    pieces: tuple[PiecePicture, ...]
    last_move: tuple[chess.Square, ...]


@dataclasses.dataclass(frozen=True)
class TableView:
    """Everything the game screen shows, at one moment."""

    pieces: tuple[PiecePicture, ...]
    turn: chess.Color
    selected: chess.Square | None
    targets: tuple[chess.Square, ...]
    target_kind: TargetKind
    last_move: tuple[chess.Square, ...]
    check_square: chess.Square | None
    status: str
    alert: str
    alert_level: AlertLevel
    card: CardPicture | None
    white: PlayerView
    black: PlayerView
    moves_text: str
    san: tuple[str, ...]
    can_undo: bool
    can_redo: bool
    can_claim_draw: bool
    promotion: Promotion | None
    over: bool
    outcome_text: str
    result: str
    ending: Ending | None = None

    @property
    def message(self) -> str:
        """The players' message: the announcement (if any) over what to do now."""
        if self.alert and self.alert != self.status:
            return f"{self.alert}\n{self.status}"
        return self.status

    @property
    def message_level(self) -> AlertLevel:
        return self.alert_level if self.alert else "info"

    def player(self, color: chess.Color) -> PlayerView:
        return self.white if color == chess.WHITE else self.black


def _entry_counts(actions: list[Any]) -> list[int]:
    """For each entry of ``Game.san_history``, how many actions it covers from the start
    (a flip and its placement are one entry)."""
    counts = []
    for index, action in enumerate(actions):
        if action.kind == ActionKind.FLIP and action.outcome in (
                FlipOutcome.PLACE, FlipOutcome.REMOVE_PIECE) and index + 1 < len(actions):
            continue
        counts.append(index + 1)
    return counts


def pictures(board: Any) -> tuple[PiecePicture, ...]:
    return tuple(PiecePicture(square, piece.piece_type, piece.color, board.is_blue(square))
                 for square, piece in board.piece_map().items())


def _squares_of(action: Any) -> tuple[chess.Square, ...]:
    if action.kind == ActionKind.MOVE and action.move is not None:
        move = action.move
        return (move.to_square,) if move.drop else (move.from_square, move.to_square)
    if action.kind == ActionKind.REMOVAL and action.square is not None:
        return (action.square,)
    return ()


PIECE_VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5,
                chess.QUEEN: 9, chess.KING: 0}


def captured_pieces(board: Any) -> dict[chess.Color, list[tuple[chess.PieceType, bool]]]:
    """The pieces each side has taken (by capture or a joker's removal), in the order
    taken, as (piece type, was blue). Replays the board's history on a copy."""
    taken: dict[chess.Color, list[tuple[chess.PieceType, bool]]] = {chess.WHITE: [],
                                                                     chess.BLACK: []}
    work = board.copy()
    for action in reversed(list(work.actions)):
        work.pop()
        if action.kind == ActionKind.MOVE and action.move is not None and not action.move.drop:
            move = action.move
            square = move.to_square
            if work.is_en_passant(move):
                square = chess.square(chess.square_file(move.to_square),
                                      chess.square_rank(move.from_square))
            piece = work.piece_at(square)
            if piece is not None and piece.color != work.turn:
                taken[work.turn].append((piece.piece_type, work.is_blue(square)))
        elif action.kind == ActionKind.REMOVAL and action.square is not None:
            piece = work.piece_at(action.square)
            if piece is not None:
                taken[not piece.color].append((piece.piece_type, work.is_blue(action.square)))
    for pieces in taken.values():
        pieces.reverse()
    return taken


def material(board: Any, color: chess.Color) -> int:
    """The material of ``color``'s pieces on the board, in pawns."""
    return sum(PIECE_VALUES[p.piece_type] for p in board.piece_map().values()
               if p.color == color)


def review_frames(game: Any) -> tuple[ReviewFrame, ...]:
    """Every position of the game, the start first, one after each move-list entry.

    Works on a copy of the board: the game itself is never changed."""
    board = game.board.copy()
    actions = list(board.actions)
    counts = _entry_counts(actions)
    san = list(game.san_history())
    positions: dict[int, tuple[PiecePicture, ...]] = {}
    wanted = set(counts) | {0}
    for count in range(len(actions), -1, -1):
        if count in wanted:
            positions[count] = pictures(board)
        if count:
            board.pop()
    frames = [ReviewFrame(0, "Start", positions[0], ())]
    for index, count in enumerate(counts):
        text = san[index] if index < len(san) else ""
        number = f"{index // 2 + 1}{'.' if index % 2 == 0 else '...'}"
        frames.append(ReviewFrame(index + 1, f"{number} {text}", positions[count],
                                  _squares_of(actions[count - 1])))
    return tuple(frames)
