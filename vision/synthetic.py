"""A synthetic scene generator: camera pictures of a board with known contents.

It renders a board in one of several colour schemes under a random pinhole
camera, with white, black and blue pieces drawn as lit solids of revolution
that cast shadows, an optional hand and arm, corner markers, uneven light,
noise, blur and JPEG artefacts. Every picture comes with its truth: the
board's corners (a8, h8, h1, a1) and the colour on every square. The same
:class:`Scene` rendered twice differs only in sensor noise. The app's demo camera
(``ui.camera_feed.DemoCapture``) shows such a scene; the lab draws its training and
benchmark scenes (``lab.scenes``) and videos of whole games (``lab.videos``) with it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping

import chess
import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import BoardGeometry
from vision.markers import marker_image
from vision.piece_shapes import PROFILES as _PROFILES

Image = npt.NDArray[np.uint8]
Vec = npt.NDArray[np.float64]
BGR = tuple[int, int, int]

SCHEMES: dict[str, tuple[BGR, BGR, BGR]] = {
    # name: (light square, dark square, frame), BGR
    "wood": ((150, 200, 228), (60, 105, 160), (45, 80, 120)),
    "walnut": ((170, 210, 225), (50, 75, 105), (70, 95, 120)),
    "green": ((205, 235, 238), (85, 150, 118), (230, 235, 235)),
    "tournament": ((190, 225, 235), (70, 120, 175), (200, 225, 235)),
    "grey": ((215, 215, 215), (110, 110, 110), (60, 60, 60)),
    "brown": ((180, 205, 220), (40, 60, 95), (200, 215, 225)),
}


LABELS = {"white": "w", "black": "b", "blue": "u"}
_FLIP = np.array([1.0, -1.0, 1.0])


@dataclasses.dataclass(frozen=True)
class Camera:
    """A pinhole camera in board millimetres (board centre at the origin, z up)."""

    position: tuple[float, float, float]
    rotation: tuple[tuple[float, ...], ...]  # world -> camera rows
    focal: float
    size: tuple[int, int]  # width, height

    def project(self, points: Vec) -> Vec:
        """Board points (N, 3) -> image points (N, 2).

        Board coordinates run x along the files, y from rank 8 towards rank 1,
        z up; they are mirrored into a right-handed world before projecting.
        """
        rot = np.array(self.rotation)
        cam = (points * _FLIP - np.array(self.position)) @ rot.T
        z = np.maximum(cam[:, 2], 1e-6)
        w, h = self.size
        out = np.stack([self.focal * cam[:, 0] / z + w / 2,
                        self.focal * cam[:, 1] / z + h / 2], axis=1)
        return np.asarray(np.clip(out, -20 * w, 20 * w), np.float64)


@dataclasses.dataclass(frozen=True)
class Hand:
    """A hand and arm held flat above the board (millimetres, radians)."""

    x: float
    y: float
    height: float
    direction: float  # where the fingers point
    skin: BGR
    sleeve: BGR


@dataclasses.dataclass(frozen=True)
class Scene:
    """Everything needed to render one picture, except sensor noise."""

    camera: Camera
    scheme: str
    square_mm: float
    pieces: Mapping[chess.Square, tuple[str, int]]  # square -> (colour, piece type)
    piece_colors: Mapping[str, BGR]
    light: tuple[float, float, float]  # unit vector towards the light
    gradient: tuple[float, float, float]  # a, b, brightness
    tint: tuple[float, float, float]
    table: BGR
    noise: float
    blur: float
    jpeg_quality: int
    markers: bool = False
    hand: Hand | None = None
    shadow_strength: float = 0.45
    colours: tuple[BGR, BGR, BGR] | None = None  # (light, dark, frame): the scheme's when None
    grain: float | None = None  # wood stripes' strength: the scheme's (9 or 0) when None
    # where a piece stands off its square's centre, in squares (right, towards rank 1)
    offsets: Mapping[chess.Square, tuple[float, float]] = dataclasses.field(
        default_factory=dict)
    # marks printed flat inside squares (a kind of PRINT_KINDS each), as roll-up mats and
    # printed boards carry them: part of the board, so a square holding one is still empty
    prints: Mapping[chess.Square, str] = dataclasses.field(default_factory=dict)

    def geometry(self) -> BoardGeometry:
        """The true board corners (a8, h8, h1, a1) in the rendered image."""
        half = 4 * self.square_mm
        world = np.array([[-half, -half, 0], [half, -half, 0], [half, half, 0],
                          [-half, half, 0]], dtype=np.float64)
        pts = self.camera.project(world)
        return BoardGeometry(tuple((float(x), float(y)) for x, y in pts),  # type: ignore[arg-type]
                             self.camera.size)

    def grid(self) -> list[str]:
        """The true 8x8 grid, rank 8 first: '.', 'w', 'b', 'u'."""
        rows = []
        for rank in range(7, -1, -1):
            row = ""
            for file in range(8):
                piece = self.pieces.get(chess.square(file, rank))
                row += LABELS[piece[0]] if piece else "."
            rows.append(row)
        return rows

    def with_pieces(self, pieces: Mapping[chess.Square, tuple[str, int]],
                    hand: Hand | None = None) -> Scene:
        return dataclasses.replace(self, pieces=dict(pieces), hand=hand)


def look_at(position: Vec, target: Vec, up: Vec) -> tuple[tuple[float, ...], ...]:
    forward = target - position
    forward /= np.linalg.norm(forward)
    right = np.cross(forward, up)
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    return tuple(tuple(float(v) for v in row) for row in (right, down, forward))


def random_camera(rng: np.random.Generator, square_mm: float,
                  size: tuple[int, int] = (1280, 720), max_tilt_deg: float = 25.0,
                  margin_squares: float = 0.6, min_tilt_deg: float = 0.0,
                  distance_squares: tuple[float, float] | None = None,
                  focal_widths: tuple[float, float] = (0.7, 1.3)) -> Camera:
    """A camera above the table that sees the board and ``margin_squares`` around it,
    tilted ``min_tilt_deg`` to ``max_tilt_deg`` from straight down, ``distance_squares``
    (squares of the board; 11 to 20 when None) from the point it looks at, its focal
    length ``focal_widths`` of the picture's width."""
    w, h = size
    half = 4 * square_mm
    for attempt in range(1000):
        tilt = math.radians(rng.uniform(min_tilt_deg, max_tilt_deg))
        azimuth = rng.uniform(0, 2 * math.pi)
        if distance_squares is None:  # 11 to 20 squares, as first written
            distance = rng.uniform(550, 1000) * square_mm / 50
        else:
            distance = rng.uniform(*distance_squares) * square_mm
        position = np.array([math.sin(tilt) * math.cos(azimuth) * distance,
                             math.sin(tilt) * math.sin(azimuth) * distance,
                             math.cos(tilt) * distance])
        target = np.array([rng.uniform(-0.5, 0.5) * square_mm, rng.uniform(-0.5, 0.5) * square_mm,
                           0.0])
        spin = rng.uniform(0, 2 * math.pi)
        up = np.array([math.cos(spin), math.sin(spin), 0.0])
        if abs(np.dot(up, (target - position) / np.linalg.norm(target - position))) > 0.9:
            continue
        focal = rng.uniform(*focal_widths) * w
        camera = Camera(tuple(position), look_at(position, target, up), focal, size)
        m = half + margin_squares * square_mm
        outer = np.array([[-m, -m, 0], [m, -m, 0], [m, m, 0], [-m, m, 0]], dtype=np.float64)
        pts = camera.project(outer)
        inner = camera.project(outer * (half / m))
        span = np.ptp(inner, axis=0)
        if (pts.min() >= 0 and (pts[:, 0] < w).all() and (pts[:, 1] < h).all()
                and min(span) > (0.45 if attempt < 300 else 0.3) * h):
            return camera
    raise RuntimeError("could not place a camera that sees the board")


def random_pieces(rng: np.random.Generator, fraction: float, blue_share: float = 0.15,
                  kinds: tuple[int, ...] | None = None) -> dict[chess.Square, tuple[str, int]]:
    """Pieces on a random ``fraction`` of the squares, white, black or blue, of
    the types ``kinds`` (all six when None)."""
    pieces: dict[chess.Square, tuple[str, int]] = {}
    for square in chess.SQUARES:
        if rng.random() < fraction:
            roll = rng.random()
            colour = "blue" if roll < blue_share else ("white" if roll < (1 + blue_share) / 2
                                                       else "black")
            kind = int(rng.integers(1, 7)) if kinds is None \
                else kinds[int(rng.integers(len(kinds)))]
            pieces[square] = (colour, kind)
    return pieces


def random_hand(rng: np.random.Generator, square_mm: float) -> Hand:
    """A hand somewhere over the board, reaching in from outside."""
    skins: list[BGR] = [(150, 180, 225), (120, 150, 200), (90, 120, 170), (60, 85, 130),
                        (170, 195, 235)]
    sleeve = tuple(int(v) for v in rng.integers(20, 230, 3))
    return Hand(x=rng.uniform(-3.5, 3.5) * square_mm, y=rng.uniform(-3.5, 3.5) * square_mm,
                height=rng.uniform(1.8, 4.5) * square_mm, direction=rng.uniform(0, 2 * math.pi),
                skin=skins[int(rng.integers(len(skins)))], sleeve=sleeve)  # type: ignore[arg-type]


def random_scene(rng: np.random.Generator, *, fraction: float | None = None,
                 hand: bool = False, markers: bool | None = None,
                 size: tuple[int, int] = (1280, 720), max_tilt_deg: float = 25.0,
                 matched_colours: bool = False, min_tilt_deg: float = 0.0,
                 kinds: tuple[int, ...] | None = None,
                 distance_squares: tuple[float, float] | None = None,
                 focal_widths: tuple[float, float] = (0.7, 1.3)) -> Scene:
    """A random scene; ``fraction`` of squares occupied (random when None).

    ``matched_colours`` draws the black pieces from the dark squares' colours
    and the white ones from the light squares' (dark wood on walnut, boxwood on
    maple), the hardest case for a reader; it draws more random numbers after
    all the others, so the scenes without it are unchanged. ``min_tilt_deg``
    (the camera's least tilt from straight down), ``kinds`` (the piece types
    to draw from, all when None), ``distance_squares`` (how far the camera
    is from the board, in squares) and ``focal_widths`` (its focal length, in
    the picture's widths) leave the random stream as it is.
    """
    square_mm = rng.uniform(40, 57)
    scheme = list(SCHEMES)[int(rng.integers(len(SCHEMES)))]
    elevation = math.radians(rng.uniform(35, 75))
    azimuth = rng.uniform(0, 2 * math.pi)
    light = (math.cos(elevation) * math.cos(azimuth), math.cos(elevation) * math.sin(azimuth),
             math.sin(elevation))
    white = int(rng.integers(200, 245))
    piece_colors: dict[str, BGR] = {
        "white": (white - int(rng.integers(10, 40)), white - int(rng.integers(0, 15)), white),
        "black": tuple(int(v) for v in rng.integers(20, 55, 3)),  # type: ignore[dict-item]
        "blue": (int(rng.integers(170, 235)), int(rng.integers(70, 130)), int(rng.integers(0, 50))),
    }
    with_markers = bool(rng.random() < 0.5) if markers is None else markers
    scene = Scene(
        camera=random_camera(rng, square_mm, size, max_tilt_deg,
                             1.25 if with_markers else 0.6, min_tilt_deg, distance_squares,
                             focal_widths),
        scheme=scheme,
        square_mm=square_mm,
        pieces=random_pieces(rng, rng.uniform(0.0, 0.6) if fraction is None else fraction,
                             kinds=kinds),
        piece_colors=piece_colors,
        light=light,
        gradient=(rng.uniform(-0.35, 0.35), rng.uniform(-0.35, 0.35), rng.uniform(0.75, 1.15)),
        tint=tuple(rng.uniform(0.9, 1.1, 3)),
        table=tuple(int(v) for v in rng.integers(40, 220, 3)),  # type: ignore[arg-type]
        noise=rng.uniform(1.0, 5.0),
        blur=rng.uniform(0.0, 1.1),
        jpeg_quality=int(rng.integers(45, 95)),
        markers=with_markers,
        hand=random_hand(rng, square_mm) if hand else None,
        shadow_strength=rng.uniform(0.25, 0.55),
    )
    if not matched_colours:
        return scene
    light_sq, dark_sq, _ = SCHEMES[scheme]

    def near(colour: BGR, low: float, high: float) -> BGR:
        scale = rng.uniform(low, high) * rng.uniform(0.92, 1.08, 3)
        b, g, r = (int(v) for v in np.clip(np.array(colour) * scale, 0, 255))
        return b, g, r

    colours = {**piece_colors, "black": near(dark_sq, 0.5, 0.95), "white": near(light_sq, 0.9, 1.1)}
    return dataclasses.replace(scene, piece_colors=colours)


PRINT_KINDS = ("emblem", "letters", "ring")


def _draw_print(tex: Image, kind: str, square: chess.Square, corner: tuple[int, int],
                side: int, ink: BGR) -> None:
    """A mark of ``kind`` printed in ``ink`` inside the square whose top-left texture
    pixel is ``corner`` and whose side is ``side`` pixels."""
    x0, y0 = corner
    cx, cy = x0 + side / 2, y0 + side / 2
    if kind == "emblem":  # a diamond of 4 x 4 chequers, its cells alternately inked
        half = 0.3 * side
        ys, xs = np.mgrid[y0:y0 + side, x0:x0 + side].astype(np.float32)
        u = (xs - cx + ys - cy) / math.sqrt(2)
        v = (xs - cx - ys + cy) / math.sqrt(2)
        inside = (np.abs(u) < half) & (np.abs(v) < half)
        cells = (np.floor((u + half) / (half / 2)) + np.floor((v + half) / (half / 2))) % 2
        edge = inside & ((np.abs(u) > 0.88 * half) | (np.abs(v) > 0.88 * half))
        region = tex[y0:y0 + side, x0:x0 + side]
        region[(inside & (cells == 0)) | edge] = ink
    elif kind == "letters":  # the square's name, small, in its lower left corner
        scale = side / 75
        cv2.putText(tex, chess.square_name(square), (x0 + round(0.08 * side),
                                                      y0 + round(0.9 * side)),
                    cv2.FONT_HERSHEY_SIMPLEX, scale, ink, max(1, round(side / 30)),
                    cv2.LINE_AA)
    elif kind == "ring":
        cv2.circle(tex, (round(cx), round(cy)), round(0.3 * side), ink,
                   max(2, round(side / 14)), cv2.LINE_AA)
    else:
        raise ValueError(f"no printed mark of kind {kind!r} (one of {PRINT_KINDS})")


# Rendering ------------------------------------------------------------------

_TEX = 1.5  # texture pixels per millimetre


_TEXTURES: dict[tuple[object, ...], tuple[Image, float]] = {}
_TEXTURES_KEPT = 8  # the textures of the last few boards: a video renders one many times


def board_texture(scene: Scene) -> tuple[Image, float]:
    """The table, board and markers seen from straight above; returns (texture, half width
    mm). The same board (its size, colours, table, prints and markers) gives the same
    texture, kept (read-only) for the next pictures of it."""
    key = (scene.square_mm, scene.scheme, scene.colours, scene.table, scene.markers,
           scene.grain, tuple(sorted(scene.prints.items())))
    kept = _TEXTURES.get(key)
    if kept is None:
        kept = _draw_board_texture(scene)
        kept[0].flags.writeable = False
        if len(_TEXTURES) >= _TEXTURES_KEPT:
            del _TEXTURES[next(iter(_TEXTURES))]
        _TEXTURES[key] = kept
    return kept


def _draw_board_texture(scene: Scene) -> tuple[Image, float]:
    s = scene.square_mm
    half_mm = 4 * s + 2.2 * s
    size = int(2 * half_mm * _TEX)
    light, dark, frame = scene.colours or SCHEMES[scene.scheme]
    tex = np.empty((size, size, 3), np.uint8)
    tex[:] = scene.table

    def px(mm: float) -> int:
        return round((mm + half_mm) * _TEX)

    border = 0.55 * s
    cv2.rectangle(tex, (px(-4 * s - border), px(-4 * s - border)),
                  (px(4 * s + border), px(4 * s + border)), frame, -1)
    for row in range(8):
        for col in range(8):
            colour = light if (row + col) % 2 == 0 else dark
            cv2.rectangle(tex, (px((col - 4) * s), px((row - 4) * s)),
                          (px((col - 3) * s) - 1, px((row - 3) * s) - 1), colour, -1)
    for square, kind in scene.prints.items():
        col, row = chess.square_file(square), 7 - chess.square_rank(square)
        on_light = (row + col) % 2 == 0
        # the other squares' colour, or a dark ink (a square's own seed: drawn the same
        # every time the scene is rendered)
        dark_ink = np.random.default_rng(square).random() < 0.4
        ink = (35, 35, 40) if dark_ink and on_light else (dark if on_light else light)
        _draw_print(tex, kind, square, (px((col - 4) * s), px((row - 4) * s)),
                    px((col - 3) * s) - px((col - 4) * s), ink)
    if scene.markers:
        side = 0.75 * s
        cell = side / 6
        card = side + 2 * cell
        for index, (sx, sy) in enumerate(((-1, -1), (1, -1), (1, 1), (-1, 1))):
            cx, cy = sx * 4 * s, sy * 4 * s  # the board corner the card touches
            x0, x1 = sorted((cx, cx + sx * card))
            y0, y1 = sorted((cy, cy + sy * card))
            cv2.rectangle(tex, (px(x0), px(y0)), (px(x1), px(y1)), (245, 245, 245), -1)
            marker = marker_image(index, px(x1 - cell) - px(x0 + cell))
            mx, my = px(x0 + cell), px(y0 + cell)
            tex[my:my + marker.shape[0], mx:mx + marker.shape[1]] = marker[..., None]
    strength = (9.0 if scene.scheme in ("wood", "walnut", "brown") else 0.0) \
        if scene.grain is None else scene.grain
    if strength > 0:
        # Wood grain: fine stripes along each square, alternating direction.
        grain_rng = np.random.default_rng(int(s * 7919))
        stripes = grain_rng.normal(0, 1, (size,)).astype(np.float32)
        stripes = np.asarray(cv2.GaussianBlur(stripes.reshape(1, -1), (0, 0), 1.5).ravel()
                             * strength, np.float32)
        along_x = np.broadcast_to(stripes[:, None], (size, size))
        along_y = along_x.T
        checker = ((np.arange(size)[:, None] // int(s * _TEX)) + (np.arange(size)[None, :]
                                                                // int(s * _TEX))) % 2
        wood = np.where(checker == 0, along_x, along_y)
        tex = np.clip(tex.astype(np.float32) + wood[..., None], 0, 255).astype(np.uint8)
    # Grain: low-frequency brightness variation, like wood or paper.
    grain = cv2.resize(np.random.default_rng(int(s * 1000)).normal(0, 6, (24, 24)),
                       (size, size), interpolation=cv2.INTER_CUBIC)
    tex = np.clip(tex.astype(np.float32) + grain[..., None], 0, 255).astype(np.uint8)
    return tex, half_mm


_ANGLES = np.linspace(0, 2 * math.pi, 20, endpoint=False)
_COS, _SIN = np.cos(_ANGLES), np.sin(_ANGLES)


def _rings(cx: float, cy: float, zs: Vec, rs: Vec) -> Vec:
    """Horizontal circles (len(zs), 20, 3) of radii ``rs`` at heights ``zs``."""
    n = len(zs)
    out = np.empty((n, len(_ANGLES), 3))
    out[..., 0] = cx + rs[:, None] * _COS[None, :]
    out[..., 1] = cy + rs[:, None] * _SIN[None, :]
    out[..., 2] = zs[:, None]
    return out


def _project_rings(cam: Camera, rings: Vec) -> Vec:
    n, m, _ = rings.shape
    return cam.project(rings.reshape(-1, 3)).reshape(n, m, 2)


def square_centre(scene: Scene, square: chess.Square) -> tuple[float, float]:
    """Where a piece on ``square`` stands (its square's centre, unless the scene sets
    it off it), in board millimetres."""
    s = scene.square_mm
    col, row = chess.square_file(square), 7 - chess.square_rank(square)
    dx, dy = scene.offsets.get(square, (0.0, 0.0))
    return (col - 3.5 + dx) * s, (row - 3.5 + dy) * s


def _piece_slices(scene: Scene, kind: int) -> tuple[Vec, Vec]:
    """Heights and radii of the slices a piece is drawn from, bottom first."""
    profile = _PROFILES[kind]
    s = scene.square_mm
    heights = np.arange(0.0, profile[-1][0] * s, 1.5)
    radii = np.interp(heights, [p[0] * s for p in profile], [p[1] * s for p in profile])
    return heights, radii


def hand_polygons(scene: Scene, hand: Hand) -> list[tuple[Vec, BGR]]:
    s = scene.square_mm
    d = np.array([math.cos(hand.direction), math.sin(hand.direction)])
    n = np.array([-d[1], d[0]])
    centre = np.array([hand.x, hand.y])
    z = hand.height
    polys: list[tuple[Vec, BGR]] = []

    def poly(points: list[Vec], height: float | list[float], colour: BGR) -> None:
        zs = height if isinstance(height, list) else [height] * len(points)
        polys.append((np.array([[p[0], p[1], zz] for p, zz in zip(points, zs, strict=True)]),
                      colour))

    arm_len = 9 * s
    wrist = centre - d * 0.9 * s
    far = wrist - d * arm_len
    poly([wrist + n * 0.75 * s, wrist - n * 0.75 * s, far - n * 1.0 * s, far + n * 1.0 * s],
         [z, z, z + 3 * s, z + 3 * s], hand.sleeve)
    angles = np.linspace(0, 2 * math.pi, 20, endpoint=False)
    palm = [centre + d * 0.9 * s * math.cos(a) + n * 0.8 * s * math.sin(a) for a in angles]
    poly(palm, z, hand.skin)
    for offset in (-0.55, -0.18, 0.18, 0.55):
        base = centre + d * 0.7 * s + n * offset * s
        tip = base + d * 1.3 * s
        w = 0.17 * s
        poly([base + n * w, tip + n * w, tip - n * w, base - n * w], z - 0.2 * s, hand.skin)
    thumb_base = centre + n * 0.8 * s
    thumb_tip = thumb_base + (n * 0.8 + d * 0.6) * s
    poly([thumb_base + d * 0.2 * s, thumb_tip + d * 0.15 * s, thumb_tip - d * 0.15 * s,
          thumb_base - d * 0.2 * s], z - 0.2 * s, hand.skin)
    return polys


def render(scene: Scene, seed: int = 0) -> Image:
    """The picture of ``scene``; ``seed`` picks the sensor noise only."""
    rng = np.random.default_rng(seed)
    cam = scene.camera
    w, h = cam.size
    tex, half_mm = board_texture(scene)
    # Texture pixel -> world mm -> image.
    corners_tex = np.array([[0, 0], [tex.shape[1], 0], [tex.shape[1], tex.shape[0]],
                            [0, tex.shape[0]]], dtype=np.float32)
    world = np.array([[-half_mm, -half_mm, 0], [half_mm, -half_mm, 0], [half_mm, half_mm, 0],
                      [-half_mm, half_mm, 0]])
    dst = cam.project(world).astype(np.float32)
    hom = cv2.getPerspectiveTransform(corners_tex, dst)
    image = cv2.warpPerspective(tex, hom, (w, h), flags=cv2.INTER_AREA,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=scene.table)
    light = np.array(scene.light)

    # Shadows on the board.
    shadow = np.zeros((h, w), np.float32)
    for square, (_, kind) in scene.pieces.items():
        cx, cy = square_centre(scene, square)
        zs, rs = _piece_slices(scene, kind)
        rings = _rings(cx, cy, zs[::2], rs[::2])
        ground = rings - (rings[..., 2:3] / light[2]) * light
        ground[..., 2] = 0
        for ring in np.round(_project_rings(cam, ground) * 16).astype(np.int32):
            cv2.fillConvexPoly(shadow, ring, 1.0, cv2.LINE_AA, 4)
    hand_polys = hand_polygons(scene, scene.hand) if scene.hand else []
    hand_shadow = np.zeros((h, w), np.float32)
    for pts, _ in hand_polys:
        ground = pts - (pts[:, 2:3] / light[2]) * light[None, :]
        ground[:, 2] = 0
        cv2.fillPoly(hand_shadow, [np.round(cam.project(ground)).astype(np.int32)], 1.0)
    k = max(3, int(w / 250) | 1)
    shadow = np.asarray(cv2.GaussianBlur(shadow, (k, k), 0), np.float32)
    hand_shadow = np.asarray(cv2.GaussianBlur(hand_shadow, (4 * k + 1, 4 * k + 1), 0), np.float32)
    darken = 1 - scene.shadow_strength * np.clip(shadow + 0.7 * hand_shadow, 0, 1)
    image = (image.astype(np.float32) * darken[..., None]).astype(np.uint8)

    # Pieces, far from the camera first.
    camera_pos = np.array(cam.position) * _FLIP
    order = sorted(scene.pieces.items(), key=lambda item: -np.linalg.norm(
        np.array([*square_centre(scene, item[0]), 0.0]) - camera_pos))
    for square, (colour_name, kind) in order:
        base = np.array(scene.piece_colors[colour_name], dtype=np.float32)
        cx, cy = square_centre(scene, square)
        zs, rs = _piece_slices(scene, kind)
        keep = rs > 0.3
        slope = np.maximum(rs - np.append(rs[1:], 0.0), 0) / 1.5  # >0 where it faces up
        up_light = 0.62 + 0.25 * np.minimum(slope, 1.5) / 1.5 + 0.15 * light[2]
        body = np.round(_project_rings(cam, _rings(cx, cy, zs, rs)) * 16).astype(np.int32)
        lit_rings = _rings(0, 0, zs, 0.6 * rs)
        lit_rings[..., 0] += cx + light[0] * 0.35 * rs[:, None]
        lit_rings[..., 1] += cy + light[1] * 0.35 * rs[:, None]
        lit = np.round(_project_rings(cam, lit_rings) * 16).astype(np.int32)
        # Contact shadow: the base sits in a thin dark ring on the board.
        contact = np.round(_project_rings(cam, _rings(cx, cy, zs[:1], rs[:1] * 1.06)) * 16)
        cv2.fillConvexPoly(image, contact[0].astype(np.int32),
                           tuple(float(v) * 0.5 for v in image[
                               int(np.clip(contact[0, 0, 1] / 16, 0, h - 1)),
                               int(np.clip(contact[0, 0, 0] / 16, 0, w - 1))]),
                           cv2.LINE_AA, 4)
        outline = tuple(float(v) for v in np.clip(base * 0.45, 0, 255))
        for i in np.flatnonzero(keep):
            dark = tuple(float(v) for v in np.clip(base * up_light[i], 0, 255))
            cv2.polylines(image, [body[i]], True, outline, 1, cv2.LINE_AA, 4)
            bright = tuple(float(v) for v in np.clip(base * min(up_light[i] * 1.15, 1.1) + 12,
                                                     0, 255))
            cv2.fillConvexPoly(image, body[i], dark, cv2.LINE_AA, 4)
            cv2.fillConvexPoly(image, lit[i], bright, cv2.LINE_AA, 4)

    for pts, colour in hand_polys:
        shade = np.array(colour, np.float32) * (0.8 + 0.2 * light[2])
        cv2.fillPoly(image, [np.round(cam.project(pts) * 16).astype(np.int32)],
                     tuple(float(v) for v in shade), cv2.LINE_AA, 4)

    # Light: a gradient across the picture, a colour cast, then the sensor.
    a, b, brightness = scene.gradient
    xs = np.linspace(-0.5, 0.5, w, dtype=np.float32)[None, :]
    ys = np.linspace(-0.5, 0.5, h, dtype=np.float32)[:, None]
    gain = brightness * (1 + a * xs + b * ys)
    out = image.astype(np.float32) * gain[..., None] * np.array(scene.tint, np.float32)
    if scene.blur > 0.2:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), scene.blur), out.dtype)
    out += rng.normal(0, scene.noise, out.shape).astype(np.float32)
    result = np.clip(out, 0, 255).astype(np.uint8)
    _ok, encoded = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg_quality])
    return np.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR), dtype=np.uint8)
