"""What a Blender-rendered training scene holds, drawn at random, and its labels.

:mod:`vision.synthetic` draws pieces as flat-shaded solids with OpenCV: fast, but its
pieces have no highlights, soft shadows or wood of their own, and the networks that
learn from it miss plainly visible pieces on wooden sets they have never seen (a black
bishop on a black square, a boxwood knight on a maple one). This module describes
scenes for a physically based renderer (Blender's Cycles, :mod:`lab.render_blender`)
instead: a wooden or printed board with grain, a frame and a table; a set of wood or
plastic pieces, glossy or matte, some of them the squares' own colours; a sun, a lamp
and the room's light; a phone or webcam anywhere round the board, from straight above
to 60 degrees. Everything is drawn from one ``numpy`` generator, so a seed gives the
same scene, and each scene's labels are worked out here, without Blender: the board's
corners projected by the camera drawn (:func:`project`, the pinhole Blender renders
with) and the position as a FEN board, in the format of ``tests/vision/data/samples``
(:func:`label_entry`), so that ``lab.samples.load_photos`` reads a rendered folder
as it reads the real photos.

World units are squares: the squares span -4 to 4 on x (files a to h) and y (ranks 1
to 8), the board's top at z = 0, z up. No OpenCV and no Blender here: this module is
imported both by the project (tests, training) and by the renderer, which runs in an
environment of its own (``bpy`` wants numpy 1.x).
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Sequence

import chess
import numpy as np
import numpy.typing as npt

Vec = npt.NDArray[np.float64]
RGB = tuple[float, float, float]  # linear 0..1, as Blender takes colours

SENSOR_MM = 36.0  # the camera's sensor width (Blender's sensor_fit "HORIZONTAL")
# Pictures are small: the reader samples a square at 12 pixels (square_net.TILE_PX), and
# a board filling half of 480 x 360 has squares of 22 pixels and more.
SIZES = ((480, 360), (360, 480), (480, 480))
# Of the scenes drawn for a seed, written into each picture's labels. Version 1: the
# first scenes (the shipped networks' pictures). Version 2 (eighteenth session) adds
# what the walnut board's photos show and version 1 lacks: close, low cameras with the
# board's frame cut by the picture, taller sets, brown-stained pieces as light as
# walnut squares, crowded openings, and pieces standing far off their squares' centres,
# over the frame at the board's edge. Every version's scenes stay drawable:
# ``draw_scene(seed, version)``.
VERSION = 2
VERSIONS = (1, 2)
# The pictures the shipped photo networks learned from (seventeenth session), as
# (first seed, count) runs of ``python -m lab.render_blender``, and the digest of
# their labels.json (``lab.train_occupancy.labels_key``), which these seeds' scenes
# give again on any machine: docs/dev/camera.md, "Training is one command".
SHIPPED_RUNS = ((0, 200), (100000, 200))  # version 1
SHIPPED_LABELS_KEY = "c78684384da6"
# Each entry's "source" names the modules by the names they had when the shipped
# networks' pictures were rendered (vision.render_*, now lab.render_*): the text is part
# of the labels' digest, so it stays as written then.
LABELS_SOURCE = ("rendered by vision.render_blender (Blender Cycles) from "
                 "vision.render_spec.draw_scene(seed)")
SIZE_WEIGHTS = (0.7, 0.15, 0.15)


@dataclasses.dataclass(frozen=True)
class RenderPiece:
    """A piece: its square, colour (``"white"`` or ``"black"``), type, where on the
    square (offset from the centre, in squares) and which way it faces (radians)."""

    square: chess.Square
    colour: str
    kind: chess.PieceType
    dx: float = 0.0
    dy: float = 0.0
    yaw: float = 0.0


@dataclasses.dataclass(frozen=True)
class RenderBoard:
    """The board: its squares' colours and wood, frame, table."""

    light: RGB
    dark: RGB
    wood: bool  # grain on the squares (else a printed board or a mat)
    grain_scale: float  # bands a square
    grain_contrast: float  # 0 (none) to about 0.35
    grain_angle: float  # radians, the bands' direction on the board
    roughness: float
    frame: RGB
    frame_width: float  # squares of frame round the 8 x 8
    thickness: float  # the board's edge above the table
    table: RGB
    table_wood: bool


@dataclasses.dataclass(frozen=True)
class RenderSet:
    """The pieces' look and size."""

    white: RGB
    black: RGB
    roughness: float  # 0.1 lacquered to 0.7 matte
    grain_contrast: float  # wood grain on the pieces, 0 for plastic
    height: float  # the pieces' heights times this
    width: float  # their radii times this


@dataclasses.dataclass(frozen=True)
class RenderLight:
    """A sun (direction towards it, strength, softness), a lamp (area light) and the
    room (the world's colour and strength)."""

    sun_direction: tuple[float, float, float]
    sun_strength: float
    sun_angle: float
    sun_colour: RGB
    lamp_position: tuple[float, float, float]
    lamp_power: float
    lamp_size: float
    lamp_colour: RGB
    world_colour: RGB
    world_strength: float


@dataclasses.dataclass(frozen=True)
class RenderCamera:
    """A pinhole camera: where it is, its rotation (the columns are the camera's
    right, up and back directions in the world, Blender's convention: it looks
    along minus its third column), focal length and picture size."""

    position: tuple[float, float, float]
    rotation: tuple[tuple[float, ...], ...]  # 3 x 3, row-major
    focal_mm: float
    size: tuple[int, int]  # (width, height)


@dataclasses.dataclass(frozen=True)
class RenderScene:
    """One scene to render, with everything its labels need."""

    seed: int
    board: RenderBoard
    pieces: tuple[RenderPiece, ...]
    piece_set: RenderSet
    light: RenderLight
    camera: RenderCamera
    samples: int  # Cycles samples a pixel
    view_transform: str  # Blender's colour management: "Standard", "AgX" or "Filmic"
    exposure: float
    jpeg_quality: int
    version: int = 1  # which drawing made it (VERSIONS)


def look_at(position: Vec, target: Vec, roll: float) -> Vec:
    """The camera's rotation (3 x 3; columns right, up, back) looking from
    ``position`` at ``target``, the world's z up in the picture, turned by ``roll``."""
    back = position - target
    back = back / np.linalg.norm(back)
    up_world = np.array([0.0, 0.0, 1.0]) if abs(back[2]) < 0.999 else np.array([0.0, 1.0, 0.0])
    right = np.cross(up_world, back)
    right /= np.linalg.norm(right)
    up = np.cross(back, right)
    c, s = math.cos(roll), math.sin(roll)
    right, up = c * right + s * up, -s * right + c * up
    return np.stack([right, up, back], axis=1)


def project(camera: RenderCamera, points: Vec) -> Vec:
    """Image pixels (x right, y down, from the picture's top-left corner) of world
    ``points`` (n, 3), as Blender renders them with this camera; points behind the
    camera come out as NaN."""
    rotation = np.array(camera.rotation, dtype=np.float64)
    local = (np.asarray(points, np.float64) - np.array(camera.position)) @ rotation
    width, height = camera.size
    focal_px = camera.focal_mm / SENSOR_MM * width
    depth = -local[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        x = width / 2 + focal_px * local[:, 0] / depth
        y = height / 2 - focal_px * local[:, 1] / depth
    out = np.stack([x, y], axis=1)
    out[depth <= 1e-6] = np.nan
    return out


def board_corners(camera: RenderCamera) -> Vec:
    """The squares' outer corners a8, h8, h1, a1 in image pixels (4, 2)."""
    return project(camera, np.array([[-4.0, 4.0, 0.0], [4.0, 4.0, 0.0], [4.0, -4.0, 0.0],
                                     [-4.0, -4.0, 0.0]]))


def square_centre(piece: RenderPiece) -> tuple[float, float]:
    """Where ``piece`` stands on the board (world x, y)."""
    return (chess.square_file(piece.square) - 3.5 + piece.dx,
            chess.square_rank(piece.square) - 3.5 + piece.dy)


def board_fen(pieces: tuple[RenderPiece, ...]) -> str:
    """The FEN board field of ``pieces``."""
    board = chess.BaseBoard.empty()
    for piece in pieces:
        board.set_piece_at(piece.square, chess.Piece(piece.kind, piece.colour == "white"))
    return board.board_fen()


def label_entry(scene: RenderScene, image: str) -> dict[str, object]:
    """The scene's labels in the samples' format (``lab.samples``): corners a8,
    h8, h1, a1 (so no turn: ``rotation_degrees`` 0) and the position."""
    corners = board_corners(scene.camera)
    return {
        "image": image,
        "board_corners_tl_tr_br_bl": [[round(float(x), 2), round(float(y), 2)]
                                      for x, y in corners],
        "rotation_degrees": 0,
        "board_fen": board_fen(scene.pieces),
        "seed": scene.seed,
        "version": scene.version,
    }


def image_name(seed: int, version: int = 1) -> str:
    """The file a seed's picture is rendered to (version 1's keep their first names,
    so one folder can hold pictures of several versions)."""
    return f"render_{seed:06d}.jpg" if version == 1 else f"render_v{version}_{seed:06d}.jpg"


def labels_text(entries: Sequence[dict[str, object]]) -> str:
    """A folder's ``labels.json``: the pictures' :func:`label_entry` in the order
    given (``render_blender.write_labels`` gives them by file name, so by seed)."""
    return json.dumps({"source": LABELS_SOURCE, "images": list(entries)}, indent=1) + "\n"


# Drawing scenes ----------------------------------------------------------------


def _srgb_to_linear(value: float) -> float:
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def _colour(rng: np.random.Generator, low: RGB, high: RGB) -> RGB:
    """A colour drawn between two sRGB colours (0..1), returned linear."""
    t = rng.uniform(0.0, 1.0)
    jitter = rng.normal(0.0, 0.02, 3)
    srgb = [float(np.clip(a + t * (b - a) + j, 0.0, 1.0))
            for a, b, j in zip(low, high, jitter, strict=True)]
    return (_srgb_to_linear(srgb[0]), _srgb_to_linear(srgb[1]), _srgb_to_linear(srgb[2]))


# (light square, dark square) sRGB ranges: maple and walnut, maple and a lighter
# brown, a green vinyl mat, black and white, a printed brown board.
_BOARD_STYLES: tuple[tuple[bool, RGB, RGB, RGB, RGB], ...] = (
    (True, (0.78, 0.62, 0.42), (0.93, 0.82, 0.64), (0.22, 0.12, 0.06), (0.45, 0.28, 0.15)),
    (True, (0.80, 0.66, 0.46), (0.95, 0.86, 0.70), (0.42, 0.24, 0.12), (0.62, 0.40, 0.22)),
    (False, (0.88, 0.86, 0.76), (0.97, 0.96, 0.88), (0.25, 0.45, 0.28), (0.40, 0.60, 0.40)),
    (False, (0.85, 0.85, 0.82), (0.98, 0.98, 0.96), (0.05, 0.05, 0.05), (0.20, 0.20, 0.20)),
    (False, (0.80, 0.70, 0.55), (0.95, 0.88, 0.75), (0.30, 0.18, 0.10), (0.50, 0.32, 0.20)),
)
_BOARD_WEIGHTS = (0.35, 0.25, 0.15, 0.1, 0.15)


def draw_board(rng: np.random.Generator) -> RenderBoard:
    style = _BOARD_STYLES[int(rng.choice(len(_BOARD_STYLES), p=_BOARD_WEIGHTS))]
    wood, light_lo, light_hi, dark_lo, dark_hi = style
    table_wood = bool(rng.random() < 0.6)
    table = (_colour(rng, (0.45, 0.30, 0.18), (0.85, 0.70, 0.52)) if table_wood
             else _colour(rng, (0.15, 0.15, 0.15), (0.95, 0.95, 0.95)))
    return RenderBoard(
        light=_colour(rng, light_lo, light_hi),
        dark=_colour(rng, dark_lo, dark_hi),
        wood=wood,
        grain_scale=float(rng.uniform(1.5, 5.0)),
        grain_contrast=float(rng.uniform(0.08, 0.35)) if wood else float(rng.uniform(0, 0.04)),
        grain_angle=float(rng.choice([0.0, math.pi / 2]) + rng.normal(0.0, 0.05)),
        roughness=float(rng.uniform(0.25, 0.7)) if wood else float(rng.uniform(0.35, 0.9)),
        frame=_colour(rng, (0.15, 0.08, 0.04), (0.85, 0.75, 0.6)),
        frame_width=float(rng.uniform(0.15, 0.9)),
        thickness=float(rng.uniform(0.02, 0.35)) if wood else float(rng.uniform(0.005, 0.03)),
        table=table,
        table_wood=table_wood,
    )


def draw_set(rng: np.random.Generator, board: RenderBoard, version: int) -> RenderSet:
    """Wooden pieces (boxwood and a brown stain or ebony; a third of the time the
    squares' own colours, the hardest to tell from the board) or plastic ones. Version
    2 gives a quarter of the sets brown pieces as light as walnut squares beside
    boxwood ones, and draws sets up to 30% taller."""
    own, ebony, stained = (0.3, 0.7, 0.7) if version == 1 else (0.25, 0.5, 0.8)
    style = rng.random()
    if style < own:  # the squares' own colours
        white = tuple(float(v * rng.uniform(0.8, 1.15)) for v in board.light)
        black = tuple(float(v * rng.uniform(0.4, 1.1)) for v in board.dark)
        grain = float(rng.uniform(0.02, 0.12))
    elif style < ebony:  # boxwood and a brown stain or ebony
        white = _colour(rng, (0.72, 0.56, 0.36), (0.95, 0.86, 0.68))
        black = _colour(rng, (0.04, 0.03, 0.02), (0.40, 0.22, 0.10))
        grain = float(rng.uniform(0.02, 0.12))
    elif style < stained:  # boxwood and a lighter brown stain, walnut's own
        white = _colour(rng, (0.72, 0.56, 0.36), (0.95, 0.86, 0.68))
        black = _colour(rng, (0.26, 0.13, 0.06), (0.60, 0.38, 0.22))
        grain = float(rng.uniform(0.04, 0.15))
    else:  # plastic: cream or white and black
        white = _colour(rng, (0.85, 0.82, 0.72), (0.98, 0.98, 0.96))
        black = _colour(rng, (0.02, 0.02, 0.02), (0.15, 0.14, 0.13))
        grain = 0.0
    tallest = 1.15 if version == 1 else 1.3
    return RenderSet(white=(white[0], white[1], white[2]), black=(black[0], black[1], black[2]),
                     roughness=float(rng.uniform(0.08, 0.7)), grain_contrast=grain,
                     height=float(rng.uniform(0.8, tallest)), width=float(rng.uniform(0.85, 1.1)))


def draw_pieces(rng: np.random.Generator, version: int) -> tuple[RenderPiece, ...]:
    """A position: half the time from a game (random legal moves from the start),
    else pieces scattered at random; a few boards empty. Each piece a little off its
    square's centre and turned at random. Version 2 plays games of fewer moves (more
    crowded, tall pieces side by side), sets a fifth of the pieces up to a quarter of
    a square off centre, and stands a third of those on the board's edge out over the
    frame (the base's centre still on its square)."""
    roll = rng.random()
    placed: dict[chess.Square, tuple[str, chess.PieceType]] = {}
    if roll < 0.05:
        pass
    elif roll < 0.55:
        board = chess.Board()
        for _ in range(int(rng.integers(0, 80 if version == 1 else 50))):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(moves[int(rng.integers(len(moves)))])
        for square, piece in board.piece_map().items():
            placed[square] = ("white" if piece.color else "black", piece.piece_type)
    else:
        count = int(rng.integers(1, 33))
        for square in rng.choice(64, size=count, replace=False):
            kind = int(rng.choice([1, 2, 3, 4, 5, 6], p=[0.4, 0.12, 0.12, 0.14, 0.1, 0.12]))
            placed[int(square)] = ("white" if rng.random() < 0.5 else "black", kind)
    pieces = []
    for square in sorted(placed):
        colour, kind = placed[square]
        dx, dy = np.clip(rng.normal(0.0, 0.06, 2), -0.15, 0.15)
        if version >= 2 and rng.random() < 0.2:
            dx, dy = rng.uniform(-0.25, 0.25, 2)
            if rng.random() < 0.35:  # out over the frame, where the square is at the edge
                dx, dy = _over_the_edge(rng, square, float(dx), float(dy))
        pieces.append(RenderPiece(square, colour, kind, float(dx), float(dy),
                                  float(rng.uniform(0, 2 * math.pi))))
    return tuple(pieces)


OVER_THE_EDGE = 0.42  # the farthest a piece's centre stands off its square's (version 2)


def _over_the_edge(rng: np.random.Generator, square: chess.Square, dx: float, dy: float
                   ) -> tuple[float, float]:
    """``dx, dy`` with the piece pushed outwards, towards the frame, on each side of
    the board its square touches (unchanged in the middle of the board)."""
    file, rank = chess.square_file(square), chess.square_rank(square)
    push = float(rng.uniform(0.25, OVER_THE_EDGE))
    if file in (0, 7):
        dx = push if file == 7 else -push
    if rank in (0, 7):
        dy = push if rank == 7 else -push
    return dx, dy


def draw_light(rng: np.random.Generator) -> RenderLight:
    elevation = rng.uniform(math.radians(25), math.radians(85))
    azimuth = rng.uniform(0, 2 * math.pi)
    sun = (math.cos(elevation) * math.cos(azimuth), math.cos(elevation) * math.sin(azimuth),
           math.sin(elevation))
    warm = rng.uniform(0.0, 1.0)
    lamp_colour = (1.0, 0.92 - 0.2 * warm, 0.85 - 0.4 * warm)
    lamp_angle = rng.uniform(0, 2 * math.pi)
    lamp_distance = rng.uniform(2.0, 10.0)
    return RenderLight(
        sun_direction=(float(sun[0]), float(sun[1]), float(sun[2])),
        sun_strength=float(rng.uniform(0.0, 4.0)) if rng.random() < 0.7 else 0.0,
        sun_angle=float(rng.uniform(0.02, 0.6)),
        sun_colour=(1.0, float(rng.uniform(0.92, 1.0)), float(rng.uniform(0.85, 1.0))),
        lamp_position=(float(lamp_distance * math.cos(lamp_angle)),
                       float(lamp_distance * math.sin(lamp_angle)), float(rng.uniform(4, 12))),
        lamp_power=float(rng.uniform(200.0, 3000.0)) if rng.random() < 0.8 else 0.0,
        lamp_size=float(rng.uniform(0.5, 6.0)),
        lamp_colour=(float(lamp_colour[0]), float(lamp_colour[1]), float(lamp_colour[2])),
        world_colour=_colour(rng, (0.7, 0.7, 0.7), (1.0, 0.95, 0.9)),
        world_strength=float(rng.uniform(0.15, 1.2)),
    )


def draw_camera(rng: np.random.Generator, board: RenderBoard, version: int
                ) -> RenderCamera:
    """A phone or webcam anywhere round the board, 0 to 60 degrees from straight
    down, the whole board in the picture and filling a good part of it. Version 2:
    up to 68 degrees, half the cameras close (5.5 to 12 squares from the point they
    look at, with a lens of 18 to 32 mm), and only the squares need be in the
    picture: the frame may be cut by its edge, and so may the pieces."""
    size = SIZES[int(rng.choice(len(SIZES), p=SIZE_WEIGHTS))]
    edge = 4.0 + board.frame_width
    outline = np.array([[x, y, 0.0] for x in (-edge, edge) for y in (-edge, edge)])
    for _ in range(200):
        if version == 1:
            tilt = math.radians(rng.uniform(0.0, 60.0))
        else:
            tilt = math.radians(rng.uniform(0.0, 68.0) if rng.random() < 0.5
                                else rng.uniform(35.0, 68.0))
        azimuth = rng.uniform(0, 2 * math.pi)
        focal = float(rng.uniform(22.0, 50.0))
        if version == 1 or rng.random() < 0.5:
            distance = float(rng.uniform(8.0, 26.0))
        else:  # close, with a phone's wide lens
            distance, focal = float(rng.uniform(5.5, 12.0)), float(rng.uniform(18.0, 32.0))
        target = np.array([rng.normal(0, 0.6), rng.normal(0, 0.6), 0.0])
        position = target + distance * np.array([math.sin(tilt) * math.cos(azimuth),
                                                 math.sin(tilt) * math.sin(azimuth),
                                                 math.cos(tilt)])
        rotation = look_at(position, target, float(rng.normal(0.0, math.radians(6))))
        camera = RenderCamera((float(position[0]), float(position[1]), float(position[2])),
                              tuple(tuple(float(v) for v in row) for row in rotation),
                              focal, size)
        corners = board_corners(camera)
        seen = project(camera, outline) if version == 1 else corners
        width, height = size
        if np.isnan(seen).any():
            continue
        margin = 0.02 if version == 1 else 0.005
        inside = ((seen[:, 0] > margin * width) & (seen[:, 0] < (1 - margin) * width)
                  & (seen[:, 1] > margin * height) & (seen[:, 1] < (1 - margin) * height)).all()
        span = min(np.ptp(corners[:, 0]) / width, np.ptp(corners[:, 1]) / height)
        if inside and span > 0.45:
            return camera
    raise RuntimeError("no camera placement found in 200 draws")


def draw_scene(seed: int, version: int = VERSION) -> RenderScene:
    """The scene of ``seed`` drawn by ``version`` (the same seed and version, the same
    scene, on any machine)."""
    if version not in VERSIONS:
        raise ValueError(f"no scene version {version}: there are {VERSIONS}")
    rng = np.random.default_rng([seed, 20261125] if version == 1 else [seed, 20261125, version])
    board = draw_board(rng)
    pieces = draw_pieces(rng, version)
    piece_set = draw_set(rng, board, version)
    light = draw_light(rng)
    camera = draw_camera(rng, board, version)
    return RenderScene(
        seed=seed, board=board, pieces=pieces, piece_set=piece_set, light=light, camera=camera,
        samples=int(rng.integers(8, 25)),
        view_transform=str(rng.choice(["Standard", "AgX", "Filmic"], p=[0.4, 0.4, 0.2])),
        exposure=float(rng.normal(0.0, 0.4)),
        jpeg_quality=int(rng.integers(60, 96)),
        version=version,
    )
