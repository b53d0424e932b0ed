"""The camera calibration stored between runs: where the board is and which corner is a1.

It lives as JSON in the user's config directory (``platformdirs``), or in
the directory named by ``RAINDROP_CONFIG_DIR`` (tests use a temporary one),
or in a file given explicitly.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
from pathlib import Path
from typing import Any

import platformdirs

from vision.errors import CalibrationError
from vision.geometry import BoardGeometry

LOGGER = logging.getLogger(__name__)

ENV_VAR = "RAINDROP_CONFIG_DIR"
FILE_NAME = "camera.json"
VERSION = 1


@dataclasses.dataclass(frozen=True)
class Calibration:
    """A board geometry (a8, h8, h1, a1), how it was found, and the source it was found on."""

    geometry: BoardGeometry
    method: str
    source: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"version": VERSION, "method": self.method, "source": self.source,
                "geometry": self.geometry.to_json()}

    @classmethod
    def from_json(cls, data: Any) -> Calibration:
        if not isinstance(data, dict) or data.get("version") != VERSION:
            raise CalibrationError(f"not a version {VERSION} camera calibration")
        return cls(BoardGeometry.from_json(data.get("geometry")), str(data.get("method", "")),
                   str(data.get("source", "")))


def default_path() -> Path:
    """Where the calibration is kept: $RAINDROP_CONFIG_DIR or the user's config dir."""
    base = os.environ.get(ENV_VAR) or platformdirs.user_config_dir("raindrop")
    return Path(base) / FILE_NAME


def load_calibration(path: Path | None = None) -> Calibration | None:
    """The stored calibration, None when there is none; CalibrationError when it is broken."""
    path = path or default_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        return Calibration.from_json(json.loads(text))
    except json.JSONDecodeError as error:
        raise CalibrationError(f"{path} is not valid JSON ({error}); run "
                               "'raindrop vision calibrate' again") from error
    except CalibrationError as error:
        raise CalibrationError(f"{path}: {error}; run 'raindrop vision calibrate' again") \
            from error


def save_calibration(calibration: Calibration, path: Path | None = None) -> Path:
    """Store ``calibration`` (atomically: write then rename); returns the path."""
    path = path or default_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(calibration.to_json(), indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)
    LOGGER.info("saved camera calibration to %s", path)
    return path
