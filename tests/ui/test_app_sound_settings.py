"""Sounds (made on first use, one per action, silent when muted) and the settings that
change the table: board orientation, sound, colour-blind-safe highlights."""

from __future__ import annotations

import wave
from pathlib import Path
from typing import TYPE_CHECKING

import chess
import pytest

if TYPE_CHECKING:
    from app_driver import Driver


def test_sounds_are_small_wav_files_made_the_same_every_time(tmp_path: Path) -> None:
    from ui.sound import SOUNDS, ensure_sounds

    files = ensure_sounds(tmp_path / "a")
    again = ensure_sounds(tmp_path / "b")
    assert sorted(files) == sorted(SOUNDS) == ["capture", "check", "end", "flip",
                                                   "illegal", "move"]
    for name, path in files.items():
        assert path.stat().st_size < 40_000
        with wave.open(str(path)) as sound:
            assert sound.getnchannels() == 1 and sound.getframerate() == 22050
            assert sound.getnframes() > 1000
        assert path.read_bytes() == again[name].read_bytes()


def test_one_sound_per_action_the_one_that_matters_most(driver: Driver) -> None:
    sounds = driver.app.sounds
    sounds.muted = False
    sounds.played.clear()
    driver.new_game("KQ", "k")
    driver.play(["flip", "K@f6"])
    assert sounds.played == ["flip", "move"]
    driver.play(["flip", "k@h8", "flip", "Q@g7"])  # mate: one sound, the end
    assert sounds.played[-1] == "end" and sounds.played.count("end") == 1
    assert sounds.played[-2:] != ["check", "end"]

    sounds.played.clear()
    driver.app.settings.sound = False  # the settings' switch
    try:
        driver.new_game("KQ", "k")
        driver.play(["flip", "K@f6"])
        assert sounds.muted and sounds.played == []
    finally:
        driver.app.settings.sound = True
        driver.app.apply_settings()
    with pytest.raises(ValueError, match="no sound called 'boom'"):
        sounds.play("boom")


def test_settings_turn_the_board_and_switch_the_highlights(driver: Driver) -> None:
    from ui import theme

    app = driver.app
    app.show("settings")
    driver.pump()
    screen = app.screen("settings")
    driver.tap_button(screen.ids.white_at_bottom, "Black at the bottom")
    driver.tap_button(screen.ids.highlights, "Colour-blind safe")
    driver.tap_button(screen.ids.sound, "Off")
    driver.tap_button(screen.ids.board_colours, "Slate blue")
    driver.tap(screen.ids.header.ids.action)
    try:
        assert app.settings.white_at_bottom is False and app.settings.sound is False
        assert app.sounds.muted
        assert theme.HIGHLIGHTS["colour-blind"]["CHECK_GLOW"] == theme.CHECK_GLOW
        assert theme.MESSAGE_FILL["danger"] == theme.HIGHLIGHTS["colour-blind"]["danger"]
        assert theme.BOARDS["slate"]["DARK_SQUARE"] == theme.DARK_SQUARE

        game = driver.new_game("KQ", "k")
        board = driver.game_screen.ids.board
        assert not board.white_at_bottom
        # Black's side is at the bottom: a8 is the bottom right square.
        x0, y0, side = board.board_rect()
        assert board.square_at(x0 + side - 1, y0 + 1) == chess.A8
        driver.play(["flip", "K@e1"])  # taps still land on the right squares
        assert game.board.piece_at(chess.E1) == chess.Piece(chess.KING, chess.WHITE)
    finally:
        app.settings.white_at_bottom = True
        app.settings.sound = True
        app.settings.highlights = "standard"
        app.settings.board_colours = "wood"
        app.apply_settings()
    assert theme.HIGHLIGHTS["standard"]["CHECK_GLOW"] == theme.CHECK_GLOW


def test_every_highlight_theme_keeps_message_text_readable() -> None:
    from ui import theme

    for name in theme.HIGHLIGHTS:
        theme.use_highlights(name)
        for level, fill in theme.MESSAGE_FILL.items():
            assert theme.contrast(theme.TEXT, fill) >= 4.5, (name, level)
    theme.use_highlights("standard")
    with pytest.raises(ValueError, match="no highlight theme 'pink'"):
        theme.use_highlights("pink")


def test_text_and_marks_meet_the_contrast_minimums() -> None:
    from ui import theme

    # Text at least 4.5:1 on what it stands on.
    for text, ground in ((theme.TEXT, theme.BACKGROUND), (theme.TEXT, theme.SURFACE),
                         (theme.TEXT, theme.SURFACE_RAISED), (theme.TEXT_DIM, theme.SURFACE),
                         (theme.TEXT_DIM, theme.DISABLED_FILL), (theme.ON_ACCENT, theme.ACCENT),
                         (theme.ACCENT, theme.SURFACE), (theme.DANGER_TEXT, theme.SURFACE),
                         (theme.DANGER_TEXT, theme.BACKGROUND), (theme.GOOD, theme.SURFACE)):
        assert theme.contrast(text, ground) >= 4.5, (text, ground)
    # Marks at least 3:1 on both square colours of every board: the light ring on dark
    # squares, the dark core on light ones; coordinates 4.5:1 on their squares.
    for board in theme.BOARDS.values():
        assert theme.contrast(theme.TARGET_RING, board["DARK_SQUARE"]) >= 3
        assert theme.contrast(theme.TARGET_CORE, board["LIGHT_SQUARE"]) >= 3
        assert theme.contrast(board["COORD_ON_LIGHT"], board["LIGHT_SQUARE"]) >= 4.5
        assert theme.contrast(board["COORD_ON_DARK"], board["DARK_SQUARE"]) >= 4.5
    assert theme.contrast(theme.TARGET_CORE, theme.TARGET_RING) >= 3


def test_a_move_slides_and_a_placement_grows_in(driver: Driver,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import ui.widgets.board

    monkeypatch.setattr(ui.widgets.board, "ANIMATION_SECONDS", 5.0)  # slow enough to see
    game = driver.new_game("KQ", "k")
    board = driver.game_screen.ids.board
    driver.play(["flip", "K@e1"])
    assert board.last_move == [chess.E1] and board.progress < 1  # growing in
    driver.play(["flip", "k@h8"])
    driver.move("e1", "d2")
    assert game.board.piece_at(chess.D2) is not None
    assert board.last_move == [chess.E1, chess.D2] and board.progress < 1  # sliding
    monkeypatch.setattr(ui.widgets.board, "ANIMATION_SECONDS", 0)  # animations off
    driver.move("h8", "g8")
    assert board.last_move == [chess.H8, chess.G8] and board.progress == 1
