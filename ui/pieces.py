"""Chess pieces from the Cburnett vector set (``ui/assets/pieces/cburnett``, BSD licence,
credited in its README), rendered to textures: ``ui/assets/pieces/render.py`` turns each
SVG into a 160-pixel PNG (and a recoloured one for the blue, promoted pieces: White's
light blue with a navy outline, Black's deep blue with a black outline), and the app
draws them with mipmaps so they stay smooth at every square size. Also plain glyph
textures for short texts drawn on a canvas.
"""

from __future__ import annotations

import functools
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

import kivy
from kivy.core.image import Image as CoreImage
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Rectangle
from kivy.graphics.instructions import InstructionGroup
from kivy.graphics.texture import Texture

if TYPE_CHECKING:
    import chess

LOGGER = logging.getLogger(__name__)

FONT = os.path.join(os.path.dirname(kivy.__file__), "data", "fonts", "DejaVuSans.ttf")
PIECE_DIR = Path(__file__).parent / "assets" / "pieces" / "png"

# python-chess piece types (chess.PAWN == 1 ... chess.KING == 6), without importing
# python-chess at start (its attack tables take a moment to build).
NAMES = {1: "pawn", 2: "knight", 3: "bishop", 4: "rook", 5: "queen", 6: "king"}
JOKER_GLYPH = "\u2605"  # a star


@functools.lru_cache(maxsize=256)
def glyph_texture(glyph: str, size: int) -> Texture:
    """A white texture of one glyph (or a short text) at ``size`` pixels, for tinting."""
    label = CoreLabel(text=glyph, font_name=FONT, font_size=max(4, size))
    label.refresh()
    texture: Texture = label.texture
    return texture


def piece_path(piece_type: int, color: bool, blue: bool) -> Path:
    """The PNG of one piece (``color``: True for White)."""
    side = "white" if color else "black"
    return PIECE_DIR / f"{side}-{NAMES[piece_type]}{'-blue' if blue else ''}.png"


@functools.lru_cache(maxsize=24)
def piece_texture(piece_type: int, color: bool, blue: bool) -> Texture:
    """One piece's texture (loaded once, with mipmaps for smooth small sizes)."""
    texture: Texture = CoreImage(str(piece_path(piece_type, color, blue)), mipmap=False).texture
    texture.mag_filter = "linear"
    texture.min_filter = "linear"
    return texture


def piece_instructions(piece_type: chess.PieceType, color: chess.Color, blue: bool,
                       center: tuple[float, float], size: float,
                       *, shadow: bool = True) -> InstructionGroup:
    """Canvas instructions drawing one piece centred on ``center``, ``size`` wide."""
    texture = piece_texture(int(piece_type), bool(color), bool(blue))
    x, y = center[0] - size / 2, center[1] - size / 2
    group = InstructionGroup()
    if shadow:
        offset = max(1.0, size / 40)
        group.add(Color(0, 0, 0, 0.22))
        group.add(Rectangle(texture=texture, pos=(x + offset, y - offset), size=(size, size)))
    group.add(Color(1, 1, 1, 1))
    group.add(Rectangle(texture=texture, pos=(x, y), size=(size, size)))
    return group
