"""Chess pieces drawn from DejaVuSans glyphs: a solid glyph in the fill colour
under the outline glyph in the line colour. Textures are rendered once per
glyph and size and tinted at draw time."""

from __future__ import annotations

import functools
import logging
import os

import chess
import kivy
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Rectangle
from kivy.graphics.instructions import InstructionGroup
from kivy.graphics.texture import Texture

from ui import theme

LOGGER = logging.getLogger(__name__)

FONT = os.path.join(os.path.dirname(kivy.__file__), "data", "fonts", "DejaVuSans.ttf")

OUTLINE = {chess.KING: "\u2654", chess.QUEEN: "\u2655", chess.ROOK: "\u2656",
           chess.BISHOP: "\u2657", chess.KNIGHT: "\u2658", chess.PAWN: "\u2659"}
SOLID = {chess.KING: "\u265a", chess.QUEEN: "\u265b", chess.ROOK: "\u265c",
         chess.BISHOP: "\u265d", chess.KNIGHT: "\u265e", chess.PAWN: "\u265f"}
JOKER_GLYPH = "\u2605"  # a star


@functools.lru_cache(maxsize=256)
def glyph_texture(glyph: str, size: int) -> Texture:
    """A white texture of one glyph at ``size`` pixels, for tinting."""
    label = CoreLabel(text=glyph, font_name=FONT, font_size=max(4, size))
    label.refresh()
    texture: Texture = label.texture
    return texture


def piece_instructions(piece_type: chess.PieceType, color: chess.Color, blue: bool,
                       center: tuple[float, float], size: float,
                       *, shadow: bool = True) -> InstructionGroup:
    """Canvas instructions drawing one piece centred on ``center``."""
    fill, line = theme.piece_palette(color, blue)
    solid = glyph_texture(SOLID[piece_type], int(size))
    outline = glyph_texture(OUTLINE[piece_type], int(size))
    x = center[0] - solid.width / 2
    y = center[1] - solid.height / 2
    group = InstructionGroup()
    if shadow:
        offset = max(1.0, size / 40)
        group.add(Color(0, 0, 0, 0.28))
        group.add(Rectangle(texture=solid, pos=(x + offset, y - offset), size=solid.size))
    group.add(Color(*fill))
    group.add(Rectangle(texture=solid, pos=(x, y), size=solid.size))
    group.add(Color(*line))
    group.add(Rectangle(texture=outline, pos=(x, y), size=outline.size))
    return group


def piece_symbol_text(piece_type: chess.PieceType) -> str:
    """The solid glyph, for a plain label (deck counts, pickers)."""
    return SOLID[piece_type]
