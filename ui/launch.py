"""Starting Kivy the way the app needs it: environment and window configured
before Kivy is first imported, then the app run (optionally with the demo and
a screenshot)."""

from __future__ import annotations

import logging
import os
import sys
import tempfile
from pathlib import Path

LOGGER = logging.getLogger(__name__)

DEFAULT_SIZE = (1280, 800)


# Kivy probes for things a tablet app does not use and logs each miss with a traceback:
# multitouch devices through libmtdev, and the X cut buffer through xclip/xsel.
_HARMLESS = ("Input: MTDev is not supported", "Cutbuffer: Unable to find",
             "xclip - ", "xsel - ")


class _HarmlessProbes(logging.Filter):
    """Keeps Kivy's failed optional probes out of the log unless debugging."""

    def filter(self, record: logging.LogRecord) -> bool:
        if logging.getLogger("kivy").isEnabledFor(logging.DEBUG):
            return True
        message = str(record.msg)
        return not message.startswith(_HARMLESS)


def configure(size: tuple[int, int] | None = None, *, quiet: bool = False) -> None:
    """Set Kivy's environment and window before its first import (no-op for what is set)."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    # The system clipboard through SDL2 (xclip/xsel are rarely installed on a tablet).
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2,dummy")
    kivy_logger = logging.getLogger("kivy")
    if not any(isinstance(f, _HarmlessProbes) for f in kivy_logger.filters):
        kivy_logger.addFilter(_HarmlessProbes())
    # Kivy logs through Python logging: it must not take over the root logger or stderr.
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    if quiet:
        os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
        os.environ.setdefault("KIVY_NO_FILELOG", "1")
        os.environ.setdefault("KIVY_USE_DEFAULTCONFIG", "1")
        os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="raindrop-kivy-"))
    from kivy.config import Config

    width, height = size or DEFAULT_SIZE
    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "resizable", "1")
    Config.set("input", "mouse", "mouse,disable_multitouch")
    Config.set("kivy", "exit_on_escape", "0")


def launch(*, board: str = "sim", demo: bool = False, screenshot: str | None = None,
           size: tuple[int, int] | None = None, game: str | None = None,
           turns: int | None = None, keep_frames: tuple[Path, str] | None = None) -> int:
    """Run the app; returns the exit status."""
    if game is not None and screenshot is not None:
        # a screenshot run leaves the player's saved games alone
        os.environ.setdefault("RAINDROP_DATA_DIR", tempfile.mkdtemp(prefix="raindrop-demo-"))
    configure(size, quiet=screenshot is not None)
    from ui.app import RaindropApp

    app = RaindropApp(board=board, keep_frames=keep_frames)
    if game is not None:
        from ui.games.demo import GamesDemo

        GamesDemo(app, game, screenshot=screenshot, turns=turns).attach()
    elif demo or screenshot:
        from ui.demo import DemoDriver

        DemoDriver(app, screenshot=screenshot, play=demo).attach()
    app.run()
    if app.exit_problem is not None:
        print(f"raindrop app: {app.exit_problem}", file=sys.stderr)
        return 1
    return 0
