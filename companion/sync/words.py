"""Player-facing words for squares, pieces and the fixes a board needs."""

from __future__ import annotations

import chess

from companion.sync.position import Colours
from companion.sync.result import Fix

COLOUR_WORDS = ("white", "black", "blue")


def piece_words(board: chess.Board, square: chess.Square) -> str:
    """``"white knight"``, ``"black pawn"``, ``"White's blue queen"``."""
    piece = board.piece_at(square)
    if piece is None:
        return "piece"
    name = chess.piece_name(piece.piece_type)
    side = chess.COLOR_NAMES[piece.color]
    if board.promoted & chess.BB_SQUARES[square]:
        return f"{side.capitalize()}'s blue {name}"
    return f"{side} {name}"


def colour_at(colours: Colours, square: chess.Square) -> str | None:
    bit = chess.BB_SQUARES[square]
    for words, mask in zip(COLOUR_WORDS, colours, strict=True):
        if mask & bit:
            return words
    return None


def describe_action(board: chess.Board, move: chess.Move) -> str:
    """The action in SAN if it is legal, else in words (``"knight g1-g3"``)."""
    if board.is_legal(move):
        return board.san(move)
    if move.drop:
        return f"{chess.piece_name(move.drop)} on {chess.square_name(move.to_square)}"
    piece = board.piece_at(move.from_square)
    name = chess.piece_name(piece.piece_type) if piece else "piece"
    sep = "x" if board.piece_at(move.to_square) else "-"
    return f"{name} {chess.square_name(move.from_square)}{sep}{chess.square_name(move.to_square)}"


def fixes_towards(board: chess.Board, target_colours: Colours, mask: int,
                  colours: Colours | None, *, back: bool = True) -> tuple[Fix, ...]:
    """What to do, square by square, so the board shows ``board``'s position.

    ``mask``/``colours``: what the sensor saw (``colours`` ``None`` for an
    occupancy-only sensor). ``back``: missing pieces go *back* (the players moved
    them), else they are new to their squares (the game moved on).
    """
    target = board.occupied
    missing = target & ~mask
    extra = mask & ~target
    fixes: list[Fix] = []
    for square in chess.scan_forward(missing):
        fixes.append(Fix(square, f"put the {piece_words(board, square)} "
                                 f"{'back on' if back else 'on'} {chess.square_name(square)}"))
    moved_off = bool(missing) and chess.popcount(extra) == 1
    for square in chess.scan_forward(extra):
        name = chess.square_name(square)
        seen = colour_at(colours, square) if colours is not None else None
        if moved_off:
            fixes.append(Fix(square, f"{name} should be empty"))
        elif seen is not None:
            fixes.append(Fix(square, f"remove the extra {seen} piece from {name}"))
        else:
            fixes.append(Fix(square, f"remove the extra piece from {name}"))
    if colours is not None:
        for square in chess.scan_forward(target & mask):
            want = colour_at(target_colours, square)
            seen = colour_at(colours, square)
            if want != seen:
                name = chess.square_name(square)
                fixes.append(Fix(square, f"{name} should hold the "
                                         f"{piece_words(board, square)}, not a {seen} piece"))
    return tuple(fixes)


def sentence(parts: list[str] | tuple[str, ...]) -> str:
    """Join instructions into one sentence, capitalised, with a full stop."""
    text = "; ".join(p for p in parts if p)
    if not text:
        return ""
    return text[0].upper() + text[1:] + "."
