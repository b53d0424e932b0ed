"""What :class:`~companion.sync.BoardSync` decided about one snapshot.

Results are frozen: the UI, the terminal and a board's LEDs read them and act
through the game or :class:`~companion.sync.BoardSync` (``choose``,
``accept_takeback``), never by changing a result.
"""

from __future__ import annotations

import dataclasses
import enum

import chess

from companion.sensors.source import LedHint


class SyncKind(enum.Enum):
    """The kinds of decision, from "all is well" to "put this right"."""

    IN_SYNC = "in_sync"          # the board shows the game's position
    WAITING = "waiting"          # an action is under way (a piece lifted, a capture half done)
    COMMITTED = "committed"      # an action was certain and the game played it
    ASK = "ask"                  # two or more actions fit: the players pick one of ``choices``
    TAKEBACK = "takeback"        # the board shows an earlier position: offer to undo
    CORRECTED = "corrected"      # the last move was slid further: undone and replayed
    MISMATCH = "mismatch"        # the board differs from the game: ``fixes`` say how to fix it
    ILLEGAL = "illegal"          # a complete physical action that is not legal (``reason``)
    TOUCH_MOVE = "touch_move"    # a piece was lifted and another one moved (R11)


@dataclasses.dataclass(frozen=True)
class Choice:
    """One answer to an ASK: undo ``undo_count`` actions, then play ``move`` (and
    then ``reply``) or remove the piece on ``remove`` (any may be absent).
    ``recolour``: squares whose piece the sensor reads in another colour than the
    game's; once chosen, that reading there is taken as the game's piece."""

    label: str
    move: chess.Move | None = None
    undo_count: int = 0
    remove: chess.Square | None = None
    reply: chess.Move | None = None   # the opponent's answer, seen at the same time
    recolour: tuple[chess.Square, ...] = ()


@dataclasses.dataclass(frozen=True)
class Fix:
    """One square the players must put right, in words (``"put the white knight
    back on e4"``, ``"e5 should be empty"``)."""

    square: chess.Square
    text: str


@dataclasses.dataclass(frozen=True)
class SyncResult:
    """One decision. ``message`` is for the players; ``led`` for lights and overlays.

    ``move`` is the action committed (COMMITTED, CORRECTED, TOUCH_MOVE with
    ``committed``), or the action refused (ILLEGAL, TOUCH_MOVE enforced).
    ``removed`` is the square a remove-piece joker emptied. ``reply`` is the
    opponent's move when both moves were seen at once (a fast reply) and both were
    committed. ``committed`` is true exactly when this decision changed the game.
    """

    kind: SyncKind
    message: str
    led: LedHint = dataclasses.field(default_factory=LedHint)
    move: chess.Move | None = None
    removed: chess.Square | None = None
    choices: tuple[Choice, ...] = ()
    undo_count: int = 0
    fixes: tuple[Fix, ...] = ()
    reason: str | None = None
    committed: bool = False
    reply: chess.Move | None = None
