"""Render the scenes of :mod:`lab.render_spec` with Blender's Cycles, for training.

    python -m lab.render_blender --out renders --first 0 --count 500

renders the scenes of seeds 0 to 499, as the latest drawing (``render_spec.VERSION``)
draws them, as ``renders/render_v2_000000.jpg`` ... (``--version 1``: the first
drawing, whose pictures keep the names ``render_000000.jpg`` ...; a seed
already rendered there is skipped, so a long run can be stopped and started again,
and several runs with other ``--first`` can share a folder), then writes
``renders/labels.json`` for every rendered picture there, in the format of the real
photos (``lab.samples.load_photos`` reads it;
``python -m lab.train_occupancy --rendered renders`` trains with it).

It needs Blender as a Python module, which wants numpy 1.x and its own environment
(Python 3.11)::

    python3.11 -m venv .venv-render
    .venv-render/bin/pip install bpy==4.5.15 numpy==1.26.4 chess
    PYTHONPATH=. .venv-render/bin/python -m lab.render_blender --out renders --count 500

A 480 x 360 scene takes about 10 to 25 seconds on one CPU core (8 to 24 samples a
pixel, denoised). Nothing in the app or the tests needs Blender: the scenes and their
labels are worked out by :mod:`lab.render_spec` alone, and tested there.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import chess

from lab.render_spec import (
    RGB,
    VERSION,
    VERSIONS,
    RenderBoard,
    RenderPiece,
    RenderScene,
    draw_scene,
    image_name,
    label_entry,
    labels_text,
    square_centre,
)
from vision.piece_shapes import PROFILES

log = logging.getLogger(__name__)

SEGMENTS = 32  # points round a piece's slice


def _bpy() -> Any:
    try:
        return importlib.import_module("bpy")
    except ImportError as error:
        raise SystemExit(
            "lab.render_blender needs Blender as a Python module: "
            "pip install bpy==4.5.15 numpy==1.26.4 chess (Python 3.11, an environment of "
            "its own; see this module's docstring)") from error


def _material(bpy: Any, name: str, colour: RGB, roughness: float, grain: float,
              grain_scale: float, grain_angle: float, vertical: bool = False) -> Any:
    """A Principled material of ``colour``, with wood grain bands (``grain``: how far
    the bands move the colour, 0 for none) at ``grain_scale`` bands a unit."""
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    nodes = material.node_tree.nodes
    links = material.node_tree.links
    shader = nodes["Principled BSDF"]
    shader.inputs["Roughness"].default_value = roughness
    if grain <= 0:
        shader.inputs["Base Color"].default_value = (*colour, 1.0)
        return material
    coords = nodes.new("ShaderNodeTexCoord")
    mapping = nodes.new("ShaderNodeMapping")
    mapping.inputs["Rotation"].default_value = ((math.pi / 2, 0.0, grain_angle) if vertical
                                                else (0.0, 0.0, grain_angle))
    links.new(coords.outputs["Object"], mapping.inputs["Vector"])
    wave = nodes.new("ShaderNodeTexWave")
    wave.wave_type = "BANDS"
    wave.inputs["Scale"].default_value = grain_scale
    wave.inputs["Distortion"].default_value = 6.0
    wave.inputs["Detail"].default_value = 3.0
    wave.inputs["Detail Scale"].default_value = 1.5
    links.new(mapping.outputs["Vector"], wave.inputs["Vector"])
    mix = nodes.new("ShaderNodeMix")
    mix.data_type = "RGBA"
    mix.inputs[6].default_value = (*(c * (1 - grain) for c in colour), 1.0)  # A
    mix.inputs[7].default_value = (*(min(1.0, c * (1 + grain)) for c in colour), 1.0)  # B
    links.new(wave.outputs["Fac"], mix.inputs["Factor"])
    links.new(mix.outputs[2], shader.inputs["Base Color"])
    return material


def _mesh_object(bpy: Any, name: str, vertices: list[tuple[float, float, float]],
                 faces: Sequence[tuple[int, ...]], material: Any, smooth: bool = False) -> Any:
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(vertices, [], faces)
    mesh.update()
    if smooth:
        for polygon in mesh.polygons:
            polygon.use_smooth = True
    mesh.materials.append(material)
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def _box(bpy: Any, name: str, low: tuple[float, float, float],
         high: tuple[float, float, float], material: Any) -> Any:
    (x0, y0, z0), (x1, y1, z1) = low, high
    vertices = [(x0, y0, z0), (x1, y0, z0), (x1, y1, z0), (x0, y1, z0),
                (x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]
    faces = [(0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)]
    return _mesh_object(bpy, name, vertices, faces, material)


def _build_board(bpy: Any, board: RenderBoard) -> None:
    light = _material(bpy, "light", board.light, board.roughness, board.grain_contrast,
                      board.grain_scale, board.grain_angle)
    dark = _material(bpy, "dark", board.dark, board.roughness, board.grain_contrast,
                     board.grain_scale, board.grain_angle)
    for rank in range(8):
        for file in range(8):
            x, y = file - 4.0, rank - 4.0
            material = dark if (file + rank) % 2 == 0 else light  # a1 is dark
            _mesh_object(bpy, f"sq{file}{rank}",
                         [(x, y, 0.0), (x + 1, y, 0.0), (x + 1, y + 1, 0.0), (x, y + 1, 0.0)],
                         [(0, 1, 2, 3)], material)
    edge = 4.0 + board.frame_width
    frame = _material(bpy, "frame", board.frame, board.roughness, board.grain_contrast,
                      board.grain_scale * 0.7, board.grain_angle + 0.3)
    _box(bpy, "frame", (-edge, -edge, -board.thickness), (edge, edge, -0.002), frame)
    table = _material(bpy, "table", board.table, 0.5, 0.25 if board.table_wood else 0.0,
                      1.2, 0.4)
    _box(bpy, "table", (-60.0, -60.0, -board.thickness - 0.5), (60.0, 60.0, -board.thickness),
         table)


def _lathe(profile: list[tuple[float, float]], cx: float, cy: float, height: float,
           width: float) -> tuple[list[tuple[float, float, float]], list[tuple[int, ...]]]:
    vertices: list[tuple[float, float, float]] = []
    faces: list[tuple[int, ...]] = []
    for z, r in profile:
        for k in range(SEGMENTS):
            angle = 2 * math.pi * k / SEGMENTS
            vertices.append((cx + r * width * math.cos(angle), cy + r * width * math.sin(angle),
                             z * height))
    for ring in range(len(profile) - 1):
        a, b = ring * SEGMENTS, (ring + 1) * SEGMENTS
        for k in range(SEGMENTS):
            n = (k + 1) % SEGMENTS
            faces.append((a + k, a + n, b + n, b + k))
    faces.append(tuple(range(SEGMENTS - 1, -1, -1)))  # the base
    return vertices, faces


def _build_piece(bpy: Any, index: int, piece: RenderPiece, scene: RenderScene,
                 material: Any) -> None:
    cx, cy = square_centre(piece)
    height, width = scene.piece_set.height, scene.piece_set.width
    profile = PROFILES[piece.kind]
    vertices, faces = _lathe(profile, cx, cy, height, width)
    _mesh_object(bpy, f"piece{index}", vertices, faces, material, smooth=True)
    if piece.kind == chess.KNIGHT:  # a head and muzzle leaning out of the lathe
        head = _box(bpy, f"head{index}", (-0.12 * width, -0.16 * width, 0.0),
                    (0.12 * width, 0.34 * width, 0.3 * height), material)
        head.location = (cx, cy, 0.7 * height)
        head.rotation_euler = (math.radians(-25), 0.0, piece.yaw)


def _light(bpy: Any, name: str, kind: str, energy: float, colour: RGB,
           away: tuple[float, float, float]) -> Any:
    """A light of ``kind`` in the scene, shining towards the board's centre from the
    direction ``away`` (a light shines along its local minus z: that axis is turned
    to point along minus ``away``)."""
    data = bpy.data.lights.new(name, kind)
    data.energy = energy
    data.color = colour
    obj = bpy.data.objects.new(name, data)
    x, y, z = away
    obj.rotation_euler = (math.atan2(math.hypot(x, y), z), 0.0, math.atan2(y, x) + math.pi / 2)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def build(scene: RenderScene) -> Any:
    """The Blender scene of ``scene``, ready to render."""
    bpy = _bpy()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    blender = bpy.context.scene
    blender.render.engine = "CYCLES"
    blender.cycles.device = "CPU"
    blender.cycles.samples = scene.samples
    blender.cycles.use_denoising = True
    blender.cycles.max_bounces = 4
    blender.cycles.glossy_bounces = 2
    blender.cycles.transmission_bounces = 0
    blender.cycles.use_adaptive_sampling = True
    width, height = scene.camera.size
    blender.render.resolution_x = width
    blender.render.resolution_y = height
    blender.render.resolution_percentage = 100
    blender.render.image_settings.file_format = "JPEG"
    blender.render.image_settings.quality = scene.jpeg_quality
    blender.view_settings.view_transform = scene.view_transform
    blender.view_settings.exposure = scene.exposure

    _build_board(bpy, scene.board)
    s = scene.piece_set
    materials = {
        "white": _material(bpy, "white", s.white, s.roughness, s.grain_contrast, 7.0, 0.0,
                           vertical=True),
        "black": _material(bpy, "black", s.black, s.roughness, s.grain_contrast, 7.0, 0.0,
                           vertical=True),
    }
    for index, piece in enumerate(scene.pieces):
        _build_piece(bpy, index, piece, scene, materials[piece.colour])

    light = scene.light
    if light.sun_strength > 0:
        sun = _light(bpy, "sun", "SUN", light.sun_strength, light.sun_colour,
                     light.sun_direction)
        sun.data.angle = light.sun_angle
    if light.lamp_power > 0:
        lamp = _light(bpy, "lamp", "AREA", light.lamp_power, light.lamp_colour,
                      light.lamp_position)
        lamp.data.size = light.lamp_size
        lamp.location = light.lamp_position
    world = bpy.data.worlds.new("room")
    world.use_nodes = True
    background = world.node_tree.nodes["Background"]
    background.inputs["Color"].default_value = (*light.world_colour, 1.0)
    background.inputs["Strength"].default_value = light.world_strength
    blender.world = world

    camera = bpy.data.cameras.new("camera")
    camera.lens = scene.camera.focal_mm
    camera.sensor_width = 36.0
    camera.sensor_fit = "HORIZONTAL"
    camera.clip_start = 0.1
    camera.clip_end = 500.0
    camera_object = bpy.data.objects.new("camera", camera)
    rotation = scene.camera.rotation
    px, py, pz = scene.camera.position
    matrix = importlib.import_module("mathutils").Matrix  # rows, as given
    camera_object.matrix_world = matrix((
        (rotation[0][0], rotation[0][1], rotation[0][2], px),
        (rotation[1][0], rotation[1][1], rotation[1][2], py),
        (rotation[2][0], rotation[2][1], rotation[2][2], pz),
        (0.0, 0.0, 0.0, 1.0),
    ))
    blender.collection.objects.link(camera_object)
    blender.camera = camera_object
    return blender


def render(scene: RenderScene, path: Path, threads: int = 1) -> None:
    """Render ``scene`` to the JPEG ``path``."""
    blender = build(scene)
    blender.render.threads_mode = "FIXED"
    blender.render.threads = threads
    blender.render.filepath = str(path)
    _bpy().ops.render.render(write_still=True)


def write_labels(out: Path) -> int:
    """``out/labels.json`` for every rendered picture in ``out`` (from the labels
    written beside each one when it was rendered, so a later change to the scenes'
    drawing cannot mislabel a picture made before it); returns how many."""
    entries = []
    for path in sorted(out.glob("render_*.jpg")):
        beside = path.with_suffix(".json")
        if not beside.exists():
            log.warning("%s has no labels beside it (%s); left out", path.name, beside.name)
            continue
        entries.append(json.loads(beside.read_text(encoding="utf-8")))
    (out / "labels.json").write_text(labels_text(entries), encoding="utf-8")
    return len(entries)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--first", type=int, default=0, help="the first scene's seed")
    parser.add_argument("--count", type=int, default=100, help="scenes to render")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--version", type=int, default=VERSION, choices=VERSIONS,
                        help="which drawing of the scenes (lab.render_spec.VERSIONS; "
                        "the shipped networks' pictures are version 1)")
    args = parser.parse_args(argv)
    if args.count < 0 or args.first < 0:
        parser.error("--first and --count must not be negative")
    args.out.mkdir(parents=True, exist_ok=True)
    for seed in range(args.first, args.first + args.count):
        path = args.out / image_name(seed, args.version)
        if path.exists() and path.with_suffix(".json").exists():
            continue
        scene = draw_scene(seed, args.version)
        render(scene, path, args.threads)
        path.with_suffix(".json").write_text(json.dumps(label_entry(scene, path.name)) + "\n",
                                             encoding="utf-8")
        print(f"rendered {path}", flush=True)
    print(f"labels for {write_labels(args.out)} pictures in {args.out / 'labels.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
