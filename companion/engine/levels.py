"""The companion's five levels: a time cap per turn on one core, and a name.

Level 3 is the default. Engines map a level to their own ways of playing
weaker (a short search, a beginner's slips); the time cap is the contract
every engine keeps: it never thinks longer than its level's cap (plus the
moment it takes to stop).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

LOGGER = logging.getLogger(__name__)


class LevelError(ValueError):
    """A level that does not exist (levels are 1 to 5)."""


@dataclass(frozen=True)
class Level:
    """One level of play."""

    number: int
    """1 (weakest) to 5 (strongest)."""
    seconds: float
    """The time cap a turn, on one core."""
    name: str
    """A word for menus and the terminal ("club")."""

    def __str__(self) -> str:
        return f"level {self.number} ({self.name}, {self.seconds:g} s a turn)"


LEVELS: tuple[Level, ...] = (
    Level(1, 0.1, "beginner"),
    Level(2, 0.5, "casual"),
    Level(3, 2.0, "club"),
    Level(4, 5.0, "strong"),
    Level(5, 15.0, "master"),
)
"""Every level, weakest first."""

DEFAULT_LEVEL = 3


def level(number: int | str = DEFAULT_LEVEL) -> Level:
    """The level numbered ``number`` (1 to 5; ASCII digits only); :class:`LevelError`."""
    if isinstance(number, str):
        text = number.strip()
        if not (text.isascii() and text.isdigit() and len(text) <= 2):
            raise LevelError(f"a level is a number from 1 to {len(LEVELS)}, not {number!r}")
        number = int(text)
    if isinstance(number, bool) or not 1 <= number <= len(LEVELS):
        raise LevelError(f"a level is a number from 1 to {len(LEVELS)}, not {number!r}")
    return LEVELS[number - 1]
