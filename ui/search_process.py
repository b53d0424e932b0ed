"""The companion's searches in a process of their own, so that the screen keeps drawing.

The engines are pure Python: searching on a thread of the app's process, they hold the
interpreter most of the time and the UI thread's frames wait for it (hundreds of
milliseconds on a loaded machine). :class:`ProcessEngine` has the same face as an engine
(:class:`companion.engine.contract.Engine`: ``analyse``, ``accepts_draw``, and ``claim``
and ``offers_draw`` where the game's engine has them) but sends each call to a worker
process (:class:`SearchWorker`, started once, on first use) and waits for the answer on
the caller's thread (the runner's), relaying the search's progress and its stop.
:class:`ProcessTable` gives a table adapter such an engine. No Kivy here.

Where no worker can be started (a platform without processes), the call runs on the
caller's thread as before, and the reason is logged once.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import queue
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from companion.engine.contract import EngineError, Progress
from companion.engine.registry import engine_for_game

LOGGER = logging.getLogger(__name__)

POLL = 0.02
"""Seconds between two looks at the answer queue (and at the stop)."""
PROGRESS_EVERY = 0.25
"""Seconds between two progress reports sent from the worker."""
START_TIMEOUT = 60.0
NICENESS = 10
"""How much lower the worker's priority is than the app's: the screen (its drawing, and
with software GL its rasterising threads) wins a busy CPU and the search gets the rest."""


def _lower_priority(niceness: int) -> None:
    """Lower this process's priority by ``niceness`` where the platform allows it."""
    try:
        os.nice(niceness)
    except (AttributeError, OSError) as error:   # no os.nice (Windows) or not allowed
        LOGGER.info("the search process keeps the app's priority (%s)", error)


def _serve(requests: Any, answers: Any, stop: Any, niceness: int) -> None:
    """The worker process: answer each request, one at a time, until ``None`` comes."""
    _lower_priority(niceness)
    engines: dict[tuple[str, tuple[tuple[str, str], ...]], Any] = {}
    answers.put(("ready", 0, None))
    while True:
        request = requests.get()
        if request is None:
            return
        job, game, options, method, args, kwargs = request
        last = [0.0]

        def progress(report: Progress, job: int = job, last: list[float] = last) -> None:
            now = time.monotonic()
            if now - last[0] >= PROGRESS_EVERY:
                last[0] = now
                answers.put(("progress", job, report))

        try:
            key = (game, tuple(sorted(options.items())))
            engine = engines.get(key)
            if engine is None:
                engine = engines[key] = engine_for_game(game, options)
            if method == "analyse":
                kwargs = dict(kwargs, stop=_EventView(stop), progress=progress)
            result = getattr(engine, method)(*args, **kwargs)
        except Exception as error:  # handed back to the caller as an EngineError
            answers.put(("error", job, f"{type(error).__name__}: {error}"))
        else:
            answers.put(("done", job, result))


class _EventView:
    """A process-shared event seen as the ``threading.Event`` the engines check."""

    def __init__(self, event: Any) -> None:
        self._event = event

    def is_set(self) -> bool:
        return bool(self._event.is_set())

    def wait(self, timeout: float | None = None) -> bool:
        return bool(self._event.wait(timeout))


class SearchWorker:
    """One worker process answering engine calls in order (see the module's text)."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self._requests = context.Queue()
        self._answers = context.Queue()
        self._stop = context.Event()
        self._process = context.Process(target=_serve, args=(self._requests, self._answers,
                                                             self._stop, NICENESS),
                                        name="companion-search", daemon=True)
        self._lock = threading.Lock()
        self._jobs = 0
        self._process.start()
        kind, _job, _ = self._answers.get(timeout=START_TIMEOUT)
        if kind != "ready":
            raise EngineError("the search process did not start")

    @property
    def alive(self) -> bool:
        return self._process.is_alive()

    def call(self, game: str, options: Mapping[str, str], method: str, args: tuple[Any, ...],
             kwargs: dict[str, Any], *, stop: threading.Event | None = None,
             progress: Callable[[Progress], None] | None = None) -> Any:
        """``engine.method(*args, **kwargs)`` in the worker; ``stop`` stops it there."""
        with self._lock:   # one call at a time: a stopped search ends before the next
            self._jobs += 1
            job = self._jobs
            self._stop.clear()
            self._requests.put((job, game, dict(options), method, args, kwargs))
            while True:
                if stop is not None and stop.is_set():
                    self._stop.set()
                try:
                    kind, answered, value = self._answers.get(timeout=POLL)
                except queue.Empty:
                    if not self._process.is_alive():
                        raise EngineError("the search process stopped") from None
                    continue
                if answered != job:
                    continue   # an answer left over from a call given up on
                if kind == "progress":
                    if progress is not None:
                        progress(value)
                    continue
                if kind == "error":
                    raise EngineError(str(value))
                return value

    def close(self) -> None:
        try:
            self._stop.set()
            self._requests.put(None)
            self._process.join(timeout=2)
        finally:
            if self._process.is_alive():
                self._process.terminate()


_worker: SearchWorker | None = None
_worker_lock = threading.Lock()
_unavailable = ""


def worker() -> SearchWorker | None:
    """The app's worker, started on first use; None where processes cannot be had."""
    global _worker, _unavailable
    with _worker_lock:
        if _worker is not None and _worker.alive:
            return _worker
        if _unavailable:
            return None
        try:
            _worker = SearchWorker()
        except (OSError, EngineError, queue.Empty, RuntimeError) as error:
            _unavailable = str(error) or type(error).__name__
            LOGGER.warning("searching on a thread: no search process (%s)", _unavailable)
            return None
        return _worker


def start_worker() -> None:
    """Start the worker on a thread of its own (a process takes a second or two to start:
    better while the person plays the first turn than in the companion's first search)."""
    threading.Thread(target=worker, name="companion-search-start", daemon=True).start()


def close_worker() -> None:
    global _worker
    with _worker_lock:
        if _worker is not None:
            _worker.close()
            _worker = None


class ProcessEngine:
    """An engine for ``game`` whose calls run in the search worker (see the module)."""

    def __init__(self, game: str, options: Mapping[str, str]) -> None:
        self.game = game
        self.options = dict(options)
        local = engine_for_game(game, self.options)   # EngineError where none plays it
        self._local = local
        for name in ("claim", "offers_draw"):   # offered where the game's engine has them
            if hasattr(local, name):
                setattr(self, name, self._method(name))

    def _method(self, name: str) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            return self._call(name, args, kwargs)
        return call

    def _call(self, method: str, args: tuple[Any, ...], kwargs: dict[str, Any], *,
              stop: threading.Event | None = None,
              progress: Callable[[Progress], None] | None = None) -> Any:
        found = worker()
        if found is None:
            if method == "analyse":
                kwargs = dict(kwargs, stop=stop, progress=progress)
            return getattr(self._local, method)(*args, **kwargs)
        return found.call(self.game, self.options, method, args, kwargs, stop=stop,
                          progress=progress)

    def analyse(self, position: str, *, stop: threading.Event | None = None,
                progress: Callable[[Progress], None] | None = None, **kwargs: Any) -> Any:
        return self._call("analyse", (position,), kwargs, stop=stop, progress=progress)

    def accepts_draw(self, position: str, **kwargs: Any) -> bool:
        return bool(self._call("accepts_draw", (position,), kwargs))


class ProcessTable:
    """A table adapter (:class:`~companion.table.tables.TableGame`) whose engine searches
    in the worker process; everything else is the adapter's own."""

    def __init__(self, table: Any) -> None:
        self._table = table

    def engine(self) -> ProcessEngine:
        return ProcessEngine(self._table.game, self._table.engine_options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._table, name)
