"""The settings for the text size and the piece set: chosen on the settings screen,
applied app-wide at once, kept in the settings file, and both piece sets complete."""

from __future__ import annotations

from typing import TYPE_CHECKING

import chess
import pytest

if TYPE_CHECKING:
    from app_driver import Driver


def test_both_piece_sets_have_every_piece_in_every_colour() -> None:
    from kivy.core.image import Image as CoreImage

    from ui import pieces

    for name in pieces.PIECE_SETS:
        files = set()
        for piece_type in pieces.NAMES:
            for color in (True, False):
                for blue in (False, True):
                    path = pieces.piece_path(piece_type, color, blue, name)
                    image = CoreImage(str(path))
                    assert image.size == (160, 160), path
                    files.add(path.read_bytes())
        assert len(files) == 24, f"{name}: some pieces are the same picture"


def test_text_size_and_piece_set_are_applied_and_kept(driver: Driver) -> None:
    from kivy.metrics import sp

    from ui import pieces
    from ui.settings import AppSettings

    app = driver.app
    normal = sp(10)
    app.show("settings")
    driver.pump()
    screen = app.screen("settings")
    driver.tap_button(screen.ids.text_size, "Larger")
    driver.tap_button(screen.ids.pieces, "Simple")
    driver.tap(screen.ids.header.ids.action)
    try:
        assert app.settings.text_size == "larger" and app.settings.pieces == "dejavu"
        assert sp(10) == pytest.approx(normal * 1.3)
        # Text in sp follows at once: the settings' own labels are larger now.
        assert screen.ids.text_size.children[0].font_size == pytest.approx(15 * normal / 10 * 1.3)
        saved = AppSettings.load()
        assert (saved.text_size, saved.pieces) == ("larger", "dejavu")
        driver.new_game("KQ", "k")
        driver.play(["flip", "K@f6"])
        assert pieces.piece_path(chess.KING, True, False).parent.name == "dejavu"
    finally:
        driver.reset()
    assert sp(10) == pytest.approx(normal)
    assert pieces.piece_set() == "cburnett"


def test_unknown_text_sizes_and_piece_sets_are_refused() -> None:
    from ui import pieces, theme

    with pytest.raises(ValueError, match="no text size 'huge'"):
        theme.use_text_size("huge")
    with pytest.raises(ValueError, match="no piece set 'staunton'"):
        pieces.use_piece_set("staunton")
