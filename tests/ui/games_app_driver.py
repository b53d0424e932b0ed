"""Playing abstract games on the headless app by touches, for the tests."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion import games
from ui import touch
from ui.games.demo import play_turns
from ui.games.touching import find_button, press

SLOW_TAP = 10.0  # seconds a tap in a list may take to arrive on a loaded machine
GAMES_TESTS = Path(__file__).resolve().parents[1] / "companion" / "games"
if str(GAMES_TESTS) not in sys.path:
    sys.path.insert(0, str(GAMES_TESTS))


def toy_rules() -> Any:
    """The toy game "row", registered once per test process."""
    from games_toy import RULES

    if "row" not in games.names():
        games.register(RULES)
    return RULES


def run(driver: Any, script: Any) -> None:
    """Run a generator of frame counts (ui.games.demo's), letting the frames pass."""
    for frames in script:
        driver.pump(frames)


def shelf_card(driver: Any, name: str) -> Any:
    """The shelf's card of ``name``, scrolled into view."""
    shelf = driver.app.screen("shelf")
    card = next(c for c in shelf.ids.cards.children if c.name == name)
    into_view(driver, card)
    driver.pump(1)
    return card


def at_rest(driver: Any, widget: Any) -> None:
    """Let frames pass until ``widget`` stays where it is on the window (a list still
    settling after a scroll moves it from under the finger); at most ``SLOW_TAP`` s."""
    driver.at_rest(widget, SLOW_TAP)


def into_view(driver: Any, widget: Any) -> None:
    """Scroll the list that holds ``widget`` until all of it shows (as a finger would
    before tapping it), and let the frames pass; nothing if it is in no list."""
    if touch.scroll_into_view(widget):
        driver.pump(2)


def tap_in_list(driver: Any, widget: Any, wait: float = 0.3,
                until: Callable[[], bool] | None = None) -> None:
    """Tap a widget inside a ScrollView, first scrolled into view: the list passes the
    release on to it 0.2 s later (real time), after deciding the touch was not a
    scroll; ``wait`` seconds are given for that, or, with ``until``, frames pass until
    it holds (at most ``SLOW_TAP`` seconds: a loaded machine may take a while), the tap
    made again each second it does not (as a finger would)."""
    into_view(driver, widget)
    at_rest(driver, widget)
    touch.tap(widget)
    if until is None:
        time.sleep(wait)
        driver.pump(4)
        return
    start = time.monotonic()
    deadline = start + max(wait, SLOW_TAP)
    again = start + max(wait, 1.0)
    while not until() and time.monotonic() < deadline:
        time.sleep(0.05)
        driver.pump(1)
        if not until() and time.monotonic() > again:
            at_rest(driver, widget)
            touch.tap(widget)
            again = time.monotonic() + 1.0
    driver.pump(2)


def shown(app: Any, name: str) -> Callable[[], bool]:
    """Whether the app shows the screen ``name`` now, for ``tap_in_list``'s ``until``."""
    return lambda: bool(app.root.current == name)


def chosen(widget: Any, value: str) -> Callable[[], bool]:
    """Whether the option ``widget`` holds ``value`` now, for ``tap_in_list``'s ``until``."""
    return lambda: bool(widget.value == value)


def open_new_game(driver: Any, name: str, options: dict[str, str],
                  check: Callable[[Any], None] | None = None) -> Any:
    """Home -> Games -> New game of ``name`` -> the options typed or chosen -> Start;
    ``check(setup screen)`` is called just before Start."""
    app = driver.app
    app.show("home")
    driver.pump(2)
    driver.tap(app.screen("home").ids.games)
    driver.pump(4)
    assert app.root.current == "shelf"
    card = shelf_card(driver, name)
    tap_in_list(driver, find_button(card, text="New game"), until=shown(app, "games_setup"))
    driver.pump(4)
    setup = app.screen("games_setup")
    assert app.root.current == "games_setup"
    for key, value in options.items():
        widget = find_button(setup.ids.options, option_key=key)
        setup.ids.options.parent.scroll_to(widget, padding=0, animate=False)
        driver.pump(3)
        if hasattr(widget, "options"):
            # ``value`` is the button's label (a seat's "Companion 1" stands for "1")
            value = dict((label, v) for v, label in widget.options).get(value, value)
            label = dict(widget.options).get(value, value)
            for attempt in range(5):  # a list may take a slow tap for a scroll's start
                setup.ids.options.parent.scroll_to(widget, padding=0, animate=False)
                driver.pump(2)
                tap_in_list(driver, find_button(widget, text=label), 0.3 * (attempt + 1),
                            until=chosen(widget, value))
                if widget.value == value:
                    break
            assert widget.value == value, f"{key}={value} was not chosen"
        else:
            widget.text = value
    if check is not None:
        check(setup)
    driver.tap(setup.ids.start)
    assert app.root.current == "games_play", setup.problem
    return app.screen("games_play")


def play(driver: Any, screen: Any, turns: int, **kwargs: Any) -> None:
    run(driver, play_turns(screen, turns, **kwargs))


def tap_panel(driver: Any, screen: Any, side: str, text: str) -> None:
    press(screen, side, text)
    driver.pump(2)


def quit_and_resume(driver: Any, name: str) -> Any:
    """Leave the game as a crash would (the journal closed, the model dropped), then
    resume it from the shelf's Resume button."""
    app = driver.app
    screen = app.screen("games_play")
    journal_path = screen.model.journal_path
    screen.model.journal.close()
    screen.model = None
    app.show("home")
    driver.pump(2)
    driver.tap(app.screen("home").ids.games)
    driver.pump(4)
    driver.pump(4)
    card = shelf_card(driver, name)
    tap_in_list(driver, find_button(card, text="Resume"), until=shown(app, "games_play"))
    assert app.root.current == "games_play"
    assert screen.model.journal_path == journal_path
    return screen


def draw_line(driver: Any, board: Any, start: tuple[float, float],
              end: tuple[float, float], moves: int = 6) -> None:
    """A finger drawn on the board from ``start`` to ``end`` (board units)."""
    from kivy.base import EventLoop

    from ui.touch import SimulatedTouch

    window = EventLoop.window
    x1, y1 = board.to_window(*board.to_screen(*start))
    x2, y2 = board.to_window(*board.to_screen(*end))
    finger = SimulatedTouch(x1, y1)
    EventLoop.post_dispatch_input("begin", finger)
    for step in range(1, moves + 1):
        t = step / moves
        finger.move({"x": (x1 + (x2 - x1) * t) / (window.width - 1.0),
                     "y": (y1 + (y2 - y1) * t) / (window.height - 1.0)})
        EventLoop.post_dispatch_input("update", finger)
    EventLoop.post_dispatch_input("end", finger)
    driver.pump(2)
