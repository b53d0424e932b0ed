"""A search run off the caller's thread: started, watched, stopped at once.

The terminal and the app never block on a search. They start a
:class:`Thinking`, show its :attr:`~Thinking.progress` ("thinking... 12,000
playouts"), and collect the :class:`~companion.engine.contract.Analysis`
when it is done, or :meth:`~Thinking.stop` it (an undo, a resignation, the
app closing): the engine then returns its best so far within moments.
Callbacks run on the search's own thread; a UI hands them to its own thread
(Kivy: ``Clock.schedule_once``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from companion.engine.contract import Analysis, Budget, Engine, Progress
from companion.engine.levels import Level

LOGGER = logging.getLogger(__name__)


class Thinking:
    """One search in the background. Start it with :meth:`start` (or :func:`think`)."""

    def __init__(self, engine: Engine, position: str, *, level: Level, budget: Budget,
                 seed: int = 0, on_progress: Callable[[Progress], None] | None = None,
                 on_done: Callable[[Thinking], None] | None = None) -> None:
        self._engine = engine
        self._position = position
        self._level = level
        self._budget = budget
        self._seed = seed
        self._on_progress = on_progress
        self._on_done = on_done
        self._stop = threading.Event()
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._progress: Progress | None = None
        self._analysis: Analysis | None = None
        self._error: BaseException | None = None
        self._started = 0.0
        self._thread = threading.Thread(target=self._run, name="engine-search", daemon=True)

    @property
    def position(self) -> str:
        return self._position

    @property
    def progress(self) -> Progress | None:
        """The latest progress the engine reported, or ``None`` before the first."""
        with self._lock:
            return self._progress

    @property
    def elapsed(self) -> float:
        """Seconds since :meth:`start` (0 before)."""
        return time.monotonic() - self._started if self._started else 0.0

    def start(self) -> Thinking:
        self._started = time.monotonic()
        self._thread.start()
        return self

    def stop(self) -> None:
        """Ask the search to end now; :meth:`result` then gives its best so far."""
        self._stop.set()

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the search is over; ``False`` if ``timeout`` passed first."""
        return self._done.wait(timeout)

    def result(self, timeout: float | None = None) -> Analysis:
        """The analysis, waiting up to ``timeout``; re-raises the engine's error.

        ``TimeoutError`` if the search is still running after ``timeout``.
        """
        if not self._done.wait(timeout):
            raise TimeoutError("the engine is still thinking")
        if self._error is not None:
            raise self._error
        assert self._analysis is not None
        return self._analysis

    def _report(self, progress: Progress) -> None:
        with self._lock:
            self._progress = progress
        if self._on_progress is not None:
            try:
                self._on_progress(progress)
            except Exception:  # a listener's bug must not kill the search
                LOGGER.exception("progress listener failed")

    def _run(self) -> None:
        try:
            self._analysis = self._engine.analyse(
                self._position, level=self._level, budget=self._budget, seed=self._seed,
                stop=self._stop, progress=self._report)
        except BaseException as error:  # handed to whoever collects the result
            self._error = error
        finally:
            self._done.set()
            if self._on_done is not None:
                try:
                    self._on_done(self)
                except Exception:
                    LOGGER.exception("done listener failed")


def think(engine: Engine, position: str, *, level: Level, budget: Budget | None = None,
          seed: int = 0, on_progress: Callable[[Progress], None] | None = None,
          on_done: Callable[[Thinking], None] | None = None) -> Thinking:
    """Start a search in the background and return its handle."""
    return Thinking(engine, position, level=level, budget=budget or Budget.for_level(level),
                    seed=seed, on_progress=on_progress, on_done=on_done).start()
