"""The simulated physical board: settling, noise, colours, occlusion, typed commands."""

from __future__ import annotations

import chess
import pytest

from companion.sensors import BoardSnapshot, LedHint, SourceStatus, open_board_source
from companion.sensors.simulated import (
    HELP,
    SimPiece,
    SimulatedBoard,
    SimulationError,
    open_board,
)

SQ = chess.parse_square


class Sink:
    def __init__(self) -> None:
        self.snapshots: list[BoardSnapshot] = []
        self.statuses: list[SourceStatus] = []

    def names(self, index: int = -1) -> set[str]:
        return {chess.square_name(sq) for sq in self.snapshots[index].occupied}


def started(board: SimulatedBoard, setup: str | None = None) -> Sink:
    if setup is not None:
        board.set_position(chess.Board(setup))
    sink = Sink()
    board.start(sink.snapshots.append, sink.statuses.append)
    return sink


def test_start_reports_the_board_and_its_status() -> None:
    board = SimulatedBoard()
    sink = started(board, "8/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert sink.statuses[0].connected and "occupancy" in sink.statuses[0].message
    assert sink.names() == {"a1", "e1"} and sink.snapshots[0].colors is None
    board.stop()
    assert not sink.statuses[-1].connected


def test_a_change_is_reported_only_after_the_settling_time() -> None:
    board = SimulatedBoard(settle=0.25)
    sink = started(board, "8/8/8/8/8/8/8/R3K3 w - - 0 1")
    lifted_at = board.now
    board.lift(SQ("a1"), hold=0.2)
    assert len(sink.snapshots) == 1
    board.advance(0.04)
    assert len(sink.snapshots) == 1
    board.advance(0.02)
    assert len(sink.snapshots) == 2 and sink.names() == {"e1"}
    assert sink.snapshots[-1].timestamp == pytest.approx(lifted_at + 0.25)


def test_settle_time_is_configurable() -> None:
    board = open_board("settle=0.5,step=0.6")
    sink = started(board, "8/8/8/8/8/8/8/R3K3 w - - 0 1")
    board.lift(SQ("a1"), hold=0.45)
    assert len(sink.snapshots) == 1
    board.advance(0.1)
    assert len(sink.snapshots) == 2


def test_switch_bounce_is_settled_away() -> None:
    board = SimulatedBoard()
    sink = started(board, "8/8/8/8/8/8/8/R3K3 w - - 0 1")
    board.bounce(SQ("c3"), 6)
    board.bounce(SQ("a1"), 6)
    board.advance(1.0)
    assert len(sink.snapshots) == 1
    board.place(SQ("c3"), SimPiece("white", "N"), bounce=4)
    assert len(sink.snapshots) == 2 and "c3" in sink.names()


def test_hover_ghost_only_when_lingering() -> None:
    board = SimulatedBoard()
    sink = started(board, "8/8/8/8/8/8/8/R3K3 w - - 0 1")
    board.lift(SQ("a1"))
    board.hover(SQ("c3"), 0.2)
    assert "c3" not in sink.names()
    board.hover(SQ("c3"), 0.5)
    assert any("c3" in {chess.square_name(s) for s in snap.occupied}
               for snap in sink.snapshots)
    board.advance(1.0)
    assert "c3" not in sink.names()


def test_colour_sensing_and_hand_occlusion() -> None:
    board = SimulatedBoard(colors=True)
    setup = chess.Board("8/8/8/8/8/8/8/R3K3 w - - 0 1")
    setup.set_piece_at(SQ("d8"), chess.Piece(chess.QUEEN, chess.WHITE), promoted=True)
    setup.set_piece_at(SQ("h8"), chess.Piece(chess.KING, chess.BLACK))
    sink = started(board)
    board.set_position(setup)
    colors = sink.snapshots[-1].colors
    assert colors is not None
    assert colors[SQ("a1")] == "white" and colors[SQ("d8")] == "blue" \
        and colors[SQ("h8")] == "black"
    board.occlude([SQ("a1"), SQ("b1")], 0.6)
    hidden = sink.snapshots[-1]
    assert hidden.colors is None and hidden.mask == setup.occupied
    board.advance(0.5)
    assert sink.snapshots[-1].colors is not None
    board.hover(SQ("c3"), 0.6)   # a colour sensor sees a hand, never a ghost piece
    assert all("c3" not in {chess.square_name(s) for s in snap.occupied}
               for snap in sink.snapshots)


def test_slide_reports_only_where_the_piece_rests() -> None:
    board = SimulatedBoard()
    sink = started(board, "8/8/8/8/8/8/8/R3K3 w - - 0 1")
    board.slide(SQ("a1"), SQ("a6"), [SQ("a2"), SQ("a3"), SQ("a4"), SQ("a5")],
                pause_at=SQ("a4"))
    seen = [{chess.square_name(q) for q in s.occupied} for s in sink.snapshots[1:]]
    assert seen == [{"a4", "e1"}, {"a6", "e1"}]


def test_perform_a_capture_in_both_orders_and_a_promotion() -> None:
    for victim_first in (False, True):
        board = SimulatedBoard(colors=True)
        sink = started(board, "4k3/8/8/r7/8/8/8/R3K3 w - - 0 1")
        board.perform(chess.Move.from_uci("a1a5"), chess.WHITE, victim_first=victim_first)
        masks = [set(s.occupied) for s in sink.snapshots[1:]]
        first = SQ("a5") if victim_first else SQ("a1")
        assert first not in masks[0] and len(masks) == 3
        assert sink.snapshots[-1].colors is not None
        assert sink.snapshots[-1].colors[SQ("a5")] == "white"
    board = SimulatedBoard(colors=True)
    sink = started(board, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    board.perform(chess.Move.from_uci("b7b8r"), chess.WHITE)
    colors = sink.snapshots[-1].colors
    assert colors is not None and colors[SQ("b8")] == "blue"
    assert board.squares[SQ("b8")].symbol == "R"
    board.perform(chess.Move(SQ("c4"), SQ("c4"), drop=chess.KNIGHT), chess.BLACK)
    assert board.squares[SQ("c4")] == SimPiece("black", "n")


def test_typed_commands() -> None:
    board = SimulatedBoard()
    sink = started(board, "4k3/8/8/r7/8/8/8/R3K3 w - - 0 1")
    assert board.handle_command("capture a1 a5 victim-first")
    assert sink.names() == {"a5", "e1", "e8"}
    assert board.handle_command("lift e1") and board.handle_command("putback")
    assert board.handle_command("place c3 white n")
    assert board.squares[SQ("c3")] == SimPiece("white", "N")
    assert board.handle_command("slide a5 a2 pause a3")
    assert board.handle_command("hover d4 0.1") and board.handle_command("bounce d4 3")
    assert board.handle_command("occlude d4 e4 0.3") and board.handle_command("wait 1")
    assert board.handle_command("remove c3") and board.handle_command("move e1 f1")
    assert board.handle_command("show") and "R" in board.last_message
    assert board.handle_command("help") and board.last_message == HELP
    assert board.is_command("lift e2") and not board.is_command("e4")


def test_a_faint_piece_is_reported_unsure_until_it_is_lifted() -> None:
    board = SimulatedBoard(colors=True)
    sink = started(board, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert board.handle_command("place c3 white n faint")
    assert board.squares[SQ("c3")] == SimPiece("white", "N")
    last = sink.snapshots[-1]
    assert set(last.unsure) == {SQ("c3")} and SQ("c3") not in last.occupied
    assert SQ("c3") not in (last.colors or {})
    assert board.handle_command("move a1 a5 faint")
    assert set(sink.snapshots[-1].unsure) == {SQ("c3"), SQ("a5")}
    assert sink.names() == {"e1", "e8"}
    assert board.handle_command("lift c3") and board.handle_command("place c4")
    assert set(sink.snapshots[-1].unsure) == {SQ("a5")} and "c4" in sink.names()
    # a failed command keeps the faint pieces as they were
    assert not board.handle_command("move a5 e1 faint")
    assert set(board.sensed().unsure) == {SQ("a5")}
    # slid away, the piece is seen clearly, and a piece set down later on a5 too
    assert board.handle_command("slide a5 a3")
    assert not board.sensed().unsure and "a3" in sink.names()
    assert board.handle_command("place a5 white p")
    assert not board.sensed().unsure and "a5" in sink.names()


def test_a_piece_seen_in_another_colour_is_reported_so_until_it_is_lifted() -> None:
    board = SimulatedBoard(colors=True)
    sink = started(board, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert board.handle_command("place c3 white n seen blue")
    assert board.squares[SQ("c3")] == SimPiece("white", "N")
    assert (sink.snapshots[-1].colors or {})[SQ("c3")] == "blue"
    assert board.handle_command("move a1 a5 seen black")
    assert (sink.snapshots[-1].colors or {})[SQ("a5")] == "black"
    # a failed command keeps what is seen as it was
    assert not board.handle_command("move a5 e1 seen white")
    assert (board.sensed().colors or {})[SQ("a5")] == "black"
    # lifted and set down again, or slid, a piece is read in its own colour
    assert board.handle_command("lift c3") and board.handle_command("place c4")
    assert (sink.snapshots[-1].colors or {})[SQ("c4")] == "white"
    assert board.handle_command("slide a5 a3")
    assert (board.sensed().colors or {})[SQ("a3")] == "white"


@pytest.mark.parametrize(("command", "error"), [
    ("lift e4", "there is no piece on e4 to lift"),
    ("place z9", "'z9' is not a square"),
    ("place e4", "there is no piece in the hand"),
    ("place e1 white k", "e1 is not empty"),
    ("place e4 green", "'green' is not a colour"),
    ("place e4 white nn", "'nn' is not a piece letter"),
    ("place e4 faint faint", "'faint' is not a colour"),
    ("move a1 faint", "usage: move FROM TO [faint | seen COLOR]"),
    ("place e4 seen green", "'green' is not a colour"),
    ("place e4 white n faint seen blue", "usage: place SQ"),
    ("move a1 e1", "e1 is not empty: use 'capture a1 e1'"),
    ("capture a1 a3", "capture needs a piece on both squares"),
    ("capture a1 e1 sideways", "the order is 'victim-first' or 'mover-first'"),
    ("slide a1 a8 pause b2", "b2 is not between a1 and a8"),
    ("wait forever", "'forever' is not a number of seconds"),
    ("bounce e4 99", "N must be a number from 1 to 20"),
    ("dance e4", "unknown board command 'dance'"),
    ("", "type a command"),
    ("lift 'e2", "cannot read"),
])
def test_bad_commands_change_nothing_and_say_why(command: str, error: str) -> None:
    board = SimulatedBoard()
    started(board, "8/8/8/8/8/8/8/R3K3 w - - 0 1")
    before = dict(board.squares)
    assert not board.handle_command(command)
    assert error in board.last_message
    assert board.squares == before and board.hand == []


def test_failed_capture_leaves_the_board_as_it_was() -> None:
    board = SimulatedBoard()
    sink = started(board, "8/8/8/8/8/8/8/R3K3 w - - 0 1")
    with pytest.raises(SimulationError):
        board.slide(SQ("a1"), SQ("e1"), [SQ("b1"), SQ("c1"), SQ("d1")])
    assert len(sink.snapshots) == 1


def test_supply_gives_the_piece_of_a_flipped_card() -> None:
    board = SimulatedBoard()
    started(board, "8/8/8/8/8/8/8/4K3 w - - 0 1")
    board.supply = lambda: SimPiece("white", "Q")
    assert board.handle_command("place d4")
    assert board.squares[SQ("d4")] == SimPiece("white", "Q")


def test_leds_are_shown_in_the_text_board() -> None:
    board = SimulatedBoard()
    started(board, "8/8/8/8/8/8/8/R3K3 w - - 0 1")
    board.show(LedHint(targets=chess.SquareSet([SQ("a4")]), fix=chess.SquareSet([SQ("e1")])))
    text = board.render()
    assert ".*" in text.splitlines()[4] and "K!" in text.splitlines()[7]


def test_open_board_options() -> None:
    assert open_board("").colors is False
    assert open_board("color").colors is True
    source = open_board_source("sim:colour,settle=0.3")
    assert isinstance(source, SimulatedBoard) and source.colors and source.settle == 0.3
    with pytest.raises(ValueError, match="unknown option 'sparkle'"):
        open_board("sparkle")
    with pytest.raises(ValueError, match="settle must be seconds"):
        open_board("settle=soon")
    with pytest.raises(ValueError, match="settle must be >= 0"):
        open_board("settle=-1")


def test_changes_too_brief_to_settle_go_with_the_next_snapshot_as_its_trail() -> None:
    """A capture within the settling time settles as "rook lifted"; the boards seen
    for at least the debounce time in between are its trail, in order. A flicker
    shorter than the debounce time is not."""
    board = SimulatedBoard(settle=0.25, debounce=0.03)
    sink = started(board, "8/8/8/n7/8/8/8/R3K3 w - - 0 1")
    a1, a5 = chess.BB_SQUARES[SQ("a1")], chess.BB_SQUARES[SQ("a5")]
    start = sink.snapshots[-1].mask
    board.bounce(SQ("c3"), 3)
    board.lift(SQ("a1"), hold=0.1)
    board.remove(SQ("a5"), hold=0.1)
    board.place(SQ("a5"))
    last = sink.snapshots[-1]
    assert last.mask == start & ~a1 and len(sink.snapshots) == 2
    assert [g.mask for g in last.trail] == [start & ~a1, start & ~a1 & ~a5]
    assert last.trail[0].timestamp < last.trail[1].timestamp < last.timestamp
    board.knock(SQ("e1"), 0.1)   # knocked over and stood up: same board, with a trail
    assert len(sink.snapshots) == 3 and sink.snapshots[-1].mask == last.mask
    assert [g.mask for g in sink.snapshots[-1].trail] == [last.mask & ~chess.BB_SQUARES[SQ("e1")]]
    assert open_board("debounce=0.05").debounce == 0.05
    with pytest.raises(SimulationError):
        SimulatedBoard(settle=0.1, debounce=0.2)
