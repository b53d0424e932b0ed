"""Render the two piece sets to the PNG textures the app draws (run after changing a set
or its blue colours; needs ImageMagick with an SVG reader, and DejaVu Sans, which Kivy
ships):

    python ui/assets/pieces/render.py

Writes ``png/{white,black}-{piece}[-blue].png`` beside this file: the Cburnett drawings
as they are, and recoloured for the blue (promoted) pieces: White's light blue with a
navy outline, Black's deep blue with light-blue details. And the same twelve names in
``dejavu/``: the Unicode chess glyphs of DejaVu Sans, their outline drawn and the inside
filled (white with black lines, black with light-grey lines, and the same blues).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
SOURCE = HERE / "cburnett"
OUT = HERE / "png"
GLYPH_OUT = HERE / "dejavu"
# The outline glyphs (WHITE CHESS KING ... WHITE CHESS PAWN); the inside is filled here.
GLYPHS = {"king": "\u2654", "queen": "\u2655", "rook": "\u2656", "bishop": "\u2657",
          "knight": "\u2658", "pawn": "\u2659"}
# (fill, lines) of each glyph piece: the theme's piece palette, the blues of the SVGs.
GLYPH_COLOURS = {
    ("white", False): ("#ffffff", "#000000"),
    ("black", False): ("#1c1c1f", "#d0d0d0"),
    ("white", True): ("#8ccfff", "#062a63"),
    ("black", True): ("#1f52dd", "#d4e6ff"),
}
GLYPH_HEIGHT = 132  # pixels of the 160: every DejaVu piece is as tall as the king
SIZE = 160  # pixels: a square of the largest board (1920x1200) is 148

NAMES = ("pawn", "knight", "bishop", "rook", "queen", "king")
# (attribute, old colour) -> new colour. Black's blue pieces keep their black outline.
BLUE = {
    "white": {("fill", "#ffffff"): "#8ccfff", ("fill", "#ececec"): "#8ccfff",
              ("stroke", "#000000"): "#062a63", ("fill", "#000000"): "#062a63",
              ("stroke", "#ececec"): "#8ccfff", ("stroke", "#ffffff"): "#8ccfff"},
    "black": {("fill", "#000000"): "#1f52dd", ("fill", "#ececec"): "#d4e6ff",
              ("stroke", "#ececec"): "#d4e6ff", ("fill", "#ffffff"): "#d4e6ff",
              ("stroke", "#ffffff"): "#d4e6ff"},
}


def recolour(svg: str, colours: dict[tuple[str, str], str]) -> str:
    for (attribute, old), new in colours.items():
        svg = svg.replace(f'{attribute}="{old}"', f'{attribute}="{new}"')
    return svg


def render(svg: str, target: Path, convert: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "piece.svg"
        source.write_text(svg, encoding="utf-8")
        subprocess.run([convert, "-background", "none", "-density", "1200", str(source),
                        "-resize", f"{SIZE}x{SIZE}", "-strip", f"PNG32:{target}"],
                       check=True)


def dejavu_font() -> Path:
    """Kivy's copy of DejaVu Sans (found without importing Kivy)."""
    import importlib.util

    spec = importlib.util.find_spec("kivy")
    assert spec is not None and spec.origin is not None, "Kivy is needed for its DejaVu Sans"
    return Path(spec.origin).parent / "data" / "fonts" / "DejaVuSans.ttf"


def render_glyph(glyph: str, fill: str, lines: str, target: Path, convert: str) -> None:
    """The glyph's lines on a ``fill`` ground, the outside flood-filled away."""
    subprocess.run([convert, "-background", fill, "-fill", lines, "-font", str(dejavu_font()),
                    "-pointsize", "200", f"label:{glyph}", "-bordercolor", fill, "-border", "8",
                    "-fuzz", "40%", "-fill", "none", "-draw", "color 0,0 floodfill",
                    "-trim", "+repage", "-resize", f"{GLYPH_HEIGHT}x{GLYPH_HEIGHT}",
                    "-gravity", "center", "-background", "none", "-extent", f"{SIZE}x{SIZE}",
                    "-strip", f"PNG32:{target}"], check=True)


def main() -> int:
    convert = shutil.which("magick") or shutil.which("convert")
    if convert is None:
        print("ImageMagick (convert) is needed", file=sys.stderr)
        return 1
    OUT.mkdir(exist_ok=True)
    for side in ("white", "black"):
        for name in NAMES:
            svg = (SOURCE / f"{side}-{name}.svg").read_text(encoding="utf-8")
            render(svg, OUT / f"{side}-{name}.png", convert)
            render(recolour(svg, BLUE[side]), OUT / f"{side}-{name}-blue.png", convert)
    print(f"wrote {len(list(OUT.glob('*.png')))} PNGs to {OUT}")
    GLYPH_OUT.mkdir(exist_ok=True)
    for (side, blue), (fill, lines) in GLYPH_COLOURS.items():
        for name, glyph in GLYPHS.items():
            target = GLYPH_OUT / f"{side}-{name}{'-blue' if blue else ''}.png"
            render_glyph(glyph, fill, lines, target, convert)
    print(f"wrote {len(list(GLYPH_OUT.glob('*.png')))} PNGs to {GLYPH_OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
