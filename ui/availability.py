"""Which board sources can be used now, and why not (for the new-game screen).

Each check imports the source's module (so a missing piece says so) and, for
hardware, looks for it; none opens a device.
"""

from __future__ import annotations

import importlib
import logging

from companion.sensors.source import available_sources

LOGGER = logging.getLogger(__name__)


def _module_problem(target: str) -> str:
    module_name = target.partition(":")[0]
    try:
        importlib.import_module(module_name)
    except ImportError as error:
        return f"{module_name} cannot be imported ({error})"
    return ""


def board_status(spec: str = "") -> dict[str, str]:
    """Board kind -> "" when usable, else the reason it is not. ``spec`` is the board
    the user named (``serial:/dev/ttyACM0``): a named port is not looked for on USB."""
    status = {"screen": ""}
    sources = available_sources()
    problem = _module_problem("companion.sync:BoardSync")
    for kind in ("sim", "serial", "camera"):
        if kind not in sources:
            status[kind] = "no board source of this name is installed"
            continue
        status[kind] = problem or _module_problem(sources[kind])
    kind, _, argument = spec.partition(":")
    if not status["serial"] and not (kind == "serial" and argument):
        try:
            from companion.sensors.serial_board import find_board_ports

            if not find_board_ports():
                status["serial"] = "no reed-switch board found on USB"
        except Exception as error:  # port scanning can fail on odd systems
            status["serial"] = f"cannot look for USB boards ({error})"
    return status
