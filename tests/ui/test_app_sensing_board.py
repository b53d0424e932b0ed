"""A game driven by the simulated sensing board: pieces put on the (simulated)
physical board reach the game through BoardSync and update the screen; a wrong
placement is shown with the squares to fix and instructions, then put right."""

from __future__ import annotations

import chess
from app_driver import Driver

from companion.sensors.simulated import SimPiece


def settle(driver: Driver) -> None:
    sim = driver.app.session.link.source
    sim.advance(sim.settle)
    driver.pump(3)


def test_a_game_on_the_simulated_board_updates_the_screen(driver: Driver) -> None:
    game = driver.new_game("KQ", "k", board="sim")
    session = driver.app.session
    sim = session.link.source
    screen = driver.game_screen
    sensed = screen.sensed
    assert sensed is not None and sensed.connected and sensed.source == "sim"
    assert screen.ids.sensed_board.opacity == 1
    assert "sim: connected" in screen.ids.sensed_status.text

    driver.flip(chess.WHITE)
    sim.place(chess.E1, SimPiece.of(chess.Piece(chess.KING, chess.WHITE)))
    settle(driver)
    assert game.san_history() == ["K@e1"]
    assert driver.shown_pieces() == {"e1": "K"}
    assert [sq for sq, _ in screen.sensed.markers] == [chess.E1]
    assert "K@e1" in screen.ids.sensed_message.text

    # Black places the king next to White's: illegal; the screen says how to fix it.
    driver.flip(chess.BLACK)
    sim.place(chess.D2, SimPiece.of(chess.Piece(chess.KING, chess.BLACK)))
    settle(driver)
    assert game.pending == "k" and "d2" not in driver.shown_pieces()
    assert chess.D2 in screen.ids.board.fix_squares
    assert chess.D2 in screen.ids.sensed_board.fix_squares
    message = screen.ids.sensed_message.text
    assert "d2" in message
    assert screen.sensed.kind in ("illegal", "mismatch")

    sim.lift(chess.D2)
    sim.place(chess.E8)
    settle(driver)
    assert game.san_history() == ["K@e1", "K@e8"]
    assert screen.ids.board.fix_squares == []
    assert driver.shown_pieces() == {"e1": "K", "e8": "k"}


def test_taps_on_the_simulated_board_act_through_its_hands(driver: Driver) -> None:
    game = driver.new_game("KQ", "k", board="sim")
    sim = driver.app.session.link.source
    driver.flip(chess.WHITE)
    driver.place("e1")       # the tap moves a piece on the simulated board
    driver.pump(4)
    assert chess.E1 in sim.squares
    assert game.san_history() == ["K@e1"]
    assert not driver.app.session.link.busy
