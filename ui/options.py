"""What a new game is made of, as chosen on the new-game screen (no Kivy)."""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from companion.clock import ClockSettings
from companion.rules import HouseRules

LOGGER = logging.getLogger(__name__)

BOARD_KINDS = ("screen", "sim", "serial", "camera")
BOARD_TITLES = {
    "screen": "On-screen board",
    "sim": "Simulated sensing board",
    "serial": "Reed-switch board (USB)",
    "camera": "Camera",
}
BOARD_EXPLANATIONS = {
    "screen": "Play by tapping the board on the tablet.",
    "sim": "A simulated sensing board that mirrors the game (for trying things out).",
    "serial": "The reed-switch board on USB, found automatically.",
    "camera": "A camera above the board; needs the calibration wizard once.",
}

# Clock choices: (label, settings or None)
CLOCK_CHOICES: tuple[tuple[str, ClockSettings | None], ...] = (
    ("No clock", None),
    ("5 min + 3 s", ClockSettings(base=300, increment=3)),
    ("10 min + 5 s", ClockSettings(base=600, increment=5)),
    ("15 min + 10 s", ClockSettings(base=900, increment=10)),
    ("25 min", ClockSettings(base=1500)),
)

JOKER_EFFECT_TEXT = {
    "extra_turn": "A joker gives the player another whole turn.",
    "remove_piece": "A joker removes an opposing piece (not the king).",
}


@dataclasses.dataclass(frozen=True)
class NewGame:
    """A new game's settings: rules, clock, and the board spec (``screen`` or a
    board source spec such as ``sim``, ``serial`` or ``serial:/dev/ttyACM0``)."""

    rules: HouseRules = dataclasses.field(default_factory=HouseRules)
    clock: ClockSettings | None = None
    board: str = "screen"
    seed: int | None = None
    table: dict[str, Any] = dataclasses.field(default_factory=dict)
    """Who plays each side and the hint limit
    (:meth:`companion.table.seats.TableSettings.to_dict`; empty: two persons)."""

    @property
    def board_kind(self) -> str:
        return self.board.partition(":")[0]

    @property
    def senses(self) -> bool:
        """Whether a sensing board (not the screen) is used."""
        return self.board_kind != "screen"
