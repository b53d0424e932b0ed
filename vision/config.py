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
    reference_weights: tuple[float, ...] = (0.594, 3.062, 3.558, 12.704, 3.786, -3.240, -7.317,
        22.378, -12.097, -18.476, 8.920, -8.974, -0.761, 2.622, -4.006, 1.910, -0.076, 19.978,
        -11.963, -11.334, -10.624)
    model_weights: tuple[float, ...] = (-0.771, 1.347, 1.193, 2.071, 2.350, -5.253, 1.763,
        13.527, 4.766, -12.193, 4.452, 0.435, 1.751, 4.217, -2.600, -2.557, 0.082, 7.602, 6.393,
        -2.967, -11.294, 1.729, 2.116, 2.455, 2.346, 2.350, 1.192, -0.797, -2.089, 2.974,
        -12.193, -0.954, -2.304, -2.296, -0.816, -2.600, 1.214, -1.504, 8.075, -9.071, -5.762)
    blue_min_chroma: float = 22.0  # Lab chroma for a blue piece
    blue_hue_range: tuple[float, float] = (220.0, 320.0)  # Lab hue angle, degrees
    blue_fraction: float = 0.3  # of the sample disc blue: a blue piece
    # White or black: the lightness of the colour_fraction of disc pixels least
    # like the board, over the light squares' lightness. Split at the widest gap
    # between occupied squares when it is at least white_gap wide and falls in
    # white_split_range; otherwise at white_ratio.
    colour_fraction: float = 0.4
    white_ratio: float = 0.5
    white_gap: float = 0.12
    white_split_range: tuple[float, float] = (0.25, 0.7)

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
