"""Work run off the caller's thread: started, watched, stopped at once.

A search (:class:`companion.engine.thinker.Thinking`) and a game's review
(:class:`companion.table.review.Reviewing`) share this shape: the terminal and
the app start one, show its progress, and collect its result when it is done,
or stop it (an undo, a resignation, the app closing), after which the work
returns its best so far within moments. ``on_done`` runs on the work's own
thread; a UI hands it to its own thread (Kivy: ``Clock.schedule_once``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar

LOGGER = logging.getLogger(__name__)

T = TypeVar("T")


class Background(Generic[T]):
    """One piece of work on a daemon thread; a subclass says what in :meth:`_work`,
    which should return soon once :attr:`_stop` is set."""

    busy = "the work is still running"
    """The :class:`TimeoutError`'s words when :meth:`result` runs out of time."""

    def __init__(self, name: str, on_done: Callable[[Any], None] | None) -> None:
        self._on_done = on_done
        self._stop = threading.Event()
        self._done = threading.Event()
        self._value: T | None = None
        self._error: BaseException | None = None
        self._started = 0.0
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def _work(self) -> T:
        raise NotImplementedError

    @property
    def elapsed(self) -> float:
        """Seconds since :meth:`start` (0 before)."""
        return time.monotonic() - self._started if self._started else 0.0

    def _begin(self) -> None:
        self._started = time.monotonic()
        self._thread.start()

    def stop(self) -> None:
        """Ask the work to end now; :meth:`result` then gives its best so far."""
        self._stop.set()

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the work is over; ``False`` if ``timeout`` passed first."""
        return self._done.wait(timeout)

    def result(self, timeout: float | None = None) -> T:
        """The result, waiting up to ``timeout``; re-raises the work's error.

        ``TimeoutError`` if the work is still running after ``timeout``.
        """
        if not self._done.wait(timeout):
            raise TimeoutError(self.busy)
        if self._error is not None:
            raise self._error
        assert self._value is not None
        return self._value

    def _run(self) -> None:
        try:
            self._value = self._work()
        except BaseException as error:  # handed to whoever collects the result
            self._error = error
        finally:
            self._done.set()
            if self._on_done is not None:
                try:
                    self._on_done(self)
                except Exception:  # a listener's bug must not hide the result
                    LOGGER.exception("done listener of %s failed", self._thread.name)
