"""The search's position follows the rules engine action by action, under every house rule.

Random games are played on a ``RaindropBoard``; at every position the search's
:class:`Position` must offer the same chess moves, placements, removals and
flip outcomes, lead to the same positions, and see the same ends.
"""

from __future__ import annotations

import os
import random

import chess
import pytest

from companion.engine.raindropchess.position import (
    DROP,
    EXTRA,
    LOST,
    PASS,
    PLACE,
    REMOVAL,
    REMOVE,
    RETURNED,
    Position,
    iter_bits,
)
from companion.rules import FlipOutcome, HouseRules, RaindropBoard, card_letter, mate_verdict
from companion.rules.letters import JOKER

HOUSE_RULES = {
    "default": HouseRules(),
    "jokers_extra": HouseRules(jokers_per_deck=2),
    "jokers_remove": HouseRules(jokers_per_deck=2, joker_effect="remove_piece"),
    "return": HouseRules(failed_rescue="return", jokers_per_deck=1,
                         joker_effect="remove_piece"),
    "coloured": HouseRules(coloured_bishop_cards=True, jokers_per_deck=1),
    "blue_back": HouseRules(blue_returns_when_captured=True, blue_pieces="QN"),
}

FLIP_OUTCOMES = {
    FlipOutcome.PLACE: PLACE, FlipOutcome.UNPLACEABLE: PASS, FlipOutcome.NO_EFFECT: PASS,
    FlipOutcome.FAILED_RESCUE: LOST, FlipOutcome.RETURNED: RETURNED,
    FlipOutcome.EXTRA_TURN: EXTRA, FlipOutcome.REMOVE_PIECE: REMOVAL,
}


def same(pos: Position, board: RaindropBoard) -> None:
    other = Position.from_board(board)
    assert pos.key() == other.key(), board.rfen()
    assert pos.halfmove == other.halfmove, board.rfen()


def check_position(board: RaindropBoard, pos: Position) -> None:
    same(pos, board)
    if board.pending and board.pending.upper() == "J":
        assert pos.removal_mask() == int(board.legal_removals()), board.rfen()
        for square in iter_bits(pos.removal_mask()):
            after = board.copy(stack=False)
            after.push_removal(square)
            same(pos.play(REMOVE | square), after)
        return
    if board.pending:
        drops = {move.to_square for move in board.legal_moves}
        assert set(iter_bits(pos.pending_targets())) == drops, board.rfen()
        for square in drops:
            after = board.copy(stack=False)
            after.push(chess.Move(square, square, drop=board.pending_piece))
            same(pos.play(DROP | square), after)
        return
    moves = pos.legal_moves()
    expected = {move.uci() for move in board.legal_moves}
    assert {chess.Move(m & 63, m >> 6 & 63, (m >> 12) or None).uci() for m in moves} \
        == expected, board.rfen()
    if not board.is_check():
        captures = {m for m in moves if pos.is_capture(m) or m >> 12}
        assert set(pos.legal_moves(captures_only=True)) == captures, board.rfen()
    outcome = board.outcome()
    result = pos.result(moves)
    if outcome is None or outcome.termination.name == "FIVEFOLD_REPETITION":
        assert result is None, board.rfen()
    else:
        assert result == (0.5 if outcome.winner is None else 0.0), board.rfen()
        return
    for move in board.legal_moves:
        after = board.copy(stack=False)
        after.push(move)
        same(pos.play(move.from_square | move.to_square << 6 | (move.promotion or 0) << 12),
             after)
    assert pos.can_flip() == board.can_flip(), board.rfen()
    if board.can_flip():
        total = 0.0
        for chance, kind, outcome_code, child in pos.flip_outcomes():
            after = board.copy(stack=False)
            flipped = after.flip(card_letter(kind, board.turn))
            assert FLIP_OUTCOMES[flipped.outcome] == outcome_code, board.rfen()
            assert chance == board.deck_count(card_letter(kind, board.turn)) \
                / board.deck_size(board.turn)
            total += chance
            if child is not None:
                same(child, after)
        assert total == pytest.approx(1.0)
        if board.is_check():
            assert pos.rescue_chance() == pytest.approx(
                float(mate_verdict(board).rescue_probability)), board.rfen()


def random_game(rules: HouseRules, rng: random.Random, plies: int) -> None:
    board = RaindropBoard(rules=rules)
    decks = {color: list(rules.deck_letters(color)) for color in chess.COLORS}
    for deck in decks.values():
        rng.shuffle(deck)
    for _ in range(plies):
        pos = Position.from_board(board)
        check_position(board, pos)
        if board.outcome() is not None:
            return
        if board.pending and board.pending.upper() == "J":
            board.push_removal(rng.choice(list(board.legal_removals())))
            continue
        moves = list(board.legal_moves)
        if board.can_flip() and (not moves or rng.random() < 0.5):
            deck = decks[board.turn]
            card = deck.pop(0)
            result = board.flip(card)
            if result.outcome.to_bottom:
                deck.append(card)
            continue
        if not moves:
            return
        board.push(rng.choice(moves))


@pytest.mark.parametrize("name", sorted(HOUSE_RULES))
def test_the_search_position_plays_by_the_rules(name: str) -> None:
    rng = random.Random(f"position:{name}")
    games = 30 if os.environ.get("RAINDROP_FULL") else 2
    for _ in range(games):
        random_game(HOUSE_RULES[name], rng, 70)


def test_rescues_and_failed_rescues_by_rule() -> None:
    rfen = "k7/8/8/8/8/8/PP6/K6r[NPq] w QRBNqrbn - 0 20"
    pos = Position.from_rfen(rfen, HouseRules())
    assert pos.in_check() and pos.legal_moves() == [] and pos.rescue_chance() == 0.5
    outcomes = {kind: (code, child) for _, kind, code, child in pos.flip_outcomes()}
    assert outcomes[chess.PAWN] == (LOST, None)
    assert outcomes[chess.KNIGHT][0] == PLACE
    returned = Position.from_rfen(rfen, HouseRules(failed_rescue="return"))
    code, child = returned.flip(chess.PAWN)
    assert code == RETURNED and child is not None and child.must_move
    assert child.result(child.legal_moves()) == 0.0  # no move lifts the check: mate
    jokers = Position.from_rfen("k7/8/8/8/8/8/PP6/K6r[NPJq] w QRBNqrbn - 0 20",
                                HouseRules(jokers_per_deck=1, joker_effect="remove_piece"))
    code, child = jokers.flip(JOKER)
    assert code == REMOVAL and child is not None
    assert child.removal_mask() == chess.BB_H1
