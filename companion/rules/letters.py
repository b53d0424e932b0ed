"""Card kinds and their RFEN letters.

A card kind is a small integer: the python-chess piece types for the six
pieces, plus the joker and the two coloured bishop cards of R13. Letters are
uppercase for White's cards and lowercase for Black's.
"""

from __future__ import annotations

import chess

PAWN_CARD = chess.PAWN
KNIGHT_CARD = chess.KNIGHT
BISHOP_CARD = chess.BISHOP
ROOK_CARD = chess.ROOK
QUEEN_CARD = chess.QUEEN
KING_CARD = chess.KING
JOKER = 7
LIGHT_BISHOP_CARD = 8
DARK_BISHOP_CARD = 9

CARD_KINDS = range(1, 10)
NUM_KINDS = 10  # index 0 unused, so a kind indexes a count tuple directly

CARD_LETTERS = {
    PAWN_CARD: "p",
    KNIGHT_CARD: "n",
    BISHOP_CARD: "b",
    ROOK_CARD: "r",
    QUEEN_CARD: "q",
    KING_CARD: "k",
    JOKER: "j",
    LIGHT_BISHOP_CARD: "l",
    DARK_BISHOP_CARD: "d",
}
LETTER_KINDS = {letter: kind for kind, letter in CARD_LETTERS.items()}

# The order cards are written in RFEN (matches the rules file's start position).
WRITE_ORDER = (
    KING_CARD, QUEEN_CARD, ROOK_CARD, BISHOP_CARD, LIGHT_BISHOP_CARD, DARK_BISHOP_CARD,
    KNIGHT_CARD, PAWN_CARD, JOKER,
)

CARD_NAMES = {
    PAWN_CARD: "pawn",
    KNIGHT_CARD: "knight",
    BISHOP_CARD: "bishop",
    ROOK_CARD: "rook",
    QUEEN_CARD: "queen",
    KING_CARD: "king",
    JOKER: "joker",
    LIGHT_BISHOP_CARD: "light-square bishop",
    DARK_BISHOP_CARD: "dark-square bishop",
}

BLUE_ORDER = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)

Counts = tuple[int, ...]
EMPTY_COUNTS: Counts = (0,) * NUM_KINDS


def card_piece(kind: int) -> chess.PieceType | None:
    """The piece a card places (``None`` for a joker)."""
    if kind == JOKER:
        return None
    if kind in (LIGHT_BISHOP_CARD, DARK_BISHOP_CARD):
        return chess.BISHOP
    return kind


def card_square_mask(kind: int) -> chess.Bitboard:
    """Squares a card's piece may ever use by its colour rule (R13)."""
    if kind == LIGHT_BISHOP_CARD:
        return chess.BB_LIGHT_SQUARES
    if kind == DARK_BISHOP_CARD:
        return chess.BB_DARK_SQUARES
    return chess.BB_ALL


def card_letter(kind: int, color: chess.Color) -> str:
    """The RFEN letter of a card: ``card_letter(KNIGHT_CARD, WHITE) == "N"``."""
    letter = CARD_LETTERS[kind]
    return letter.upper() if color == chess.WHITE else letter


def parse_card_letter(letter: str) -> tuple[int, chess.Color]:
    """The kind and colour of an RFEN card letter; ``ValueError`` if unknown."""
    kind = LETTER_KINDS.get(letter.lower()) if len(letter) == 1 else None
    if kind is None:
        raise ValueError(f"unknown card letter {letter!r}")
    return kind, chess.WHITE if letter.isupper() else chess.BLACK


def card_name(kind: int, color: chess.Color | None = None) -> str:
    """A card in words: ``"white knight"``, ``"black joker"``."""
    name = CARD_NAMES[kind]
    if color is None:
        return name
    return f"{chess.COLOR_NAMES[color]} {name}"


def counts_add(counts: Counts, kind: int, delta: int) -> Counts:
    """A copy of ``counts`` with ``delta`` added to one kind."""
    items = list(counts)
    items[kind] += delta
    return tuple(items)


def counts_from_letters(letters: str) -> Counts:
    """Counts of card kinds from case-insensitive letters (e.g. ``"KQRRBBNNPPPPPPPP"``)."""
    items = [0] * NUM_KINDS
    for letter in letters:
        kind, _ = parse_card_letter(letter)
        items[kind] += 1
    return tuple(items)


def counts_to_letters(counts: Counts, color: chess.Color) -> str:
    """RFEN letters of a count tuple, in the canonical order."""
    return "".join(card_letter(kind, color) * counts[kind] for kind in WRITE_ORDER)
