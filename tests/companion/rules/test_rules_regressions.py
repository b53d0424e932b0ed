"""Regression tests for engine bugs found while proving the rules engine."""

from __future__ import annotations

import io

import chess
import chess.pgn
import pytest

from companion.rules import FlipOutcome, HouseRules, RaindropBoard, RfenError, mate_verdict

# White has no king yet; every empty square is attacked by Black, so the king card is
# unplaceable (R8).
KING_NOWHERE = "6r1/pp1p1p1N/2P1P1pp/Rb1Pbp2/PN1PpB1q/PnP5/3r2n1/1Q2B1R1[KPk] w QRBNqrbn - 0 20"


def test_unplaceable_flip_is_a_null_move_so_pgn_replays() -> None:
    board = RaindropBoard(KING_NOWHERE)
    assert board.flip("K").outcome == FlipOutcome.UNPLACEABLE
    assert board.move_stack == [chess.Move.null()]
    board.flip("k")
    board.push_san("K@e2")
    game = chess.pgn.Game.from_board(board)
    assert str(game.mainline_moves()) == "20. -- K@e2"
    replayed = chess.pgn.read_game(io.StringIO(str(game)))
    assert replayed is not None and not replayed.errors
    assert replayed.end().board().rfen() == board.rfen()
    board.pop()
    board.pop()
    assert board.pop() == chess.Move.null()
    assert board.rfen() == KING_NOWHERE and board.move_stack == []


def test_no_effect_joker_is_a_null_move() -> None:
    board = RaindropBoard("8/8/8/8/8/8/8/8[KJk] w QRBNqrbn - 0 1",
                          rules=HouseRules(jokers_per_deck=1, joker_effect="remove_piece"))
    assert board.flip("J").outcome == FlipOutcome.NO_EFFECT
    assert board.move_stack == [chess.Move.null()] and board.turn == chess.BLACK
    copy = board.copy()
    copy.pop()
    assert copy.rfen() == "8/8/8/8/8/8/8/8[KJk] w QRBNqrbn - 0 1"


def test_rfen_pending_card_without_a_square_outside_check_is_rejected() -> None:
    """It used to be read as a lost game (failed rescue) though nobody was in check."""
    rfen = KING_NOWHERE.replace("[KPk] w QRBNqrbn -", "[Pk] w QRBNqrbn K")
    with pytest.raises(RfenError) as error:
        RaindropBoard(rfen)
    assert error.value.field == "pending"
    assert "R8" in str(error.value)


def test_rfen_pending_joker_rules_are_checked() -> None:
    rfen = "4k3/8/8/8/8/8/8/4K3[q] w QRBNqrbn J 0 5"
    with pytest.raises(RfenError, match="extra-turn joker is never pending"):
        RaindropBoard(rfen, rules=HouseRules(jokers_per_deck=1))
    with pytest.raises(RfenError, match="no piece to remove"):
        RaindropBoard(rfen, rules=HouseRules(jokers_per_deck=1, joker_effect="remove_piece"))


def test_rfen_failed_rescue_pending_under_return_is_rejected() -> None:
    rfen = "k7/8/8/8/8/8/4r3/4K3[Pq] w QRBNqrbn N 0 10"
    assert RaindropBoard(rfen).is_failed_rescue()  # under "lose": the game is lost
    with pytest.raises(RfenError, match="write '\\+' instead"):
        RaindropBoard(rfen, rules=HouseRules(failed_rescue="return"))


def test_verdict_texts_with_a_pending_card_or_joker() -> None:
    """They used to say a pending joker "can be placed to block (0 squares)", that the
    capture was impossible though the joker could remove the checker, and that the deck
    was empty when it was not."""
    joker = RaindropBoard("k7/8/8/8/8/8/PP6/K6r[NPq] w QRBNqrbn J 0 20",
                          rules=HouseRules(jokers_per_deck=1, joker_effect="remove_piece"))
    verdict = mate_verdict(joker)
    assert not verdict.checkmate
    assert verdict.summary == "Not checkmate: the flipped joker can remove the rook on h1."
    assert not verdict.conditions[2].holds
    assert "deck is empty" not in verdict.explain()
    knight = mate_verdict(RaindropBoard("k7/8/8/8/8/8/PP6/K6r[Pq] w QRBNqrbn N 0 20"))
    assert knight.summary == "Not checkmate: the flipped knight can be placed to block " \
                             "(6 squares)."
    assert knight.conditions[3].reason == \
        "the flipped knight can be placed between: b1, c1, d1, e1, f1, g1"
    pawn = mate_verdict(RaindropBoard("k7/8/8/8/8/8/PP6/K6r[Nq] w QRBNqrbn P 0 20"))
    assert pawn.failed_rescue and "deck is empty" not in pawn.explain()
    assert pawn.conditions[3].reason.endswith("the flipped pawn may not be placed there")
