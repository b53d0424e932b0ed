"""Synthetic pictures of Go boards and chessboards with stones, with their truth.

A :class:`StoneScene` is a board (Go board of N x M points, or a chessboard of
cells) in one of several woods or colour schemes, seen by a random pinhole
camera 30 to 90 degrees above the board, with black and white stones drawn as
lit lenses that cast shadows (glossy slate with glare, matt stones, shell
stones with stripes, glass), each placed a little off its point, an optional
hand and arm, corner markers, uneven light, noise, blur and JPEG artefacts.
The same scene rendered twice differs only in sensor noise; :func:`game_video`
makes the frames of a whole game with a hand placing every turn.
"""

from __future__ import annotations

import dataclasses
import math
import zlib
from collections.abc import Mapping, Sequence

import cv2
import numpy as np
import numpy.typing as npt

from vision.grid import GridGeometry, GridSpec
from vision.markers import marker_image
from vision.synthetic import Camera, Hand, hand_polygons, look_at, random_hand

Image = npt.NDArray[np.uint8]
Vec = npt.NDArray[np.float64]
BGR = tuple[int, int, int]

# Go board woods (BGR): kaya, shin-kaya (spruce), bamboo, katsura, a printed vinyl board.
WOODS: dict[str, BGR] = {
    "kaya": (95, 175, 215),
    "shinkaya": (120, 190, 225),
    "bamboo": (110, 170, 200),
    "katsura": (80, 140, 190),
    "vinyl": (120, 200, 230),
}
# Chessboards for stones (light square, dark square, frame): no grey boards,
# whose light squares have no colour to tell a white stone from.
CHESS_SCHEMES: dict[str, tuple[BGR, BGR, BGR]] = {
    "wood": ((150, 200, 228), (60, 105, 160), (45, 80, 120)),
    "walnut": ((170, 210, 225), (50, 75, 105), (70, 95, 120)),
    "tournament": ((170, 215, 235), (70, 120, 175), (200, 225, 235)),
}
# Left out: boards whose light squares are as white as a white stone ("green",
# cream): the reader tells a white stone by its colour and light, not its outline.
STYLES = ("slate-shell", "glass", "matt", "yunzi")
_FLIP = np.array([1.0, -1.0, 1.0])


@dataclasses.dataclass(frozen=True)
class StoneScene:
    """Everything needed to render one picture, except sensor noise.

    World millimetres: the grid's corner quadrilateral is centred on the
    origin, x to the right, y down the rows, z up.
    """

    spec: GridSpec
    camera: Camera
    pitch: tuple[float, float]  # mm between points (x, y)
    board: str  # a WOODS or CHESS_SCHEMES name
    stones: Mapping[tuple[int, int], str]  # (row, col) -> "b" / "w"
    offsets: Mapping[tuple[int, int], tuple[float, float]]  # in pitches
    style: str
    stone_radius: float  # in pitches (x)
    stone_height: float  # in pitches (x)
    black: BGR
    white: BGR
    light: tuple[float, float, float]
    gradient: tuple[float, float, float]
    tint: tuple[float, float, float]
    table: BGR
    noise: float
    blur: float
    jpeg_quality: int
    shadow_strength: float
    markers: bool = False
    hand: Hand | None = None

    @property
    def square_mm(self) -> float:
        """The hand's scale (it was made for chess squares of about 50 mm)."""
        return 50.0

    def half(self) -> tuple[float, float]:
        sx, sy = self.spec.span
        return sx * self.pitch[0] / 2, sy * self.pitch[1] / 2

    def place_xy(self, row: int, col: int) -> tuple[float, float]:
        hx, hy = self.half()
        off = 0.0 if self.spec.kind == "points" else 0.5
        return (-hx + (col + off) * self.pitch[0], -hy + (row + off) * self.pitch[1])

    def geometry(self) -> GridGeometry:
        hx, hy = self.half()
        world = np.array([[-hx, -hy, 0], [hx, -hy, 0], [hx, hy, 0], [-hx, hy, 0]], np.float64)
        pts = self.camera.project(world)
        return GridGeometry(self.spec, tuple((float(x), float(y)) for x, y in pts),  # type: ignore[arg-type]
                            self.camera.size)

    def grid(self) -> tuple[str, ...]:
        return tuple("".join(self.stones.get((r, c), ".") for c in range(self.spec.cols))
                     for r in range(self.spec.rows))

    def with_stones(self, stones: Mapping[tuple[int, int], str], rng: np.random.Generator,
                    hand: Hand | None = None) -> StoneScene:
        """The same scene with other stones: stones that stay keep their offsets."""
        offsets = {place: self.offsets[place] if place in self.offsets
                   and self.stones.get(place) == colour else _offset(rng, self.spec)
                   for place, colour in stones.items()}
        return dataclasses.replace(self, stones=dict(stones), offsets=offsets, hand=hand)


def _offset(rng: np.random.Generator, spec: GridSpec) -> tuple[float, float]:
    reach = 0.12 if spec.kind == "points" else 0.1
    return float(rng.uniform(-reach, reach)), float(rng.uniform(-reach, reach))


def random_camera(rng: np.random.Generator, half: tuple[float, float], margin: float,
                  size: tuple[int, int], min_elevation: float = 30.0) -> Camera:
    """A camera at ``min_elevation``..90 degrees above the board that sees it all."""
    w, h = size
    hx, hy = half
    for attempt in range(2000):
        elevation = math.radians(rng.uniform(min_elevation, 90.0))
        tilt = math.pi / 2 - elevation
        # The player's side (the bottom rows; the world's y is mirrored) faces the camera.
        azimuth = -math.pi / 2 + rng.uniform(-0.6, 0.6)
        focal = rng.uniform(0.7, 1.3) * w
        # The board fills a half to nine tenths of the picture's height.
        distance = focal * 2 * max(hx + margin, hy + margin) / (rng.uniform(0.6, 1.0) * h)
        position = np.array([math.sin(tilt) * math.cos(azimuth) * distance,
                             math.sin(tilt) * math.sin(azimuth) * distance,
                             math.cos(tilt) * distance])
        target = np.array([rng.uniform(-0.1, 0.1) * hx, rng.uniform(-0.1, 0.1) * hy, 0.0])
        spin = math.pi / 2 + rng.uniform(-0.3, 0.3)
        up = np.array([math.cos(spin), math.sin(spin), 0.0])
        forward = (target - position) / np.linalg.norm(target - position)
        if abs(np.dot(up, forward)) > 0.95:
            up = np.array([0.0, -1.0, 0.0]) if abs(forward[1]) < 0.9 else np.array([1.0, 0, 0])
        camera = Camera(tuple(position), look_at(position, target, up), focal, size)
        mx, my = hx + margin, hy + margin
        outer = np.array([[-mx, -my, 0], [mx, -my, 0], [mx, my, 0], [-mx, my, 0]], np.float64)
        pts = camera.project(outer)
        inner = camera.project(np.array([[-hx, -hy, 0], [hx, -hy, 0], [hx, hy, 0],
                                         [-hx, hy, 0]], np.float64))
        span = np.ptp(inner, axis=0)
        order_ok = _clockwise_from_top_left(inner)
        if (pts.min() >= 0 and (pts[:, 0] < w).all() and (pts[:, 1] < h).all()
                and min(span) > (0.5 if attempt < 1000 else 0.3) * h and order_ok):
            return camera
    raise RuntimeError("could not place a camera that sees the board")


def _clockwise_from_top_left(pts: Vec) -> bool:
    """The grid's top-left corner is also the picture's top-left-most (the player's view)."""
    return int(np.argmin(pts.sum(axis=1))) == 0 and int(np.argmax(pts.sum(axis=1))) == 2


def random_stones(rng: np.random.Generator, spec: GridSpec, fraction: float
                  ) -> dict[tuple[int, int], str]:
    stones: dict[tuple[int, int], str] = {}
    for r in range(spec.rows):
        for c in range(spec.cols):
            if rng.random() < fraction:
                stones[(r, c)] = "b" if rng.random() < 0.5 else "w"
    return stones


def random_stone_scene(rng: np.random.Generator, spec: GridSpec, *,
                       fraction: float | None = None, size: tuple[int, int] | None = None,
                       hand: bool = False, markers: bool | None = None,
                       min_elevation: float = 30.0) -> StoneScene:
    """A random scene of ``spec`` with a random ``fraction`` of places holding stones.

    ``size`` defaults to 1280 x 720 for boards of more than 13 lines, else 640 x 360.
    """
    if size is None:
        size = (1280, 720) if max(spec.cols, spec.rows) > 13 else (640, 360)
    if spec.kind == "points":
        pitch_x = 22.0
        pitch = (pitch_x, pitch_x * rng.uniform(1.0, 1.08))
        board = list(WOODS)[int(rng.integers(len(WOODS)))]
        radius = rng.uniform(0.45, 0.49)
        height = rng.uniform(0.25, 0.42)
        margin = 1.0 * pitch_x
    else:
        side = rng.uniform(40, 57)
        pitch = (side, side)
        board = list(CHESS_SCHEMES)[int(rng.integers(len(CHESS_SCHEMES)))]
        radius = rng.uniform(0.3, 0.4)
        height = rng.uniform(0.1, 0.18)
        margin = 0.6 * side
    with_markers = bool(rng.random() < 0.3) if markers is None else markers
    if with_markers:
        margin += 1.2 * pitch[0] if spec.kind == "points" else 0.7 * pitch[0]
    sx, sy = spec.span
    half = (sx * pitch[0] / 2, sy * pitch[1] / 2)
    elevation = math.radians(rng.uniform(35, 75))
    azimuth = rng.uniform(0, 2 * math.pi)
    light = (math.cos(elevation) * math.cos(azimuth), math.cos(elevation) * math.sin(azimuth),
             math.sin(elevation))
    style = STYLES[int(rng.integers(len(STYLES)))]
    black = tuple(int(v) for v in rng.integers(15, 50, 3))
    white_level = int(rng.integers(205, 245))
    white = (white_level - int(rng.integers(0, 25)), white_level - int(rng.integers(0, 12)),
             white_level)
    stones = random_stones(rng, spec, rng.uniform(0.0, 0.6) if fraction is None else fraction)
    scene = StoneScene(
        spec=spec,
        camera=random_camera(rng, half, margin, size, min_elevation),
        pitch=pitch, board=board, stones=stones,
        offsets={place: _offset(rng, spec) for place in stones},
        style=style, stone_radius=radius, stone_height=height,
        black=black, white=white,  # type: ignore[arg-type]
        light=light,
        gradient=(rng.uniform(-0.35, 0.35), rng.uniform(-0.35, 0.35), rng.uniform(0.75, 1.15)),
        tint=tuple(rng.uniform(0.9, 1.1, 3)),
        table=tuple(int(v) for v in rng.integers(40, 220, 3)),  # type: ignore[arg-type]
        noise=rng.uniform(1.0, 4.0), blur=rng.uniform(0.0, 1.0),
        jpeg_quality=int(rng.integers(55, 95)),
        shadow_strength=rng.uniform(0.25, 0.5), markers=with_markers,
    )
    if hand:
        scene = dataclasses.replace(scene, hand=_hand_for(rng, scene))
    return scene


def _hand_for(rng: np.random.Generator, scene: StoneScene) -> Hand:
    hx, hy = scene.half()
    base = random_hand(rng, 50.0)
    return dataclasses.replace(base, x=rng.uniform(-0.8, 0.8) * hx, y=rng.uniform(-0.8, 0.8) * hy,
                               height=rng.uniform(60, 160))


# Rendering -------------------------------------------------------------------

_TEX = 3.0  # texture pixels per millimetre


_TEXTURES: dict[tuple[object, ...], tuple[Image, float, float]] = {}
_TEXTURES_KEPT = 8  # the textures of the last few boards: a video renders one many times


def _texture(scene: StoneScene, tex_per_mm: float) -> tuple[Image, float, float]:
    """The table, board, lines and markers from straight above; (texture, half w, half h).
    The same board gives the same texture, kept (read-only) for its next pictures."""
    key = (scene.spec, scene.pitch, scene.board, scene.table, scene.markers, tex_per_mm)
    kept = _TEXTURES.get(key)
    if kept is None:
        kept = _draw_texture(scene, tex_per_mm)
        kept[0].flags.writeable = False
        if len(_TEXTURES) >= _TEXTURES_KEPT:
            del _TEXTURES[next(iter(_TEXTURES))]
        _TEXTURES[key] = kept
    return kept


def _draw_texture(scene: StoneScene, tex_per_mm: float) -> tuple[Image, float, float]:
    hx, hy = scene.half()
    px_, py_ = scene.pitch
    border = (0.9 * px_, 0.9 * py_) if scene.spec.kind == "points" else (0.55 * px_, 0.55 * py_)
    extra = 2.2 * max(px_, py_) if scene.markers else 0.6 * max(px_, py_)
    half_w = hx + border[0] + extra
    half_h = hy + border[1] + extra
    width, height = int(2 * half_w * tex_per_mm), int(2 * half_h * tex_per_mm)
    tex = np.empty((height, width, 3), np.uint8)
    tex[:] = scene.table
    seed = zlib.crc32(f"{scene.board} {px_:.3f}".encode())
    grain_rng = np.random.default_rng(seed)

    def pt(x: float, y: float) -> tuple[int, int]:
        return round((x + half_w) * tex_per_mm), round((y + half_h) * tex_per_mm)

    if scene.spec.kind == "points":
        wood = WOODS[scene.board]
        cv2.rectangle(tex, pt(-hx - border[0], -hy - border[1]), pt(hx + border[0], hy + border[1]),
                      wood, -1)
        x0, y0 = pt(-hx - border[0], -hy - border[1])
        x1, y1 = pt(hx + border[0], hy + border[1])
        if scene.board != "vinyl":
            stripes = grain_rng.normal(0, 1, (x1 - x0,)).astype(np.float32)
            stripes = np.asarray(cv2.GaussianBlur(stripes.reshape(1, -1), (0, 0), 2.0),
                                 np.float32).ravel() * 14
            waves = np.sin(np.linspace(0, grain_rng.uniform(6, 20), y1 - y0))[:, None] * 4
            grain = stripes[None, :] + waves
            tex[y0:y1, x0:x1] = np.clip(tex[y0:y1, x0:x1].astype(np.float32)
                                        + grain[..., None] * np.array([0.8, 1.0, 0.9]), 0, 255)
        line = max(1, round(0.045 * px_ * tex_per_mm))
        for c in range(scene.spec.cols):
            x = -hx + c * px_
            cv2.line(tex, pt(x, -hy), pt(x, hy), (25, 30, 35), line, cv2.LINE_AA)
        for r in range(scene.spec.rows):
            y = -hy + r * py_
            cv2.line(tex, pt(-hx, y), pt(hx, y), (25, 30, 35), line, cv2.LINE_AA)
        for r, c in _star_points(scene.spec):
            cx, cy = scene.place_xy(r, c)
            cv2.circle(tex, pt(cx, cy), max(2, round(0.09 * px_ * tex_per_mm)), (25, 30, 35),
                       -1, cv2.LINE_AA)
    else:
        light, dark, frame = CHESS_SCHEMES[scene.board]
        cv2.rectangle(tex, pt(-hx - border[0], -hy - border[1]), pt(hx + border[0], hy + border[1]),
                      frame, -1)
        for r in range(scene.spec.rows):
            for c in range(scene.spec.cols):
                colour = light if (r + c) % 2 == 0 else dark
                cv2.rectangle(tex, pt(-hx + c * px_, -hy + r * py_),
                              pt(-hx + (c + 1) * px_, -hy + (r + 1) * py_), colour, -1)
        if scene.board in ("wood", "walnut"):
            x0, y0 = pt(-hx, -hy)
            x1, y1 = pt(hx, hy)
            stripes = grain_rng.normal(0, 1, (max(x1 - x0, y1 - y0),)).astype(np.float32)
            stripes = np.asarray(cv2.GaussianBlur(stripes.reshape(1, -1), (0, 0), 2.0),
                                 np.float32).ravel() * 9
            area = tex[y0:y1, x0:x1].astype(np.float32)
            area += stripes[None, :x1 - x0, None]
            tex[y0:y1, x0:x1] = np.clip(area, 0, 255)
    if scene.markers:
        side = 0.9 * max(px_, py_) if scene.spec.kind == "points" else 0.75 * px_
        cell = side / 6
        card = side + 2 * cell
        for index, (sx, sy) in enumerate(((-1, -1), (1, -1), (1, 1), (-1, 1))):
            # Go boards: the cards touch the board's corners; chessboards: the squares'.
            inset = border if scene.spec.kind == "points" else (0.0, 0.0)
            cx = sx * (hx + inset[0])
            cy = sy * (hy + inset[1])
            xa, xb = sorted((cx, cx + sx * card))
            ya, yb = sorted((cy, cy + sy * card))
            cv2.rectangle(tex, pt(xa, ya), pt(xb, yb), (245, 245, 245), -1)
            mx0, my0 = pt(xa + cell, ya + cell)
            mx1, _ = pt(xb - cell, yb - cell)
            marker = marker_image(index, mx1 - mx0)
            tex[my0:my0 + marker.shape[0], mx0:mx0 + marker.shape[1]] = marker[..., None]
    low = cv2.resize(np.random.default_rng(seed + 1).normal(0, 5, (16, 16)), (width, height),
                     interpolation=cv2.INTER_CUBIC)
    tex = np.clip(tex.astype(np.float32) + low[..., None], 0, 255).astype(np.uint8)
    return tex, half_w, half_h


def _star_points(spec: GridSpec) -> list[tuple[int, int]]:
    if spec.kind != "points" or spec.cols != spec.rows or spec.cols < 9:
        return []
    n = spec.cols
    edge = 2 if n < 13 else 3
    marks = [edge, n - 1 - edge]
    stars = [(r, c) for r in marks for c in marks]
    if n % 2 == 1:
        mid = n // 2
        stars.append((mid, mid))
        if n >= 19:
            stars += [(mid, edge), (mid, n - 1 - edge), (edge, mid), (n - 1 - edge, mid)]
    return stars


_ANGLES = np.linspace(0, 2 * math.pi, 28, endpoint=False)


def _ring(cx: float, cy: float, z: float, r: float, stretch: float = 1.0) -> Vec:
    out = np.empty((len(_ANGLES), 3))
    out[:, 0] = cx + r * np.cos(_ANGLES)
    out[:, 1] = cy + r * stretch * np.sin(_ANGLES)
    out[:, 2] = z
    return out


def _lens(radius: float, height: float) -> tuple[Vec, Vec]:
    """Heights and radii of a stone's slices, bottom first (a flattened ellipse)."""
    zs = np.linspace(0.0, height, 9)
    t = (zs - height / 2) / (height / 2)
    rs = radius * np.sqrt(np.clip(1 - (np.abs(t) ** 2.2), 0.0, 1.0))
    rs[0] = radius * 0.55
    return zs, rs


def render_stones(scene: StoneScene, seed: int = 0) -> Image:
    """The picture of ``scene``; ``seed`` picks the sensor noise only."""
    rng = np.random.default_rng(seed)
    cam = scene.camera
    w, h = cam.size
    tex_per_mm = max(1.0, min(_TEX, 2.5 * w / (2 * max(scene.half()) * 1.4) / 2))
    tex, half_w, half_h = _texture(scene, tex_per_mm)
    corners_tex = np.array([[0, 0], [tex.shape[1], 0], [tex.shape[1], tex.shape[0]],
                            [0, tex.shape[0]]], np.float32)
    world = np.array([[-half_w, -half_h, 0], [half_w, -half_h, 0], [half_w, half_h, 0],
                      [-half_w, half_h, 0]])
    hom = cv2.getPerspectiveTransform(corners_tex, cam.project(world).astype(np.float32))
    image = cv2.warpPerspective(tex, hom, (w, h), flags=cv2.INTER_AREA,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=scene.table)
    light = np.array(scene.light)
    pitch = scene.pitch[0]
    radius = scene.stone_radius * pitch
    height = scene.stone_height * pitch
    zs, rs = _lens(radius, height)

    def centre(place: tuple[int, int]) -> tuple[float, float]:
        x, y = scene.place_xy(*place)
        dx, dy = scene.offsets.get(place, (0.0, 0.0))
        return x + dx * pitch, y + dy * scene.pitch[1]

    # Shadows on the board.
    shadow = np.zeros((h, w), np.float32)
    for place in scene.stones:
        cx, cy = centre(place)
        for z, r in zip(zs[::2], rs[::2], strict=True):
            ring = _ring(cx, cy, z, r)
            ground = ring - (ring[:, 2:3] / light[2]) * light
            ground[:, 2] = 0
            cv2.fillConvexPoly(shadow, np.round(cam.project(ground) * 16).astype(np.int32), 1.0,
                               cv2.LINE_AA, 4)
    hand_polys = hand_polygons(scene, scene.hand) if scene.hand else []  # type: ignore[arg-type]
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

    camera_pos = np.array(cam.position) * _FLIP
    order = sorted(scene.stones, key=lambda p: -float(np.linalg.norm(
        np.array([*centre(p), 0.0]) - camera_pos)))
    glossy = scene.style in ("slate-shell", "glass")
    for place in order:
        colour = scene.stones[place]
        base = np.array(scene.black if colour == "b" else scene.white, np.float32)
        cx, cy = centre(place)
        outline = tuple(float(v) for v in np.clip(base * 0.5, 0, 255))
        for i, (z, r) in enumerate(zip(zs, rs, strict=True)):
            if r < 0.2:
                continue
            facing = 0.65 + 0.35 * (i / (len(zs) - 1)) + 0.1 * light[2]
            body = np.round(cam.project(_ring(cx, cy, z, r)) * 16).astype(np.int32)
            shade = tuple(float(v) for v in np.clip(base * facing + (6 if colour == "b" else 0),
                                                    0, 255))
            cv2.polylines(image, [body], True, outline, 1, cv2.LINE_AA, 4)
            cv2.fillConvexPoly(image, body, shade, cv2.LINE_AA, 4)
        top = height * 0.92
        top_r = rs[-2] * 0.9
        if scene.style == "slate-shell" and colour == "w":
            # Shell: fine stripes across the top.
            mask = np.zeros((h, w), np.uint8)
            cv2.fillConvexPoly(mask, np.round(cam.project(_ring(cx, cy, top, top_r))).astype(
                np.int32), 255)
            stripe = base * 0.88
            for j in range(-4, 5):
                a = cam.project(np.array([[cx - top_r, cy + j * top_r / 5, top],
                                          [cx + top_r, cy + j * top_r / 4.5, top]]))
                line_img = np.zeros((h, w), np.uint8)
                cv2.line(line_img, tuple(int(v) for v in a[0]), tuple(int(v) for v in a[1]), 255,
                         1, cv2.LINE_AA)
                sel = (line_img > 0) & (mask > 0)
                image[sel] = np.clip(stripe, 0, 255).astype(np.uint8)
        if glossy or scene.style == "yunzi":
            # Glare: the light's reflection on the top, a small bright spot.
            gx = cx + light[0] * 0.35 * radius
            gy = cy + light[1] * 0.35 * radius
            spot_r = (0.22 if glossy else 0.12) * radius
            spot = np.round(cam.project(_ring(gx, gy, top, spot_r)) * 16).astype(np.int32)
            level = 245.0 if glossy else 200.0
            cv2.fillConvexPoly(image, spot, (level, level, level), cv2.LINE_AA, 4)

    for pts, hand_colour in hand_polys:
        shade = np.array(hand_colour, np.float32) * (0.8 + 0.2 * light[2])
        cv2.fillPoly(image, [np.round(cam.project(pts) * 16).astype(np.int32)],
                     tuple(float(v) for v in shade), cv2.LINE_AA, 4)

    slope_x, slope_y, brightness = scene.gradient
    xs = np.linspace(-0.5, 0.5, w, dtype=np.float32)[None, :]
    ys = np.linspace(-0.5, 0.5, h, dtype=np.float32)[:, None]
    gain = brightness * (1 + slope_x * xs + slope_y * ys)
    out: npt.NDArray[np.float32] = np.asarray(
        image.astype(np.float32) * gain[..., None] * np.array(scene.tint, np.float32), np.float32)
    if scene.blur > 0.2:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), scene.blur), np.float32)
    out += rng.normal(0, scene.noise, out.shape).astype(np.float32)
    result = np.clip(out, 0, 255).astype(np.uint8)
    _ok, encoded = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg_quality])
    return np.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR), np.uint8)


def empty_of(scene: StoneScene) -> StoneScene:
    return dataclasses.replace(scene, stones={}, offsets={}, hand=None)


# Videos ----------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class StoneFrame:
    """One frame of a synthetic game and its truth."""

    image: Image
    grid: tuple[str, ...]
    hand: bool


def hand_path(scene: StoneScene, target: tuple[int, int], frames: int,
              rng: np.random.Generator) -> list[Hand]:
    """A hand coming from the player's side to over ``target`` and back out."""
    cx, cy = scene.place_xy(*target)
    hx, hy = scene.half()
    angle = rng.uniform(0.25 * math.pi, 0.75 * math.pi) * (1 if rng.random() < 0.5 else -1)
    reach = 2.2 * max(hx, hy)
    start = np.array([cx, cy]) + reach * np.array([math.cos(angle), math.sin(angle)])
    direction = math.atan2(cy - start[1], cx - start[0])
    base = random_hand(rng, 50.0)
    half = max(frames // 2, 1)
    hands = []
    for i in range(frames):
        t = i / half if i < half else (frames - 1 - i) / max(frames - 1 - half, 1)
        t = min(max(t, 0.0), 1.0)
        x = start[0] + (cx - start[0]) * t - math.cos(direction) * 55 * t
        y = start[1] + (cy - start[1]) * t - math.sin(direction) * 55 * t
        hands.append(dataclasses.replace(base, x=x, y=y, direction=direction,
                                         height=70 + (1 - t) * 90))
    return hands


def game_video(scene: StoneScene, grids: Sequence[Mapping[tuple[int, int], str]], *,
               still_frames: int = 8, hand_frames: int = 6, seed: int = 0,
               steps: Sequence[Sequence[Mapping[tuple[int, int], str]]] | None = None,
               still_pictures: int = 0) -> list[StoneFrame]:
    """Frames of a game: the board still, then for each position in ``grids`` a hand
    comes in, the stones change (through ``steps[i]``' intermediate positions, one
    per hand frame in the middle, when given), the hand leaves, the board rests. With
    ``still_pictures`` above 0, each still spell shows that many pictures over and over."""
    rng = np.random.default_rng(seed)
    frames: list[StoneFrame] = []
    current = scene
    counter = seed * 100_000

    def shoot(s: StoneScene, hand: bool) -> None:
        nonlocal counter
        counter += 1
        frames.append(StoneFrame(render_stones(s, counter), s.grid(), hand))

    def still(s: StoneScene) -> None:
        first = len(frames)
        for index in range(still_frames):
            if still_pictures and index >= still_pictures:
                frames.append(frames[first + index % still_pictures])
            else:
                shoot(s, False)

    still(current)
    for index, position in enumerate(grids):
        changed = sorted(set(position) ^ set(current.stones)
                         | {p for p in position if current.stones.get(p) != position[p]})
        target = changed[0] if changed else (0, 0)
        hands = hand_path(current, target, hand_frames, rng)
        between = list(steps[index]) if steps is not None else []
        middle = len(hands) // 2
        for i, hand in enumerate(hands):
            if between and middle - len(between) // 2 <= i and between:
                current = current.with_stones(between.pop(0), rng)
            if i == middle + 1 and not between:
                current = current.with_stones(position, rng)
            shoot(dataclasses.replace(current, hand=hand), True)
        current = current.with_stones(position, rng)
        still(current)
    return frames
