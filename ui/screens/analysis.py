"""The review after a game, with the companion: the engine's estimate after each turn as a
graph, each turn marked (good, inaccuracy, mistake, blunder, by the chance it gave away)
with the better turn, for both kinds of game. The review runs off the UI thread
(:class:`companion.table.review.Reviewing`); its progress is shown while it runs. Looks
in ``analysis.kv``."""

from __future__ import annotations

import logging
import os
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

import ui.widgets.common  # noqa: F401  (ScreenHeader)
from companion.table import words
from companion.table.review import plural_mark
from ui import theme

LOGGER = logging.getLogger(__name__)

MARK_COLOURS = {"good": (0.55, 0.80, 0.55, 1), "inaccuracy": (0.95, 0.85, 0.30, 1),
                "mistake": (0.98, 0.58, 0.20, 1), "blunder": (0.95, 0.28, 0.25, 1)}
MARK_WORDS = {"good": "good", "inaccuracy": "inaccuracy", "mistake": "mistake",
              "blunder": "blunder"}


def _hex(rgba: Any) -> str:
    return "".join(f"{round(channel * 255):02x}" for channel in rgba[:3])


class EstimateGraph(Widget):
    """The first seat's expected score (0 to 1) at the start and after each turn: a line
    over a band split at one half, a dot per turn in its mark's colour (a bigger dot for
    a worse mark), the turn ``selected`` ringed."""

    values = ListProperty()
    marks = ListProperty()
    """One mark per turn (``values`` has one point more: the start)."""
    selected = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs: Any) -> None:
        self._redraw = Clock.create_trigger(self._draw, -1)
        super().__init__(**kwargs)
        for name in ("pos", "size", "values", "marks", "selected"):
            self.fbind(name, self._redraw)

    def point(self, index: int) -> tuple[float, float]:
        """Where the graph's point ``index`` is drawn (0: the start)."""
        count = max(1, len(self.values) - 1)
        pad = dp(10)
        x = self.x + pad + (self.width - 2 * pad) * index / count
        y = self.y + pad + (self.height - 2 * pad) * float(self.values[index])
        return x, y

    def _draw(self, *_: Any) -> None:
        canvas = self.canvas
        canvas.clear()
        with canvas:
            Color(*theme.SURFACE)
            Rectangle(pos=self.pos, size=self.size)
            middle = self.y + self.height / 2
            Color(1, 1, 1, 0.06)   # the first seat's half, lighter
            Rectangle(pos=(self.x, middle), size=(self.width, self.height / 2))
            Color(*theme.TEXT_DIM[:3], 0.6)
            Line(points=[self.x, middle, self.right, middle], width=1, dash_length=6,
                 dash_offset=4)
            if len(self.values) >= 2:
                points = [value for index in range(len(self.values))
                          for value in self.point(index)]
                Color(*theme.ACCENT)
                Line(points=points, width=max(1.5, dp(1.8)))
            for index, mark in enumerate(self.marks, start=1):
                if index >= len(self.values):
                    break
                x, y = self.point(index)
                radius = dp({"good": 2.5, "inaccuracy": 4, "mistake": 5, "blunder": 6}
                            .get(mark, 3))
                Color(*MARK_COLOURS.get(mark, theme.TEXT))
                Ellipse(pos=(x - radius, y - radius), size=(2 * radius, 2 * radius))
            if self.selected is not None and 0 < self.selected < len(self.values):
                x, y = self.point(int(self.selected))
                Color(*theme.TEXT)
                Line(circle=(x, y, dp(9)), width=dp(1.5))

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos) or len(self.values) < 2:
            return False
        nearest = min(range(1, len(self.values)), key=lambda i: abs(self.point(i)[0] - touch.x))
        self.selected = nearest
        return True


class TurnRow(Label):
    """One turn of the review, in words, with its mark."""

    number = ObjectProperty(0)


class AnalysisScreen(Screen):
    """Shows a :class:`companion.table.review.Review` as it comes; ``back_to`` is the
    screen the Back button returns to (the game's end)."""

    title = StringProperty("Review with the companion")
    status = StringProperty("")
    summary = StringProperty("")
    detail = StringProperty("")
    """The selected turn in words (tap a dot of the graph or a turn of the list)."""
    running = BooleanProperty(False)
    back_to = StringProperty("home")
    review = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.job: Any = None

    def start(self, timeline: Any, budget: Any, back_to: str) -> None:
        """Review ``timeline`` within ``budget`` a position (off the UI thread)."""
        from companion.table.review import Reviewing

        self.stop()
        self.back_to = back_to
        self.review = None
        self.summary = self.detail = ""
        self.ids.turns.clear_widgets()
        self.ids.graph.values = []
        self.ids.graph.marks = []
        self.ids.graph.selected = None
        self.title = f"Review of the game ({len(timeline.plies)} turns)"
        if not timeline.plies:
            self.status = "No turns to review: the game ended before its first turn."
            return
        total = len(timeline.plies) + 1
        self.status = f"The companion reviews the game: 0 of {total} positions..."
        self.running = True

        def progress(done: int, count: int) -> None:
            Clock.schedule_once(lambda _dt: self._progress(job, done, count), -1)

        def done(finished: Any) -> None:
            Clock.schedule_once(lambda _dt: self._done(finished), -1)

        job = Reviewing(timeline, budget=budget, on_progress=progress, on_done=done)
        self.job = job
        job.start()

    def _progress(self, job: Any, done: int, total: int) -> None:
        if job is self.job and self.running:
            self.status = f"The companion reviews the game: {done} of {total} positions..."

    def _done(self, job: Any) -> None:
        if job is not self.job:
            return
        self.running = False
        try:
            review = job.result(0)
        except (ValueError, TimeoutError) as error:
            self.status = f"No review: {error}"
            return
        self.show(review)

    def show(self, review: Any) -> None:
        """Draw ``review``: the graph, the counts and every turn."""
        self.review = review
        graph = self.ids.graph
        graph.values = list(review.graph)
        graph.marks = [turn.mark for turn in review.turns]
        first, second = review.seats
        self.status = (f"The line is {words.side_words(first)}'s chance (top: "
                       f"{words.side_words(first)} wins; bottom: {words.side_words(second)} "
                       f"wins)." + ("" if review.complete else " Stopped before the end."))
        parts = []
        for seat in review.seats:
            counts = review.counts(seat)
            shown = ", ".join(f"{count} {plural_mark(name, count)}"
                              for name, count in counts.items() if count)
            parts.append(f"{words.side_words(seat)}: {shown or 'no turns'}")
        self.summary = "   ".join(parts) + (f"\n{review.result}" if review.result else "")
        box = self.ids.turns
        box.clear_widgets()
        for turn in review.turns:
            colour = _hex(MARK_COLOURS.get(turn.mark, theme.TEXT))
            text = (f"[color={colour}]\u25cf {MARK_WORDS.get(turn.mark, turn.mark)}[/color]  "
                    f"{escape_markup(turn.sentence())}")
            row = TurnRow(text=text, number=turn.number)
            row.bind(on_touch_down=self._row_touched)
            box.add_widget(row)
        worst = max(review.turns, key=lambda t: t.lost, default=None)
        if worst is not None:
            self.select(worst.number)

    def _row_touched(self, row: TurnRow, touch: Any) -> bool:
        if row.collide_point(*touch.pos):
            self.select(int(row.number))
            return True
        return False

    def select(self, number: int) -> None:
        """Show turn ``number`` (from 1) in words, ringed on the graph."""
        review = self.review
        if review is None or not 1 <= number <= len(review.turns):
            return
        self.ids.graph.selected = number
        turn = review.turns[number - 1]
        first = words.side_words(review.seats[0])
        self.detail = (f"{turn.sentence()}  {first}'s chance after it: "
                       f"{round(turn.estimate * 100)}%.")

    def on_graph_selected(self, number: Any) -> None:
        if number is not None:
            self.select(int(number))

    def stop(self) -> None:
        if self.job is not None:
            self.job.stop()
            self.job = None
        self.running = False

    def on_leave(self, *_: Any) -> None:
        self.stop()


Builder.load_file(os.path.join(os.path.dirname(__file__), "analysis.kv"))
