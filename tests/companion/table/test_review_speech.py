"""The review after a game (marks, the better turn, the graph, off the caller's thread)
and speech (the sentences spoken are the ones shown; speaking never blocks)."""

from __future__ import annotations

import threading

import pytest
from table_helpers import Loop, chess_engine

from companion import games
from companion.engine.contract import Analysis, Budget, Candidate
from companion.engine.levels import Level
from companion.game import Game
from companion.games.session import GameSession
from companion.table.chess_table import ChessTable
from companion.table.events import CompanionChose
from companion.table.games_table import GamesTable
from companion.table.review import (
    GOOD,
    Ply,
    Review,
    ReviewError,
    Reviewing,
    Timeline,
    mark_of,
    review,
    timeline_of_game,
    timeline_of_session,
)
from companion.table.runner import CompanionRunner
from companion.table.seats import parse_companions
from companion.table.speech import FakeSpeaker, NullSpeaker, SpeechQueue


def test_marks_by_chance_lost() -> None:
    assert [mark_of(x) for x in (0.0, 0.049, 0.05, 0.1, 0.199, 0.2, 0.9)] == [
        GOOD, GOOD, "inaccuracy", "mistake", "mistake", "blunder", "blunder"]


def _dropper_game(turns: list[str] | None = None) -> GameSession:
    rules = games.get("dropper")
    session = GameSession(rules, rules.start(size="4"))
    loop = Loop()
    session.table = parse_companions(["both:1"], ("white", "black"), playouts=30).to_dict()
    runner = CompanionRunner(GamesTable(session), post=loop.post)
    runner.update()
    loop.run_until(lambda: session.is_over, timeout=60)
    runner.close()
    return session


def test_review_of_an_abstract_game() -> None:
    session = _dropper_game()
    timeline = timeline_of_session(session)
    assert len(timeline.plies) == len(session.turns) and timeline.final is not None
    seen: list[tuple[int, int]] = []
    result = review(timeline, budget=Budget(playouts=60), progress=lambda d, t: seen.append(
        (d, t)))
    assert isinstance(result, Review) and result.complete
    assert len(result.turns) == len(session.turns)
    assert len(result.graph) == len(session.turns) + 1
    assert seen[-1] == (len(session.turns) + 1, len(session.turns) + 1)
    winner = session.result.winner if session.result else None
    assert result.graph[-1] == (1.0 if winner == "white" else 0.0 if winner else 0.5)
    for turn in result.turns:
        assert turn.lost >= 0 and turn.mark == mark_of(turn.lost)
        assert (turn.better is None) == (turn.mark == GOOD or turn.better is None)
    lines = result.lines()
    assert lines[0].startswith("Review of Dropper") and "White:" in lines[1]
    assert result.result.startswith("Game over: ")


class _Scripted:
    """An engine whose values are given per position (the review's arithmetic, exactly)."""

    def __init__(self, values: dict[str, tuple[str, list[tuple[str, float]]]]) -> None:
        self.values = values

    def analyse(self, position: str, *, level: Level, budget: Budget, seed: int = 0,
                stop: threading.Event | None = None, progress: object = None) -> Analysis:
        mover, ranked = self.values[position]
        candidates = tuple(Candidate(turn, value, 1, None) for turn, value in ranked)
        return Analysis(position, mover, candidates[0], candidates, 1, 0.0, level.number,
                        notes={"opponent": "black" if mover == "white" else "white"})

    def accepts_draw(self, position: str, *, level: Level, seed: int = 0) -> bool:
        return False


def test_marks_the_chance_given_away_and_the_better_turn() -> None:
    plies = (Ply("white", "a1", "p0", "p1", "a1"),       # the best: good
             Ply("black", "b2", "p1", "p2", "b2"),       # not ranked: 0.6 -> 0.25, a blunder
             Ply("white", "flip", "p2", "p3", "flip", chance=True))  # ranked lowest: bound
    engine = _Scripted({
        "p0": ("white", [("a1", 0.55), ("a2", 0.5)]),
        "p1": ("black", [("b1", 0.6), ("b3", 0.58)]),
        "p2": ("white", [("c1", 0.75), ("c2", 0.7)]),   # Black is at 0.25 after b2
        "p3": ("black", [("d1", 0.4)]),
    })
    timeline = Timeline("toy", ("white", "black"), plies, None)
    result = review(timeline, budget=Budget(playouts=1), engine=engine)  # type: ignore[arg-type]
    first, second, third = result.turns
    assert (first.mark, first.lost, first.better) == (GOOD, pytest.approx(0.0), None)
    assert second.best == pytest.approx(0.6) and second.played == pytest.approx(0.25)
    assert second.mark == "blunder" and second.better == "b1"
    assert third.approximate and third.played == pytest.approx(0.7)
    assert third.mark == "inaccuracy" and third.better == "c1"
    assert result.graph == pytest.approx((0.55, 0.4, 0.75, 0.6))
    assert "A blunder: 35% given away; better: b1." in second.sentence()
    assert "at least 5% given away" in third.sentence()


def test_review_of_raindropchess_and_its_flips() -> None:
    with chess_engine():
        game = Game(seed=9, table=parse_companions(["both:1"], ("white", "black")).to_dict())
        loop = Loop()
        runner = CompanionRunner(ChessTable(game), post=loop.post, listener=loop.listen)
        runner.update()
        loop.run_until(lambda: len(game.actions()) >= 12)
        runner.close()
        timeline = timeline_of_game(game)
        assert [p.turn for p in timeline.plies] == [
            e.turn for e in loop.of(CompanionChose)][:len(timeline.plies)]  # type: ignore[union-attr]
        assert all(p.chance == (p.turn == "flip") for p in timeline.plies)
        result = review(timeline, budget=Budget(playouts=5))
        assert len(result.turns) == len(timeline.plies)


def test_reviewing_off_thread_stops() -> None:
    session = _dropper_game()
    gate = threading.Event()
    done: list[Reviewing] = []
    job = Reviewing(timeline_of_session(session), budget=Budget(playouts=40),
                    on_progress=lambda d, t: gate.set(), on_done=done.append).start()
    assert gate.wait(30)
    job.stop()
    assert job.wait(30) and done == [job]
    result = job.result()
    assert len(result.turns) <= len(session.turns)
    with pytest.raises(ReviewError):
        review(timeline_of_session(GameSession(games.get("dropper"),
                                               games.get("dropper").start(size="4"))))


def test_speech_queue_speaks_in_order_without_blocking() -> None:
    fake = FakeSpeaker()
    slow = threading.Event()

    class Slow:
        def say(self, text: str) -> None:
            slow.wait(5)
            fake.say(text)

    speech = SpeechQueue(Slow())
    for text in ("White flips: a knight.", "White: place the knight on e4."):
        speech.say(text)
    # Nobody waits for the voice: both sentences were handed over while the voice is
    # still held on the first (a blocking say would have let it through first).
    assert fake.said == [] and not slow.is_set()
    slow.set()
    speech.close(wait=5)
    assert fake.said == ["White flips: a knight.", "White: place the knight on e4."]
    silent = NullSpeaker("no voice: pyttsx3 is not installed")
    silent.say("anything")
    assert silent.reason.startswith("no voice")


def test_mark_names_are_counted_in_plain_english() -> None:
    from companion.table.review import plural_mark

    assert [plural_mark(name, 2) for name in ("good", "inaccuracy", "mistake", "blunder")] \
        == ["good", "inaccuracies", "mistakes", "blunders"]
    assert plural_mark("inaccuracy", 1) == "inaccuracy"
