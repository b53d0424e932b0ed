"""A piece the sensor reads in another colour than the action it completes (a camera's
white knight read blue in poor light): asked about, never committed alone, and once
confirmed read in that colour as the game's piece while it stands there."""

from __future__ import annotations

import chess
from sync_helpers import game_after
from test_sync_unsure import snapshot, without

from companion.sync import BoardSync, SyncKind

SQ = chess.parse_square


def test_a_placed_piece_read_in_another_colour_is_asked_about_then_taken_as_read() -> None:
    game = game_after("K@e1 k@h8", white_next="N", black_next="b")
    sync = BoardSync(game)
    assert sync.update(snapshot(game.board)).kind == SyncKind.IN_SYNC
    assert game.flip().card == "N"
    before = game.board.copy()
    played = len(before.move_stack)
    # The knight is set down on d4 and read blue: the board fits N@d4 by occupancy and
    # every other colour. Asked, not committed.
    asked = sync.update(snapshot(before, extra={"d4": "blue"}))
    assert asked.kind == SyncKind.ASK and not asked.committed, asked.message
    assert asked.message.startswith("Is White's knight on d4?")
    assert "looks blue" in asked.message
    assert [c.move for c in asked.choices] == [chess.Move.from_uci("N@d4")]
    assert asked.led.targets == chess.SquareSet([SQ("d4")])
    assert len(game.board.move_stack) == played
    done = sync.choose(0)
    assert done.committed
    assert game.board.piece_at(SQ("d4")) == chess.Piece(chess.KNIGHT, chess.WHITE)
    # Still read blue, the knight counts as the game's: in sync, and Black's next
    # placement is committed.
    assert sync.update(snapshot(before, extra={"d4": "blue"})).kind == SyncKind.IN_SYNC
    assert game.flip().card == "b"
    black = sync.update(snapshot(before, extra={"d4": "blue", "g6": "black"}))
    assert black.kind == SyncKind.COMMITTED, black.message
    assert black.move == chess.Move.from_uci("b@g6")
    # Read black there, it is not the knight the players confirmed.
    wrong = sync.update(snapshot(game.board, extra={"d4": "black"}))
    assert wrong.kind == SyncKind.MISMATCH and "d4" in wrong.message


def test_an_unanswered_colour_question_commits_nothing_and_a_clear_reading_commits() -> None:
    game = game_after("K@e1 k@h8", white_next="N")
    sync = BoardSync(game)
    sync.update(snapshot(game.board))
    game.flip()
    before = game.board.copy()
    assert sync.update(snapshot(before, extra={"d4": "black"})).kind == SyncKind.ASK
    assert len(game.board.move_stack) == len(before.move_stack)
    # The light comes back: the knight reads white, the drop is committed.
    done = sync.update(snapshot(before, extra={"d4": "white"}))
    assert done.kind == SyncKind.COMMITTED and done.move == chess.Move.from_uci("N@d4")


def test_a_moved_piece_read_in_another_colour_on_its_new_square_is_asked_about() -> None:
    game = game_after("K@e1 k@h8 R@a1 p@a7")
    sync = BoardSync(game)
    sync.update(snapshot(game.board))
    asked = sync.update(snapshot(without(game.board, "a1"), extra={"a5": "black"}))
    assert asked.kind == SyncKind.ASK, asked.message
    assert asked.message.startswith("Did the white rook go from a1 to a5?")
    assert [c.move for c in asked.choices] == [chess.Move.from_uci("a1a5")]
    assert sync.choose(0).committed
    # Black to play; the rook still reads black on a5 and counts as White's.
    result = sync.update(snapshot(without(game.board, "a5"), extra={"a5": "black"}))
    assert result.kind == SyncKind.IN_SYNC, result.message


def test_no_colour_question_for_a_capture_or_a_colour_wrong_elsewhere() -> None:
    game = game_after("K@e1 k@h8 R@a1 p@a5", white_next="N")
    sync = BoardSync(game)
    sync.update(snapshot(game.board))
    played = len(game.board.move_stack)
    # The rook gone from a1 and a5 still read black is the rook lifted (or a capture
    # never seen): no question about colours, nothing committed.
    lifted = sync.update(snapshot(without(game.board, "a1")))
    assert lifted.kind != SyncKind.ASK and not lifted.committed, lifted.message
    assert sync.update(snapshot(game.board)).kind == SyncKind.IN_SYNC
    # The knight placed on d4 and read white, but the king on e1 read black: the
    # placement's own piece is right and another piece is wrong: no question.
    game.flip()
    other = sync.update(snapshot(game.board, extra={"d4": "white", "e1": "black"}))
    assert other.kind == SyncKind.MISMATCH, other.message
    assert len(game.board.move_stack) == played
