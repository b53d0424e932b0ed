"""A game driven by the simulated sensing board: pieces put on the (simulated)
physical board reach the game through BoardSync and update the screen; a wrong
placement is shown with the squares to fix and instructions, then put right."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import chess

from companion.sensors.simulated import SimPiece
from companion.sensors.snapshot import BoardSnapshot
from companion.sensors.source import LedHint, SourceStatus

if TYPE_CHECKING:
    from app_driver import Driver


def settle(driver: Driver) -> None:
    sim = driver.app.session.link.source
    sim.advance(sim.settle)
    driver.pump(3)


def test_a_game_on_the_simulated_board_updates_the_screen(driver: Driver) -> None:
    game = driver.new_game("KQ", "k", board="sim")
    session = driver.app.session
    sim = session.link.source
    screen = driver.game_screen
    sensed = screen.sensed
    assert sensed is not None and sensed.connected and sensed.source == "sim"
    assert screen.ids.sensed_board.opacity == 1
    assert "sim: connected" in screen.ids.sensed_info.ids.sensed_status.text

    driver.flip(chess.WHITE)
    sim.place(chess.E1, SimPiece.of(chess.Piece(chess.KING, chess.WHITE)))
    settle(driver)
    assert game.san_history() == ["K@e1"]
    assert driver.shown_pieces() == {"e1": "K"}
    assert [sq for sq, _ in screen.sensed.markers] == [chess.E1]
    assert "K@e1" in screen.ids.moves_scroll.text

    # Black places the king next to White's: illegal; the screen says how to fix it.
    driver.flip(chess.BLACK)
    sim.place(chess.D2, SimPiece.of(chess.Piece(chess.KING, chess.BLACK)))
    settle(driver)
    assert game.pending == "k" and "d2" not in driver.shown_pieces()
    assert chess.D2 in screen.ids.board.fix_squares
    assert chess.D2 in screen.ids.sensed_board.fix_squares
    message = driver.message()
    assert "d2" in message
    assert screen.sensed.kind in ("illegal", "mismatch")

    sim.lift(chess.D2)
    sim.place(chess.E8)
    settle(driver)
    assert game.san_history() == ["K@e1", "K@e8"]
    assert screen.ids.board.fix_squares == []
    assert driver.shown_pieces() == {"e1": "K", "e8": "k"}


def test_the_board_asks_about_a_piece_it_sees_only_faintly(driver: Driver) -> None:
    # A camera's pale piece on a pale square: the board reports the square unsure;
    # the players read the question on the screen and answer it with its button.
    from ui.screens.game import SensedInfo

    game = driver.new_game("KQ", "k", board="sim")
    sim = driver.app.session.link.source
    screen = driver.game_screen
    driver.flip(chess.WHITE)
    sim.place(chess.E1, SimPiece.of(chess.Piece(chess.KING, chess.WHITE)), faint=True)
    settle(driver)
    question = "Is White's king on e1? The camera cannot tell for sure."
    assert game.pending == "K" and "K@e1" not in game.san_history()
    assert screen.sensed.kind == "ask" and screen.sensed.choices == ("the king on e1",)
    assert question in driver.message()
    # Beside the board the players' messages say it; the sheet that covers them on
    # small screens says it above its buttons.
    assert screen.ids.sensed_info.ids.question.text == ""
    sheet = screen.open_sensed()
    driver.pump(2)
    info = next(w for w in sheet.walk() if isinstance(w, SensedInfo))
    assert info.ids.question.text == question and info.ids.question.height > 0
    screen.session.link.choose(0)
    driver.pump(4)
    assert game.san_history() == ["K@e1"]
    assert info.ids.question.text == "" and question not in driver.message()
    screen.close_sheets()


def test_taps_on_the_simulated_board_act_through_its_hands(driver: Driver) -> None:
    game = driver.new_game("KQ", "k", board="sim")
    sim = driver.app.session.link.source
    driver.flip(chess.WHITE)
    driver.place("e1")       # the tap moves a piece on the simulated board
    driver.pump(4)
    assert chess.E1 in sim.squares
    assert game.san_history() == ["K@e1"]
    assert not driver.app.session.link.busy


class FakeCamera:
    """A camera board source as the app sees one: snapshots with colours, the newest
    frame and the found board (as vision.reader.CameraBoardReader offers them)."""

    name = "camera"

    def __init__(self) -> None:
        import numpy as np

        self.last_frame = np.full((180, 320, 3), 90, dtype=np.uint8)
        self.located = SimpleNamespace(geometry=SimpleNamespace(
            corners=((60.0, 10.0), (260.0, 10.0), (260.0, 170.0), (60.0, 170.0))))
        self.on_snapshot: Any = None
        self.hints: list[LedHint] = []

    def start(self, on_snapshot: Any, on_status: Any) -> None:
        self.on_snapshot = on_snapshot
        on_status(SourceStatus(self.name, True, "camera 0"))
        on_snapshot(BoardSnapshot(chess.SquareSet(), {}, 0.0, self.name))

    def show(self, hint: LedHint) -> None:
        self.hints.append(hint)

    def stop(self) -> None:
        self.on_snapshot = None


def test_a_camera_board_shows_its_picture_with_the_grid(driver: Driver) -> None:
    camera = FakeCamera()
    game = driver.new_game("KQ", "k", source=camera)
    screen = driver.game_screen
    deadline = time.monotonic() + 10  # the preview polls the camera 4 times a second
    while screen.ids.camera_preview.texture is None and time.monotonic() < deadline:
        driver.pump(1)
    preview = screen.ids.camera_preview
    assert preview.texture is not None and preview.texture.size == (320, 180)
    assert [tuple(c) for c in preview.corners] == list(camera.located.geometry.corners)
    assert preview.opacity == 1 and screen.ids.sensed_board.opacity == 0
    # A tap on the picture shows the sensed squares instead, and back.
    driver.tap(screen.ids.sensed_area)
    assert preview.opacity == 0 and screen.ids.sensed_board.opacity == 1
    driver.tap(screen.ids.sensed_area)
    assert preview.opacity == 1

    # The camera sees the white king placed on e1 after the flip: the game follows.
    driver.flip(chess.WHITE)
    camera.on_snapshot(BoardSnapshot(chess.SquareSet([chess.E1]), {chess.E1: "white"}, 1.0,
                                     "camera"))
    driver.pump(3)
    assert game.san_history() == ["K@e1"]
    assert driver.shown_pieces() == {"e1": "K"}
    assert camera.hints  # the sync's hints reach the source


class KeepingCamera(FakeCamera):
    """A camera that keeps what it saw (vision.reader.CameraBoardReader --keep-frames)."""

    def __init__(self) -> None:
        super().__init__()
        self.kept: list[tuple[float, str]] = []

    def keep_position(self, snapshot: BoardSnapshot, board_fen: str, blue: Any = ()) -> None:
        self.kept.append((snapshot.timestamp, board_fen))


def test_the_app_tells_a_keeping_camera_each_confirmed_position(driver: Driver) -> None:
    camera = KeepingCamera()
    game = driver.new_game("KQ", "k", source=camera)
    driver.pump(3)
    assert camera.kept == [(0.0, "8/8/8/8/8/8/8/8")]  # the empty board, in sync
    driver.flip(chess.WHITE)
    camera.on_snapshot(BoardSnapshot(chess.SquareSet([chess.D4, chess.E1]),
                                     {chess.D4: "black", chess.E1: "white"}, 1.0, "camera"))
    driver.pump(3)
    # a stray black piece on d4: not the game's position, nothing new confirmed
    assert "K@e1" not in game.san_history()
    assert {fen for _, fen in camera.kept} == {"8/8/8/8/8/8/8/8"}
    camera.on_snapshot(BoardSnapshot(chess.SquareSet([chess.E1]), {chess.E1: "white"}, 2.0,
                                     "camera"))
    driver.pump(3)
    assert game.san_history()[-1] == "K@e1"
    assert camera.kept[-1] == (2.0, "8/8/8/8/8/8/8/4K3")


def test_the_app_has_a_camera_board_keep_frames_and_says_when_it_cannot(
        driver: Driver, tmp_path: Any) -> None:
    import cv2
    import numpy as np

    video = tmp_path / "v.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    writer.write(np.zeros((48, 64, 3), np.uint8))
    writer.release()
    driver.app.keep_frames = (tmp_path / "kept", "oak")
    try:
        driver.new_game("KQ", "k", board=f"camera:{video}")
        keeper = driver.app.session.link.source.keeper
        assert keeper is not None and keeper.directory == tmp_path / "kept"
        (tmp_path / "bad").mkdir()
        (tmp_path / "bad" / "labels.json").write_text("{")
        driver.app.keep_frames = (tmp_path / "bad", "oak")
        driver.new_game("KQ", "k", board=f"camera:{video}")
        assert "No frames are kept" in driver.app.message and "labels.json" in driver.app.message
        assert driver.app.session.link.source.keeper is None  # the game goes on without
        driver.new_game("KQ", "k", board="sim")
        assert "no camera" in driver.app.message
        # without --keep-frames, the setting keeps them in the export folder
        from ui import paths

        driver.app.keep_frames = None
        driver.app.settings.keep_camera_frames = True
        driver.new_game("KQ", "k", board=f"camera:{video}")
        keeper = driver.app.session.link.source.keeper
        assert keeper is not None and keeper.directory == paths.kept_frames_dir()
        assert keeper.board == "table"
        driver.app.settings.keep_camera_frames = False
        driver.new_game("KQ", "k", board=f"camera:{video}")
        assert driver.app.session.link.source.keeper is None
    finally:
        driver.app.keep_frames = None
        driver.app.settings.keep_camera_frames = False
        driver.app.message = ""


def test_a_camera_reading_a_piece_in_another_colour_asks_on_the_screen(driver: Driver) -> None:
    # The white king set down on e1 is read black (a white piece in shadow): the game
    # does not take it; the question is in the players' messages, with its button.
    camera = FakeCamera()
    game = driver.new_game("KQ", "k", source=camera)
    screen = driver.game_screen
    driver.flip(chess.WHITE)
    camera.on_snapshot(BoardSnapshot(chess.SquareSet([chess.E1]), {chess.E1: "black"}, 1.0,
                                     "camera"))
    driver.pump(3)
    assert game.san_history() == ["flip K"] and game.pending == "K"
    assert screen.sensed.kind == "ask" and screen.sensed.choices == ("the king on e1",)
    assert "Is White's king on e1?" in driver.message()
    assert "looks black" in driver.message()
    screen.session.link.choose(0)
    driver.pump(4)
    assert game.san_history() == ["K@e1"]
    assert driver.shown_pieces() == {"e1": "K"}
    # Read black again, the confirmed king is White's: Black's turn, nothing to fix.
    camera.on_snapshot(BoardSnapshot(chess.SquareSet([chess.E1]), {chess.E1: "black"}, 2.0,
                                     "camera"))
    driver.pump(3)
    assert screen.sensed.kind == "in_sync", screen.sensed.message


def test_the_reed_switch_board_on_its_own_thread_drives_the_screen(driver: Driver) -> None:
    """The real serial reader (its own thread) talking to the board firmware running
    under MicroPython on a pty: snapshots reach the game only through the Clock."""
    from companion.sensors.firmware_sim import SimOptions
    from companion.sensors.firmware_sim import SimulatedBoard as FirmwareBoard

    board = FirmwareBoard(SimOptions(board_id="APP0001"))
    board.start()
    try:
        game = driver.new_game("KQ", "k", board=f"serial:{board.port}")
        screen = driver.game_screen
        wait_for(driver, lambda: screen.sensed is not None and screen.sensed.connected)
        assert screen.sensed.source.startswith("serial")
        # The empty board's first settled snapshot: what stood there before is no action.
        sync = driver.app.session.link.physical.sync
        wait_for(driver, lambda: sync.snapshot is not None)
        driver.flip(chess.WHITE)
        board.set_magnets(chess.BB_E1, hold=400)
        wait_for(driver, lambda: game.san_history() == ["K@e1"])
        assert driver.shown_pieces() == {"e1": "K"}
        wait_for(driver, lambda: [sq for sq, _ in screen.sensed.markers] == [chess.E1])
    finally:
        driver.app.end_session()
        board.close()


def wait_for(driver: Driver, condition: Any, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the board did not report in time"
        driver.pump(1)
        time.sleep(0.01)


def test_a_lost_board_offers_retry_and_the_on_screen_board(driver: Driver) -> None:
    game = driver.new_game("KQ", "k", board="sim")
    driver.play(["flip"])
    settle(driver)
    link = driver.app.session.link
    link._on_status(SourceStatus("sim", False, "the cable came out"))
    driver.pump(3)
    screen = driver.game_screen
    info = screen.ids.sensed_info
    assert "not connected: the cable came out" in info.ids.sensed_status.text
    driver.button(info, "Retry")
    assert "Camera setup" not in driver.texts(info)  # not a camera
    driver.tap_button(info, "On-screen board")
    session = driver.app.session
    assert session.link is None and session.game is game and game.pending == "K"
    driver.place("e1")
    assert game.san_history() == ["K@e1"]
