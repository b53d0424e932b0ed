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
    # A pixel between dark_ratio and shadow_ratio of the expected lightness may
    # be in a shadow: it is compared with the expectation darkened as much.
    dark_ratio: float = 0.5
    shadow_ratio: float = 0.82
    # Logistic weights over squares.square_features (fitted on synthetic scenes
    # by ``python -m vision.fit``): with an empty-board reference, and without.
    reference_weights: tuple[float, ...] = (4.874, 2.433, 8.243, 10.942, -1.304, -5.212, -5.841,
        19.468, -12.429, -13.060, 5.824, -3.773, -4.860, 1.758, -4.752, 1.738, 1.940, 19.424,
        -14.501, -5.870, -11.331)
    model_weights: tuple[float, ...] = (1.188, 1.841, 4.087, 3.535, 3.744, -1.232, 1.748, 9.543,
        5.708, -18.396, 4.383, -1.180, -0.365, 1.918, -4.661, -3.014, 0.073, 12.749, -2.345,
        -3.788, -11.517)
    blue_min_chroma: float = 22.0  # Lab chroma for a blue piece
    blue_hue_range: tuple[float, float] = (220.0, 320.0)  # Lab hue angle, degrees
    blue_fraction: float = 0.3  # of the sample disc blue: a blue piece
    white_ratio: float = 0.55  # piece lightness / light-square lightness above: white
    colour_percentile: float = 60.0  # of the disc's lightness, taken as the piece's

    # Hands and motion, on a grey warp with 8 pixels a square. A cell is one
    # square of the board or its margin.
    motion_threshold: float = 18.0  # grey levels between consecutive frames
    motion_fraction: float = 0.12  # of one cell changed since the last frame: moving
    hand_threshold: float = 30.0  # grey levels against the last settled frame
    hand_cell_fraction: float = 0.3  # of a cell changed: the cell is covered
    hand_cells: int = 5  # a covered region this big reaching over the edge: a hand
    hand_inner_cells: int = 7  # or this big anywhere
    hand_still_seconds: float = 1.0  # a "hand" with no motion this long is a board change
    settle_frames: int = 4  # agreeing still frames before a snapshot
    settle_seconds: float = 0.3  # and at least this long
