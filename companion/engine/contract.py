"""What an engine is asked and what it answers, for every game.

An engine reads a public position text (an abstract game's position, or a
Raindropchess RFEN), searches within a :class:`Budget`, and answers an
:class:`Analysis`: the turn it chooses and the best few turns it considered,
each with the mover's expected score. Every value here is frozen; the same
shape reaches the terminal, the app, hints and ``raindrop best --jsonl``.

Words: ``turn`` is the text the game writes for one whole go (in
Raindropchess: ``flip``, a placement ``N@e4``, a chess move in UCI ``e2e3``,
a removal; see each engine's docs). ``value`` is always the expected score
of the side to move in the analysed position: 1 a win, 0.5 a draw, 0 a loss.
"""

from __future__ import annotations

import enum
import logging
import math
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from companion.engine.levels import Level

LOGGER = logging.getLogger(__name__)

MAX_SECONDS = 3600.0
"""The longest a single search may be asked to think."""

MAX_PLAYOUTS = 100_000_000
"""The most playouts a single search may be asked for."""


class EngineError(ValueError):
    """A position the engine cannot play: malformed, finished, or of an unknown game."""


class Proof(enum.Enum):
    """What the search has proved for the side to move, when it has."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


@dataclass(frozen=True)
class Budget:
    """How long to search: a time, a number of playouts, or both (whichever ends first).

    A playout budget alone makes a search repeatable under a seed on any machine.
    """

    seconds: float | None = None
    playouts: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is None and self.playouts is None:
            raise ValueError("a budget needs seconds, playouts or both")
        if self.seconds is not None and (
                not math.isfinite(self.seconds) or not 0 < self.seconds <= MAX_SECONDS):
            raise ValueError(
                f"seconds must be more than 0 and at most {MAX_SECONDS:g}, not {self.seconds!r}")
        if self.playouts is not None and (
                isinstance(self.playouts, bool) or not 1 <= self.playouts <= MAX_PLAYOUTS):
            raise ValueError(
                f"playouts must be from 1 to {MAX_PLAYOUTS}, not {self.playouts!r}")

    @classmethod
    def for_level(cls, level: Level, *, seconds: float | None = None,
                  playouts: int | None = None) -> Budget:
        """The level's time cap, or the given seconds and playouts instead."""
        if seconds is None and playouts is None:
            return cls(seconds=level.seconds)
        return cls(seconds=seconds, playouts=playouts)


@dataclass(frozen=True)
class Candidate:
    """One turn the engine considered, with what it thinks of it."""

    turn: str
    """The turn text (canonical for its game)."""
    value: float
    """The mover's expected score after this turn, 0 to 1."""
    visits: int
    """How much search went into it (playouts, or nodes for a tree search)."""
    after: str | None
    """The position text after the turn; ``None`` where chance decides it (a card flip)."""
    line: tuple[str, ...] = ()
    """The expected continuation after the turn, best play both sides, as far as known."""
    proof: Proof | None = None
    """What the search proved of this turn for the mover, if anything."""


@dataclass(frozen=True)
class Progress:
    """A search's progress, reported while it thinks."""

    playouts: int
    seconds: float
    best: Candidate | None


@dataclass(frozen=True)
class Analysis:
    """An engine's answer for one position."""

    position: str
    """The analysed position, canonical."""
    mover: str
    """The side to move, as the game names it (``"white"``, ``"vertical"``...)."""
    chosen: Candidate
    """The turn the engine plays (at low levels not always the best it found)."""
    candidates: tuple[Candidate, ...]
    """The turns it ranks best, best first (the hint list); ``chosen`` may be among them."""
    playouts: int
    seconds: float
    level: int
    stopped: bool = False
    """True when the search was stopped early (:meth:`Engine.analyse`'s ``stop``)."""
    notes: Mapping[str, str] = field(default_factory=dict)
    """Anything game-specific worth telling (a komi's reason, a proven line...)."""

    @property
    def value(self) -> float:
        """The mover's expected score with the chosen turn."""
        return self.chosen.value


ProgressCallback = Callable[[Progress], None]


class Engine(Protocol):
    """An opponent for one game (or one family of positions).

    ``analyse`` is pure in what it sees: the public position text, the level,
    the budget and the seed; with a playout budget the answer is repeatable.
    It checks ``stop`` often and returns its best so far soon after it is set,
    and calls ``progress`` (on its own thread) now and then.
    """

    def analyse(self, position: str, *, level: Level, budget: Budget, seed: int = 0,
                stop: threading.Event | None = None,
                progress: ProgressCallback | None = None) -> Analysis:
        """The engine's choice and its ranked candidates; :class:`EngineError`."""
        ...

    def accepts_draw(self, position: str, *, level: Level, seed: int = 0) -> bool:
        """Whether the side to move, offered a draw here, takes it."""
        ...


def draw_is_welcome(value: float, *, margin: float = 0.1) -> bool:
    """A draw is worth taking when the expected score is clearly below a half."""
    return value < 0.5 - margin
