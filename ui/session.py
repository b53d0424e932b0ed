"""The Kivy side of a Raindropchess game: a :class:`RaindropSession` holds the game, its
:class:`ui.table.Table` and, with a sensing board, a :class:`ui.sensing.SensingLink`,
and publishes what to show as Kivy properties (``view``, ``sensed``).

Game events may arrive on any thread; the session only fires a
``Clock.create_trigger`` and rebuilds the view on the UI thread.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import chess
from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.properties import BooleanProperty, ObjectProperty

from companion import events
from companion.table import words as sentences
from ui.haptics import Haptics
from ui.sensing import SensedView, SensingLink
from ui.sound import SoundBoard, event_sound
from ui.table import GameLike, Table
from ui.table_view import TableView

LOGGER = logging.getLogger(__name__)

CLOCK_INTERVAL = 0.2
BOARD_LEADS = "Make the companion's turn on the board first"
"""Why a person waits while a sensing board is led to the companion's turn."""
SIMULATED_LEADS = f"{BOARD_LEADS} (on the simulated board: tap a square of its turn)"


class RaindropSession(EventDispatcher):  # type: ignore[misc]
    """One Raindropchess game on screen. Call everything on the UI thread."""

    view: TableView = ObjectProperty(None, allownone=True)
    sensed: SensedView | None = ObjectProperty(None, allownone=True)
    over = BooleanProperty(False)
    link: SensingLink | None = ObjectProperty(None, allownone=True)
    companion: Any = ObjectProperty(None, allownone=True)
    """A :class:`ui.companion_link.CompanionLink` when the game has seats (the companion
    playing a side, or hints), else None (two persons, as before seats came)."""

    def __init__(self, game: GameLike, *, link: SensingLink | None = None,
                 names: tuple[str, str] = ("White", "Black"), sounds: SoundBoard | None = None,
                 haptics: Haptics | None = None, companion: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game = game
        self.sounds = sounds
        self.haptics = haptics
        self.companion = companion
        self._said: list[str] = []
        self._say_trigger = Clock.create_trigger(self._say_heard, -1)
        self._heard: list[str] = []
        self._sound_trigger = Clock.create_trigger(self._play_sound, -1)
        self._unsubscribe_sounds = game.subscribe(self._on_game_event)
        self._refresh_trigger = Clock.create_trigger(self.refresh, -1)
        self.table = Table(game, on_change=self._refresh_trigger, names=names)
        self.link = link
        if link is not None and link.simulated:
            self.table.hands = link
        self._clock_event = None
        if getattr(game, "clock", None) is not None:
            self._clock_event = Clock.schedule_interval(self._tick, CLOCK_INTERVAL)
        if link is not None:
            link.bind(sensed=self._on_sensed)
            link.start(self)
        if companion is not None:
            companion.on_change = self._refresh_trigger
            physical = getattr(link, "physical", None)
            if physical is not None:  # the sensing board follows the companion's turns
                from companion.table.lead import BoardLead

                companion.runner.subscribe(BoardLead(physical))
        self.refresh()

    # Redraw ------------------------------------------------------------

    def refresh(self, *_: Any) -> None:
        """Rebuild the view from the game (UI thread)."""
        view = self.table.view()
        if self.plays_companion:
            view = dataclasses.replace(view, can_redo=False)  # the companion answers anew
        self.view = view
        self.over = self.view.over
        if self.companion is not None:
            self.companion.refresh()

    @property
    def plays_companion(self) -> bool:
        """Whether the companion plays a side of this game."""
        return self.companion is not None and bool(self.companion.settings.companions)

    def _on_sensed(self, _link: Any, sensed: SensedView | None) -> None:
        self.sensed = sensed
        if self.table.refused.startswith(BOARD_LEADS) and self._board_leads() is None:
            self.table.say("")   # the board shows the companion's turn: the wait is over

    def _tick(self, _dt: float) -> None:
        if self.game.is_over:
            return
        tick = getattr(self.game, "tick", None)
        if tick is not None:
            tick()

    def _on_game_event(self, event: object) -> None:
        if self.companion is not None:
            self._tell(event)
        name = event_sound(event)
        if name is not None and (self.sounds is not None or self.haptics is not None):
            self._heard.append(name)
            self._sound_trigger()

    def _play_sound(self, *_: Any) -> None:
        """One sound and one buzz for an action's events: the one that matters most."""
        heard, self._heard = self._heard, []
        if self.sounds is not None:
            self.sounds.play_first(heard)
        if self.haptics is not None:
            self.haptics.buzz_first(heard)

    def _tell(self, event: object) -> None:
        """The game's flips, checks and verdict in the companion's sentences, shown and
        (with the voice on) spoken; the companion's own flips and checks it says itself."""
        text = None
        ours = self.companion.runner.playing is not None
        if isinstance(event, events.CardFlipped) and not ours:
            text = sentences.flip_sentence(event.color, event.card, event.outcome)
        elif isinstance(event, events.Check) and not ours:
            text = sentences.check_sentence(event.color)
        elif isinstance(event, events.GameOver):
            text = sentences.verdict_sentence(event.outcome.describe())
        if text is not None:
            self._said.append(text)
            self._say_trigger()

    def _say_heard(self, *_: Any) -> None:
        said, self._said = self._said, []
        for text in said:
            self.companion.say(text)

    def _refused(self, color: chess.Color | None = None) -> bool:
        """Whether the companion refuses a person's action now (its turn, or its side's
        button); the reason is shown."""
        if self.companion is None or self.game.is_over:
            return False
        if color is not None:
            reason = self.companion.refuses_seat(chess.COLOR_NAMES[color])
        else:
            reason = self.companion.refusal() or self._board_leads()
        if reason is None:
            return False
        self.table.say(reason)
        if self.haptics is not None:
            self.haptics.buzz("illegal")
        return True

    def _board_leads(self) -> str | None:
        """Why a person waits while the sensing board is led to the companion's turn
        (its words and squares are shown until the board shows it), or None."""
        physical = getattr(self.link, "physical", None)
        lead = physical.sync.leading if physical is not None else None
        if lead is None or not lead.until_in_sync:
            return None
        return SIMULATED_LEADS if self.link.simulated else BOARD_LEADS

    def _hand_makes_it(self, square: chess.Square) -> bool:
        """On the simulated board led to the companion's turn, a tap on a square of that
        turn has the board's hand make it (the terminal's ``make``); a real board waits
        for the players' hands."""
        link, companion = self.link, self.companion
        if link is None or companion is None or not link.simulated \
                or self._board_leads() is None:
            return False
        if chess.square_name(square) not in companion.guide:
            return False
        return bool(link.make_game_position())

    def _felt_refusal(self) -> None:
        if self.table.refused and self.haptics is not None:
            self.haptics.buzz("illegal")

    # Input (delegated to the table) ---------------------------------------

    def tap(self, square: chess.Square) -> None:
        if self._hand_makes_it(square) or self._refused():
            return
        self.table.tap(square)
        self._felt_refusal()

    def flip(self, color: chess.Color) -> None:
        if self._refused(color) or self._refused():
            return
        self.table.flip(color)
        self._felt_refusal()

    def choose_promotion(self, piece_type: chess.PieceType) -> None:
        self.table.choose_promotion(piece_type)

    def cancel_promotion(self) -> None:
        self.table.cancel_promotion()

    def undo(self) -> None:
        """One action back; with the companion at the table, the person's last turn and
        the companion's reply together."""
        if self.plays_companion and not self.game.is_over:
            self.table.cancel_promotion()
            self.companion.undo()
            self.refresh()
            return
        self.table.undo()

    def redo(self) -> None:
        if self.plays_companion:
            self.table.say("No redo against the companion: play your turn, it answers anew")
            return
        self.table.redo()

    def hint(self) -> None:
        """The Hint button: the companion's best turns for the person to move."""
        if self.companion is not None:
            self.companion.hint()

    def offer_draw(self, color: chess.Color) -> None:
        if not self._refused(color):
            self._guard(self.table.offer_draw, color)

    def answer_draw(self, color: chess.Color, accept: bool) -> None:
        if not self._refused(color):
            self._guard(self.table.answer_draw, color, accept)

    def claim_draw(self) -> bool:
        if self._refused():
            return False
        return self.table.claim_draw()

    def resign(self, color: chess.Color) -> None:
        if not self._refused(color):
            self._guard(self.table.resign, color)

    def _guard(self, action: Any, *args: Any) -> None:
        try:
            action(*args)
        except ValueError as error:
            LOGGER.info("refused: %s", error)
            self.table.say(str(error))

    def close(self) -> None:
        """Stop the clock updates and the sensing board; forget the game's events."""
        if self._clock_event is not None:
            self._clock_event.cancel()
            self._clock_event = None
        if self.companion is not None:
            self.companion.close()
        if self.link is not None:
            self.link.stop()
        self._unsubscribe_sounds()
        self.table.close()
