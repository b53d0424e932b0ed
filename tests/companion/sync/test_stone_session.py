"""The StoneBoardSession the terminal and the app share: a seen turn played, a question
asked and answered, a stone in hand not called wrong, a game changed elsewhere, a paused
source silenced; and the wrapper that runs a source's callbacks on its owner's thread."""

from __future__ import annotations

import queue
from typing import Any

import chess
import pytest

from companion import games
from companion.games.session import GameSession
from companion.sensors.snapshot import BoardSnapshot
from companion.sensors.source import BoardSourceError, LedHint, PostedSource, SourceStatus
from companion.sync import stone_session
from companion.sync.stone_session import (
    BoardTrouble,
    Report,
    StoneBoardSession,
    open_grid_source,
    open_occupancy_source,
    open_stone_source,
)
from companion.sync.stones import (
    BoardMismatch,
    BoardUnchanged,
    StoneSnapshot,
    TurnSeen,
    TurnsFit,
    TurnUnfinished,
)

SET_UP = "dropper ......../......../......../......../......../......../......../w.w..... b"


class FakeSource:
    """Stands in for a grid reader or the reed board: the test sends what it reports."""

    name = "fake"

    def __init__(self) -> None:
        self.on_snapshot: Any = None
        self.on_status: Any = None
        self.stopped = 0

    def start(self, on_snapshot: Any, on_status: Any) -> None:
        self.on_snapshot, self.on_status = on_snapshot, on_status

    def stop(self) -> None:
        self.stopped += 1

    def send(self, cells: dict[str, str]) -> None:
        self.on_snapshot(StoneSnapshot(cells))


def _session(text: str | None = None, **options: str) -> GameSession:
    rules: Any = games.get("dropper")
    return GameSession(rules, rules.parse(text) if text else rules.start(**options))


def _follow(session: GameSession, *, occupancy: bool = False
            ) -> tuple[StoneBoardSession, FakeSource, list[Report]]:
    source = FakeSource()
    reports: list[Report] = []
    board = StoneBoardSession(session, source, reports.append, occupancy=occupancy)
    board.start()
    return board, source, reports


def test_a_turn_seen_is_played_and_a_board_that_fits_nothing_is_explained() -> None:
    session = _session(size="5")
    board, source, reports = _follow(session)
    source.send(dict(session.rules.play(session.position, "c3").cells()))
    assert session.turns == ["c3"] and board.committed == ["c3"]
    assert reports == [TurnSeen("c3")]
    source.send(dict(session.position.cells()))
    assert isinstance(reports[-1], BoardUnchanged)
    source.send(dict(session.position.cells()) | {"e5": "b", "a1": "b"})
    assert isinstance(reports[-1], BoardMismatch) and session.turns == ["c3"]
    drop = dict(session.rules.play(session.position, "c3>d3+a1").cells()) | {"a1": "."}
    source.send(drop)  # the drop made, the free stone not yet
    assert isinstance(reports[-1], TurnUnfinished) and session.turns == ["c3"]


def test_two_turns_that_fit_are_asked_and_the_answer_is_played() -> None:
    session = _session(SET_UP)
    board, source, reports = _follow(session)
    after = session.rules.play(session.position, "a1>b1+h8")
    source.send({c: "x" if v != "." else "." for c, v in after.cells().items()})
    assert board.question == ("a1>b1+h8", "c1>b1+h8")
    assert isinstance(reports[-1], TurnsFit) and session.turns == []
    assert not board.choose("h8")  # not one of the turns asked about
    assert board.choose("c1>b1+h8")
    assert session.turns == ["c1>b1+h8"] and board.question == ()


def test_a_game_changed_elsewhere_starts_a_new_turn_and_drops_the_question() -> None:
    session = _session(SET_UP)
    board, source, _ = _follow(session)
    after = session.rules.play(session.position, "a1>b1+h8")
    occupied = {c: "x" if v != "." else "." for c, v in after.cells().items()}
    source.send(occupied)
    assert board.question
    with board.lock:  # a turn typed in the terminal
        session.play("a1>b1+h8")
    source.send(dict(session.position.cells()))
    assert board.question == () and board.committed == []


def test_an_occupancy_board_with_a_stone_in_hand_is_not_called_wrong() -> None:
    session = _session(SET_UP)
    _board, source, reports = _follow(session, occupancy=True)
    cells = dict(session.position.cells())

    def occupancy(cells: dict[str, str]) -> BoardSnapshot:
        return BoardSnapshot(chess.SquareSet(chess.parse_square(c) for c, v in cells.items()
                                             if v != "."))

    source.on_snapshot(occupancy(cells))
    cells["a1"] = "."  # a white stone lifted: the board fits nothing yet
    source.on_snapshot(occupancy(cells))
    assert not any(isinstance(r, BoardMismatch) for r in reports)
    for cell in ("b1", "a1", "h8"):
        cells[cell] = "x"
        source.on_snapshot(occupancy(cells))
    assert session.turns == ["a1>b1+h8"]


def test_a_square_the_game_lacks_is_trouble_not_a_crash() -> None:
    session = _session(size="5")
    _board, source, reports = _follow(session, occupancy=True)
    source.on_snapshot(BoardSnapshot(chess.SquareSet([chess.H8])))
    assert reports == [BoardTrouble("the board reports h8, which this game's board lacks")]


def test_a_paused_source_is_silenced_and_a_fresh_one_goes_on() -> None:
    session = _session(size="5")
    statuses: list[SourceStatus] = []
    first = FakeSource()
    board = StoneBoardSession(session, first, lambda _r: None, on_status=statuses.append)
    board.start()
    board.pause()
    assert first.stopped == 1 and board.paused
    first.send(dict(session.rules.play(session.position, "c3").cells()))
    first.on_status(SourceStatus("fake", True, "late"))
    assert session.turns == [] and statuses == []
    second = FakeSource()
    board.resume(second)
    second.send(dict(session.rules.play(session.position, "c3").cells()))
    assert session.turns == ["c3"]
    first.send(dict(session.rules.play(session.position, "c3>d3+a1").cells()))
    assert session.turns == ["c3"]  # the old source stays silent
    board.stop()
    board.stop()
    assert second.stopped == 1 and first.stopped == 1


def test_posted_source_runs_callbacks_where_its_owner_says() -> None:
    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
    source = FakeSource()
    shown: list[LedHint] = []
    kept: list[tuple[Any, str]] = []
    source.show = shown.append  # type: ignore[attr-defined]
    source.keep_position = lambda snap, fen, blue=(): kept.append((snap, fen))  # type: ignore[attr-defined]
    posted = PostedSource(source, inbox.put)
    seen: list[Any] = []
    posted.start(seen.append, seen.append)
    source.send({"a1": "."})
    source.on_status(SourceStatus("fake", True))
    assert seen == [] and inbox.qsize() == 2  # nothing ran on the source's thread
    while not inbox.empty():
        inbox.get()()
    assert seen == [StoneSnapshot({"a1": "."}), SourceStatus("fake", True)]
    posted.show(LedHint())
    posted.keep_position("snap", "8/8/8/8/8/8/8/8")
    posted.stop()
    assert shown == [LedHint()] and kept == [("snap", "8/8/8/8/8/8/8/8")]
    assert source.stopped == 1 and posted.name == "fake"


def test_boards_a_stone_game_cannot_follow_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    position = _session(size="5").position
    with pytest.raises(BoardSourceError, match="sim: a stone game follows camera"):
        open_stone_source("sim", position)
    with pytest.raises(BoardSourceError, match="reed-switch board is 8 x 8; this game's "
                                               "board is 5 x 5"):
        open_occupancy_source("serial", position)
    monkeypatch.setattr(stone_session, "available_stone_sources", dict)
    with pytest.raises(BoardSourceError, match="not installed"):
        open_grid_source("camera", position)


def test_the_grid_reader_is_found_through_its_entry_point(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    opened: list[tuple[Any, ...]] = []

    def factory(argument: str, spec: str, layout: Any, *, empty_start: bool) -> FakeSource:
        opened.append((argument, spec, layout.size, empty_start))
        return FakeSource()

    monkeypatch.setattr(stone_session, "available_stone_sources",
                        lambda: {"camera": "fake_module:factory"})
    monkeypatch.setattr(stone_session, "load_factory", lambda target: factory)
    rumbo: Any = games.get("rumbo")
    open_stone_source("camera-cells:2", rumbo.start(size="7"))
    open_stone_source("camera", games.get("raindrops").start())
    assert opened[0] == ("2", "cells:7", (7, 7), True)
    assert opened[1][1].startswith("points:") and opened[1][3] is False  # starts full
