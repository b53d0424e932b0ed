"""The labelled real photos of Go boards in ``tests/vision/data/go_photos`` (with their licence).

``labels.json`` maps each photo to its grid (``points:19``), the grid's corner points in
image order, its rows (top first, ``.``, ``b``, ``w``) and its part: ``dev`` (looked at
while choosing settings) or ``held-out`` (never).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from vision.grid import GridGeometry, GridSpec


@dataclasses.dataclass(frozen=True)
class LabelledGridPhoto:
    path: Path
    part: str
    geometry: GridGeometry
    rows: tuple[str, ...]


def photos_dir() -> Path:
    return Path(__file__).resolve().parent.parent / "tests" / "vision" / "data" / "go_photos"


def load_grid_photos(directory: Path | None = None) -> list[LabelledGridPhoto]:
    directory = directory or photos_dir()
    labels = json.loads((directory / "labels.json").read_text(encoding="utf-8"))
    photos = []
    for name, item in sorted(labels.items()):
        spec = GridSpec.parse(item["grid"])
        corners = tuple((float(x), float(y)) for x, y in item["corners"])
        photos.append(LabelledGridPhoto(directory / name, item["part"],
                                        GridGeometry(spec, corners), tuple(item["rows"])))  # type: ignore[arg-type]
    return photos


def wrong_points(truth: tuple[str, ...], read: tuple[str, ...]) -> list[str]:
    """Every point read wrong, as ``row,col truth->read`` (rows from the top, from 0)."""
    return [f"{r},{c} {truth[r][c]}->{read[r][c]}" for r in range(len(truth))
            for c in range(len(truth[r])) if truth[r][c] != read[r][c]]
