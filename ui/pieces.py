"""Chess pieces, rendered to textures by ``ui/assets/pieces/render.py``, in two sets
(the settings' choice, :func:`use_piece_set`):

- ``cburnett``: the Cburnett vector set (``ui/assets/pieces/cburnett``, BSD licence,
  credited in its README), each SVG turned into a 160-pixel PNG (and a recoloured one
  for the blue, promoted pieces: White's light blue with a navy outline, Black's deep
  blue with light details);
- ``dejavu``: the Unicode chess glyphs of DejaVu Sans (``ui/assets/pieces/dejavu``,
  the DejaVu fonts' free licence, credited in its README), filled white, black and
  the same blues.

The app draws them smoothed so they stay clear at every square size. Also plain glyph
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
from kivy.event import EventDispatcher
from kivy.graphics import Color, Rectangle
from kivy.graphics.instructions import InstructionGroup
from kivy.graphics.texture import Texture
from kivy.properties import StringProperty

if TYPE_CHECKING:
    import chess

LOGGER = logging.getLogger(__name__)

FONT = os.path.join(os.path.dirname(kivy.__file__), "data", "fonts", "DejaVuSans.ttf")
PIECE_DIR = Path(__file__).parent / "assets" / "pieces" / "png"
PIECE_SETS = {"cburnett": PIECE_DIR, "dejavu": PIECE_DIR.parent / "dejavu"}


class _PieceSet(EventDispatcher):  # type: ignore[misc]
    """The piece set in use; widgets that draw pieces bind to ``name`` to redraw."""

    name = StringProperty("cburnett")


PIECE_SET = _PieceSet()

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


def use_piece_set(name: str) -> None:
    """Draw the pieces from now on from the set called ``name`` (``PIECE_SETS``)."""
    if name not in PIECE_SETS:
        raise ValueError(f"no piece set {name!r} (known: {', '.join(PIECE_SETS)})")
    PIECE_SET.name = name


def piece_set() -> str:
    return str(PIECE_SET.name)


def piece_path(piece_type: int, color: bool, blue: bool, name: str | None = None) -> Path:
    """The PNG of one piece (``color``: True for White) in the set ``name`` (default:
    the one in use)."""
    side = "white" if color else "black"
    folder = PIECE_SETS[name or PIECE_SET.name]
    return folder / f"{side}-{NAMES[piece_type]}{'-blue' if blue else ''}.png"


def piece_texture(piece_type: int, color: bool, blue: bool) -> Texture:
    """One piece's texture in the set in use (each file loaded once)."""
    return _texture(piece_path(piece_type, color, blue))


@functools.lru_cache(maxsize=48)
def _texture(path: Path) -> Texture:
    texture: Texture = CoreImage(str(path), mipmap=False).texture
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
