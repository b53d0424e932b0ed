"""The companion's core at the table: seats, budgets, the runner for both kinds of game,
undo pairs, hints and their limit, resume keeping seats (fake Raindropchess engine; the
abstract games' real engine at small playout budgets)."""

from __future__ import annotations

import threading

import chess
import pytest
from table_helpers import FakeChessEngine, Loop, chess_engine

from companion import games
from companion.clock import ClockSettings
from companion.engine.levels import level
from companion.game import Game
from companion.games.session import GameSession
from companion.journal import Journal
from companion.resume import resume
from companion.table.budget import FLOOR_SECONDS, ClockView, clock_seconds, turn_budget
from companion.table.chess_table import ChessTable
from companion.table.events import (
    CompanionAnswered,
    CompanionChose,
    CompanionStopped,
    CompanionThinking,
    HintGiven,
    HintRefused,
    TakenBack,
)
from companion.table.games_table import GamesTable, seat_names
from companion.table.runner import CompanionRunner
from companion.table.seats import (
    HintPolicy,
    Seat,
    SeatError,
    TableSettings,
    parse_companions,
)

CHESS = ("white", "black")


def test_seats_round_trip_and_errors() -> None:
    settings = parse_companions(["black:2"], CHESS, playouts=50, hints=HintPolicy.parse("3"))
    assert settings.seat("black") == Seat("black", True, 2, 50)
    assert settings.seat("white").person and not settings.is_companion("white")
    data = settings.to_dict()
    assert data == {"order": ["white", "black"], "hints": "3",
                    "seats": {"white": "person", "black": "companion:2:50"}}
    assert TableSettings.from_dict(data, CHESS) == settings
    assert TableSettings.from_dict({}, CHESS) == TableSettings.hot_seat(CHESS)
    assert settings.tags() == {"Seats": "white=person black=companion:2:50", "Hints": "3"}
    assert parse_companions(["both:1"], CHESS).companions == (Seat("white", True, 1),
                                                              Seat("black", True, 1))
    with pytest.raises(SeatError, match="no side 'red'"):
        parse_companions(["red"], CHESS)
    with pytest.raises(SeatError, match="level"):
        parse_companions(["black:9"], CHESS)
    with pytest.raises(SeatError, match="not this game's"):
        TableSettings.from_dict({"seats": {"white": "person"}}, CHESS)
    with pytest.raises(SeatError, match="neither"):
        Seat.from_text("white", "robot")


def test_hint_policy() -> None:
    assert HintPolicy.parse("off").refusal(0) == "hints are off in this game"
    three = HintPolicy.parse("3")
    assert three.refusal(2) is None and "all used" in (three.refusal(3) or "")
    assert three.left(1) == 2 and HintPolicy.parse("unlimited").left(40) is None
    with pytest.raises(SeatError):
        HintPolicy.parse("lots")


def test_budget_is_cut_by_a_short_clock() -> None:
    club = level(3)
    assert turn_budget(club).seconds == club.seconds
    assert turn_budget(club, clock=ClockView(600, 0)).seconds == club.seconds
    assert turn_budget(club, clock=ClockView(20, 0)).seconds == pytest.approx(1.0)
    assert turn_budget(club, clock=ClockView(20, 5)).seconds == club.seconds
    assert clock_seconds(ClockView(0.01, 0)) == FLOOR_SECONDS
    assert clock_seconds(ClockView(1.0, 3.0)) == pytest.approx(0.5)   # never half the rest
    fixed = turn_budget(club, playouts=40)
    assert fixed.playouts == 40 and fixed.seconds is None


def _chess(seats: list[str], *, hints: str = "unlimited", journal: Journal | None = None,
           seed: int = 5, **kwargs: object) -> Game:
    table = parse_companions(seats, CHESS, hints=HintPolicy.parse(hints)).to_dict()
    return Game(seed=seed, table=table, journal=journal, **kwargs)  # type: ignore[arg-type]


def test_companion_plays_both_raindropchess_seats_to_the_end() -> None:
    with chess_engine():
        game = _chess(["both:1"])
        loop = Loop()
        runner = CompanionRunner(ChessTable(game), post=loop.post, listener=loop.listen)
        runner.update()
        loop.run_until(lambda: game.is_over)
    chose = loop.of(CompanionChose)
    assert len(chose) == len(game.actions())
    assert all(isinstance(e, CompanionChose) and e.words for e in chose)
    first = chose[0]
    assert isinstance(first, CompanionChose) and first.turn == "flip" \
        and first.words.startswith("White flips: a")
    assert loop.of(CompanionThinking)
    runner.close()


def test_person_against_companion_undo_pair_and_hints(tmp_path: object) -> None:
    fake = FakeChessEngine()
    with chess_engine(fake):
        game = _chess(["black"], hints="2")
        loop = Loop()
        table = ChessTable(game)
        runner = CompanionRunner(table, post=loop.post, listener=loop.listen,
                                 hint_playouts=10)
        assert runner.refusal() is None
        game.flip()               # White flips and places: then Black (the companion) replies
        if game.pending is not None:
            game.play(game.legal_moves()[0])
        loop.run_until(lambda: game.turn == chess.WHITE and game.pending is None
                       and not runner.thinking)
        white_actions = [a for a, who in zip(game.actions(), table.actors(), strict=True)
                         if who == "white"]
        assert white_actions and table.actors()[-1] == "black"
        before = len(game.actions())
        taken = runner.undo()
        assert isinstance(taken, TakenBack) and taken.seat == "white"
        assert len(game.actions()) == before - taken.actions == 0
        assert "White's last turn and the companion's reply" in taken.words
        # Hints: two a game, the third refused.
        for _ in range(2):
            assert runner.hint() is None
            loop.run_until(lambda: not runner.hinting)
        given = loop.of(HintGiven)
        assert len(given) == 2 and game.hints_used == {"white": 2, "black": 0}
        hint = given[0].hint  # type: ignore[union-attr]
        assert hint.lines[0].startswith("Hint for White: ") and hint.left == 1
        assert runner.hint() == "no hints left: 2 a game, all used"
        assert any("no hints left" in e.words for e in loop.of(HintRefused))  # type: ignore[union-attr]
        runner.close()


def test_undo_while_thinking_stops_the_search() -> None:
    gate = threading.Event()
    with chess_engine(FakeChessEngine(gate=gate)):
        game = _chess(["black"])
        loop = Loop()
        runner = CompanionRunner(ChessTable(game), post=loop.post, listener=loop.listen)
        game.flip()
        if game.pending is not None:
            game.play(game.legal_moves()[0])
        loop.run_until(lambda: runner.thinking)
        assert runner.refusal() is not None and "companion is thinking" in runner.refusal()
        runner.undo()
        assert not runner.thinking and not game.actions()
        assert loop.of(CompanionStopped)
        loop.drain()
        assert not loop.of(CompanionChose)
        runner.close()


def test_draw_offer_answered_by_the_companion() -> None:
    with chess_engine(FakeChessEngine(accepts=True)):
        game = _chess(["black"])
        loop = Loop()
        runner = CompanionRunner(ChessTable(game), post=loop.post, listener=loop.listen)
        game.offer_draw(chess.WHITE)
        loop.run_until(lambda: game.is_over)
        answered = loop.of(CompanionAnswered)
        assert answered and answered[0].words == "Black accepts the draw."  # type: ignore[union-attr]
        runner.close()


def test_resume_keeps_seats_and_hints_used(tmp_path: object) -> None:
    from pathlib import Path

    directory = Path(str(tmp_path))
    with chess_engine():
        journal = Journal.create(directory)
        game = _chess(["black:2"], hints="3", journal=journal)
        loop = Loop()
        runner = CompanionRunner(ChessTable(game), post=loop.post, listener=loop.listen,
                                 hint_playouts=5)
        runner.hint()
        loop.run_until(lambda: game.hints_used["white"] == 1)
        game.flip()
        if game.pending is not None:
            game.play(game.legal_moves()[0])
        runner.close()
        journal.close()
        resumed = resume(journal.path)
        again = ChessTable(resumed.game)
        assert again.settings.seat("black") == Seat("black", True, 2)
        assert again.settings.hints == HintPolicy(3) and again.hints_used("white") == 1
        # The companion goes on with its turn after the resume.
        loop = Loop()
        runner = CompanionRunner(again, post=loop.post, listener=loop.listen)
        runner.update()
        loop.run_until(lambda: resumed.game.turn == chess.WHITE
                       and resumed.game.pending is None)
        runner.close()
        resumed.journal.close()


@pytest.mark.parametrize("name, options", [("dropper", {"size": "4"}),
                                           ("rumbo", {"size": "3"}),
                                           ("raindrops", {"size": "4"}),
                                           ("crumble", {"width": "2", "height": "2"})])
def test_companion_plays_an_abstract_game_to_the_end(name: str,
                                                     options: dict[str, str]) -> None:
    rules = games.get(name)
    start = rules.start(**options)
    names = seat_names(rules, start)
    settings = parse_companions(["both:1"], names, playouts=30)
    session = GameSession(rules, start, table=settings.to_dict())
    loop = Loop()
    runner = CompanionRunner(GamesTable(session), post=loop.post, listener=loop.listen)
    runner.update()
    loop.run_until(lambda: session.is_over, timeout=60)
    assert session.result is not None and session.result.reason
    spoken = [e.words for e in loop.events if hasattr(e, "words")
              and not isinstance(e, CompanionThinking)]
    assert spoken and all(text.endswith(".") for text in spoken)
    if name == "rumbo":
        assert names == ("proposer", "chooser")
        assert spoken[0].startswith("Proposer: names the komi")
    runner.close()


def test_abstract_clock_runs_for_the_companion_and_cuts_its_budget() -> None:
    rules = games.get("dropper")
    now = [0.0]
    session = GameSession(rules, rules.start(size="4"), clock=ClockSettings(base=10.0),
                          now=lambda: now[0],
                          table=parse_companions(["black"], ("white", "black")).to_dict())
    table = GamesTable(session)
    assert table.clock("black") == ClockView(10.0, 0.0)
    session.play(next(iter(rules.turns(session.position))))
    now[0] += 4.0   # Black's clock runs while it thinks
    view = table.clock("black")
    assert view is not None and view.remaining == pytest.approx(6.0)
    assert turn_budget(level(3), clock=view).seconds == pytest.approx(0.3)
