"""PhysicalBoardSession: a source reporting on its own thread, LEDs, game changes."""

from __future__ import annotations

import threading

import chess
from sync_helpers import game_after

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
