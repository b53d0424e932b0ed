"""The companion at the app's table, for both kinds of game: a Kivy face on the core's
:class:`~companion.table.runner.CompanionRunner`.

A :class:`CompanionLink` runs the companion's seats of one game (a Raindropchess
:class:`~companion.game.Game` through :class:`~companion.table.chess_table.ChessTable`, an
abstract game's :class:`~companion.games.session.GameSession` through
:class:`~companion.table.games_table.GamesTable`). Its searches run off the UI thread;
every event comes back through ``Clock.schedule_once`` and is published as Kivy
properties the screens show: whether it thinks (and what it says then), the last thing it
said (``note``: its turn, an answer, a hint, a takeback), the squares or cells to show on
the board (``guide``: its turn to make on a sensing board, or the hint's best turn), the
Hint button's label. With the voice on, every ``note`` is also spoken: the sentences
spoken are the ones shown.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

from companion.engine.levels import LEVELS
from companion.table.events import (
    CompanionAnswered,
    CompanionChose,
    CompanionClaimed,
    CompanionEvent,
    CompanionFailed,
    CompanionOffered,
    CompanionStopped,
    CompanionThinking,
    HintGiven,
    HintRefused,
    TakenBack,
)
from companion.table.runner import CompanionRunner, TableError
from companion.table.speech import Speaker
from companion.table.tables import TableGame

LOGGER = logging.getLogger(__name__)

HINT_LEVEL_PLAYOUTS: int | None = None
"""Hints search with level 3's time unless the app sets playouts (tests)."""


def post(call: Callable[[], None]) -> None:
    """Run ``call`` on the Kivy thread, soon, in order."""
    Clock.schedule_once(lambda _dt: call(), -1)


def seats_text(settings: Any) -> str:
    """Who plays whom, for a panel's header: ``"White: you; Black: the companion (level
    3, club)"``."""
    parts = []
    for seat in settings.seats:
        who = seat.describe() if seat.companion else "a person"
        parts.append(f"{seat.name.capitalize()}: {who}")
    return "; ".join(parts)


class CompanionLink(EventDispatcher):  # type: ignore[misc]
    """The companion's seats of one game, on the Kivy thread (see the module's text).

    ``table``: the game's table adapter; ``speaker``: speaks each note (``None``: the voice
    is off); ``playouts``: hints searched with that many playouts (tests) instead of level
    3's time; ``on_change``: called after any property here changed (the non-Kivy models
    redraw then)."""

    thinking = BooleanProperty(False)
    thinking_text = StringProperty("")
    """``"Black is thinking (level 3)..."`` while it thinks, else ``""``. It does not
    change while the search goes on: a text drawn anew is costly while a search holds the
    interpreter (``progress`` moves a bar instead)."""
    progress = NumericProperty(0.0)
    """How far the search has gone, 0 to 1 (its time against its level's time)."""
    note = StringProperty("")
    """The last thing the companion said (shown, and spoken with the voice on)."""
    guide = ListProperty()
    """Squares (Raindropchess) or cells to show on the board: ``guide_kind`` says whose."""
    guide_kind = StringProperty("")
    """``"turn"`` (the companion's turn, to make on a sensing board), ``"hint"`` or ``""``."""
    hint_label = StringProperty("")
    """The Hint button's text (``"Hint (2 left)"``), ``""`` when hints are off."""
    hint_lines = ListProperty()
    """The last hint's sentences."""
    short_note = StringProperty("")
    """``note`` for a small screen: a turn by its text ("Black: d4>e3+a2.") instead of its
    words (the board shows it)."""

    def __init__(self, table: TableGame, *, speaker: Speaker | None = None, seed: int = 0,
                 hint_playouts: int | None = None,
                 on_change: Callable[[], None] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.table = table
        self.speaker = speaker
        self.on_change = on_change
        self.spoken: list[str] = []
        """Every sentence handed to the speaker, in order (what the screen showed)."""
        self.runner = CompanionRunner(table, post=post, listener=self._on_event, seed=seed,
                                      hint_playouts=hint_playouts)
        self._hint_label()
        self.runner.update()

    # Reading ----------------------------------------------------------------

    @property
    def settings(self) -> Any:
        return self.table.settings

    @property
    def redo_allowed(self) -> bool:
        """Redo is not offered while the companion sits at the table."""
        return False

    def refusal(self, seat: str | None = None) -> str | None:
        """Why a touch is refused now (the companion's turn), as a sentence; else None."""
        reason = self.runner.refusal(seat)
        return None if reason is None else _sentence(reason)

    def refuses_seat(self, seat: str) -> str | None:
        """Why a person may not press ``seat``'s buttons (it is the companion's)."""
        if self.settings.is_companion(seat):
            return f"{seat.capitalize()} is the companion's side: it plays by itself."
        return None

    # Acting -------------------------------------------------------------------

    def undo(self) -> str:
        """Take back the person's last turn and the companion's reply; the words said."""
        try:
            event = self.runner.undo()
        except TableError as error:
            self.say(f"Nothing taken back: {error}.")
            return self.note
        return event.words

    def hint(self) -> str | None:
        """Ask for a hint for the person to move; why not, or None (the hint follows)."""
        reason = self.runner.hint()
        if reason is None:
            self.note = "Thinking of a hint..."
            self._changed()
        return reason

    def say(self, text: str, short: str = "") -> None:
        """Show ``text`` as the companion's note and, with the voice on, speak it
        (``short``: the same for a small screen)."""
        self.short_note = short or text
        self.note = text
        if text and self.speaker is not None:
            self.spoken.append(text)
            try:
                self.speaker.say(text)
            except Exception:  # a voice never stops the game
                LOGGER.exception("speaking failed")
        self._changed()

    def clear_guide(self) -> None:
        self.guide = []
        self.guide_kind = ""
        self._changed()

    def close(self) -> None:
        self.runner.close()
        self.thinking = False
        self.thinking_text = ""

    # Events -------------------------------------------------------------------

    def _on_event(self, event: CompanionEvent) -> None:
        if isinstance(event, CompanionThinking):
            self.thinking = True
            if event.progress is None:
                self.thinking_text = event.words
                self.progress = 0.0
                self.guide = []
                self.guide_kind = ""
                self._changed()
            else:   # only the bar moves: no text to draw anew
                seconds = LEVELS[event.level - 1].seconds if 1 <= event.level <= len(
                    LEVELS) else 2.0
                self.progress = min(1.0, event.progress.seconds / seconds)
            return
        if isinstance(event, CompanionStopped):
            self.thinking = False
            self.thinking_text = ""
            self.progress = 0.0
            self._changed()
            return
        if isinstance(event, CompanionChose):
            self.thinking = False
            self.thinking_text = ""
            self.guide = list(event.squares)
            self.guide_kind = "turn" if event.squares else ""
            self.say(event.words, f"{event.seat.capitalize()}: {event.turn}.")
        elif isinstance(event, CompanionAnswered | CompanionClaimed | CompanionOffered
                        | CompanionFailed):
            self.thinking = False
            self.thinking_text = ""
            self.say(event.words)
        elif isinstance(event, HintGiven):
            hint = event.hint
            self.hint_lines = list(hint.lines)
            self.guide = list(hint.squares)
            self.guide_kind = "hint" if hint.squares else ""
            self._hint_label()
            best = hint.turns[0] if hint.turns else None
            short = f"Hint: {best.turn}. {best.chances}." if best is not None else ""
            self.say(hint_note(hint.lines), short)
        elif isinstance(event, HintRefused):
            self.say(event.words)
        elif isinstance(event, TakenBack):
            self.guide = []
            self.guide_kind = ""
            self.say(event.words)
        self._hint_label()

    def _hint_label(self) -> None:
        policy = self.settings.hints
        persons = self.settings.persons
        if policy.off or not persons:
            self.hint_label = ""
            return
        seat = self.table.seat_to_move()
        if seat is None or self.settings.is_companion(seat):
            seat = persons[0].name
        left = policy.left(self.table.hints_used(seat))
        self.hint_label = "Hint" if left is None else f"Hint ({left} left)"

    def refresh(self) -> None:
        """The game changed (a person's turn): the Hint label, and the guide goes once the
        person has played."""
        self._hint_label()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()


def hint_note(lines: Any) -> str:
    """What a hint shows in the message bar and says: the best turn with the chance (the
    other turns are in ``hint_lines``; the hints left are on the Hint button)."""
    lines = list(lines)
    return lines[0] if lines else ""


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
