"""Keeping the physical board and the game in step.

Every sensor (the reed-switch board, the camera, the simulated board) reports
settled :class:`~companion.sensors.BoardSnapshot` objects; :class:`BoardSync`
turns them into game actions or into exact instructions for the players, and
:class:`PhysicalBoardSession` wires a source, a BoardSync and a game together. The stone
games have their counterparts: :mod:`companion.sync.stones` (``StoneFollower``) and
:mod:`companion.sync.stone_session` (``StoneBoardSession``).
"""

from companion.sync.board_sync import BoardSync, Lead, SyncError, SyncGame
from companion.sync.result import Choice, Fix, SyncKind, SyncResult
from companion.sync.session import PhysicalBoardSession

__all__ = [
    "BoardSync",
    "Choice",
    "Fix",
    "Lead",
    "PhysicalBoardSession",
    "SyncError",
    "SyncGame",
    "SyncKind",
    "SyncResult",
]
