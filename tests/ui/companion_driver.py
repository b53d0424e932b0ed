"""Playing against the companion on the headless app, for the tests: a fake Raindropchess
engine (scripted for the companion's side, any legal turn for hints and reviews), and
waiting for the companion's turn to come back."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import chess

TABLE_TESTS = Path(__file__).resolve().parents[1] / "companion" / "table"
if str(TABLE_TESTS) not in sys.path:
    sys.path.insert(0, str(TABLE_TESTS))

from table_helpers import FakeChessEngine, chess_engine, legal_turns  # noqa: E402

from companion.engine.contract import Analysis, Candidate  # noqa: E402
from companion.rules import RaindropBoard  # noqa: E402

__all__ = ["PHONE", "SIZES", "TABLET", "SidedChessEngine", "chess_engine", "size_id",
           "touches_on_screen", "unthrottled_frames", "wait_companion", "wait_for"]

PATIENCE = 30.0  # seconds the companion (or a review) may take on a loaded machine


class SidedChessEngine(FakeChessEngine):
    """Plays ``script`` for ``side`` in order (each turn must be legal when it comes); any
    other position (a hint for the person, a review) gets a seeded legal turn. ``gate``:
    the scripted searches wait for it (or a stop), as a long search would."""

    def __init__(self, script: list[str], side: chess.Color = chess.BLACK, *,
                 gate: threading.Event | None = None) -> None:
        super().__init__()
        self.script = list(script)
        self.side = side
        self.scripted_gate = gate

    def analyse(self, position: str, *, level: Any, budget: Any, seed: int = 0,
                stop: threading.Event | None = None, progress: Any = None) -> Analysis:
        board = RaindropBoard(position, rules=self.rules)
        if board.turn != self.side or not self.script or threading.current_thread().name \
                == "review":
            turns = [turn for turn in legal_turns(board) if turn != "flip"]
            if threading.current_thread().name == "review" or not turns:
                return super().analyse(position, level=level, budget=budget, seed=seed,
                                       stop=stop, progress=progress)
            candidates = tuple(Candidate(turn, 0.6 - 0.1 * index, 10, None)
                               for index, turn in enumerate(turns[:3]))
            return Analysis(position, chess.COLOR_NAMES[board.turn], candidates[0],
                            candidates, 10, 0.0, level.number,
                            notes={"opponent": chess.COLOR_NAMES[not board.turn]})
        gate = self.scripted_gate
        while gate is not None and not gate.is_set() and not (stop is not None
                                                                and stop.is_set()):
            time.sleep(0.005)
        turn = self.script.pop(0)
        chosen = Candidate(turn, 0.4, 1, None)
        return Analysis(position, chess.COLOR_NAMES[board.turn], chosen, (chosen,), 1, 0.0,
                        level.number, stopped=bool(stop is not None and stop.is_set()),
                        notes={"opponent": chess.COLOR_NAMES[not board.turn]})


def wait_for(driver: Any, done: Callable[[], bool], what: str,
             patience: float = PATIENCE) -> None:
    """Let frames pass until ``done()`` (at most ``patience`` seconds of real time)."""
    deadline = time.monotonic() + patience
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {patience:g} s for {what}")
        time.sleep(0.005)
        driver.pump(1)
    driver.pump(2)


def wait_companion(driver: Any, link: Any, over: Callable[[], bool]) -> None:
    """Let frames pass until a person is to act (or the game is over)."""
    wait_for(driver, lambda: over() or (not link.thinking and link.runner.persons_turn()),
             "the companion's turn")


PHONE = (412, 800)
TABLET = (1280, 800)
SIZES = [PHONE, TABLET]
"""The window sizes the whole games against the companion are played at: a phone held
upright and a tablet on its side."""


def size_id(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


def touches_on_screen(monkeypatch: Any) -> None:
    """Every simulated touch from now on must land inside the window (a widget laid out
    off-screen would otherwise still take a tap no finger could make)."""
    from kivy.core.window import Window

    from ui import touch

    tap_at = touch.tap_at

    def on_screen(x: float, y: float) -> None:
        assert 0 <= x < Window.width and 0 <= y < Window.height, \
            f"a touch at ({x:.0f}, {y:.0f}) is off the {Window.width}x{Window.height} window"
        tap_at(x, y)

    monkeypatch.setattr(touch, "tap_at", on_screen)


@contextmanager
def unthrottled_frames() -> Iterator[None]:
    """Frames as fast as they come: Kivy's clock sleeps out the rest of each 60th of a
    second (half these tests' time); the tests wait for what they need by real time
    (``wait_for``, a list's tap), not by counting frames."""
    from kivy.clock import Clock

    limit = Clock._max_fps
    Clock._max_fps = 0.0
    try:
        yield
    finally:
        Clock._max_fps = limit
