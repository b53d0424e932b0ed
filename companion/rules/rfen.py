"""RFEN, a Raindropchess position in one line: parsing its fields and writing them.

    <placement>[<cards>] <turn> <blue> <pending> <halfmove> <fullmove>

This module checks the syntax of each field; whether the position is possible
(piece counts, checks) is checked by :class:`~companion.rules.board.RaindropBoard`.
"""

from __future__ import annotations

import dataclasses

import chess

from companion.limits import MAX_DIGITS, LimitError, parse_count
from companion.rules.errors import RfenError
from companion.rules.letters import (
    BLUE_ORDER,
    EMPTY_COUNTS,
    JOKER,
    NUM_KINDS,
    Counts,
    card_letter,
    counts_to_letters,
    parse_card_letter,
)

STARTING_RFEN = "8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w QRBNqrbn - 0 1"

# The pending field: a card letter, "-" for none, or MUST_MOVE after a rescue
# flip failed under failed_rescue=return (a chess move must follow).
MUST_MOVE = "+"


@dataclasses.dataclass(frozen=True)
class RfenFields:
    """The fields of an RFEN, each parsed for syntax only."""

    placement: str
    decks: tuple[Counts, Counts]  # indexed by colour: WHITE (True) -> 1
    turn: chess.Color
    blue: tuple[Counts, Counts]
    pending: int  # a card kind, or 0
    must_move: bool
    halfmove_clock: int
    fullmove_number: int


def parse_rfen(rfen: str) -> RfenFields:
    """Split an RFEN into checked fields; :class:`RfenError` names the bad field."""
    if not isinstance(rfen, str):
        raise RfenError("string", f"expected a string, got {type(rfen).__name__}")
    parts = rfen.split()
    if not parts:
        raise RfenError("string", "empty")
    if len(parts) not in (4, 6):
        raise RfenError(
            "string",
            f"expected 6 space-separated fields (placement[cards] turn blue pending halfmove "
            f"fullmove), got {len(parts)}")
    board_part, turn_part, blue_part, pending_part = parts[:4]
    halfmove_part, fullmove_part = parts[4:] if len(parts) == 6 else ("0", "1")

    if not board_part.endswith("]") or board_part.count("[") != 1:
        raise RfenError("cards", "the placement must be followed by the cards in brackets, "
                                 "e.g. 8/8/8/8/8/8/8/8[KQ...kq...] (write [] for none)")
    placement, cards = board_part[:-1].split("[")
    if placement.count("/") != 7:
        raise RfenError("placement", f"expected 8 ranks separated by '/', got {placement!r}")
    try:
        chess.BaseBoard(placement)
    except ValueError as error:
        raise RfenError("placement", str(error)) from None

    white = [0] * NUM_KINDS
    black = [0] * NUM_KINDS
    for letter in cards:
        try:
            kind, color = parse_card_letter(letter)
        except ValueError:
            raise RfenError("cards", f"unknown card letter {letter!r}") from None
        (white if color == chess.WHITE else black)[kind] += 1

    if turn_part not in ("w", "b"):
        raise RfenError("turn", f"expected 'w' or 'b', got {turn_part!r}")
    turn = turn_part == "w"

    blue_white = [0] * NUM_KINDS
    blue_black = [0] * NUM_KINDS
    if blue_part != "-":
        for letter in blue_part:
            if letter.lower() not in "qrbn":
                raise RfenError("blue", f"expected blue pieces from QRBNqrbn or '-', "
                                        f"got {letter!r}")
            piece_type = chess.PIECE_SYMBOLS.index(letter.lower())
            (blue_white if letter.isupper() else blue_black)[piece_type] += 1

    pending = 0
    must_move = False
    if pending_part == MUST_MOVE:
        must_move = True
    elif pending_part != "-":
        try:
            pending, color = parse_card_letter(pending_part)
        except ValueError:
            raise RfenError("pending", f"expected a card letter, '-' or '{MUST_MOVE}', "
                                       f"got {pending_part!r}") from None
        if color != turn:
            raise RfenError("pending", f"{pending_part!r} is a {chess.COLOR_NAMES[color]} card "
                                       f"but it is {chess.COLOR_NAMES[turn]}'s turn")

    try:
        halfmove = parse_count(halfmove_part, "the halfmove clock")
    except LimitError:
        raise RfenError("halfmove", f"expected a number of at least 0 (at most {MAX_DIGITS} "
                                    f"digits 0-9), got {halfmove_part[:20]!r}") from None
    try:
        fullmove = parse_count(fullmove_part, "the move number", low=1)
    except LimitError:
        raise RfenError("fullmove", f"expected a number of at least 1 (at most {MAX_DIGITS} "
                                    f"digits 0-9), got {fullmove_part[:20]!r}") from None

    return RfenFields(
        placement=placement,
        decks=(tuple(black), tuple(white)),
        turn=turn,
        blue=(tuple(blue_black), tuple(blue_white)),
        pending=pending,
        must_move=must_move,
        halfmove_clock=halfmove,
        fullmove_number=fullmove,
    )


def blue_to_letters(blue: tuple[Counts, Counts]) -> str:
    """The blue field: White's uppercase then Black's lowercase, ``-`` when none."""
    text = ""
    for color in (chess.WHITE, chess.BLACK):
        for piece_type in BLUE_ORDER:
            symbol = chess.piece_symbol(piece_type)
            text += (symbol.upper() if color == chess.WHITE else symbol) * blue[color][piece_type]
    return text or "-"


def format_rfen(placement: str, decks: tuple[Counts, Counts], turn: chess.Color,
                blue: tuple[Counts, Counts], pending: int, must_move: bool,
                halfmove_clock: int, fullmove_number: int) -> str:
    """Write an RFEN from its fields."""
    cards = counts_to_letters(decks[chess.WHITE], chess.WHITE) + \
        counts_to_letters(decks[chess.BLACK], chess.BLACK)
    if must_move:
        pending_text = MUST_MOVE
    elif pending:
        pending_text = card_letter(pending, turn)
    else:
        pending_text = "-"
    return (f"{placement}[{cards}] {'w' if turn else 'b'} {blue_to_letters(blue)} "
            f"{pending_text} {halfmove_clock} {fullmove_number}")


__all__ = ["EMPTY_COUNTS", "JOKER", "MUST_MOVE", "STARTING_RFEN", "RfenFields", "format_rfen",
           "parse_rfen"]
