"""The app's look in one place: colours (RGBA, 0-1) and the piece palettes.

Plain data (no Kivy), so .kv rules and widgets read the same values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import chess

BACKGROUND = (0.118, 0.141, 0.188, 1)        # deep slate
SURFACE = (0.176, 0.204, 0.259, 1)           # panels
SURFACE_RAISED = (0.227, 0.259, 0.322, 1)
TEXT = (0.95, 0.95, 0.96, 1)
TEXT_DIM = (0.66, 0.70, 0.77, 1)
ACCENT = (0.98, 0.75, 0.28, 1)               # amber: the side to move, primary buttons
DANGER = (0.90, 0.30, 0.28, 1)               # check, failed rescue, resign
DANGER_TEXT = (1.0, 0.47, 0.44, 1)           # a problem written on a dark surface (4.5:1)
GOOD = (0.36, 0.78, 0.50, 1)

LIGHT_SQUARE = (0.93, 0.86, 0.74, 1)
DARK_SQUARE = (0.66, 0.50, 0.38, 1)
COORD_ON_LIGHT = (0.45, 0.31, 0.21, 1)
COORD_ON_DARK = (0.18, 0.11, 0.06, 1)
SELECTED = (0.98, 0.80, 0.25, 0.55)
LAST_MOVE = (0.80, 0.85, 0.30, 0.35)
# Marks on the board: a dark core in a light ring reads on both square colours (3:1).
TARGET_CORE = (0.08, 0.22, 0.45, 1)
TARGET_RING = (0.98, 0.98, 0.98, 1)
DROP_TARGET = TARGET_CORE
REMOVE_TARGET = (0.62, 0.05, 0.05, 1)
CHECK_GLOW = (0.95, 0.15, 0.10, 0.75)
FIX_FRAME = (1.0, 0.45, 0.05, 1)

DISABLED_FILL = (0.20, 0.22, 0.27, 1)      # every disabled button, with TEXT_DIM on it
ON_ACCENT = (0.12, 0.10, 0.05, 1)            # text on ACCENT buttons

# The players' message bar, by level (white text on each: at least 4.5:1).
MESSAGE_FILL = {
    "info": SURFACE_RAISED,
    "good": (0.13, 0.42, 0.25, 1),
    "warn": (0.55, 0.30, 0.02, 1),
    "danger": (0.70, 0.14, 0.12, 1),
    "fix": (0.55, 0.30, 0.02, 1),
}

CARD_FACE = (0.99, 0.98, 0.95, 1)
CARD_BACK = (0.20, 0.33, 0.55, 1)
CARD_EDGE = (0.16, 0.16, 0.20, 1)


def piece_palette(color: chess.Color, blue: bool) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(fill, outline) for a piece: white, black, light blue (White's promoted
    pieces) or dark blue (Black's promoted pieces), as the rules file says."""
    if blue:
        if color:  # chess.WHITE
            return (0.55, 0.82, 1.0, 1), (0.03, 0.20, 0.50, 1)
        return (0.10, 0.26, 0.78, 1), (0.78, 0.88, 1.0, 1)
    if color:  # chess.WHITE
        return (1.0, 1.0, 1.0, 1), (0.10, 0.10, 0.11, 1)
    return (0.11, 0.11, 0.12, 1), (0.80, 0.80, 0.80, 1)


def card_palette(color: chess.Color) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Colours of the piece drawn on a card of ``color``."""
    return piece_palette(color, False)


def luminance(rgba: tuple[float, ...]) -> float:
    """Relative luminance (WCAG 2) of an sRGB colour given as 0-1 floats."""
    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4
    red, green, blue = (channel(v) for v in rgba[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: tuple[float, ...], second: tuple[float, ...]) -> float:
    """The WCAG contrast ratio of two opaque colours (1 to 21)."""
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


# Highlight themes: "standard", and "colour-blind" (Okabe-Ito blue and orange instead of
# red against green, so no mark depends on telling red from green).
HIGHLIGHTS: dict[str, dict[str, tuple[float, ...]]] = {
    "standard": {
        "LAST_MOVE": (0.80, 0.85, 0.30, 0.35),
        "CHECK_GLOW": (0.95, 0.15, 0.10, 0.75),
        "REMOVE_TARGET": (0.62, 0.05, 0.05, 1),
        "FIX_FRAME": (1.0, 0.45, 0.05, 1),
        "good": (0.13, 0.42, 0.25, 1),
        "danger": (0.70, 0.14, 0.12, 1),
    },
    "colour-blind": {
        "LAST_MOVE": (0.34, 0.71, 0.91, 0.40),
        "CHECK_GLOW": (0.90, 0.62, 0.0, 0.85),
        "REMOVE_TARGET": (0.0, 0.30, 0.60, 1),
        "FIX_FRAME": (0.80, 0.47, 0.65, 1),
        "good": (0.0, 0.35, 0.62, 1),
        "danger": (0.66, 0.30, 0.0, 1),
    },
}


def use_highlights(name: str) -> None:
    """Switch the board's marks and the message colours to a highlight theme."""
    if name not in HIGHLIGHTS:
        raise ValueError(f"no highlight theme {name!r} (known: {', '.join(HIGHLIGHTS)})")
    chosen = HIGHLIGHTS[name]
    module = globals()
    for key in ("LAST_MOVE", "CHECK_GLOW", "REMOVE_TARGET", "FIX_FRAME"):
        module[key] = chosen[key]
    MESSAGE_FILL["good"] = chosen["good"]
    MESSAGE_FILL["danger"] = chosen["danger"]


# Board colours: the squares and the coordinates written on them.
BOARDS: dict[str, dict[str, tuple[float, ...]]] = {
    "wood": {"LIGHT_SQUARE": (0.93, 0.86, 0.74, 1), "DARK_SQUARE": (0.66, 0.50, 0.38, 1),
             "COORD_ON_LIGHT": (0.45, 0.31, 0.21, 1), "COORD_ON_DARK": (0.18, 0.11, 0.06, 1)},
    "slate": {"LIGHT_SQUARE": (0.87, 0.89, 0.92, 1), "DARK_SQUARE": (0.45, 0.55, 0.67, 1),
              "COORD_ON_LIGHT": (0.28, 0.36, 0.46, 1), "COORD_ON_DARK": (0.08, 0.11, 0.16, 1)},
}


def use_board(name: str) -> None:
    """Switch the board's square colours."""
    if name not in BOARDS:
        raise ValueError(f"no board colours {name!r} (known: {', '.join(BOARDS)})")
    globals().update(BOARDS[name])


# Text sizes: every size in sp (the .kv rules' "15sp", ``kivy.metrics.sp``) is scaled by
# Kivy's font scale, so this is the one place that makes all text larger. The device's
# own font scale (Android's text size setting) is kept and multiplied.
TEXT_SIZES: dict[str, float] = {"normal": 1.0, "large": 1.15, "larger": 1.3}
_system_fontscale: list[float] = []


def use_text_size(name: str) -> None:
    """Scale every text of the app (sizes in sp follow at once)."""
    if name not in TEXT_SIZES:
        raise ValueError(f"no text size {name!r} (known: {', '.join(TEXT_SIZES)})")
    from kivy.metrics import Metrics

    if not _system_fontscale:
        _system_fontscale.append(float(Metrics.fontscale))
    scale = _system_fontscale[0] * TEXT_SIZES[name]
    if abs(Metrics.fontscale - scale) > 1e-9:
        Metrics.fontscale = scale
