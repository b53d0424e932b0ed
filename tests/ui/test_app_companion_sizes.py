"""Playing against the companion fits a phone and a tablet: the new-game screens with their
seat and hint rows, the game screens while the companion thinks and with a hint shown, and
the review with its graph, walked by the layout check (48 dp touch targets that do not
overlap, 14 sp texts that fit: tests/ui/layout_check.py)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import chess
import pytest
from companion_driver import SidedChessEngine, chess_engine, wait_companion, wait_for
from games_app_driver import open_new_game
from test_app_sizes import check

from companion.table.review import timeline_of_game
from companion.table.seats import HintPolicy, Seat, TableSettings

if TYPE_CHECKING:
    from app_driver import Driver

SIZES = [(412, 800), (1280, 800)]


@pytest.mark.parametrize("sized", SIZES, indirect=True, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_companions_screens_fit_touch_and_text_rules(
        sized: Driver, monkeypatch: pytest.MonkeyPatch) -> None:
    from test_app_companion_chess import start

    driver = sized
    app = driver.app
    monkeypatch.setattr(app, "search_in_process", False)   # fake engines: in this process
    monkeypatch.setattr(app, "companion_playouts", 4)
    monkeypatch.setattr(app, "review_playouts", 2)
    app.show("new_game")
    new_game = app.screen("new_game")
    new_game.black_seat = "3"
    check(driver, new_game, "new game with the companion")

    gate = threading.Event()
    engine = SidedChessEngine(["flip", "K@h8", "h8g8"], gate=gate)
    settings = TableSettings((Seat("white"), Seat("black", True, 3, playouts=4)),
                             HintPolicy(3))
    with chess_engine(engine):
        game = start(driver, settings)
        link = app.session.companion
        driver.play(["flip", "K@f6"])
        wait_for(driver, lambda: link.thinking, "the companion to think")
        check(driver, driver.game_screen, "the companion thinking")
        gate.set()
        wait_companion(driver, link, lambda: game.is_over)
        driver.tap(driver.game_screen.ids.hint)
        wait_for(driver, lambda: bool(link.hint_lines), "the hint")
        check(driver, driver.game_screen, "a hint")
        assert driver.game_screen.ids.board.guide_kind == "hint"
        assert game.board.piece_at(chess.H8) is not None
        analysis = app.analyse(timeline_of_game(game), "game")
        wait_for(driver, lambda: analysis.review is not None, "the review")
        check(driver, analysis, "the review")

    setup = app.screen("games_setup")
    setup.game = "rumbo"   # its seats are roles: proposer and chooser
    app.show("games_setup")
    check(driver, setup, "Rumbo's new-game screen with its seats")
    screen = open_new_game(driver, "dropper", {"size": "5", "seat:black": "Companion 2"})
    link = screen.model.companion
    wait_companion(driver, link, lambda: screen.model.session.is_over)
    driver.tap(screen.ids.hint)
    wait_for(driver, lambda: bool(link.hint_lines), "the hint")
    check(driver, screen, "Dropper with a hint")
