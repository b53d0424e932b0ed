"""The abstract board games beside Raindropchess, behind one interface.

Load a game by name, as OpenSpiel's ``load_game`` does::

    from companion import games
    rules = games.get("dropper")
    pos = rules.start(size="8")

Each game is one module defining ``RULES``; :func:`get` imports it on first
use. :func:`register` adds a game (a test's toy game, a plug-in).
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

from companion.games.base import (
    Cell,
    GameRules,
    IllegalTurn,
    Option,
    OptionError,
    Outcome,
    Player,
    Position,
    PositionError,
    RulesBase,
    Step,
    TooManyTurns,
    TurnBuilder,
)

LOGGER = logging.getLogger(__name__)

BUILTIN: tuple[str, ...] = ("dropper", "rumbo", "raindrops", "crumble")
"""The seed games, in shelf order, each a module ``companion.games.<name>``."""

_registered: dict[str, GameRules[Any]] = {}


class UnknownGameError(KeyError, ValueError):
    """No game of that name."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown game"


def register(rules: GameRules[Any]) -> GameRules[Any]:
    """Add a game under ``rules.name``; ``ValueError`` if that name is taken."""
    name = rules.name
    if not name or name != name.lower() or not name.isidentifier():
        raise ValueError(f"a game's name must be a lower-case identifier, not {name!r}")
    if name in _registered or name in BUILTIN:
        raise ValueError(f"a game named {name!r} is already registered")
    _registered[name] = rules
    return rules


def unregister(name: str) -> None:
    """Remove a game added with :func:`register` (tests); built-in games stay loadable."""
    _registered.pop(name, None)


def _load(name: str) -> GameRules[Any]:
    module = importlib.import_module(f"companion.games.{name}")
    rules: GameRules[Any] = module.RULES
    _registered[name] = rules
    return rules


def get(name: str) -> GameRules[Any]:
    """The game called ``name`` (case-insensitive); :class:`UnknownGameError` if none."""
    key = name.strip().lower()
    if key in _registered:
        return _registered[key]
    if key in BUILTIN:
        return _load(key)
    raise UnknownGameError(f"unknown game {name!r} (games: {', '.join(names())})")


def names() -> list[str]:
    """Every game's name: the seed games in shelf order, then any registered."""
    return list(BUILTIN) + sorted(set(_registered) - set(BUILTIN))


def game_of(text: str) -> GameRules[Any]:
    """The game a position text belongs to (its first field); :class:`PositionError`."""
    head = text.strip().split(maxsplit=1)
    if not head:
        raise PositionError("empty position text")
    try:
        return get(head[0])
    except UnknownGameError:
        raise PositionError(
            f"unknown game {head[0][:40]!r} in the first field (games: {', '.join(names())})"
        ) from None


__all__ = [
    "BUILTIN", "Cell", "GameRules", "IllegalTurn", "Option", "OptionError", "Outcome", "Player",
    "Position", "PositionError", "RulesBase", "Step", "TooManyTurns", "TurnBuilder",
    "UnknownGameError",
    "game_of", "get", "names", "register", "unregister",
]
