"""Helpers for the companion's table tests: a front end's loop, and a fake Raindropchess
engine (the real one plays through the same contract)."""

from __future__ import annotations

import io
import queue
import random
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

import chess
import pytest

from companion.cli import main
from companion.engine import registry
from companion.engine.contract import Analysis, Budget, Candidate, Progress, ProgressCallback
from companion.engine.levels import Level
from companion.rules import HouseRules, RaindropBoard
from companion.table.events import CompanionEvent


def run_main(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str = ""
             ) -> tuple[int, str]:
    """``raindrop ARGV`` in this process with ``stdin`` typed: (exit code, all it printed)."""
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(list(argv))
    finally:
        sys.stdin = old
    captured = capsys.readouterr()
    return code, captured.out + captured.err


class Loop:
    """The front end's thread, in a test: posted calls run when :meth:`run_until` runs."""

    def __init__(self) -> None:
        self.calls: queue.Queue[Callable[[], None]] = queue.Queue()
        self.events: list[CompanionEvent] = []

    def post(self, call: Callable[[], None]) -> None:
        self.calls.put(call)

    def listen(self, event: CompanionEvent) -> None:
        self.events.append(event)

    def run_until(self, done: Callable[[], bool], timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("the loop did not get there in time")
            try:
                call = self.calls.get(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            call()

    def drain(self) -> None:
        """Run every call posted so far."""
        while True:
            try:
                call = self.calls.get_nowait()
            except queue.Empty:
                return
            call()

    def of(self, kind: type) -> list[CompanionEvent]:
        return [event for event in self.events if isinstance(event, kind)]


def legal_turns(board: RaindropBoard) -> list[str]:
    """Every legal turn text, as the engine writes them."""
    pending = board.pending
    if pending is not None and pending.upper() == "J":
        return [f"Jx{chess.square_name(s)}" for s in board.legal_removals()]
    turns = [move.uci() for move in board.legal_moves]
    if pending is None and board.can_flip():
        turns.append("flip")
    return turns


class FakeChessEngine:
    """Plays a seeded random legal turn (flipping while it may, as a beginner does), and
    answers draws as told; ``gate``: the search waits for it (or a stop)."""

    def __init__(self, rules: HouseRules | None = None, *, accepts: bool = False,
                 gate: threading.Event | None = None) -> None:
        self.rules = rules
        self.accepts = accepts
        self.gate = gate
        self.positions: list[str] = []
        self.budgets: list[Budget] = []

    def analyse(self, position: str, *, level: Level, budget: Budget, seed: int = 0,
                stop: threading.Event | None = None,
                progress: ProgressCallback | None = None) -> Analysis:
        self.positions.append(position)
        self.budgets.append(budget)
        if self.gate is not None:
            while not self.gate.is_set() and not (stop is not None and stop.is_set()):
                time.sleep(0.005)
        board = RaindropBoard(position, rules=self.rules)
        turns = legal_turns(board)
        rng = random.Random(seed)
        flip = "flip" in turns and rng.random() < 0.6
        chosen = "flip" if flip else rng.choice(turns)
        others = [t for t in turns if t != chosen][:2]
        candidates = tuple(Candidate(t, 0.5 - 0.1 * i, 10, None)
                           for i, t in enumerate([chosen, *others]))
        if progress is not None:
            progress(Progress(10, 0.0, candidates[0]))
        mover = chess.COLOR_NAMES[board.turn]
        return Analysis(position, mover, candidates[0], candidates, 10, 0.0, level.number,
                        stopped=bool(stop is not None and stop.is_set()),
                        notes={"opponent": chess.COLOR_NAMES[not board.turn]})

    def accepts_draw(self, position: str, *, level: Level, seed: int = 0) -> bool:
        return self.accepts


@contextmanager
def chess_engine(engine: FakeChessEngine | None = None) -> Iterator[FakeChessEngine]:
    """Register a fake Raindropchess engine for the block."""
    fake = engine or FakeChessEngine()

    def factory(game: str, options: Mapping[str, str]) -> FakeChessEngine:
        if options:
            fake.rules = HouseRules.parse(",".join(f"{k}={v}" for k, v in options.items()))
        return fake

    registry.register("raindropchess", factory)
    try:
        yield fake
    finally:
        registry.unregister("raindropchess")


class ScriptedChessEngine(FakeChessEngine):
    """Plays the given turns in order (each must be legal when its turn comes)."""

    def __init__(self, turns: list[str], rules: HouseRules | None = None) -> None:
        super().__init__(rules)
        self.turns = list(turns)

    def analyse(self, position: str, *, level: Level, budget: Budget, seed: int = 0,
                stop: threading.Event | None = None,
                progress: ProgressCallback | None = None) -> Analysis:
        board = RaindropBoard(position, rules=self.rules)
        turn = self.turns.pop(0)
        assert turn in legal_turns(board), (turn, legal_turns(board))
        chosen = Candidate(turn, 0.5, 1, None)
        return Analysis(position, chess.COLOR_NAMES[board.turn], chosen, (chosen,), 1, 0.0,
                        level.number, notes={"opponent": chess.COLOR_NAMES[not board.turn]})
