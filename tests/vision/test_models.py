"""The shipped models (vision/models): each file has its manifest entry; the reader loads them."""

from __future__ import annotations

import hashlib
from importlib import resources
from pathlib import Path

import pytest

from vision import models
from vision.config import VisionConfig
from vision.occupancy import OccupancyModelError, board_model, load_model, reference_model
from vision.square_net import SquareNetError, load_net

REPOSITORY = Path(__file__).parents[2]


def _files() -> set[str]:
    return {entry.name for entry in resources.files("vision.models").iterdir()
            if entry.name.endswith((".onnx", ".json")) and entry.name != models.MANIFEST}


def test_every_shipped_model_is_in_the_manifest_with_its_digest() -> None:
    entries = models.manifest()["models"]
    assert set(entries) == _files()
    for name, entry in entries.items():
        data = models.read_bytes(name)
        assert entry["sha256"] == hashlib.sha256(data).hexdigest(), (
            f"{name} changed: measure its figures again and write them and its sha256 "
            "in vision/models/manifest.json")
        assert entry["bytes"] == len(data)
        for field in ("kind", "used_by", "reads", "gives", "trained_by", "data", "accuracy"):
            assert entry[field], (name, field)
        assert entry["trained_by"].startswith("python -m lab."), name
        module = entry["trained_by"].split()[2]
        assert (REPOSITORY / (module.replace(".", "/") + ".py")).exists(), module


def test_every_figure_names_the_benchmark_that_measures_it() -> None:
    for name, entry in models.manifest()["models"].items():
        if isinstance(entry["accuracy"], str):  # measured with another model (said there)
            continue
        for figure in entry["accuracy"]:
            assert 0 <= figure["wrong"] <= figure["squares"], (name, figure)
            words = figure["command"].split()
            assert words[:2] == ["python", "-m"] and words[2].startswith("benchmarks."), figure
            assert (REPOSITORY / (words[2].replace(".", "/") + ".py")).exists(), figure


def test_the_networks_the_reader_reads_are_shipped_and_load() -> None:
    config = VisionConfig()
    for name in {*config.nets.game_nets, *config.nets.photo_nets}:
        assert name in _files()
        assert load_net(name).scale in (1, 4)
    assert reference_model().width() > 0 and board_model().width() > 0


def test_a_missing_model_is_named() -> None:
    with pytest.raises(models.ModelFileError, match="no-such"):
        models.read_bytes("no-such.onnx")
    with pytest.raises(SquareNetError, match="no-such"):
        load_net("no-such.onnx")
    with pytest.raises(OccupancyModelError, match="no-such"):
        load_model("no-such.json")
