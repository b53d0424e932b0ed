"""Every threshold of the camera pipeline, in one frozen dataclass.

Stages take ``(config, image)``; changing a threshold means building a new
config with :func:`dataclasses.replace`, never editing module constants.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class VisionConfig:
    """Thresholds and sizes for locating the board, reading squares and settling."""

    # Top-down warp: pixels per square, and how many squares of margin are kept
    # around the board (the margin is where an arm crosses into the board).
    square_px: int = 32
    margin_squares: float = 1.0

    # Board finding.
    chessboard_max_side: int = 1000  # frames are scaled down to this before corner search
    aruco_dictionary: str = "DICT_4X4_50"
    marker_ids: tuple[int, int, int, int] = (0, 1, 2, 3)  # at a8, h8, h1, a1

    # Geometry check on every frame: grid-line contrast at the expected lines
    # against a quarter square off them.
    check_min_ratio: float = 1.25
    check_failures_to_relocate: int = 8

    # Squares. Radii and shifts are in squares. The sample disc sits where a
    # piece stands (its base), moved a little along its lean away from the camera.
    sample_radius: float = 0.26
    lean_shift: float = 0.12
    piece_height_squares: float = 1.0  # typical piece height, to estimate lean
    # A pixel is "not board" when its lightness is above light_ratio or below
    # dark_ratio of the expected (shadows only darken), or its colour differs by
    # more than chroma_delta (Lab a*b*, after scaling the expected colour by the shade).
    light_ratio: float = 1.25
    dark_ratio: float = 0.5
    chroma_delta: float = 16.0
    edge_strength: float = 40.0  # Sobel magnitude on L (0..100) that counts as an edge
    edge_weight: float = 0.5  # how much the edge fraction counts toward occupancy
    occupied_fraction: float = 0.3  # of the sample disc deviating: occupied
    blue_min_chroma: float = 22.0  # Lab chroma for a blue piece
    blue_hue_range: tuple[float, float] = (220.0, 320.0)  # Lab hue angle, degrees
    blue_fraction: float = 0.3  # of the sample disc blue: a blue piece
    white_ratio: float = 0.55  # piece lightness / light-square lightness above: white
    white_gap: float = 0.2  # a wider gap between piece lightnesses splits white from black

    # Hands and motion. Fractions are of the pixels of a region.
    motion_threshold: float = 18.0  # grey levels between consecutive frames
    motion_fraction: float = 0.01  # of a square moving: the frame is unsettled
    hand_margin_fraction: float = 0.08  # of one side's margin band changed: a hand
    hand_extent_squares: float = 2.6  # a changed blob wider than this: a hand
    settle_frames: int = 4  # agreeing still frames before a snapshot
    settle_seconds: float = 0.3  # and at least this long
