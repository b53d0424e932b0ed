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
from collections.abc import Callable

from companion.engine.background import Background
from companion.engine.contract import Analysis, Budget, Engine, Progress
from companion.engine.levels import Level

LOGGER = logging.getLogger(__name__)


class Thinking(Background[Analysis]):
    """One search in the background. Start it with :meth:`start` (or :func:`think`)."""

    busy = "the engine is still thinking"

    def __init__(self, engine: Engine, position: str, *, level: Level, budget: Budget,
                 seed: int = 0, on_progress: Callable[[Progress], None] | None = None,
                 on_done: Callable[[Thinking], None] | None = None) -> None:
        super().__init__("engine-search", on_done)
        self._engine = engine
        self._position = position
        self._level = level
        self._budget = budget
        self._seed = seed
        self._on_progress = on_progress
        self._lock = threading.Lock()
        self._progress: Progress | None = None

    @property
    def position(self) -> str:
        return self._position

    @property
    def progress(self) -> Progress | None:
        """The latest progress the engine reported, or ``None`` before the first."""
        with self._lock:
            return self._progress

    def start(self) -> Thinking:
        self._begin()
        return self

    def _report(self, progress: Progress) -> None:
        with self._lock:
            self._progress = progress
        if self._on_progress is not None:
            try:
                self._on_progress(progress)
            except Exception:  # a listener's bug must not kill the search
                LOGGER.exception("progress listener failed")

    def _work(self) -> Analysis:
        return self._engine.analyse(
            self._position, level=self._level, budget=self._budget, seed=self._seed,
            stop=self._stop, progress=self._report)


def think(engine: Engine, position: str, *, level: Level, budget: Budget | None = None,
          seed: int = 0, on_progress: Callable[[Progress], None] | None = None,
          on_done: Callable[[Thinking], None] | None = None) -> Thinking:
    """Start a search in the background and return its handle."""
    return Thinking(engine, position, level=level, budget=budget or Budget.for_level(level),
                    seed=seed, on_progress=on_progress, on_done=on_done).start()
