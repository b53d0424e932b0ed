"""The session layer: turn flow, decks kept in step with the board, undo/redo, events."""

from __future__ import annotations

import random

import chess
import pytest
from game_helpers import fixed_decks, playout, random_step

from companion import events
from companion.cards import DeckError, Decks
from companion.game import Game, GameOverError
from companion.rules import (
    FlipOutcome,
    HouseRules,
    IllegalActionError,
    IllegalFlipError,
    IllegalRemovalError,
    Termination,
)

START = HouseRules().start_rfen()


def test_new_game_starts_empty_with_full_decks() -> None:
    game = Game(seed=1)
    assert game.rfen() == START
    assert game.turn == chess.WHITE
    assert game.pending is None
    assert game.deck_size(chess.WHITE) == 16
    assert game.deck_counts(chess.BLACK) == {"k": 1, "q": 1, "r": 2, "b": 2, "n": 2, "p": 8}
    assert game.can_flip() and not game.can_undo() and not game.can_redo()
    assert game.legal_moves() == []
    assert not game.is_over


def test_flip_draws_the_top_card_of_the_side_to_move() -> None:
    game = Game(seed=7)
    order = game.export_deck_order()
    event = game.flip()
    assert event.card == order["white"][0]
    assert event.color == chess.WHITE
    assert event.cards_left == 15
    assert game.pending == order["white"][0]
    assert game.export_deck_order()["white"] == order["white"][1:]
    # Only drops of that card are legal now.
    assert game.legal_moves() and all(m.drop for m in game.legal_moves())
    with pytest.raises(IllegalFlipError, match="must be dealt with first"):
        game.flip()


def test_seed_reproduces_the_decks_and_seeds_differ() -> None:
    assert Game(seed=5).export_initial_order() == Game(seed=5).export_initial_order()
    assert Game(seed=5).export_initial_order() != Game(seed=6).export_initial_order()
    one = Game(seed=5).export_initial_order()
    assert one["white"] != [c.upper() for c in one["black"]]  # each side shuffled apart
    assert sorted(one["white"]) == sorted(HouseRules().deck_letters(chess.WHITE))


def test_unseeded_decks_are_shuffled_and_complete() -> None:
    orders = {tuple(Game().export_initial_order()["white"]) for _ in range(5)}
    assert len(orders) > 1
    for order in orders:
        assert sorted(order) == sorted(FULL_WHITE)


FULL_WHITE = HouseRules().deck_letters(chess.WHITE)


def test_deck_order_is_never_shown() -> None:
    game = Game(seed=3)
    seen: list[object] = []
    game.subscribe(seen.append)
    order = "".join(game.export_initial_order()["white"])
    texts = [repr(game), repr(game._decks), str(game.board), game.rfen()]
    assert all(order not in text for text in texts)
    assert "KQ" not in repr(game._decks)
    game.flip()
    for event in seen:
        assert order not in repr(event)
    assert not [name for name in vars(Game) if "order" in name and not name.startswith(
        ("export", "_"))]


def test_place_move_and_events() -> None:
    game = Game(decks=fixed_decks("KQ", "kq"))
    seen: list[events.GameEvent] = []
    game.subscribe(seen.append)
    game.flip()
    game.play_text("K@e1")
    assert [type(e) for e in seen] == [events.CardFlipped, events.PositionChanged,
                                       events.PiecePlaced, events.PositionChanged]
    assert seen[2] == events.PiecePlaced(chess.WHITE, chess.Move.from_uci("K@e1"), "K@e1")
    assert game.turn == chess.BLACK
    game.flip()
    game.play_text("k@e8")
    # White's king is on the board: flip or move.
    game.play_text("e1e2")
    assert game.board.piece_at(chess.E2) == chess.Piece(chess.KING, chess.WHITE)
    assert game.san_history() == ["K@e1", "K@e8", "Ke2"]
    game.flip()
    game.play_text("q@e4")  # check
    assert isinstance(seen[-2], events.Check)
    assert seen[-2].color == chess.WHITE
    assert list(seen[-2].checkers) == [chess.E4]


def test_illegal_actions_say_why_and_change_nothing() -> None:
    game = Game(decks=fixed_decks("KP", "kq"))
    before = game.rfen()
    with pytest.raises(IllegalActionError, match="flip a card first"):
        game.play_text("N@e4")
    with pytest.raises(IllegalActionError, match="cannot read"):
        game.play_text("hello")
    with pytest.raises(IllegalActionError, match="empty"):
        game.play_text("  ")
    assert game.rfen() == before
    game.flip()
    with pytest.raises(IllegalActionError, match="must be placed first"):
        game.play_text("e2e3")
    with pytest.raises(IllegalActionError, match=r"not a queen|flipped card is a king"):
        game.play_text("Q@e4")
    game.play_text("K@e1")
    game.flip()
    game.play_text("k@e8")
    with pytest.raises(IllegalActionError, match=r"castling|cannot go"):
        game.play(chess.Move.from_uci("e1e3"))
    game.flip()  # white pawn
    with pytest.raises(IllegalActionError, match="ranks 2 to 6"):
        game.play_text("P@e7")
    with pytest.raises(IllegalActionError, match="not empty"):
        game.play_text("P@e1")
    rfen = game.rfen()
    assert game.why_illegal(chess.Move.from_uci("P@h8")) is not None
    assert game.rfen() == rfen


def test_undo_and_redo_of_moves_and_a_flip_taken_back() -> None:
    game = Game(seed=11)
    game.flip()
    game.undo()
    assert game.rfen() == START
    assert sorted(game.export_deck_order()["white"]) == sorted(game.export_initial_order()
                                                               ["white"])
    assert not game.can_redo()
    game.flip()
    move = game.legal_moves()[0]
    game.play(move)
    game.undo()
    assert game.pending is not None  # the card stays face up, to be placed again
    game.redo()
    assert game.board.piece_at(move.to_square) is not None
    # A new action clears the redo stack.
    game.undo()
    game.play(game.legal_moves()[-1])
    assert not game.can_redo()
    with pytest.raises(IllegalActionError, match="nothing to redo"):
        game.redo()


def test_undo_everything_restores_the_position_and_the_deck_contents() -> None:
    for seed in range(6):
        game = Game(seed=seed, rules=HouseRules(jokers_per_deck=seed % 3,
                                                joker_effect="remove_piece" if seed % 2
                                                else "extra_turn",
                                                failed_rescue="return" if seed > 2 else "lose"))
        rng = random.Random(seed)
        for _ in range(120):
            if game.is_over:
                break
            random_step(game, rng)
        if game.is_over:
            continue
        count = len(game.actions())
        for _ in range(count):
            game.undo()
        assert game.rfen() == game.rules.start_rfen()
        for color, side in ((chess.WHITE, "white"), (chess.BLACK, "black")):
            assert sorted(game.export_deck_order()[side]) == sorted(
                game.export_initial_order()[side])
            assert game.deck_counts(color) == game.board.deck(color)


def test_random_games_keep_decks_and_board_in_step() -> None:
    for seed in range(12):
        game = Game(seed=seed, rules=HouseRules(jokers_per_deck=2))
        rng = random.Random(100 + seed)
        for _ in range(300):
            if game.is_over:
                break
            random_step(game, rng)
            for color in chess.COLORS:
                assert game.deck_counts(color) == game.board.deck(color)
            if rng.random() < 0.1 and game.can_undo():
                game.undo()
        assert game.legal_moves() == [] or not game.is_over


def test_board_property_is_a_copy() -> None:
    game = Game(seed=2)
    board = game.board
    board.flip(game.export_deck_order()["white"][0])
    assert game.pending is None
    assert game.rfen() == START


def test_failed_rescue_lose() -> None:
    game = Game(decks=fixed_decks("KP", "n"))
    seen: list[events.GameEvent] = []
    game.subscribe(seen.append)
    game.flip()
    game.play_text("K@e1")
    game.flip()
    game.play_text("n@d3")  # check by a knight: no card can block
    assert game.mate_verdict().checkmate is False
    event = game.flip()
    assert event.outcome == FlipOutcome.FAILED_RESCUE
    assert game.is_over
    assert game.outcome is not None
    assert game.outcome.termination == Termination.FAILED_RESCUE
    assert game.outcome.winner == chess.BLACK
    assert any(isinstance(e, events.RescueFailed) and e.lost for e in seen)
    assert isinstance(seen[-1], events.GameOver) or isinstance(seen[-2], events.GameOver)
    with pytest.raises(GameOverError):
        game.flip()
    assert game.legal_moves() == []


def test_failed_rescue_return_keeps_the_turn_and_returns_the_card() -> None:
    rules = HouseRules(failed_rescue="return")
    game = Game(rules=rules, decks=fixed_decks("KP", "n", rules))
    game.flip()
    game.play_text("K@e1")
    game.flip()
    game.play_text("n@d3")
    event = game.flip()
    assert event.outcome == FlipOutcome.RETURNED
    assert game.turn == chess.WHITE
    assert game.export_deck_order()["white"][-1] == "P"
    assert not game.can_flip()
    assert "chess move must lift" in (game.why_cannot_flip() or "")
    game.play_text("Kxd3" if chess.Move.from_uci("e1d3") in game.legal_moves() else "Kd2")
    assert game.turn == chess.BLACK
    game.undo()
    game.undo()
    assert game.pending is None and game.board.is_check()
    assert game.deck_counts(chess.WHITE) == game.board.deck(chess.WHITE)
    assert not game.can_redo()


def test_extra_turn_joker_keeps_the_turn_and_the_clock() -> None:
    rules = HouseRules(jokers_per_deck=1)
    now = [0.0]
    from companion.clock import ClockSettings

    game = Game(rules=rules, decks=fixed_decks("JK", "jk", rules),
                clock=ClockSettings(60, increment=2), now=lambda: now[0])
    assert game.clock is not None
    event = game.flip()
    assert event.outcome == FlipOutcome.EXTRA_TURN
    assert game.turn == chess.WHITE
    assert game.clock.running == chess.WHITE
    assert game.deck_counts(chess.WHITE).get("J") is None
    now[0] = 5.0
    game.flip()
    game.play_text("K@d1")
    assert game.clock.running == chess.BLACK
    assert game.clock.remaining(chess.WHITE) == pytest.approx(57.0)
    assert game.san_history() == ["flip J (extra turn)", "K@d1"]


def test_remove_piece_joker() -> None:
    rules = HouseRules(jokers_per_deck=1, joker_effect="remove_piece")
    game = Game(rules=rules, decks=fixed_decks("KJ", "n", rules))
    seen: list[events.GameEvent] = []
    game.subscribe(seen.append)
    game.flip()
    game.play_text("K@a1")
    game.flip()
    game.play_text("n@h5")
    event = game.flip()
    assert event.outcome == FlipOutcome.REMOVE_PIECE
    assert game.pending == "J"
    assert list(game.legal_removals()) == [chess.H5]
    with pytest.raises(IllegalRemovalError):
        game.remove(chess.E8)
    game.remove(chess.H5)
    assert game.board.piece_at(chess.H5) is None
    assert events.PieceRemoved(chess.WHITE, chess.H5, chess.Piece(chess.KNIGHT, chess.BLACK)) \
        in seen
    assert game.san_history() == ["K@a1", "N@h5", "Jxh5"]
    game.undo()
    assert game.pending == "J"
    game.redo()
    assert game.san_history() == ["K@a1", "N@h5", "Jxh5"]
    game.undo()
    game.undo()
    assert game.pending is None and "J" in game.deck_counts(chess.WHITE)
    assert not game.can_redo()


def test_resign_and_draws() -> None:
    game = Game(seed=4)
    game.offer_draw(chess.WHITE)
    with pytest.raises(IllegalActionError, match="no draw offer"):
        game.accept_draw(chess.WHITE)
    game.decline_draw(chess.BLACK)
    assert game.draw_offer is None
    game.offer_draw(chess.BLACK)
    game.accept_draw(chess.WHITE)
    assert game.outcome is not None
    assert game.outcome.termination == Termination.AGREEMENT
    assert not game.can_undo()
    with pytest.raises(GameOverError):
        game.undo()
    game2 = Game(seed=4)
    assert game2.claim_draw() is False
    game2.resign(chess.WHITE)
    assert game2.outcome is not None
    assert game2.outcome.winner == chess.BLACK
    assert game2.outcome.termination == Termination.RESIGNATION


def test_a_draw_offer_lapses_when_the_opponent_plays() -> None:
    game = Game(decks=fixed_decks("K", "k"))
    game.offer_draw(chess.WHITE)
    game.flip()
    game.play_text("K@e1")
    assert game.draw_offer == chess.WHITE
    game.flip()
    game.play_text("k@e8")
    assert game.draw_offer is None


def test_threefold_repetition_claim() -> None:
    game = Game(decks=fixed_decks("K", "k"))
    for text in ("K@a1", "k@h8"):
        game.flip()
        game.play_text(text)
    assert not game.can_claim_draw()
    for _ in range(2):
        for text in ("Ka2", "Kh7", "Ka1", "Kh8"):
            game.play_text(text)
    assert game.can_claim_draw()
    assert game.claim_draw() is True
    assert game.outcome is not None
    assert game.outcome.termination == Termination.THREEFOLD_REPETITION


def test_checkmate_and_game_over_event_in_random_games() -> None:
    found = 0
    for seed in range(40):
        game = Game(seed=seed)
        seen: list[events.GameEvent] = []
        game.subscribe(seen.append)
        playout(game, random.Random(seed))
        outcome = game.outcome
        if outcome is not None:
            overs = [e for e in seen if isinstance(e, events.GameOver)]
            assert overs == [events.GameOver(outcome)]
            if outcome.termination == Termination.CHECKMATE:
                found += 1
                assert game.mate_verdict().checkmate
                assert game.legal_moves() == []
                assert not game.can_flip()
    assert found > 0


def test_targets_and_promotion_choices() -> None:
    game = Game(decks=fixed_decks("KP", "kP".lower()))
    for text in ("K@a1", "k@h8"):
        game.flip()
        game.play_text(text)
    assert set(game.targets(chess.A1)) == {chess.A2, chess.B1, chess.B2}
    game.flip()
    game.play_text("P@c6")
    game.flip()
    game.play_text("p@h6")
    game.play_text("c7")
    game.play_text("Kg8")
    assert game.promotion_choices(chess.C7, chess.C8) == [chess.QUEEN, chess.ROOK,
                                                          chess.BISHOP, chess.KNIGHT]
    seen: list[events.GameEvent] = []
    game.subscribe(seen.append)
    game.play_text("c8=Q+")
    assert events.Promoted(chess.WHITE, chess.C8, chess.QUEEN) in seen
    assert game.board.is_blue(chess.C8)
    assert game.promotion_choices(chess.C7, chess.C8) == []


def test_unsubscribe_and_failing_listener() -> None:
    game = Game(seed=1)
    seen: list[object] = []

    def broken(event: object) -> None:
        raise RuntimeError("listener bug")

    game.subscribe(broken)
    stop = game.subscribe(seen.append)
    game.flip()
    count = len(seen)
    assert count > 0
    stop()
    game.undo()
    assert len(seen) == count


def test_decks_from_order_checks_contents() -> None:
    from companion.cards import DeckError

    with pytest.raises(DeckError, match="not a full deck"):
        Decks.from_order({"white": list("KQ"), "black": list("kq")}, HouseRules())
    with pytest.raises(DeckError, match="black card"):
        Decks(["k"], [])
    with pytest.raises(DeckError, match="unknown card"):
        Decks(["X"], [])


def test_stacked_decks_put_the_chosen_cards_on_top_and_refuse_missing_ones() -> None:
    decks = Decks.stacked("KN", "q")
    assert decks.export_order()["white"][:2] == ["K", "N"]
    assert sorted(decks.export_order()["white"]) == sorted(HouseRules().deck_letters(chess.WHITE))
    assert decks.export_order()["black"][0] == "q"
    with pytest.raises(DeckError, match="no 'Q' card left"):
        Decks.stacked("QQ", "")
