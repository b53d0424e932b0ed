"""The chess clock: increment, simple delay, pause, time forfeit (fake time, no sleeping)."""

from __future__ import annotations

import chess
import pytest
from game_helpers import fixed_decks

from companion import events
from companion.clock import Clock, ClockSettings, ClockSettingsError
from companion.game import Game, GameOverError
from companion.rules import Termination


class FakeTime:
    def __init__(self) -> None:
        self.value = 1000.0

    def __call__(self) -> float:
        return self.value

    def advance(self, seconds: float) -> None:
        self.value += seconds


def test_parse_time_controls() -> None:
    assert ClockSettings.parse("10+5") == ClockSettings(600, increment=5)
    assert ClockSettings.parse("5d3") == ClockSettings(300, delay=3)
    assert ClockSettings.parse("15") == ClockSettings(900)
    assert ClockSettings.parse("0.5+0") == ClockSettings(30)
    for bad in ("", "ten", "10+", "10+x", "-5", "0"):
        with pytest.raises(ClockSettingsError):
            ClockSettings.parse(bad)


def test_increment_is_added_to_the_side_that_finished() -> None:
    now = FakeTime()
    clock = Clock(ClockSettings(60, increment=5), now)
    clock.start(chess.WHITE)
    now.advance(10)
    assert clock.remaining(chess.WHITE) == pytest.approx(50)
    clock.switch(chess.BLACK)
    assert clock.remaining(chess.WHITE) == pytest.approx(55)
    now.advance(3)
    assert clock.remaining(chess.BLACK) == pytest.approx(57)
    assert clock.running == chess.BLACK


def test_simple_delay_spends_nothing_within_the_delay() -> None:
    now = FakeTime()
    clock = Clock(ClockSettings(60, delay=5), now)
    clock.start(chess.WHITE)
    now.advance(4)
    assert clock.remaining(chess.WHITE) == pytest.approx(60)
    now.advance(3)
    assert clock.remaining(chess.WHITE) == pytest.approx(58)
    clock.switch(chess.BLACK)
    assert clock.remaining(chess.WHITE) == pytest.approx(58)  # no delay given back


def test_pause_stops_time() -> None:
    now = FakeTime()
    game = Game(seed=1, clock=ClockSettings(60), now=now)
    assert game.clock is not None
    now.advance(10)
    game.pause()
    assert game.paused
    now.advance(1000)
    game.tick()
    assert not game.is_over
    assert game.clock.remaining(chess.WHITE) == pytest.approx(50)
    game.resume()
    now.advance(5)
    assert game.clock.remaining(chess.WHITE) == pytest.approx(45)


def test_time_forfeit_by_tick_and_by_a_late_action() -> None:
    now = FakeTime()
    game = Game(decks=fixed_decks("K", "k"), clock=ClockSettings(60, increment=1), now=now)
    seen: list[events.GameEvent] = []
    game.subscribe(seen.append)
    game.flip()
    game.play_text("K@e1")
    now.advance(30)
    game.tick()
    assert isinstance(seen[-1], events.ClockTick)
    assert seen[-1].running == chess.BLACK
    assert seen[-1].black_seconds == pytest.approx(30)
    now.advance(31)
    game.tick()
    assert game.outcome is not None
    assert game.outcome.termination == Termination.TIME_FORFEIT
    assert game.outcome.winner == chess.WHITE
    assert events.Flagged(chess.BLACK) in seen
    assert isinstance(seen[-1], events.GameOver)

    late = Game(decks=fixed_decks("K", "k"), clock=ClockSettings(60), now=now)
    now.advance(61)
    with pytest.raises(GameOverError, match="time forfeit"):
        late.flip()
    assert late.outcome is not None and late.outcome.winner == chess.BLACK
    assert late.deck_size(chess.WHITE) == 16


def test_clock_stops_when_the_game_ends() -> None:
    now = FakeTime()
    game = Game(seed=2, clock=ClockSettings(60), now=now)
    game.resign(chess.WHITE)
    assert game.clock is not None and game.clock.running is None
    now.advance(100)
    game.tick()
    assert game.outcome is not None
    assert game.outcome.termination == Termination.RESIGNATION
