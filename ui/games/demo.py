"""The scripted demo of an abstract game: ``raindrop app --demo GAME``. A new game
is played by simulated touches, a fixed choice of legal steps each time, for a number
of turns (mid-play), then the screen is shown (and saved with ``--screenshot``).
``--demo games`` shows the game shelf.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator
from typing import Any

from kivy.clock import Clock

from companion.games import Step
from ui.games import control
from ui.games.picking import touchable
from ui.games.touching import press, touch_step

LOGGER = logging.getLogger(__name__)

DEMO_OPTIONS: dict[str, dict[str, str]] = {
    "dropper": {"size": "8"},
    "rumbo": {"size": "9"},
    "raindrops": {"size": "8"},
    "crumble": {},
}
DEMO_TURNS = {"dropper": 9, "rumbo": 24, "raindrops": 8, "crumble": 8}
LONGEST = {"crumble": 4}
"""Steps after which a turn that may end is confirmed (Crumble's swaps could go back and
forth without end)."""
SHOWN_STEPS = {"crumble": 2}
"""Steps of the next turn taken before the picture (Crumble's: the action and a swap path)."""
FRAMES_PER_TOUCH = 2
FRAMES_BEFORE_SHOT = 8


def choose(steps: tuple[Step, ...], turn: int, depth: int) -> Step:
    """A fixed, spread-out choice among the legal steps; among numbers (a komi to name),
    the one nearest zero that draws no warning."""
    numbers = [step for step in steps if not touchable(step)
               and re.fullmatch(r"-?\d+", step.text.partition("=")[2])]
    if numbers and len(numbers) == len(steps):
        return min(numbers, key=lambda s: ("(" in s.note, abs(int(s.text.partition("=")[2]))))
    return steps[(turn * 7919 + depth * 104729 + 13) % len(steps)]


def play_turns(screen: Any, turns: int, *, stop_early: Callable[[int], bool] | None = None,
               ) -> Iterator[int]:
    """Play ``turns`` whole turns by touches (yields frames to wait). A turn that may end
    is confirmed when ``stop_early(turn)`` says so or when it cannot go on."""
    model = screen.model
    longest = LONGEST.get(model.rules.name, 10**6)
    for turn in range(turns):
        if model.session.is_over:
            return
        played = len(model.session.record)
        depth = 0
        while len(model.session.record) == played:
            builder = model.builder
            steps = builder.next_steps()
            stop = builder.complete and builder.steps and (
                not steps or len(builder.steps) >= longest
                or (stop_early is not None and stop_early(turn)))
            if stop:
                press(screen, model.session.to_move, "Confirm")
                yield FRAMES_PER_TOUCH
                continue
            for _ in touch_step(screen, choose(steps, turn, depth)):
                yield FRAMES_PER_TOUCH
            depth += 1


class GamesDemo:
    """Runs the demo of ``game`` on start, saves a screenshot and stops the app."""

    def __init__(self, app: Any, game: str, *, screenshot: str | None = None,
                 turns: int | None = None) -> None:
        self.app = app
        self.game = game
        self.screenshot = screenshot
        self.turns = DEMO_TURNS.get(game, 6) if turns is None else turns
        self._script: Iterator[int] | None = None
        self._wait = 0

    def attach(self) -> None:
        self.app.demo_driver = self  # Kivy holds bound methods weakly: keep the driver alive
        self.app.bind(on_start=self._on_start)

    def _on_start(self, *_: Any) -> None:
        if self.game == "games":
            self.app.show("shelf")
            self._script = iter([FRAMES_BEFORE_SHOT])
        else:
            control.start_game(self.app, self.game, DEMO_OPTIONS.get(self.game, {}))
            self._script = self._run()
        Clock.schedule_interval(self._tick, 0)

    def _run(self) -> Iterator[int]:
        screen = self.app.screen("games_play")
        yield 3
        yield from play_turns(screen, self.turns, stop_early=lambda turn: turn % 2 == 0)
        # One step of the next turn, so that the picture shows a turn being built and
        # its legal next steps (a one-step turn is simply played).
        model = screen.model
        for depth in range(SHOWN_STEPS.get(self.game, 1)):
            steps = (model.builder.next_steps()
                     if self.turns > 0 and not model.session.is_over else ())
            if not steps:
                break
            # A path shown mid-turn goes on to new pieces rather than straight back.
            behind = set(getattr(model.builder, "path", ())[:-1])
            steps = tuple(s for s in steps if not behind & set(s.changes)) or steps
            for _ in touch_step(screen, choose(steps, self.turns, depth)):
                yield FRAMES_PER_TOUCH
        yield FRAMES_BEFORE_SHOT

    def _tick(self, _dt: float) -> bool:
        if self._wait > 0:
            self._wait -= 1
            return True
        assert self._script is not None
        try:
            self._wait = next(self._script)
            return True
        except StopIteration:
            pass
        except Exception as error:
            LOGGER.exception("demo failed")
            self.app.exit_problem = f"demo failed: {error}"
            self.app.stop()
            return False
        if self.screenshot:
            from ui.shots import save_window

            save_window(self.screenshot)
            print(f"screenshot saved to {self.screenshot}")
            self.app.stop()
        return False
