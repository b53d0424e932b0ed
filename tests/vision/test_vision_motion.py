"""Settling: only a run of still, agreeing frames becomes a snapshot."""

from __future__ import annotations

import dataclasses

import chess
import numpy as np

from companion.sensors import BoardSnapshot
from lab import videos
from vision import synthetic
from vision.config import VisionConfig
from vision.geometry import warp
from vision.motion import Disturbance, FrameReading, Settler, detect_disturbance, small_grey
from vision.square_reading import SquareReading

CONFIG = VisionConfig()
STILL = Disturbance(moving=False, hand=False, motion=0.0, reach=0)
EMPTY = ("........",) * 8
ONE = ("........",) * 4 + ("....w...",) + ("........",) * 3


def frame(t: float, grid: tuple[str, ...] | None, disturbance: Disturbance = STILL,
          aligned: bool = True) -> FrameReading:
    # Clear log-odds, as the reader gives a piece in the open or a bare square: the
    # settler treats squares near 0 as unsure (VisionConfig.settle.unsure_log_odds).
    odds = () if grid is None else tuple(15.0 if c != "." else -15.0 for c in "".join(grid))
    reading = None if grid is None else SquareReading(grid, odds)
    return FrameReading(t, reading, disturbance, 3.0, aligned)


def test_a_snapshot_needs_enough_agreeing_frames_and_time() -> None:
    settler = Settler(CONFIG, "camera")
    sent = [settler.feed(frame(i * 0.1, ONE)) for i in range(CONFIG.settle.settle_frames + 2)]
    # Sent once, on the frame that completes the run, then not again.
    frames = CONFIG.settle.settle_frames
    assert [s is not None for s in sent] == [False] * (frames - 1) + [True, False, False]
    snapshot = next(s for s in sent if s is not None)
    assert snapshot.occupied == chess.SquareSet([chess.E4])
    assert dict(snapshot.colors or {}) == {chess.E4: "white"}
    assert snapshot.source == "camera"


def test_the_same_board_is_not_sent_twice_and_disturbance_restarts_the_run() -> None:
    settler = Settler(CONFIG)
    results = []
    hand = dataclasses.replace(STILL, hand=True)
    moving = dataclasses.replace(STILL, moving=True)
    timeline = [EMPTY] * 6 + [None] + [ONE] * 2 + ["hand"] + [ONE] * 2 + ["moving"] \
        + [ONE] * 6 + [ONE] * 5
    for i, item in enumerate(timeline):
        if item == "hand":
            results.append(settler.feed(frame(i * 0.1, ONE, hand)))
        elif item == "moving":
            results.append(settler.feed(frame(i * 0.1, ONE, moving)))
        else:
            results.append(settler.feed(frame(i * 0.1, item)))  # type: ignore[arg-type]
    sent = [(i, r.mask) for i, r in enumerate(results) if r is not None]
    assert [mask for _, mask in sent] == [0, chess.BB_E4]
    assert sent[1][0] == 12 + CONFIG.settle.settle_frames  # the run after the last disturbance


def test_a_misaligned_frame_never_settles() -> None:
    settler = Settler(CONFIG)
    assert all(settler.feed(frame(i * 0.1, ONE, aligned=False)) is None for i in range(20))


def test_a_hand_over_the_board_is_seen_and_a_placed_piece_is_not_a_hand() -> None:
    rng = np.random.default_rng(31)
    hands = pieces = 0
    for index in range(4):
        scene = synthetic.random_scene(rng, fraction=0.3, markers=False)
        geometry = scene.geometry()
        settled = small_grey(CONFIG, warp(CONFIG, synthetic.render(scene, index), geometry))
        placed = dict(scene.pieces)
        placed[chess.E4] = ("black", chess.QUEEN)
        after = small_grey(CONFIG, warp(CONFIG, synthetic.render(scene.with_pieces(placed),
                                                                 index + 100), geometry))
        assert not detect_disturbance(CONFIG, after, after, settled).hand
        pieces += 1
        hand = synthetic.random_hand(rng, scene.square_mm)
        with_hand = scene.with_pieces(scene.pieces, hand)
        if not videos.hand_over_board(with_hand, hand):
            continue
        now = small_grey(CONFIG, warp(CONFIG, synthetic.render(with_hand, index + 200),
                                      geometry))
        assert detect_disturbance(CONFIG, now, now, settled).hand
        hands += 1
    assert hands >= 2 and pieces == 4


def test_a_board_seen_briefly_goes_with_the_next_snapshot_as_its_trail() -> None:
    """Issue 15: a piece lifted and set down faster than the settling time: the
    short run of agreeing frames in between is the next snapshot's trail."""
    settler = Settler(CONFIG)
    timeline = [EMPTY] * 12 + [ONE] * CONFIG.settle.glimpse_frames + [EMPTY] * 12
    results = [settler.feed(frame(i * 0.05, grid)) for i, grid in enumerate(timeline)]
    sent = [r for r in results if r is not None]
    assert [s.mask for s in sent] == [0, 0]
    assert [g.mask for g in sent[1].trail] == [chess.BB_E4] and sent[0].trail == ()
    # Fewer agreeing frames than glimpse_frames: nothing seen, nothing sent again.
    settler = Settler(CONFIG)
    timeline = [EMPTY] * 12 + [ONE] * (CONFIG.settle.glimpse_frames - 1) + [EMPTY] * 12
    sent = [r for i, g in enumerate(timeline) if (r := settler.feed(frame(i * 0.05, g)))]
    assert [s.mask for s in sent] == [0] and sent[0].trail == ()


def test_a_newly_unsure_square_after_a_hand_is_sent_though_the_board_is_unchanged() -> None:
    settler = Settler(CONFIG)
    hand = dataclasses.replace(STILL, hand=True)
    sure = tuple(-20.0 for _ in range(64))
    weak = tuple(-4.5 if i == 27 else -20.0 for i in range(64))  # d5 (row 3, col 3)

    def feed(grid: tuple[str, ...], odds: tuple[float, ...], t: float,
             disturbance: Disturbance = STILL) -> object:
        return settler.feed(FrameReading(t, SquareReading(grid, odds), disturbance, 3.0, True))

    first = [feed(ONE, sure, i * 0.1) for i in range(6)]
    assert sum(s is not None for s in first) == 1
    # A hand puts down a pale piece the reader cannot call: the board reads as before,
    # but d5 is now unsure. Sent once, with it.
    feed(ONE, sure, 0.7, hand)
    after = [feed(ONE, weak, 0.8 + i * 0.1) for i in range(6)]
    sent = [s for s in after if s is not None]
    assert len(sent) == 1 and isinstance(sent[0], BoardSnapshot)
    assert sent[0].unsure == chess.SquareSet([chess.D5]) and sent[0].mask == chess.BB_E4
    # Still unsure after the next hand, nothing new: not sent again. Not unsure at all
    # with 0 (the setting off).
    feed(ONE, weak, 1.5, hand)
    assert all(feed(ONE, weak, 1.6 + i * 0.1) is None for i in range(6))
    off = Settler(CONFIG.replace(unsure_log_odds=0.0))
    snaps = [off.feed(FrameReading(i * 0.1, SquareReading(ONE, weak), STILL, 3.0, True))
             for i in range(6)]
    assert [s.unsure for s in snaps if s is not None] == [chess.SquareSet()]


def test_a_square_flickering_near_the_threshold_lets_the_board_settle_as_unsure() -> None:
    """Watched game 510: a cream rook on c4 reads occupied in some frames and empty in
    others, its log-odds within a few of 0, so no run of frames agreed and nothing was
    sent. Now the run agrees on the rest and the square is sent as unsure, never as a
    piece; a square changing with clear log-odds still starts a new run."""
    settler = Settler(CONFIG)
    clear = tuple(15.0 if i == 36 else -15.0 for i in range(64))  # the piece on e4
    sent = [settler.feed(FrameReading(i * 0.1, SquareReading(ONE, clear), STILL, 3.0, True))
            for i in range(6)]
    assert sum(s is not None for s in sent) == 1
    hand = dataclasses.replace(STILL, hand=True)
    settler.feed(FrameReading(0.7, SquareReading(ONE, clear), hand, 3.0, True))
    flicker = ("........",) * 4 + ("..w.w...",) + ("........",) * 3  # c4 on and off
    frames = []
    for i in range(8):
        on = i % 2 == 0
        odds = tuple(15.0 if k == 36 else (1.6 if on else -1.5) if k == 34 else -15.0
                     for k in range(64))
        frames.append(settler.feed(FrameReading(0.8 + i * 0.1, SquareReading(
            flicker if on else ONE, odds), STILL, 3.0, True)))
    out = [s for s in frames if s is not None]
    assert len(out) == 1 and out[0].mask == chess.BB_E4
    assert out[0].unsure == chess.SquareSet([chess.C4])
    # A clear change (a piece put down with log-odds 15) is a new board, not a flicker.
    settler = Settler(CONFIG)
    before = [settler.feed(FrameReading(i * 0.1, SquareReading(ONE, clear), STILL, 3.0, True))
              for i in range(6)]
    placed = tuple(15.0 if k in (34, 36) else -15.0 for k in range(64))
    after = [settler.feed(FrameReading(0.6 + i * 0.1, SquareReading(flicker, placed), STILL,
                                       3.0, True)) for i in range(6)]
    assert sum(s is not None for s in before) == 1
    assert [s.mask for s in after if s is not None] == [chess.BB_E4 | chess.BB_C4]


def test_without_a_reference_a_board_at_rest_is_read_once_until_something_moves(
        monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Without a reference (a board watched with its pieces on) a frame's reading takes
    the photo networks about half a second: every still frame is read until the board
    comes to rest (the settler sees them all), then that reading is kept until
    something moves. With a reference every still frame is read."""
    from vision import pipeline as pipeline_module
    from vision.pipeline import BoardPipeline

    scene = synthetic.random_scene(np.random.default_rng(21), fraction=0.3)
    lifted = sorted(scene.pieces)[0]
    after = scene.with_pieces({s: p for s, p in scene.pieces.items() if s != lifted})
    reads: list[int] = []
    real = pipeline_module.read_squares

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        reads.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline_module, "read_squares", counted)
    # three pictures of each position (each its own sensor noise), over and over; read
    # by one photo network where the shipped reader has three: these count readings
    before_pictures = [synthetic.render(scene, i) for i in range(3)]
    after_pictures = [synthetic.render(after, 20 + i) for i in range(3)]
    frames = ([before_pictures[i % 3] for i in range(10)]
              + [np.zeros_like(before_pictures[0])]  # something in the way
              + [after_pictures[i % 3] for i in range(10)])
    one_net = CONFIG.replace(photo_nets=("occupancy_photo.onnx",))
    still = BoardPipeline(one_net, scene.geometry())
    readings = [still.process(frame, i / 10).reading for i, frame in enumerate(frames)]
    assert len(reads) == 2 * CONFIG.settle.settle_frames
    first, last = readings[9], readings[-1]
    assert first is not None and last is not None
    assert all(r is first for r in readings[CONFIG.settle.settle_frames - 1:10])
    assert "".join(first.grid) == "".join(scene.grid())
    assert "".join(last.grid) == "".join(after.grid())  # read again after the change

    reads.clear()
    empty = warp(CONFIG, synthetic.render(scene.with_pieces({}), 99), scene.geometry())
    watched = BoardPipeline(one_net, scene.geometry(), reference=empty)
    for i, frame in enumerate(frames[:10]):
        watched.process(frame, i / 10)
    assert len(reads) == 10
