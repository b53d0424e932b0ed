"""The companion's time for one turn: its level's cap, cut when its clock is short.

The rule (documented in docs/play.md): without a clock the companion thinks its level's
time (level 3: 2 s). With a clock it thinks at most ``remaining / 20 + increment`` (a
Fischer increment, or a simple delay, is time it gets back), never more than half of
what is left, and never less than :data:`FLOOR_SECONDS`; its level's cap is the most it
ever thinks. A seat with a fixed playout budget keeps it (and, with a clock, the time
limit too: whichever ends first).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from companion.engine.contract import Budget
from companion.engine.levels import Level

LOGGER = logging.getLogger(__name__)

MOVES_TO_GO = 20
"""The clock's remaining time is shared as if this many turns were still to play."""
FLOOR_SECONDS = 0.05
"""The least a turn is given, however short the clock."""


@dataclass(frozen=True)
class ClockView:
    """A side's clock as the budget needs it."""

    remaining: float
    """Seconds left on the side's clock."""
    increment: float = 0.0
    """Seconds it gets back each turn (a Fischer increment or a simple delay)."""


def clock_seconds(view: ClockView) -> float:
    """The most a turn may take on this clock (see the module's rule)."""
    remaining = max(0.0, view.remaining)
    share = remaining / MOVES_TO_GO + max(0.0, view.increment)
    return max(FLOOR_SECONDS, min(share, remaining / 2))


def turn_budget(chosen: Level, *, clock: ClockView | None = None,
                playouts: int | None = None) -> Budget:
    """The search budget of one of the companion's turns."""
    seconds: float | None = chosen.seconds
    if clock is not None:
        seconds = min(chosen.seconds, clock_seconds(clock))
    if playouts is not None:
        return Budget(seconds=seconds if clock is not None else None, playouts=playouts)
    return Budget(seconds=seconds)
