"""What the companion's runner tells its front ends, as frozen values.

Every event reaches the listener on the front end's own thread (the runner posts it
there), in the order things happened. ``words`` are the sentences to show and to speak.
"""

from __future__ import annotations

import dataclasses

from companion.engine.contract import Analysis, Progress
from companion.table.hints import Hint


@dataclasses.dataclass(frozen=True)
class CompanionThinking:
    """The companion has started thinking for ``seat`` (``progress`` None), or reports how
    far it has got (now and then while it thinks)."""

    seat: str
    level: int
    words: str
    progress: Progress | None = None


@dataclasses.dataclass(frozen=True)
class CompanionChose:
    """The companion played ``turn`` for ``seat`` through the session's API (in
    Raindropchess a ``flip`` was flipped from its virtual deck). ``words``: what it says
    (``"Black: knight g8 to f6."``), check included. ``squares``: the cells or squares the
    turn changed, for arrows, highlights and a sensing board's lights."""

    seat: str
    turn: str
    words: str
    analysis: Analysis | None
    squares: tuple[str, ...] = ()
    before: str = ""
    """The public position the turn was played from."""


@dataclasses.dataclass(frozen=True)
class CompanionAnswered:
    """The companion accepted or declined a draw offered to ``seat``."""

    seat: str
    accepted: bool
    words: str


@dataclasses.dataclass(frozen=True)
class CompanionClaimed:
    """The companion made a claim its rules offered (a draw claim)."""

    seat: str
    claim: str
    words: str


@dataclasses.dataclass(frozen=True)
class CompanionOffered:
    """The companion offered a draw; the other seat answers (a person: accept or decline,
    or playing on declines it)."""

    seat: str
    words: str


@dataclasses.dataclass(frozen=True)
class CompanionStopped:
    """A search was stopped before it ended (an undo, a resignation, the game closing)."""

    seat: str
    reason: str


@dataclasses.dataclass(frozen=True)
class CompanionFailed:
    """The engine could not play (a bug or an unplayable position): a person must act."""

    seat: str
    words: str


@dataclasses.dataclass(frozen=True)
class HintGiven:
    """A hint for a person's seat (counted against the hint limit)."""

    hint: Hint


@dataclasses.dataclass(frozen=True)
class HintRefused:
    """A hint was not given: ``words`` say why (the limit, the companion's turn...)."""

    seat: str
    words: str


@dataclasses.dataclass(frozen=True)
class TakenBack:
    """An undo with the companion at the table took back ``actions`` actions: the
    companion's reply and the person's last turn."""

    seat: str
    actions: int
    words: str


CompanionEvent = (CompanionThinking | CompanionChose | CompanionAnswered | CompanionClaimed
                  | CompanionOffered | CompanionStopped | CompanionFailed | HintGiven
                  | HintRefused | TakenBack)
