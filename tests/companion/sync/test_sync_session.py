"""PhysicalBoardSession: a source reporting on its own thread, LEDs, game changes."""

from __future__ import annotations

import dataclasses
import threading

import chess
from sync_helpers import game_after

from companion.game import Game
from companion.sensors import BoardSnapshot, LedHint, SourceStatus
from companion.sensors.source import SnapshotCallback, StatusCallback
from companion.sync import PhysicalBoardSession, SyncKind, SyncResult


class ThreadedSource:
    """A board source that reports a list of snapshots from its own thread."""

    name = "threaded"

    def __init__(self, snapshots: list[BoardSnapshot], *, fail_show: bool = False) -> None:
        self.snapshots = snapshots
        self.hints: list[LedHint] = []
        self.fail_show = fail_show
        self.thread: threading.Thread | None = None
        self.stopped = False

    def start(self, on_snapshot: SnapshotCallback, on_status: StatusCallback) -> None:
        def run() -> None:
            on_status(SourceStatus(self.name, True))
            for snapshot in self.snapshots:
                on_snapshot(snapshot)

        self.thread = threading.Thread(target=run)
        self.thread.start()

    def show(self, hint: LedHint) -> None:
        if self.fail_show:
            raise OSError("the LED strip is unplugged")
        self.hints.append(hint)

    def stop(self) -> None:
        self.stopped = True


def _snapshots(board: chess.Board, *moves: str) -> list[BoardSnapshot]:
    board = board.copy()
    out = [BoardSnapshot.of_board(board)]
    for uci in moves:
        move = chess.Move.from_uci(uci)
        lifted = board.copy()
        lifted.remove_piece_at(move.from_square)
        out.append(BoardSnapshot.of_board(lifted))
        board.push(move)
        out.append(BoardSnapshot.of_board(board))
    return out


def test_snapshots_from_another_thread_are_decided_in_order() -> None:
    game = game_after("K@e1 k@h8 R@a1 n@a5")
    source = ThreadedSource(_snapshots(game.board, "a1a3", "h8g8", "a3a4"))
    results: list[SyncResult] = []
    statuses: list[SourceStatus] = []
    session = PhysicalBoardSession(game, source, results.append, on_status=statuses.append)
    session.start()
    assert source.thread is not None
    source.thread.join(timeout=60)
    assert game.san_history()[-3:] == ["Ra3", "Kg8", "Ra4"]
    assert [r.kind for r in results].count(SyncKind.COMMITTED) == 3
    assert len(source.hints) == len(results)
    assert statuses == [SourceStatus("threaded", True)]
    session.stop()
    assert source.stopped


def test_a_flip_on_the_screen_lights_the_card_squares() -> None:
    game = game_after("K@e1 k@h8")
    source = ThreadedSource(_snapshots(game.board))
    results: list[SyncResult] = []
    session = PhysicalBoardSession(game, source, results.append)
    session.start()
    assert source.thread is not None
    source.thread.join(timeout=60)
    event = game.flip()
    assert results[-1].kind == SyncKind.IN_SYNC
    assert source.hints[-1].targets == event.targets and len(event.targets) > 0
    session.stop()
    count = len(results)
    game.undo()                     # no longer listening
    assert len(results) == count


def test_a_failing_led_display_does_not_stop_the_game() -> None:
    game = game_after("K@e1 k@h8 R@a1 n@a5")
    source = ThreadedSource(_snapshots(game.board, "a1a3"), fail_show=True)
    results: list[SyncResult] = []
    session = PhysicalBoardSession(game, source, results.append)
    session.start()
    assert source.thread is not None
    source.thread.join(timeout=60)
    assert game.san_history()[-1] == "Ra3" and results[-1].kind == SyncKind.COMMITTED


class KeepingSource(ThreadedSource):
    """A source that keeps what it saw (as the camera does with --keep-frames)."""

    def __init__(self, snapshots: list[BoardSnapshot], *, fail_keep: bool = False) -> None:
        super().__init__(snapshots)
        self.kept: list[tuple[float, str, list[chess.Square]]] = []
        self.fail_keep = fail_keep

    def keep_position(self, snapshot: BoardSnapshot, board_fen: str,
                      blue: list[chess.Square]) -> None:
        if self.fail_keep:
            raise OSError("the card is full")
        self.kept.append((snapshot.timestamp, board_fen, list(blue)))


def _keeping(game: Game, snapshots: list[BoardSnapshot], **kwargs: bool
             ) -> tuple[KeepingSource, PhysicalBoardSession, list[SyncResult]]:
    """A session over a keeping source whose snapshots (timed 0, 1, 2 ...) are all
    decided: the session, still running, and its results."""
    source = KeepingSource([dataclasses.replace(s, timestamp=float(i))
                            for i, s in enumerate(snapshots)], **kwargs)
    results: list[SyncResult] = []
    session = PhysicalBoardSession(game, source, results.append)
    session.start()
    assert source.thread is not None
    source.thread.join(timeout=60)
    return source, session, results


def test_a_keeping_source_is_told_each_confirmed_position_and_never_a_half_move() -> None:
    game = game_after("K@e1 k@h8 R@a1 n@a5")
    start = game.board.board_fen()
    snapshots = _snapshots(game.board, "a1a3", "h8g8")
    # then a stray queen on d4 (the board differs from the game), taken off again
    after_ra3 = chess.Board(f"{start} w - - 0 1")
    after_ra3.push_uci("a1a3")
    after_kg8 = after_ra3.copy()
    after_kg8.push_uci("h8g8")
    stray = after_kg8.copy()
    stray.set_piece_at(chess.D4, chess.Piece(chess.QUEEN, chess.WHITE))
    snapshots += [BoardSnapshot.of_board(stray), BoardSnapshot.of_board(after_kg8)]
    source, session, results = _keeping(game, snapshots)
    session.stop()
    assert game.san_history()[-2:] == ["Ra3", "Kg8"]
    # in sync at the start, each move committed, in sync again once the stray queen
    # is gone; never the lifted rook or king, never the board with the stray queen
    assert source.kept == [(0.0, start, []), (2.0, after_ra3.board_fen(), []),
                           (4.0, after_kg8.board_fen(), []), (6.0, after_kg8.board_fen(), [])]
    assert [r.kind for r in results][-2:] == [SyncKind.ILLEGAL, SyncKind.IN_SYNC]


def test_a_promoted_piece_is_kept_as_blue() -> None:
    game = game_after("K@e1 k@h8 P@b6 n@a5 b6b7 a5c4")
    before = game.board.copy()
    after = before.copy()
    after.push(chess.Move.from_uci("b7b8q"))
    assert after.promoted & chess.BB_B8
    snapshots = [BoardSnapshot.of_board(board, with_colors=True)
                 for board in (before, _lifted(before, chess.B7), after)]
    source, session, results = _keeping(game, snapshots)
    # the board cannot tell a blue queen from a blue rook: the players say, then the
    # position is confirmed with the blue queen on b8
    assert results[-1].kind == SyncKind.ASK
    assert source.kept == [(0.0, before.board_fen(), [])]
    session.choose([c.label for c in results[-1].choices].index("blue queen"))
    session.stop()
    assert game.board.promoted & chess.BB_B8
    assert source.kept[-1] == (2.0, after.board_fen(), [chess.B8])


def _lifted(board: chess.Board, square: chess.Square) -> chess.Board:
    lifted = board.copy()
    lifted.remove_piece_at(square)
    return lifted


def test_a_source_that_cannot_keep_does_not_stop_the_game(caplog) -> None:  # type: ignore[no-untyped-def]
    game = game_after("K@e1 k@h8 R@a1 n@a5")
    _, session, results = _keeping(game, _snapshots(game.board, "a1a3"), fail_keep=True)
    session.stop()
    assert game.san_history()[-1] == "Ra3"
    assert SyncKind.COMMITTED in [r.kind for r in results]
    assert "could not keep the position" in caplog.text
