"""The abstract games on the tablet app, played by simulated touches: the shelf, the
new-game screen built from a game's options, turns built step by step on the board,
illegal touches explained, undo, a resume from the journal in the middle, the end, the
review and the exported record. The toy game "row" tests the screens generically; each
seed game is played to its end (tests below, one per engine)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from companion import games
from companion.games.record import read_record
from ui.games.touching import find_button, tap_cell

if TYPE_CHECKING:
    from app_driver import Driver

from games_app_driver import (
    chosen,
    draw_line,
    open_new_game,
    play,
    quit_and_resume,
    shelf_card,
    shown,
    tap_in_list,
    tap_panel,
    toy_rules,
)


@pytest.fixture
def row() -> Any:
    return toy_rules()


def test_the_shelf_shows_every_loadable_game_and_its_rules(driver: Driver, row: Any) -> None:
    app = driver.app
    driver.tap(app.screen("home").ids.games)
    driver.pump(4)
    shelf = app.screen("shelf")
    shown = [card.name for card in reversed(shelf.ids.cards.children)]
    loadable = []
    for name in games.names():
        try:
            games.get(name)
            loadable.append(name)
        except ImportError:
            pass
    assert shown == loadable and "row" in shown
    card = shelf_card(driver, "row")
    assert "A toy for tests." in driver.texts(card)
    tap_in_list(driver, find_button(card, text="Rules"), until=lambda: bool(driver.open_modals()))
    driver.pump(4)
    modal = driver.open_modals()[0]
    assert "not installed" in modal.text  # the toy has no rules page
    driver.tap(find_button(modal, text="Close"))
    assert not driver.open_modals()


def test_the_new_game_screen_explains_each_option_and_names_a_bad_value(
        driver: Driver, row: Any) -> None:
    app = driver.app
    driver.tap(app.screen("home").ids.games)
    driver.pump(4)
    card = shelf_card(driver, "row")
    tap_in_list(driver, find_button(card, text="New game"), until=shown(app, "games_setup"))
    setup = app.screen("games_setup")
    texts = "\n".join(driver.texts(setup))
    for option in row.options.values():
        assert option.help in texts
    find_button(setup.ids.options, option_key="size").text = "40"
    driver.tap(setup.ids.start)
    assert app.root.current == "games_setup"
    assert "size='40' must be 2 to 26" in setup.problem
    assert setup.problem in driver.texts(setup)
    find_button(setup.ids.options, option_key="size").text = "4"
    first = find_button(setup.ids.options, option_key="first")
    tap_in_list(driver, find_button(first, text="w"), until=chosen(first, "w"))
    driver.tap(setup.ids.start)
    screen = app.screen("games_play")
    assert app.root.current == "games_play"
    assert screen.model.session.position.text() == "row .... w"
    assert screen.model.session.options == {"size": "4", "first": "w"}


def test_a_toy_game_by_touches_with_an_illegal_touch_undo_resume_review_and_export(
        driver: Driver, row: Any, tmp_path: Path) -> None:
    screen = open_new_game(driver, "row", {"size": "5"})
    model = screen.model
    board = screen.ids.board
    assert set(board.targets) == {"a1", "b1", "c1", "d1", "e1"}
    tap_cell(screen, "b1")
    driver.pump(2)
    assert model.session.turns == ["b1"]
    assert board.layout.shape("b1").content == "b"
    assert list(board.last) == ["b1"]
    tap_cell(screen, "b1")  # taken: refused, and the far player reads why too
    driver.pump(2)
    assert model.session.turns == ["b1"]
    assert "'b1' is not a legal step here" in model.view.alert
    assert model.view.alert in "\n".join(driver.texts(screen.ids.far_panel))
    assert model.view.alert in "\n".join(driver.texts(screen.ids.near_panel))
    tap_cell(screen, "c1")
    driver.pump(2)
    tap_panel(driver, screen, "black", "Undo")
    assert model.session.turns == ["b1"]
    tap_cell(screen, "a1")
    driver.pump(2)
    assert model.session.turns == ["b1", "a1"]

    screen = quit_and_resume(driver, "row")
    model = screen.model
    assert model.session.turns == ["b1", "a1"]
    assert model.session.to_move == "black"
    for cell in ("c1", "d1"):
        tap_cell(screen, cell)
        driver.pump(2)
    # Half full: the toy offers a draw claim; play on instead.
    assert find_button(screen.ids.choices, claim="draw")
    tap_cell(screen, "e1")
    driver.pump(2)
    session = model.session
    assert session.is_over and session.turns == ["b1", "a1", "c1", "d1", "e1"]
    assert screen.ids.title.text == "Row: Black wins"
    assert "Final score: Black 1, White 0" in screen.ids.status.text
    undo = next(w for w in screen.ids.near_panel.walk() if getattr(w, "text", "") == "Undo")
    assert undo.disabled  # a finished game is final

    driver.tap(find_button(screen.ids.middle, command="review"))
    assert screen.review_index == 0
    assert screen.ids.board.layout.shape("b1").content == "."
    driver.tap(find_button(screen.ids.middle, command="next"))
    assert screen.ids.board.layout.shape("b1").content == "b"
    assert "1. Black b1" in screen.ids.status.text
    driver.tap(find_button(screen.ids.middle, command="review"))

    driver.tap(find_button(screen.ids.middle, command="export"))
    saved = Path(model.view.alert.removeprefix("Record saved to ").rstrip("."))
    record = read_record(saved.read_text(encoding="utf-8"))
    assert record.session.turns == session.turns
    assert record.tags["Result"] == "black"


def test_a_draw_claim_and_a_resignation_from_the_far_panel(driver: Driver, row: Any) -> None:
    screen = open_new_game(driver, "row", {"size": "4"})
    for cell in ("a1", "b1"):
        tap_cell(screen, cell)
        driver.pump(2)
    driver.tap(find_button(screen.ids.choices, claim="draw"))
    assert screen.model.session.result.by == "claim"
    assert screen.ids.title.text == "Row: Draw"

    # An offer from the far panel, declined on the near one; then one accepted.
    screen = open_new_game(driver, "row", {"size": "4"})
    tap_panel(driver, screen, "white", "Offer draw")
    assert screen.model.session.draw_offer == "white"
    assert "White offers a draw" in "\n".join(driver.texts(screen.ids.near_panel))
    tap_panel(driver, screen, "black", "Decline")
    assert screen.model.session.draw_offer is None and not screen.model.session.is_over
    tap_panel(driver, screen, "black", "Offer draw")
    tap_panel(driver, screen, "white", "Accept draw")
    assert screen.model.session.result.by == "agreement"

    screen = open_new_game(driver, "row", {"size": "4"})
    tap_panel(driver, screen, "white", "Resign")
    tap_panel(driver, screen, "white", "Yes, resign")
    result = screen.model.session.result
    assert result.winner == "black" and result.by == "resignation"


def play_to_the_end(driver: Driver, name: str, options: dict[str, str], *, undo_at: int,
                    resume_at: int, limit: int = 400, stop_early: Any = None) -> Any:
    """A whole game of ``name`` by touches: a few turns, an Undo tapped (the turn then
    played again differently), the app left and the game resumed from the shelf, then
    turns until the game ends. Returns the play screen."""
    screen = open_new_game(driver, name, options)
    play(driver, screen, undo_at)
    before = list(screen.model.session.record)
    play(driver, screen, 1)
    mover = screen.model.session.to_move
    tap_panel(driver, screen, mover, "Undo")
    assert screen.model.session.record == before
    play(driver, screen, resume_at - undo_at)
    played = list(screen.model.session.record)
    screen = quit_and_resume(driver, name)
    assert screen.model.session.record == played
    play(driver, screen, limit, stop_early=stop_early)
    session = screen.model.session
    assert session.is_over, f"{name}: not over after {limit} more turns"
    # The journal holds the whole game (the undo too): it replays to the same end.
    from ui.games import saved

    replayed = saved.session_at(screen.model.journal_path)
    assert replayed.position == session.position and replayed.record == session.record
    outcome = session.rules.outcome(session.position)
    assert outcome is not None and session.result is not None
    assert session.result.winner == outcome.winner
    title = f"{session.rules.title}: " + (
        f"{outcome.winner.capitalize()} wins" if outcome.winner else "Draw")
    assert screen.ids.title.text == title
    assert outcome.reason in "\n".join(driver.texts(screen.ids.near_panel))
    return screen


def test_dropper_to_the_end_by_touches(driver: Driver) -> None:
    screen = play_to_the_end(driver, "dropper", {"size": "4"}, undo_at=2, resume_at=4)
    assert "Final score" in screen.ids.status.text


def test_rumbo_to_the_end_by_touches_with_komi_and_side_chosen_by_the_players(
        driver: Driver) -> None:
    screen = play_to_the_end(driver, "rumbo", {"size": "4"}, undo_at=3, resume_at=5)
    turns = screen.model.session.turns
    assert turns[0].startswith("komi=") and turns[1] in ("side=v", "side=h")
    assert all("@" in turn for turn in turns[2:])
    assert "Claimed" in screen.ids.status.text


def test_the_home_screen_resumes_an_abstract_game_too(driver: Driver, row: Any) -> None:
    screen = open_new_game(driver, "row", {"size": "5"})
    tap_cell(screen, "c1")
    driver.pump(2)
    screen.model.journal.close()
    screen.model = None
    app = driver.app
    app.show("home")
    driver.pump(2)
    home = app.screen("home")
    assert home.can_resume and "Row: 1 actions played, white to move" in home.resume_text
    driver.tap(home.ids.resume)
    assert app.root.current == "games_play"
    assert app.screen("games_play").model.session.turns == ["c1"]


def test_the_app_starts_without_the_games_screens(tmp_path: Path) -> None:
    """The games' screens are made when first shown: starting the app imports none."""
    import subprocess
    import sys

    code = ("import sys; import ui.app; "
            "print(sorted(m for m in sys.modules if m.startswith('ui.games')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], timeout=120, check=True,
                          env={**__import__("os").environ, "KIVY_NO_ARGS": "1",
                               "KIVY_LOG_MODE": "PYTHON", "KIVY_NO_CONSOLELOG": "1"})
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_raindrops_to_the_end_by_touches(driver: Driver) -> None:
    # Every other group move is stopped where it may end, with Confirm.
    screen = play_to_the_end(driver, "raindrops", {"size": "5"}, undo_at=2, resume_at=3,
                             stop_early=lambda turn: turn % 2 == 0)
    assert "Units" in screen.ids.status.text


def test_the_board_zooms_and_pans_and_taps_still_hit_their_cells(driver: Driver,
                                                                  row: Any) -> None:
    from kivy.base import EventLoop

    from ui.touch import SimulatedTouch

    screen = open_new_game(driver, "row", {"size": "26"})  # cells narrower than a finger
    board = screen.ids.board
    zoom = find_button(screen.ids.middle, command="zoom")
    for _ in range(2):
        driver.tap(zoom)
    assert board.zoom == 4 and zoom.text == "4x"
    assert not board.collide_point(*board.cell_center("a1"))  # off the magnified view
    tap_cell(screen, "m1")
    driver.pump(2)
    assert screen.model.session.turns == ["m1"]
    # Drag the board to the right by two cells: a finger that moves pans, it does not tap.
    unit = board.frame()[2]
    x, y = board.to_window(*board.center)
    window = EventLoop.window
    finger = SimulatedTouch(x, y)
    EventLoop.post_dispatch_input("begin", finger)
    for step in range(1, 5):
        finger.move({"x": (x + step * unit / 2) / (window.width - 1.0),
                     "y": y / (window.height - 1.0)})
        EventLoop.post_dispatch_input("update", finger)
    EventLoop.post_dispatch_input("end", finger)
    driver.pump(2)
    assert screen.model.session.turns == ["m1"]
    assert abs(board.focus[0] - 11) < 0.01  # the middle (13) moved two cells right
    tap_cell(screen, "j1")
    driver.pump(2)
    assert screen.model.session.turns == ["m1", "j1"]
    driver.tap(zoom)
    driver.tap(zoom)  # 8x, then back to the whole board
    assert board.zoom == 1 and board.collide_point(*board.cell_center("a1"))


def test_crumble_to_the_end_by_touches(driver: Driver) -> None:
    # Splits and joins by touches (a piece, then the way to cut it), swap steps by
    # touching the piece to swap into; a turn is confirmed after four steps.
    screen = play_to_the_end(driver, "crumble", {"width": "3", "height": "3"}, undo_at=2,
                             resume_at=4)
    assert "draw turns in a row" in screen.ids.status.text
    assert any(">" in turn for turn in screen.model.session.turns)


def test_crumble_cut_by_a_drawn_line_or_a_button_joined_by_taps_swap_path_and_back(
        driver: Driver) -> None:
    screen = open_new_game(driver, "crumble", {"width": "4", "height": "4"})
    model, board = screen.model, screen.ids.board
    sounds = driver.app.sounds  # the table's sounds: each one played is listed
    sounds.muted = False
    sounds.played.clear()
    # A line drawn across a white piece cuts nothing and says why; across Black's a4, it
    # cuts a4 along the line: horizontally, then (after a step back) vertically.
    draw_line(driver, board, (1.1, 3.5), (1.9, 3.5))
    assert not model.builder.steps and "No cut runs across" in model.view.alert
    draw_line(driver, board, (0.1, 3.5), (0.9, 3.5))
    assert [step.text for step in model.builder.steps] == ["a4-"]
    assert sounds.played == ["illegal", "move"]
    assert "cut a4 horizontally in half" in model.view.alert.lower()
    driver.app.settings.sound = False  # the settings' switch silences the games too
    driver.app.apply_settings()
    try:
        tap_cell(screen, "1,3,1,1")
        driver.pump(2)
        assert "That piece is not a legal step here" in model.view.alert
        assert sounds.played == ["illegal", "move"]
    finally:
        driver.app.settings.sound = True
        driver.app.apply_settings()
    tap_panel(driver, screen, "black", "Step back")
    assert not model.builder.steps
    draw_line(driver, board, (0.5, 3.1), (0.5, 3.9))
    assert [step.text for step in model.builder.steps] == ["a4|"]
    tap_panel(driver, screen, "black", "Step back")
    # A tap on a piece offers both cuts as buttons.
    tap_cell(screen, "0,3,1,1")
    driver.pump(2)
    assert {step.text for step in model.view.choices} == {"a4-", "a4|"}
    driver.tap(find_button(screen.ids.choices, step_text="a4-"))
    # Swap steps by touching the piece to swap into; the path is drawn; Step back undoes
    # one swap step, and the swap may go back through the start piece.
    first = model.builder.next_steps()[0]
    from ui.games.touching import touch_step

    for _ in touch_step(screen, first):
        driver.pump(2)
    assert len(model.builder.steps) == 2 and len(board.path) == 2
    assert list(board.path) == list(model.builder.path)
    back = next(s for s in model.builder.next_steps() if s.text in "NESW"
                and board.path[0] in s.changes)
    for _ in touch_step(screen, back):
        driver.pump(2)
    assert len(board.path) == 3 and board.path[2] == board.path[0]
    tap_panel(driver, screen, "black", "Step back")
    assert len(board.path) == 2
    tap_panel(driver, screen, "black", "Step back")
    assert list(board.path) == []
    tap_panel(driver, screen, "black", "Confirm")
    assert model.session.turns == ["a4-"]
    # White cuts b4; Black joins a4's halves back by tapping both (after the first tap
    # the cut of that half is offered; after the second, the cut of both or the join).
    tap_cell(screen, "1,3,1,1")
    driver.pump(2)
    driver.tap(find_button(screen.ids.choices, step_text="b4|"))
    tap_panel(driver, screen, "white", "Confirm")
    tap_cell(screen, "0,7/2,1,1/2")
    driver.pump(2)
    assert [step.text for step in model.view.choices] == ["a4t|"]
    tap_cell(screen, "0,3,1,1/2")  # both halves: cut both at once, or join them
    driver.pump(2)
    assert {step.text for step in model.view.choices} == {"a4b|a4t", "+a4"}
    driver.tap(find_button(screen.ids.choices, step_text="+a4"))
    assert [step.text for step in model.builder.steps] == ["+a4"]
    tap_panel(driver, screen, "black", "Confirm")
    assert model.session.turns == ["a4-", "b4|", model.session.turns[2]]
    assert model.session.position.cells()["0,3,1,1"] == "b"
    assert "draw turns in a row" in screen.ids.status.text


def test_crumble_pieces_of_a_sixty_fourth_are_readable_when_zoomed(driver: Driver) -> None:
    from kivy.metrics import dp

    screen = open_new_game(driver, "crumble", {"width": "6", "height": "6"})
    model, board = screen.model, screen.ids.board
    for turn in ("a6-", "d2-", "a6t|", "d4-", "a6tl-", "d6-", "a6tlt|", "d2b|d2t",
                 "a6tltl-", "f4-", "a6tltlt|", "e1-"):
        model.session.play(turn)
    model.cancel()
    driver.pump(4)
    small = min(board.layout.shapes, key=lambda shape: shape.w * shape.h)
    assert small.w * small.h == Fraction(1, 64)
    zoom = find_button(screen.ids.middle, command="zoom")
    assert zoom.opacity > 0  # offered: pieces are halved
    while board.zoom < 8:
        driver.tap(zoom)
    board.focus = [float(value) for value in small.center]  # as a finger's pan would
    driver.pump(2)
    _x, _y, w, h = board._rect(small)
    assert min(w, h) >= dp(40)  # a finger's width: it can be seen and touched
    assert board.collide_point(*board.cell_center(small.cell))
    tap_cell(screen, small.cell)  # the touch finds Black's piece: its cuts are offered
    driver.pump(2)
    assert {step.text for step in model.view.choices} == {"a6tltltl-", "a6tltltl|"}
    screen = open_new_game(driver, "crumble", {"width": "6", "height": "6"})
    assert screen.ids.board.zoom == 1  # a new game starts unmagnified


def test_a_clock_chosen_on_the_new_game_screen_counts_down_on_both_panels(
        driver: Driver) -> None:
    import time

    screen = open_new_game(driver, "dropper", {"size": "4", "clock": "5+0"})
    session = screen.model.session
    assert session.clock is not None and session.clock.settings.base == 300

    def seconds(text: str) -> int:
        minutes, _, rest = text.partition(":")
        return int(minutes) * 60 + int(rest)

    # No bound on how long the machine took to get here (a loaded machine is slow): each
    # panel shows its side's time, at most the 5 minutes, as the clock counts it.
    for side in session.rules.players:
        words = "\n".join(driver.texts(screen.ids.near_panel if side == session.rules.players[0]
                                       else screen.ids.far_panel))
        shown = screen.model.view.clocks[side]
        assert f"{shown}[/b] left" in words and seconds(shown) <= 300
    mover = session.to_move
    first = mover == session.rules.players[0]
    before = session.clock.remaining(first)
    time.sleep(1.3)
    driver.pump(4)
    panel = screen.ids.near_panel if first else screen.ids.far_panel
    shown = screen.model.view.clocks[mover]
    # At least 1.3 s have gone from the mover's time, and the panel shows it counted down.
    assert session.clock.remaining(first) <= before - 1.3
    assert seconds(shown) <= 299 and seconds(shown) + 1 >= session.clock.remaining(first)
    assert f"{shown}[/b] left" in "\n".join(driver.texts(panel))
    # Away from the game (the shelf), the clocks stop; back on it they run again.
    driver.app.show("shelf")
    driver.pump(4)
    assert session.clock.paused
    left = session.clock.remaining(True)
    time.sleep(0.3)
    assert session.clock.remaining(True) == left
    driver.app.show("games_play")
    driver.pump(4)
    assert not session.clock.paused
    screen = open_new_game(driver, "dropper", {"size": "4"})  # none: no clock shown
    assert screen.model.session.clock is None and screen.model.view.clocks == {}
    assert "left" not in "\n".join(driver.texts(screen.ids.near_panel))


GAMES_SIZES = [(360, 740), (412, 800), (800, 412), (1024, 600), (1280, 800), (1920, 1200)]


@pytest.mark.parametrize("size", GAMES_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_games_screens_fit_touch_and_text_rules(driver: Driver, size: Any) -> None:
    """48 dp targets that do not overlap, 14 sp texts that fit (tests/ui/layout_check.py):
    the shelf, the new-game screen with its clock row, and Crumble mid-play with a clock,
    a piece's cuts offered as buttons."""
    from kivy.core.window import Window
    from layout_check import problems
    from ui_window import TEST_WINDOW

    def check(root: Any, what: str) -> None:
        driver.pump(4)
        found = problems(root)
        assert not found, f"{what} at {size}:\n" + "\n".join(found)
        middle = getattr(root, "ids", {}).get("middle")
        if middle is not None and root.name == "games_play":  # its rows stay in their box
            for row in (row for row in middle.children if row.height > 0):
                assert middle.y - 1 <= row.y and row.top <= middle.top + 1, \
                    f"{what} at {size}: {row} sticks out of the middle"

    Window.size = size
    driver.pump(4)
    try:
        app = driver.app
        app.show("shelf")
        check(app.screen("shelf"), "shelf")
        screen = open_new_game(driver, "crumble", {"clock": "10+5"})
        check(app.screen("games_setup"), "new game")
        play(driver, screen, 3, stop_early=lambda turn: turn % 2 == 0)
        tap_cell(screen, next(cell for cell, colour in
                              screen.model.session.position.cells().items()
                              if colour == screen.model.session.to_move[0]))
        driver.pump(4)
        assert screen.model.view.choices
        check(screen, "crumble")
        # Rumbo's stone colours share the bar with hints and zoom on a phone.
        screen = open_new_game(driver, "rumbo", {"size": "9"})
        play(driver, screen, 3)
        assert screen.model.view.contents and screen.model.view.hint_label
        check(screen, "rumbo")
        if screen.bar_menu:  # Games and Save moved to the bar's menu: it opens and fits
            assert not screen.ids.bar_menu_button.disabled
            driver.tap(screen.ids.bar_menu_button)
            (menu,) = driver.open_modals()
            check(menu, "the bar's menu")
            assert [b.text for b in reversed(menu.ids.rows.children)] == ["Games", "Save record"]
            menu.dismiss(animation=False)
        elif size[0] < size[1]:
            raise AssertionError(f"a phone's Rumbo bar kept Games and Save at {size}")
    finally:
        from kivy.uix.scrollview import ScrollView

        Window.size = TEST_WINDOW
        for view in driver.app.screen("shelf").walk():
            if isinstance(view, ScrollView):
                view.scroll_y = 1  # the shelf from its top again, as a new visit shows it
        driver.app.show("home")
        driver.pump(4)
