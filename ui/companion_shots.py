"""Screenshots of playing against the companion, for the docs:
``python -m ui.companion_shots docs/screenshots [--size 412x800 ...]``.

At each size (one process each: Kivy keeps one window per process): the companion
thinking (a Dropper game, the companion at level 3), a hint with its best turn ringed,
and the review after a small game (its graph and marked turns); with a Raindropchess
engine installed, the same thinking and hint on the chessboard. Named
``companion-NAME-WxH.png``.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

LOGGER = logging.getLogger(__name__)

SIZES = ((412, 800), (1280, 800), (800, 412))
Frames = Iterator[int]
PATIENCE_SECONDS = 120


def _scenes(app: Any, out: Path, size: tuple[int, int]) -> Frames:
    from companion.engine import registry
    from companion.engine.contract import EngineError
    from companion.table.seats import HintPolicy, Seat, TableSettings
    from ui.games import control
    from ui.games.demo import play_turns
    from ui.screenshots import _shrink
    from ui.shots import save_window

    def shot(name: str) -> None:
        path = save_window(out / f"companion-{name}-{size[0]}x{size[1]}.png")
        _shrink(path)
        print(f"wrote {path}")

    def until(done: Any, what: str) -> Frames:
        deadline = time.monotonic() + PATIENCE_SECONDS
        while not done():
            if time.monotonic() > deadline:
                raise RuntimeError(f"waited {PATIENCE_SECONDS} s for {what}")
            yield 1

    # Dropper against the companion (level 4: 5 s to think): it thinks, then a hint.
    settings = TableSettings((Seat("white"), Seat("black", companion=True, level=4)),
                             HintPolicy(3))
    model = control.start_game(app, "dropper", {"size": "7"}, table=settings.to_dict())
    link = model.companion
    yield 3
    turns = sorted(model.rules.turns(model.session.position))
    model.play_turn(turns[len(turns) // 2])
    yield from until(lambda: link.thinking and link.progress > 0.2, "thinking")
    yield 3
    shot("thinking")
    yield from until(lambda: not link.thinking and link.runner.persons_turn(), "its turn")
    yield 3
    model.hint()
    yield from until(lambda: bool(link.hint_lines), "the hint")
    yield 4
    shot("hint")

    # A small game to its end (level 1), then the review with its graph.
    settings = TableSettings((Seat("white"), Seat("black", companion=True, level=1)),
                             HintPolicy(3))
    model = control.start_game(app, "dropper", {"size": "5"}, table=settings.to_dict())
    screen = app.screen("games_play")
    link = model.companion
    for _ in range(60):
        yield from until(lambda: model.session.is_over or (not link.thinking
                                                            and link.runner.persons_turn()),
                         "its turn")
        if model.session.is_over:
            break
        yield from play_turns(screen, 1)
    yield 4
    from companion.table.review import timeline_of_session

    analysis = app.analyse(timeline_of_session(model.session), "games_play")
    yield from until(lambda: analysis.review is not None, "the review")
    yield 4
    shot("review")

    # Raindropchess, where its engine is installed.
    try:
        registry.engine_for_game("raindropchess")
    except EngineError as error:
        print(f"no Raindropchess pictures: {error}")
        return
    from companion.game import Game
    from ui import resume
    from ui.options import NewGame

    chess_settings = TableSettings((Seat("white"), Seat("black", companion=True, level=3)),
                                   HintPolicy(3))
    game = Game(seed=7, journal=resume.new_journal(), table=chess_settings.to_dict())
    app.start_game(NewGame(board="screen", table=chess_settings.to_dict()), game=game)
    yield 3
    from ui.demo import play_step

    for step in ("flip", "K@e1"):
        play_step(app, step)
        yield 3
    link = app.session.companion
    yield from until(lambda: link.thinking and link.progress > 0.2, "thinking")
    yield 1
    shot("chess-thinking")
    yield from until(lambda: not link.thinking and link.runner.persons_turn(), "its turn")
    yield 3
    shot("chess-turn")
    app.session.hint()
    yield from until(lambda: bool(link.hint_lines), "the hint")
    yield 4
    shot("chess-hint")
    app.end_session()


def run(out: Path, size: tuple[int, int]) -> int:
    """Make the companion's screenshots for one window size."""
    from ui.screenshots import open_app, play_scenes

    app = open_app(size, "screen")
    return play_scenes(app, _scenes(app, out, size))


def main(argv: list[str] | None = None) -> int:
    from ui.screenshots import main_over_sizes

    return main_over_sizes("ui.companion_shots", run, SIZES, __doc__, argv)


if __name__ == "__main__":
    sys.exit(main())
