"""Frames of confirmed positions kept as labelled photos (vision.keep_frames), by the
keeper alone and by the camera reader watching a game through PhysicalBoardSession."""

from __future__ import annotations

import json
import os
import threading

import chess
import cv2
import numpy as np
import pytest
from vision_helpers import ACTIONS, OPENING, FakeCapture, game_scene, settled_grids

from companion.sensors.snapshot import BoardSnapshot
from companion.sensors.source import BoardSourceError, LedHint, SourceStatus
from lab import videos
from lab.real_boards import load_real_boards, tripod_pairs
from vision.config import VisionConfig
from vision.geometry import BoardGeometry
from vision.keep_frames import UNASSIGNED, FrameKeeper, KeptFramesError, image_quad
from vision.reader import CameraBoardReader

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
CORNERS = ((100.5, 80.0), (520.0, 95.2), (560.0, 430.0), (60.0, 410.7))  # a8, h8, h1, a1


def _picture(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(0, 255, (480, 640, 3), dtype=np.uint8)


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_a_kept_frame_reads_back_with_its_corners_and_position(tmp_path, turns) -> None:  # type: ignore[no-untyped-def]
    geometry = BoardGeometry(CORNERS, (640, 480)).rotated(turns)
    keeper = FrameKeeper(tmp_path, "oak")
    kept = keeper.keep(_picture(), geometry, START)
    assert kept is not None and kept.path == tmp_path / "oak_001.jpg"
    photo, = load_real_boards(tmp_path)
    for got, want in zip(photo.geometry.corners, geometry.corners, strict=True):
        assert got == pytest.approx(want, abs=0.06)
    assert photo.grid[0] == "bbbbbbbb" and photo.grid[7] == "wwwwwwww"
    assert photo.split == UNASSIGNED and photo.board == "oak"
    quad, rotation = image_quad(geometry)
    assert quad[0] == min(quad, key=lambda p: p[0] + p[1])  # the picture's top-left first
    assert rotation == 90 * turns  # a8 moved that many corners on from the top-left
    read = cv2.imread(str(kept.path))
    assert read is not None and read.shape == (480, 640, 3)


def test_the_same_position_is_kept_once_and_numbers_go_on_after_a_restart(tmp_path) -> None:  # type: ignore[no-untyped-def]
    geometry = BoardGeometry(CORNERS, (640, 480))
    keeper = FrameKeeper(tmp_path, "oak")
    assert keeper.keep(_picture(1), geometry, "8/8/8/8/8/8/8/8") is not None
    assert keeper.keep(_picture(2), geometry, "8/8/8/8/8/8/8/8") is None  # at rest
    assert keeper.keep(_picture(3), geometry, "8/8/8/8/8/8/8/4K3") is not None
    again = FrameKeeper(tmp_path, "oak")  # the next game, same folder
    assert again.keep(_picture(4), geometry, "8/8/8/8/8/8/8/4K3") is None
    kept = again.keep(_picture(5), geometry, "8/8/8/8/8/8/8/8")
    assert kept is not None and kept.path.name == "oak_003.jpg"
    other = FrameKeeper(tmp_path, "pine")  # another board in the same folder
    kept = other.keep(_picture(6), geometry, "8/8/8/8/8/8/8/8")
    assert kept is not None and kept.path.name == "pine_001.jpg"
    labels = json.loads((tmp_path / "labels.json").read_text())
    assert [item["image"] for item in labels["images"]] == [
        "oak_001.jpg", "oak_002.jpg", "oak_003.jpg", "pine_001.jpg"]
    assert all(item["split"] == UNASSIGNED and "not yet" in item["checked"]
               for item in labels["images"])


def test_blue_pieces_are_labelled_blue(tmp_path) -> None:  # type: ignore[no-untyped-def]
    keeper = FrameKeeper(tmp_path)
    keeper.keep(_picture(), BoardGeometry(CORNERS, (640, 480)), "1Q5k/8/8/8/8/8/8/4K3",
                [chess.B8])
    photo, = load_real_boards(tmp_path)
    assert photo.grid[0] == ".u.....b"
    # the same position with the queen not blue is another position
    assert keeper.keep(_picture(), BoardGeometry(CORNERS, (640, 480)),
                       "1Q5k/8/8/8/8/8/8/4K3") is not None


def test_unreadable_labels_are_named_and_left_as_they_are(tmp_path) -> None:  # type: ignore[no-untyped-def]
    labels = tmp_path / "labels.json"
    for text in ('{"images": [', '{"images": [{"image": 3}]}', "[]"):
        labels.write_text(text)
        with pytest.raises(KeptFramesError, match=r"labels\.json"):
            FrameKeeper(tmp_path)
        assert labels.read_text() == text
    with pytest.raises(KeptFramesError, match="board name"):
        FrameKeeper(tmp_path / "new", "My Board/..")
    with pytest.raises(ValueError):
        FrameKeeper(tmp_path / "new").keep(_picture(), BoardGeometry(CORNERS, (640, 480)),
                                           "9/8/8/8/8/8/8/8")


def test_a_failed_write_keeps_the_old_labels_and_no_stray_photo(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    geometry = BoardGeometry(CORNERS, (640, 480))
    keeper = FrameKeeper(tmp_path)
    keeper.keep(_picture(1), geometry, "8/8/8/8/8/8/8/8")
    before = (tmp_path / "labels.json").read_bytes()

    def full_disk(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(KeptFramesError, match="No space left"):
        keeper.keep(_picture(2), geometry, "8/8/8/8/8/8/8/4K3")
    assert (tmp_path / "labels.json").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["labels.json", "table_001.jpg"]
    monkeypatch.undo()
    kept = keeper.keep(_picture(2), geometry, "8/8/8/8/8/8/8/4K3")  # room again
    assert kept is not None and kept.path.name == "table_002.jpg"
    assert len(load_real_boards(tmp_path)) == 2


# The camera watching a game -------------------------------------------------------

class PlayersSource:
    """The camera reader as the game's board source, the players turning a card
    before each placement (on the reader's thread, as a flip on the screen would be)."""

    name = "camera"

    def __init__(self, reader: CameraBoardReader, game) -> None:  # type: ignore[no-untyped-def]
        self.reader = reader
        self.game = game
        self.seen = 0
        self.done = threading.Event()

    def start(self, on_snapshot, on_status) -> None:  # type: ignore[no-untyped-def]
        def snapshot(item: BoardSnapshot) -> None:
            if 1 <= self.seen <= len(ACTIONS) and ACTIONS[self.seen - 1] == "place":
                self.game.flip()
            self.seen += 1
            on_snapshot(item)

        self.reader.start(snapshot, on_status)

    def show(self, hint: LedHint) -> None:
        self.reader.show(hint)

    def stop(self) -> None:
        self.reader.stop()

    def keep_position(self, snapshot, board_fen, blue=()):  # type: ignore[no-untyped-def]
        return self.reader.keep_position(snapshot, board_fen, blue)


def test_a_watched_game_keeps_each_confirmed_position_with_its_true_frame(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from companion.cards import Decks
    from companion.game import Game
    from companion.sync import PhysicalBoardSession, SyncKind

    # the opening's first three placements, on a smaller picture than a camera's
    scene = game_scene(41, markers=True, size=(640, 360))
    video = videos.video(scene, OPENING[:3], still_frames=5, hand_frames=6, seed=41,
                         still_pictures=2)
    capture = FakeCapture([f.image for f in video])
    # one photo network reads the frames before the empty board is seen (the shipped
    # three take most of the time, and the frames kept do not depend on them)
    one_net = VisionConfig().replace(photo_nets=("occupancy_photo.onnx",))
    reader = CameraBoardReader("fake", capture_factory=lambda source: capture, live=False,
                               config=one_net)
    reader.keep_frames_in(tmp_path, "synthetic")
    game = Game(decks=Decks(list("KPQRRBBNNPPPPPPP"), list("knqrrbbnpppppppp")))
    results = []
    statuses: list[SourceStatus] = []
    session = PhysicalBoardSession(game, PlayersSource(reader, game), results.append,
                                   on_status=statuses.append)
    session.start()
    assert reader.wait(120)
    session.stop()
    assert [r.kind for r in results].count(SyncKind.COMMITTED) == 3
    photos = load_real_boards(tmp_path)
    # every position the board rested in, the empty board first, each labelled with
    # the renderer's truth (not the camera's reading) ...
    assert [photo.grid for photo in photos] == settled_grids(video)
    # ... on a frame of that position with no hand over the board
    for photo in photos:
        kept = cv2.imread(str(photo.path)).astype(np.int16)
        distance = [float(np.abs(kept - f.image.astype(np.int16)).mean()) for f in video]
        index = int(np.argmin(distance))
        assert distance[index] < 3.0  # the same frame, but for the JPEG's loss
        assert not video[index].hand and video[index].grid == photo.grid
    # the empty board pairs with every other kept frame as its reference
    assert len(tripod_pairs(photos)) == len(photos) - 1
    for photo in photos:
        for got, want in zip(photo.geometry.corners, reader.located.geometry.corners,
                             strict=True):
            assert got == pytest.approx(want, abs=0.06)


def test_a_reader_that_is_not_keeping_keeps_nothing_and_a_bad_folder_is_named(tmp_path) -> None:  # type: ignore[no-untyped-def]
    reader = CameraBoardReader("fake", capture_factory=lambda source: FakeCapture([]),
                               live=False)
    assert reader.keep_position(BoardSnapshot(chess.SquareSet()), "8/8/8/8/8/8/8/8") is None
    (tmp_path / "labels.json").write_text("{")
    with pytest.raises(BoardSourceError, match=r"--keep-frames: .*labels\.json"):
        reader.keep_frames_in(tmp_path)
    assert reader.keeper is None
    # keeping, but the snapshot's frame was never seen: nothing is written
    reader.keep_frames_in(tmp_path / "kept")
    assert reader.keep_position(BoardSnapshot(chess.SquareSet(), timestamp=9.0),
                                "8/8/8/8/8/8/8/8") is None
    assert not (tmp_path / "kept" / "labels.json").exists()


# The commands -----------------------------------------------------------------------

def test_keep_frames_needs_the_camera_board(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from companion.cli import main

    for args in (["play", "--board", "sim"], ["play", "--board", "none"],
                 ["resume", "--board", "sim"], ["app", "--board", "serial"]):
        assert main([*args, "--keep-frames", str(tmp_path / "kept")]) == 2, args
        assert "use it with --board camera" in capsys.readouterr().err
    assert main(["play", "--game", "dropper", "--board", "camera:0",
                 "--keep-frames", str(tmp_path / "kept")]) == 2
    assert "Raindropchess games only" in capsys.readouterr().err
    assert not (tmp_path / "kept").exists()


def test_play_on_the_camera_keeps_frames_in_the_folder_it_names(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from companion.cli import CommandError
    from companion.cli.play import TerminalSession
    from companion.game import Game

    monkeypatch.setenv("RAINDROP_CONFIG_DIR", str(tmp_path))
    video = tmp_path / "v.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    writer.write(np.zeros((48, 64, 3), np.uint8))
    writer.release()
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "labels.json").write_text("{")
    said: list[str] = []
    terminal = TerminalSession(Game(), None, color=False)
    terminal.say = said.append  # type: ignore[method-assign]
    with pytest.raises(CommandError, match=r"--keep-frames: .*bad.labels\.json"):
        terminal.open_board(f"camera:{video}", (tmp_path / "bad", "oak"))
    assert (tmp_path / "bad" / "labels.json").read_text() == "{"
    terminal.open_board(f"camera:{video}", (tmp_path / "kept", "oak"))
    try:
        camera = terminal.board_session.source.source
        assert isinstance(camera, CameraBoardReader)
        assert camera.keeper is not None and camera.keeper.directory == tmp_path / "kept"
        assert camera.keeper.board == "oak"
        assert any("Keeping the camera's frame" in line for line in said)
    finally:
        terminal.board_session.stop()


def test_vision_kept_lists_the_frames_and_draws_their_labels(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from companion.cli import main

    keeper = FrameKeeper(tmp_path / "kept", "oak")
    geometry = BoardGeometry(CORNERS, (640, 480))
    keeper.keep(np.full((480, 640, 3), 128, np.uint8), geometry, "8/8/8/8/8/8/8/4K3")
    keeper.keep(np.full((480, 640, 3), 128, np.uint8), geometry, "1Q5k/8/8/8/8/8/8/4K3",
                [chess.B8])
    assert main(["vision", "kept", str(tmp_path / "kept"), "--draw", str(tmp_path / "d")]) == 0
    out = capsys.readouterr().out
    assert "oak_001.jpg  oak  unassigned  8/8/8/8/8/8/8/4K3" in out
    assert "oak_002.jpg" in out and "blue: b8" in out and "2 frame(s)" in out
    drawn = cv2.imread(str(tmp_path / "d" / "oak_001.png"))
    assert drawn is not None
    # the grid is drawn in yellow along the board's edge, on a plain grey frame
    x, y = (round(v) for v in CORNERS[0])
    patch = drawn[y - 2:y + 3, x - 2:x + 3].reshape(-1, 3)
    assert (np.abs(patch.astype(int) - 128).sum(axis=1) > 60).any()
    assert main(["vision", "kept", str(tmp_path)]) == 2
    assert "no kept frames" in capsys.readouterr().err
    (tmp_path / "labels.json").write_text("[1]")
    assert main(["vision", "kept", str(tmp_path)]) == 2
    assert "is not a labels file" in capsys.readouterr().err


def test_vision_kept_names_an_entry_it_cannot_draw_and_draws_the_rest(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from companion.cli import main

    keeper = FrameKeeper(tmp_path, "oak")
    geometry = BoardGeometry(CORNERS, (640, 480))
    keeper.keep(_picture(1), geometry, "8/8/8/8/8/8/8/4K3")
    keeper.keep(_picture(2), geometry, "8/8/8/8/8/8/8/3K4")
    labels = json.loads((tmp_path / "labels.json").read_text())
    del labels["images"][0]["board_corners_tl_tr_br_bl"]  # mended by hand, badly
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    assert main(["vision", "kept", str(tmp_path), "--draw", str(tmp_path / "d")]) == 0
    assert "oak_001.jpg: its labels cannot be drawn" in capsys.readouterr().err
    assert sorted(p.name for p in (tmp_path / "d").iterdir()) == ["oak_002.png"]
