"""The Kivy side of a Raindropchess game: a :class:`RaindropSession` holds the game, its
:class:`ui.table.Table` and, with a sensing board, a :class:`ui.sensing.SensingLink`,
and publishes what to show as Kivy properties (``view``, ``sensed``).

Game events may arrive on any thread; the session only fires a
``Clock.create_trigger`` and rebuilds the view on the UI thread.
"""

from __future__ import annotations

import logging
from typing import Any

import chess
from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.properties import BooleanProperty, ObjectProperty

from ui.haptics import Haptics
from ui.sensing import SensedView, SensingLink
from ui.sound import SoundBoard, event_sound
from ui.table import GameLike, Table
from ui.table_view import TableView

LOGGER = logging.getLogger(__name__)

CLOCK_INTERVAL = 0.2


class RaindropSession(EventDispatcher):  # type: ignore[misc]
    """One Raindropchess game on screen. Call everything on the UI thread."""

    view: TableView = ObjectProperty(None, allownone=True)
    sensed: SensedView | None = ObjectProperty(None, allownone=True)
    over = BooleanProperty(False)
    link: SensingLink | None = ObjectProperty(None, allownone=True)

    def __init__(self, game: GameLike, *, link: SensingLink | None = None,
                 names: tuple[str, str] = ("White", "Black"), sounds: SoundBoard | None = None,
                 haptics: Haptics | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game = game
        self.sounds = sounds
        self.haptics = haptics
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
        self.refresh()

    # Redraw ------------------------------------------------------------

    def refresh(self, *_: Any) -> None:
        """Rebuild the view from the game (UI thread)."""
        self.view = self.table.view()
        self.over = self.view.over

    def _on_sensed(self, _link: Any, sensed: SensedView | None) -> None:
        self.sensed = sensed

    def _tick(self, _dt: float) -> None:
        if self.game.is_over:
            return
        tick = getattr(self.game, "tick", None)
        if tick is not None:
            tick()

    def _on_game_event(self, event: object) -> None:
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

    def _felt_refusal(self) -> None:
        if self.table.refused and self.haptics is not None:
            self.haptics.buzz("illegal")

    # Input (delegated to the table) ---------------------------------------

    def tap(self, square: chess.Square) -> None:
        self.table.tap(square)
        self._felt_refusal()

    def flip(self, color: chess.Color) -> None:
        self.table.flip(color)
        self._felt_refusal()

    def choose_promotion(self, piece_type: chess.PieceType) -> None:
        self.table.choose_promotion(piece_type)

    def cancel_promotion(self) -> None:
        self.table.cancel_promotion()

    def undo(self) -> None:
        self.table.undo()

    def redo(self) -> None:
        self.table.redo()

    def offer_draw(self, color: chess.Color) -> None:
        self._guard(self.table.offer_draw, color)

    def answer_draw(self, color: chess.Color, accept: bool) -> None:
        self._guard(self.table.answer_draw, color, accept)

    def claim_draw(self) -> bool:
        return self.table.claim_draw()

    def resign(self, color: chess.Color) -> None:
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
        if self.link is not None:
            self.link.stop()
        self._unsubscribe_sounds()
        self.table.close()
