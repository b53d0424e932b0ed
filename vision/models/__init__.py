"""The models the camera reader ships, in one folder, with their manifest.

``manifest.json`` here says, for every file: what it reads and gives, which setting of
:class:`vision.config.VisionConfig` uses it, how it was trained (the lab command and its
data), its measured accuracy (with the benchmark command that measures it) and its
SHA-256, so a file trained again cannot pass unnoticed with the old figures.
The reader loads a model by its file name (:func:`read_bytes`, :func:`read_text`);
installed packages carry the folder as package data.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

MANIFEST = "manifest.json"


class ModelFileError(ValueError):
    """A shipped model file is missing or cannot be read."""


def read_bytes(name: str) -> bytes:
    """The shipped model file ``name`` (``occupancy.onnx``)."""
    try:
        return resources.files(__name__).joinpath(name).read_bytes()
    except OSError as error:
        raise ModelFileError(f"no shipped model {name!r}: {error}") from error


def read_text(name: str) -> str:
    """The shipped model file ``name`` (``occupancy_board.json``) as text."""
    return read_bytes(name).decode("utf-8")


@functools.cache
def manifest() -> dict[str, Any]:
    """The manifest: ``{"models": {file name: entry}}`` (see the module docstring)."""
    data: dict[str, Any] = json.loads(read_text(MANIFEST))
    return data
