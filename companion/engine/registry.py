"""Which engine plays a position text.

An abstract game's position text starts with the game's name
(``dropper ...``); anything else is read as a Raindropchess RFEN. Engines
are found by game name: the built-in ones are imported on first use, and
:func:`register` adds one (a test's toy game, a plug-in).

Each built-in engine module exposes ``make_engine(game, options)``:
``options`` are house rules given outside the position (Raindropchess's
``joker_effect=remove_piece``...); the abstract games keep their options in
the position text and take none.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Mapping

from companion import games
from companion.engine.contract import Engine, EngineError

LOGGER = logging.getLogger(__name__)

RAINDROPCHESS = "raindropchess"

EngineFactory = Callable[[str, Mapping[str, str]], Engine]

_BUILTIN: dict[str, str] = {
    RAINDROPCHESS: "companion.engine.raindropchess",
    **{name: "companion.engine.abstract" for name in games.BUILTIN},
}
"""Game name -> the module whose ``make_engine`` builds its engine."""

_registered: dict[str, EngineFactory] = {}


def game_of(position: str) -> str:
    """The game a position text belongs to: an abstract game's name or ``"raindropchess"``."""
    head = position.strip().split(maxsplit=1)
    if not head:
        raise EngineError("empty position text")
    name = head[0].lower()
    if name in _registered or name in games.names():
        return name
    return RAINDROPCHESS


def register(game: str, factory: EngineFactory) -> None:
    """Make ``factory`` build the engine for ``game`` (replacing any registered before)."""
    _registered[game] = factory


def unregister(game: str) -> None:
    """Remove an engine added with :func:`register` (tests)."""
    _registered.pop(game, None)


def engine_for(position: str, options: Mapping[str, str] | None = None) -> Engine:
    """The engine that plays ``position``'s game; :class:`EngineError` if none does."""
    return engine_for_game(game_of(position), options)


def engine_for_game(game: str, options: Mapping[str, str] | None = None) -> Engine:
    """The engine for the game named ``game``; :class:`EngineError` if none plays it."""
    options = dict(options or {})
    factory = _registered.get(game)
    if factory is None:
        module_name = _BUILTIN.get(game)
        if module_name is None:
            raise EngineError(f"no engine plays {game!r}")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
            raise EngineError(f"no engine plays {game!r} yet") from None
        factory = module.make_engine
    return factory(game, options)
