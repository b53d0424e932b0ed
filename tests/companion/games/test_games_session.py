"""The generic game session and records, on the toy game."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from games_toy import RULES as ROW

from companion import games
from companion.clock import ClockSettings
from companion.games.record import RecordError, read_record, write_record
from companion.games.resume import apply_entry
from companion.games.session import (
    GameEnded,
    GameSession,
    SessionError,
    TurnPlayed,
)


@pytest.fixture(autouse=True)
def row() -> Iterator[None]:
    games.register(ROW)
    yield
    games.unregister("row")


class ListJournal:
    def __init__(self) -> None:
        self.header: dict[str, object] | None = None
        self.entries: list[dict[str, object]] = []

    def begin(self, header: dict[str, object]) -> None:
        self.header = header

    def append(self, entry: dict[str, object]) -> None:
        self.entries.append(dict(entry))


def new(text: str = "row ..... b", **kw: object) -> GameSession:
    return GameSession(ROW, ROW.parse(text), **kw)  # type: ignore[arg-type]


def test_turns_undo_redo_and_events() -> None:
    session = new()
    seen: list[object] = []
    session.subscribe(seen.append)
    session.play("A1")
    assert session.turns == ["a1"]
    assert isinstance(seen[0], TurnPlayed) and seen[0].turn == "a1"
    session.play("b1")
    assert session.undo() == "b1"
    assert session.position.text() == "row b.... w"
    assert session.redo() == "b1"
    session.undo()
    session.play("c1")
    with pytest.raises(SessionError, match="nothing to redo"):
        session.redo()
    with pytest.raises(games.IllegalTurn):
        session.play("c1")
    assert session.turns == ["a1", "c1"]


def test_a_finished_game_cannot_be_taken_back() -> None:
    session = new("row bw.bw w")
    session.play("c1")
    result = session.result
    assert result is not None and result.by == "board" and result.winner == "white"
    with pytest.raises(SessionError, match="cannot undo: the game is over"):
        session.undo()
    with pytest.raises(SessionError, match="the game is over"):
        session.play("a1")


def test_resign_agreement_and_claims_end_the_game() -> None:
    session = new()
    session.resign()
    assert session.result is not None and session.result.winner == "white"
    with pytest.raises(SessionError, match="cannot undo"):
        session.undo()
    session = new()
    session.offer_draw()
    session.play("a1")  # playing on declines black's offer? no: white is to move now
    assert session.draw_offer == "black"
    session.accept_draw()
    assert session.result is not None and session.result.by == "agreement"
    session = new("row bbw.. w")
    assert session.claims() == ("draw",)
    session.claim("draw")
    assert session.result is not None and session.result.by == "claim"


def test_journal_entries_replay_to_the_same_session() -> None:
    recorder = ListJournal()
    session = new(journal=recorder)
    for turn in ("a1", "b1", "c1"):
        session.play(turn)
    session.undo()
    session.redo()
    session.offer_draw()
    session.decline_draw()
    assert recorder.header is not None and recorder.header["game"] == "row"
    again = new()
    with again.replaying():
        for entry in recorder.entries:
            apply_entry(again, entry)
    assert again.position == session.position and again.turns == session.turns


def test_clock_runs_for_the_side_to_move_and_a_flag_ends_the_game() -> None:
    now = [0.0]
    session = new(clock=ClockSettings(base=60), now=lambda: now[0])
    now[0] = 10
    session.play("a1")
    assert session.clock is not None
    assert session.clock.remaining(True) == pytest.approx(50)
    now[0] = 100
    ended: list[object] = []
    session.subscribe(ended.append)
    session.tick()
    assert session.result is not None and session.result.by == "time"
    assert session.result.winner == "black"
    assert any(isinstance(e, GameEnded) for e in ended)


def test_record_round_trip_and_errors() -> None:
    session = new(names={"black": "Ann", "white": 'Bo "B"'})
    for turn in ("a1", "c1", "b1"):
        session.play(turn)
    session.resign("white")
    text = write_record(session, tags={"Date": "2026.11.23"})
    assert '[White "Bo \\"B\\""]' in text and "4. white resigns" in text
    back = read_record(text)
    assert back.session.position == session.position
    assert back.session.result == session.result
    assert back.tags["Black"] == "Ann"
    bad = text.replace("2. white c1", "2. white a1")
    with pytest.raises(RecordError, match=r"line .*: white a1"):
        read_record(bad)
    with pytest.raises(RecordError, match="it is white's turn, not black's"):
        read_record(text.replace("2. white c1", "2. black c1"))
    with pytest.raises(RecordError, match=r"\[Result\] says 'white'"):
        read_record(text.replace('[Result "black"]', '[Result "white"]'))
    with pytest.raises(RecordError, match=r"\[Final\] says"):
        read_record(text.replace('[Final "row bbw.. w"]', '[Final "row bbw.. b"]'))
    with pytest.raises(RecordError, match="no \\[Game"):
        read_record("1. black a1\n")
    with pytest.raises(TypeError):
        read_record(None)  # type: ignore[arg-type]


def test_rumbo_record_names_the_komi_and_who_plays_which_side() -> None:
    rules = games.get("rumbo")
    session = GameSession(rules, rules.start(size="4"))
    assert "Seating" not in write_record(session)
    session.play("komi=3")
    assert "Seating" not in write_record(session)  # not settled yet
    session.play("side=h")  # the chooser takes Horizontal (and the komi)
    session.play("b@a1")
    text = write_record(session)
    assert '[Komi "3"]' in text
    assert '[Seating "chooser=horizontal proposer=vertical"]' in text
    record = read_record(text)
    assert record.tags["Seating"] == "chooser=horizontal proposer=vertical"
    assert record.session.turns == ["komi=3", "side=h", "b@a1"]
    with pytest.raises(RecordError, match=r"\[Seating\] says .* but the actions give"):
        read_record(text.replace("chooser=horizontal proposer=vertical",
                                 "chooser=vertical proposer=horizontal"))
    with pytest.raises(RecordError, match=r"\[Komi\] says '5'"):
        read_record(text.replace('[Komi "3"]', '[Komi "5"]'))
    assert "Seating" not in write_record(new())  # other games: no such tags
