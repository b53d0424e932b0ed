"""The order of lifts and placements seen since the game's position was last set.

Sensors report boards, not events; the trail turns consecutive snapshots (and
the glimpses a snapshot carries of what the sensor saw too briefly to settle)
into events ("e4 emptied at step 3", "d5 filled at step 4"). The order tells a
capture from a piece merely held, which of two captures with the same final
occupancy was made, which piece was touched first, and whether a move and its
reply were really seen (every square each of them emptied and filled).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

import chess

from companion.sensors.snapshot import Glimpse

LOGGER = logging.getLogger(__name__)

# A piece set back on its own square within this many seconds of being lifted was
# adjusted (j'adoube) or knocked over and stood up again: not touched (R11).
ADJUST_SECONDS = 1.5

# One event: the step it was seen at, and whether the square was filled (else emptied).
Event = tuple[int, bool]


def implied_events(board: chess.Board, moves: Sequence[chess.Move],
                   ) -> list[tuple[int, chess.Square, bool]]:
    """What ``moves`` (played in turn from ``board``, which is left unchanged) do to
    the squares, in order: ``(move index, square, filled)``; a capture empties the
    victim's square and fills it again."""
    after = board.copy(stack=False)
    events: list[tuple[int, chess.Square, bool]] = []
    for index, move in enumerate(moves):
        before_occupied = after.occupied
        before = {sq: after.piece_at(sq) for sq in (move.from_square, move.to_square)}
        after.push(move)
        occupied = after.occupied
        emptied = before_occupied & ~occupied
        filled = occupied & ~before_occupied
        replaced = 0
        if not move.drop and before_occupied & chess.BB_SQUARES[move.to_square] \
                and before[move.to_square] != after.piece_at(move.to_square):
            replaced = chess.BB_SQUARES[move.to_square]
        for square in chess.scan_forward(emptied | replaced):
            events.append((index, square, False))
        for square in chess.scan_forward(filled | replaced):
            events.append((index, square, True))
    return events


class Trail:
    """Lifts and placements since :meth:`reset`, numbered by step (one step per
    occupancy seen, settled or glimpsed)."""

    def __init__(self, mask: int = 0) -> None:
        self.reset(mask)

    def reset(self, mask: int, *, own: int = 0, timestamp: float = 0.0) -> None:
        """Start over from a board showing ``mask``; ``own`` are the squares of the
        side to move's pieces (for touch-move)."""
        self.mask = mask
        self.step = 0
        self.own = own
        self.lifted_at: dict[chess.Square, int] = {}
        self.placed_at: dict[chess.Square, int] = {}
        self.events: dict[chess.Square, list[Event]] = {}
        self._own_lifted: dict[chess.Square, float] = {}
        self._touched: list[chess.Square] = []

    def observe(self, mask: int, timestamp: float = 0.0,
                glimpses: Iterable[Glimpse] = ()) -> None:
        """Record the changes from the previous board through ``glimpses`` (boards
        seen in passing, in order) to one showing ``mask``."""
        for glimpse in glimpses:
            self._change(glimpse.mask, glimpse.timestamp)
        self._change(mask, timestamp)

    def _change(self, mask: int, timestamp: float) -> None:
        if mask == self.mask:
            return
        self.step += 1
        lifted = self.mask & ~mask
        placed = mask & ~self.mask
        for square in chess.scan_forward(lifted):
            self.lifted_at[square] = self.step
            self.events.setdefault(square, []).append((self.step, False))
            if self.own & chess.BB_SQUARES[square]:
                self._own_lifted[square] = timestamp
                self._touched.append(square)
        for square in chess.scan_forward(placed):
            self.placed_at[square] = self.step
            self.events.setdefault(square, []).append((self.step, True))
            since = self._own_lifted.pop(square, None)
            if since is not None and timestamp - since <= ADJUST_SECONDS \
                    and square in self._touched:
                self._touched.remove(square)   # adjusted, or knocked over and stood up
        self.mask = mask

    @property
    def changed(self) -> bool:
        """Whether anything changed since the reset."""
        return self.step > 0

    @property
    def touched(self) -> chess.Square | None:
        """The first of the side to move's pieces lifted and not set straight back
        on its square (within :data:`ADJUST_SECONDS`), if any."""
        return self._touched[0] if self._touched else None

    def captured(self, mover: chess.Square, victim: chess.Square) -> bool:
        """Whether the order of events shows a capture on ``victim`` by the piece from
        ``mover``: the victim's square was emptied and then filled again, no earlier
        than the mover was lifted (victim first or mover first alike)."""
        placed = self.placed_at.get(victim)
        lifted = self.lifted_at.get(mover)
        return placed is not None and lifted is not None and placed >= lifted \
            and self.lifted_at.get(victim, placed + 1) <= placed

    def squares(self) -> int:
        """The squares seen emptied or filled since the reset, as a bitboard."""
        mask = 0
        for square in self.events:
            mask |= chess.BB_SQUARES[square]
        return mask

    def refilled(self, square: chess.Square) -> bool:
        """Whether ``square`` was seen emptied and then filled again."""
        emptied = False
        for _, filled in self.events.get(square, ()):
            if filled and emptied:
                return True
            emptied = emptied or not filled
        return False

    def backs(self, board: chess.Board, moves: Sequence[chess.Move]) -> bool:
        """Whether what was seen backs ``moves`` played in turn from ``board``: every
        square each one emptied or filled was seen so, square by square in that
        order, each move's pieces set down no earlier than it was begun, and each
        move begun no earlier than the one before it was set down (a reply starts
        once the move it answers is made)."""
        done: dict[chess.Square, int] = {}   # per square: events matched so far
        begun = [0] * len(moves)            # per move: its latest lift
        ended = [0] * len(moves)            # per move: its latest placement
        for index, square, filled in implied_events(board, moves):
            seen = self.events.get(square, [])
            position = done.get(square, 0)
            floor = ended[index - 1] if index else 0
            if filled:
                floor = max(floor, begun[index])
            while position < len(seen) and (seen[position][1] != filled
                                             or seen[position][0] < floor):
                position += 1
            if position == len(seen):
                return False
            step = seen[position][0]
            done[square] = position + 1
            if filled:
                ended[index] = max(ended[index], step)
            else:
                begun[index] = max(begun[index], step)
        return True
