"""A Rumbo position: stones, the phase or side to move, the komi, the claims, the options.

The canonical text is ``rumbo STONES SIDE KOMI CLAIMS [OPTIONS]`` (rules file,
section 10). Two positions are equal exactly when their canonical texts are.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from companion.games.rumbo.board import Geometry, geometry
from companion.games.rumbo.groups import Groups, analyse

LOGGER = logging.getLogger(__name__)

NAME = "rumbo"

PROPOSER = "proposer"
"""``to_move`` in phase ``k``: the person who names the komi."""
CHOOSER = "chooser"
"""``to_move`` in phase ``s``: the person who picks a side."""
VERTICAL = "vertical"
HORIZONTAL = "horizontal"

MOVER: Mapping[str, str] = {"k": PROPOSER, "s": CHOOSER, "v": VERTICAL, "h": HORIZONTAL}
"""SIDE field -> ``to_move``."""

OPTION_NAMES = ("edgeholes", "nostraight")
"""The on/off options, in canonical (sorted) order."""


_new = object.__new__
_set = object.__setattr__


@dataclass(frozen=True)
class RumboPosition:
    """One position. Build it with :func:`companion.games.rumbo.parse` or the rules' ``start``.

    ``stones`` and ``claims`` are the STONES and CLAIMS fields of the position
    text as they are written: row N first, each row from column a, rows joined
    by ``/`` (see :mod:`companion.games.rumbo.board` for the indices).
    """

    size: int
    stones: str
    """``.`` empty, ``b`` black, ``w`` white."""
    side: str
    """``k`` (komi to name), ``s`` (side to choose), ``v`` or ``h`` (to place)."""
    komi: int | None
    """``None`` exactly in phase ``k``."""
    claims: str
    """``v`` / ``h``: the stone's group is claimed by that player; ``.`` otherwise."""
    edgeholes: bool = False
    nostraight: bool = False

    @classmethod
    def fast(cls, fields: dict[str, object], stones: str) -> RumboPosition:
        """A position of ``fields`` (every field but the stones, as in :meth:`__init__`)
        with ``stones``, made without the checks of the dataclass's constructor."""
        pos = _new(cls)
        values = dict(fields)
        values["stones"] = stones
        _set(pos, "__dict__", values)
        return pos

    def __hash__(self) -> int:
        return hash((self.stones, self.claims, self.side, self.komi))

    @property
    def to_move(self) -> str:
        """``"proposer"`` (phase k), ``"chooser"`` (phase s), ``"vertical"`` or ``"horizontal"``."""
        return MOVER[self.side]

    @property
    def geometry(self) -> Geometry:
        return geometry(self.size)

    @property
    def setup(self) -> bool:
        """True in the setup phases (komi still to name, or side still to choose)."""
        return self.side in ("k", "s")

    @property
    def full(self) -> bool:
        """True when every point holds a stone: the game is over."""
        return "." not in self.stones

    @cached_property
    def groups(self) -> Groups:
        """The groups of the board (computed once)."""
        return analyse(self.stones, geometry(self.size))

    def text(self) -> str:
        """The canonical position text."""
        komi = "?" if self.komi is None else self.komi
        if self.edgeholes or self.nostraight:
            options = ",".join(name for name in OPTION_NAMES if getattr(self, name))
            return f"{NAME} {self.stones} {self.side} {komi} {self.claims} {options}"
        return f"{NAME} {self.stones} {self.side} {komi} {self.claims}"

    def cells(self) -> Mapping[str, str]:
        """Every point (``"a9"``...) and its stone: ``.``, ``b`` or ``w``; claims are not seen."""
        geo = geometry(self.size)
        return {geo.names[i]: self.stones[i] for i in geo.points}

    def stone(self, point: str) -> str:
        """The stone on a point (``"c3"``): ``.``, ``b`` or ``w``; ValueError for a bad point."""
        return self.stones[geometry(self.size).point(point)]

    def claim(self, point: str) -> str:
        """The claim mark on a point: ``v``, ``h`` or ``.``; ValueError for a bad point."""
        return self.claims[geometry(self.size).point(point)]

    def options(self) -> dict[str, str]:
        """The start options that rebuild this game's rules: ``size``, ``edgeholes``, ..."""
        values = {"size": str(self.size)}
        for name in OPTION_NAMES:
            values[name] = "on" if getattr(self, name) else "off"
        return values

    def __str__(self) -> str:
        return self.text()
