"""Render the vector pieces to the PNG textures the app draws (run after changing the set
or its blue colours; needs ImageMagick with an SVG reader):

    python ui/assets/pieces/render.py

Writes ``png/{white,black}-{piece}[-blue].png`` beside this file: the Cburnett drawings
as they are, and recoloured for the blue (promoted) pieces: White's light blue with a
navy outline, Black's deep blue with light-blue details.
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
