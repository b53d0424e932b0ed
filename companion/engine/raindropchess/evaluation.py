"""What a Raindropchess position is worth to the side to move, without searching.

The evaluation knows the game, not just chess:

- material on the board and still to come in each deck (a card is a piece
  that will be placed later: worth a little less, but safe from capture);
- a king not yet placed: its side cannot capture, so its pieces under attack
  are as good as lost, and it needs a square to stand on;
- a king on the board: the squares beside it where a piece flipped by the
  other side would stand protected, its escape squares, and how strong the
  other side's deck is (a queen or a rook still to come is a drop threat);
- pawns near promotion while blue pieces are left (none left: a pawn on the
  seventh rank is stuck);
- mobility.

Scores are centipawns for the side to move; :func:`win_chance` turns them
into an expected score, the unit the search works in (a flip is weighed by
chance, and chances average; centipawns do not).
"""

from __future__ import annotations

import logging
import math

import chess

from companion.engine.raindropchess.position import (
    BISHOP,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    Position,
    piece_attacks,
)
from companion.rules.letters import JOKER, NUM_KINDS

LOGGER = logging.getLogger(__name__)

VALUE = (0, 100, 310, 330, 500, 950, 0)
"""Centipawns of a piece on the board, by python-chess piece type."""

DECK_SHARE = 0.75
"""A card in the deck, as a share of its piece's worth on the board (fitted)."""

JOKER_VALUE = {False: 70, True: 260}
"""A joker in the deck: an extra turn (``False``), or a removal (``True``)."""

CARD_VALUE = tuple(VALUE[kind] if kind <= KING else VALUE[BISHOP] for kind in range(NUM_KINDS))
"""A card in the deck by card kind, at its piece's worth (joker apart)."""

MOBILITY = (0, 0, 4, 4, 2, 1, 0)
"""Centipawns per square a piece attacks (not its own side's), by piece type."""

PAWN_RANK = (0, 0, 4, 10, 18, 30, 45, 0)
"""A pawn's bonus by how far it has come (its own side's rank, 0 = first)."""
PROMOTION_NEAR = (0, 0, 0, 0, 0, 30, 110, 0)
"""Extra for a pawn one or two steps from promoting while a blue piece is left."""

HANGING_SHARE = 0.8
"""A side without its king cannot capture or recapture: what is attacked is lost."""

TEMPO = 150
"""The side to move's edge: it is about to place a card or make a move (fitted)."""
DRAW_CLOCK = 200
"""A lead shrinks linearly with the halfmove clock past 8: to 0.29 at 150 (the move rule)."""
MOP_UP = 600
"""A lead (centipawns) from which the side ahead also drives the other king to the edge."""
SCALE = 700.0
"""Centipawns per unit of log-odds of winning (fitted to game results; chess's Elo scale
would be 400 / ln 10 = 174: Raindropchess's cards make a lead far less certain)."""

_KING_ATT = chess.BB_KING_ATTACKS
_KNIGHT_ATT = chess.BB_KNIGHT_ATTACKS
_DIAG_ATT = chess.BB_DIAG_ATTACKS
_DIAG_MASK = chess.BB_DIAG_MASKS
_RANK_ATT = chess.BB_RANK_ATTACKS
_RANK_MASK = chess.BB_RANK_MASKS
_FILE_ATT = chess.BB_FILE_ATTACKS
_FILE_MASK = chess.BB_FILE_MASKS


_KNEE = SCALE * math.log(49.0)
"""Where the logistic reaches 0.98; beyond, a slow approach to 0.998 keeps big leads apart."""
_TAIL = 1500.0


def win_chance(centipawns: float) -> float:
    """The expected score (0.002 to 0.998) of a side ``centipawns`` ahead.

    A logistic of scale :data:`SCALE`, fitted to game results; past 0.98 (or below
    0.02) a slow approach to 0.998, so that a side far ahead still prefers being
    further ahead, and a proven win (1) stays above every evaluation.
    """
    if centipawns > _KNEE:
        return 0.98 + 0.018 * (1.0 - math.exp((_KNEE - centipawns) / _TAIL))
    if centipawns < -_KNEE:
        return 0.02 - 0.018 * (1.0 - math.exp((_KNEE + centipawns) / _TAIL))
    return 1.0 / (1.0 + math.exp(-centipawns / SCALE))


_DECK_VALUES: dict[tuple[tuple[int, ...], bool], float] = {}


def deck_value(pos: Position, color: bool) -> float:
    """What the cards left in ``color``'s deck are worth."""
    deck = pos.decks[color]
    remove = pos.rules.remove_joker
    value = _DECK_VALUES.get((deck, remove))
    if value is None:
        value = 0.0
        for kind in range(1, NUM_KINDS):
            count = deck[kind]
            if count:
                value += count * (JOKER_VALUE[remove] if kind == JOKER else CARD_VALUE[kind])
        if len(_DECK_VALUES) > 100_000:
            _DECK_VALUES.clear()
        _DECK_VALUES[(deck, remove)] = value
    return value


_RANKS = tuple(0xFF << (8 * rank) for rank in range(8))
_FILE_A = 0x0101010101010101
_FILE_H = _FILE_A << 7
_ALL = (1 << 64) - 1
_PAWN_BONUS = tuple(
    tuple(tuple((PAWN_RANK[rank] + (PROMOTION_NEAR[rank] if blue else (-40 if rank == 6 else 0)))
                for rank in range(8)) for blue in (False, True)))
"""A pawn's progress bonus: ``[blue pieces left][its own side's rank]``."""


TERMS = ("board material", "deck material", "mobility", "pawn progress", "king danger",
         "no king yet", "king on the board", "tempo")
"""The evaluation's terms, each the side to move's minus the other side's (tempo: 1)."""

WEIGHTS = (1.0, DECK_SHARE, 0.0, 1.7, -2.0, -1.2, 0.0, TEMPO)
"""Centipawns per unit of each term (board material is the unit), fitted to the results
of 116 engine games (``benchmarks/fit_raindrop_eval.py``, seeds 100-215): mobility and
whether the king is on the board told nothing the other terms did not, and are left out
(placements still try the most active squares first)."""


def evaluate(pos: Position) -> float:
    """Centipawns for the side to move (positive: better for it)."""
    raw = terms(pos)
    score = (raw[0] + WEIGHTS[1] * raw[1] + WEIGHTS[2] * raw[2] + WEIGHTS[3] * raw[3]
             + WEIGHTS[4] * raw[4] + WEIGHTS[5] * raw[5] + WEIGHTS[6] * raw[6] + WEIGHTS[7])
    if score > MOP_UP or score < -MOP_UP:
        winner = pos.turn if score > 0 else not pos.turn
        score += _mop_up(pos, winner) * (1 if score > 0 else -1)
    if pos.halfmove > 8:
        # The seventy-five-move rule comes closer: a lead is worth less and less, so the
        # side ahead places, captures or pushes a pawn rather than shuffling (the engine
        # sees no history, so it cannot count repetitions; the clock is in the RFEN).
        score *= (DRAW_CLOCK - min(pos.halfmove, 150) + 8) / DRAW_CLOCK
    return score


def terms(pos: Position) -> tuple[float, float, float, float, float, float, float, float]:
    """The evaluation's raw terms (:data:`TERMS`), for the side to move."""
    turn = pos.turn
    occ = pos.occupied
    white = pos.white
    black = occ & ~white
    kings = pos.kings
    knight_table = _KNIGHT_ATT
    diag, diag_mask = _DIAG_ATT, _DIAG_MASK
    rank_att, rank_mask, file_att, file_mask = _RANK_ATT, _RANK_MASK, _FILE_ATT, _FILE_MASK
    material = [0.0, 0.0]  # black, white
    mobility = [0.0, 0.0]
    progress = [0.0, 0.0]
    attacks = [0, 0]
    queens = pos.queens
    for color, ours in ((False, black), (True, white)):
        total = 0.0
        moves = 0.0
        # Pawns: as a whole, by shifts.
        pawns = pos.pawns & ours
        if pawns:
            if color:
                seen = ((pawns << 7) & ~_FILE_H | (pawns << 9) & ~_FILE_A) & _ALL
            else:
                seen = (pawns >> 9) & ~_FILE_H | (pawns >> 7) & ~_FILE_A
            bonus = _PAWN_BONUS[any(pos.blue[color][1:])]
            total += 100 * pawns.bit_count()
            ahead = 0.0
            for rank in range(1, 7):
                on_rank = pawns & _RANKS[rank]
                if on_rank:
                    ahead += on_rank.bit_count() * bonus[rank if color else 7 - rank]
            progress[color] = ahead
        else:
            seen = 0
        free = ~ours
        mask = pos.knights & ours
        while mask:
            low = mask & -mask
            reach = knight_table[low.bit_length() - 1]
            seen |= reach
            total += 310
            moves += 4 * (reach & free).bit_count()
            mask ^= low
        mask = (pos.bishops | queens) & ours
        while mask:
            low = mask & -mask
            square = low.bit_length() - 1
            reach = diag[square][diag_mask[square] & occ]
            if queens & low:
                reach |= (rank_att[square][rank_mask[square] & occ]
                          | file_att[square][file_mask[square] & occ])
                total += 950
                moves += (reach & free).bit_count()
            else:
                total += 330
                moves += 4 * (reach & free).bit_count()
            seen |= reach
            mask ^= low
        mask = pos.rooks & ours
        while mask:
            low = mask & -mask
            square = low.bit_length() - 1
            reach = (rank_att[square][rank_mask[square] & occ]
                     | file_att[square][file_mask[square] & occ])
            total += 500
            moves += 2 * (reach & free).bit_count()
            seen |= reach
            mask ^= low
        king_bb = kings & ours
        if king_bb:
            seen |= _KING_ATT[king_bb.bit_length() - 1]
        attacks[color] = seen
        material[color] = total
        mobility[color] = moves
    danger = [0.0, 0.0]
    kingless = [0.0, 0.0]
    placed = [0.0, 0.0]
    for color, ours in ((False, black), (True, white)):
        them = not color
        king_bb = kings & ours
        if king_bb:
            placed[color] = 1.0
            danger[color] = _king_danger(pos, color, king_bb.bit_length() - 1, ours,
                                         attacks[them])
        else:
            kingless[color] = _kingless(pos, color, ours, attacks[them],
                                        bool(kings & (white if them else black)),
                                        color == turn)
    other = not turn
    return (material[turn] - material[other],
            deck_value(pos, turn) - deck_value(pos, other),
            mobility[turn] - mobility[other],
            progress[turn] - progress[other],
            danger[turn] - danger[other],
            kingless[turn] - kingless[other],
            placed[turn] - placed[other],
            1.0)


def _mop_up(pos: Position, winner: bool) -> float:
    """Far ahead, and the other side has no card left to drop near one's king: drive its
    king to the edge, and bring one's own king closer."""
    loser_king = pos.king_square(not winner)
    if loser_king < 0 or any(pos.decks[not winner]):
        return 0.0
    file, rank = loser_king & 7, loser_king >> 3
    bonus = 10.0 * (max(3 - file, file - 4) + max(3 - rank, rank - 4))
    winner_king = pos.king_square(winner)
    if winner_king >= 0:
        bonus += 4.0 * (14 - abs((winner_king & 7) - file) - abs((winner_king >> 3) - rank))
    return bonus


def _king_danger(pos: Position, color: bool, king: int, ours: int, their_attacks: int) -> float:
    """The cost of a king on the board being exposed to the other side's flips and pieces."""
    zone = _KING_ATT[king]
    empty = ~pos.occupied
    danger = (zone & empty & their_attacks).bit_count()
    escapes = (zone & ~ours & ~their_attacks).bit_count()
    deck = pos.decks[not color]
    size = sum(deck)
    if size:
        strong = (deck[QUEEN] * 3 + deck[ROOK] * 2 + deck[BISHOP] + deck[8] + deck[9]
                  + deck[KNIGHT]) / size
        threat = 0.5 + 1.5 * min(1.0, strong * 2)
    else:
        threat = 0.5
    penalty = danger * 22 * threat + (zone & their_attacks).bit_count() * 6
    if escapes == 0:
        penalty += 35 * threat
    elif escapes == 1:
        penalty += 12 * threat
    # Open lines to the king where a flipped slider would give check from afar.
    if size:
        open_lines = (piece_attacks(QUEEN, color, king, pos.occupied) & empty & ~zone).bit_count()
        penalty += open_lines * 1.5 * threat
    return penalty


def _kingless(pos: Position, color: bool, ours: int, their_attacks: int, their_king: bool,
              to_move: bool) -> float:
    """The cost of having no king on the board yet."""
    penalty = 0.0
    # Nowhere safe to stand: the king card would go back under the deck.
    safe = (~pos.occupied & ~their_attacks & ((1 << 64) - 1)).bit_count()
    if safe == 0:
        penalty += 60
    elif safe < 4:
        penalty += 25
    if their_king and to_move:
        # The other side will capture the best piece under attack (none of ours can
        # recapture without a king); the side to move can do nothing about it but flip.
        hanging = ours & their_attacks
        best = 0
        while hanging:
            low = hanging & -hanging
            value = VALUE[pos.piece_type_at(low.bit_length() - 1)]
            best = max(best, value)
            hanging ^= low
        penalty += best * HANGING_SHARE
    return penalty


def placement_order(pos: Position, mask: int) -> list[tuple[float, int]]:
    """The squares of ``mask`` for the pending card, best guesses first, with a score.

    Cheap: what the piece would attack and whether it would stand safely, not a
    search; the search tries the best of these first and, deep in the tree,
    only the best few.
    """
    turn = pos.turn
    kind = pos.pending
    piece_type = _CARD_PIECE[kind]
    occ = pos.occupied
    ours = pos.side(turn)
    theirs = occ & ~ours
    their_king_bb = pos.kings & theirs
    our_king = bool(pos.kings & ours)
    their_king = bool(their_king_bb)
    value = VALUE[piece_type]
    scored: list[tuple[float, int]] = []
    score: float
    if piece_type == KING:
        their_attacks = _side_attacks(pos, not turn)
        while mask:
            low = mask & -mask
            square = low.bit_length() - 1
            mask ^= low
            zone = _KING_ATT[square]
            score = (-(zone & their_attacks).bit_count() * 30
                     - (zone & ~occ & ((1 << 64) - 1)).bit_count() * 4
                     + (zone & ours).bit_count() * 6)
            scored.append((score, square))
        scored.sort(reverse=True)
        return scored
    their_attacks = _side_attacks(pos, not turn) if their_king else 0
    our_attacks = _side_attacks(pos, turn)
    while mask:
        low = mask & -mask
        square = low.bit_length() - 1
        mask ^= low
        reach = piece_attacks(piece_type, turn, square, occ)
        score = (reach & ~ours).bit_count() * 2.0
        if reach & their_king_bb:
            score += 400
        if our_king:
            targets = reach & theirs & ~their_king_bb
            while targets:
                t_low = targets & -targets
                victim = VALUE[pos.piece_type_at(t_low.bit_length() - 1)]
                if victim > value or not their_attacks & t_low:
                    score += victim * 0.3
                targets ^= t_low
        if their_attacks & low:
            attacker = _cheapest_attacker(pos, not turn, square)
            if not our_attacks & low or attacker < value:
                score -= value * (0.9 if our_king else 1.0)
        if piece_type == PAWN:
            rank = square >> 3 if turn else 7 - (square >> 3)
            score += PAWN_RANK[rank] + 2 * PROMOTION_NEAR[rank]
        scored.append((score, square))
    scored.sort(reverse=True)
    return scored


_CARD_PIECE = (0, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, 0, BISHOP, BISHOP)


def _side_attacks(pos: Position, color: bool) -> int:
    seen = 0
    occ = pos.occupied
    mask = pos.side(color)
    while mask:
        low = mask & -mask
        square = low.bit_length() - 1
        mask ^= low
        seen |= piece_attacks(pos.piece_type_at(square), color, square, occ)
    return seen


def _cheapest_attacker(pos: Position, color: bool, square: int) -> int:
    attackers = pos.attackers(color, square)
    best = 10_000
    while attackers:
        low = attackers & -attackers
        piece_type = pos.piece_type_at(low.bit_length() - 1)
        best = min(best, 2000 if piece_type == KING else VALUE[piece_type])
        attackers ^= low
    return best
