"""The camera reader on synthetic videos: settled positions only, never under a hand.

Also: a bumped camera, bad frames, a real video file, and BoardSync playing
the game from the camera's snapshots with no false action.
"""

from __future__ import annotations

import dataclasses

import chess
import cv2
import numpy as np
import pytest
from vision_helpers import ACTIONS, FPS, OPENING, FakeCapture, game_scene, settled_grids

from companion.sensors.snapshot import BoardSnapshot
from companion.sensors.source import LedHint, SourceStatus
from lab import videos
from vision import synthetic
from vision.config import VisionConfig
from vision.errors import SourceUnavailable
from vision.motion import snapshot_of
from vision.reader import CameraBoardReader, open_board, parse_source
from vision.square_reading import SquareReading

# The reader's mechanics (settling, hands, a bumped camera, bad frames) with one photo
# network where the shipped reader reads a board without a reference by three: until it
# has the empty board's picture, a frame is read without one, and the three networks
# take most of these tests' time. The shipped reader watches whole games in
# test_camera_games.py and test_keep_frames.py.
ONE_PHOTO_NET = VisionConfig().replace(photo_nets=("occupancy_photo.onnx",))


def run_reader(frames: list, config: VisionConfig = ONE_PHOTO_NET,  # type: ignore[type-arg]
               **kwargs: object) -> tuple[list[BoardSnapshot], list[SourceStatus]]:
    snapshots: list[BoardSnapshot] = []
    statuses: list[SourceStatus] = []
    capture = FakeCapture(frames)
    reader = CameraBoardReader("fake", capture_factory=lambda source: capture, live=False,
                               config=config, **kwargs)  # type: ignore[arg-type]
    reader.start(snapshots.append, statuses.append)
    assert reader.wait(120)
    reader.stop()
    assert capture.released
    return snapshots, statuses


def grid_of(snapshot: BoardSnapshot) -> tuple[str, ...]:
    rows = []
    for rank in range(7, -1, -1):
        row = ""
        for file in range(8):
            square = chess.square(file, rank)
            colour = (snapshot.colors or {}).get(square)
            row += "." if colour is None else {"white": "w", "black": "b", "blue": "u"}[colour]
        rows.append(row)
    return tuple(rows)


def check_run(video: list[videos.VideoFrame], snapshots: list[BoardSnapshot]) -> None:
    """Snapshots are exactly the settled positions, each taken with no hand over the board."""
    assert [grid_of(s) for s in snapshots] == settled_grids(video)
    for snapshot in snapshots:
        index = round(snapshot.timestamp * FPS)
        assert not video[index].hand, f"snapshot taken under a hand at frame {index}"
        assert video[index].grid == grid_of(snapshot)


SIZE = (640, 360)  # smaller pictures than a camera's: the same reading, rendered faster


@pytest.fixture(scope="module")
def opening_run() -> tuple[list[videos.VideoFrame], list[BoardSnapshot], list[SourceStatus]]:
    """The opening's video and what the reader made of it, read once for the tests."""
    scene = game_scene(41, markers=True, size=SIZE)
    video = videos.video(scene, OPENING, still_frames=5, hand_frames=6, seed=41,
                         still_pictures=2)
    return video, *run_reader([f.image for f in video])


@pytest.fixture(scope="module")
def one_placement() -> list[videos.VideoFrame]:
    """A short video: the empty board, a hand placing the white king, the board at rest."""
    scene = game_scene(44, markers=True, size=SIZE)
    return videos.video(scene, OPENING[:1], still_frames=6, hand_frames=6, seed=44,
                        still_pictures=2)


def test_snapshots_are_the_settled_positions_and_never_under_a_hand(opening_run) -> None:  # type: ignore[no-untyped-def]
    opening_video, snapshots, statuses = opening_run
    assert sum(f.hand for f in opening_video) >= 15  # the hands really are over the board
    check_run(opening_video, snapshots)
    assert statuses[0].connected and "board found (markers)" in [s.message for s in statuses]
    assert statuses[-1] == SourceStatus("camera", False, "the video ended")


def test_board_sync_plays_the_opening_from_the_camera_with_no_false_action(opening_run) -> None:  # type: ignore[no-untyped-def]
    from companion.cards import Decks
    from companion.game import Game
    from companion.sync import BoardSync, SyncKind

    _, snapshots, _ = opening_run
    assert len(snapshots) == 1 + len(ACTIONS)
    # The decks hold the cards the opening places on top.
    game = Game(decks=Decks(list("KPQRRBBNNPPPPPPP"), list("knqrrbbnpppppppp")))
    sync = BoardSync(game)
    assert sync.update(snapshots[0]).kind == SyncKind.IN_SYNC  # the empty board
    for action, snapshot in zip(ACTIONS, snapshots[1:], strict=True):
        if action == "place":
            game.flip()  # the player turns the card, then places the piece
        result = sync.update(snapshot)
        assert result.kind == SyncKind.COMMITTED, (action, result)
    assert game.board.piece_at(chess.E3) == chess.Piece(chess.KNIGHT, chess.BLACK)
    assert game.board.piece_at(chess.F2) == chess.Piece(chess.KING, chess.WHITE)
    assert len(game.board.move_stack) == len(ACTIONS)


def test_a_bumped_camera_is_found_again_and_reading_goes_on() -> None:
    scene = game_scene(42, markers=True, size=(960, 540))  # the markers found again
    first = videos.video(scene, OPENING[2:3], still_frames=5, hand_frames=6, seed=42,
                         still_pictures=2)
    # The camera is knocked: a new pose, then the game goes on.
    rng = np.random.default_rng(420)
    moved = dataclasses.replace(
        scene.with_pieces(scene.pieces),
        camera=synthetic.random_camera(rng, scene.square_mm, margin_squares=1.25))
    moved = moved.with_pieces(dict(OPENING[2]))
    second = videos.video(moved, OPENING[3:4], still_frames=12, hand_frames=6, seed=43,
                          still_pictures=2)
    video = first + second
    snapshots, statuses = run_reader([f.image for f in video])
    check_run(video, snapshots)
    assert any("looking for it again" in s.message for s in statuses)


def test_bad_frames_are_skipped_and_reported(one_placement) -> None:  # type: ignore[no-untyped-def]
    video = one_placement
    frames: list = [f.image for f in video]  # type: ignore[type-arg]
    frames[3] = np.zeros((0, 0, 3), np.uint8)
    frames[9] = "garbage"
    snapshots, statuses = run_reader(frames)
    assert [grid_of(s) for s in snapshots] == settled_grids(video)
    assert sum(s.message == "skipped an unreadable frame" for s in statuses) == 2


def test_a_missing_square_network_is_named_and_the_reader_stops(one_placement) -> None:  # type: ignore[no-untyped-def]
    video = one_placement
    config = ONE_PHOTO_NET.replace(game_nets=("no-such-network.onnx",))
    snapshots, statuses = run_reader([f.image for f in video], config=config)
    assert not snapshots
    last = statuses[-1]
    assert not last.connected and "no-such-network.onnx" in last.message, statuses


def test_a_real_video_file_is_read_to_the_end(tmp_path, one_placement) -> None:  # type: ignore[no-untyped-def]
    video = one_placement
    path = tmp_path / "game.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), FPS, SIZE)
    for f in video:
        writer.write(f.image)
    writer.release()
    snapshots: list[BoardSnapshot] = []
    statuses: list[SourceStatus] = []
    reader = open_board(str(path))
    reader.config = ONE_PHOTO_NET
    reader.show(LedHint())  # a camera has no lights: accepted and kept
    reader.start(snapshots.append, statuses.append)
    assert reader.wait(60)
    assert [grid_of(s) for s in snapshots] == settled_grids(video)


def test_sources_are_parsed_and_a_missing_file_is_named() -> None:
    assert parse_source("") == 0
    assert parse_source("2") == 2
    assert parse_source("rtsp://cam/stream") == "rtsp://cam/stream"
    with pytest.raises(SourceUnavailable, match=r"no-such\.mp4"):
        parse_source("no-such.mp4")


def test_open_board_source_reaches_the_camera_reader(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from companion.sensors.source import BoardSourceError, open_board_source

    monkeypatch.setenv("RAINDROP_CONFIG_DIR", str(tmp_path))
    path = tmp_path / "v.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), FPS, (64, 48))
    writer.write(np.zeros((48, 64, 3), np.uint8))
    writer.release()
    source = open_board_source(f"camera:{path}")
    assert isinstance(source, CameraBoardReader) and source.name == "camera"
    with pytest.raises(BoardSourceError, match="no-such-file"):
        open_board_source("camera:no-such-file.mp4")
    (tmp_path / "camera.json").write_text("{broken")
    with pytest.raises(BoardSourceError, match="calibrate"):
        open_board_source(f"camera:{path}")


def test_an_unopenable_source_reports_disconnected() -> None:
    statuses: list[SourceStatus] = []

    def fail(source: object) -> FakeCapture:
        raise SourceUnavailable("cannot open video source 7")

    reader = CameraBoardReader(7, capture_factory=fail, live=True)
    reader.start(lambda s: None, statuses.append)
    assert reader.wait(5)
    assert statuses == [SourceStatus("camera", False, "cannot open video source 7")]


def test_live_sources_drop_frames_rather_than_lag() -> None:
    scene = game_scene(46, markers=True, size=SIZE)
    image = synthetic.render(scene, 1)
    capture = FakeCapture([image] * 30)
    reader = CameraBoardReader(0, capture_factory=lambda s: capture, live=True,
                               config=ONE_PHOTO_NET)
    reader.start(lambda s: None, lambda s: None)
    assert reader.wait(60)
    assert reader.frames_seen + reader.frames_dropped == 30
    assert reader.frames_dropped > 0


def test_snapshot_of_maps_rows_to_ranks() -> None:
    grid = ("u.......",) + ("........",) * 6 + (".......b",)
    snapshot = snapshot_of(SquareReading(grid, (0.0,) * 64), 1.0, "camera")
    assert dict(snapshot.colors or {}) == {chess.A8: "blue", chess.H1: "black"}


def test_a_reading_is_unsure_of_the_squares_within_the_margin_of_its_threshold() -> None:
    odds = [-9.0] * 64
    odds[0], odds[9], odds[27], odds[63] = 2.9, -2.9, 3.0, -0.1  # a8, b7, d5, h1
    reading = SquareReading(("........",) * 8, tuple(odds))
    assert reading.unsure(3.0) == (0, 9, 63)
    assert reading.unsure(3.5) == (0, 9, 27, 63)
    assert reading.unsure(0.0) == ()
