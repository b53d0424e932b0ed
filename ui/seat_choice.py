"""The new-game screens' choice of who plays each side (a person or the companion at a
level) and of the hint limit, as :class:`~companion.table.seats.TableSettings` (no Kivy)."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from companion.engine.levels import LEVELS
from companion.table.seats import HintPolicy, Seat, TableSettings

LOGGER = logging.getLogger(__name__)

PERSON = "person"
SEAT_OPTIONS: list[tuple[str, str]] = [(PERSON, "Person")] + [
    (str(chosen.number), f"Companion {chosen.number}") for chosen in LEVELS]
"""A side's choices: a person, or the companion at level 1 to 5."""
HINT_OPTIONS: list[tuple[str, str]] = [("off", "Off"), ("3", "3 a game"),
                                       ("unlimited", "Unlimited")]
"""The hint limit's choices, for each person."""
DEFAULT_HINTS = "3"

LEVELS_TEXT = ", ".join(f"{chosen.number} {chosen.name}" for chosen in LEVELS)
SEAT_HELP = (f"A person plays this side on the board, or the companion does, at a level: "
             f"{LEVELS_TEXT}.")
HINT_HELP = ("How many hints each person may ask for in a game: the best turns and the "
             "chances, from the companion.")


def seat_help(choice: str) -> str:
    """The explanation under a side's choice: what it means now."""
    if choice == PERSON:
        return SEAT_HELP
    chosen = LEVELS[int(choice) - 1]
    return (f"The companion plays this side at level {chosen.number} ({chosen.name}: up to "
            f"{chosen.seconds:g} s a turn). {SEAT_HELP}")


def table_settings(names: tuple[str, str], choices: Mapping[str, str], hints: str, *,
                   playouts: int | None = None) -> TableSettings:
    """The seats chosen (``choices``: side -> ``"person"`` or a level ``"1"``..``"5"``) and
    the hint limit; ``playouts`` gives the companion a fixed budget a turn (tests)."""
    seats = []
    for name in names:
        choice = choices.get(name, PERSON)
        if choice == PERSON:
            seats.append(Seat(name))
        else:
            seats.append(Seat(name, companion=True, level=int(choice), playouts=playouts))
    return TableSettings((seats[0], seats[1]), HintPolicy.parse(hints))
