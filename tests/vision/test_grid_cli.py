"""``raindrop vision classify --grid``: stones on a grid of points or cells, as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from lab.grid_samples import load_grid_photos
from lab.stone_scenes import empty_of, random_stone_scene, render_stones
from vision.grid import GridConfig, GridGeometry, GridSpec, classify_grid


def _corners(points: tuple[tuple[float, float], ...]) -> str:
    return ",".join(f"{v:.2f}" for point in points for v in point)


def test_classify_grid_json_on_a_real_photo(capsys) -> None:  # type: ignore[no-untyped-def]
    photo = next(p for p in load_grid_photos() if p.path.name == "go19_70.jpg")
    assert main(["vision", "classify", str(photo.path), "--grid", "points:19", "--corners",
                 _corners(photo.geometry.corners), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["grid"] == list(photo.rows)
    assert len(data["grid"]) == 19 and all(len(row) == 19 for row in data["grid"])


@pytest.mark.parametrize("spec", ["points:9", "cells:8"])
def test_classify_grid_finds_the_grid_itself(capsys, tmp_path: Path, spec: str) -> None:  # type: ignore[no-untyped-def]
    """Without --corners: the corner markers when all four are seen (here with --reference),
    else the empty board's own pattern (a Go board's lines, a chessboard's squares)."""
    grid_spec = GridSpec.parse(spec)
    rng = np.random.default_rng(7)
    scene = random_stone_scene(rng, grid_spec, fraction=0.3, markers=True, size=(1280, 720))
    image, empty = tmp_path / "board.png", tmp_path / "empty.png"
    cv2.imwrite(str(image), render_stones(scene, 1))
    cv2.imwrite(str(empty), render_stones(empty_of(scene), 2))
    assert main(["vision", "classify", str(image), "--grid", spec, "--reference", str(empty),
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["method"] == "markers"
    true_corners = np.array(scene.geometry().corners)
    assert np.abs(np.array(data["corners"]) - true_corners).max() < 3.0
    found = GridGeometry(grid_spec, tuple(map(tuple, data["corners"])))  # type: ignore[arg-type]
    expected = classify_grid(GridConfig(), cv2.imread(str(image)), found, cv2.imread(str(empty)))
    assert data["grid"] == list(expected.grid)
    wrong = sum(a != b for ra, rb in zip(data["grid"], scene.grid(), strict=True)
                for a, b in zip(ra, rb, strict=True))
    assert wrong <= 1
    bare = empty_of(random_stone_scene(rng, grid_spec, fraction=0.0, markers=False))
    cv2.imwrite(str(empty), render_stones(bare, 3))
    assert main(["vision", "classify", str(empty), "--grid", spec, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["method"] == ("lines" if spec.startswith("points") else "chessboard")
    assert np.abs(np.array(data["corners"]) - np.array(bare.geometry().corners)).max() < 3.0
    assert set("".join(data["grid"])) == {"."}


@pytest.mark.parametrize(("args", "message"), [
    (["--grid", "go:19"], "points:N, cells:N"),
    (["--grid", "points:40"], "2 to 26"),
    (["--grid", "points:19", "--corners", "1,2,3"], "8 numbers"),
])
def test_classify_grid_bad_input_is_a_clear_error(capsys, args, message) -> None:  # type: ignore[no-untyped-def]
    photo = load_grid_photos()[0]
    assert main(["vision", "classify", str(photo.path), *args]) == 2
    assert message in capsys.readouterr().err
