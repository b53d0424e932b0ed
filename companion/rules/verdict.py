"""The mate verdict: "is this checkmate?" with the leaflet's four conditions (R9).

The verdict is judged on public information only: the position and the
contents of the deck, never its order.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import chess

from companion.rules.board import RaindropBoard
from companion.rules.letters import JOKER, card_name, parse_card_letter

CONDITION_NAMES = (
    "the king is attacked",
    "the king cannot go to a square where it is not attacked",
    "the attacking piece cannot be captured",
    "no piece can be placed between the king and the attackers",
)


@dataclasses.dataclass(frozen=True)
class Condition:
    """One of the leaflet's four conditions: whether it holds, and why."""

    number: int
    name: str
    holds: bool
    reason: str


@dataclasses.dataclass(frozen=True)
class RescueCard:
    """A card left in the deck that would lift the check if flipped."""

    card: str                       # RFEN letter
    copies: int                     # how many are left in the deck
    squares: tuple[chess.Square, ...]  # where it blocks (or, a joker, what it removes)
    effect: str                     # in words


@dataclasses.dataclass(frozen=True)
class MateVerdict:
    """Whether the side to move is checkmated, and why (R9).

    ``rescue_probability`` is the exact chance that flipping now lifts the
    check: the share of the deck's cards that block (or, with remove-piece
    jokers, remove the checker); extra-turn jokers only lead to another flip,
    so they count as neither.
    """

    side: chess.Color
    checkmate: bool
    failed_rescue: bool
    conditions: tuple[Condition, Condition, Condition, Condition]
    king: chess.Square | None
    checkers: tuple[chess.Square, ...]
    escapes: tuple[chess.Move, ...]
    captures: tuple[chess.Move, ...]
    interpositions: tuple[chess.Move, ...]
    rescue_cards: tuple[RescueCard, ...]
    deck_size: int
    flip_allowed: bool
    rescue_probability: Fraction
    summary: str

    def explain(self) -> str:
        """The verdict as lines of text for players."""
        lines = [self.summary]
        for condition in self.conditions:
            mark = "yes" if condition.holds else "no "
            lines.append(f"  {condition.number}. [{mark}] {condition.name}: {condition.reason}")
        if self.rescue_cards:
            lines.append("  Rescuing cards in the deck:")
            for rescue in self.rescue_cards:
                lines.append(f"    {rescue.card} x{rescue.copies}: {rescue.effect}")
        if self.conditions[0].holds and self.deck_size and self.flip_allowed:
            lines.append(f"  Chance a flip now lifts the check: {self.rescue_probability}"
                         f" ({float(self.rescue_probability):.1%})")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (squares and moves as names and UCI)."""
        return {
            "side": chess.COLOR_NAMES[self.side],
            "checkmate": self.checkmate,
            "failed_rescue": self.failed_rescue,
            "summary": self.summary,
            "conditions": [
                {"number": c.number, "name": c.name, "holds": c.holds, "reason": c.reason}
                for c in self.conditions],
            "king": chess.square_name(self.king) if self.king is not None else None,
            "checkers": [chess.square_name(sq) for sq in self.checkers],
            "escapes": [m.uci() for m in self.escapes],
            "captures": [m.uci() for m in self.captures],
            "interpositions": [m.uci() for m in self.interpositions],
            "rescue_cards": [
                {"card": r.card, "copies": r.copies,
                 "squares": [chess.square_name(sq) for sq in r.squares], "effect": r.effect}
                for r in self.rescue_cards],
            "deck_size": self.deck_size,
            "flip_allowed": self.flip_allowed,
            "rescue_probability": str(self.rescue_probability),
        }


def _piece_on(board: RaindropBoard, square: chess.Square) -> str:
    piece = board.piece_at(square)
    if piece is None:
        return f"nothing on {chess.square_name(square)}"
    blue = "blue " if board.is_blue(square) else ""
    return f"the {blue}{chess.piece_name(piece.piece_type)} on {chess.square_name(square)}"


def _names(squares: chess.Bitboard | tuple[chess.Square, ...]) -> str:
    items = chess.scan_forward(squares) if isinstance(squares, int) else squares
    return ", ".join(chess.square_name(sq) for sq in items)


def mate_verdict(board: RaindropBoard) -> MateVerdict:
    """Judge whether the side to move is checkmated (see :class:`MateVerdict`)."""
    side = board.turn
    side_name = chess.COLOR_NAMES[side].capitalize()
    deck_size = board.deck_size(side)
    king = board.king(side)
    flip_allowed = not board.pending and not board.must_move and deck_size > 0

    if king is None:
        reason = f"{side_name}'s king is not on the board yet"
        return _not_in_check(board, side, reason, deck_size, flip_allowed)
    checkers_mask = board.attackers_mask(not side, king)
    if not checkers_mask:
        reason = f"{side_name}'s king on {chess.square_name(king)} is not attacked"
        return _not_in_check(board, side, reason, deck_size, flip_allowed, king)

    checkers = tuple(chess.scan_forward(checkers_mask))
    legal = list(board.generate_legal_moves())
    escapes = tuple(m for m in legal if m.from_square == king)
    captures = tuple(m for m in legal if m.to_square in checkers)
    between = chess.between(king, checkers[0]) if len(checkers) == 1 else 0
    interpositions = tuple(m for m in legal if m.from_square != king
                           and chess.BB_SQUARES[m.to_square] & between)

    # 1. The king is attacked.
    attackers = " and ".join(_piece_on(board, sq) for sq in checkers)
    cond1 = Condition(1, CONDITION_NAMES[0], True,
                      f"the king on {chess.square_name(king)} is attacked by {attackers}"
                      + (" (double check)" if len(checkers) > 1 else ""))

    # 2. No escape square.
    cond2 = Condition(2, CONDITION_NAMES[1], not escapes, _escape_reason(board, king, escapes))

    # Cards in the deck that would lift the check.
    rescues = _rescue_cards(board) if flip_allowed else ()
    joker_removes = tuple(r for r in rescues if r.card.lower() == "j" and r.squares)
    blockers = tuple(r for r in rescues if r.card.lower() != "j")
    pending_removals = tuple(board.legal_removals())  # a flipped remove-piece joker

    # 3. The checker cannot be captured.
    if captures or joker_removes or pending_removals:
        parts = []
        if captures:
            parts.append("it can be captured: " + ", ".join(board.san(m) for m in captures))
        if joker_removes:
            parts.append(f"a joker in the deck could remove {_piece_on(board, checkers[0])}")
        if pending_removals:
            parts.append(f"the flipped joker can remove {_piece_on(board, checkers[0])}")
        cond3 = Condition(3, CONDITION_NAMES[2], False, "; ".join(parts))
    elif len(checkers) > 1:
        cond3 = Condition(3, CONDITION_NAMES[2], True,
                          "two pieces give check; no single capture removes both")
    else:
        cond3 = Condition(3, CONDITION_NAMES[2], True,
                          f"no piece can capture {_piece_on(board, checkers[0])}")

    # 4. Nothing can be placed or moved between.
    cond4 = _interposition_condition(board, king, checkers, interpositions, blockers,
                                     flip_allowed, deck_size)

    failed = board.is_failed_rescue()
    checkmate = not failed and not legal and not rescues and not board.pending
    probability = _rescue_probability(board, rescues) if flip_allowed else Fraction(0)
    summary = _summary(board, side_name, checkmate, failed, legal, rescues, probability,
                       flip_allowed)
    return MateVerdict(
        side=side, checkmate=checkmate, failed_rescue=failed,
        conditions=(cond1, cond2, cond3, cond4), king=king, checkers=checkers,
        escapes=escapes, captures=captures, interpositions=interpositions,
        rescue_cards=rescues, deck_size=deck_size, flip_allowed=flip_allowed,
        rescue_probability=probability, summary=summary)


def _not_in_check(board: RaindropBoard, side: chess.Color, reason: str, deck_size: int,
                  flip_allowed: bool, king: chess.Square | None = None) -> MateVerdict:
    na = "not applicable: no check"
    conditions = (
        Condition(1, CONDITION_NAMES[0], False, reason),
        Condition(2, CONDITION_NAMES[1], False, na),
        Condition(3, CONDITION_NAMES[2], False, na),
        Condition(4, CONDITION_NAMES[3], False, na),
    )
    return MateVerdict(
        side=side, checkmate=False, failed_rescue=False, conditions=conditions, king=king,
        checkers=(), escapes=(), captures=(), interpositions=(), rescue_cards=(),
        deck_size=deck_size, flip_allowed=flip_allowed, rescue_probability=Fraction(0),
        summary=f"Not checkmate: {reason}.")


def _escape_reason(board: RaindropBoard, king: chess.Square,
                   escapes: tuple[chess.Move, ...]) -> str:
    if escapes:
        return "it can go to " + ", ".join(chess.square_name(m.to_square) for m in escapes)
    if board.pending:
        waits = "its removal" if board.pending in ("J", "j") else "placement"
        return f"the king may not move while the flipped {_pending_name(board)} awaits {waits}"
    reasons = []
    occupied = board.occupied & ~chess.BB_SQUARES[king]
    for square in chess.scan_forward(chess.BB_KING_ATTACKS[king]):
        name = chess.square_name(square)
        piece = board.piece_at(square)
        if piece is not None and piece.color == board.turn:
            reasons.append(f"{name} is taken by its own {chess.piece_name(piece.piece_type)}")
            continue
        attackers = board.attackers_mask(not board.turn, square, occupied) \
            & board.occupied_co[not board.turn]
        if attackers:
            reasons.append(f"{name} is attacked by {_piece_on(board, chess.msb(attackers))}")
    return "; ".join(reasons) if reasons else "it has no square to go to"


def _rescue_cards(board: RaindropBoard) -> tuple[RescueCard, ...]:
    found = board.rescue_cards()
    cards = []
    for letter, squares in found.items():
        kind, _color = parse_card_letter(letter)
        copies = board.deck_count(letter)
        if kind == JOKER:
            if squares:
                effect = f"remove {_piece_on(board, next(iter(squares)))}"
            else:
                effect = "an extra turn, then flip again"
        else:
            effect = f"a {card_name(kind)} placed on {_names(tuple(squares))} blocks"
        cards.append(RescueCard(letter, copies, tuple(squares), effect))
    return tuple(cards)


def _interposition_condition(board: RaindropBoard, king: chess.Square,
                             checkers: tuple[chess.Square, ...],
                             interpositions: tuple[chess.Move, ...],
                             blockers: tuple[RescueCard, ...], flip_allowed: bool,
                             deck_size: int) -> Condition:
    name = CONDITION_NAMES[3]
    moves = tuple(m for m in interpositions if not m.drop)
    drops = tuple(m for m in interpositions if m.drop)
    if interpositions or blockers:
        parts = []
        if moves:
            parts.append("a piece can move between: " + ", ".join(board.san(m) for m in moves))
        if drops:
            parts.append(f"the flipped {_pending_name(board)} can be placed between: "
                         + _names(tuple(m.to_square for m in drops)))
        if blockers:
            parts.append("cards in the deck could be placed between: "
                         + "; ".join(f"{r.card} on {_names(r.squares)}" for r in blockers))
        return Condition(4, name, False, "; ".join(parts))
    if len(checkers) > 1:
        return Condition(4, name, True, "a double check cannot be blocked")
    checker_piece = board.piece_type_at(checkers[0])
    if checker_piece in (chess.KNIGHT, chess.PAWN):
        return Condition(4, name, True,
                         f"a {chess.piece_name(checker_piece)}'s check cannot be blocked")
    gap = chess.between(king, checkers[0]) & ~board.occupied
    if not gap:
        return Condition(4, name, True, "the checking piece is adjacent: there is no square "
                                        "between")
    gaps = _names(gap)
    if board.pending in ("J", "j"):
        return Condition(4, name, True, f"no piece on the board can reach {gaps}, and the "
                                        f"flipped joker is not placed")
    if board.pending:
        return Condition(4, name, True, f"no piece on the board can reach {gaps}, and the "
                                        f"flipped {_pending_name(board)} may not be placed "
                                        f"there")
    if board.must_move:
        return Condition(4, name, True, f"no piece on the board can reach {gaps}, and after the "
                                        f"failed rescue flip no card may be flipped this turn")
    if not flip_allowed or not deck_size:
        return Condition(4, name, True, f"no piece on the board can reach {gaps}, and the deck "
                                        f"is empty")
    return Condition(4, name, True, f"no piece on the board can reach {gaps}, and no card left "
                                    f"in the deck may be placed there")


def _pending_name(board: RaindropBoard) -> str:
    letter = board.pending
    return card_name(parse_card_letter(letter)[0]) if letter else "card"


def _rescue_probability(board: RaindropBoard, rescues: tuple[RescueCard, ...]) -> Fraction:
    total = board.deck_size(board.turn)
    if not total:
        return Fraction(0)
    jokers = board.deck_count("J" if board.turn == chess.WHITE else "j")
    good = sum(r.copies for r in rescues if r.card.lower() != "j")
    if board.rules.joker_effect == "remove_piece":
        if any(r.card.lower() == "j" for r in rescues):
            good += jokers
        return Fraction(good, total)
    # Extra-turn jokers lead to another flip: the first non-joker card decides.
    others = total - jokers
    return Fraction(good, others) if others else Fraction(0)


def _summary(board: RaindropBoard, side_name: str, checkmate: bool, failed: bool,
             legal: list[chess.Move], rescues: tuple[RescueCard, ...], probability: Fraction,
             flip_allowed: bool) -> str:
    if failed:
        return (f"{side_name} has lost: the card flipped in check cannot lift it "
                f"(failed rescue, R7).")
    if checkmate:
        return f"Checkmate: {side_name} cannot lift the check."
    if board.pending and not legal:
        return (f"Not checkmate: the flipped joker can remove "
                f"{_piece_on(board, next(iter(board.legal_removals())))}.")
    if board.pending:
        return (f"Not checkmate: the flipped {_pending_name(board)} can be placed to block "
                f"({len(legal)} squares).")
    parts = []
    if legal:
        parts.append(f"{len(legal)} move(s) lift the check")
    if rescues:
        copies = sum(r.copies for r in rescues if r.card.lower() != "j" or r.squares)
        parts.append(f"{copies} card(s) in the deck could rescue; a flip now rescues with "
                     f"chance {probability}")
    if not flip_allowed and board.must_move:
        parts.append("no flip is allowed this turn (failed rescue, R7)")
    return "Not checkmate: " + "; ".join(parts) + "."
