"""The order of lifts and placements seen since the game's position was last set.

Sensors report boards, not events; the trail turns consecutive settled
snapshots into events ("e4 emptied at step 3", "d5 filled at step 4"). The
order tells a capture from a piece merely held, and which of two captures
with the same final occupancy was made, and which piece was touched first.
"""

from __future__ import annotations

import logging

import chess

LOGGER = logging.getLogger(__name__)


class Trail:
    """Lifts and placements since :meth:`reset`, numbered by snapshot step."""

    def __init__(self, mask: int = 0) -> None:
        self.reset(mask)

    def reset(self, mask: int, *, own: int = 0) -> None:
        """Start over from a board showing ``mask``; ``own`` are the squares of the
        side to move's pieces (for touch-move)."""
        self.mask = mask
        self.step = 0
        self.own = own
        self.lifted_at: dict[chess.Square, int] = {}
        self.placed_at: dict[chess.Square, int] = {}
        self.touched: chess.Square | None = None

    def observe(self, mask: int) -> None:
        """Record the change from the previous snapshot to one showing ``mask``."""
        if mask == self.mask:
            return
        self.step += 1
        lifted = self.mask & ~mask
        placed = mask & ~self.mask
        for square in chess.scan_forward(lifted):
            self.lifted_at[square] = self.step
        for square in chess.scan_forward(placed):
            self.placed_at[square] = self.step
        if self.touched is None and lifted & self.own:
            self.touched = chess.lsb(lifted & self.own)
        self.mask = mask

    @property
    def changed(self) -> bool:
        """Whether anything changed since the reset."""
        return self.step > 0

    def captured(self, mover: chess.Square, victim: chess.Square) -> bool:
        """Whether the order of events shows a capture on ``victim`` by the piece from
        ``mover``: the victim's square was emptied and then filled again, no earlier
        than the mover was lifted (victim first or mover first alike)."""
        placed = self.placed_at.get(victim)
        lifted = self.lifted_at.get(mover)
        return placed is not None and lifted is not None and placed >= lifted \
            and self.lifted_at.get(victim, placed + 1) <= placed
