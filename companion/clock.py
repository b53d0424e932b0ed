"""A chess clock: base time plus a Fischer increment or a simple (US) delay.

Time is read from an injectable ``now`` function (seconds, monotonic), so
tests and replays never sleep. The clock knows nothing of the rules: the
game tells it whose turn it is (:meth:`Clock.switch`), pauses it and reads
whether a side's time ran out (:meth:`Clock.flagged`).

Delay is the simple ("US") delay: at the start of each turn the mover's time
stands still for ``delay`` seconds, and unused delay is not added back (unlike
Bronstein). An increment is added to the side that finishes a turn.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Callable
from typing import Any

import chess

from companion.limits import LimitError, check_finite, parse_decimal

LOGGER = logging.getLogger(__name__)


class ClockSettingsError(ValueError):
    """A time control the clock cannot run (e.g. ``--clock 10+x``)."""


_SPEC = re.compile(r"^\s*([0-9.]+)\s*(?:([+d])\s*([0-9.]+))?\s*$")

MAX_BASE = 100 * 3600.0
"""The longest base time (100 hours each)."""
MAX_EXTRA = 3600.0
"""The longest increment or delay (an hour a turn)."""
MAX_LEFT = 1e7
"""The most time a side may have left, increments included (about 115 days)."""


@dataclasses.dataclass(frozen=True)
class ClockSettings:
    """A time control: ``base`` seconds each, plus ``increment`` or ``delay`` per turn."""

    base: float
    increment: float = 0.0
    delay: float = 0.0

    def __post_init__(self) -> None:
        if not 0 < self.base <= MAX_BASE:  # NaN fails too
            raise ClockSettingsError(f"the base time must be more than 0 seconds and at most "
                                     f"{MAX_BASE:g} ({MAX_BASE / 3600:g} hours), not "
                                     f"{self.base!r}")
        if not (0 <= self.increment <= MAX_EXTRA and 0 <= self.delay <= MAX_EXTRA):
            raise ClockSettingsError(f"increment and delay must be from 0 to {MAX_EXTRA:g} "
                                     f"seconds, not {self.increment!r} and {self.delay!r}")
        if self.increment and self.delay:
            raise ClockSettingsError("choose an increment or a delay, not both")

    @classmethod
    def parse(cls, text: str) -> ClockSettings:
        """``"10+5"``: 10 minutes and a 5 s increment; ``"5d3"``: 5 minutes, 3 s delay;
        ``"15"``: 15 minutes, nothing added."""
        match = _SPEC.match(text)
        if not match:
            raise ClockSettingsError(
                f"cannot read the time control {text[:40]!r}: write MINUTES+SECONDS (increment, "
                f"e.g. 10+5), MINUTESdSECONDS (delay, e.g. 5d3) or MINUTES")
        minutes, kind, seconds = match.groups()
        try:
            base = parse_decimal(minutes, "the number of minutes", high=MAX_BASE / 60, digits=6)
            extra = parse_decimal(seconds, "the number of seconds", high=MAX_EXTRA,
                                  digits=6) if seconds else 0.0
        except LimitError as error:
            raise ClockSettingsError(f"the time control {text[:40]!r}: {error}") from None
        return cls(base=base * 60,
                   increment=extra if kind == "+" else 0.0,
                   delay=extra if kind == "d" else 0.0)

    def describe(self) -> str:
        text = f"{self.base / 60:g} min"
        if self.increment:
            text += f" + {self.increment:g} s increment"
        if self.delay:
            text += f", {self.delay:g} s delay"
        return text

    def to_dict(self) -> dict[str, float]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Any) -> ClockSettings:
        """Settings written by :meth:`to_dict` (a journal's header); numbers only."""
        try:
            return cls(base=check_finite(data["base"], "base", high=MAX_BASE),
                       increment=check_finite(data.get("increment", 0), "increment",
                                              high=MAX_EXTRA),
                       delay=check_finite(data.get("delay", 0), "delay", high=MAX_EXTRA))
        except (KeyError, TypeError, AttributeError, ValueError) as error:
            raise ClockSettingsError(f"bad clock settings {str(data)[:100]}: {error}") from None


class Clock:
    """Two countdowns, at most one running at a time."""

    def __init__(self, settings: ClockSettings, now: Callable[[], float]) -> None:
        self.settings = settings
        self._now = now
        # Remaining seconds per colour (indexed by chess.Color) at ``_since``.
        self._left = [settings.base, settings.base]
        self._running: chess.Color | None = None
        self._since = now()
        self._paused = False
        self._turn: chess.Color = chess.WHITE

    # ------------------------------------------------------------------
    # Reading

    def _used(self, color: chess.Color) -> float:
        if self._running != color:
            return 0.0
        elapsed = max(0.0, self._now() - self._since)
        return max(0.0, elapsed - self.settings.delay)

    def remaining(self, color: chess.Color) -> float:
        """Seconds left for ``color`` (never below 0)."""
        return max(0.0, self._left[color] - self._used(color))

    @property
    def running(self) -> chess.Color | None:
        """Whose time runs now (``None`` when stopped or paused)."""
        return self._running

    @property
    def paused(self) -> bool:
        return self._paused

    def flagged(self) -> chess.Color | None:
        """The side whose time has run out, if any."""
        if self._running is not None and self.remaining(self._running) <= 0:
            return self._running
        for color in chess.COLORS:
            if self._left[color] <= 0:
                return color
        return None

    # ------------------------------------------------------------------
    # Driving

    def _settle(self) -> None:
        if self._running is not None:
            self._left[self._running] = self.remaining(self._running)
        self._since = self._now()

    def start(self, color: chess.Color) -> None:
        """Run ``color``'s time (a new turn for it, so its delay applies)."""
        self._settle()
        self._turn = color
        self._running = None if self._paused else color

    def switch(self, to_color: chess.Color, *, increment: bool = True) -> None:
        """End the running side's turn (adding the increment) and start ``to_color``."""
        finished = self._turn
        self._settle()
        if increment and finished != to_color and self._left[finished] > 0:
            self._left[finished] += self.settings.increment
        self.start(to_color)

    def stop(self) -> None:
        """Stop both clocks for good (the game is over)."""
        self._settle()
        self._running = None

    def pause(self) -> None:
        self._settle()
        self._paused = True
        self._running = None

    def resume(self) -> None:
        self._paused = False
        self.start(self._turn)

    # ------------------------------------------------------------------
    # Saving

    def state(self) -> dict[str, Any]:
        """Remaining times and whose turn it is, for the journal."""
        return {"white": round(self.remaining(chess.WHITE), 3),
                "black": round(self.remaining(chess.BLACK), 3),
                "turn": "white" if self._turn == chess.WHITE else "black",
                "paused": self._paused}

    def restore(self, state: dict[str, Any], *, running: bool = True) -> None:
        """Set the clock from :meth:`state` (resuming a journal)."""
        try:
            left = [check_finite(state["black"], "black's time", high=MAX_LEFT),
                    check_finite(state["white"], "white's time", high=MAX_LEFT)]
            if state["turn"] not in ("white", "black"):
                raise ValueError(f"the turn must be white or black, not {state['turn']!r:.20}")
            paused = state.get("paused", False)
            if not isinstance(paused, bool):
                raise ValueError(f"paused must be true or false, not {paused!r:.20}")
        except (KeyError, TypeError, AttributeError, ValueError) as error:
            raise ClockSettingsError(f"bad clock state {str(state)[:100]}: {error}") from None
        self._left = left
        self._turn = state["turn"] == "white"
        self._paused = paused
        self._since = self._now()
        self._running = self._turn if running and not self._paused else None

    def __repr__(self) -> str:
        return (f"Clock(white={self.remaining(chess.WHITE):.1f}s, "
                f"black={self.remaining(chess.BLACK):.1f}s, running={self._running})")
