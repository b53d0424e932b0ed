"""The companion's searches in a process of their own (ui.search_process): the answer of
the game's engine, its progress relayed, a stop that ends it, an engine error named, and
a table adapter whose engine searches there."""

from __future__ import annotations

import os
import threading
import time

import pytest

from companion import games
from companion.engine.contract import Analysis, Budget, EngineError
from companion.engine.levels import level
from companion.games.session import GameSession
from companion.table.games_table import GamesTable
from companion.table.seats import Seat, TableSettings
from ui import search_process
from ui.search_process import ProcessEngine, ProcessTable


@pytest.fixture(scope="module")
def dropper() -> str:
    rules = games.get("dropper")
    table = GamesTable(GameSession(rules, rules.start(size="5")))
    position: str = table.situation().position
    yield position
    search_process.close_worker()


def test_a_search_in_the_worker_answers_as_the_engine_does(dropper: str) -> None:
    engine = ProcessEngine("dropper", {})
    local = engine._local.analyse(dropper, level=level(1), budget=Budget(playouts=40), seed=3)
    reports: list[object] = []
    answer = engine.analyse(dropper, level=level(1), budget=Budget(playouts=40), seed=3,
                            progress=reports.append)
    assert isinstance(answer, Analysis)
    assert answer.chosen.turn == local.chosen.turn     # the same search, in the worker
    assert search_process.worker() is not None and search_process.worker().alive


def test_a_stop_ends_the_search_in_the_worker(dropper: str) -> None:
    engine = ProcessEngine("dropper", {})
    stop = threading.Event()
    threading.Timer(0.3, stop.set).start()
    started = time.monotonic()
    answer = engine.analyse(dropper, level=level(5), budget=Budget(seconds=30), stop=stop)
    assert time.monotonic() - started < 20    # far less than its 30 s
    assert answer.stopped


def test_an_engine_error_is_named(dropper: str) -> None:
    with pytest.raises(EngineError, match=r"position|dropper|read|parse|not"):
        ProcessEngine("dropper", {}).analyse("not a position", level=level(1),
                                             budget=Budget(playouts=5))


def test_a_table_searches_in_the_worker(dropper: str) -> None:
    rules = games.get("dropper")
    settings = TableSettings((Seat("white"), Seat("black", True, 1)))
    table = ProcessTable(GamesTable(GameSession(rules, rules.start(size="5"),
                                                table=settings.to_dict())))
    assert isinstance(table.engine(), ProcessEngine)
    assert table.settings.is_companion("black") and table.seat_to_move() == "white"


def test_the_worker_searches_at_a_lower_priority_than_the_app(dropper: str) -> None:
    found = search_process.worker()
    assert found is not None
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    theirs = os.getpriority(os.PRIO_PROCESS, found._process.pid)
    assert theirs == min(19, ours + search_process.NICENESS)   # the screen wins the CPU
