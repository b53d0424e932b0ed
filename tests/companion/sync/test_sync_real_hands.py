"""Issue 15's minimal cases: what real hands do that gentle scripted hands never did,
on an occupancy-only board (reed switches), and where it matters with colours too.

Each case once committed or kept an action nobody made (or refused a real one)."""

from __future__ import annotations

import chess
import pytest
from sync_helpers import Table, game_after

from companion.rules import HouseRules
from companion.sensors import BoardSnapshot, Glimpse
from companion.sensors.simulated import SimPiece
from companion.sync import BoardSync, SyncKind
from companion.sync.trail import Trail

SQ = chess.parse_square
BOTH = pytest.mark.parametrize("colors", [False, True], ids=["occupancy", "colour"])
ROOKS = "K@e1 k@h8 R@a1 n@a5"          # White to move: Ra1xa5 possible


def test_takeback_is_offered_not_an_invented_fast_reply() -> None:
    """Defect 1: Ra3 put back on a1 leaves the board of "...Na1 and Rb3 at once";
    b3 was never seen empty, so that pair is not what happened: offer the takeback."""
    table = Table(game_after("K@e1 k@h8 R@a1 n@b3"))
    table.do("move a1 a3")
    assert table.game.san_history()[-1] == "Ra3"
    result = table.do("move a3 a1")
    assert result.kind == SyncKind.TAKEBACK and not result.committed
    assert table.game.san_history()[-1] == "Ra3"
    table.session.accept_takeback()
    assert table.game.san_history()[-1] == "N@b3" and table.last.kind == SyncKind.IN_SYNC


def test_a_pair_needs_every_square_seen() -> None:
    """The same board with b3 seen emptied and filled (both moves made at once): the
    takeback is still offered first, the pair as the other choice."""
    game = game_after("K@e1 k@h8 R@a1 n@b3")
    sync = BoardSync(game)
    sync.update(BoardSnapshot.of_board(game.board))
    game.play(chess.Move.from_uci("a1a3"))
    start = game.board.occupied
    a1, a3, b3 = (chess.BB_SQUARES[SQ(n)] for n in ("a1", "a3", "b3"))
    trail = (Glimpse(start & ~b3), Glimpse(start & ~b3 | a1), Glimpse(start & ~b3 & ~a3 | a1))
    result = sync.update(BoardSnapshot(chess.SquareSet(start & ~a3 | a1), trail=trail))
    assert result.kind == SyncKind.TAKEBACK
    assert [c.label for c in result.choices] == ["take back Ra3", "Na1 then Rb3"]
    assert game.san_history()[-1] == "Ra3"


@BOTH
def test_placement_hovered_anywhere_is_corrected(colors: bool) -> None:
    """Defect 2: the queen held over a5 (the reed closes: Q@a5 is played), then set
    on c3, two squares away: the placement is corrected to Q@c3."""
    table = Table(game_after("K@e1 k@h8", white_next="Q"), colors=colors)
    table.game.flip()
    board = table.board
    board.hand.append((SimPiece("white", "Q"), None))
    if colors:
        board.place(SQ("a5"))
        board.lift(SQ("a5"))
    else:
        board.hover(SQ("a5"), 0.5)
        assert table.game.san_history()[-1] == "Q@a5"
    board.place(SQ("c3"))
    assert table.last.kind == SyncKind.CORRECTED
    assert table.game.san_history()[-1].startswith("Q@c3")


def test_moved_piece_relocated_far_is_corrected() -> None:
    table = Table(game_after(ROOKS))
    table.do("move a1 a3", "move a3 a4")
    assert table.last.kind == SyncKind.CORRECTED and table.game.san_history()[-1] == "Ra4"
    table.do("lift a4", "place a2")
    assert table.last.kind == SyncKind.CORRECTED and table.game.san_history()[-1] == "Ra2"


@BOTH
def test_side_to_move_cannot_rewrite_the_last_move(colors: bool) -> None:
    """Defect 3: after Ra3, Black lifts the rook off a3 (to capture it), lifts his own
    rook on a5 and puts it back. No "White played Rxa5": nothing is committed."""
    table = Table(game_after("K@e1 k@h8 R@a1 r@a5 N@h3 n@h6"), colors=colors)
    table.do("move a1 a3")
    assert table.game.san_history()[-1] == "Ra3"
    table.do("lift a3", "lift a5", "place a5")
    assert not any(r.committed for r in table.results[-3:])
    assert table.game.san_history()[-1] == "Ra3"
    table.do("lift a5", "place a3")     # Black captures with the rook after all
    assert table.game.san_history()[-1] == "Rxa3"


def test_opponent_touching_ends_the_correction_window() -> None:
    """After Ra3 Black lifts his knight and keeps it: the rook lifted off a3 and
    set on a4 is then no correction."""
    table = Table(game_after("K@e1 k@h8 R@a1 n@c6 N@h3 n@h6"))
    table.do("move a1 a3", "lift c6", "wait 2", "lift a3", "place a4")
    assert table.game.san_history()[-1] == "Ra3"
    assert not any(r.kind == SyncKind.CORRECTED for r in table.results)


@BOTH
def test_placement_takeback_is_offered_when_the_piece_could_be_captured(colors: bool) -> None:
    """Defect 4: Black's knight just placed on a5, where White's rook can take it,
    is lifted off: the takeback is offered (the capture is still possible)."""
    table = Table(game_after(ROOKS), colors=colors)
    result = table.do("remove a5")
    assert result.kind == SyncKind.TAKEBACK and "take back N@a5" in result.message
    assert "capturing it" in result.message
    table.session.accept_takeback()
    assert table.game.pending == "n" and table.last.kind == SyncKind.IN_SYNC


def test_capture_of_a_piece_just_placed_still_works_after_the_offer() -> None:
    table = Table(game_after(ROOKS))
    table.do("remove a5")
    assert table.last.kind == SyncKind.TAKEBACK
    table.do("lift a1", "place a5")
    assert table.last.kind == SyncKind.COMMITTED and table.game.san_history()[-1] == "Rxa5"


@pytest.mark.parametrize("lift_hold", [0.1, None], ids=["within-settling", "holding"])
def test_knocked_opposing_piece_stood_up_is_not_a_capture_in_the_end(
        lift_hold: float | None) -> None:
    """Defect 5: White holds his rook (or has just lifted it) and knocks the knight on
    a5 over and stands it up; then sets the rook on a3. The game ends with Ra3 (an
    Rxa5 read meanwhile is corrected when the rook lands)."""
    table = Table(game_after(ROOKS))
    board = table.board
    board.lift(SQ("a1"), hold=lift_hold)
    board.knock(SQ("a5"), 0.3)
    board.place(SQ("a3"))
    assert table.game.san_history()[-1] == "Ra3" and len(table.game.san_history()) == 5
    assert table.last.kind in (SyncKind.COMMITTED, SyncKind.CORRECTED)


@BOTH
def test_knocked_own_piece_stood_up_is_no_touch(colors: bool) -> None:
    """Defect 5: White knocks his king over and stands it up, then moves the rook:
    with touch-move enforced, the rook move is played (the king was not touched)."""
    table = Table(game_after(ROOKS), touch_move="enforce", colors=colors)
    table.do("knock e1 0.6")
    assert "Touch-move" not in table.last.message
    result = table.do("move a1 a3")
    assert result.kind == SyncKind.COMMITTED and table.game.san_history()[-1] == "Ra3"


def test_piece_held_longer_is_still_touched() -> None:
    table = Table(game_after(ROOKS), touch_move="enforce")
    table.do("lift e1", "wait 2", "putback")
    result = table.do("move a1 a3")
    assert result.kind == SyncKind.TOUCH_MOVE and not result.committed


def test_fast_capture_commits_from_the_trail() -> None:
    """Defect 6: the victim off and the rook on within the settling time: the
    board's trail shows the order, so the capture is played when the rook lands."""
    table = Table(game_after(ROOKS))
    board = table.board
    board.lift(SQ("a1"), hold=0.1)
    board.remove(SQ("a5"), hold=0.1)
    board.place(SQ("a5"))
    assert table.last.kind == SyncKind.COMMITTED and table.game.san_history()[-1] == "Rxa5"


def test_a_trail_alone_is_decided() -> None:
    """A settled board equal to the last one, with a trail in between (the victim
    taken and the rook set on it while the board never settled): decided again."""
    game = game_after(ROOKS)
    sync = BoardSync(game)
    sync.update(BoardSnapshot.of_board(game.board))
    start = game.board.occupied
    a1, a5 = chess.BB_SQUARES[SQ("a1")], chess.BB_SQUARES[SQ("a5")]
    lifted = BoardSnapshot(chess.SquareSet(start & ~a1))
    assert sync.update(lifted).kind == SyncKind.WAITING
    result = sync.update(BoardSnapshot(chess.SquareSet(start & ~a1),
                                       trail=(Glimpse(start & ~a1 & ~a5),)))
    assert result.kind == SyncKind.COMMITTED and game.san_history()[-1] == "Rxa5"


def test_capturing_promotion_is_not_read_while_the_victim_stands() -> None:
    """Colour sensing: White's pawn lifted from g7 while Black's knight still stands
    on f8 is no "gxf8=Q" (the black piece seen there is the victim, not White's
    pawn set down in place of its blue piece)."""
    game = game_after("K@e1 k@h6 P@g6 n@f8 g7 n@a1", rules=HouseRules(blue_pieces="Q"))
    table = Table(game, colors=True)
    result = table.do("lift g7")
    assert not result.committed and len(table.game.san_history()) == 6
    table.do("remove f8", "place f8 white p")
    assert table.last.committed and table.game.san_history()[-1].startswith("gxf8=Q")


def test_a_reply_must_begin_after_the_move_it_answers() -> None:
    """A fast reply is backed only by events in the order a reply can happen: the
    opponent's piece lifted before the move was made (a knocked piece, a hover
    ghost) is no reply."""
    board = game_after(ROOKS).board
    moves = (chess.Move.from_uci("a1a3"), chess.Move.from_uci("a5b3"))

    def trail_of(order: str) -> Trail:
        trail = Trail()
        mask = board.occupied
        trail.reset(mask)
        for word in order.split():
            bit = chess.BB_SQUARES[SQ(word[1:])]
            mask = mask & ~bit if word[0] == "-" else mask | bit
            trail.observe(mask)
        return trail

    assert trail_of("-a1 +a3 -a5 +b3").backs(board, moves)
    assert not trail_of("-a5 -a1 +a3 +b3").backs(board, moves)
    assert not trail_of("-a1 +a3 +b3").backs(board, moves)   # a5 never seen empty


def test_piece_read_on_a_hovered_square_then_pushed_onto_a_capture() -> None:
    """The rook hovered over a3 long enough (read as Ra3), then pushed the knight off
    a5 faster than the debounce: the board shows the rook lifted again; the hint is
    to set it down again, and then the move is corrected to Rxa5."""
    table = Table(game_after(ROOKS))
    board = table.board
    board.lift(SQ("a1"))
    board.hover(SQ("a3"), 0.6)
    assert table.game.san_history()[-1] == "Ra3"
    board.remove(SQ("a5"), hold=0.0)
    board.place(SQ("a5"))
    result = table.last
    assert result.kind == SyncKind.WAITING and "lifted again from a3" in result.message
    assert "lift the captured piece" in result.message
    table.do("lift a5", "place a5")
    assert table.last.kind == SyncKind.CORRECTED and table.game.san_history()[-1] == "Rxa5"


def test_last_moved_piece_lifted_by_a_possible_captor_names_both() -> None:
    table = Table(game_after("K@e1 k@h8 R@a1 n@a5 N@h3 b@c5"))
    table.do("move a1 a3")
    result = table.do("lift a3")
    assert result.kind == SyncKind.WAITING and "capturing it?" in result.message
    assert "If White is moving it on, Ra3 is corrected" in result.message
    table.do("place a4")
    assert table.last.kind == SyncKind.CORRECTED and table.game.san_history()[-1] == "Ra4"
