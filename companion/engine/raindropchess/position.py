"""The search's own Raindropchess position: bitboards, copied on every action.

:class:`~companion.rules.RaindropBoard` is the rules engine and the judge of
every action the engine plays; it keeps a history for undo and repetition,
which a search visiting a hundred thousand positions does not need. A
:class:`Position` is the same position with no history: a handful of
integers, a new one for every action (no undo), built on python-chess's
attack tables. It follows the rulings exactly (tests compare it with
``RaindropBoard`` action by action over random games under every house rule).

Actions are small integers (see :func:`move_action` and the ``FLIP``,
``DROP`` and ``REMOVE`` tags); :mod:`.turns` writes them as turn texts.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import chess

from companion.rules import HouseRules, RaindropBoard
from companion.rules.letters import (
    DARK_BISHOP_CARD,
    JOKER,
    KING_CARD,
    LIGHT_BISHOP_CARD,
    NUM_KINDS,
    PAWN_CARD,
    Counts,
)
from companion.rules.rfen import parse_rfen

LOGGER = logging.getLogger(__name__)

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = range(1, 7)
WHITE, BLACK = True, False

# Action tags: a chess move is ``from | to << 6 | promotion << 12``; the rest
# carry a tag bit above those.
DROP = 1 << 16
"""``DROP | square``: the pending card placed on ``square``."""
REMOVE = 1 << 17
"""``REMOVE | square``: a pending remove-piece joker takes the piece on ``square``."""
FLIP = 1 << 18
"""Flip the top card (a chance event)."""

# What a flipped card leads to.
PLACE = 0          # the card is pending: its owner chooses a square
PASS = 1           # unplaceable (R8) or a joker without effect (R12): the turn passes
LOST = 2           # a failed rescue under failed_rescue=lose (R7): the flipper lost
RETURNED = 3       # a failed rescue under failed_rescue=return: a chess move must follow
EXTRA = 4          # an extra-turn joker: the flipper takes another turn
REMOVAL = 5        # a remove-piece joker: its owner chooses a piece to remove

_KNIGHT_ATT = chess.BB_KNIGHT_ATTACKS
_KING_ATT = chess.BB_KING_ATTACKS
_PAWN_ATT = chess.BB_PAWN_ATTACKS
_RANK_ATT = chess.BB_RANK_ATTACKS
_FILE_ATT = chess.BB_FILE_ATTACKS
_DIAG_ATT = chess.BB_DIAG_ATTACKS
_RANK_MASK = chess.BB_RANK_MASKS
_FILE_MASK = chess.BB_FILE_MASKS
_DIAG_MASK = chess.BB_DIAG_MASKS
_BETWEEN = chess.between
_RAY = chess.ray
_BACKRANKS = chess.BB_BACKRANKS
_ALL = chess.BB_ALL

PAWN_DROP_MASKS = (
    chess.BB_RANK_3 | chess.BB_RANK_4 | chess.BB_RANK_5 | chess.BB_RANK_6 | chess.BB_RANK_7,
    chess.BB_RANK_2 | chess.BB_RANK_3 | chess.BB_RANK_4 | chess.BB_RANK_5 | chess.BB_RANK_6,
)
"""Where pawns may be placed (R3), indexed by colour."""

CARD_PIECE = (0, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, 0, BISHOP, BISHOP)
"""The piece each card kind places (0 for the joker)."""
CARD_SQUARES = tuple(
    chess.BB_LIGHT_SQUARES if kind == LIGHT_BISHOP_CARD
    else chess.BB_DARK_SQUARES if kind == DARK_BISHOP_CARD else _ALL
    for kind in range(NUM_KINDS))
BLUE_TYPES = (QUEEN, ROOK, BISHOP, KNIGHT)


@dataclass(frozen=True)
class SearchRules:
    """The house rules the search needs, as plain flags."""

    remove_joker: bool = False
    """``joker_effect=remove_piece`` (else a joker is an extra turn)."""
    failed_return: bool = False
    """``failed_rescue=return`` (else a failed rescue loses)."""
    blue_returns: bool = False
    """``blue_returns_when_captured``."""

    @classmethod
    def of(cls, rules: HouseRules) -> SearchRules:
        return cls(remove_joker=rules.joker_effect == "remove_piece",
                   failed_return=rules.failed_rescue == "return",
                   blue_returns=rules.blue_returns_when_captured)


def move_action(from_square: int, to_square: int, promotion: int = 0) -> int:
    """The action of a chess move."""
    return from_square | to_square << 6 | promotion << 12


def iter_bits(mask: int) -> list[int]:
    """The squares of a bitboard, lowest first."""
    squares = []
    while mask:
        low = mask & -mask
        squares.append(low.bit_length() - 1)
        mask ^= low
    return squares


def piece_attacks(piece_type: int, color: bool, square: int, occupied: int) -> int:
    """The squares a piece on ``square`` attacks, given the occupied squares."""
    if piece_type == KNIGHT:
        return _KNIGHT_ATT[square]
    if piece_type == PAWN:
        return _PAWN_ATT[color][square]
    if piece_type == KING:
        return _KING_ATT[square]
    attacks = 0
    if piece_type != ROOK:
        attacks = _DIAG_ATT[square][_DIAG_MASK[square] & occupied]
    if piece_type != BISHOP:
        attacks |= (_RANK_ATT[square][_RANK_MASK[square] & occupied]
                    | _FILE_ATT[square][_FILE_MASK[square] & occupied])
    return attacks


def _with(counts: Counts, kind: int, delta: int) -> Counts:
    items = list(counts)
    items[kind] += delta
    return tuple(items)


def _pair(pair: tuple[Counts, Counts], color: bool, kind: int,
          delta: int) -> tuple[Counts, Counts]:
    if color:
        return (pair[0], _with(pair[1], kind, delta))
    return (_with(pair[0], kind, delta), pair[1])


class Position:
    """One Raindropchess position, without history. Never changed once made."""

    __slots__ = ("bishops", "blue", "decks", "halfmove", "kings", "knights", "must_move",
                 "occupied", "pawns", "pending", "promoted", "queens", "rooks", "rules",
                 "turn", "white")

    pawns: int
    knights: int
    bishops: int
    rooks: int
    queens: int
    kings: int
    occupied: int
    white: int
    promoted: int
    turn: bool
    decks: tuple[Counts, Counts]
    blue: tuple[Counts, Counts]
    pending: int
    must_move: bool
    halfmove: int
    rules: SearchRules

    @classmethod
    def from_rfen(cls, rfen: str, rules: HouseRules) -> Position:
        """The position of a valid RFEN (check it with ``RaindropBoard`` first)."""
        board = RaindropBoard(rfen, rules=rules)
        return cls.from_board(board, rfen)

    @classmethod
    def from_board(cls, board: RaindropBoard, rfen: str | None = None) -> Position:
        fields = parse_rfen(rfen if rfen is not None else board.rfen())
        pos = object.__new__(cls)
        pos.pawns = board.pawns
        pos.knights = board.knights
        pos.bishops = board.bishops
        pos.rooks = board.rooks
        pos.queens = board.queens
        pos.kings = board.kings
        pos.occupied = board.occupied
        pos.white = board.occupied_co[chess.WHITE]
        pos.promoted = board.promoted
        pos.turn = board.turn
        pos.decks = fields.decks
        pos.blue = fields.blue
        pos.pending = fields.pending
        pos.must_move = fields.must_move
        pos.halfmove = board.halfmove_clock
        pos.rules = SearchRules.of(board.rules)
        return pos

    def _copy(self) -> Position:
        pos = object.__new__(Position)
        pos.pawns = self.pawns
        pos.knights = self.knights
        pos.bishops = self.bishops
        pos.rooks = self.rooks
        pos.queens = self.queens
        pos.kings = self.kings
        pos.occupied = self.occupied
        pos.white = self.white
        pos.promoted = self.promoted
        pos.turn = self.turn
        pos.decks = self.decks
        pos.blue = self.blue
        pos.pending = self.pending
        pos.must_move = self.must_move
        pos.halfmove = self.halfmove
        pos.rules = self.rules
        return pos

    # ------------------------------------------------------------------
    # Looking

    def key(self) -> tuple[object, ...]:
        """What makes two positions the same for the search (the clocks left out)."""
        return (self.pawns, self.knights, self.bishops, self.rooks, self.queens, self.kings,
                self.white, self.occupied, self.promoted, self.turn, self.decks, self.blue,
                self.pending, self.must_move)

    def side(self, color: bool) -> int:
        """The squares of ``color``'s pieces."""
        return self.white if color else self.occupied & ~self.white

    def piece_type_at(self, square: int) -> int:
        bb = 1 << square
        if not self.occupied & bb:
            return 0
        if self.pawns & bb:
            return PAWN
        if self.knights & bb:
            return KNIGHT
        if self.bishops & bb:
            return BISHOP
        if self.rooks & bb:
            return ROOK
        if self.queens & bb:
            return QUEEN
        return KING

    def king_square(self, color: bool) -> int:
        """The square of ``color``'s king, or -1 when it is not on the board."""
        mask = self.kings & (self.white if color else ~self.white)
        return mask.bit_length() - 1 if mask else -1

    def attackers(self, color: bool, square: int, occupied: int | None = None) -> int:
        """``color``'s pieces attacking ``square`` (a pinned piece too)."""
        occ = self.occupied if occupied is None else occupied
        queens_rooks = self.queens | self.rooks
        queens_bishops = self.queens | self.bishops
        attackers = (
            (_KING_ATT[square] & self.kings)
            | (_KNIGHT_ATT[square] & self.knights)
            | (_RANK_ATT[square][_RANK_MASK[square] & occ] & queens_rooks)
            | (_FILE_ATT[square][_FILE_MASK[square] & occ] & queens_rooks)
            | (_DIAG_ATT[square][_DIAG_MASK[square] & occ] & queens_bishops)
            | (_PAWN_ATT[not color][square] & self.pawns))
        return attackers & (self.white if color else occ & ~self.white)

    def attacks_from(self, square: int) -> int:
        """The squares the piece on ``square`` attacks."""
        return piece_attacks(self.piece_type_at(square), bool(self.white >> square & 1),
                             square, self.occupied)

    def checkers(self) -> int:
        """The pieces checking the side to move (0 when not in check or no king)."""
        king = self.king_square(self.turn)
        if king < 0:
            return 0
        return self.attackers(not self.turn, king)

    def in_check(self) -> bool:
        return bool(self.checkers())

    def has_king(self, color: bool | None = None) -> bool:
        color = self.turn if color is None else color
        return bool(self.kings & (self.white if color else ~self.white))

    def deck(self, color: bool | None = None) -> Counts:
        return self.decks[self.turn if color is None else color]

    def deck_size(self, color: bool | None = None) -> int:
        return sum(self.decks[self.turn if color is None else color])

    # ------------------------------------------------------------------
    # Placements and removals

    def drop_mask(self, kind: int, color: bool | None = None) -> int:
        """Squares where a card of ``kind`` may be placed by ``color`` now (R3, R7)."""
        color = self.turn if color is None else color
        mask = ~self.occupied & CARD_SQUARES[kind] & _ALL
        if kind == PAWN_CARD:
            mask &= PAWN_DROP_MASKS[color]
        elif kind == KING_CARD:
            them = not color
            for square in iter_bits(mask):
                if self.attackers(them, square):
                    mask &= ~(1 << square)
            return mask
        king = self.king_square(color)
        if king >= 0:
            checkers = self.attackers(not color, king)
            if checkers:
                if checkers & (checkers - 1):
                    return 0
                mask &= _BETWEEN(king, checkers.bit_length() - 1)
        return mask

    def removal_mask(self) -> int:
        """Opposing pieces a remove-piece joker may take now (R12)."""
        turn = self.turn
        king = self.king_square(turn)
        if king < 0:
            return 0
        them = not turn
        mask = self.side(them) & ~self.kings
        checkers = self.attackers(them, king)
        if checkers & (checkers - 1):
            return 0
        if checkers:
            mask &= checkers
        occ = self.occupied
        for square in iter_bits(mask):
            bb = 1 << square
            if self.attackers(them, king, occ & ~bb) & ~bb:
                mask &= ~bb
        return mask

    def pending_targets(self) -> int:
        """Where the pending card may go, or what a pending joker may remove."""
        if self.pending == JOKER:
            return self.removal_mask()
        if self.pending:
            return self.drop_mask(self.pending)
        return 0

    def rescue_possible(self) -> bool:
        """In check: whether some card left in the deck could lift the check (R9)."""
        deck = self.decks[self.turn]
        for kind in range(1, NUM_KINDS):
            if not deck[kind]:
                continue
            if kind == JOKER:
                if self.rules.remove_joker and self.removal_mask():
                    return True
            elif self.drop_mask(kind):
                return True
        return False

    def rescue_chance(self) -> float:
        """In check: the chance the top card lifts the check (the verdict's count, R9)."""
        deck = self.decks[self.turn]
        size = sum(deck)
        good = 0
        jokers = deck[JOKER]
        for kind in range(1, NUM_KINDS):
            if deck[kind] and kind != JOKER and self.drop_mask(kind):
                good += deck[kind]
        if jokers:
            if self.rules.remove_joker:
                if self.removal_mask():
                    good += jokers
            elif good:
                size -= jokers
        return good / size if size else 0.0

    # ------------------------------------------------------------------
    # Chess moves

    def _blockers(self, king: int) -> int:
        """The side to move's pieces pinned to its king."""
        them = self.side(not self.turn)
        rooks_queens = self.rooks | self.queens
        bishops_queens = self.bishops | self.queens
        snipers = ((_RANK_ATT[king][0] & rooks_queens) | (_FILE_ATT[king][0] & rooks_queens)
                   | (_DIAG_ATT[king][0] & bishops_queens)) & them
        blockers = 0
        occ = self.occupied
        while snipers:
            low = snipers & -snipers
            b = _BETWEEN(king, low.bit_length() - 1) & occ
            if b and not b & (b - 1):
                blockers |= b
            snipers ^= low
        return blockers & self.side(self.turn)

    def legal_moves(self, captures_only: bool = False) -> list[int]:
        """The legal chess moves of the side to move (none while a card is pending or
        its king is off the board). ``captures_only``: captures and promotions only,
        for a side not in check (quiescence)."""
        if self.pending:
            return []
        turn = self.turn
        white = self.white
        occ = self.occupied
        ours = white if turn else occ & ~white
        king_bb = self.kings & ours
        if not king_bb:
            return []
        king = king_bb.bit_length() - 1
        them = not turn
        theirs = occ & ~ours
        checkers = self.attackers(them, king)
        blockers = self._blockers(king)
        moves: list[int] = []
        append = moves.append
        attackers = self.attackers
        if checkers:
            attacked = 0
            sliders = checkers & (self.bishops | self.rooks | self.queens)
            while sliders:
                low = sliders & -sliders
                checker = low.bit_length() - 1
                attacked |= _RAY(king, checker) & ~low
                sliders ^= low
            steps = _KING_ATT[king] & ~ours & ~attacked & _ALL
            if checkers & (checkers - 1):
                targets = 0
            else:
                targets = _BETWEEN(king, checkers.bit_length() - 1) | checkers
        else:
            targets = theirs if captures_only else _ALL & ~ours
            steps = _KING_ATT[king] & targets
        while steps:
            low = steps & -steps
            to = low.bit_length() - 1
            if not attackers(them, to):
                append(king | to << 6)
            steps ^= low
        if not targets:
            return moves
        # Pieces but pawns and the king.
        knights = self.knights
        rooks = self.rooks
        bishops = self.bishops
        pieces = ours & ~self.pawns & ~king_bb
        while pieces:
            bb = pieces & -pieces
            square = bb.bit_length() - 1
            pieces ^= bb
            if knights & bb:
                reach = _KNIGHT_ATT[square]
            else:
                reach = 0
                if not rooks & bb:
                    reach = _DIAG_ATT[square][_DIAG_MASK[square] & occ]
                if not bishops & bb:
                    reach |= (_RANK_ATT[square][_RANK_MASK[square] & occ]
                              | _FILE_ATT[square][_FILE_MASK[square] & occ])
            reach &= targets
            if blockers & bb:
                reach &= _RAY(king, square)
            base = square
            while reach:
                low = reach & -reach
                append(base | (low.bit_length() - 1) << 6)
                reach ^= low
        # Pawns.
        pawns = self.pawns & ours
        if pawns:
            blue = self.blue[turn]
            promotions = [pt for pt in BLUE_TYPES if blue[pt]]
            pawn_targets = targets if promotions else targets & ~_BACKRANKS
            hittable = theirs & pawn_targets
            attack_table = _PAWN_ATT[turn]
            each = pawns
            while each:
                bb = each & -each
                square = bb.bit_length() - 1
                each ^= bb
                hits = attack_table[square] & hittable
                if not hits:
                    continue
                if blockers & bb:
                    hits &= _RAY(king, square)
                while hits:
                    low = hits & -hits
                    to = low.bit_length() - 1
                    hits ^= low
                    if low & _BACKRANKS:
                        for piece_type in promotions:
                            append(square | to << 6 | piece_type << 12)
                    else:
                        append(square | to << 6)
            if turn:
                forward = (pawns << 8) & ~occ & _ALL
                back = -8
            else:
                forward = (pawns >> 8) & ~occ
                back = 8
            if captures_only and not checkers:
                forward &= _BACKRANKS if promotions else 0
            else:
                forward &= pawn_targets
            while forward:
                low = forward & -forward
                to = low.bit_length() - 1
                forward ^= low
                square = to + back
                if blockers & (1 << square) and not _RAY(king, square) & low:
                    continue
                if low & _BACKRANKS:
                    for piece_type in promotions:
                        append(square | to << 6 | piece_type << 12)
                else:
                    append(square | to << 6)
        return moves

    def is_capture(self, action: int) -> bool:
        return action < DROP and bool(self.occupied >> (action >> 6 & 63) & 1)

    # ------------------------------------------------------------------
    # Acting

    def play(self, action: int) -> Position:
        """The position after a chess move, a placement or a removal (not a flip)."""
        if action & DROP:
            return self._drop(action & 63)
        if action & REMOVE:
            return self._remove(action & 63)
        return self._move(action)

    def _move(self, action: int) -> Position:
        from_square = action & 63
        to_square = action >> 6 & 63
        promotion = action >> 12
        from_bb = 1 << from_square
        to_bb = 1 << to_square
        turn = self.turn
        pos = self._copy()
        piece_type = self.piece_type_at(from_square)
        captured = self.piece_type_at(to_square)
        if captured:
            pos._clear(captured, to_bb)
            if self.promoted & to_bb:
                pos.promoted &= ~to_bb
                if self.rules.blue_returns:
                    pos.blue = _pair(pos.blue, not turn, captured, +1)
        pos._clear(piece_type, from_bb)
        if promotion:
            pos._set(promotion, to_bb)
            pos.promoted |= to_bb
            pos.blue = _pair(pos.blue, turn, promotion, -1)
        else:
            pos._set(piece_type, to_bb)
            if self.promoted & from_bb:
                pos.promoted = (pos.promoted & ~from_bb) | to_bb
        pos.occupied = (pos.occupied & ~from_bb) | to_bb
        if turn:
            pos.white = (pos.white & ~from_bb) | to_bb
        else:
            pos.white &= ~to_bb
        pos.halfmove = 0 if captured or piece_type == PAWN else self.halfmove + 1
        pos.turn = not turn
        pos.must_move = False
        return pos

    def _clear(self, piece_type: int, bb: int) -> None:
        if piece_type == PAWN:
            self.pawns &= ~bb
        elif piece_type == KNIGHT:
            self.knights &= ~bb
        elif piece_type == BISHOP:
            self.bishops &= ~bb
        elif piece_type == ROOK:
            self.rooks &= ~bb
        elif piece_type == QUEEN:
            self.queens &= ~bb
        else:
            self.kings &= ~bb

    def _set(self, piece_type: int, bb: int) -> None:
        if piece_type == PAWN:
            self.pawns |= bb
        elif piece_type == KNIGHT:
            self.knights |= bb
        elif piece_type == BISHOP:
            self.bishops |= bb
        elif piece_type == ROOK:
            self.rooks |= bb
        elif piece_type == QUEEN:
            self.queens |= bb
        else:
            self.kings |= bb

    def _drop(self, square: int) -> Position:
        pos = self._copy()
        bb = 1 << square
        pos._set(CARD_PIECE[self.pending], bb)
        pos.occupied |= bb
        if self.turn:
            pos.white |= bb
        pos.pending = 0
        pos.halfmove = 0
        pos.turn = not self.turn
        pos.must_move = False
        return pos

    def _remove(self, square: int) -> Position:
        pos = self._copy()
        bb = 1 << square
        piece_type = self.piece_type_at(square)
        pos._clear(piece_type, bb)
        pos.occupied &= ~bb
        pos.white &= ~bb
        if self.promoted & bb:
            pos.promoted &= ~bb
            if self.rules.blue_returns:
                pos.blue = _pair(pos.blue, not self.turn, piece_type, +1)
        pos.pending = 0
        pos.halfmove = 0
        pos.turn = not self.turn
        pos.must_move = False
        return pos

    def passed(self) -> Position:
        """The turn passed with nothing placed (R8, R12): a null move."""
        pos = self._copy()
        pos.pending = 0
        pos.must_move = False
        pos.halfmove = self.halfmove + 1
        pos.turn = not self.turn
        return pos

    def can_flip(self) -> bool:
        """Whether the side to move may flip (the game not being over is the caller's)."""
        return not self.pending and not self.must_move and any(self.decks[self.turn])

    def flip(self, kind: int) -> tuple[int, Position | None]:
        """What flipping a card of ``kind`` leads to: an outcome (``PLACE``, ``PASS``...)
        and the position after it (``None`` for ``LOST``)."""
        turn = self.turn
        pos = self._copy()
        pos.decks = _pair(self.decks, turn, kind, -1)
        if kind == JOKER:
            if not self.rules.remove_joker:
                return EXTRA, pos
            if self.kings & self.side(turn):
                pos.pending = JOKER
                if pos.removal_mask():
                    return REMOVAL, pos
                if pos.in_check():
                    return pos._rescue_failed(JOKER)
                pos.pending = 0
            return PASS, pos.passed()
        pos.pending = kind
        if pos.drop_mask(kind):
            return PLACE, pos
        if pos.in_check():
            return pos._rescue_failed(kind)
        pos.pending = 0
        pos.decks = self.decks
        return PASS, pos.passed()

    def _rescue_failed(self, kind: int) -> tuple[int, Position | None]:
        if self.rules.failed_return:
            self.pending = 0
            self.decks = _pair(self.decks, self.turn, kind, +1)
            self.must_move = True
            return RETURNED, self
        return LOST, None

    def flip_outcomes(self) -> list[tuple[float, int, int, Position | None]]:
        """Every card a flip could bring: ``(chance, kind, outcome, position after)``,
        weighted by the deck's public counts (its order is unknown to everyone)."""
        deck = self.decks[self.turn]
        size = sum(deck)
        outcomes = []
        for kind in range(1, NUM_KINDS):
            count = deck[kind]
            if count:
                outcome, pos = self.flip(kind)
                outcomes.append((count / size, kind, outcome, pos))
        return outcomes

    # ------------------------------------------------------------------
    # The end

    def insufficient_material(self) -> bool:
        """R10: both decks empty, nothing pending, and then as in chess."""
        if any(self.decks[0]) or any(self.decks[1]) or self.pending:
            return False
        return all(self._insufficient(color) for color in (WHITE, BLACK))

    def _insufficient(self, color: bool) -> bool:
        ours = self.side(color)
        if ours & (self.pawns | self.rooks | self.queens):
            return False
        if ours & self.knights:
            return (ours.bit_count() <= 2
                    and not self.side(not color) & ~self.kings & ~self.queens)
        if ours & self.bishops:
            same = (not self.bishops & chess.BB_DARK_SQUARES) or \
                (not self.bishops & chess.BB_LIGHT_SQUARES)
            return bool(same) and not self.pawns and not self.knights
        return True

    def result(self, moves: list[int]) -> float | None:
        """The game's end for the side to move at a position with nothing pending, given
        its legal chess moves: 0 lost (checkmate), 0.5 drawn, ``None`` going on.

        Fivefold repetition is left to the search (it sees no history)."""
        if moves:
            if self.halfmove >= 150:
                return 0.5
            if not any(self.decks[0]) and not any(self.decks[1]) and \
                    self.insufficient_material():
                return 0.5
            return None
        if self.in_check():
            if self.must_move or not any(self.decks[self.turn]) or not self.rescue_possible():
                return 0.0
            return 0.5 if self.halfmove >= 150 else None
        if self.halfmove >= 150:
            return 0.5
        if not any(self.decks[self.turn]):
            return 0.5
        if not any(self.decks[0]) and not any(self.decks[1]) and self.insufficient_material():
            return 0.5
        return None
