"""A simulated board of stones, for the stone games' terminal and tests.

:class:`SimulatedStoneBoard` holds a stone (``b`` or ``w``) or nothing (``.``) on each
cell of a game's grid and reports the whole board as a settled
:class:`~companion.sync.stones.StoneSnapshot` after every act, as a grid reader (the
camera) does; a :class:`~companion.sync.stone_session.StoneBoardSession` follows it like
any board. Typed physical acts (``put d5 b``, ``take d5``, ``move d5 c5``) are how a
player makes a turn on it by hand; :meth:`SimulatedStoneBoard.set_cells` is the
simulated hand setting the board as the game stands.
"""

from __future__ import annotations

import logging
import shlex
from collections.abc import Callable, Mapping
from typing import Any

from companion.sensors.source import SourceStatus
from companion.sync.stones import BLACK, EMPTY, WHITE, StoneSnapshot

LOGGER = logging.getLogger(__name__)

HELP = """\
Physical acts on the simulated board of stones (cells like d5):
  put CELL b|w             set a black or white stone on CELL
  take CELL                take the stone off CELL
  move FROM TO             move the stone on FROM to TO
  show                     print the board"""

COLOURS = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}


class StoneSimulationError(ValueError):
    """A physical act that cannot be done (a stone on a full cell, an unknown cell)."""


class SimulatedStoneBoard:
    """A virtual board of stones reporting every settled board (see the module's text)."""

    def __init__(self, cells: Mapping[str, str], *, name: str = "sim") -> None:
        self.name = name
        self.cells: dict[str, str] = {}
        self.set_cells(cells, report=False)
        self.last_message = ""
        self._on_snapshot: Callable[[Any], None] | None = None
        self._time = 0.0

    # BoardSource-like ------------------------------------------------------

    def start(self, on_snapshot: Callable[[Any], None],
              on_status: Callable[[SourceStatus], None]) -> None:
        self._on_snapshot = on_snapshot
        on_status(SourceStatus(self.name, True, "simulated board of stones ready"))
        self._report()

    def stop(self) -> None:
        self._on_snapshot = None

    def _report(self) -> None:
        self._time += 1.0
        if self._on_snapshot is not None:
            self._on_snapshot(StoneSnapshot(dict(self.cells), self._time, self.name))

    # Acts --------------------------------------------------------------------

    def set_cells(self, cells: Mapping[str, str], *, report: bool = True) -> None:
        """Set the whole board (stones ``b``/``w``; anything else is read as no stone)."""
        self.cells = {cell: value if value in (BLACK, WHITE) else EMPTY
                      for cell, value in cells.items()}
        if report:
            self._report()

    def _cell(self, word: str) -> str:
        cell = word.strip().lower()
        if cell not in self.cells:
            raise StoneSimulationError(f"no cell {word!r} on this board")
        return cell

    def put(self, cell: str, colour: str) -> None:
        name = self._cell(cell)
        stone = COLOURS.get(colour.strip().lower())
        if stone is None:
            raise StoneSimulationError(f"a stone is b (black) or w (white), not {colour!r}")
        if self.cells[name] != EMPTY:
            raise StoneSimulationError(f"{name} holds a stone already")
        self.cells[name] = stone
        self._report()

    def take(self, cell: str) -> None:
        name = self._cell(cell)
        if self.cells[name] == EMPTY:
            raise StoneSimulationError(f"there is no stone on {name}")
        self.cells[name] = EMPTY
        self._report()

    def move(self, origin: str, target: str) -> None:
        start, end = self._cell(origin), self._cell(target)
        if self.cells[start] == EMPTY:
            raise StoneSimulationError(f"there is no stone on {start}")
        if self.cells[end] != EMPTY:
            raise StoneSimulationError(f"{end} holds a stone already")
        self.cells[end], self.cells[start] = self.cells[start], EMPTY
        self._report()

    # Typed commands ----------------------------------------------------------

    def is_command(self, text: str) -> bool:
        words = text.strip().split()
        return bool(words) and words[0].lower() in ("put", "take", "move", "show")

    def handle_command(self, text: str) -> bool:
        """Do a typed act; ``False`` (with :attr:`last_message` saying why) if it cannot
        be done."""
        try:
            words = shlex.split(text)
        except ValueError as error:
            self.last_message = f"cannot read {text!r}: {error}"
            return False
        command, args = words[0].lower(), words[1:]
        try:
            if command == "put" and len(args) == 2:
                self.put(args[0], args[1])
            elif command == "take" and len(args) == 1:
                self.take(args[0])
            elif command == "move" and len(args) == 2:
                self.move(args[0], args[1])
            elif command == "show":
                self.last_message = self.render()
                return True
            else:
                self.last_message = f"usage: {HELP.splitlines()[1 if command == 'put' else 2]}"
                return False
        except StoneSimulationError as error:
            self.last_message = str(error)
            return False
        self.last_message = ""
        return True

    def render(self) -> str:
        """The board's stones, a row a line, highest row first."""
        rows: dict[str, list[tuple[str, str]]] = {}
        for cell, value in self.cells.items():
            column = cell.rstrip("0123456789")
            rows.setdefault(cell[len(column):], []).append((column, value))
        lines = []
        for row in sorted(rows, key=lambda r: -int(r) if r.isdigit() else 0):
            stones = " ".join(v for _, v in sorted(rows[row], key=lambda item: (
                len(item[0]), item[0])))
            lines.append(f"{row:>2} {stones}")
        return "\n".join(lines)
