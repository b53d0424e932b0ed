"""Whole games played by simulated touches on the headless app: flips, placements,
moves, a promotion with the picker, a verdict, a failed rescue, checkmate, the
joker, undo/redo, draws and resignation. Assertions read the game and what the
screen shows."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import chess

from companion.rules import HouseRules, Termination
from ui.demo import DEMO_DECKS

DEMO_WHITE = "".join(DEMO_DECKS["white"])
DEMO_BLACK = "".join(DEMO_DECKS["black"])
TO_PROMOTION = ["flip", "K@e1", "flip", "k@e8", "flip", "P@g6", "flip", "p@d6", "g6g7",
                "flip", "n@c6", "flip", "Q@a4", "flip", "q@b6"]

if TYPE_CHECKING:
    from app_driver import Driver


def test_flips_placements_moves_and_a_promotion_with_the_picker(driver: Driver) -> None:
    game = driver.new_game(DEMO_WHITE, DEMO_BLACK)
    screen = driver.game_screen
    assert driver.view.white.can_flip and not driver.view.black.can_flip

    driver.flip(chess.WHITE)
    assert game.pending == "K"
    card = screen.ids.white_panel.card
    assert card.title == "King" and card.live
    assert "King" in driver.texts(screen.ids.white_panel)
    assert screen.ids.board.target_kind == "drop"
    assert chess.E1 in screen.ids.board.targets

    driver.place("e1")
    assert driver.shown_pieces() == {"e1": "K"}
    assert game.turn == chess.BLACK

    driver.play(TO_PROMOTION[2:])
    assert game.san_history()[-1] == "Q@b6"
    assert driver.view.moves_text.replace("\u00a0", " ").startswith(
        "1. K@e1 K@e8   2. P@g6 P@d6   3. g7 N@c6   4. Q@a4 Q@b6")
    assert screen.ids.moves_scroll.text.replace("\u00a0", " ").startswith(
        "1. K@e1 K@e8   2. P@g6 P@d6")

    # A selected piece shows its legal targets; the promotion opens the picker.
    driver.tap_square("g7")
    assert screen.ids.board.selected == chess.G7
    assert screen.ids.board.target_kind == "move"
    assert set(screen.ids.board.targets) == {chess.G8}
    driver.tap_square("g8")
    picker = screen.picker
    assert picker is not None and picker in driver.open_modals()
    offered = {w.piece_type for w in picker.walk() if hasattr(w, "picker") and w.opacity > 0}
    assert offered == {chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT}
    driver.pick_promotion(chess.QUEEN)
    assert not driver.open_modals()
    assert driver.shown_pieces()["g8"] == "Q~"
    assert game.board.is_blue(chess.G8)
    assert game.board.blue_available(chess.WHITE) == [chess.ROOK, chess.BISHOP, chess.KNIGHT]

    # Check is announced plainly, and the king's square glows.
    assert driver.message().startswith("Check! Black's king is attacked")
    assert screen.ids.board.check_square == chess.E8


def test_the_picker_offers_only_the_blue_pieces_still_available(driver: Driver) -> None:
    rules = HouseRules(blue_pieces="QN")
    driver.new_game(DEMO_WHITE, DEMO_BLACK, rules=rules)
    driver.play(TO_PROMOTION)
    driver.move("g7", "g8")
    picker = driver.game_screen.picker
    shown = [w for w in picker.walk() if hasattr(w, "picker")]
    offered = {w.piece_type for w in shown if not w.disabled}
    assert offered == {chess.QUEEN, chess.KNIGHT}
    # The blue pieces this game does not have are shown greyed, by name, and do nothing.
    assert {w.piece_type for w in shown if w.disabled} == {chess.ROOK, chess.BISHOP}
    assert "Rook (used)" in driver.texts(picker)
    driver.tap(next(w for w in shown if w.piece_type == chess.ROOK))
    assert driver.game_screen.picker is picker and not driver.shown_pieces().get("g8")
    assert "White promotes: choose a blue piece" in driver.texts(picker)
    driver.pick_promotion(chess.KNIGHT)
    assert driver.shown_pieces()["g8"] == "N~"


def test_verify_shows_the_verdict_its_four_conditions_and_the_rescue_chance(
        driver: Driver) -> None:
    driver.new_game(DEMO_WHITE, DEMO_BLACK)
    driver.play(TO_PROMOTION)
    driver.move("g7", "g8")
    driver.pick_promotion(chess.QUEEN)
    driver.tap(driver.game_screen.ids.verify)
    verdict_view = driver.game_screen.verdict_view
    assert verdict_view in driver.open_modals()
    shown = "\n".join(driver.texts(verdict_view))
    assert "Not checkmate" in shown
    for number in (1, 2, 3, 4):
        assert f"{number}. " in shown
    assert "The king is attacked" in shown
    # Black's deck still holds bishops and others that block on f8: the chance is shown.
    verdict = verdict_view.verdict
    assert not verdict.checkmate and verdict.rescue_probability > 0
    chance = verdict.rescue_probability
    assert f"{chance.numerator}/{chance.denominator}" in shown
    # Plain words: cards by name with plurals that agree, neutral marks.
    assert "a knight on f8" in shown and " n on f8" not in shown
    assert "1 knight" in shown and "2 bishops" in shown and "(s)" not in shown
    assert "\u2714 holds" in shown and "\u2718 no" in shown
    # It is Black's king: the verdict faces Black, and turns over for White.
    assert verdict_view.turned
    driver.tap_button(verdict_view, "Turn to White")
    assert not verdict_view.turned
    driver.tap_button(verdict_view, "Close")
    assert not driver.open_modals()


def test_a_failed_rescue_ends_the_game_and_is_announced(driver: Driver) -> None:
    game = driver.new_game("KN", "kq")
    driver.play(["flip", "K@e1", "flip", "k@h8", "flip", "N@f7"])
    assert driver.message().startswith("Check! Black's king is attacked")
    driver.flip(chess.BLACK)   # a queen cannot block a knight's check
    assert game.outcome is not None
    assert game.outcome.termination == Termination.FAILED_RESCUE
    assert driver.app.root.current == "game_over"
    over = driver.app.screen("game_over")
    # The result faces both players; the card flipped in vain and the four reasons show.
    banner = over.ids.white_banner.text
    assert banner.startswith("1-0") and "failed rescue" in banner
    assert over.ids.black_banner.text == banner
    shown = driver.texts(over)
    assert "Black flipped the queen: it cannot lift the check" in shown
    card = next(w for w in over.walk() if type(w).__name__ == "CardView")
    assert card.opacity == 1 and card.card.letter == "q"
    assert any(t.startswith("The king is attacked: the king on h8 is attacked by the knight")
               for t in shown)
    assert not any("R7" in t for t in shown)  # plain words, no rule codes


def test_checkmate_then_export_and_a_new_game(driver: Driver) -> None:
    game = driver.new_game("KQ", "k")
    driver.play(["flip", "K@f6", "flip", "k@h8", "flip", "Q@g7"])
    assert game.outcome is not None and game.outcome.termination == Termination.CHECKMATE
    over = driver.app.screen("game_over")
    assert driver.app.root.current == "game_over"
    assert over.ids.white_banner.text == "1-0   White wins by checkmate"
    assert "The last move: Q@g7# by White" in driver.texts(over)
    assert {chess.square_name(p.square) for p in over.ids.board.pieces} == {"f6", "h8", "g7"}

    driver.tap(over.ids.export)
    assert over.export_text.startswith("Saved to ")
    path = Path(over.export_text.removeprefix("Saved to "))
    text = path.read_text(encoding="utf-8")
    assert '[Result "1-0"]' in text and "Q@g7" in text
    assert any(str(path) in text for text in driver.texts(over))

    driver.tap(over.ids.new_game)
    assert driver.app.root.current == "new_game"


def test_undo_and_redo_by_touch(driver: Driver) -> None:
    game = driver.new_game(DEMO_WHITE, DEMO_BLACK)
    driver.play(["flip", "K@e1", "flip", "k@e8"])
    undo, redo = driver.game_screen.ids.undo, driver.game_screen.ids.redo
    assert not undo.disabled and redo.disabled
    driver.tap(undo)
    assert game.pending == "k" and "e8" not in driver.shown_pieces()
    assert not redo.disabled
    driver.tap(redo)
    assert driver.shown_pieces() == {"e1": "K", "e8": "k"}
    assert game.turn == chess.WHITE


def test_illegal_taps_are_explained_and_change_nothing(driver: Driver) -> None:
    game = driver.new_game("KP", "k")
    driver.play(["flip", "K@e1", "flip", "k@e8", "flip"])
    before = game.rfen()
    driver.tap_square("h8")  # white pawns go on ranks 2-6 only
    assert game.rfen() == before
    status = driver.message()
    assert "pawn" in status.lower() and ("rank" in status.lower() or "h8" in status)
    black_flip = driver.button(driver.game_screen.ids.black_panel, "Flip")
    assert black_flip.disabled  # not Black's turn
    driver.tap(black_flip)
    assert game.rfen() == before


def test_draw_offer_and_acceptance_on_the_opponents_panel(driver: Driver) -> None:
    game = driver.new_game(DEMO_WHITE, DEMO_BLACK)
    driver.play(["flip", "K@e1", "flip", "k@e8"])
    white_panel = driver.game_screen.ids.white_panel
    black_panel = driver.game_screen.ids.black_panel
    driver.tap_button(white_panel, "Offer draw")
    assert driver.view.black.draw_offer_to_answer
    driver.tap_button(black_panel, "Accept draw")
    assert game.outcome is not None and game.outcome.termination == Termination.AGREEMENT
    assert driver.app.screen("game_over").ids.white_banner.text.startswith("1/2-1/2")


def test_resignation_needs_a_confirmation(driver: Driver) -> None:
    game = driver.new_game(DEMO_WHITE, DEMO_BLACK)
    driver.play(["flip", "K@e1"])
    black_panel = driver.game_screen.ids.black_panel
    driver.tap_button(black_panel, "Resign")
    assert not game.is_over
    driver.tap_button(black_panel, "Keep playing")
    assert not game.is_over
    driver.tap_button(black_panel, "Resign")
    driver.tap_button(black_panel, "Yes, resign")
    assert game.outcome is not None and game.outcome.winner == chess.WHITE
    assert "White wins by resignation" in driver.app.screen("game_over").ids.white_banner.text


def test_a_remove_piece_joker_by_touch(driver: Driver) -> None:
    rules = HouseRules(jokers_per_deck=1, joker_effect="remove_piece")
    game = driver.new_game("KNJ", "kn", rules=rules)
    driver.play(["flip", "K@e1", "flip", "k@e8", "flip", "N@d4", "flip", "n@c6", "flip"])
    assert game.pending == "J"
    board = driver.game_screen.ids.board
    assert board.target_kind == "remove" and chess.C6 in board.targets
    assert driver.game_screen.ids.white_panel.card.title == "Joker"
    driver.tap_square("c6")
    assert "c6" not in driver.shown_pieces()
    assert game.turn == chess.BLACK


def test_claim_a_draw_by_threefold_repetition(driver: Driver) -> None:
    game = driver.new_game("KQ", "kq")
    driver.play(["flip", "K@e1", "flip", "k@e8"])
    white = driver.game_screen.ids.white_panel
    assert driver.button(white, "Offer draw")  # no draw to claim yet
    driver.play(["e1d1", "e8d8", "d1e1", "d8e8", "e1d1", "e8d8", "d1e1", "d8e8"])
    claim = driver.button(white, "Claim draw")  # the side to move may claim it
    assert not claim.disabled
    driver.button(driver.game_screen.ids.black_panel, "Offer draw")
    driver.tap(claim)
    assert game.outcome is not None
    assert game.outcome.termination == Termination.THREEFOLD_REPETITION
    assert driver.app.screen("game_over").ids.white_banner.text == \
        "1/2-1/2   Draw: threefold repetition (claimed)"


def test_an_extra_turn_joker_is_announced_and_the_same_player_flips_again(
        driver: Driver) -> None:
    rules = HouseRules(jokers_per_deck=1, joker_effect="extra_turn")
    game = driver.new_game("KJN", "k", rules=rules)
    driver.play(["flip", "K@e1", "flip", "k@e8", "flip"])
    assert driver.message().startswith("Joker! White takes another turn")
    assert game.turn == chess.WHITE and driver.view.white.can_flip
    driver.flip(chess.WHITE)
    assert game.pending == "N"


def test_a_failed_rescue_under_the_return_rule_needs_a_move(driver: Driver) -> None:
    rules = HouseRules(failed_rescue="return")
    game = driver.new_game("KN", "kq", rules=rules)
    driver.play(["flip", "K@e1", "flip", "k@h8", "flip", "N@f7", "flip"])
    assert not game.is_over and game.turn == chess.BLACK
    assert "must lift the check with a move" in driver.message()
    assert driver.message().endswith("\nBlack: lift the check with a chess move")
    driver.move("h8", "g8")
    assert game.turn == chess.WHITE and driver.shown_pieces()["g8"] == "k"
