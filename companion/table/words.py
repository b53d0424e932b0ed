"""Every sentence the companion says, for the screen and for speech alike.

The sentences the screen shows are the ones spoken: front ends take them from here and
never word the companion's turns themselves. A *description* is a turn without its side
(``"knight g8 to f6"``); a *sentence* has the side and a full stop (``"Black: knight g8
to f6."``).
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import chess

from companion.engine.contract import Analysis, Candidate, Proof
from companion.engine.words import chance_words
from companion.games.base import EMPTY, GameRules, IllegalTurn, Position, Step, TurnBuilder
from companion.rules import FlipOutcome, RaindropBoard, card_name, parse_card_letter

LOGGER = logging.getLogger(__name__)

STEP_SEARCH_LIMIT = 5_000
"""Builder steps tried at most to find how a turn is made step by step."""


def side_words(side: str) -> str:
    """A side or role as a sentence starts it: ``"Black"``, ``"Proposer"``."""
    return side[:1].upper() + side[1:]


def sentence(side: str, description: str) -> str:
    """``"Black: knight g8 to f6."``"""
    return f"{side_words(side)}: {description.rstrip('.')}."


# ----------------------------------------------------------------------
# Raindropchess


def chess_description(board: RaindropBoard, turn: str) -> str:
    """An engine's turn text (``flip``, ``N@e4``, ``g8f6``, ``e7e8q``, ``Jxe5``) at
    ``board`` in words: ``"flip a card"``, ``"place the knight on e4"``, ``"knight g8 to
    f6"``, ``"pawn e7 to e8, promoting to the blue queen"``, ``"remove the black knight
    on e5"``. An unreadable text is returned as it is."""
    text = turn.strip()
    if text == "flip":
        return "flip a card"
    if text[:2].lower() == "jx" and text[2:].lower() in chess.SQUARE_NAMES:
        square = chess.parse_square(text[2:].lower())
        return f"remove the {_piece(board, square)} on {chess.square_name(square)}"
    try:
        move = chess.Move.from_uci(text if "@" not in text else text[0].upper() + text[1:])
    except ValueError:
        return text
    return move_description(board, move)


def move_description(board: RaindropBoard, move: chess.Move) -> str:
    """A placement or a chess move at ``board`` (before it) in words."""
    to_name = chess.square_name(move.to_square)
    if move.drop:
        pending = board.pending
        name = card_name(parse_card_letter(pending)[0]) if pending else \
            chess.piece_name(move.drop)
        return f"place the {name} on {to_name}"
    piece = board.piece_at(move.from_square)
    mover = chess.piece_name(piece.piece_type) if piece is not None else "piece"
    if piece is not None and board.promoted & chess.BB_SQUARES[move.from_square]:
        mover = f"blue {mover}"
    words = f"{mover} {chess.square_name(move.from_square)} to {to_name}"
    if board.is_castling(move):
        words += ", castling"
    elif board.is_en_passant(move):
        words += ", taking the pawn en passant"
    else:
        victim = board.piece_at(move.to_square)
        if victim is not None:
            blue = "blue " if board.promoted & chess.BB_SQUARES[move.to_square] else ""
            words += f", taking the {blue}{chess.piece_name(victim.piece_type)}"
    if move.promotion:
        words += f", promoting to the blue {chess.piece_name(move.promotion)}"
    return words


def _piece(board: chess.Board, square: chess.Square) -> str:
    piece = board.piece_at(square)
    if piece is None:
        return "piece"
    blue = "blue " if board.promoted & chess.BB_SQUARES[square] else ""
    return f"{chess.COLOR_NAMES[piece.color]} {blue}{chess.piece_name(piece.piece_type)}"


_FLIP_SEQUELS = {
    FlipOutcome.UNPLACEABLE: "It cannot be placed anywhere: it goes to the bottom of the "
                             "deck and the turn ends.",
    FlipOutcome.RETURNED: "It cannot lift the check: it goes to the bottom of the deck; "
                          "{side} must lift the check with a move.",
    FlipOutcome.FAILED_RESCUE: "It cannot lift the check: {side} loses.",
    FlipOutcome.EXTRA_TURN: "Joker: {side} takes another turn.",
    FlipOutcome.REMOVE_PIECE: "Joker: {side} removes an opposing piece.",
    FlipOutcome.NO_EFFECT: "Joker: there is nothing {side} may remove; the turn ends.",
}


def flip_sentence(color: chess.Color, card: str, outcome: FlipOutcome) -> str:
    """``"White flips: a knight."``, and what the flip led to when it placed nothing."""
    side = side_words(chess.COLOR_NAMES[color])
    kind, _ = parse_card_letter(card)
    name = card_name(kind)
    article = "an" if name[:1] in "aeiou" else "a"
    text = f"{side} flips: {article} {name}."
    sequel = _FLIP_SEQUELS.get(outcome)
    return f"{text} {sequel.format(side=side)}" if sequel else text


def check_sentence(color: chess.Color) -> str:
    """``"Check: Black is in check."``"""
    return f"Check: {side_words(chess.COLOR_NAMES[color])} is in check."


# ----------------------------------------------------------------------
# The abstract games


def turn_steps(rules: GameRules[Any], pos: Position, turn: str) -> tuple[Step, ...]:
    """The steps that make ``turn`` from ``pos``, found through the game's step-wise
    builder: first following steps whose texts spell the turn's text, then steps whose
    changes agree with the position after it; empty when neither reaches it within
    :data:`STEP_SEARCH_LIMIT` steps."""
    try:
        canonical = rules.canonical_turn(pos, turn)
        target = rules.play(pos, canonical).cells()
    except (IllegalTurn, ValueError):
        return ()
    spelled = canonical.replace(" ", "")

    def by_text(builder: TurnBuilder[Any], step: Step) -> bool:
        done = "".join(s.text for s in builder.steps) + step.text
        return spelled.startswith(done.replace(" ", ""))

    def by_changes(builder: TurnBuilder[Any], step: Step) -> bool:
        return all(target.get(cell, EMPTY) == value for cell, value in step.changes.items())

    for keep in (by_text, by_changes):
        found = _steps_to(rules, pos, canonical, keep)
        if found:
            return found
    return ()


def _steps_to(rules: GameRules[Any], pos: Position, canonical: str,
              keep: Callable[[TurnBuilder[Any], Step], bool]) -> tuple[Step, ...]:
    stack = [rules.builder(pos)]
    tried = 0
    while stack and tried < STEP_SEARCH_LIMIT:
        builder = stack.pop()
        tried += 1
        if builder.steps and builder.complete:
            try:
                if builder.turn() == canonical:
                    return builder.steps
            except IllegalTurn:
                pass
        for step in reversed(builder.next_steps()):
            if keep(builder, step):
                try:
                    stack.append(builder.add(step))
                except IllegalTurn:
                    continue
    return ()


def games_description(rules: GameRules[Any], pos: Position, turn: str) -> str:
    """An abstract game's turn in words, from its steps' notes (``"drop on the White stone
    on d5, push the white stone to c5, put a free White stone on g5"``); the turn text
    itself where the steps have no notes."""
    steps = turn_steps(rules, pos, turn)
    notes = [step.note for step in steps if step.note]
    if not steps or len(notes) != len(steps):
        return turn.strip()
    return ", ".join(_first_clause(note, pos.to_move) for note in notes)


def _first_clause(note: str, mover: str) -> str:
    """A step's note without its parenthesis (Rumbo's komi advice), and without naming
    the mover again (the sentence starts with it): short enough to say."""
    head, _, _ = note.partition(" (")
    own = f"the {mover} "
    if head.lower().startswith(own):
        head = head[len(own):]
    return head.rstrip(". ")


def claim_sentence(side: str, claim: str) -> str:
    return f"{side_words(side)} claims: {claim}."


def offer_sentence(side: str) -> str:
    return f"{side_words(side)} offers a draw."


def draw_answer_sentence(side: str, accepted: bool) -> str:
    return f"{side_words(side)} {'accepts' if accepted else 'declines'} the draw."


def result_sentence(winner: str | None, reason: str) -> str:
    """The verdict and its reason: ``"Game over: Black wins (Black's largest group is
    12, White's 9)."``; ``"Game over: a draw (draw agreed)."``"""
    reason = reason.strip().rstrip(".")
    who = f"{side_words(winner)} wins" if winner else "a draw"
    return f"Game over: {who}" + (f" ({reason})." if reason else ".")


def verdict_sentence(description: str) -> str:
    """A Raindropchess outcome's ``describe()`` as the verdict: ``"Game over: Black wins by
    checkmate."``"""
    return f"Game over: {description.strip().rstrip('.')}."


# ----------------------------------------------------------------------
# Thinking, hints


def thinking_sentence(side: str, level_number: int) -> str:
    return f"{side_words(side)} is thinking (level {level_number})..."


def estimate(candidate: Candidate, mover: str, other: str) -> str:
    """The mover's chances after a turn, in words."""
    return chance_words(candidate.value, mover, other, proof=candidate.proof)


def hint_sentences(analysis: Analysis, descriptions: Sequence[str], count: int) -> list[str]:
    """The hint said to the players: the best turn first, then the others."""
    mover = analysis.mover
    other = analysis.notes.get("opponent", "the opponent")
    lines: list[str] = []
    for number, (candidate, words) in enumerate(
            zip(analysis.candidates[:count], descriptions, strict=False), start=1):
        chances = estimate(candidate, mover, other)
        if number == 1:
            lines.append(f"Hint for {side_words(mover)}: {words}. {chances}.")
        else:
            lines.append(f"Or {words}: {chances}.")
    return lines


def proof_words(proof: Proof | None) -> str:
    return {Proof.WIN: "a proven win", Proof.LOSS: "a proven loss",
            Proof.DRAW: "a proven draw"}.get(proof, "") if proof else ""


def changed_cells(before: Mapping[str, str], after: Mapping[str, str]) -> tuple[str, ...]:
    """The cells whose content differs, in the order of ``before`` then new ones."""
    return tuple(cell for cell in itertools.chain(before, (c for c in after if c not in before))
                 if before.get(cell, ".") != after.get(cell, "."))
