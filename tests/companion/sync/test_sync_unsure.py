"""Squares a sensor is unsure of (BoardSnapshot.unsure): a piece the camera cannot call
is asked about when a placement is pending, never committed alone, and once confirmed
is not taken for lifted when the camera reads it weakly again."""

from __future__ import annotations

import chess
import pytest
from sync_helpers import game_after

from companion.sensors import BoardSnapshot
from companion.sync import BoardSync, SyncKind, SyncResult

SQ = chess.parse_square


def snapshot(board: chess.BaseBoard, *, unsure: tuple[str, ...] = (),
             extra: dict[str, str] | None = None, at: float = 0.0) -> BoardSnapshot:
    """A colour sensor's view of ``board`` (plus ``extra`` pieces by colour), unsure of
    ``unsure`` (read empty)."""
    seen = BoardSnapshot.of_board(board, with_colors=True)
    colors = dict(seen.colors or {})
    for name, colour in (extra or {}).items():
        colors[SQ(name)] = colour  # type: ignore[assignment]
    return BoardSnapshot(chess.SquareSet(colors), colors, timestamp=at,
                         unsure=chess.SquareSet(SQ(name) for name in unsure))


def test_an_unsure_square_must_be_read_empty() -> None:
    board = game_after("K@e1 k@h8").board
    with pytest.raises(ValueError, match="e1"):
        BoardSnapshot(chess.SquareSet(board.occupied), unsure=chess.SquareSet([SQ("e1")]))
    assert not BoardSnapshot(chess.SquareSet(board.occupied)).unsure


def test_a_pending_piece_the_sensor_is_unsure_of_is_asked_about_then_held() -> None:
    game = game_after("K@e1 k@h8", white_next="N", black_next="b")
    sync = BoardSync(game)
    assert sync.update(snapshot(game.board)).kind == SyncKind.IN_SYNC
    card = game.flip().card
    before = game.board.copy()
    # The piece is put down on d4 but the camera cannot call it: the board reads
    # as before, d4 unsure. Asked, not committed.
    asked = sync.update(snapshot(before, unsure=("d4", "a3")))
    assert asked.kind == SyncKind.ASK and not asked.committed
    assert [c.move for c in asked.choices] == [
        chess.Move.from_uci(f"{card.upper()}@a3"), chess.Move.from_uci(f"{card.upper()}@d4")]
    assert "camera cannot tell" in asked.message
    assert len(game.board.move_stack) == len(before.move_stack)
    done = sync.choose(1)
    assert done.committed and game.board.piece_at(SQ("d4")) is not None
    # Black's placement: the camera still reads d4 weakly (unsure), and sees the new
    # piece on g6. The confirmed piece counts as standing: the placement is committed.
    black = game.flip().card
    after = sync.update(snapshot(before, unsure=("d4",), extra={"g6": "black"}))
    assert after.kind == SyncKind.COMMITTED, after.message
    assert after.move == chess.Move.from_uci(f"{black.lower()}@g6")
    # Read clearly, the board matches; read without d4 and not unsure of it, the
    # piece is gone from d4.
    assert sync.update(snapshot(game.board.copy())).kind == SyncKind.IN_SYNC
    lifted = game.board.copy()
    lifted.remove_piece_at(SQ("d4"))
    assert sync.update(snapshot(lifted)).kind != SyncKind.IN_SYNC


def test_unsure_squares_are_no_question_without_a_pending_placement_or_a_legal_one() -> None:
    game = game_after("K@e1 k@h8", white_next="P")
    sync = BoardSync(game)
    sync.update(snapshot(game.board))
    # Nothing to place: White may flip or move; an unsure square changes nothing.
    assert sync.update(snapshot(game.board, unsure=("d4",))).kind == SyncKind.IN_SYNC
    assert game.flip().card == "P"
    # A pawn may not be placed on the last rank: unsure of a8 alone is no question.
    result = sync.update(snapshot(game.board, unsure=("a8",)))
    assert result.kind == SyncKind.IN_SYNC and "place" in result.message
    assert sync.update(snapshot(game.board, unsure=("a8", "c5"))).kind == SyncKind.ASK


def without(board: chess.Board, *names: str) -> chess.Board:
    lifted = board.copy()
    for name in names:
        lifted.remove_piece_at(SQ(name))
    return lifted


def test_a_moved_piece_the_sensor_is_unsure_of_is_asked_about_then_held() -> None:
    game = game_after("K@e1 k@h8 R@a1 p@a7")
    sync = BoardSync(game)
    assert sync.update(snapshot(game.board)).kind == SyncKind.IN_SYNC
    before = game.board.copy()
    # The rook is set down on a5, a pale piece on a pale square: the camera sees a1
    # empty and a5 unsure (h5 too, which the rook cannot reach). Asked, not committed.
    asked = sync.update(snapshot(without(before, "a1"), unsure=("a5", "h5")))
    assert asked.kind == SyncKind.ASK and not asked.committed, asked.message
    assert asked.message.startswith("Did the white rook go from a1 to a5?")
    assert "camera cannot tell" in asked.message
    assert [c.move for c in asked.choices] == [chess.Move.from_uci("a1a5")]
    assert asked.led.targets == chess.SquareSet([SQ("a5")])
    assert len(game.board.move_stack) == len(before.move_stack)
    done = sync.choose(0)
    assert done.committed and game.board.piece_at(SQ("a5")) == chess.Piece(chess.ROOK, True)
    # Still read weakly, the confirmed rook counts as standing: Black to play, in sync.
    result = sync.update(snapshot(without(game.board, "a5"), unsure=("a5",)))
    assert result.kind == SyncKind.IN_SYNC, result.message


def test_a_lifted_piece_is_no_question_when_no_square_it_may_reach_is_unsure() -> None:
    game = game_after("K@e1 k@h8 R@a1 p@a7")
    sync = BoardSync(game)
    sync.update(snapshot(game.board))
    played = len(game.board.move_stack)
    # h5 is out of the rook's reach and a7 holds a black pawn (a capture shows on the
    # board): the rook is only lifted.
    result = sync.update(snapshot(without(game.board, "a1"), unsure=("h5",)))
    assert result.kind == SyncKind.WAITING and "lifted from a1" in result.message
    assert len(game.board.move_stack) == played
    # Two squares it may reach: both offered.
    asked = sync.update(snapshot(without(game.board, "a1"), unsure=("a5", "c1")))
    assert asked.kind == SyncKind.ASK
    assert asked.message.startswith("Where did the white rook from a1 go: c1, or a5?")
    assert {c.move for c in asked.choices} == {chess.Move.from_uci("a1a5"),
                                               chess.Move.from_uci("a1c1")}


def test_with_touch_move_enforced_only_the_piece_touched_first_is_asked_about() -> None:
    def rook_lifted_after_the_king(touch_move: str) -> SyncResult:
        game = game_after("K@e1 k@h8 R@a1 p@a7")
        sync = BoardSync(game, touch_move=touch_move)
        sync.update(snapshot(game.board))
        # The king is lifted, held, set back, then the rook is lifted.
        sync.update(snapshot(without(game.board, "e1"), at=1.0))
        sync.update(snapshot(game.board, at=4.0))
        return sync.update(snapshot(without(game.board, "a1"), unsure=("a5",), at=6.0))

    result = rook_lifted_after_the_king("enforce")  # the king must move
    assert result.kind == SyncKind.WAITING, result.message
    assert "Touch-move" in result.message
    # With touch-move off the same board is asked about.
    result = rook_lifted_after_the_king("off")
    assert result.kind == SyncKind.ASK, result.message
