"""The other screens: new game (house rules, jokers, clock, board source), resume
from the journal, settings, the camera wizard on the demo scene."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import chess
import pytest

from companion.rules import EXPLANATIONS

if TYPE_CHECKING:
    from app_driver import Driver


def test_new_game_screen_explains_every_rule_and_starts_the_chosen_game(
        driver: Driver, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.sensors import serial_board

    monkeypatch.setattr(serial_board, "find_board_ports", lambda: [])  # no board plugged in
    app = driver.app
    driver.tap(app.screen("home").ids.new_game)
    screen = app.screen("new_game")
    assert app.root.current == "new_game"
    deadline = time.monotonic() + 60  # the board sources are checked off the UI thread
    while screen.checking and time.monotonic() < deadline:
        driver.pump(1)
    assert not screen.checking
    shown = "\n".join(driver.texts(screen))
    for key in ("blue_pieces", "blue_returns_when_captured", "failed_rescue", "touch_move",
                "joker_effect", "coloured_bishop_cards"):
        assert EXPLANATIONS[key] in shown, key
    assert EXPLANATIONS["jokers_per_deck"] in shown
    # Boards that cannot be used say why (no reed-switch board on this machine).
    assert screen.board_status["screen"] == ""
    assert "not available: no reed-switch board found on USB" in shown

    driver.tap_button(screen.ids.jokers, "2")
    assert "A joker gives the player another whole turn." in "\n".join(driver.texts(screen))
    driver.tap_button(screen.ids.joker_effect, "Remove a piece")
    driver.tap_button(screen.ids.failed_rescue, "Card back, move")
    driver.tap_button(screen.ids.clock, "5 min + 3 s")
    driver.tap_button(screen.ids.board, "On-screen board")
    driver.tap(screen.ids.header.ids.action)
    assert app.root.current == "game"
    game = app.session.game
    assert game.rules.jokers_per_deck == 2
    assert game.rules.joker_effect == "remove_piece"
    assert game.rules.failed_rescue == "return"
    assert game.clock is not None and game.clock.settings.increment == 3
    assert app.session.link is None
    assert game.deck_size(chess.WHITE) == 18
    minutes, seconds = driver.view.white.clock_text.split(":")
    assert 240 <= int(minutes) * 60 + int(seconds) <= 300  # White's clock runs from 5:00
    assert driver.view.white.clock_running and not driver.view.black.clock_running


def test_resume_the_journalled_game_from_home(driver: Driver) -> None:
    app = driver.app
    driver.new_game("KQ", "k")
    driver.play(["flip", "K@e1", "flip"])
    rfen = app.session.game.rfen()
    app.end_session()
    app.show("home")
    driver.pump()
    home = app.screen("home")
    assert home.can_resume
    assert "Black to play" in home.resume_text
    driver.tap(home.ids.resume)
    assert app.root.current == "game"
    assert app.session.game.rfen() == rfen
    assert app.session.game.pending == "k"
    driver.place("e8")
    assert driver.shown_pieces() == {"e1": "K", "e8": "k"}


def test_settings_are_saved_and_name_the_players(driver: Driver) -> None:
    app = driver.app
    driver.tap(app.screen("home").ids.settings)
    screen = app.screen("settings")
    screen.ids.white.text = "Ada"
    screen.ids.black.text = "Grace"
    driver.tap(screen.ids.header.ids.action)
    saved = json.loads(Path(os.environ["RAINDROP_DATA_DIR"], "app-settings.json").read_text())
    assert saved["white_name"] == "Ada" and saved["black_name"] == "Grace"
    driver.new_game("KQ", "k")
    assert driver.view.white.name == "Ada"
    assert any(text.startswith("Grace") for text in
               driver.texts(driver.game_screen.ids.black_panel))
    app.settings.white_name, app.settings.black_name = "White", "Black"


def test_camera_wizard_finds_the_board_on_the_demo_scene_and_saves_it(
        driver: Driver) -> None:
    app = driver.app
    driver.tap(app.screen("home").ids.camera)
    screen = app.screen("camera")
    assert screen.problem == ""
    driver.tap(screen.ids.demo)
    deadline = time.monotonic() + 60
    while screen.feed.texture is None and time.monotonic() < deadline:
        driver.pump(1)
    assert screen.step == 2 and screen.ids.preview.texture is not None
    driver.tap(screen.ids.find)
    deadline = time.monotonic() + 60
    while screen.feed.finding and time.monotonic() < deadline:
        driver.pump(1)
    assert screen.feed.found is not None, screen.feed.status
    assert screen.step == 3
    assert len(screen.ids.preview.corners) == 4
    assert "Board found" in screen.ids.status.text
    driver.tap(screen.ids.save)
    assert screen.saved_text.startswith("Saved to ")
    saved = Path(screen.saved_text.removeprefix("Saved to "))
    assert saved.is_file() and json.loads(saved.read_text())["source"] == "demo"
    app.show("home")
    screen.feed.stop()


def test_going_home_pauses_the_clock_and_coming_back_resumes_it(driver: Driver) -> None:
    from companion.clock import ClockSettings
    from ui.options import NewGame

    app = driver.app
    app.start_game(NewGame(clock=ClockSettings(base=300)))
    driver.pump()
    game = app.session.game
    assert game.clock.running == chess.WHITE
    screen = driver.game_screen
    driver.tap(screen.ids.menu)
    if screen.menu_more:  # a narrow toolbar: the menu button opens a menu, with Home
        (menu,) = driver.open_modals()
        driver.tap(next(b for b in menu.ids.rows.children if b.text == "Home"))
    assert app.root.current == "home" and game.paused and game.clock.running is None
    driver.tap(app.screen("home").ids.back_to_game)
    assert app.root.current == "game" and not game.paused
    assert game.clock.running == chess.WHITE


@pytest.mark.usefixtures("_driver")  # Kivy's window, made as the tests want it
def test_the_game_screen_lays_out_for_landscape_and_portrait() -> None:
    from ui.screens.game import GameScreen

    screen = GameScreen()
    for size in ((1280, 800), (800, 1280), (1024, 600), (600, 1024), (412, 800), (800, 412),
                 (1920, 1200)):
        screen.size = size
        rects = {"board": screen.board_rect, "black": screen.black_rect,
                 "toolbar": screen.toolbar_rect, "white": screen.white_rect}
        if screen.middle_rect[3] > 0:
            rects["middle"] = screen.middle_rect
        for name, (x, y, w, h) in rects.items():
            assert x >= 0 and y >= 0 and x + w <= size[0] + 0.5 and y + h <= size[1] + 0.5, \
                (size, name)
            assert w > 0 and h >= 48
        names = list(rects)
        for i, first in enumerate(names):
            for second in names[i + 1:]:
                ax, ay, aw, ah = rects[first]
                bx, by, bw, bh = rects[second]
                overlap = ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah
                assert not overlap, (size, first, second)
        board = rects["board"]
        assert board[2] == board[3] and board[2] >= min(size) * 0.45
        assert board[2] / 8 >= 48  # every square a full touch target
        assert screen.landscape == (size[0] >= size[1])


def test_boards_are_offered_as_found_and_a_named_port_is_not_looked_for(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.sensors import serial_board
    from ui.availability import board_status

    monkeypatch.setattr(serial_board, "find_board_ports", lambda: [])
    assert board_status("sim")["serial"] == "no reed-switch board found on USB"
    assert board_status("serial:/dev/ttyACM7")["serial"] == ""
    assert board_status("sim")["sim"] == "" and board_status()["screen"] == ""
    monkeypatch.setattr(serial_board, "find_board_ports", lambda: ["/dev/ttyACM0"])
    assert board_status("sim")["serial"] == ""


def test_a_camera_that_fails_keeps_the_wizard_on_its_first_step(driver: Driver) -> None:
    app = driver.app
    app.show("camera")
    screen = app.screen("camera")
    assert not screen.problem

    def broken(_source: str) -> Iterator[object]:
        raise OSError("no camera 7")
        yield  # a generator that fails at once

    screen.feed._frames = broken
    screen.start_camera("7")
    deadline = time.monotonic() + 30
    while screen.feed.running and time.monotonic() < deadline:
        driver.pump(1)
    assert screen.step == 1
    assert screen.feed.level == "error" and "no camera 7" in screen.feed.status
    from ui import theme

    assert tuple(screen.ids.status.color) == theme.DANGER_TEXT


def test_saved_games_are_listed_to_resume_or_review(driver: Driver) -> None:
    app = driver.app
    finished = driver.new_game("KQ", "k")
    driver.play(["flip", "K@f6", "flip", "k@h8", "flip", "Q@g7"])
    assert finished.is_over
    running = driver.new_game("KP", "k")
    driver.play(["flip", "K@e1", "flip", "k@e8"])
    position = running.rfen()
    app.end_session()
    app.show("home")
    driver.pump()

    driver.tap(app.screen("home").ids.saved)
    screen = app.screen("games")
    assert app.root.current == "games"
    texts = driver.texts(screen)
    assert any("2 actions played, White to play" in t for t in texts)
    assert any("1-0, White wins by checkmate" in t for t in texts)
    driver.tap_button(screen, "Review")
    assert app.root.current == "game_over"
    assert app.screen("game_over").ids.white_banner.text == "1-0   White wins by checkmate"

    app.show("games")
    driver.pump()
    driver.tap_button(screen, "Resume")
    assert app.root.current == "game"
    assert app.session.game.rfen() == position and not app.session.game.is_over


def test_a_new_game_while_one_runs_asks_first(driver: Driver) -> None:
    app = driver.app
    game = driver.new_game("KP", "k")
    app.show("home")
    driver.pump()
    driver.tap(app.screen("home").ids.new_game)
    question = driver.open_modals()
    assert len(question) == 1 and app.root.current == "home"
    driver.tap(question[0].ids.no)
    assert app.session.game is game and app.root.current == "home"
    driver.tap(app.screen("home").ids.new_game)
    driver.tap(driver.open_modals()[0].ids.yes)
    assert app.root.current == "new_game"


def test_the_back_key_goes_back_and_asks_before_leaving_a_game(driver: Driver) -> None:
    from kivy.core.window import Window

    app = driver.app
    app.show("settings")
    Window.dispatch("on_keyboard", 27, 0, None, [])
    driver.pump()
    assert app.root.current == "home"
    driver.new_game("KP", "k")
    Window.dispatch("on_keyboard", 27, 0, None, [])
    driver.pump()
    assert app.root.current == "game" and len(driver.open_modals()) == 1
    Window.dispatch("on_keyboard", 27, 0, None, [])  # closes the question
    driver.pump()
    assert app.root.current == "game" and not driver.open_modals()
    Window.dispatch("on_keyboard", 27, 0, None, [])
    driver.pump()
    driver.tap(driver.open_modals()[0].ids.yes)
    assert app.root.current == "home" and app.session is not None
