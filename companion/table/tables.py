"""What the companion's runner needs of a live game, whatever the game.

A :class:`TableGame` wraps one session (a Raindropchess
:class:`~companion.game.Game`, :mod:`companion.table.chess_table`; an abstract game's
:class:`~companion.games.session.GameSession`, :mod:`companion.table.games_table`) and
says who must decide now (:meth:`TableGame.situation`), plays the companion's decisions
through the session's public API, takes back actions one at a time, and reads the clock
and the hint count. The runner (:mod:`companion.table.runner`) knows nothing more of
any game.

Threads: every method runs on the front end's thread, except the two marked *worker*,
which run on the companion's thread and read nothing but the :class:`Situation` given.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Mapping
from typing import Protocol

from companion.engine.contract import Analysis, Engine
from companion.engine.levels import Level
from companion.table.budget import ClockView
from companion.table.hints import HintTurn
from companion.table.seats import TableSettings

LOGGER = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class Situation:
    """Who must decide now, and what the rules let them do (a snapshot of public facts)."""

    seat: str
    """The seat that must act (the side to move, or the side a draw is offered to)."""
    position: str
    """The public position text (the engine's input)."""
    key: tuple[int, str]
    """Changes with every committed change of the game (actions so far, position)."""
    answer_draw: bool = False
    """A draw is offered to ``seat``: it must answer first."""
    claims: tuple[str, ...] = ()
    """Claims its rules offer ``seat`` now (``"draw"``)."""
    may_offer: bool = False
    """``seat`` may offer a draw before its turn."""
    player: str = ""
    """What the game calls ``seat``'s side now (Rumbo: the chooser plays ``vertical``);
    empty: the seat's name."""

    @property
    def side(self) -> str:
        return self.player or self.seat


@dataclasses.dataclass(frozen=True)
class Played:
    """A turn the companion played, as the front ends hear of it."""

    words: str
    """Its sentence(s): ``"Black: knight g8 to f6. Check: White is in check."``"""
    squares: tuple[str, ...] = ()
    """The squares or cells it changed (for arrows, highlights, a board's lights)."""


class TableGame(Protocol):
    """One live game seen by the companion's runner (see the module's text)."""

    @property
    def game(self) -> str:
        """The game's name (``"raindropchess"``, ``"dropper"``...)."""
        ...

    @property
    def settings(self) -> TableSettings:
        """Who sits where and the hint limit (the session's, from its journal's header)."""
        ...

    @property
    def engine_options(self) -> Mapping[str, str]:
        """House rules the engine is given beside the position (Raindropchess)."""
        ...

    def engine(self) -> Engine:
        """The engine that plays this game (:class:`~companion.engine.contract.EngineError`
        if none does)."""
        ...

    def key(self) -> tuple[int, str]:
        """Changes with every committed change (a turn, an undo, a claim, a draw offer)."""
        ...

    def is_over(self) -> bool: ...

    def situation(self) -> Situation | None:
        """Who must decide now, or ``None`` (the game is over or paused)."""
        ...

    def seat_to_move(self) -> str | None:
        """The seat whose turn it is (``None`` when the game is over)."""
        ...

    def claim_choice(self, engine: Engine, situation: Situation, level: Level,
                     seed: int) -> str | None:
        """*Worker*: the claim the companion makes now, if any."""
        ...

    def offer_choice(self, engine: Engine, situation: Situation, level: Level,
                     seed: int) -> bool:
        """*Worker*: whether the companion offers a draw before its turn."""
        ...

    def play(self, seat: str, turn: str, analysis: Analysis | None) -> Played:
        """Play the companion's ``turn`` for ``seat`` (``ValueError`` if it cannot be)."""
        ...

    def answer_draw(self, seat: str, accept: bool) -> str:
        """Accept or decline the draw offered to ``seat``; the sentence said."""
        ...

    def claim(self, seat: str, claim: str) -> str:
        """Make ``claim`` for ``seat``; the sentence said."""
        ...

    def offer_draw(self, seat: str) -> str:
        """Offer a draw for ``seat``; the sentence said."""
        ...

    def actors(self) -> list[str]:
        """The seat that made each action, oldest first (what undo takes back)."""
        ...

    def can_undo(self) -> bool: ...

    def undo_one(self) -> None:
        """Take back the last action (``ValueError`` if it cannot be)."""
        ...

    def clock(self, seat: str) -> ClockView | None:
        """``seat``'s clock, or ``None`` without one."""
        ...

    def hints_used(self, seat: str) -> int: ...

    def note_hint(self, seat: str) -> None:
        """Count (and journal) a hint given to ``seat``."""
        ...

    def hint_turns(self, analysis: Analysis, count: int) -> tuple[tuple[HintTurn, ...],
                                                                  tuple[str, ...]]:
        """The best ``count`` turns in words, and the squares or cells the best acts on."""
        ...

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener`` after every committed change; returns the unsubscribe."""
        ...
