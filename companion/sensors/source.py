"""The interface every physical-board source implements, how one is opened, and the
wrapper that runs a source's callbacks on its owner's thread.

Sources outside the core (the camera reader in ``vision``) register a factory
under the ``raindrop.boards`` entry-point group (chess boards) or
``raindrop.stone_boards`` (grid readers for the stone games), so the core never
imports them.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from importlib import metadata
from typing import Any, Protocol

import chess

from companion.sensors.snapshot import BoardSnapshot

LOGGER = logging.getLogger(__name__)


class BoardSourceError(ValueError):
    """A board source cannot be opened or named."""


@dataclasses.dataclass(frozen=True)
class SourceStatus:
    """The health of a board source, for the UI: connected or not, and why."""

    source: str
    connected: bool
    message: str = ""


@dataclasses.dataclass(frozen=True)
class LedHint:
    """Squares a board with lights (or a UI overlay) should show.

    ``targets``: legal squares for a pending card or a lifted piece;
    ``fix``: squares the players must put right; ``last_move``: the squares of
    the last committed action; ``turn``: the squares of a turn the players are to make
    for the companion (its from and to squares, or where its card goes).
    """

    targets: chess.SquareSet = dataclasses.field(default_factory=chess.SquareSet)
    fix: chess.SquareSet = dataclasses.field(default_factory=chess.SquareSet)
    last_move: chess.SquareSet = dataclasses.field(default_factory=chess.SquareSet)
    turn: chess.SquareSet = dataclasses.field(default_factory=chess.SquareSet)


SnapshotCallback = Callable[[BoardSnapshot], None]
StatusCallback = Callable[[SourceStatus], None]


class BoardSource(Protocol):
    """Something that watches a physical board and reports settled snapshots.

    ``start`` begins reporting (from any thread) through the callbacks; settling
    (waiting out hands and switch bounce) is the source's job, so every
    snapshot it reports is settled. ``show`` lights squares where the source
    can; ``stop`` releases the hardware.
    """

    name: str

    def start(self, on_snapshot: SnapshotCallback, on_status: StatusCallback) -> None: ...

    def show(self, hint: LedHint) -> None: ...

    def stop(self) -> None: ...


BoardFactory = Callable[[str], BoardSource]

_BUILTIN = {
    "sim": "companion.sensors.simulated:open_board",
    "serial": "companion.sensors.serial_board:open_board",
}


def available_sources() -> dict[str, str]:
    """Names of the board sources that can be opened, with their factories."""
    sources = dict(_BUILTIN)
    for entry in metadata.entry_points(group="raindrop.boards"):
        sources.setdefault(entry.name, entry.value)
    return sources


STONE_BOARDS = "raindrop.stone_boards"
"""The entry-point group of the stone games' grid readers (the camera's: ``camera``)."""


def available_stone_sources() -> dict[str, str]:
    """Names of the grid readers a stone game can follow, with their factories."""
    return {entry.name: entry.value for entry in metadata.entry_points(group=STONE_BOARDS)}


def load_factory(target: str) -> Callable[..., Any]:
    """The factory an entry point names (``module:attribute``); ``ImportError`` when a
    dependency of its module is missing."""
    module_name, _, attr = target.partition(":")
    module = __import__(module_name, fromlist=[attr])
    factory: Callable[..., Any] = getattr(module, attr)
    return factory


class PostedSource:
    """A board source whose callbacks run where ``post`` puts them: on the terminal's
    loop (a queue), on the app's UI thread (``Clock.schedule_once``). ``post`` takes a
    call without arguments and runs it later on the owner's thread. Works for any
    source (chess snapshots or stone grids); ``show`` and ``keep_position`` are passed
    on where the source has them."""

    def __init__(self, source: Any, post: Callable[[Callable[[], None]], None]) -> None:
        self.source = source
        self.name: str = getattr(source, "name", "board")
        self._post = post

    def start(self, on_snapshot: Callable[[Any], None],
              on_status: Callable[[SourceStatus], None]) -> None:
        post = self._post

        def snapshot(item: Any) -> None:
            post(lambda: on_snapshot(item))

        def status(item: SourceStatus) -> None:
            post(lambda: on_status(item))

        self.source.start(snapshot, status)

    def show(self, hint: LedHint) -> None:
        show = getattr(self.source, "show", None)
        if show is not None:
            show(hint)

    def stop(self) -> None:
        self.source.stop()

    def keep_position(self, snapshot: Any, board_fen: str, blue: Any = ()) -> Any:
        """Passed on to a source that keeps what it saw (the camera), else nothing."""
        keep = getattr(self.source, "keep_position", None)
        return None if keep is None else keep(snapshot, board_fen, blue)


def open_board_source(spec: str) -> BoardSource:
    """Open a board source from ``NAME[:ARGUMENT]``, e.g. ``serial:/dev/ttyACM0``.

    Raises :class:`BoardSourceError` naming the problem when the name is
    unknown or the source's dependencies are missing.
    """
    name, _, argument = spec.partition(":")
    sources = available_sources()
    if name not in sources:
        known = ", ".join(sorted(sources))
        raise BoardSourceError(f"unknown board {name!r}; known boards: {known}")
    try:
        factory: BoardFactory = load_factory(sources[name])
    except ImportError as error:
        raise BoardSourceError(
            f"the {name!r} board needs a missing dependency ({error.name}); "
            "install the project's extras, e.g. pip install -e '.[vision]'"
        ) from error
    LOGGER.info("opening board source %s", spec)
    return factory(argument)
