"""The four abstract games against the companion by touch, from the new-game screen's seats
to the end, at a phone's size and a tablet's (every touch at a widget's place at that size,
on the window): the companion plays its seat (a tiny playout budget, small boards), its
turn is ringed on the board, undo takes back a pair, a hint under the limit, the end of the
game and the companion's review with its graph; the new-game, game, hint, end and review
screens walked by the layout check on the way (tests/ui/layout_check.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from companion_driver import (
    PHONE,
    SIZES,
    size_id,
    touches_on_screen,
    wait_companion,
    wait_for,
)
from games_app_driver import open_new_game, play
from test_app_sizes import check

from ui.games.touching import find_button, press, tap_cell

if TYPE_CHECKING:
    from app_driver import Driver

SMALL = {"dropper": {"size": "4"}, "rumbo": {"size": "5"}, "raindrops": {"size": "4"},
         "crumble": {"width": "4", "height": "4"}}
"""Small boards: whole games of a few dozen turns."""
SECOND_SEAT = {"dropper": "black", "rumbo": "chooser", "raindrops": "white",
               "crumble": "white"}
"""The seat the companion takes (the person plays the first)."""
MOST_TURNS = 80

@pytest.mark.parametrize(("name", "sized"), [(name, size) for name in sorted(SMALL)
                                             for size in SIZES],
                         indirect=["sized"], ids=lambda p: size_id(p) if isinstance(p, tuple)
                         else p)
def test_a_whole_game_against_the_companion_by_touch(sized: Driver, name: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    driver = sized
    app = driver.app
    touches_on_screen(monkeypatch)
    monkeypatch.setattr(app, "search_in_process", False)   # fake engines: in this process
    monkeypatch.setattr(app, "companion_playouts", 2)
    monkeypatch.setattr(app, "review_playouts", 3)
    options = {**SMALL[name], f"seat:{SECOND_SEAT[name]}": "Companion 1"}  # hints: 3 a game
    screen = open_new_game(driver, name, options,
                           check=lambda setup: check(driver, setup, f"{name}'s new game"))
    model = screen.model
    session = model.session
    link = model.companion
    assert link is not None and link.settings.is_companion(SECOND_SEAT[name])
    assert session.table["seats"][SECOND_SEAT[name]] == "companion:1:2"
    over = lambda: session.is_over  # noqa: E731
    hinted = undone = False
    for _ in range(MOST_TURNS):
        wait_companion(driver, link, over)
        if session.is_over:
            break
        if len(session.record) >= 2:
            # The companion's turn is ringed on the board, for a physical board's player.
            assert model.view.guide_kind == "turn" and model.view.guide
            assert screen.ids.board.guide == list(model.view.guide)
        if not undone and len(session.record) >= 2:
            before = len(session.record)
            press(screen, screen.ids.near_panel.side, "Undo")
            driver.pump(2)
            assert model.view.said.startswith("Taken back:"), model.view.said
            # the companion's reply (Rumbo's: a side and a first stone) and the person's turn
            assert len(session.record) <= before - 2 and not model.view.guide
            assert link.runner.persons_turn()
            assert not model.view.can_redo
            check(driver, screen, f"{name} after an undo")
            undone = True
        if not hinted and undone:
            driver.tap(screen.ids.hint)
            wait_for(driver, lambda: bool(link.hint_lines), "the hint")
            assert model.view.said.startswith("Hint for ")
            # Its best turn ringed on the board (Rumbo's komi has no cells).
            assert (model.view.guide_kind == "hint") == bool(link.guide) == \
                (name != "rumbo")
            assert screen.ids.hint.text == "Hint (2 left)"
            check(driver, screen, f"{name} with a hint")
            hinted = True
        played = len(session.record)
        play(driver, screen, 1)
        assert len(session.record) > played or session.is_over
    assert session.is_over, f"{name}: no end in {MOST_TURNS} turns"
    driver.pump(4)
    assert undone and hinted, (session.record, session.result)
    assert screen.ids.title.text.startswith(model.rules.title + ": ")
    check(driver, screen, f"{name} at its end")

    # The companion's review, from the end of the game.
    driver.tap(find_button(screen.ids.bar, command="analyse"))
    analysis = app.screen("analysis")
    assert app.root.current == "analysis"
    wait_for(driver, lambda: analysis.review is not None, "the review")
    review = analysis.review
    assert len(review.turns) == len(session.record)
    assert len(analysis.ids.graph.values) == len(review.turns) + 1
    assert all(0.0 <= value <= 1.0 for value in analysis.ids.graph.values)
    assert {turn.mark for turn in review.turns} <= {"good", "inaccuracy", "mistake",
                                                    "blunder"}
    assert analysis.detail
    check(driver, analysis, f"{name}'s review")
    driver.tap(analysis.ids.header.ids.back)
    assert app.root.current == "games_play"


@pytest.mark.parametrize("sized", [PHONE], indirect=True, ids=size_id)
def test_touches_on_the_companions_turn_are_refused_with_the_reason(
        sized: Driver, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a phone: the thinking line and its bar fit, a touch on the board is refused."""
    driver = sized
    app = driver.app
    touches_on_screen(monkeypatch)
    monkeypatch.setattr(app, "search_in_process", False)   # fake engines: in this process
    monkeypatch.setattr(app, "companion_playouts", 1_000_000)   # a long search: its turn
    screen = open_new_game(driver, "dropper", {**SMALL["dropper"],
                                                "seat:white": "Companion 1"})
    model = screen.model
    link: Any = model.companion
    try:
        wait_for(driver, lambda: link.thinking, "the companion to think")
        assert model.view.said.startswith("White is thinking (level 1)")
        check(driver, screen, "the companion thinking")
        cell = sorted(shape.cell for shape in model.view.layout.shapes)[0]
        tap_cell(screen, cell)
        driver.pump(2)
        assert model.view.alert.startswith("It is White's turn: the companion is thinking")
        assert model.session.record == []
    finally:
        link.close()


def test_a_physical_board_is_led_through_the_companions_turn(
        driver: Driver, monkeypatch: pytest.MonkeyPatch) -> None:
    """Dropper on a simulated board of stones: the person's turn is seen on the board,
    the companion answers, the panels say what to set on the board until it shows it."""
    from companion.sync.stone_sim import SimulatedStoneBoard
    from companion.table.seats import Seat, TableSettings
    from ui.games import control
    from ui.games.sensing import StoneSensing

    app = driver.app
    monkeypatch.setattr(app, "search_in_process", False)
    settings = TableSettings((Seat("white"), Seat("black", True, 1, playouts=6)))
    model = control.start_game(app, "dropper", {"size": "5"}, table=settings.to_dict())
    session = model.session
    board = SimulatedStoneBoard(session.position.cells())
    sensing = StoneSensing(model, board)
    sensing.start()
    try:
        turn = sorted(model.rules.turns(session.position))[0]
        board.set_cells(model.rules.play(session.position, turn).cells())
        wait_for(driver, lambda: len(session.record) == 2, "the turn seen and the reply")
        assert session.record[0][1] == turn
        # The companion's stones are not on the board yet: the panels say what to set.
        wait_for(driver, lambda: bool(sensing.message), "the guidance")
        assert model.view.alert == sensing.message and sensing.message
        board.set_cells(session.position.cells())
        wait_for(driver, lambda: model.view.alert_level == "good", "the board to show it")
        assert len(session.record) == 2   # setting the reply played nothing more
    finally:
        sensing.stop()
