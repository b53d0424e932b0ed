"""The Raindropchess variant as a python-chess board.

:class:`RaindropBoard` is a :class:`chess.Board` subclass that adds what a
Raindropchess position has beyond chess: the cards left in each deck (their
contents, never their order), the blue pieces still available for promotion,
and a flipped card awaiting placement. It holds no I/O and no randomness: the
session draws cards from the secret decks and tells the board with
:meth:`RaindropBoard.flip`.

Every action (flip, placement, move, joker removal) can be undone with
:meth:`RaindropBoard.pop`.
"""

from __future__ import annotations

import dataclasses
import enum
import logging
from collections.abc import Hashable, Iterator
from typing import Any, ClassVar

import chess
import chess.variant

from companion.rules.errors import (
    IllegalActionError,
    IllegalFlipError,
    IllegalRemovalError,
    RfenError,
)
from companion.rules.house import HouseRules
from companion.rules.letters import (
    BLUE_ORDER,
    DARK_BISHOP_CARD,
    EMPTY_COUNTS,
    JOKER,
    KING_CARD,
    LIGHT_BISHOP_CARD,
    NUM_KINDS,
    PAWN_CARD,
    Counts,
    card_letter,
    card_name,
    card_piece,
    card_square_mask,
    counts_add,
    counts_from_letters,
    parse_card_letter,
)
from companion.rules.outcome import Outcome, Termination
from companion.rules.rfen import STARTING_RFEN, format_rfen, parse_rfen

LOGGER = logging.getLogger(__name__)

Square = chess.Square

# Ranks a pawn may be placed on (R3): White 2-6, Black 3-7.
PAWN_PLACEMENT_MASKS = {
    chess.WHITE: chess.BB_RANK_2 | chess.BB_RANK_3 | chess.BB_RANK_4 | chess.BB_RANK_5
    | chess.BB_RANK_6,
    chess.BLACK: chess.BB_RANK_3 | chess.BB_RANK_4 | chess.BB_RANK_5 | chess.BB_RANK_6
    | chess.BB_RANK_7,
}
# Per card kind (index 0 unused): the squares its colour rule allows (R13) and
# the piece it places, looked up rather than computed in the hot paths.
_CARD_SQUARE_MASKS = tuple(card_square_mask(kind) for kind in range(NUM_KINDS))
_CARD_PIECES = tuple(card_piece(kind) or 0 for kind in range(NUM_KINDS))
_MAX_PER_SIDE = {chess.KING: 1, chess.QUEEN: 1, chess.ROOK: 2, chess.BISHOP: 2,
                 chess.KNIGHT: 2, chess.PAWN: 8}


class FlipOutcome(enum.Enum):
    """What a flip led to (R7, R8, R12)."""

    PLACE = "place"                    # the card is pending: place it
    UNPLACEABLE = "unplaceable"        # R8: no legal square, to the bottom, turn over
    FAILED_RESCUE = "failed_rescue"    # R7 lose: flipped in check, cannot block: lost
    RETURNED = "returned"              # R7 return: to the bottom, a move must lift the check
    EXTRA_TURN = "extra_turn"          # R12: a joker, the player takes another turn
    REMOVE_PIECE = "remove_piece"      # R12: a joker, the player removes an opposing piece
    NO_EFFECT = "no_effect"            # R12: a remove-piece joker with nothing to remove

    @property
    def to_bottom(self) -> bool:
        """Whether the card went back under the deck (it is still in the deck)."""
        return self in (FlipOutcome.UNPLACEABLE, FlipOutcome.RETURNED)


# Flips that end the turn with nothing placed (recorded as a null move).
_PASSING_OUTCOMES = frozenset({FlipOutcome.UNPLACEABLE, FlipOutcome.NO_EFFECT})


@dataclasses.dataclass(frozen=True)
class FlipResult:
    """A flip as the board applied it."""

    card: str
    outcome: FlipOutcome
    targets: chess.SquareSet  # where the card may go (placement or removal)


class ActionKind(enum.Enum):
    FLIP = "flip"
    MOVE = "move"          # a chess move or a placement (a drop), on python-chess's move stack
    REMOVAL = "removal"    # a joker's removal of an opposing piece


@dataclasses.dataclass(frozen=True)
class Action:
    """One entry of the board's history: what was done, as it can be replayed."""

    kind: ActionKind
    card: str | None = None          # FLIP: the card letter
    move: chess.Move | None = None   # MOVE: the move or drop
    square: Square | None = None     # REMOVAL: the square emptied
    outcome: FlipOutcome | None = None  # FLIP: what it led to


class _Entry:
    """The state before one action, so :meth:`RaindropBoard.pop` can restore it."""

    __slots__ = ("action", "base", "blue", "decks", "must_move", "pending")

    def __init__(self, board: RaindropBoard, action: Action) -> None:
        self.action = action
        self.base = chess._BoardState(board)
        self.decks = board._decks
        self.blue = board._blue
        self.pending = board._pending
        self.must_move = board._must_move

    def restore(self, board: RaindropBoard, *, base: bool = True) -> None:
        if base:
            self.base.restore(board)
        board._decks = self.decks
        board._blue = self.blue
        board._pending = self.pending
        board._must_move = self.must_move


class RaindropBoard(chess.Board):
    """A Raindropchess position and its history (see the module docstring).

    ``legal_moves`` holds exactly the legal drops of a pending card, or else
    the legal chess moves of the side to move (none while its king is off the
    board). Flipping is not a move: see :meth:`can_flip` and :meth:`flip`.
    """

    aliases: ClassVar[list[str]] = ["Raindropchess", "raindropchess", "Raindrop chess",
                                    "Raindropchesse"]
    uci_variant: ClassVar[str | None] = "raindropchess"
    xboard_variant: ClassVar[str | None] = "raindropchess"
    starting_fen: ClassVar[str] = STARTING_RFEN

    tbw_suffix = None
    tbz_suffix = None
    tbw_magic = None
    tbz_magic = None

    def __init__(self, rfen: str | None = STARTING_RFEN, *, rules: HouseRules | None = None,
                 chess960: bool = False) -> None:
        if chess960:
            raise ValueError("Raindropchess has no Chess960 form")
        self.rules = rules if rules is not None else _rules_shown_by(rfen)
        self._decks: tuple[Counts, Counts] = (EMPTY_COUNTS, EMPTY_COUNTS)
        self._blue: tuple[Counts, Counts] = (EMPTY_COUNTS, EMPTY_COUNTS)
        self._pending = 0
        self._must_move = False
        self._entries: list[_Entry] = []
        self._keys: list[Hashable] = []
        super().__init__(None)
        if rfen is not None:
            if rfen == STARTING_RFEN:
                rfen = self.rules.start_rfen()
            self.set_rfen(rfen)

    # ------------------------------------------------------------------
    # Position state

    @property
    def pending(self) -> str | None:
        """The letter of the flipped card awaiting placement (or a joker's removal)."""
        return card_letter(self._pending, self.turn) if self._pending else None

    @property
    def pending_piece(self) -> chess.PieceType | None:
        """The piece type of a pending card (``None`` for none or a joker)."""
        return card_piece(self._pending) if self._pending else None

    @property
    def must_move(self) -> bool:
        """After a failed rescue flip under ``failed_rescue=return``: a move must follow."""
        return self._must_move

    def deck(self, color: chess.Color) -> dict[str, int]:
        """The cards left in a side's deck, by letter (the contents are public, R1)."""
        counts = self._decks[color]
        return {card_letter(kind, color): counts[kind] for kind in range(1, len(counts))
                if counts[kind]}

    def deck_size(self, color: chess.Color) -> int:
        return sum(self._decks[color])

    def deck_count(self, card: str) -> int:
        """How many copies of a card (by RFEN letter) are left in its deck."""
        kind, color = parse_card_letter(card)
        return self._decks[color][kind]

    def blue_available(self, color: chess.Color) -> list[chess.PieceType]:
        """Blue piece types a side may still promote to, each listed once (R5)."""
        counts = self._blue[color]
        return [pt for pt in BLUE_ORDER if counts[pt]]

    def blue_count(self, color: chess.Color, piece_type: chess.PieceType) -> int:
        return self._blue[color][piece_type]

    def is_blue(self, square: Square) -> bool:
        """Whether the piece on ``square`` is a blue (promoted) piece."""
        return bool(self.promoted & chess.BB_SQUARES[square])

    @property
    def actions(self) -> list[Action]:
        """Every action since the root position, oldest first."""
        return [entry.action for entry in self._entries]

    # ------------------------------------------------------------------
    # RFEN

    def rfen(self) -> str:
        """The position in RFEN."""
        return format_rfen(self.board_fen(promoted=True), self._decks, self.turn, self._blue,
                           self._pending, self._must_move, self.halfmove_clock,
                           self.fullmove_number)

    def fen(self, *, shredder: bool = False, en_passant: chess.EnPassantSpec = "legal",
            promoted: bool | None = None) -> str:
        """The RFEN (so python-chess and ``chess.pgn`` write RFEN in FEN headers)."""
        return self.rfen()

    def epd(self, *, shredder: bool = False, en_passant: chess.EnPassantSpec = "legal",
            promoted: bool | None = None, **operations: Any) -> str:
        return " ".join(self.rfen().split()[:4])

    def board_fen(self, *, promoted: bool | None = True) -> str:
        return super().board_fen(promoted=True if promoted is None else promoted)

    def set_fen(self, fen: str) -> None:
        self.set_rfen(fen)

    def set_rfen(self, rfen: str) -> None:
        """Set the position from an RFEN; :class:`RfenError` names the bad field.

        On error the board is left unchanged.
        """
        fields = parse_rfen(rfen)
        candidate = chess.Board(None)
        candidate.set_board_fen(fields.placement)
        _validate(candidate, fields.decks, fields.blue, fields.turn, fields.pending,
                  fields.must_move, self.rules)
        if fields.pending:
            probe = RaindropBoard(None, rules=self.rules)
            probe._set_board_fen(fields.placement)
            probe.turn = fields.turn
            probe._decks = fields.decks
            probe._blue = fields.blue
            probe._pending = fields.pending
            probe._check_pending()
        _check_jokers(fields.decks, fields.turn, fields.pending, self.rules)
        self._set_board_fen(fields.placement)
        self.turn = fields.turn
        self.castling_rights = chess.BB_EMPTY
        self.ep_square = None
        self.halfmove_clock = fields.halfmove_clock
        self.fullmove_number = fields.fullmove_number
        self._decks = fields.decks
        self._blue = fields.blue
        self._pending = fields.pending
        self._must_move = fields.must_move
        self.clear_stack()

    def _check_pending(self) -> None:
        """Reject a pending card no flip could have left pending (R7, R8, R12)."""
        letter = card_letter(self._pending, self.turn)
        if self._pending == JOKER:
            if self.rules.joker_effect != "remove_piece":
                raise RfenError("pending", f"a pending joker {letter!r} needs "
                                           f"joker_effect=remove_piece (an extra-turn joker "
                                           f"is never pending, R12)")
            if not self._has_king():
                raise RfenError("pending", f"a pending joker {letter!r} needs its side's king "
                                           f"on the board (otherwise it has no effect, R12)")
            targets = self._removal_mask()
        else:
            targets = self._drop_mask(self._pending)
        if targets:
            return
        if not self.is_check():
            what = "piece to remove" if self._pending == JOKER else "legal square"
            raise RfenError("pending", f"the pending {card_name(self._pending)} ({letter!r}) "
                                       f"has no {what}: the flip would have ended the turn "
                                       f"(R8, R12)")
        if self.rules.failed_rescue == "return":
            raise RfenError("pending", f"the pending {card_name(self._pending)} ({letter!r}) "
                                       f"cannot lift the check: under failed_rescue=return it "
                                       f"goes back to the deck; write '+' instead (R7)")

    def clear_stack(self) -> None:
        super().clear_stack()
        self._entries = []
        self._keys = [self._position_key()]

    def clear(self) -> None:
        self._decks = (EMPTY_COUNTS, EMPTY_COUNTS)
        self._blue = (EMPTY_COUNTS, EMPTY_COUNTS)
        self._pending = 0
        self._must_move = False
        super().clear()

    def reset(self) -> None:
        """The starting position under this board's rules."""
        self.set_rfen(self.rules.start_rfen())

    def reset_board(self) -> None:
        self.reset()

    def is_valid(self) -> bool:
        try:
            _validate(self, self._decks, self._blue, self.turn, self._pending, self._must_move,
                      self.rules)
        except RfenError:
            return False
        return True

    # ------------------------------------------------------------------
    # Move generation

    def _has_king(self) -> bool:
        return bool(self.kings & self.occupied_co[self.turn])

    def generate_pseudo_legal_moves(self, from_mask: chess.Bitboard = chess.BB_ALL,
                                    to_mask: chess.Bitboard = chess.BB_ALL,
                                    ) -> Iterator[chess.Move]:
        """Pseudo-legal chess moves: no castling, no en passant, one-step pawns,
        promotion only to an available blue piece (R4, R5)."""
        turn = self.turn
        our_pieces = self.occupied_co[turn]
        if self._pending or not self.kings & our_pieces:
            return

        # Piece moves.
        non_pawns = our_pieces & ~self.pawns & from_mask
        for from_square in chess.scan_reversed(non_pawns):
            moves = self.attacks_mask(from_square) & ~our_pieces & to_mask
            for to_square in chess.scan_reversed(moves):
                yield chess.Move(from_square, to_square)

        yield from self._pawn_moves(self.pawns & our_pieces & from_mask, ~our_pieces & to_mask)

    def generate_legal_moves(self, from_mask: chess.Bitboard = chess.BB_ALL,
                             to_mask: chess.Bitboard = chess.BB_ALL) -> Iterator[chess.Move]:
        """The legal drops of a pending card, or else the legal chess moves.

        Outside check, moves are generated legal directly (a pinned piece keeps
        to its pin line, the king avoids attacked squares) rather than filtered
        one by one; in check, python-chess's evasions are filtered.
        """
        pending = self._pending
        if pending:
            if pending != JOKER:
                piece_type = _CARD_PIECES[pending]
                mask = self._drop_mask(pending) & from_mask & to_mask
                while mask:  # scan_forward, inlined: drops are the bulk of the work here
                    lowest = mask & -mask
                    square = lowest.bit_length() - 1
                    yield chess.Move(square, square, None, piece_type)
                    mask ^= lowest
            return
        turn = self.turn
        our_pieces = self.occupied_co[turn]
        king_mask = self.kings & our_pieces
        if not king_mask:
            return
        king = chess.msb(king_mask)
        blockers = self._slider_blockers(king)
        checkers = self.attackers_mask(not turn, king)
        if checkers:
            for move in self._generate_evasions(king, checkers, from_mask, to_mask):
                if self._is_safe(king, blockers, move):
                    yield move
            return

        Move = chess.Move
        targets_mask = ~our_pieces & to_mask
        # Pieces but pawns and the king: a pinned piece stays on its pin line.
        for from_square in chess.scan_reversed(our_pieces & ~self.pawns & ~king_mask
                                               & from_mask):
            targets = self.attacks_mask(from_square) & targets_mask
            if blockers & chess.BB_SQUARES[from_square]:
                targets &= chess.ray(king, from_square)
            while targets:  # scan_reversed, inlined
                to_square = targets.bit_length() - 1
                yield Move(from_square, to_square)
                targets ^= chess.BB_SQUARES[to_square]
        # The king, to squares no opposing piece attacks.
        if king_mask & from_mask:
            them = not turn
            for to_square in chess.scan_reversed(chess.BB_KING_ATTACKS[king] & targets_mask):
                if not self.attackers_mask(them, to_square):
                    yield Move(king, to_square)
        # Pawns: a pinned pawn stays on its pin line.
        yield from self._pawn_moves(self.pawns & our_pieces & from_mask, targets_mask,
                                    king, blockers)

    def _pawn_moves(self, pawns: chess.Bitboard, targets_mask: chess.Bitboard,
                    king: chess.Square = 0, blockers: chess.Bitboard = chess.BB_EMPTY,
                    ) -> Iterator[chess.Move]:
        """Pawn captures, then single steps (R4); promotions only to an available
        blue piece, and none onto the last rank when none is left (R5). A pawn
        in ``blockers`` (pinned to ``king``) keeps to its pin line."""
        if not pawns:
            return
        turn = self.turn
        Move = chess.Move
        blue = self._blue[turn]
        promotions = [pt for pt in BLUE_ORDER if blue[pt]]
        if not promotions:
            targets_mask &= ~chess.BB_BACKRANKS
        their_pieces = self.occupied_co[not turn] & targets_mask
        attacks = chess.BB_PAWN_ATTACKS[turn]
        for from_square in chess.scan_reversed(pawns):
            targets = attacks[from_square] & their_pieces
            if not targets:
                continue
            if blockers & chess.BB_SQUARES[from_square]:
                targets &= chess.ray(king, from_square)
            for to_square in chess.scan_reversed(targets):
                if chess.BB_SQUARES[to_square] & chess.BB_BACKRANKS:
                    for piece_type in promotions:
                        yield Move(from_square, to_square, piece_type)
                else:
                    yield Move(from_square, to_square)
        if turn == chess.WHITE:
            single_moves = pawns << 8 & ~self.occupied & targets_mask
            back = -8
        else:
            single_moves = pawns >> 8 & ~self.occupied & targets_mask
            back = 8
        for to_square in chess.scan_reversed(single_moves):
            from_square = to_square + back
            if blockers & chess.BB_SQUARES[from_square] and \
                    not chess.ray(king, from_square) & chess.BB_SQUARES[to_square]:
                continue
            if chess.BB_SQUARES[to_square] & chess.BB_BACKRANKS:
                for piece_type in promotions:
                    yield Move(from_square, to_square, piece_type)
            else:
                yield Move(from_square, to_square)

    def generate_legal_drops(self, to_mask: chess.Bitboard = chess.BB_ALL,
                             ) -> Iterator[chess.Move]:
        """The legal placements of the pending card (none if no card is pending)."""
        if self._pending and self._pending != JOKER:
            yield from self._generate_drops(to_mask)

    def _generate_drops(self, to_mask: chess.Bitboard) -> Iterator[chess.Move]:
        piece_type = card_piece(self._pending)
        assert piece_type is not None
        for square in chess.scan_forward(self._drop_mask(self._pending) & to_mask):
            yield chess.Move(square, square, drop=piece_type)

    def _drop_mask(self, kind: int, color: chess.Color | None = None) -> chess.Bitboard:
        """Squares where a card of ``kind`` may be placed now by the side to move (R3, R7)."""
        color = self.turn if color is None else color
        mask = ~self.occupied & _CARD_SQUARE_MASKS[kind]
        if kind == PAWN_CARD:
            mask &= PAWN_PLACEMENT_MASKS[color]
        elif kind == KING_CARD:
            for square in chess.scan_forward(mask):
                if self.attackers_mask(not color, square):
                    mask &= ~chess.BB_SQUARES[square]
            return mask
        king_mask = self.kings & self.occupied_co[color]
        if king_mask:
            king = chess.msb(king_mask)
            checkers = self.attackers_mask(not color, king)
            if checkers:
                # Only a block lifts a check by placement: a single slider, a gap between.
                if checkers & (checkers - 1):
                    return chess.BB_EMPTY
                mask &= chess.between(king, chess.msb(checkers))
        return mask

    def drop_squares(self, card: str) -> chess.SquareSet:
        """Where a card (RFEN letter) could be placed now if its side flipped it."""
        kind, color = parse_card_letter(card)
        if kind == JOKER:
            return chess.SquareSet()
        return chess.SquareSet(self._drop_mask(kind, color))

    def is_pseudo_legal(self, move: chess.Move) -> bool:
        if self._pending:
            return self._is_legal_drop(move)
        if not move or move.drop or not self._has_king():
            return False
        return super().is_pseudo_legal(move)

    def is_legal(self, move: chess.Move) -> bool:
        if self._pending:
            return self._is_legal_drop(move)
        if not move or move.drop or not self._has_king():
            return False
        return super().is_pseudo_legal(move) and not self.is_into_check(move)

    def _is_legal_drop(self, move: chess.Move) -> bool:
        return (
            self._pending != JOKER
            and move.drop == card_piece(self._pending)
            and move.from_square == move.to_square
            and move.promotion is None
            and bool(self._drop_mask(self._pending) & chess.BB_SQUARES[move.to_square]))

    def is_variant_end(self) -> bool:
        return self.is_failed_rescue()

    def is_variant_loss(self) -> bool:
        return self.is_failed_rescue()

    def is_variant_win(self) -> bool:
        return False

    def is_variant_draw(self) -> bool:
        return False

    # ------------------------------------------------------------------
    # Why an action is illegal (for players)

    def why_illegal(self, move: chess.Move) -> str | None:
        """A player-facing reason ``move`` is illegal now, or ``None`` if it is legal."""
        if self.is_legal(move):
            return None
        outcome = self.outcome()
        if outcome is not None:
            return f"the game is over ({outcome.describe()})"
        side = chess.COLOR_NAMES[self.turn]
        if move.drop:
            return self._why_drop_illegal(move, side)
        if self._pending == JOKER:
            return "a joker was flipped: choose the opposing piece to remove first"
        if self._pending:
            return (f"the flipped {card_name(self._pending)} must be placed first "
                    f"(e.g. {self.san(next(self.generate_legal_moves()))})")
        if not self._has_king():
            return f"{side} has no king on the board yet, so must flip a card (R2)"
        if not move:
            return "passing is not allowed"
        piece = self.piece_at(move.from_square)
        from_name = chess.square_name(move.from_square)
        to_name = chess.square_name(move.to_square)
        if piece is None:
            return f"there is no piece on {from_name}"
        if piece.color != self.turn:
            return f"the piece on {from_name} is not {side}'s"
        if piece.piece_type == chess.PAWN:
            step = 8 if self.turn == chess.WHITE else -8
            if move.to_square - move.from_square == 2 * step:
                return "pawns move one square at a time in Raindropchess (R4)"
            if chess.BB_SQUARES[move.to_square] & chess.BB_BACKRANKS:
                available = self.blue_available(self.turn)
                if not available:
                    return (f"{side} has no blue piece left, so the pawn may not reach "
                            f"the last rank (R5)")
                if move.promotion is None:
                    return "a pawn reaching the last rank must promote to a blue piece (R5)"
                if move.promotion not in available:
                    return (f"the blue {chess.piece_name(move.promotion)} is not available "
                            f"(left: {', '.join(chess.piece_name(p) for p in available)}) (R5)")
        if (piece.piece_type == chess.KING
                and chess.square_rank(move.from_square) == chess.square_rank(move.to_square)
                and abs(chess.square_file(move.from_square)
                        - chess.square_file(move.to_square)) == 2):
            return "there is no castling in Raindropchess (R4)"
        if not super().is_pseudo_legal(move):
            return f"the {chess.piece_name(piece.piece_type)} on {from_name} cannot go to {to_name}"
        if self.is_check():
            return f"{side} is in check and this move does not lift it"
        return f"the move would leave {side}'s king in check"

    def _why_drop_illegal(self, move: chess.Move, side: str) -> str:
        assert move.drop is not None
        if not self._pending:
            # A drop stands for a flip of that card and its placement (PGN): say why
            # that placement would be illegal, else that a card must be flipped first.
            reason = self.why_cannot_flip()
            if reason is not None:
                return reason
            kind = self._card_for_drop(move)
            if not self._decks[self.turn][kind]:
                return f"{side} has no {card_name(kind)} card left in the deck"
            self._pending = kind
            try:
                if not self._is_legal_drop(move):
                    return self._why_drop_illegal(move, side)
            finally:
                self._pending = 0
            return "no card is flipped: flip a card first"
        if self._pending == JOKER:
            return "a joker was flipped: it is not placed, choose a piece to remove"
        pending_piece = card_piece(self._pending)
        if move.drop != pending_piece:
            return (f"the flipped card is a {card_name(self._pending)}, "
                    f"not a {chess.piece_name(move.drop)}")
        square = move.to_square
        name = chess.square_name(square)
        if self.occupied & chess.BB_SQUARES[square]:
            return f"{name} is not empty"
        if not card_square_mask(self._pending) & chess.BB_SQUARES[square]:
            shade = "light" if self._pending == LIGHT_BISHOP_CARD else "dark"
            return f"this bishop card may only go on a {shade} square (R13)"
        if self._pending == PAWN_CARD and not PAWN_PLACEMENT_MASKS[self.turn] & \
                chess.BB_SQUARES[square]:
            ranks = "2 to 6" if self.turn == chess.WHITE else "3 to 7"
            return f"{side} pawns may only be placed on ranks {ranks} (R3)"
        if self._pending == KING_CARD:
            attackers = self.attackers(not self.turn, square)
            where = ", ".join(chess.square_name(sq) for sq in attackers)
            return f"the king may not be placed on an attacked square ({name} is attacked " \
                   f"from {where}) (R3)"
        return f"{side} is in check: the piece must be placed between the king and the " \
               f"checking piece (R7)"

    # ------------------------------------------------------------------
    # Flips, placements, moves, removals

    def can_flip(self) -> bool:
        """Whether the side to move may flip a card now (R2, R7)."""
        return (not self._pending and not self._must_move and sum(self._decks[self.turn]) > 0
                and self.outcome() is None)

    def why_cannot_flip(self) -> str | None:
        """A player-facing reason a flip is not allowed now, or ``None``."""
        if self._pending:
            return f"the flipped {card_name(self._pending)} must be dealt with first"
        if self._must_move:
            return "the rescue flip failed: a chess move must lift the check (R7)"
        if not sum(self._decks[self.turn]):
            return f"{chess.COLOR_NAMES[self.turn]}'s deck is empty: chess moves only (R2)"
        outcome = self.outcome()
        if outcome is not None:
            return f"the game is over ({outcome.describe()})"
        return None

    def flip(self, card: str) -> FlipResult:
        """Apply a flipped card of the side to move, by its RFEN letter (R7, R8, R12).

        Raises :class:`IllegalFlipError` (and changes nothing) if a flip is not
        allowed now or the card is not in the deck.
        """
        try:
            kind, color = parse_card_letter(card)
        except ValueError as error:
            raise IllegalFlipError(str(error)) from None
        if color != self.turn:
            raise IllegalFlipError(f"{card!r} is a {chess.COLOR_NAMES[color]} card, but it is "
                                   f"{chess.COLOR_NAMES[self.turn]}'s turn")
        reason = self.why_cannot_flip()
        if reason is not None:
            raise IllegalFlipError(reason)
        if not self._decks[color][kind]:
            raise IllegalFlipError(f"no {card_name(kind, color)} card is left in the deck")

        entry = _Entry(self, Action(ActionKind.FLIP, card=card))
        self._decks = _with_deck(self._decks, color, kind, -1)
        outcome = self._apply_joker() if kind == JOKER else self._apply_card(kind)
        entry.action = dataclasses.replace(entry.action, outcome=outcome)
        self._entries.append(entry)
        self._keys.append(self._position_key())
        targets = chess.SquareSet(self._removal_mask() if self._pending == JOKER
                                  else self._drop_mask(self._pending) if self._pending else 0)
        LOGGER.debug("flip %s -> %s", card, outcome.value)
        return FlipResult(card=card, outcome=outcome, targets=targets)

    def _apply_card(self, kind: int) -> FlipOutcome:
        self._pending = kind
        if self._drop_mask(kind):
            return FlipOutcome.PLACE
        if self.is_check():
            return self._rescue_failed(kind)
        # R8: unplaceable outside check: to the bottom of the deck, turn over.
        self._pending = 0
        self._decks = _with_deck(self._decks, self.turn, kind, +1)
        self._pass_turn()
        return FlipOutcome.UNPLACEABLE

    def _rescue_failed(self, kind: int) -> FlipOutcome:
        """R7: a card flipped in check cannot lift it."""
        if self.rules.failed_rescue == "return":
            self._pending = 0
            self._decks = _with_deck(self._decks, self.turn, kind, +1)
            self._must_move = True
            return FlipOutcome.RETURNED
        return FlipOutcome.FAILED_RESCUE  # the card stays pending: the game is lost

    def _apply_joker(self) -> FlipOutcome:
        if self.rules.joker_effect == "extra_turn":
            return FlipOutcome.EXTRA_TURN
        if self._has_king():
            self._pending = JOKER
            if self._removal_mask():
                return FlipOutcome.REMOVE_PIECE
            if self.is_check():
                return self._rescue_failed(JOKER)
            self._pending = 0
        # No king on the board, or no piece may be removed: no effect, the turn ends.
        self._pass_turn()
        return FlipOutcome.NO_EFFECT

    def _removable_mask(self) -> chess.Bitboard:
        return self.occupied_co[not self.turn] & ~self.kings

    def _removal_mask(self) -> chess.Bitboard:
        """Opposing pieces a joker may remove now (in check: only removals that lift it)."""
        mask = self._removable_mask()
        king_mask = self.kings & self.occupied_co[self.turn]
        if not king_mask:
            return chess.BB_EMPTY
        king = chess.msb(king_mask)
        checkers = self.attackers_mask(not self.turn, king)
        if checkers & (checkers - 1):
            return chess.BB_EMPTY
        if checkers:
            mask &= checkers  # only removing the single checker can lift a check
        # The turn must end with the king safe: removing an opposing piece may
        # uncover another opposing piece's line onto the king.
        for square in chess.scan_forward(mask):
            square_bb = chess.BB_SQUARES[square]
            if self.attackers_mask(not self.turn, king, self.occupied & ~square_bb) & ~square_bb:
                mask &= ~square_bb
        return mask

    def legal_removals(self) -> chess.SquareSet:
        """Squares a pending remove-piece joker may empty."""
        if self._pending != JOKER:
            return chess.SquareSet()
        return chess.SquareSet(self._removal_mask())

    def push_removal(self, square: Square) -> None:
        """Remove an opposing piece for a pending joker (R12); validates."""
        if self._pending != JOKER:
            raise IllegalRemovalError("no joker is pending")
        if not self._removal_mask() & chess.BB_SQUARES[square]:
            name = chess.square_name(square)
            piece = self.piece_at(square)
            if piece is None or piece.color == self.turn:
                reason = f"there is no opposing piece on {name}"
            elif piece.piece_type == chess.KING:
                reason = "the king cannot be removed"
            else:
                reason = f"removing the piece on {name} does not lift the check"
            raise IllegalRemovalError(reason)
        self._entries.append(_Entry(self, Action(ActionKind.REMOVAL, square=square)))
        was_blue = self.is_blue(square)
        piece_type = self._remove_piece_at(square)
        if was_blue and piece_type is not None and self.rules.blue_returns_when_captured:
            self._blue = _with_deck(self._blue, not self.turn, piece_type, +1)
        self._pending = 0
        self._end_turn(reset_clock=True)
        self._keys.append(self._position_key())

    def push(self, move: chess.Move) -> None:
        """Play a placement (a drop) or a chess move. Does not validate (see python-chess).

        A drop while no card is pending stands for the flip of that card and
        its placement, as PGN records placements.
        """
        entry = _Entry(self, Action(ActionKind.MOVE, move=move))
        if not move:
            # A pass: the record of a flip that placed nothing (PGN "--").
            if self._pending and self._pending != JOKER:
                self._decks = _with_deck(self._decks, self.turn, self._pending, +1)
            self._pending = 0
            self._must_move = False
            self._entries.append(entry)
            super().push(move)
            self._keys.append(self._position_key())
            return
        if move.drop:
            if not self._pending:
                kind = self._card_for_drop(move)
                self._decks = _with_deck(self._decks, self.turn, kind, -1)
            self._pending = 0
            self._entries.append(entry)
            super().push(move)
            self.halfmove_clock = 0
        else:
            mover = self.turn
            self._entries.append(entry)
            super().push(move)
            if move.promotion:
                self._blue = _with_deck(self._blue, mover, move.promotion, -1)
        self._must_move = False
        self._keys.append(self._position_key())

    def _card_for_drop(self, move: chess.Move) -> int:
        """Which card of the deck a drop uses (a coloured bishop card by square colour)."""
        assert move.drop is not None
        if move.drop == chess.BISHOP and not self._decks[self.turn][chess.BISHOP]:
            light = chess.BB_SQUARES[move.to_square] & chess.BB_LIGHT_SQUARES
            return LIGHT_BISHOP_CARD if light else DARK_BISHOP_CARD
        return move.drop

    def _push_capture(self, move: chess.Move, capture_square: Square,
                      piece_type: chess.PieceType, was_promoted: bool) -> None:
        if was_promoted and self.rules.blue_returns_when_captured:
            self._blue = _with_deck(self._blue, not self.turn, piece_type, +1)

    def pop(self) -> chess.Move:
        """Undo the last action (a flip or removal too); returns the move, or a
        null move for a flip or removal. ``IndexError`` if there is none."""
        entry = self._entries.pop()
        self._keys.pop()
        if _on_move_stack(entry.action):
            move = super().pop()
            entry.restore(self, base=False)
            return move
        entry.restore(self)
        return chess.Move.null()

    def peek_action(self) -> Action:
        """The last action (``IndexError`` if there is none)."""
        return self._entries[-1].action

    def _pass_turn(self) -> None:
        """End a turn that placed nothing with a null move on python-chess's move
        stack, so ``move_stack`` keeps one entry per turn and PGN writes ``--``."""
        chess.Board.push(self, chess.Move.null())

    def _end_turn(self, *, reset_clock: bool) -> None:
        if self.turn == chess.BLACK:
            self.fullmove_number += 1
        self.halfmove_clock = 0 if reset_clock else self.halfmove_clock + 1
        self.turn = not self.turn

    # ------------------------------------------------------------------
    # SAN

    def _algebraic_without_suffix(self, move: chess.Move, *, long: bool = False) -> str:
        if move.drop:
            return chess.piece_symbol(move.drop).upper() + "@" + chess.SQUARE_NAMES[move.to_square]
        return super()._algebraic_without_suffix(move, long=long)

    def parse_san(self, san: str) -> chess.Move:
        """Parse SAN, with placements as drops (``N@e4``, ``P@e4`` or ``@e4``).

        A drop while nothing is pending is accepted when the side to move may
        flip that card and place it there (PGN records a flip and its
        placement as one drop).
        """
        text = san.strip()
        if "@" not in text:
            return super().parse_san(text)
        uci = text.rstrip("+#")
        if uci.startswith("@"):
            uci = "P" + uci
        uci = uci[0].upper() + uci[1:]
        try:
            move = chess.Move.from_uci(uci)
        except chess.InvalidMoveError:
            raise chess.InvalidMoveError(f"invalid placement: {san!r}") from None
        if self.is_legal(move) or (not self._pending and self._flip_then_legal(move)):
            return move
        reason = self.why_illegal(move) or "not legal here"
        raise IllegalActionError(f"illegal placement {san}: {reason}")

    def _flip_then_legal(self, move: chess.Move) -> bool:
        if move.drop is None or not self.can_flip():
            return False
        kind = self._card_for_drop(move)
        if not self._decks[self.turn][kind]:
            return False
        self._pending = kind
        try:
            return self._is_legal_drop(move)
        finally:
            self._pending = 0

    def parse_uci(self, uci: str) -> chess.Move:
        try:
            move = chess.Move.from_uci(uci.strip())
        except chess.InvalidMoveError:
            raise chess.InvalidMoveError(f"invalid move: {uci!r}") from None
        if not self.is_legal(move):
            reason = self.why_illegal(move) or "not legal here"
            raise IllegalActionError(f"illegal move {uci}: {reason}")
        return move

    def push_uci(self, uci: str) -> chess.Move:
        move = self.parse_uci(uci)
        self.push(move)
        return move

    def push_san(self, san: str) -> chess.Move:
        move = self.parse_san(san)
        self.push(move)
        return move

    # ------------------------------------------------------------------
    # Check, mate, draws, outcome

    def is_failed_rescue(self) -> bool:
        """R7 (``lose``): a card flipped in check that cannot lift it; the side to move lost."""
        if not self._pending:
            return False
        if not self.is_check():
            return False
        if self._pending == JOKER:
            return not self._removal_mask()
        return not self._drop_mask(self._pending)

    def rescue_cards(self) -> dict[str, chess.SquareSet]:
        """Cards left in the side to move's deck that could lift the current check
        if flipped, with their squares (a remove-piece joker: the piece it removes)."""
        rescues: dict[str, chess.SquareSet] = {}
        if not self.is_check() or self._pending or self._must_move:
            return rescues
        deck = self._decks[self.turn]
        for kind in range(1, len(deck)):
            if not deck[kind]:
                continue
            if kind == JOKER:
                if self.rules.joker_effect == "remove_piece":
                    mask = self._removal_mask()
                    if mask:
                        rescues[card_letter(kind, self.turn)] = chess.SquareSet(mask)
                continue
            mask = self._drop_mask(kind)
            if mask:
                rescues[card_letter(kind, self.turn)] = chess.SquareSet(mask)
        if rescues and deck[JOKER] and self.rules.joker_effect == "extra_turn":
            rescues[card_letter(JOKER, self.turn)] = chess.SquareSet()
        return rescues

    def is_checkmate(self) -> bool:
        """R9: in check, no chess move lifts it, and no card left could (or may) block."""
        if self._pending or not self.is_check():
            return False
        if any(self.generate_legal_moves()):
            return False
        return not self.rescue_cards()

    def is_stalemate(self) -> bool:
        """R10: not in check, no legal move, and an empty deck (else a flip is possible)."""
        if self._pending or self._must_move or sum(self._decks[self.turn]) or self.is_check():
            return False
        return not any(self.generate_legal_moves())

    def is_insufficient_material(self) -> bool:
        """R10: only when both decks are empty (jokers too: while a card is left a flip
        is possible, and a joker's extra turn or removal can still change the game)
        and nothing is pending, and then as in chess."""
        if sum(self._decks[chess.WHITE]) or sum(self._decks[chess.BLACK]) or self._pending:
            return False
        return super().is_insufficient_material()

    def _repetitions(self) -> int:
        return self._keys.count(self._keys[-1])

    def is_repetition(self, count: int = 3) -> bool:
        return self._repetitions() >= count

    def is_fivefold_repetition(self) -> bool:
        return not self._pending and self._repetitions() >= 5

    def can_claim_threefold_repetition(self) -> bool:
        return not self._pending and self._repetitions() >= 3

    def is_seventyfive_moves(self) -> bool:
        return not self._pending and self.halfmove_clock >= 150

    def can_claim_fifty_moves(self) -> bool:
        return not self._pending and self.halfmove_clock >= 100

    def can_claim_draw(self) -> bool:
        return self.can_claim_fifty_moves() or self.can_claim_threefold_repetition()

    def outcome(self, *, claim_draw: bool = False) -> Outcome | None:  # type: ignore[override]
        """How the game has ended on the board, or ``None`` (R9, R10, R14).

        Agreement, resignation and time forfeit are the session's business.
        """
        if self.is_failed_rescue():
            return Outcome(Termination.FAILED_RESCUE, not self.turn)
        if self.is_checkmate():
            return Outcome(Termination.CHECKMATE, not self.turn)
        if self.is_seventyfive_moves():
            return Outcome(Termination.SEVENTYFIVE_MOVES, None)
        if self.is_fivefold_repetition():
            return Outcome(Termination.FIVEFOLD_REPETITION, None)
        if self.is_insufficient_material():
            return Outcome(Termination.INSUFFICIENT_MATERIAL, None)
        if self.is_stalemate():
            return Outcome(Termination.STALEMATE, None)
        if claim_draw:
            if self.can_claim_fifty_moves():
                return Outcome(Termination.FIFTY_MOVES, None)
            if self.can_claim_threefold_repetition():
                return Outcome(Termination.THREEFOLD_REPETITION, None)
        return None

    def is_game_over(self, *, claim_draw: bool = False) -> bool:
        return self.outcome(claim_draw=claim_draw) is not None

    # ------------------------------------------------------------------
    # Identity, copies

    def _position_key(self) -> Hashable:
        return (self.pawns, self.knights, self.bishops, self.rooks, self.queens, self.kings,
                self.occupied_co[chess.WHITE], self.occupied_co[chess.BLACK], self.promoted,
                self.turn, self._decks, self._blue, self._pending, self._must_move)

    def _transposition_key(self) -> Hashable:
        return self._position_key()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RaindropBoard):
            return NotImplemented
        return (self.halfmove_clock == other.halfmove_clock
                and self.fullmove_number == other.fullmove_number
                and self.rules == other.rules
                and self._position_key() == other._position_key())

    __hash__ = None  # type: ignore[assignment]

    def copy(self, *, stack: bool | int = True) -> RaindropBoard:
        if stack is True:
            actions = len(self._entries)
        elif stack is False:
            actions = 0
        else:
            actions = min(int(stack), len(self._entries))
        kept = self._entries[len(self._entries) - actions:]
        moves = sum(1 for entry in kept if _on_move_stack(entry.action))
        board = super().copy(stack=moves)
        if not moves:
            board.move_stack = []
            board._stack = []
        board.rules = self.rules
        board._decks = self._decks
        board._blue = self._blue
        board._pending = self._pending
        board._must_move = self._must_move
        board._entries = list(kept)
        board._keys = self._keys[len(self._keys) - actions - 1:]
        return board

    def root(self) -> RaindropBoard:
        if not self._entries:
            return self.copy(stack=False)
        board = type(self)(None, rules=self.rules)
        self._entries[0].restore(board)
        board._keys = [board._position_key()]
        return board

    def apply_mirror(self) -> None:
        super().apply_mirror()
        self._decks = (self._decks[chess.WHITE], self._decks[chess.BLACK])
        self._blue = (self._blue[chess.WHITE], self._blue[chess.BLACK])
        self._keys = [self._position_key()]

    def mirror(self) -> RaindropBoard:
        board = self.copy(stack=False)
        board.apply_mirror()
        return board

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.rfen()!r})"


def _rules_shown_by(rfen: str | None) -> HouseRules:
    """The house rules for a board made without any (as ``chess.pgn`` makes one from
    the ``FEN`` header): the defaults, except where the RFEN itself shows another
    rule (L/D cards: ``coloured_bishop_cards``; ``+``: ``failed_rescue=return``;
    jokers: ``jokers_per_deck``, the most either side still holds).
    Given rules are always checked strictly."""
    if not isinstance(rfen, str):
        return HouseRules()
    fields = rfen.split()
    cards = fields[0].partition("[")[2] if fields else ""
    pending = fields[3] if len(fields) > 3 else "-"
    coloured = any(letter in "LDld" for letter in cards + pending)
    jokers = max((cards + pending).count("J"), (cards + pending).count("j"))
    return HouseRules(coloured_bishop_cards=coloured, jokers_per_deck=min(jokers, 2),
                      failed_rescue="return" if pending == "+" else "lose")


def _on_move_stack(action: Action) -> bool:
    """Whether an action put an entry on python-chess's move stack: a move, a
    drop, or a flip whose turn ended with nothing placed (a null move)."""
    return action.kind == ActionKind.MOVE or action.outcome in _PASSING_OUTCOMES


def _with_deck(decks: tuple[Counts, Counts], color: chess.Color, kind: int,
               delta: int) -> tuple[Counts, Counts]:
    if color == chess.WHITE:
        return (decks[chess.BLACK], counts_add(decks[chess.WHITE], kind, delta))
    return (counts_add(decks[chess.BLACK], kind, delta), decks[chess.WHITE])


def _check_jokers(decks: tuple[Counts, Counts], turn: chess.Color, pending: int,
                  rules: HouseRules) -> None:
    """R1: a side holds (in its deck, or pending) no more jokers than the house rule
    ``jokers_per_deck`` shuffled into its deck; a flipped joker leaves the game."""
    for color in chess.COLORS:
        held = decks[color][JOKER] + (1 if pending == JOKER and color == turn else 0)
        if held > rules.jokers_per_deck:
            raise RfenError("cards", f"{chess.COLOR_NAMES[color]} holds {held} joker(s), "
                                     f"more than jokers_per_deck={rules.jokers_per_deck} "
                                     f"puts in a deck (R1)")


def _validate(board: chess.Board, decks: tuple[Counts, Counts], blue: tuple[Counts, Counts],
              turn: chess.Color, pending: int, must_move: bool, rules: HouseRules) -> None:
    """Check that a position is possible; :class:`RfenError` names the field."""
    if board.pawns & chess.BB_BACKRANKS:
        raise RfenError("placement", "a pawn stands on the first or last rank")
    for mask, what in ((board.pawns, "pawn"), (board.kings, "king")):
        blue_wrong = board.promoted & mask
        if blue_wrong:
            square = chess.square_name(chess.lsb(blue_wrong))
            raise RfenError("placement", f"the {what} on {square} is marked blue (~), but only "
                                         f"queens, rooks, bishops and knights can be blue "
                                         f"pieces (R5)")
    if pending == KING_CARD and board.kings & board.occupied_co[turn]:
        raise RfenError("pending", "a king card is pending but the king is on the board: a "
                                   "second king (R1)")
    if must_move and rules.failed_rescue != "return":
        raise RfenError("pending", f"'+' (a chess move must follow a failed rescue) happens "
                                   f"only under failed_rescue=return, not "
                                   f"failed_rescue={rules.failed_rescue} (R7)")
    max_blue = counts_from_letters(rules.blue_pieces)
    for color in chess.COLORS:
        name = chess.COLOR_NAMES[color]
        deck = decks[color]
        own = board.occupied_co[color]
        plain = own & ~board.promoted
        held = list(deck)
        if pending and color == turn:
            held[pending] += 1
        if held[JOKER] > 2:
            raise RfenError("cards", f"{name} has {held[JOKER]} jokers; at most 2 (R1)")
        kings = chess.popcount(board.kings & own) + held[KING_CARD]
        if kings == 0:
            raise RfenError("cards", f"{name} has no king anywhere: none on the board, in "
                                     f"the deck or pending; every side has one (R1)")
        if held[chess.BISHOP] and (held[LIGHT_BISHOP_CARD] or held[DARK_BISHOP_CARD]):
            raise RfenError("cards", f"{name}'s deck mixes plain and coloured bishop cards")
        for letter_kind in (LIGHT_BISHOP_CARD, DARK_BISHOP_CARD):
            if held[letter_kind] > 1:
                raise RfenError("cards", f"{name} has more than one {card_name(letter_kind)} "
                                         f"card (R13)")
        coloured = held[LIGHT_BISHOP_CARD] + held[DARK_BISHOP_CARD]
        if coloured and not rules.coloured_bishop_cards:
            field = "pending" if pending in (LIGHT_BISHOP_CARD, DARK_BISHOP_CARD) and \
                color == turn and not (deck[LIGHT_BISHOP_CARD] + deck[DARK_BISHOP_CARD]) \
                else "cards"
            raise RfenError(field, f"{name} holds a light- or dark-square bishop card (L/D), "
                                   f"which exists only under coloured_bishop_cards=true "
                                   f"(R13)")
        if rules.coloured_bishop_cards and held[chess.BISHOP]:
            field = "pending" if pending == chess.BISHOP and color == turn and \
                not deck[chess.BISHOP] else "cards"
            raise RfenError(field, f"{name} holds a plain bishop card (B), but under "
                                   f"coloured_bishop_cards=true the bishops are the L and D "
                                   f"cards (R13)")
        for piece_type, limit in _MAX_PER_SIDE.items():
            on_board = chess.popcount(plain & board.pieces_mask(piece_type, color))
            cards = held[piece_type]
            if piece_type == chess.BISHOP:
                cards += held[LIGHT_BISHOP_CARD] + held[DARK_BISHOP_CARD]
            if piece_type == chess.PAWN:
                blue_on_board = chess.popcount(own & board.promoted)
                if on_board + blue_on_board + cards > limit:
                    raise RfenError("cards", f"{name} has {on_board} pawns and {blue_on_board} "
                                             f"blue pieces on the board and {cards} pawn cards: "
                                             f"more than 8 (R1)")
            elif on_board + cards > limit:
                raise RfenError("cards", f"{name} has {on_board} {chess.piece_name(piece_type)}"
                                         f"(s) on the board and {cards} in cards: more than "
                                         f"{limit} (R1)")
        for piece_type in BLUE_ORDER:
            used = chess.popcount(own & board.promoted & board.pieces_mask(piece_type, color))
            if blue[color][piece_type] + used > max_blue[piece_type]:
                raise RfenError("blue", f"{name} has more blue {chess.piece_name(piece_type)}s "
                                        f"(available {blue[color][piece_type]}, on the board "
                                        f"{used}) than the rules allow ({max_blue[piece_type]})")
    probe = board.copy(stack=False)
    probe.turn = turn
    if probe.was_into_check():
        raise RfenError("turn", f"{chess.COLOR_NAMES[not turn]} is in check but it is "
                                f"{chess.COLOR_NAMES[turn]}'s turn")
    if must_move and not probe.is_check():
        raise RfenError("pending", "'+' (a chess move must follow a failed rescue) needs the side "
                                   "to move in check")


if RaindropBoard not in chess.variant.VARIANTS:
    chess.variant.VARIANTS.append(RaindropBoard)
