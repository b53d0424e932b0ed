"""The app's own settings (not the game's): names, layout, default board."""

from __future__ import annotations

import dataclasses
import json
import logging
from pathlib import Path
from typing import Any

from ui import paths

LOGGER = logging.getLogger(__name__)


@dataclasses.dataclass
class AppSettings:
    """Saved as JSON; unknown or broken files fall back to the defaults (logged)."""

    white_name: str = "White"
    black_name: str = "Black"
    face_to_face: bool = True   # Black's panel turned towards the far side of the table
    white_at_bottom: bool = True  # the board as White sees it (False: as Black sees it)
    sound: bool = True
    haptics: bool = True          # a short buzz for the same events, where there is a vibrator
    highlights: str = "standard"  # or "colour-blind": blue and orange marks, no red/green
    board_colours: str = "wood"   # or "slate"
    text_size: str = "normal"     # or "large", "larger" (ui.theme.TEXT_SIZES)
    pieces: str = "cburnett"      # or "dejavu" (ui.pieces.PIECE_SETS)
    keep_camera_frames: bool = False  # the camera keeps confirmed positions' frames
    voice: bool = False           # the companion speaks what the screen shows

    @classmethod
    def load(cls, path: Path | None = None) -> AppSettings:
        path = path or paths.settings_path()
        try:
            data: Any = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls()
        except (OSError, ValueError) as error:
            LOGGER.warning("ignoring unreadable settings %s: %s", path, error)
            return cls()
        names = {field.name for field in dataclasses.fields(cls)}
        if not isinstance(data, dict):
            return cls()
        return cls(**{key: value for key, value in data.items() if key in names})

    def save(self, path: Path | None = None) -> Path:
        path = path or paths.settings_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(dataclasses.asdict(self), indent=2) + "\n", encoding="utf-8")
        tmp.replace(path)
        return path
