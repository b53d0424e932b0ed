"""Saving what the window shows as a PNG."""

from __future__ import annotations

import logging
import shutil
import tempfile
from pathlib import Path

from kivy.core.window import Window

LOGGER = logging.getLogger(__name__)


def save_window(path: str | Path) -> Path:
    """Write the window's current frame to ``path`` (PNG); returns the path.

    Call after a few frames have been drawn: a window that has not drawn yet is black.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        written = Window.screenshot(name=str(Path(folder) / "shot.png"))
        if not written:
            raise OSError(f"the window could not be captured for {target}")
        shutil.move(written, target)
    LOGGER.info("screenshot %s", target)
    return target
