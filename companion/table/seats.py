"""Who sits at the table: each seat a person or the companion at a level; the hint limit.

A game has two seats, named as the game names its sides (``white`` and ``black``,
``vertical`` and ``horizontal``) or, in a game whose sides are settled by a turn
(Rumbo: the proposer names the komi, then the chooser picks a side), by the roles that
move first (``proposer`` and ``chooser``). :class:`TableSettings` (the seats and the
:class:`HintPolicy`) is written into the journal's header, so a resumed game keeps who
plays which side, and into the record's tags.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.engine.contract import MAX_PLAYOUTS
from companion.engine.levels import DEFAULT_LEVEL, LEVELS, Level, LevelError, level

LOGGER = logging.getLogger(__name__)

PERSON = "person"
COMPANION = "companion"

HINT_LIMIT_DEFAULT = 3
"""Hints a person may ask a game under the default policy."""
MAX_HINT_LIMIT = 99
CHESS_SEATS = ("white", "black")
"""Raindropchess's seats."""


class SeatError(ValueError):
    """A seat or hint setting that cannot be: an unknown side, a bad level or limit."""


@dataclass(frozen=True)
class Seat:
    """One seat: a person, or the companion at a level."""

    name: str
    """The side or role the seat plays (``"black"``, ``"chooser"``)."""
    companion: bool = False
    level: int = DEFAULT_LEVEL
    """The companion's level, 1 to 5 (kept but unused for a person)."""
    playouts: int | None = None
    """A fixed search budget (playouts, or nodes) instead of the level's time: the
    same turn on any machine under the same seed (tests, reproducible games)."""

    def __post_init__(self) -> None:
        if not self.name or not isinstance(self.name, str):
            raise SeatError(f"a seat needs a name, not {self.name!r}")
        if isinstance(self.level, bool) or not isinstance(self.level, int) \
                or not 1 <= self.level <= len(LEVELS):
            raise SeatError(f"a level is a number from 1 to {len(LEVELS)}, not {self.level!r}")
        if self.playouts is not None and (isinstance(self.playouts, bool)
                                          or not isinstance(self.playouts, int)
                                          or not 1 <= self.playouts <= MAX_PLAYOUTS):
            raise SeatError(f"playouts must be from 1 to {MAX_PLAYOUTS}, not "
                            f"{self.playouts!r}")

    @property
    def person(self) -> bool:
        return not self.companion

    @property
    def engine_level(self) -> Level:
        return level(self.level)

    def describe(self) -> str:
        """``"a person"`` or ``"the companion (level 3, club)"``."""
        if not self.companion:
            return "a person"
        chosen = level(self.level)
        budget = f", {self.playouts} playouts a turn" if self.playouts else ""
        return f"the companion (level {chosen.number}, {chosen.name}{budget})"

    def title(self) -> str:
        """A player's name for records: ``"Person"`` or ``"Companion (level 3)"``."""
        return f"Companion (level {self.level})" if self.companion else "Person"

    def text(self) -> str:
        """``person``, ``companion:3`` or ``companion:3:200`` (with playouts)."""
        if not self.companion:
            return PERSON
        return f"{COMPANION}:{self.level}" + (f":{self.playouts}" if self.playouts else "")

    @classmethod
    def from_text(cls, name: str, text: str) -> Seat:
        """The seat :meth:`text` wrote; :class:`SeatError` naming what is wrong."""
        parts = str(text).strip().lower().split(":")
        if parts == [PERSON]:
            return cls(name)
        if parts[0] != COMPANION or len(parts) > 3:
            raise SeatError(f"seat {name}: {text!r} is neither 'person' nor "
                            f"'companion[:LEVEL[:PLAYOUTS]]'")
        chosen = _level_number(parts[1]) if len(parts) > 1 else DEFAULT_LEVEL
        playouts = _playouts(parts[2]) if len(parts) > 2 else None
        return cls(name, True, chosen, playouts)


def _level_number(text: str) -> int:
    try:
        return level(text).number
    except LevelError as error:
        raise SeatError(str(error)) from None


def _playouts(text: str) -> int:
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_PLAYOUTS:
        raise SeatError(f"playouts must be a whole number from 1 to {MAX_PLAYOUTS}, "
                        f"not {text!r}")
    return int(text)


@dataclass(frozen=True)
class HintPolicy:
    """How many hints each person may ask a game: ``0`` off, ``None`` unlimited."""

    limit: int | None = None

    def __post_init__(self) -> None:
        if self.limit is not None and (isinstance(self.limit, bool)
                                       or not isinstance(self.limit, int)
                                       or not 0 <= self.limit <= MAX_HINT_LIMIT):
            raise SeatError(f"a hint limit is off, unlimited or a number from 0 to "
                            f"{MAX_HINT_LIMIT}, not {self.limit!r}")

    @classmethod
    def parse(cls, text: str) -> HintPolicy:
        """``off``, ``unlimited`` or a number (``3``); :class:`SeatError`."""
        word = str(text).strip().lower()
        if word in ("off", "none", "no"):
            return cls(0)
        if word in ("unlimited", "on", "all"):
            return cls(None)
        if word.isascii() and word.isdigit() and len(word) <= 2:
            return cls(int(word))
        raise SeatError(f"hints are off, unlimited or a number (3), not {text!r}")

    @property
    def off(self) -> bool:
        return self.limit == 0

    def text(self) -> str:
        """``off``, ``unlimited`` or the number."""
        if self.limit is None:
            return "unlimited"
        return "off" if self.limit == 0 else str(self.limit)

    def describe(self) -> str:
        if self.limit is None:
            return "hints: unlimited"
        if self.limit == 0:
            return "hints: off"
        return f"hints: {self.limit} a game for each person"

    def left(self, used: int) -> int | None:
        """Hints left after ``used`` (``None``: unlimited)."""
        return None if self.limit is None else max(0, self.limit - used)

    def refusal(self, used: int) -> str | None:
        """Why one more hint is refused after ``used`` (``None``: it is given)."""
        if self.limit == 0:
            return "hints are off in this game"
        if self.limit is not None and used >= self.limit:
            return (f"no hints left: {self.limit} a game, all used")
        return None


@dataclass(frozen=True)
class TableSettings:
    """The seats, in the game's seat order, and the hint policy."""

    seats: tuple[Seat, Seat]
    hints: HintPolicy = HintPolicy()

    def __post_init__(self) -> None:
        if len(self.seats) != 2 or self.seats[0].name == self.seats[1].name:
            raise SeatError("a table has two seats with different names")

    @classmethod
    def hot_seat(cls, names: Iterable[str], hints: HintPolicy | None = None) -> TableSettings:
        """Two persons."""
        first, second = tuple(names)
        return cls((Seat(first), Seat(second)), hints or HintPolicy())

    @property
    def names(self) -> tuple[str, str]:
        return self.seats[0].name, self.seats[1].name

    def seat(self, name: str) -> Seat:
        """The seat named ``name``; :class:`SeatError` naming the seats there are."""
        for seat in self.seats:
            if seat.name == name:
                return seat
        raise SeatError(f"no seat {name!r} (seats: {', '.join(self.names)})")

    def is_companion(self, name: str) -> bool:
        return any(seat.name == name and seat.companion for seat in self.seats)

    @property
    def companions(self) -> tuple[Seat, ...]:
        return tuple(seat for seat in self.seats if seat.companion)

    @property
    def persons(self) -> tuple[Seat, ...]:
        return tuple(seat for seat in self.seats if not seat.companion)

    def with_seat(self, seat: Seat) -> TableSettings:
        """These settings with ``seat`` replacing the seat of its name."""
        self.seat(seat.name)
        first, second = (seat if s.name == seat.name else s for s in self.seats)
        return replace(self, seats=(first, second))

    def with_hints(self, hints: HintPolicy) -> TableSettings:
        return replace(self, hints=hints)

    def describe(self) -> str:
        """``"white: a person; black: the companion (level 3, club); hints: 3 a game"``."""
        seats = "; ".join(f"{seat.name}: {seat.describe()}" for seat in self.seats)
        return f"{seats}; {self.hints.describe()}"

    def to_dict(self) -> dict[str, Any]:
        """For the journal's header: ``{"seats": {"white": "person", ...}, "order":
        [...], "hints": "3"}``."""
        return {"order": list(self.names),
                "seats": {seat.name: seat.text() for seat in self.seats},
                "hints": self.hints.text()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], names: Iterable[str]) -> TableSettings:
        """Settings from :meth:`to_dict` (a header without them: two persons, unlimited
        hints, as before seats were kept); :class:`SeatError` for a bad entry."""
        wanted = tuple(names)
        if not data:
            return cls.hot_seat(wanted)
        if not isinstance(data, Mapping):
            raise SeatError(f"the table settings are not a mapping: {data!r}")
        seats = data.get("seats") or {}
        if not isinstance(seats, Mapping) or set(seats) != set(wanted):
            raise SeatError(f"the seats {sorted(seats) if isinstance(seats, Mapping) else seats!r}"
                            f" are not this game's ({', '.join(wanted)})")
        first, second = (Seat.from_text(name, str(seats[name])) for name in wanted)
        return cls((first, second), HintPolicy.parse(str(data.get("hints", "unlimited"))))

    def tags(self) -> dict[str, str]:
        """Record tags: ``Seats`` (``white=person black=companion:3``) and ``Hints``."""
        return {"Seats": " ".join(f"{seat.name}={seat.text()}" for seat in self.seats),
                "Hints": self.hints.text()}


def parse_companions(specs: Iterable[str], names: tuple[str, str], *,
                     playouts: int | None = None,
                     hints: HintPolicy | None = None) -> TableSettings:
    """Settings from ``--companion SIDE[:LEVEL]`` words (``black``, ``white:2``, ``both``,
    ``both:1``); every other seat a person. :class:`SeatError` naming a bad word."""
    seats = {name: Seat(name) for name in names}
    for spec in specs:
        side, _, number = str(spec).strip().lower().partition(":")
        chosen = _level_number(number) if number else DEFAULT_LEVEL
        targets = names if side in ("both", "all") else (side,)
        for target in targets:
            if target not in seats:
                raise SeatError(f"--companion {spec}: no side {side!r} in this game "
                                f"(sides: {', '.join(names)}, or both)")
            seats[target] = Seat(target, True, chosen, playouts)
    first, second = names
    return TableSettings((seats[first], seats[second]), hints or HintPolicy())
