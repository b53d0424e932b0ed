"""Every screen at every size from a 360x740 phone to a 1920x1200 tablet: touch targets
of at least 48 dp that do not overlap, and texts of at least 14 sp that fit their
widgets, checked by walking the widget tree (tests/ui/layout_check.py), at the normal
text size and at the largest."""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any

import chess
import pytest

if TYPE_CHECKING:
    from app_driver import Driver

SIZES = [(360, 740), (412, 800), (800, 412), (1024, 600), (1280, 800), (1920, 1200), (800, 1280),
         (600, 1024)]
if not os.environ.get("RAINDROP_FULL"):
    SIZES = [(360, 740), (800, 412), (1280, 800)]


def check(driver: Driver, root: Any, what: str) -> None:
    from layout_check import problems

    driver.pump(4)
    found = problems(root)
    assert not found, f"{what}:\n" + "\n".join(found)


def _modal(driver: Driver) -> Any:
    modals = driver.open_modals()
    assert len(modals) == 1
    return modals[0]


@pytest.mark.parametrize("sized", SIZES, indirect=True, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_screen_fits_touch_and_text_rules(sized: Driver) -> None:
    every_screen(sized)


@pytest.mark.parametrize("sized", SIZES, indirect=True, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_screen_fits_at_the_largest_text_size(sized: Driver) -> None:
    """The settings' largest text (every sp size x 1.3): texts still at least 14 sp
    (of the larger sp), unclipped, the touch targets unchanged."""
    from kivy.metrics import sp

    app = sized.app
    app.settings.text_size = "larger"
    app.apply_settings()
    assert sp(10) == pytest.approx(13.0)
    every_screen(sized)


def every_screen(driver: Driver) -> None:
    from ui.demo import DEMO_DECKS, DEMO_SCRIPT

    app = driver.app
    check(driver, app.screen("home"), "home")
    app.show("new_game")
    deadline = time.monotonic() + 60
    while app.screen("new_game").checking and time.monotonic() < deadline:
        driver.pump(1)
    check(driver, app.screen("new_game"), "new game")
    app.show("settings")
    check(driver, app.screen("settings"), "settings")

    # The game on the simulated sensing board, up to the promotion picker and beyond.
    driver.new_game("".join(DEMO_DECKS["white"]), "".join(DEMO_DECKS["black"]), board="sim")
    screen = driver.game_screen
    script = list(DEMO_SCRIPT)
    before_promotion = script.index("promote:q")
    for index, step in enumerate(script[:before_promotion]):
        driver.play([step])
        settle(driver)
        if index == script.index("flip"):
            check(driver, screen, "game (a card to place)")
    check(driver, _modal(driver), "promotion picker")
    driver.pick_promotion(chess.QUEEN)
    settle(driver)
    driver.play(["flip"])
    settle(driver)
    check(driver, screen, "game (sensing board)")
    if not screen.sensed_inline:
        open_from_toolbar(driver, "Board")
        check(driver, _modal(driver), "sensed board sheet")
        screen.close_sheets()
    driver.tap(screen.ids.verify)
    check(driver, _modal(driver), "verdict")
    screen.verdict_view.dismiss(animation=False)
    open_from_toolbar(driver, "Moves")
    check(driver, _modal(driver), "review")
    screen.close_sheets()

    # A failed rescue: the game-over screen with the card and the reasons.
    game = driver.new_game("KN", "kq")
    driver.play(["flip", "K@e1", "flip", "k@h8", "flip", "N@f7", "flip"])
    assert game.is_over
    check(driver, app.screen("game_over"), "game over")
    app.show("games")
    check(driver, app.screen("games"), "saved games")


def open_from_toolbar(driver: Driver, text: str) -> None:
    """Tap the toolbar's button ``text``, through the menu on a narrow phone (checked
    too: its buttons fit and the toolbar shows only the rest)."""
    screen = driver.game_screen
    button = screen.ids.review if text == "Moves" else screen.ids.sensed_button
    if not screen.menu_more:
        driver.tap(button)
        return
    assert button.opacity == 0 and button.disabled
    driver.tap(screen.ids.menu)
    menu = _modal(driver)
    check(driver, menu, "menu")
    texts = [child.text for child in reversed(menu.ids.rows.children)]
    assert texts[0] == "Moves" and texts[-1] == "Home"
    driver.tap(next(child for child in menu.ids.rows.children if child.text == text))
    driver.pump(2)


def settle(driver: Driver) -> None:
    link = driver.app.session.link
    for _ in range(200):
        driver.pump(1)
        if link is None or not link.busy:
            break
    driver.pump(2)


@pytest.mark.usefixtures("_driver")  # Kivy's window
def test_the_layout_check_finds_small_overlapping_and_clipped_widgets() -> None:
    from kivy.uix.button import Button
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.label import Label
    from layout_check import problems

    root = FloatLayout(size=(400, 400), pos=(0, 0))
    root.add_widget(Button(text="OK", size_hint=(None, None), size=(100, 30), pos=(0, 0),
                           font_size="16sp"))
    root.add_widget(Button(text="Go", size_hint=(None, None), size=(100, 60), pos=(50, 10),
                           font_size="16sp"))
    root.add_widget(Label(text="tiny", size_hint=(None, None), size=(100, 40), pos=(0, 200),
                          font_size="10sp"))
    root.add_widget(Label(text="Simulated board", size_hint=(None, None), size=(60, 40),
                          pos=(0, 300), font_size="16sp", text_size=(60, None)))
    root.add_widget(Button(text="Far", size_hint=(None, None), size=(100, 60),
                           pos=(350, 300), font_size="16sp"))
    found = "\n".join(problems(root))
    assert "Button('OK') is 100x30, under 48 dp" in found
    assert "Button('OK') overlaps Button('Go')" in found or \
        "Button('Go') overlaps Button('OK')" in found
    assert "Label('tiny'): font 10 sp, under 14 sp" in found
    assert "the word 'Simulated' is cut in two" in found
    assert "Button('Far') reaches outside FloatLayout" in found
    assert "Go" not in found.replace("Button('Go') overlaps", "").replace(
        "overlaps Button('Go')", "")


@pytest.mark.parametrize("sized", SIZES, indirect=True, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_camera_wizard_fits(sized: Driver) -> None:
    driver = sized
    app = driver.app
    app.show("camera")
    check(driver, app.screen("camera"), "camera setup")
