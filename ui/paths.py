"""Where the app writes exported PGNs (journals live where companion.journal keeps them)."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import platformdirs

LOGGER = logging.getLogger(__name__)


def export_dir() -> Path:
    """The user's documents folder, in a ``Raindropchess`` folder; under the data folder
    instead when ``RAINDROP_DATA_DIR`` is set (tests, portable installs)."""
    from companion import journal  # the game's modules load with the first game

    if os.environ.get(journal.ENV_DATA_DIR):
        base = journal.data_dir() / "exports"
    else:
        base = Path(platformdirs.user_documents_dir()) / "Raindropchess"
    base.mkdir(parents=True, exist_ok=True)
    return base


def kept_frames_dir() -> Path:
    """Where the camera keeps the frames of confirmed positions when the settings say
    so (vision.keep_frames): ``camera-frames`` in the export folder."""
    return export_dir() / "camera-frames"


def settings_path() -> Path:
    """The app's own settings file (next to the games)."""
    from companion import journal

    return journal.data_dir() / "app-settings.json"
