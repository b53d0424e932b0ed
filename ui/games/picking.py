"""Which step a touch means: narrowing a turn builder's legal next steps by the cells
touched (no Kivy, no game special-cased).

Every :class:`~companion.games.Step` says which cells it changes. A touch on a cell keeps
the next steps that change it; when one is left, it is the step. When several are left:

- if they put different things on the touched cell (Rumbo's black or white stone), the
  player's chosen kind (``prefer``) decides, else the player is asked;
- else the player touches a second cell among the remaining steps' cells (Raindrops: the
  point to place on, then the piece to lift; Dropper: the stone to drop on, then the push
  point), and so on; steps that cannot be told apart by touches are offered as a list.

Steps that change and name no cell (Rumbo's komi and choice of side) are offered as buttons.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Collection, Iterable, Sequence

from companion.games import Step

LOGGER = logging.getLogger(__name__)

_CELL_IN_TEXT = re.compile(r"[a-z]\d{1,2}")


@dataclasses.dataclass(frozen=True)
class Picked:
    """What a touch led to. Exactly one of ``step``, ``choices``, ``waiting`` or ``problem``."""

    step: Step | None = None
    """The step to take."""
    choices: tuple[Step, ...] = ()
    """Steps the touch cannot tell apart: the player picks one."""
    waiting: tuple[str, ...] = ()
    """The cells touched so far when a further touch is needed."""
    problem: str = ""
    """Why the touch is not a legal step, in plain words."""


Known = Collection[str] | None
"""The cells on the board now (a touch can reach no other); ``None``: any cell."""


def key_cells(step: Step, known: Known = None) -> list[str]:
    """The cells a player touches for ``step``: those its text names, in order (Dropper's
    ``d5``: the stone to drop on, though nothing changes yet); else every cell it changes.
    Only cells in ``known`` count."""
    seen: list[str] = []
    for cell in _CELL_IN_TEXT.findall(step.text):
        if cell not in seen and (known is None or cell in known):
            seen.append(cell)
    return seen or sorted(cell for cell in step.changes if known is None or cell in known)


def touchable(step: Step, known: Known = None) -> set[str]:
    """Every cell a touch may pick ``step`` by: the cells it names and the cells it changes
    (of ``known``). A step with none is offered as a button."""
    return set(key_cells(step, known)) | {cell for cell in step.changes
                                          if known is None or cell in known}


def candidates(steps: Sequence[Step], touched: Sequence[str], known: Known = None,
               ) -> list[Step]:
    return [step for step in steps if touched and set(touched) <= touchable(step, known)]


def next_cells(steps: Sequence[Step], touched: Sequence[str], known: Known = None,
               ) -> frozenset[str]:
    """Where a further touch can go after ``touched``."""
    found = candidates(steps, touched, known)
    named = {cell for step in found for cell in key_cells(step, known)} - set(touched)
    return frozenset(named or {cell for step in found for cell in touchable(step, known)}
                     - set(touched))


def contents(steps: Iterable[Step], known: Known = None) -> list[str]:
    """The different things steps put on a cell, where steps on one cell differ (Rumbo's
    colours); empty when every cell is changed one way only."""
    seen: dict[str, set[str]] = {}
    for step in steps:
        for cell in key_cells(step, known)[:1]:
            seen.setdefault(cell, set()).add(step.changes.get(cell, ""))
    mixed = sorted({content for kinds in seen.values() if len(kinds) > 1 for content in kinds})
    return mixed


def pick(steps: Sequence[Step], touched: Sequence[str], cell: str, *,
         prefer: str | None = None, known: Known = None) -> Picked:
    """The outcome of touching ``cell`` after ``touched`` (a touch that fits no step
    started from ``touched`` starts afresh from ``cell``)."""
    wanted = [*touched, cell] if cell not in touched else list(touched)
    found = candidates(steps, wanted, known)
    if not found and touched:
        wanted = [cell]
        found = candidates(steps, wanted, known)
    if not found:
        return Picked(problem=f"{cell} is not a legal step here")
    if len(found) == 1:
        return Picked(step=found[0])
    kinds = {step.changes.get(cell, "") for step in found}
    if len(kinds) > 1:
        chosen = [step for step in found if step.changes.get(cell, "") == prefer]
        if len(chosen) == 1:
            return Picked(step=chosen[0])
        if chosen:
            found = chosen
        else:
            return Picked(choices=tuple(found))
    further = next_cells(found, wanted, known)
    if further:
        return Picked(waiting=tuple(wanted))
    return Picked(choices=tuple(found))


def named_by(steps: Sequence[Step], touched: Sequence[str], known: Known = None,
             ) -> tuple[Step, ...]:
    """The steps whose touchable cells are exactly ``touched`` (nothing more to touch)."""
    wanted = set(touched)
    return tuple(step for step in steps if wanted and touchable(step, known) == wanted)


def by_stroke(steps: Sequence[Step], crossed: Sequence[str], horizontal: bool,
              known: Known = None) -> Step | None:
    """The step a line drawn across the cells ``crossed`` means: one that changes them
    all and whose text cuts the way the line runs (``-`` across, ``|`` down, as
    Crumble's splits are written); the one changing fewest cells. None if no step does."""
    mark = "-" if horizontal else "|"
    wanted = set(crossed)
    found = [step for step in steps if wanted and mark in step.text.split()[0]
             and wanted <= touchable(step, known)]
    if not found:
        return None
    return min(found, key=lambda step: (len(touchable(step, known)), step.text))


@dataclasses.dataclass(frozen=True)
class ActionGroup:
    """Cell-less steps of one kind (``komi=...``): a number to set, or buttons."""

    name: str
    steps: tuple[Step, ...]
    numbers: tuple[int, ...] = ()
    """When every value is a whole number (and there are many): the values, sorted."""

    def step_for(self, value: int) -> Step:
        for step in self.steps:
            if step.text.partition("=")[2] == str(value):
                return step
        raise ValueError(f"{self.name}={value} is not allowed (from {self.numbers[0]} to "
                         f"{self.numbers[-1]})")


def action_groups(steps: Iterable[Step], known: Known = None) -> list[ActionGroup]:
    """The steps that neither change nor name a cell (of ``known``), grouped by the name
    before ``=``."""
    groups: dict[str, list[Step]] = {}
    for step in steps:
        if not touchable(step, known):
            groups.setdefault(step.text.partition("=")[0], []).append(step)
    result = []
    for name, members in groups.items():
        numbers: tuple[int, ...] = ()
        values = [step.text.partition("=")[2] for step in members]
        if len(members) > 6 and all(re.fullmatch(r"-?\d+", value) for value in values):
            numbers = tuple(sorted(int(value) for value in values))
        result.append(ActionGroup(name, tuple(members), numbers))
    return result
