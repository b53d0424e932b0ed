"""The review and sensed-board sheets face the player to move when the players sit face
to face, and a button turns them to the other player; the board coordinates stay
readable (at least 14 sp) on a phone."""

from __future__ import annotations

from typing import TYPE_CHECKING

import chess

if TYPE_CHECKING:
    from app_driver import Driver


def test_the_review_sheet_faces_the_player_to_move_and_turns(driver: Driver) -> None:
    driver.new_game("KQ", "k")
    driver.play(["flip", "K@f6"])  # Black to move
    screen = driver.game_screen
    sheet = screen.open_review()
    driver.pump()
    assert sheet.turned and sheet.ids.turn.text == "Turn to White"
    driver.tap(sheet.ids.turn)
    assert not sheet.turned and sheet.ids.turn.text == "Turn to Black"
    # The step buttons still work through the turned sheet.
    driver.tap(sheet.ids.turn)
    before = sheet.index
    driver.tap(sheet.ids.back)
    assert sheet.index == before - 1
    screen.close_sheets()


def test_without_face_to_face_the_sheets_face_white(driver: Driver) -> None:
    driver.app.settings.face_to_face = False
    driver.app.apply_settings()
    driver.new_game("KQ", "k", board="sim")
    driver.play(["flip", "K@f6"])
    screen = driver.game_screen
    sheet = screen.open_sensed()
    driver.pump()
    assert sheet is not None and not sheet.turned and sheet.ids.turn.opacity == 0
    screen.close_sheets()


def test_the_sensed_sheet_turned_to_black_shows_the_board_as_black_sees_it(
        driver: Driver) -> None:
    driver.new_game("KQ", "k", board="sim")
    driver.play(["flip", "K@f6"])
    for _ in range(100):
        driver.pump(1)
        if driver.app.session.sensed is not None:
            break
    screen = driver.game_screen
    sheet = screen.open_sensed()
    driver.pump()
    assert sheet is not None and sheet.turned
    board = sheet.ids.board
    # Drawn with Black's side at the sheet's bottom; the sheet is turned, so on the
    # screen White's side is at the bottom, as on the table.
    assert not board.white_at_bottom
    driver.tap(sheet.ids.turn)
    assert board.white_at_bottom
    screen.close_sheets()


def test_phone_coordinates_are_at_least_14_sp_in_the_margin(driver: Driver) -> None:
    from kivy.core.window import Window
    from kivy.metrics import sp
    from ui_window import TEST_WINDOW

    Window.size = (412, 800)
    try:
        driver.new_game("KQ", "k")
        driver.pump(4)
        board = driver.game_screen.ids.board
        labels = board.coordinate_labels()
        assert len(labels) == 16
        assert all(size >= sp(14) - 0.1 for _text, size, _rect in labels)
        x0, y0, side = board.board_rect()
        # In the margin: the files below the squares, the ranks left of them.
        files = [rect for text, _s, rect in labels if text in chess.FILE_NAMES]
        ranks = [rect for text, _s, rect in labels if text in chess.RANK_NAMES]
        assert all(y + h <= y0 for _x, y, _w, h in files)
        assert all(x + w <= x0 for x, _y, w, _h in ranks)
        assert side / 8 < sp(14) * 5  # a phone's squares: too small for 14 sp corners
    finally:
        Window.size = TEST_WINDOW
        driver.pump(2)
