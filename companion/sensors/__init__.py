"""What sensors saw, and the sources that report it.

A sensor reports what it sees (a :class:`BoardSnapshot`), never moves; the
core (``companion.sync``) decides what a snapshot means for the game.
"""

from companion.sensors.snapshot import BoardSnapshot, Glimpse, PieceColor
from companion.sensors.source import (
    BoardSource,
    BoardSourceError,
    LedHint,
    SourceStatus,
    open_board_source,
)

__all__ = [
    "BoardSnapshot",
    "BoardSource",
    "BoardSourceError",
    "Glimpse",
    "LedHint",
    "PieceColor",
    "SourceStatus",
    "open_board_source",
]
