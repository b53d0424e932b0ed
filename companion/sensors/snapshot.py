"""The one message every board sensor sends: what it saw at one moment."""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping
from typing import Literal

import chess

PieceColor = Literal["white", "black", "blue"]
PIECE_COLORS: tuple[PieceColor, ...] = ("white", "black", "blue")
TRAIL_LIMIT = 64   # the most glimpses a snapshot carries (the latest are kept)


@dataclasses.dataclass(frozen=True)
class Glimpse:
    """An occupancy a sensor saw only briefly (debounced, but not settled): one step
    of the trail of lifts and set-downs between two settled snapshots."""

    mask: chess.Bitboard
    timestamp: float = 0.0


@dataclasses.dataclass(frozen=True)
class BoardSnapshot:
    """What a sensor saw at one moment.

    ``occupied`` holds every square with something standing on it. ``colors``
    is ``None`` for an occupancy-only sensor (a reed-switch board); a colour
    sensor (the camera) maps every occupied square to ``"white"``,
    ``"black"`` or ``"blue"``. ``timestamp`` is in seconds (monotonic clock
    of the sensor's host) and ``source`` names the sensor.

    ``trail`` holds the occupancies the sensor saw, in order, since the snapshot
    it reported before this one and before this one settled (each held at least
    the sensor's debounce time, none as long as the settling time): the order of
    lifts and set-downs too fast to settle, such as a capture made within the
    settling time. Sensors that cannot tell leave it empty.

    ``unsure`` holds squares read empty where the sensor saw some sign of a
    piece, too weak to call one (a camera: a pale piece on a pale square, a
    piece hidden behind a nearer one). Sensors that cannot tell leave it empty;
    the sync may ask the players about them, never act on them alone.
    """

    occupied: chess.SquareSet
    colors: Mapping[chess.Square, PieceColor] | None = None
    timestamp: float = 0.0
    source: str = ""
    trail: tuple[Glimpse, ...] = ()
    unsure: chess.SquareSet = dataclasses.field(default_factory=chess.SquareSet)

    def __post_init__(self) -> None:
        # Freeze the inputs: a snapshot must not change after it is sent.
        object.__setattr__(self, "occupied", chess.SquareSet(int(self.occupied)))
        object.__setattr__(self, "unsure", chess.SquareSet(int(self.unsure)))
        if int(self.unsure) & int(self.occupied):
            both = ", ".join(chess.square_name(sq) for sq in self.unsure & self.occupied)
            raise ValueError(f"unsure squares must be read empty, not occupied: {both}")
        object.__setattr__(self, "trail", tuple(self.trail))
        for glimpse in self.trail:
            if not isinstance(glimpse, Glimpse) or not 0 <= glimpse.mask < 1 << 64:
                raise ValueError(f"a trail holds Glimpse occupancies, not {glimpse!r}")
        if self.colors is not None:
            colors = dict(self.colors)
            for square, color in colors.items():
                if color not in PIECE_COLORS:
                    raise ValueError(
                        f"unknown piece colour {color!r} on {chess.square_name(square)}")
                if square not in self.occupied:
                    raise ValueError(
                        f"colour given for {chess.square_name(square)}, which is not occupied"
                    )
            missing = [chess.square_name(sq) for sq in self.occupied if sq not in colors]
            if missing:
                raise ValueError(f"no colour for occupied squares: {', '.join(missing)}")
            object.__setattr__(self, "colors", types.MappingProxyType(colors))

    @property
    def mask(self) -> chess.Bitboard:
        """The occupied squares as a bitboard."""
        return int(self.occupied)

    @classmethod
    def of_board(
        cls,
        board: chess.BaseBoard,
        *,
        with_colors: bool = False,
        timestamp: float = 0.0,
        source: str = "",
    ) -> BoardSnapshot:
        """What a perfect sensor would see on ``board`` (blue = promoted pieces)."""
        colors: dict[chess.Square, PieceColor] | None = None
        if with_colors:
            colors = {}
            for square in chess.scan_forward(board.occupied):
                if board.promoted & chess.BB_SQUARES[square]:
                    colors[square] = "blue"
                elif board.color_at(square) == chess.WHITE:
                    colors[square] = "white"
                else:
                    colors[square] = "black"
        return cls(chess.SquareSet(board.occupied), colors, timestamp, source)

    def same_as(self, other: BoardSnapshot) -> bool:
        """Whether two snapshots saw the same board (ignoring time, source and trail)."""
        if self.mask != other.mask:
            return False
        if self.colors is None or other.colors is None:
            return self.colors is None and other.colors is None
        return dict(self.colors) == dict(other.colors)
