"""The pieces' shapes, shared by the two scene renderers (:mod:`vision.synthetic` and
:mod:`lab.render_blender`): each piece type's profile, a solid of revolution.

No OpenCV here: the Blender renderer runs in an environment of its own (Blender's
``bpy`` wants numpy 1.x, this project's OpenCV numpy 2).
"""

from __future__ import annotations

import chess

# Profiles (height, radius) in units of one square, per piece type, bottom first.
PROFILES: dict[int, list[tuple[float, float]]] = {
    chess.PAWN: [(0, .32), (.08, .32), (.12, .22), (.45, .13), (.52, .2), (.62, .2), (.75, .1),
                 (.8, 0)],
    chess.ROOK: [(0, .36), (.1, .36), (.15, .25), (.75, .22), (.8, .3), (1.0, .3), (1.02, 0)],
    chess.KNIGHT: [(0, .36), (.1, .36), (.15, .25), (.55, .18), (.75, .28), (.95, .22),
                   (1.1, .1), (1.12, 0)],
    chess.BISHOP: [(0, .36), (.1, .36), (.15, .24), (.8, .14), (.9, .22), (1.1, .2),
                   (1.25, .08), (1.3, 0)],
    chess.QUEEN: [(0, .38), (.1, .38), (.16, .26), (1.05, .16), (1.15, .3), (1.4, .26),
                  (1.5, 0)],
    chess.KING: [(0, .38), (.1, .38), (.16, .26), (1.15, .17), (1.25, .3), (1.5, .25),
                 (1.62, .08), (1.72, .08), (1.75, 0)],
}
