"""The Raindropchess engine: expectimax over the cards a flip could bring.

:func:`make_engine` is the registry's hook (``raindrop best RFEN``). The
engine reads only the public RFEN and the house rules; see
:mod:`.engine` for the levels, :mod:`.search` for the search and
:mod:`.evaluation` for what it knows of the game.
"""

from companion.engine.raindropchess.engine import (
    STYLES,
    RaindropchessEngine,
    Style,
    make_engine,
)

__all__ = ["STYLES", "RaindropchessEngine", "Style", "make_engine"]
