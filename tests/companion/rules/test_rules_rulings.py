"""One named test (or more) for every ruling R1-R14, with positions at the edge."""

from __future__ import annotations

from fractions import Fraction

import chess
import pytest

from companion.rules import (
    FlipOutcome,
    HouseRules,
    HouseRulesError,
    IllegalActionError,
    IllegalFlipError,
    IllegalRemovalError,
    Outcome,
    RaindropBoard,
    RfenError,
    Termination,
    mate_verdict,
)

REMOVE = HouseRules(jokers_per_deck=2, joker_effect="remove_piece")
EXTRA = HouseRules(jokers_per_deck=2)
RETURN = HouseRules(failed_rescue="return")


def squares(*names: str) -> set[int]:
    return {chess.parse_square(name) for name in names}


def back_rank(deck: str) -> str:
    """White Ka1, Pa2, Pb2 checked by a black rook on h1; White's deck given."""
    return f"k7/8/8/8/8/8/PP6/K6r[{deck}q] w QRBNqrbn - 0 20"


# ----------------------------------------------------------------------
# R1 Decks


def test_r1_each_deck_has_sixteen_cards_plus_jokers() -> None:
    for jokers in (0, 1, 2):
        rules = HouseRules(jokers_per_deck=jokers)
        board = RaindropBoard(rules=rules)
        for color in chess.COLORS:
            assert board.deck_size(color) == 16 + jokers
            deck = board.deck(color)
            letters = {"k": 1, "q": 1, "r": 2, "b": 2, "n": 2, "p": 8, "j": jokers}
            expected = {(k.upper() if color else k): n for k, n in letters.items() if n}
            assert deck == expected
    assert RaindropBoard().rfen() == \
        "8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w QRBNqrbn - 0 1"
    assert HouseRules(jokers_per_deck=1).start_rfen() == \
        "8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPJkqrrbbnnppppppppj] w QRBNqrbn - 0 1"


def test_r1_more_than_two_jokers_or_seventeen_cards_is_refused() -> None:
    with pytest.raises(HouseRulesError, match="jokers_per_deck"):
        HouseRules(jokers_per_deck=3)
    with pytest.raises(RfenError, match="at most 2") as error:
        RaindropBoard("8/8/8/8/8/8/8/8[KJJJk] w - - 0 1")
    assert error.value.field == "cards"
    with pytest.raises(RfenError, match="more than 8"):
        RaindropBoard("8/8/8/8/8/8/8/8[KPPPPPPPPPk] w - - 0 1")


# ----------------------------------------------------------------------
# R2 Turn


def test_r2_without_a_king_a_player_must_flip() -> None:
    board = RaindropBoard("8/8/8/3N4/8/8/8/8[KQk] w QRBNqrbn - 0 2")
    assert list(board.legal_moves) == []
    assert board.can_flip()
    with pytest.raises(IllegalActionError, match="no king on the board yet"):
        board.push_uci("d5e7")


def test_r2_with_a_king_a_player_chooses_move_or_flip() -> None:
    board = RaindropBoard("4k3/8/8/8/8/8/8/4K3[Qq] w QRBNqrbn - 0 8")
    assert chess.Move.from_uci("e1e2") in board.legal_moves
    assert board.can_flip()


def test_r2_with_an_empty_deck_only_chess_moves() -> None:
    board = RaindropBoard("4k3/8/8/8/8/8/8/4K3[q] w QRBNqrbn - 0 8")
    assert not board.can_flip()
    assert "deck is empty" in (board.why_cannot_flip() or "")
    with pytest.raises(IllegalFlipError, match="deck is empty"):
        board.flip("Q")
    assert board.legal_moves.count() == 5


# ----------------------------------------------------------------------
# R3 Placement


def test_r3_pawns_are_placed_on_ranks_2_to_6_for_white_and_3_to_7_for_black() -> None:
    board = RaindropBoard()
    white = board.drop_squares("P")
    black = board.drop_squares("p")
    assert white == chess.SquareSet(chess.BB_RANK_2 | chess.BB_RANK_3 | chess.BB_RANK_4
                                    | chess.BB_RANK_5 | chess.BB_RANK_6)
    assert black == chess.SquareSet(chess.BB_RANK_3 | chess.BB_RANK_4 | chess.BB_RANK_5
                                    | chess.BB_RANK_6 | chess.BB_RANK_7)
    board.flip("P")
    with pytest.raises(IllegalActionError, match="ranks 2 to 6"):
        board.push_san("P@e7")
    board.push_san("P@e6")
    board.flip("p")
    with pytest.raises(IllegalActionError, match="ranks 3 to 7"):
        board.push_san("P@d2")
    with pytest.raises(IllegalActionError, match="not empty"):
        board.push_san("P@e6")


def test_r3_queen_rook_bishop_knight_go_on_any_free_square() -> None:
    board = RaindropBoard("8/8/8/3n4/8/8/8/8[KQRBNk] w QRBNqrbn - 0 2")
    for card in "QRBN":
        assert len(board.drop_squares(card)) == 63


def test_r3_king_not_on_a_square_a_pinned_piece_or_the_king_attacks() -> None:
    # The black knight on e7 is pinned to its king by the white rook on e1, yet it
    # still attacks d5, f5, c6, g6, c8 and g8: the white king may not go there.
    board = RaindropBoard("4k3/4n3/8/8/8/8/8/4R3[q] w QRBNqrbn K 0 5")
    targets = set(board.legal_moves)
    forbidden = squares("d5", "f5", "c6", "g6", "c8", "g8", "d7", "d8", "f7", "f8")
    for square in forbidden:
        assert chess.Move(square, square, drop=chess.KING) not in targets
    assert chess.Move.from_uci("K@d4") in board.legal_moves
    reason = board.why_illegal(chess.Move.from_uci("K@d5"))
    assert reason is not None and "attacked from e7" in reason
    # The pinned knight may not actually move there.
    black = RaindropBoard("4k3/4n3/8/8/8/8/8/4R3[Kq] b QRBNqrbn - 0 5")
    assert not any(m.from_square == chess.E7 for m in black.legal_moves)


def test_r3_a_placement_must_leave_the_own_king_safe() -> None:
    board = RaindropBoard(back_rank("N"))
    result = board.flip("N")
    assert result.outcome == FlipOutcome.PLACE
    assert set(result.targets) == squares("b1", "c1", "d1", "e1", "f1", "g1")
    with pytest.raises(IllegalActionError, match="between the king and the checking piece"):
        board.push_san("N@d4")


# ----------------------------------------------------------------------
# R4 Moves


def test_r4_no_castling_no_double_step_no_en_passant() -> None:
    board = RaindropBoard("r3k2r/8/8/8/8/8/4P3/R3K2R[] w QRBNqrbn - 0 10")
    for uci, why in (("e1g1", "no castling"), ("e1c1", "no castling"),
                     ("e2e4", "one square at a time")):
        move = chess.Move.from_uci(uci)
        assert move not in board.legal_moves
        assert why in (board.why_illegal(move) or "")
    # A long king move that is not a castling is explained as a plain bad move.
    assert board.why_illegal(chess.Move.from_uci("e1e3")) == "the king on e1 cannot go to e3"
    assert chess.Move.from_uci("e2e3") in board.legal_moves
    # A pawn beside a pawn that just stepped: no en passant capture exists.
    board = RaindropBoard("4k3/3p4/8/4P3/8/8/8/4K3[] b QRBNqrbn - 0 10")
    board.push_uci("d7d6")
    assert board.ep_square is None
    assert chess.Move.from_uci("e5d6") in board.legal_moves  # an ordinary capture
    assert chess.Move.from_uci("e5e6") in board.legal_moves


def test_r4_a_move_must_not_leave_the_own_king_in_check() -> None:
    board = RaindropBoard("4k3/8/8/8/8/4r3/4N3/4K3[] w QRBNqrbn - 0 10")
    assert not any(m.from_square == chess.E2 for m in board.legal_moves)
    with pytest.raises(IllegalActionError, match="leave white's king in check"):
        board.push_uci("e2c3")


# ----------------------------------------------------------------------
# R5 Promotion


def test_r5_promotion_only_to_available_blue_pieces_each_once() -> None:
    board = RaindropBoard("4k3/PP6/8/8/8/8/8/4K3[] w QRBNqrbn - 0 30")
    promotions = {m.promotion for m in board.legal_moves if m.from_square == chess.A7}
    assert promotions == {chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT}
    board.push_san("a8=Q+")
    assert board.rfen().startswith("Q~3k3/1P6/")
    assert board.blue_available(chess.WHITE) == [chess.ROOK, chess.BISHOP, chess.KNIGHT]
    board.push_uci("e8e7")
    assert chess.Move.from_uci("b7b8q") not in board.legal_moves
    assert "not available" in (board.why_illegal(chess.Move.from_uci("b7b8q")) or "")
    assert chess.Move.from_uci("b7b8r") in board.legal_moves
    assert board.is_blue(chess.A8)


def test_r5_the_blue_pieces_option() -> None:
    rules = HouseRules(blue_pieces="nq")
    assert rules.blue_pieces == "QN"
    assert rules.start_rfen().endswith(" w QNqn - 0 1")
    board = RaindropBoard("4k3/P7/8/8/8/8/8/4K3[] w QNqn - 0 30", rules=rules)
    assert {m.promotion for m in board.legal_moves if m.promotion} == {chess.QUEEN,
                                                                       chess.KNIGHT}
    with pytest.raises(HouseRulesError):
        HouseRules(blue_pieces="QK")
    with pytest.raises(RfenError) as error:
        RaindropBoard("4k3/8/8/8/8/8/8/4K3[] w QQ - 0 30")
    assert error.value.field == "blue"


def test_r5_an_empty_blue_pool_blocks_the_pawn_but_it_still_gives_check() -> None:
    board = RaindropBoard("8/1P6/8/8/8/8/8/4K3[k] w - - 0 40")
    assert not any(m.from_square == chess.B7 for m in board.legal_moves)
    assert "no blue piece left" in (board.why_illegal(chess.Move.from_uci("b7b8q")) or "")
    board.push_uci("e1e2")
    board.flip("k")
    # The black king may not be placed where the stuck pawn attacks.
    assert not board.drop_squares("k") & chess.SquareSet(squares("a8", "c8"))
    checked = RaindropBoard("2k5/1P6/8/8/8/8/8/4K3[] b - - 0 40")
    assert checked.is_check()
    assert checked.checkers() == chess.SquareSet(squares("b7"))
    with pytest.raises(RfenError) as error:
        RaindropBoard("2k5/1P6/8/8/8/8/8/4K3[] w - - 0 40")
    assert error.value.field == "turn"


def test_r5_a_captured_blue_piece_leaves_the_game_by_default() -> None:
    rfen = "4k3/8/8/8/8/8/4K3/1R~5r[] b BNqrbn - 0 30"
    board = RaindropBoard(rfen)
    board.push_uci("h1b1")
    assert board.blue_available(chess.WHITE) == [chess.BISHOP, chess.KNIGHT]


def test_r5_blue_returns_when_captured_option() -> None:
    rules = HouseRules(blue_returns_when_captured=True)
    board = RaindropBoard("4k3/8/8/8/8/8/4K3/1R~5r[] b BNqrbn - 0 30", rules=rules)
    board.push_uci("h1b1")
    assert board.blue_available(chess.WHITE) == [chess.ROOK, chess.BISHOP, chess.KNIGHT]
    assert " RBNqrbn " in board.rfen()
    board.pop()
    assert board.blue_available(chess.WHITE) == [chess.BISHOP, chess.KNIGHT]
    # A joker's removal of a blue piece returns it too.
    rules = HouseRules(blue_returns_when_captured=True, jokers_per_deck=1,
                       joker_effect="remove_piece")
    board = RaindropBoard("4k3/8/8/8/8/8/8/1R~2K3[j] b BNqrbn - 0 30", rules=rules)
    board.flip("j")
    board.push_removal(chess.B1)
    assert board.blue_available(chess.WHITE) == [chess.ROOK, chess.BISHOP, chess.KNIGHT]


# ----------------------------------------------------------------------
# R6 Check


def test_r6_a_placement_gives_check_while_the_checker_has_no_king() -> None:
    board = RaindropBoard("4k3/8/8/8/8/8/8/8[Kq] w QRBNqrbn Q 0 4")
    board.push_san("Q@e4")
    assert board.is_check()
    assert board.king(chess.WHITE) is None
    assert all(not board.is_into_check(m) for m in board.legal_moves)
    for move in board.legal_moves:
        board.push(move)
        assert not board.was_into_check()
        board.pop()


def test_r6_the_player_in_check_must_end_the_turn_out_of_check() -> None:
    board = RaindropBoard("4k3/8/8/8/4Q3/8/8/8[Kq] b QRBNqrbn - 0 4")
    moves = {m.uci() for m in board.legal_moves}
    assert moves == {"e8d8", "e8f8", "e8d7", "e8f7"}


# ----------------------------------------------------------------------
# R7 Flipping in check (a rescue flip)


def test_r7_a_rescue_flip_that_blocks_must_block() -> None:
    board = RaindropBoard(back_rank("RN"))
    result = board.flip("R")
    assert result.outcome == FlipOutcome.PLACE
    assert set(board.legal_moves) == {chess.Move(sq, sq, drop=chess.ROOK)
                                      for sq in squares("b1", "c1", "d1", "e1", "f1", "g1")}
    board.push_san("R@g1")
    assert not board.was_into_check()


def test_r7_a_rescue_flip_that_cannot_block_loses_by_default() -> None:
    board = RaindropBoard(back_rank("PN"))
    result = board.flip("P")  # a pawn may not stand on the first rank
    assert result.outcome == FlipOutcome.FAILED_RESCUE
    assert board.is_failed_rescue()
    assert board.outcome() == Outcome(Termination.FAILED_RESCUE, chess.BLACK)
    assert board.is_game_over()
    assert mate_verdict(board).failed_rescue
    assert list(board.legal_moves) == []
    with pytest.raises(IllegalFlipError):
        board.flip("N")


def test_r7_failed_rescue_return_puts_the_card_back_and_a_move_must_follow() -> None:
    # The white rook on h8 can take the checker.
    board = RaindropBoard("7R/8/2k5/8/8/8/PP6/K6r[PNq] w QRBNqrbn - 0 20", rules=RETURN)
    result = board.flip("P")
    assert result.outcome == FlipOutcome.RETURNED
    assert result.outcome.to_bottom
    assert board.deck(chess.WHITE) == {"N": 1, "P": 1}
    assert board.must_move and board.rfen().split()[3] == "+"
    assert not board.can_flip()
    assert "failed" in (board.why_cannot_flip() or "")
    assert {m.uci() for m in board.legal_moves} == {"h8h1"}
    board.push_uci("h8h1")
    assert not board.must_move and board.turn == chess.BLACK
    board.pop()
    assert board.must_move


def test_r7_failed_rescue_return_without_a_lifting_move_is_checkmate() -> None:
    board = RaindropBoard(back_rank("PN"), rules=RETURN)
    board.flip("P")
    assert board.is_checkmate()
    assert board.outcome() == Outcome(Termination.CHECKMATE, chess.BLACK)
    verdict = mate_verdict(board)
    assert verdict.checkmate and not verdict.flip_allowed
    assert "failed rescue flip" in verdict.conditions[3].reason


def test_r7_double_check_cannot_be_blocked_even_with_a_full_deck() -> None:
    # Rook a1 and knight f2 check the white king on h1; the black king is not on the board.
    rfen = "8/8/8/8/8/6pp/5n2/r6K[QRRBBNNPPPPPPPPkqrbbnpppppp] w QRBNqrbn - 0 9"
    board = RaindropBoard(rfen)
    assert len(board.checkers()) == 2
    assert board.rescue_cards() == {}
    assert board.is_checkmate()
    verdict = mate_verdict(board)
    assert verdict.checkmate and verdict.deck_size == 15
    assert verdict.conditions[3].reason == "a double check cannot be blocked"
    assert board.outcome() == Outcome(Termination.CHECKMATE, chess.BLACK)


def test_r7_knight_check_cannot_be_blocked() -> None:
    board = RaindropBoard("8/8/8/8/8/8/PPn5/KR6[QRk] w QRBNqrbn - 0 9")
    assert board.is_check() and board.rescue_cards() == {}
    assert board.is_checkmate()


# ----------------------------------------------------------------------
# R8 Unplaceable card

KING_NOWHERE = "6r1/pp1p1p1N/2P1P1pp/Rb1Pbp2/PN1PpB1q/PnP5/3r2n1/1Q2B1R1[KPk] w QRBNqrbn - 0 20"


def test_r8_an_unplaceable_king_goes_back_and_the_turn_ends() -> None:
    board = RaindropBoard(KING_NOWHERE)
    assert board.drop_squares("K") == chess.SquareSet()
    result = board.flip("K")
    assert result.outcome == FlipOutcome.UNPLACEABLE and result.outcome.to_bottom
    assert board.turn == chess.BLACK
    assert board.deck(chess.WHITE) == {"K": 1, "P": 1}
    assert board.halfmove_clock == 1  # nothing placed: the clock runs on
    assert board.outcome() is None


def test_r8_a_pawn_card_that_cannot_block_in_check_is_a_failed_rescue() -> None:
    """Outside check a pawn always has a square: its 40 squares cannot all be taken by
    the at most 31 other pieces. In check it may have none: that is R7, not R8."""
    board = RaindropBoard(back_rank("PN"))
    assert board.flip("P").outcome == FlipOutcome.FAILED_RESCUE
    free = RaindropBoard("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR[P] w - - 0 20")
    assert free.drop_squares("P")


# ----------------------------------------------------------------------
# R9 Checkmate, judged on public information


def test_r9_not_mate_while_a_rescue_flip_could_succeed() -> None:
    board = RaindropBoard(back_rank("NPP"))
    assert not board.is_checkmate()
    verdict = mate_verdict(board)
    assert not verdict.checkmate
    assert [(r.card, r.copies) for r in verdict.rescue_cards] == [("N", 1)]
    assert verdict.rescue_probability == Fraction(1, 3)
    assert "1/3" in verdict.explain()
    assert verdict.conditions[0].holds and verdict.conditions[1].holds
    assert verdict.conditions[2].holds and not verdict.conditions[3].holds


def test_r9_mate_when_no_card_left_could_block() -> None:
    board = RaindropBoard(back_rank("PP"))
    verdict = mate_verdict(board)
    assert verdict.checkmate and board.is_checkmate()
    assert verdict.rescue_probability == 0
    assert all(c.holds for c in verdict.conditions)


def test_r9_mate_while_the_other_king_is_off_the_board() -> None:
    # Black has no king yet; its queen, guarded by the knight, mates; White's full deck
    # cannot help against an adjacent checker.
    rfen = "8/8/8/8/8/3n4/1q6/K7[QRRBBNNPPPPPPPPkrrbbnpppppppp] w QRBNqrbn - 0 8"
    board = RaindropBoard(rfen)
    assert board.king(chess.BLACK) is None
    assert board.is_checkmate()
    assert board.outcome() == Outcome(Termination.CHECKMATE, chess.BLACK)
    assert "adjacent" in mate_verdict(board).conditions[3].reason


def test_r9_the_verdict_is_for_the_side_to_move_only() -> None:
    board = RaindropBoard("4k3/8/8/8/8/8/8/4K3[Qq] w QRBNqrbn - 0 8")
    verdict = mate_verdict(board)
    assert not verdict.checkmate and not verdict.conditions[0].holds


# ----------------------------------------------------------------------
# R10 Draws

STALEMATE = "4k3/8/8/8/8/1q6/8/K7[] w QRBNqrbn - 0 60"


def test_r10_stalemate_only_with_an_empty_deck() -> None:
    board = RaindropBoard(STALEMATE)
    assert board.is_stalemate()
    assert board.outcome() == Outcome(Termination.STALEMATE, None)
    with_card = RaindropBoard(STALEMATE.replace("[]", "[N]"))
    assert not with_card.is_stalemate() and with_card.outcome() is None
    assert with_card.can_flip()


def test_r10_threefold_claimable_and_fivefold_automatic() -> None:
    board = RaindropBoard("r3k3/8/8/8/8/8/8/R3K3[] w QRBNqrbn - 0 30")
    cycle = ["e1d1", "e8d8", "d1e1", "d8e8"]
    for uci in cycle * 2:
        board.push_uci(uci)
    assert board.can_claim_threefold_repetition()
    assert not board.is_fivefold_repetition()
    assert board.outcome() is None
    assert board.outcome(claim_draw=True) == Outcome(Termination.THREEFOLD_REPETITION, None)
    for uci in cycle * 2:
        board.push_uci(uci)
    assert board.is_fivefold_repetition()
    assert board.outcome() == Outcome(Termination.FIVEFOLD_REPETITION, None)


def test_r10_repetition_counts_the_cards_too() -> None:
    board = RaindropBoard("r3k3/8/8/8/8/8/8/R3K3[NNn] w QRBNqrbn - 0 30")
    for uci in ["e1d1", "e8d8", "d1e1", "d8e8"] * 2:
        board.push_uci(uci)
    assert board.can_claim_threefold_repetition()
    board.flip("N")
    board.push_san("N@h3")
    board.push_uci("e8d8")
    board.pop()
    board.pop()  # the placement is undone, the card is still flipped
    board.pop()  # and the flip
    board.flip("N")
    board.push_san("N@h3")
    # The same placement but one card fewer than before: no longer a repetition.
    assert not board.can_claim_threefold_repetition()


def test_r10_fifty_claimable_seventyfive_automatic_and_what_resets_the_clock() -> None:
    board = RaindropBoard("r3k3/8/8/8/8/8/8/R3K3[N] w QRBNqrbn - 0 60")
    board.halfmove_clock = 99
    board.push_uci("e1d1")
    assert board.can_claim_fifty_moves() and board.outcome() is None
    assert board.outcome(claim_draw=True) == Outcome(Termination.FIFTY_MOVES, None)
    board.halfmove_clock = 149
    board.push_uci("e8d8")
    assert board.is_seventyfive_moves()
    assert board.outcome() == Outcome(Termination.SEVENTYFIVE_MOVES, None)
    # A placement resets the clock.
    placing = RaindropBoard("r3k3/8/8/8/8/8/8/R3K3[N] w QRBNqrbn - 90 60")
    placing.flip("N")
    assert placing.halfmove_clock == 90
    placing.push_san("N@h3")
    assert placing.halfmove_clock == 0
    # A joker's removal resets it like a capture.
    removing = RaindropBoard("r3k3/8/8/8/8/8/8/R3K3[J] w QRBNqrbn - 90 60", rules=REMOVE)
    removing.flip("J")
    removing.push_removal(chess.A8)
    assert removing.halfmove_clock == 0


def test_r10_insufficient_material_only_when_both_decks_are_empty() -> None:
    assert RaindropBoard("4k3/8/8/8/8/8/8/4K3[] w QRBNqrbn - 0 60").outcome() == \
        Outcome(Termination.INSUFFICIENT_MATERIAL, None)
    assert RaindropBoard("4k3/8/8/8/8/8/8/3NK3[] w QRBNqrbn - 0 60").is_insufficient_material()
    for deck in ("P", "p", "N"):
        board = RaindropBoard(f"4k3/8/8/8/8/8/8/4K3[{deck}] w QRBNqrbn - 0 60")
        assert not board.is_insufficient_material()
    assert not RaindropBoard("4k3/8/8/8/8/8/8/4K3[q] b QRBNqrbn Q 0 60".replace(
        "[q] b QRBNqrbn Q", "[] b QRBNqrbn q")).is_insufficient_material()
    # R10 says both decks empty: a joker left is a card left (a flip is possible).
    for deck in ("Jj", "J", "j"):
        jokers = RaindropBoard(f"4k3/8/8/8/8/8/8/4K3[{deck}] w QRBNqrbn - 0 60", rules=EXTRA)
        assert not jokers.is_insufficient_material()
        assert jokers.outcome() is None and (jokers.can_flip() or deck == "j")
    assert not RaindropBoard("4k3/8/8/8/8/8/8/3RK3[] w QRBNqrbn - 0 60").is_insufficient_material()


# ----------------------------------------------------------------------
# R11 Touch-move (an option for the sensing board; the engine only carries it)


def test_r11_touch_move_option() -> None:
    assert HouseRules().touch_move == "warn"
    for value in ("off", "warn", "enforce"):
        assert HouseRules.parse(f"touch_move={value}").touch_move == value
    with pytest.raises(HouseRulesError, match="touch_move"):
        HouseRules(touch_move="always")  # type: ignore[arg-type]


# ----------------------------------------------------------------------
# R12 Jokers


def test_r12_extra_turn_joker_keeps_the_turn() -> None:
    board = RaindropBoard("4k3/8/8/8/8/8/8/4K3[NJj] w QRBNqrbn - 0 10", rules=EXTRA)
    result = board.flip("J")
    assert result.outcome == FlipOutcome.EXTRA_TURN
    assert board.turn == chess.WHITE and board.deck(chess.WHITE) == {"N": 1}
    assert board.can_flip() and board.legal_moves.count() == 5
    assert board.halfmove_clock == 0 and board.fullmove_number == 10


def test_r12_extra_turn_joker_in_check_then_flip_again() -> None:
    board = RaindropBoard(back_rank("NJ"), rules=EXTRA)
    verdict = mate_verdict(board)
    assert not verdict.checkmate
    assert verdict.rescue_probability == 1  # the joker only leads to another flip
    assert board.flip("J").outcome == FlipOutcome.EXTRA_TURN
    assert board.is_check() and board.turn == chess.WHITE
    assert board.flip("N").outcome == FlipOutcome.PLACE


def test_r12_extra_turn_jokers_alone_cannot_rescue() -> None:
    board = RaindropBoard(back_rank("PJ"), rules=EXTRA)
    verdict = mate_verdict(board)
    assert verdict.checkmate and board.is_checkmate()
    assert verdict.rescue_probability == 0
    board = RaindropBoard(back_rank("NPJ"), rules=EXTRA)
    assert mate_verdict(board).rescue_probability == Fraction(1, 2)


def test_r12_remove_piece_joker_removes_an_opposing_piece_not_the_king() -> None:
    board = RaindropBoard("r3k3/8/8/8/8/8/8/R3K3[J] w QRBNqrbn - 0 30", rules=REMOVE)
    result = board.flip("J")
    assert result.outcome == FlipOutcome.REMOVE_PIECE
    assert set(result.targets) == squares("a8")
    with pytest.raises(IllegalRemovalError, match="the king cannot be removed"):
        board.push_removal(chess.E8)
    with pytest.raises(IllegalRemovalError, match="no opposing piece"):
        board.push_removal(chess.A1)
    assert list(board.legal_moves) == []
    board.push_removal(chess.A8)
    assert board.rfen() == "4k3/8/8/8/8/8/8/R3K3[] b QRBNqrbn - 0 30"
    board.pop()
    assert board.pending == "J"


def test_r12_remove_piece_joker_without_a_king_has_no_effect() -> None:
    board = RaindropBoard("r7/8/8/8/8/8/8/8[KQJk] w QRBNqrbn - 0 3", rules=REMOVE)
    result = board.flip("J")
    assert result.outcome == FlipOutcome.NO_EFFECT
    assert board.turn == chess.BLACK and board.piece_at(chess.A8) is not None


def test_r12_remove_piece_joker_may_not_expose_the_own_king() -> None:
    # Removing the knight on e4 would open the rook's file onto the white king.
    board = RaindropBoard("r3r1k1/8/8/8/4n3/8/8/4K3[J] w QRBNqrbn - 0 30", rules=REMOVE)
    board.flip("J")
    assert set(board.legal_removals()) == squares("a8", "e8")
    with pytest.raises(IllegalRemovalError):
        board.push_removal(chess.E4)


def test_r12_remove_piece_joker_in_check_only_the_single_checker() -> None:
    board = RaindropBoard(back_rank("J").replace("k7", "k2n4"), rules=REMOVE)
    assert board.rescue_cards() == {"J": chess.SquareSet(squares("h1"))}
    verdict = mate_verdict(board)
    assert verdict.rescue_probability == 1
    assert "joker" in verdict.conditions[2].reason
    board.flip("J")
    assert set(board.legal_removals()) == squares("h1")
    with pytest.raises(IllegalRemovalError, match="does not lift the check"):
        board.push_removal(chess.D8)
    board.push_removal(chess.H1)
    assert not board.is_check()


def test_r12_remove_piece_joker_probability_counts_jokers_as_rescues() -> None:
    board = RaindropBoard(back_rank("NPJ"), rules=REMOVE)
    assert mate_verdict(board).rescue_probability == Fraction(2, 3)


def test_r12_joker_that_cannot_lift_a_check_applies_r7() -> None:
    # Removing the checking rook on b1 would let the rook on a1 check: no removal lifts
    # the check, yet the knight card could block, so the joker may be flipped.
    behind = "k7/8/8/8/8/8/6PP/rr5K[NJq] w QRBNqrbn - 0 9"
    lose = RaindropBoard(behind, rules=REMOVE)
    assert lose.rescue_cards() == {"N": chess.SquareSet(squares("c1", "d1", "e1", "f1", "g1"))}
    assert lose.flip("J").outcome == FlipOutcome.FAILED_RESCUE
    assert lose.outcome() == Outcome(Termination.FAILED_RESCUE, chess.BLACK)
    ret = RaindropBoard(behind, rules=HouseRules(jokers_per_deck=2, joker_effect="remove_piece",
                                                 failed_rescue="return"))
    assert ret.flip("J").outcome == FlipOutcome.RETURNED
    assert ret.deck(chess.WHITE) == {"N": 1, "J": 1} and ret.must_move
    assert ret.is_checkmate()  # no move lifts the check and no flip is allowed


# ----------------------------------------------------------------------
# R13 Coloured bishop cards


def test_r13_coloured_bishop_cards_only_on_their_colour() -> None:
    rules = HouseRules(coloured_bishop_cards=True)
    board = RaindropBoard(rules=rules)
    assert board.rfen().startswith("8/8/8/8/8/8/8/8[KQRRLDNNPPPPPPPPkqrrldnnpppppppp]")
    assert board.drop_squares("L") == chess.SquareSet(chess.BB_LIGHT_SQUARES)
    assert board.drop_squares("D") == chess.SquareSet(chess.BB_DARK_SQUARES)
    result = board.flip("L")
    assert board.pending == "L" and board.pending_piece == chess.BISHOP
    assert len(result.targets) == 32
    with pytest.raises(IllegalActionError, match="light square"):
        board.push_san("B@a1")  # a1 is dark
    board.push_san("B@b1")
    assert board.deck(chess.WHITE)["D"] == 1 and "L" not in board.deck(chess.WHITE)


def test_r13_a_drop_while_nothing_is_pending_uses_the_card_of_its_square_colour() -> None:
    board = RaindropBoard(rules=HouseRules(coloured_bishop_cards=True))
    board.push_san("B@a1")
    assert "D" not in board.deck(chess.WHITE) and board.deck(chess.WHITE)["L"] == 1


def test_r13_rfen_does_not_mix_plain_and_coloured_bishop_cards() -> None:
    with pytest.raises(RfenError, match="mixes"):
        RaindropBoard("8/8/8/8/8/8/8/8[KBLk] w - - 0 1")
    with pytest.raises(RfenError, match="more than one light-square bishop"):
        RaindropBoard("8/8/8/8/8/8/8/8[KLLk] w - - 0 1")
    coloured = HouseRules(coloured_bishop_cards=True)
    assert RaindropBoard("8/8/8/8/8/8/8/8[KLDkl] b - d 0 1", rules=coloured).pending == "d"
    with pytest.raises(RfenError, match="only under coloured_bishop_cards=true"):
        RaindropBoard("8/8/8/8/8/8/8/8[KLDkl] b - d 0 1", rules=HouseRules())
    with pytest.raises(RfenError, match="plain bishop card"):
        RaindropBoard("8/8/8/8/8/8/8/8[KBk] w - - 0 1", rules=coloured)


# ----------------------------------------------------------------------
# R14 Results


def test_r14_outcomes_carry_a_winner_and_a_termination() -> None:
    assert Outcome(Termination.CHECKMATE, chess.WHITE).result() == "1-0"
    assert Outcome(Termination.FAILED_RESCUE, chess.BLACK).result() == "0-1"
    assert Outcome(Termination.STALEMATE, None).result() == "1/2-1/2"
    assert Outcome(Termination.FAILED_RESCUE, chess.BLACK).describe() == \
        "Black wins by failed rescue: the card flipped in check could not block"
    assert Outcome(Termination.AGREEMENT, None).describe() == "Draw: draw by agreement"
    names = {t.name for t in Termination}
    assert names == {"CHECKMATE", "FAILED_RESCUE", "STALEMATE", "INSUFFICIENT_MATERIAL",
                     "SEVENTYFIVE_MOVES", "FIVEFOLD_REPETITION", "FIFTY_MOVES",
                     "THREEFOLD_REPETITION", "AGREEMENT", "RESIGNATION", "TIME_FORFEIT"}
    for termination in Termination:
        assert termination.description


def test_r14_game_over_boards_refuse_flips() -> None:
    board = RaindropBoard(back_rank("PP"))
    assert board.outcome() is not None
    with pytest.raises(IllegalFlipError, match="game is over"):
        board.flip("P")
    assert "game is over" in (board.why_illegal(chess.Move.from_uci("a2a3")) or "")


# ----------------------------------------------------------------------
# House rules: defaults, parsing, errors


def test_house_rule_defaults_are_the_rules_file_defaults() -> None:
    rules = HouseRules()
    assert rules.to_dict() == {
        "jokers_per_deck": 0, "blue_pieces": "QRBN", "blue_returns_when_captured": False,
        "failed_rescue": "lose", "touch_move": "warn", "joker_effect": "extra_turn",
        "coloured_bishop_cards": False}
    assert rules.differences() == {}


def test_house_rules_parse_round_trip_and_refuse_bad_values() -> None:
    rules = HouseRules.parse("failed-rescue=return, joker_effect=remove_piece,"
                             "jokers_per_deck=2,coloured_bishop_cards=yes,"
                             "blue_returns_when_captured=on")
    assert rules.differences() == {
        "failed_rescue": "return", "joker_effect": "remove_piece", "jokers_per_deck": 2,
        "coloured_bishop_cards": True, "blue_returns_when_captured": True}
    assert HouseRules.from_dict(rules.to_dict()) == rules
    for text, words in (("colour=1", "unknown house rule 'colour'"),
                        ("jokers_per_deck", "expected key=value"),
                        ("jokers_per_deck=two", "must be a number"),
                        ("coloured_bishop_cards=maybe", "true or false"),
                        ("joker_effect=swap", "joker_effect must be one of"),
                        ("failed_rescue=draw", "failed_rescue must be one of")):
        with pytest.raises(HouseRulesError, match=words):
            HouseRules.parse(text)
    with pytest.raises(HouseRulesError, match="unknown house rule"):
        HouseRules.from_dict({"jokers": 1})
