"""On a sensing board the players make the companion's turns (the app's side of issue
57): the companion's turn is drawn on the screen's board and said in both panels, nothing
is played from the board until it shows that turn, a wrong setup first is guided with the
squares to fix, and the corrected board is accepted and the game goes on from it. For
Raindropchess on the simulated board and for Dropper on a simulated board of stones."""

from __future__ import annotations

from typing import TYPE_CHECKING

import chess
import pytest
from companion_driver import SidedChessEngine, chess_engine, wait_companion

from companion.cards import Decks
from companion.game import Game
from companion.journal import Journal
from companion.rules import HouseRules
from companion.sensors.simulated import SimPiece
from companion.table.seats import HintPolicy, Seat, TableSettings
from ui.games.touching import tap_cell
from ui.options import NewGame

if TYPE_CHECKING:
    from app_driver import Driver

SQ = chess.parse_square


def _piece(symbol: str) -> SimPiece:
    return SimPiece.of(chess.Piece.from_symbol(symbol))


def test_raindropchess_the_player_makes_the_companions_turns_on_the_sensing_board(
        driver: Driver, monkeypatch: pytest.MonkeyPatch) -> None:
    from app_driver import full_deck

    app = driver.app
    monkeypatch.setattr(app, "search_in_process", False)   # a fake engine: in this process
    settings = TableSettings((Seat("white"), Seat("black", True, 1, playouts=4)),
                             HintPolicy(0))
    rules = HouseRules()
    order = {"white": full_deck("KN", chess.WHITE, rules),
             "black": full_deck("kn", chess.BLACK, rules)}
    with chess_engine(SidedChessEngine(["flip", "K@e8", "flip", "N@g8", "g8f6"])):
        game = Game(rules, decks=Decks.from_order(order, rules), journal=Journal.create(),
                    table=settings.to_dict())
        app.start_game(NewGame(rules=rules, board="sim", table=settings.to_dict()),
                       game=game)
        driver.pump()
        screen = driver.game_screen
        link = app.session.companion
        sim = app.session.link.source

        def settle() -> None:
            sim.advance(sim.settle)
            driver.pump(3)

        def companion_played() -> None:
            wait_companion(driver, link, lambda: game.is_over)
            driver.pump(3)

        driver.flip(chess.WHITE)
        sim.place(SQ("e1"), _piece("K"))          # White's king, set on the board
        settle()
        companion_played()
        assert game.san_history() == ["K@e1", "K@e8"]     # the companion's, in the game
        assert screen.ids.board.guide == [SQ("e8")] and screen.ids.board.guide_kind == "turn"
        assert driver.message() == ("Black flips: a king. Black: place the king on e8. On "
                                    "the board: put the black king on e8.")
        # White may not go on before the board shows the companion's turn.
        driver.flip(chess.WHITE)
        assert len(game.actions()) == 4
        assert app.session.table.refused == ("Make the companion's turn on the board first (on "
                                             "the simulated board: tap a square of its turn)")
        # The king set on d8 first: guided, both squares framed; nothing is played.
        sim.place(SQ("d8"), _piece("k"))
        settle()
        assert driver.message().endswith("On the board: put the black king on e8; d8 should "
                                         "be empty.")
        assert set(screen.ids.board.fix_squares) == {SQ("e8"), SQ("d8")}
        assert len(game.actions()) == 4
        sim.lift(SQ("d8"))
        sim.place(SQ("e8"))
        settle()
        assert screen.sensed.kind == "in_sync" and screen.ids.board.fix_squares == []
        assert driver.message().endswith("White to play: flip a card or make a move")
        # The game goes on from the board: White's knight, the companion's, White's move.
        driver.flip(chess.WHITE)
        sim.place(SQ("b1"), _piece("N"))
        settle()
        companion_played()
        assert screen.ids.board.guide == [SQ("g8")] and screen.sensed.kind == "mismatch"
        driver.tap_square("a1")                   # not a square of its turn: refused
        assert screen.sensed.kind == "mismatch" and chess.A1 not in sim.squares
        driver.tap_square("g8")      # on the simulated board, a tap has its hand make it
        driver.pump(3)
        assert screen.sensed.kind == "in_sync" and sim.squares[SQ("g8")].symbol == "n"
        assert app.session.table.refused == ""
        sim.move(SQ("b1"), SQ("c3"))
        settle()
        assert game.san_history()[4] == "Nc3"
        companion_played()
        assert game.san_history()[-1] == "Nf6"
        assert screen.ids.board.guide == [SQ("g8"), SQ("f6")]      # the arrow g8 -> f6
        # A wrong move first (the knight to h6): guided towards f6; the game keeps Nf6.
        sim.move(SQ("g8"), SQ("h6"))
        settle()
        assert driver.message() == ("Black: knight g8 to f6. On the board: put the black "
                                    "knight on f6; h6 should be empty.")
        assert set(screen.ids.board.fix_squares) == {SQ("f6"), SQ("h6")}
        assert screen.ids.sensed_info.ids.fixes.text == ("\u2022 put the black knight on "
                                                         "f6\n\u2022 h6 should be empty")
        assert len(game.actions()) == 10 and game.turn == chess.WHITE
        sim.move(SQ("h6"), SQ("f6"))
        settle()
        assert screen.sensed.kind == "in_sync" and screen.ids.board.fix_squares == []
        assert driver.message() == ("Black: knight g8 to f6.\nWhite to play: flip a card or "
                                    "make a move")
        sim.move(SQ("c3"), SQ("d5"))              # and White's next move is read again
        settle()
        assert game.san_history()[6] == "Nd5"


def test_dropper_the_player_makes_the_companions_turns_on_a_board_of_stones(
        driver: Driver, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.sync.stone_sim import SimulatedStoneBoard
    from ui.games import control
    from ui.games.sensing import StoneSensing

    app = driver.app
    monkeypatch.setattr(app, "search_in_process", False)
    monkeypatch.setattr(app, "companion_playouts", 6)
    settings = TableSettings((Seat("white"), Seat("black", True, 1)), HintPolicy(0))
    app.show("games_play")
    model = control.start_game(app, "dropper", {"size": "4"}, table=settings.to_dict())
    session = model.session
    sim = SimulatedStoneBoard(session.position.cells())
    sensing = StoneSensing(model, sim)   # what the camera's reader is to the app
    sensing.start()
    driver.pump(3)
    screen = app.screen("games_play")
    link = model.companion
    sim.put("c1", "w")                    # White's first turn, made on the board
    driver.pump(3)
    wait_companion(driver, link, lambda: session.is_over)
    driver.pump(3)
    assert session.turns[0] == "c1" and len(session.turns) == 2
    words = link.note
    assert words.startswith("Black: ")
    assert model.view.guide_kind == "turn" and model.view.guide
    lead = screen.view.alert
    assert lead.startswith(words) and "On the board:" in lead
    for panel in (screen.ids.near_panel, screen.ids.far_panel):
        assert lead in panel.text
    # A touch on the screen waits for the board: the companion's turn first.
    want = session.position.cells()
    wrong = next(c for c, v in sim.cells.items() if v == "." and want[c] == ".")
    tap_cell(screen, wrong)
    driver.pump(2)
    assert screen.view.alert == f"First make the companion's turn on the board. {lead}"
    assert len(session.turns) == 2
    # A stone on the wrong cell first: guided, nothing is played from the board.
    sim.put(wrong, "b")
    driver.pump(3)
    assert f"the black stone on {wrong} should be on" in screen.view.alert
    assert screen.view.alert_level == "warn" and len(session.turns) == 2
    sim.take(wrong)
    for cell, value in sorted(sim.cells.items()):      # the player makes the turn as said
        if value != "." and want[cell] != value:
            sim.take(cell)
    for cell, value in sorted(want.items()):
        if value != "." and sim.cells[cell] != value:
            sim.put(cell, value)
    driver.pump(3)
    assert screen.view.alert.startswith("The board shows it")
    assert screen.view.alert_level == "good"
    turn = next(iter(sorted(model.rules.turns(session.position))))   # White goes on
    sim.set_cells(model.rules.play(session.position, turn).cells())
    driver.pump(3)
    assert session.turns[2] == turn
    sensing.stop()
