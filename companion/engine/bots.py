"""What a game hands the generic search: its bot.

Each abstract game has a ``bot`` module (``companion.games.<game>.bot``) with a
``BOT`` object following :class:`GameBot`. It turns a position into a search
:class:`Setup` (the game's fast state, its :class:`~companion.engine.mcts.Domain`
and :class:`~companion.engine.mcts.Evaluator`, how to write turns and positions),
and takes the decisions outside turns that its rules give a player (Rumbo's komi
and side, Crumble's draws). The search itself stays game-neutral.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.engine.contract import Analysis, Budget, ProgressCallback
from companion.engine.levels import Level
from companion.engine.mcts import Domain, Evaluator, Settings

LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True)
class Style:
    """How a level plays, beyond its time: a beginner's slips and a short horizon."""

    level: Level
    temperature: float
    """Softmax temperature over the best candidates' values (0: always the best)."""
    max_depth: int
    """How deep the tree may grow below the root (0: no limit): a short horizon
    misses long-range threats, as a beginner does."""


STYLES: dict[int, tuple[float, int]] = {
    1: (0.06, 2),
    2: (0.03, 4),
    3: (0.0, 0),
    4: (0.0, 0),
    5: (0.0, 0),
}
"""Level number -> (temperature, max depth)."""


def style_of(level: Level) -> Style:
    temperature, depth = STYLES[level.number]
    return Style(level, temperature, depth)


@dataclass(frozen=True)
class Setup:
    """A position made ready for the search."""

    state: Any
    domain: Domain[Any, Any]
    evaluator: Evaluator[Any]
    settings: Settings
    turn_text: Callable[[Any, Any], str]
    """(state, action) -> the game's canonical turn text."""
    position_text: Callable[[Any], str]
    """state -> its canonical position text."""
    mover: str
    """The side to move, as the game names it."""
    opponent: str
    notes: dict[str, str] = field(default_factory=dict)


class GameBot(Protocol):
    """A game's knowledge, handed to the search."""

    def setup(self, position: Any, style: Style) -> Setup:
        """The search setup for a position of the game (not over)."""
        ...

    def decide(self, position: Any, *, level: Level, budget: Budget, seed: int,
               stop: threading.Event | None,
               progress: ProgressCallback | None) -> Analysis | None:
        """A decision outside the search (a komi, a side), or ``None`` to search a turn."""
        ...

    def accepts_draw(self, position: Any, *, level: Level, seed: int) -> bool:
        """Whether the side to move takes a draw offered here."""
        ...


class DrawJudge(Protocol):
    """What a bot of a game with draw offers and claims adds (Crumble's)."""

    def offers_draw(self, position: Any, *, level: Level, seed: int) -> bool:
        """Whether the side to move offers a draw before its turn."""
        ...

    def claim(self, position: Any, *, level: Level, seed: int) -> str | None:
        """The claim to make now (one the rules offer), or ``None``."""
        ...
