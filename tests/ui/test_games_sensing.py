"""The app follows a stone game through the camera (ui.games.sensing): a new game with
``board: camera`` whose camera is a fake one playing rendered frames of the game (a
hand placing every turn, lab.stone_scenes) through the real grid reader; the app
commits each turn. And the question when two turns fit, and the guidance in words."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from companion import games
from companion.sync.stones import GridLayout, StoneSnapshot
from tests.vision.vision_helpers import FakeCapture
from ui.games.touching import find_button

if TYPE_CHECKING:
    from app_driver import Driver

from games_app_driver import chosen, shelf_card, shown, tap_in_list

TURNS = ("e5", "e5>f5+a1", "e5>d5+i9")


def new_game(driver: Driver, name: str, options: dict[str, str], board: str) -> Any:
    """Home -> Games -> New game of ``name`` -> options -> ``board`` chosen -> Start."""
    app = driver.app
    app.show("home")
    driver.pump(2)
    driver.tap(app.screen("home").ids.games)
    driver.pump(4)
    tap_in_list(driver, find_button(shelf_card(driver, name), text="New game"),
                until=shown(app, "games_setup"))
    driver.pump(4)
    setup = app.screen("games_setup")
    for key, value in options.items():
        widget = find_button(setup.ids.options, option_key=key)
        if hasattr(widget, "options"):
            tap_in_list(driver, find_button(widget, text=value),
                        until=chosen(widget, value))
        else:
            widget.text = value
    row = find_button(setup.ids.options, option_key="board")
    setup.ids.options.parent.scroll_to(row, padding=0, animate=False)
    driver.pump(3)
    tap_in_list(driver, find_button(row, text=board), until=lambda: setup.board == board)
    assert setup.board == board
    driver.tap(setup.ids.start)
    assert app.root.current == "games_play", setup.problem
    return app.screen("games_play")


def _places(layout: GridLayout, cells: dict[str, str]) -> dict[tuple[int, int], str]:
    rows = layout.rows_of(cells)
    return {(r, c): v for r, row in enumerate(rows) for c, v in enumerate(row) if v != "."}


def fake_camera(turns: tuple[str, ...], seed: int) -> Any:
    """A camera grid reader whose camera plays rendered frames of Dropper 9 x 9."""
    from lab.stone_scenes import game_video, random_stone_scene
    from vision.grid import GridSpec
    from vision.grid_reader import CameraGridReader

    rules: Any = games.get("dropper")
    pos = rules.start(size="9")
    layout = GridLayout.of(pos)
    scene = random_stone_scene(np.random.default_rng(seed), GridSpec.parse("points:9"),
                               fraction=0.0, markers=False)
    boards = []
    for turn in turns:
        pos = rules.play(pos, turn)
        boards.append(_places(layout, dict(pos.cells())))
    frames = [frame.image for frame in game_video(scene, boards, seed=seed)]
    return CameraGridReader("game.avi", GridSpec.parse("points:9"), layout, live=False,
                            geometry=scene.geometry(),
                            capture_factory=lambda _source: FakeCapture(frames))


def test_a_new_game_followed_by_a_camera_commits_every_turn(
        driver: Driver, monkeypatch: pytest.MonkeyPatch) -> None:
    import ui.games.sensing

    reader = fake_camera(TURNS, seed=21)
    opened: list[str] = []

    def open_camera(board: str, model: Any, camera: str = "") -> Any:
        opened.append(board)
        return reader

    monkeypatch.setattr(ui.games.sensing, "open_camera", open_camera)
    screen = new_game(driver, "dropper", {"size": "9"}, "camera")
    model = screen.model
    assert opened == ["camera"] and model.sensing is not None
    assert reader.wait(120)
    deadline = time.monotonic() + 10
    while len(model.session.turns) < len(TURNS) and time.monotonic() < deadline:
        driver.pump(2)
    assert model.session.turns == list(TURNS)
    assert model.sensing.committed == list(TURNS)
    assert all(turn in screen.view.moves for turn in TURNS)  # the screen shows them
    assert screen.view.alert == "Camera: the video ended."  # the camera's end is told
    assert model.journal is not None  # committed through the session, journaled
    model.sensing.stop()


class FakeGrids:
    """A board source of settled boards given by the test."""

    name = "fake"

    def __init__(self) -> None:
        self.on_snapshot: Any = None
        self.stopped = False

    def start(self, on_snapshot: Any, on_status: Any) -> None:
        self.on_snapshot = on_snapshot

    def stop(self) -> None:
        self.stopped = True

    def send(self, cells: dict[str, str]) -> None:
        self.on_snapshot(StoneSnapshot(cells))


def test_the_players_are_asked_when_two_turns_fit_and_guided_when_none_does(
        driver: Driver, monkeypatch: pytest.MonkeyPatch) -> None:
    import ui.games.sensing

    source = FakeGrids()
    monkeypatch.setattr(ui.games.sensing, "open_camera", lambda *_a, **_k: source)
    screen = new_game(driver, "dropper", {"size": "8"}, "camera")
    model = screen.model
    rules = model.rules
    for turn in ("a8", "a8>b8+d8", "a8>a7+f8"):
        model.play_turn(turn)
    driver.pump(2)
    # An occupancy-only view (colours unknown): two turns end on the same board.
    after = rules.play(model.session.position, "a8>b7+h8")
    source.send({c: "x" if v != "." else "." for c, v in after.cells().items()})
    driver.pump(3)
    assert model.sensing.question == ("a8>b7+h8", "b8>b7+h8")
    alert = screen.view.alert
    assert "2 turns give this board" in alert and "Which one" in alert
    # Both players read it: each panel shows the alert.
    for panel in (screen.ids.near_panel, screen.ids.far_panel):
        assert "2 turns give this board" in panel.text
    find_button(screen.ids.choices, sensed_turn="b8>b7+h8").dispatch("on_release")
    driver.pump(2)
    assert model.session.turns[-1] == "b8>b7+h8" and model.sensing.question == ()
    # A stone where no legal turn puts one: the guidance in words.
    cells = dict(model.session.position.cells())
    empty = [c for c, v in cells.items() if v == "."]
    cells[empty[0]], cells[empty[1]] = "w", "w"
    source.send(cells)
    driver.pump(3)
    assert "fits no legal turn" in screen.view.alert
    assert model.session.turns[-1] == "b8>b7+h8"
    # The board put back: the guidance goes.
    source.send(dict(model.session.position.cells()))
    driver.pump(3)
    assert screen.view.alert == ""
    model.sensing.stop()
    assert source.stopped


def test_a_camera_that_cannot_be_opened_is_named_and_the_game_goes_on_by_touch(
        driver: Driver, monkeypatch: pytest.MonkeyPatch) -> None:
    import ui.games.sensing

    monkeypatch.setattr(driver.app, "board", "camera:no-such-video.mp4")
    screen = new_game(driver, "rumbo", {"size": "9"}, "camera")
    model = screen.model
    assert model.sensing is None
    assert "The camera cannot follow this game" in screen.view.alert
    assert "no-such-video.mp4" in screen.view.alert
    with pytest.raises(ValueError, match="no such video file"):
        ui.games.sensing.open_camera("camera-cells", model, "no-such-video.mp4")


def test_leaving_the_game_lets_go_of_the_camera_and_coming_back_takes_it_again(
        driver: Driver, monkeypatch: pytest.MonkeyPatch) -> None:
    import ui.games.sensing

    sources: list[FakeGrids] = []

    def open_camera(*_a: Any, **_k: Any) -> FakeGrids:
        sources.append(FakeGrids())
        return sources[-1]

    monkeypatch.setattr(ui.games.sensing, "open_camera", open_camera)
    screen = new_game(driver, "dropper", {"size": "8"}, "camera")
    model = screen.model
    first = sources[0]
    driver.app.show("shelf")
    driver.pump(4)
    assert first.stopped and model.sensing.paused
    # What the stopped camera still reports commits nothing.
    first.send(dict(model.rules.play(model.session.position, "a8").cells()))
    driver.pump(2)
    assert model.session.turns == []
    driver.app.show("games_play")
    driver.pump(4)
    assert len(sources) == 2 and not sources[1].stopped and not model.sensing.paused
    sources[1].send(dict(model.rules.play(model.session.position, "a8").cells()))
    driver.pump(3)
    assert model.session.turns == ["a8"]
    model.sensing.stop()
    assert sources[1].stopped
