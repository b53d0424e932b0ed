"""What reading the 64 squares of a frame gives: a label a square (empty, white, black
or blue) and each square's log-odds of a piece (:class:`SquareReading`)."""

from __future__ import annotations

import dataclasses

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.intp]
EMPTY, WHITE, BLACK, BLUE = ".", "w", "b", "u"
COLOR_NAMES = {WHITE: "white", BLACK: "black", BLUE: "blue"}


@dataclasses.dataclass(frozen=True)
class SquareReading:
    """The reading of one frame: ``grid`` is 8 strings of 8 labels, rank 8 first."""

    grid: tuple[str, ...]
    # log-odds of a piece on every square (row-major from a8) against the reading's
    # threshold: above 0 it is read occupied, unless a later stage overrules it
    occupancy: tuple[float, ...]
    # read without a reference, the network sure of too few pieces of one army for
    # the photo's own colour split (vision.photo_split.colours_unsure)
    colours_unsure: bool = False

    def label(self, row: int, col: int) -> str:
        return self.grid[row][col]

    def unsure(self, margin: float) -> tuple[int, ...]:
        """The squares (row-major from a8) whose occupancy log-odds lie within
        ``margin`` of the threshold: read empty or occupied, but only just."""
        return tuple(i for i, odds in enumerate(self.occupancy) if abs(odds) < margin)
