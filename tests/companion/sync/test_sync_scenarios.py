"""Every decision of BoardSync through scripted physical sequences on the simulated
board, for an occupancy-only board and for a colour sensor."""

from __future__ import annotations

import chess
import pytest
from sync_helpers import Table, game_after

from companion.rules import HouseRules
from companion.sensors import BoardSnapshot
from companion.sensors.simulated import SimPiece
from companion.sync import BoardSync, SyncError, SyncKind

SQ = chess.parse_square
BOTH = pytest.mark.parametrize("colors", [False, True], ids=["occupancy", "colour"])
ROOKS = "K@e1 k@h8 R@a1 n@a5"          # White to move: Ra1xa5 possible
TWO_VICTIMS = "K@e1 k@h8 R@a1 n@a5 N@h3 b@d1"   # Ra1 can take a5 or d1


@BOTH
def test_flip_then_placement_is_committed(colors: bool) -> None:
    table = Table(game_after("K@e1 k@h8"), colors=colors)
    event = table.game.flip()
    assert table.last.kind == SyncKind.IN_SYNC
    assert set(table.last.led.targets) == set(event.targets)
    assert "place the" in table.last.message
    result = table.do(f"place d4 white {event.card.lower()}")
    assert result.kind == SyncKind.COMMITTED and result.committed
    assert result.move == chess.Move(SQ("d4"), SQ("d4"), drop=chess.Piece.from_symbol(
        event.card).piece_type)
    assert table.game.san_history()[-1].rstrip("+").endswith("@d4")


@BOTH
def test_pawn_placed_on_the_last_rank_is_illegal_and_game_unchanged(colors: bool) -> None:
    game = game_after("K@e1 k@h8", white_next="P")
    table = Table(game, colors=colors)
    game.flip()
    assert game.pending == "P"
    rfen = game.rfen()
    result = table.do("place e8 white p")
    assert result.kind == SyncKind.ILLEGAL
    assert result.reason is not None and "ranks 2 to 6" in result.reason
    assert result.message.endswith("Take the pawn off e8 and place it on a lit square.")
    assert SQ("e8") in result.led.fix and SQ("e4") in result.led.targets
    assert game.rfen() == rfen
    result = table.do("lift e8", "place e4")
    assert result.kind == SyncKind.COMMITTED and game.san_history()[-1] == "P@e4"


@BOTH
def test_piece_set_down_before_the_flip_is_only_confirmed_never_assumed(colors: bool) -> None:
    table = Table(game_after("K@e1 k@h8"), colors=colors)
    result = table.do("place d4 white q")
    assert result.kind == SyncKind.ILLEGAL and "flip a card first" in result.message
    table.game.flip()   # a queen comes up: the board already shows a piece on d4
    assert table.last.kind == SyncKind.ASK
    assert [c.label for c in table.last.choices] == ["play Q@d4+"]
    assert table.game.pending == "Q"
    table.session.choose(0)
    assert table.game.san_history()[-1] == "Q@d4+"
    assert table.last.committed


@BOTH
def test_move_lift_then_place(colors: bool) -> None:
    table = Table(game_after(ROOKS), colors=colors)
    lifted = table.do("lift a1")
    assert lifted.kind == SyncKind.WAITING
    assert SQ("a4") in lifted.led.targets and SQ("a5") in lifted.led.targets
    assert "white rook is lifted from a1" in lifted.message
    result = table.do("place a3")
    assert result.kind == SyncKind.COMMITTED and result.move == chess.Move.from_uci("a1a3")
    assert set(result.led.last_move) == {SQ("a1"), SQ("a3")}


@BOTH
@pytest.mark.parametrize("victim_first", [False, True], ids=["mover-first", "victim-first"])
def test_capture_in_either_order(colors: bool, victim_first: bool) -> None:
    table = Table(game_after(ROOKS), colors=colors)
    before = len(table.results)
    table.board.capture(SQ("a1"), SQ("a5"), victim_first=victim_first)
    kinds = [r.kind for r in table.since(before)]
    assert kinds[-1] == SyncKind.COMMITTED
    assert kinds.count(SyncKind.COMMITTED) == 1
    assert table.game.san_history()[-1] == "Rxa5"


@BOTH
def test_piece_held_is_not_a_capture(colors: bool) -> None:
    """The rook in the hand leaves the board a capture would leave (occupancy): wait."""
    table = Table(game_after(ROOKS), colors=colors)
    rfen = table.game.rfen()
    result = table.do("lift a1", "wait 5")
    assert result.kind == SyncKind.WAITING and table.game.rfen() == rfen
    result = table.do("putback")
    assert result.kind == SyncKind.IN_SYNC and table.game.rfen() == rfen


@BOTH
def test_victim_lifted_and_put_back_before_the_mover_is_no_capture(colors: bool) -> None:
    table = Table(game_after(ROOKS), colors=colors)
    rfen = table.game.rfen()
    table.do("lift a5")   # the knight just placed: a takeback, or the start of a capture
    assert table.last.kind == SyncKind.TAKEBACK and "capturing it" in table.last.message
    table.do("putback", "lift a1")
    assert table.last.kind == SyncKind.WAITING and table.game.rfen() == rfen


@BOTH
@pytest.mark.parametrize("victim", ["a5", "d1"])
@pytest.mark.parametrize("victim_first", [False, True], ids=["mover-first", "victim-first"])
def test_order_of_events_tells_two_captures_with_the_same_occupancy_apart(
        colors: bool, victim: str, victim_first: bool) -> None:
    table = Table(game_after(TWO_VICTIMS), colors=colors)
    table.board.capture(SQ("a1"), SQ(victim), victim_first=victim_first)
    assert table.last.kind == SyncKind.COMMITTED
    assert table.game.san_history()[-1] == f"Rx{victim}"


def test_fast_capture_is_seen_through_the_trail() -> None:
    """Victim off and rook on within the settling time: the settled boards show only
    the rook gone, but the sensor's trail shows a5 emptied and filled: committed."""
    table = Table(game_after(ROOKS))
    board = table.board
    board.lift(SQ("a1"), hold=0.05)
    board.remove(SQ("a5"), hold=0.05)
    board.place(SQ("a5"))
    assert table.last.kind == SyncKind.COMMITTED and table.game.san_history()[-1] == "Rxa5"


def test_fast_capture_unseen_by_the_sensor_waits_then_reseating_commits() -> None:
    """Victim off and rook on faster than the debounce time: occupancy shows only the
    rook gone, exactly as if it were held. BoardSync waits; setting the rook down
    again on a5 shows the order and commits."""
    table = Table(game_after(ROOKS))
    board = table.board
    board.lift(SQ("a1"), hold=0.05)
    board.remove(SQ("a5"), hold=0.01)
    board.place(SQ("a5"))
    assert table.last.kind == SyncKind.WAITING
    assert len(table.game.san_history()) == 4
    table.do("lift a5", "place a5")
    assert table.last.kind == SyncKind.COMMITTED and table.game.san_history()[-1] == "Rxa5"


def test_both_victims_lifted_and_replaced_is_asked_not_guessed() -> None:
    table = Table(game_after(TWO_VICTIMS))
    board = table.board
    board.lift(SQ("a1"))
    board.lift(SQ("a5"))
    board.lift(SQ("d1"))
    board.place(SQ("d1"), hold=0.05)
    board.place(SQ("a5"))
    result = table.last
    assert result.kind == SyncKind.ASK and len(table.game.san_history()) == 6
    labels = [c.label for c in result.choices]
    assert labels == ["play Rxa5", "play Rxd1"] or labels == ["play Rxd1", "play Rxa5"]
    table.session.choose(labels.index("play Rxd1"))
    assert table.game.san_history()[-1] == "Rxd1"


PROMOTION = "K@e1 k@h6 P@b6 n@h1 b7 n@g1"


@BOTH
def test_promotion_with_one_blue_piece_left_is_automatic(colors: bool) -> None:
    table = Table(game_after(PROMOTION, rules=HouseRules(blue_pieces="Q")), colors=colors)
    table.board.perform(chess.Move.from_uci("b7b8q"), chess.WHITE)
    assert table.last.kind == SyncKind.COMMITTED
    assert table.game.san_history()[-1] == "b8=Q"
    board = table.game.board
    assert board.is_blue(SQ("b8"))


@BOTH
def test_promotion_with_several_blue_pieces_is_asked(colors: bool) -> None:
    table = Table(game_after(PROMOTION), colors=colors)
    table.board.perform(chess.Move.from_uci("b7b8r"), chess.WHITE)
    result = table.last
    assert result.kind == SyncKind.ASK
    assert [c.label for c in result.choices] == ["blue queen", "blue rook", "blue bishop",
                                                 "blue knight"]
    assert "Promotion on b8" in result.message
    done = table.session.choose(1)
    assert done.committed and table.game.san_history()[-1] == "b8=R"
    assert table.last.kind == SyncKind.COMMITTED


def test_pawn_itself_set_on_the_last_rank_with_colour_sensing() -> None:
    """The camera sees the white pawn (not a blue piece) on b8: still the promotion;
    once chosen, the board is told to put the blue piece there."""
    table = Table(game_after(PROMOTION), colors=True)
    table.do("lift b7", "place b8")
    assert table.last.kind == SyncKind.ASK
    table.session.choose(0)
    after = table.session.refresh()
    assert after.kind == SyncKind.MISMATCH
    assert "b8 should hold the White's blue queen, not a white piece" in after.message


@BOTH
def test_pawn_to_the_last_rank_without_blue_pieces_is_illegal(colors: bool) -> None:
    table = Table(game_after(PROMOTION, rules=HouseRules(blue_pieces="")), colors=colors)
    result = table.do("lift b7", "place b8")
    assert result.kind == SyncKind.ILLEGAL
    assert result.reason is not None and "no blue piece left" in result.reason


@BOTH
def test_takeback_of_a_move_is_offered_and_accepted(colors: bool) -> None:
    table = Table(game_after(ROOKS), colors=colors)
    table.do("move a1 a3")
    assert table.game.san_history()[-1] == "Ra3"
    result = table.do("move a3 a1")
    assert result.kind == SyncKind.TAKEBACK and result.undo_count == 1
    assert "take back Ra3" in result.message
    after = table.session.accept_takeback()
    assert after.kind == SyncKind.IN_SYNC and table.game.san_history()[-1] == "N@a5"


@BOTH
def test_takeback_of_a_capture_restores_the_victim(colors: bool) -> None:
    table = Table(game_after(ROOKS), colors=colors)
    table.board.capture(SQ("a1"), SQ("a5"))
    table.do("lift a5", "place a1", "place a5 black n")
    assert table.last.kind == SyncKind.TAKEBACK and table.last.undo_count == 1


@BOTH
def test_takeback_over_a_flip_counts_every_undo(colors: bool) -> None:
    table = Table(game_after("K@e1 k@h8 R@a1"), colors=colors)
    table.game.flip()                  # Black flips a knight: pending
    result = table.do("remove a1")     # White's rook placement is taken back
    assert result.kind == SyncKind.TAKEBACK and result.undo_count == 2
    assert "take back R@a1, flip q" in result.message
    table.session.accept_takeback()
    assert table.game.pending == "R"
    assert table.last.kind == SyncKind.IN_SYNC


@BOTH
def test_undo_on_the_screen_then_board_put_right(colors: bool) -> None:
    table = Table(game_after(ROOKS), colors=colors)
    table.do("move a1 a3")
    table.game.undo()
    result = table.last
    assert result.kind == SyncKind.ASK and [c.label for c in result.choices] == ["play Ra3"]
    assert "put the white rook back on a1; a3 should be empty" in result.message
    assert table.do("move a3 a1").kind == SyncKind.IN_SYNC
    assert table.game.san_history()[-1] == "N@a5"


@BOTH
def test_move_played_on_the_screen_tells_the_board_to_follow(colors: bool) -> None:
    """Not a takeback offer: nothing was done on the board since the game changed."""
    table = Table(game_after(ROOKS), colors=colors)
    table.game.play(chess.Move.from_uci("a1a4"))
    result = table.last
    assert result.kind == SyncKind.MISMATCH
    assert result.message == ("The board has not followed the game yet: put the white rook "
                              "on a4; a1 should be empty.")
    assert table.do("move a1 a4").kind == SyncKind.IN_SYNC
    assert table.game.san_history()[-1] == "Ra4"


@BOTH
def test_piece_slid_one_square_further_is_corrected(colors: bool) -> None:
    table = Table(game_after(ROOKS), colors=colors)
    before = len(table.results)
    table.do("slide a1 a4 pause a3")
    kinds = [r.kind for r in table.since(before)]
    assert SyncKind.COMMITTED in kinds and kinds[-1] == SyncKind.CORRECTED
    assert table.last.move == chess.Move.from_uci("a1a4")
    assert "played Ra4, not Ra3" in table.last.message
    assert table.game.san_history()[-1] == "Ra4" and len(table.game.san_history()) == 5


@BOTH
def test_slide_without_resting_commits_once(colors: bool) -> None:
    table = Table(game_after(ROOKS), colors=colors)
    before = len(table.results)
    table.do("slide a1 a4")
    kinds = [r.kind for r in table.since(before)]
    assert kinds == [SyncKind.COMMITTED]
    assert table.game.san_history()[-1] == "Ra4"


@BOTH
def test_correction_onto_a_capture_needs_the_order_of_events(colors: bool) -> None:
    """After Ra3, Black lifting the rook (to capture it) is no slide onto a5."""
    table = Table(game_after("K@e1 k@h8 R@a1 n@a5 N@h3 b@c5"), colors=colors)
    table.do("move a1 a3")
    assert table.game.san_history()[-1] == "Ra3"
    result = table.do("lift a3")   # Black's bishop c5 can capture a3: victim first
    assert result.kind == SyncKind.WAITING and table.game.san_history()[-1] == "Ra3"
    result = table.do("lift c5", "place a3 black b")
    assert result.kind == SyncKind.COMMITTED and table.game.san_history()[-1] == "Bxa3"


@BOTH
def test_slide_further_onto_a_capture_is_corrected(colors: bool) -> None:
    table = Table(game_after(ROOKS), colors=colors)
    table.do("move a1 a4")
    table.do("lift a4", "remove a5", "place a5")
    assert table.last.kind == SyncKind.CORRECTED
    assert table.game.san_history()[-1] == "Rxa5"


@BOTH
@pytest.mark.parametrize("lift_seen", [True, False], ids=["lift-seen", "all-at-once"])
def test_fast_reply_before_the_board_settled_is_not_missed(colors: bool,
                                                           lift_seen: bool) -> None:
    """White moves and Black answers before the board is still: both are played."""
    table = Table(game_after(ROOKS), colors=colors)
    board = table.board
    board.lift(SQ("a1"), hold=None if lift_seen else 0.05)
    board.place(SQ("a3"), hold=0.1)
    board.lift(SQ("a5"), hold=0.1)
    board.place(SQ("b3"))
    result = table.last
    assert result.kind == SyncKind.COMMITTED and result.committed
    assert result.move == chess.Move.from_uci("a1a3")
    assert result.reply == chess.Move.from_uci("a5b3")
    assert "White played Ra3 and Black replied Nb3 at once." in result.message
    assert table.game.san_history()[-2:] == ["Ra3", "Nb3"]


@pytest.mark.parametrize("hold", [0.01, 0.05], ids=["unseen", "in-the-trail"])
def test_fast_recapture_is_played_only_when_every_step_was_seen(hold: float) -> None:
    """Rxa5 and at once ...Nxa5: played when the trail shows a5 emptied and filled
    twice; with the capture never seen (faster than the debounce), not guessed."""
    table = Table(game_after("K@e1 k@h8 R@a1 n@a5 N@h3 n@c6"))
    rfen = table.game.rfen()
    board = table.board
    board.lift(SQ("a1"))
    board.remove(SQ("a5"), hold=hold)
    board.place(SQ("a5"), hold=hold)
    board.remove(SQ("a5"), hold=hold)
    board.lift(SQ("c6"), hold=hold)
    board.place(SQ("a5"))
    if hold < table.board.debounce:
        assert not table.last.committed and table.game.rfen() == rfen
    else:
        assert table.last.committed and table.game.san_history()[-2:] == ["Rxa5", "Nxa5"]


@BOTH
@pytest.mark.parametrize("mode", ["off", "warn", "enforce"])
def test_touch_move(mode: str, colors: bool) -> None:
    table = Table(game_after(ROOKS), touch_move=mode, colors=colors)
    table.do("lift a1", "wait 2", "putback")
    if mode == "off":
        assert "Touch-move" not in table.last.message
    else:
        assert "Touch-move" in table.last.message and SQ("a4") in table.last.led.targets
    result = table.do("move e1 d1")
    if mode == "off":
        assert result.kind == SyncKind.COMMITTED
    elif mode == "warn":
        assert result.kind == SyncKind.TOUCH_MOVE and result.committed
        assert "lifted first" in result.message
        assert table.game.san_history()[-1] == "Kd1"
    else:
        assert result.kind == SyncKind.TOUCH_MOVE and not result.committed
        assert "must move" in result.message and "Put the white king back on e1" in \
            result.message
        assert len(table.game.san_history()) == 4
        assert table.do("move d1 e1").kind == SyncKind.IN_SYNC
        assert table.do("move a1 a2").kind == SyncKind.COMMITTED


def test_touch_move_default_comes_from_the_house_rules() -> None:
    game = game_after(ROOKS, rules=HouseRules(touch_move="enforce"))
    assert BoardSync(game).touch_move == "enforce"
    with pytest.raises(SyncError, match="touch_move must be one of"):
        BoardSync(game, touch_move="sometimes")


@BOTH
def test_illegal_move_is_reported_and_the_game_waits(colors: bool) -> None:
    game = game_after("K@e1 k@h8 B@e2 r@e6", rules=HouseRules())
    table = Table(game, colors=colors)
    rfen = game.rfen()
    result = table.do("move e2 d3")
    assert result.kind == SyncKind.ILLEGAL
    assert result.reason == "the move would leave white's king in check"
    assert "Put the white bishop back on e2" in result.message
    assert "d3 should be empty" in result.message
    assert set(result.led.fix) == {SQ("e2"), SQ("d3")}
    assert game.rfen() == rfen
    assert table.do("move d3 e2").kind == SyncKind.IN_SYNC


@BOTH
def test_illegal_capture_is_reported(colors: bool) -> None:
    game = game_after("K@e1 k@h8 B@e2 r@e6 N@a1 p@d3")
    table = Table(game, colors=colors)
    table.board.capture(SQ("e2"), SQ("d3"))
    result = table.last
    assert result.kind == SyncKind.ILLEGAL, result
    assert result.reason == "the move would leave white's king in check"
    assert len(game.san_history()) == 6


def test_mismatch_names_every_square_to_fix() -> None:
    table = Table(game_after("K@e1 k@h8 N@e4 n@a5"))
    result = table.do("place d3 black n")
    assert result.kind == SyncKind.ILLEGAL
    assert result.message == ("A piece set down on d3 is not legal: no card is flipped: "
                              "flip a card first. Remove the extra piece from d3.")
    result = table.do("remove e4")   # now it looks like a knight move e4-d3
    assert result.kind == SyncKind.ILLEGAL and "Knight e4-d3 is not legal" in result.message
    assert "Put the white knight back on e4; d3 should be empty." in result.message
    result = table.do("place c6 white b")
    assert result.kind == SyncKind.MISMATCH
    assert result.message == ("The board does not match the game: put the white knight back "
                              "on e4; remove the extra piece from d3; remove the extra piece "
                              "from c6.")
    assert {f.square for f in result.fixes} == {SQ("e4"), SQ("d3"), SQ("c6")}
    assert set(result.led.fix) == {SQ("e4"), SQ("d3"), SQ("c6")}


def test_colour_mismatch_is_named() -> None:
    table = Table(game_after("K@e1 k@h8 N@e4 n@a5"), colors=True)
    table.do("remove e4", "place e4 black n")
    result = table.last
    assert result.kind == SyncKind.MISMATCH
    assert "e4 should hold the white knight, not a black piece" in result.message


def test_extra_pieces_in_colour_are_named_by_colour() -> None:
    table = Table(game_after("K@e1 k@h8 N@e4 n@a5"), colors=True)
    table.do("remove e4", "place c6 black n", "place c7 white q")
    assert "remove the extra black piece from c6" in table.last.message
    assert "remove the extra white piece from c7" in table.last.message
    assert "put the white knight back on e4" in table.last.message.lower()


def test_switch_bounce_and_short_hover_are_never_reported() -> None:
    table = Table(game_after(ROOKS))
    before = len(table.results)
    table.do("bounce c3 5", "bounce a5 3")
    table.board.lift(SQ("a1"))
    table.board.hover(SQ("c6"), 0.1)
    table.board.hover(SQ("b7"), 0.2)
    table.board.place(SQ("a2"), bounce=3)
    kinds = [r.kind for r in table.since(before)]
    assert kinds == [SyncKind.WAITING, SyncKind.COMMITTED]


def test_long_hover_over_a_square_is_corrected_when_the_piece_lands() -> None:
    """A magnet held over b3 long enough closes its switch: that reads as N@b3 (the
    board did show it); setting the piece on c3 corrects it."""
    table = Table(game_after("K@e1 k@h8"))
    table.game.flip()
    board = table.board
    board.hand.append((SimPiece("white", "Q"), None))   # the queen card came up
    board.hover(SQ("b3"), 0.6)
    board.place(SQ("c3"))
    assert table.last.kind == SyncKind.CORRECTED
    assert table.game.san_history()[-1] == "Q@c3+"
    assert "not Q@b3" in table.last.message and "moved on to c3" in table.last.message


def test_occluded_colour_snapshots_fall_back_to_occupancy() -> None:
    table = Table(game_after(TWO_VICTIMS), colors=True)
    seen: list[BoardSnapshot] = []
    table.board._on_snapshot = lambda s: (seen.append(s), table.session._on_snapshot(s))
    board = table.board
    board.lift(SQ("a1"))
    board.occlude([SQ("d1"), SQ("c1"), SQ("e1")], 0.6)
    board.remove(SQ("d1"))
    board.occlude([SQ("d1"), SQ("c1")], 0.6)
    board.place(SQ("d1"))
    assert any(s.colors is None for s in seen)
    assert table.game.san_history()[-1] == "Rxd1"


@BOTH
def test_joker_removal_is_committed(colors: bool) -> None:
    rules = HouseRules(jokers_per_deck=1, joker_effect="remove_piece")
    table = Table(game_after("K@e1 k@h8 N@e4 n@a5 flip:J", rules=rules), colors=colors)
    assert table.game.pending == "J"
    assert SQ("a5") in table.last.led.targets
    result = table.do("remove a5")
    assert result.kind == SyncKind.COMMITTED and result.removed == SQ("a5")
    assert "removed the black knight from a5" in result.message


@BOTH
def test_joker_may_not_remove_the_king(colors: bool) -> None:
    rules = HouseRules(jokers_per_deck=1, joker_effect="remove_piece")
    table = Table(game_after("K@e1 k@h8 N@e4 n@a5 flip:J", rules=rules), colors=colors)
    result = table.do("remove h8")
    assert result.kind == SyncKind.ILLEGAL and result.reason == "the king cannot be removed"


@BOTH
def test_after_the_game_is_over_changes_are_illegal(colors: bool) -> None:
    table = Table(game_after(ROOKS), colors=colors)
    table.game.resign(chess.WHITE)
    assert "Game over" in table.last.message
    result = table.do("move a1 a2")
    assert result.kind == SyncKind.ILLEGAL and "the game is over" in (result.reason or "")


def test_the_board_seen_at_start_is_never_an_action() -> None:
    game = game_after("K@e1 k@h8")
    game.flip()
    sync = BoardSync(game)
    board = game.board
    board.push(game.legal_moves()[0])
    result = sync.update(BoardSnapshot.of_board(board))
    assert result.kind == SyncKind.ASK and len(game.san_history()) == 3


def test_same_snapshot_twice_decides_once_and_never_commits_twice() -> None:
    game = game_after(ROOKS)
    sync = BoardSync(game)
    snapshot = BoardSnapshot.of_board(game.board)
    first = sync.update(snapshot)
    assert sync.update(snapshot) is first
    board = game.board
    board.remove_piece_at(SQ("a1"))
    sync.update(BoardSnapshot.of_board(board))
    board.set_piece_at(SQ("a2"), chess.Piece(chess.ROOK, chess.WHITE))
    moved = BoardSnapshot.of_board(board)
    assert sync.update(moved).kind == SyncKind.COMMITTED
    again = sync.update(moved)
    assert again.kind == SyncKind.IN_SYNC and not again.committed
    assert sync.update(moved) is again
    assert game.san_history()[-1] == "Ra2" and len(game.san_history()) == 5


@BOTH
def test_no_takeback_is_offered_when_the_game_cannot_undo(colors: bool) -> None:
    table = Table(game_after(ROOKS), colors=colors)
    table.do("move a1 a3")
    table.game.resign(chess.BLACK)
    result = table.do("move a3 a1")
    assert result.kind != SyncKind.TAKEBACK and "the game is over" in result.message.lower()


def test_choose_without_a_question_is_an_error() -> None:
    table = Table(game_after(ROOKS))
    with pytest.raises(SyncError, match="no open question"):
        table.session.choose(0)
    with pytest.raises(SyncError, match="no takeback"):
        table.session.accept_takeback()
