"""Simulated touches that take one step of a turn on the play screen, the way a player
would: the colour button if the step needs another colour, the cells the step names,
the offered choice or action button when touches cannot tell steps apart. Used by the
scripted demo, the screenshots and the tests.

:func:`touch_step` is a generator: it yields after every touch so that the caller lets
a frame or two pass (new buttons are placed by the next layout pass).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from companion.games import Step
from ui import touch
from ui.games import picking

LOGGER = logging.getLogger(__name__)


class TouchError(RuntimeError):
    """The touches did not take the step (a button was missing, a touch was refused)."""


def tap_cell(screen: Any, cell: str) -> None:
    board = screen.ids.board
    x, y = board.to_window(*board.cell_center(cell))
    touch.tap_at(x, y)


def find_button(root: Any, **wanted: Any) -> Any:
    """The first shown widget under ``root`` whose attributes have the wanted values."""
    for widget in root.walk():
        if widget.opacity > 0 and not getattr(widget, "disabled", False) and all(
                getattr(widget, key, None) == value for key, value in wanted.items()):
            return widget
    raise TouchError(f"no button with {wanted} is shown")


def tap_choice(button: Any) -> Iterator[None]:
    """Tap a choice's button, first scrolling it into view where the choices scroll
    (a short screen); yields while the scroll settles."""
    if touch.scroll_into_view(button):
        yield
    touch.tap(button)


def panel_of(screen: Any, side: str) -> Any:
    ids = screen.ids
    return ids.near_panel if ids.near_panel.side == side else ids.far_panel


def press(screen: Any, side: str, text: str) -> None:
    """Press the button ``text`` on ``side``'s panel."""
    touch.tap(find_button(panel_of(screen, side), text=text))


def touch_step(screen: Any, step: Step) -> Iterator[None]:
    """Take ``step`` by touches; yields after each touch. :class:`TouchError` if the
    step was not taken."""
    model = screen.model
    before = len(model.builder.steps)
    turns = len(model.session.record)

    def taken() -> bool:
        return len(model.builder.steps) > before or len(model.session.record) > turns

    known = frozenset(shape.cell for shape in model.view.layout.shapes)
    if not picking.touchable(step, known):
        group = next((g for g in model.view.actions if step in g.steps), None)
        if group is not None and group.numbers:
            wanted = int(step.text.partition("=")[2])
            while int(screen.number) != wanted:
                gap = wanted - int(screen.number)
                delta = 5 if gap >= 5 else (-5 if gap <= -5 else (1 if gap > 0 else -1))
                label = f"+{delta}" if delta > 0 else f"{delta}"
                yield from tap_choice(find_button(screen.ids.choices, text=label))
                yield
            yield from tap_choice(find_button(screen.ids.choices, action=group.name))
        else:
            yield from tap_choice(find_button(screen.ids.choices, step_text=step.text))
        yield
    else:
        cells = picking.key_cells(step, known)
        view = model.view
        first = cells[0]
        if view.contents and step.changes.get(first, "") != view.prefer:
            yield from tap_choice(find_button(screen, content=step.changes.get(first, "")))
            yield
        extra = [cell for cell in sorted(step.changes) if cell not in cells and cell in known]
        for cell in [*cells, *extra]:
            tap_cell(screen, cell)
            yield
            if taken():
                break
            if any(choice.text == step.text for choice in model.view.choices):
                yield from tap_choice(find_button(screen.ids.choices, step_text=step.text))
                yield
                break
            if model.view.alert and model.view.alert_level != "good":
                raise TouchError(f"touching {cell} for {step.text!r}: {model.view.alert}")
    if not taken():
        raise TouchError(f"the step {step.text!r} was not taken ({model.view.alert})")
    taken_step = (model.builder.steps[before] if len(model.builder.steps) > before
                  else None)
    if taken_step is not None and taken_step.text != step.text:
        raise TouchError(f"touches took {taken_step.text!r}, not {step.text!r}")
