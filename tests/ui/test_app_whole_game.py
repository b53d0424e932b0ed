"""A whole game on the simulated sensing board, played only by touches on the screen:
flips, placements, moves, a check, a promotion with the picker, checkmate, the
game-over screen with its reasons, review, and an undo refused after the mate."""

from __future__ import annotations

import stat
from typing import TYPE_CHECKING

import chess

from companion.rules import Termination
from ui import paths

if TYPE_CHECKING:
    from app_driver import Driver


def act(driver: Driver, *steps: str) -> None:
    """Tap out each step, then let the simulated board report what the hands did."""
    for step in steps:
        driver.play([step])
        link = driver.app.session.link
        for _ in range(100):
            if not link.busy:
                break
            driver.pump(1)
        driver.pump(2)


def test_a_whole_game_by_touch_on_the_simulated_board(driver: Driver) -> None:
    game = driver.new_game("KPQ", "k", board="sim")
    screen = driver.game_screen
    assert driver.app.session.link.simulated

    act(driver, "flip", "K@f6", "flip", "k@h8", "flip", "P@b6")
    assert driver.shown_pieces() == {"f6": "K", "h8": "k", "b6": "P"}
    act(driver, "h8g8", "b6b7", "g8h8")
    assert driver.message().endswith("White to play: flip a card or make a move")

    # The pawn reaches the last rank: the picker, by name, turned to White.
    driver.move("b7", "b8")
    picker = screen.picker
    assert picker is not None and "White promotes: choose a blue piece" in driver.texts(picker)
    driver.pick_promotion(chess.QUEEN)
    act(driver)
    assert driver.shown_pieces()["b8"] == "Q~" and game.board.is_blue(chess.B8)
    # Check: both players read it, each on their own panel.
    assert driver.message().startswith("Check! Black's king is attacked")
    assert screen.ids.board.check_square == chess.H8

    act(driver, "h8h7", "flip", "Q@g7")
    assert game.outcome is not None and game.outcome.termination == Termination.CHECKMATE
    assert driver.app.root.current == "game_over"
    over = driver.app.screen("game_over")
    assert over.ids.white_banner.text == over.ids.black_banner.text == \
        "1-0   White wins by checkmate"
    shown = driver.texts(over)
    assert "The last move: Q@g7# by White" in shown
    assert sum(t.startswith(("The king is attacked", "The king cannot go",
                             "The attacking piece cannot", "No piece can be placed"))
               for t in shown) == 4
    assert "1.\u00a0K@f6\u00a0K@h8" in over.ids.moves.text
    final = game.rfen()

    # Export: the PGN, readable by its owner only (as the journals); a second export in
    # the same second gets its own file.
    driver.tap(over.ids.export)
    driver.tap(over.ids.export)
    exported = sorted(paths.export_dir().glob("raindropchess-*.pgn"))
    assert len(exported) == 2 and over.export_ok
    for path in exported:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert "Q@g7#" in path.read_text(encoding="utf-8")

    # Review steps through the game on the board and changes nothing.
    driver.tap(over.ids.review)
    review = screen.review
    assert driver.app.root.current == "game" and review is not None
    assert driver.shown_pieces() == {}  # the start: an empty board
    driver.tap(review.ids.forward)
    driver.tap(review.ids.forward)
    assert {chess.square_name(p.square) for p in screen.ids.board.pieces} == {"f6", "h8"}
    assert driver.message().startswith("Review: 1... K@h8")
    driver.tap(review.ids.last)
    assert {chess.square_name(p.square) for p in screen.ids.board.pieces} == \
        {"f6", "h7", "b8", "g7"}
    driver.tap(review.ids.done)
    assert screen.review is None and game.rfen() == final

    # Back on the board after the mate, undo is refused: greyed, and with the reason
    # when asked for anyway.
    assert screen.ids.undo.disabled
    driver.tap(screen.ids.undo)
    assert game.is_over and game.rfen() == final
    driver.app.session.undo()
    driver.pump(2)
    assert game.is_over and game.rfen() == final
    assert "cannot be taken back" in screen.ids.white_panel.ids.message.text
