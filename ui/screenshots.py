"""Screenshots of every screen, for the docs: ``python -m ui.screenshots docs/screenshots``.

Plays the scripted demo and a few set-pieces with simulated touches at each window
size (by default a 412x800 phone, the same turned, 1024x600, 1280x800 and 1920x1200)
and saves one PNG per screen and size, ``NAME-WxH.png``. Runs headless with a
throw-away data folder; with ImageMagick's ``convert`` on the path the PNGs are
reduced to 64 colours (a tenth of the size).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ui.cli import parse_size

LOGGER = logging.getLogger(__name__)

SIZES = ((412, 800), (800, 412), (1024, 600), (1280, 800), (1920, 1200))

Frames = Iterator[int]  # a scene yields how many frames to wait


def _scenes(app: Any, out: Path, size: tuple[int, int]) -> Frames:
    import chess
    from kivy.core.window import Window

    from companion.cards import Decks
    from companion.game import Game
    from companion.rules import HouseRules
    from companion.sensors.simulated import SimPiece
    from ui import touch
    from ui.demo import DEMO_SCRIPT, demo_game, play_step
    from ui.options import NewGame
    from ui.shots import save_window

    def shot(name: str) -> None:
        path = save_window(out / f"{name}-{size[0]}x{size[1]}.png")
        _shrink(path)
        print(f"wrote {path}")

    def run_script(script: tuple[str, ...] | list[str]) -> Frames:
        for step in script:
            play_step(app, step)
            yield 3
            link = app.session.link
            while link is not None and link.busy:
                yield 1

    yield 4
    shot("home")
    app.show("new_game")
    yield 4
    shot("new-game")
    app.show("settings")
    yield 3
    shot("settings")
    from kivy.uix.scrollview import ScrollView

    scroll = next(w for w in app.screen("settings").walk() if isinstance(w, ScrollView))
    scroll.scroll_y = 0  # the last settings (pieces, camera frames) and where files go
    yield 3
    shot("settings-end")
    scroll.scroll_y = 1

    # The demo on the simulated sensing board, ending with Black's rescue card.
    app.start_game(NewGame(board="sim"), game=demo_game())
    yield 3
    yield from run_script(DEMO_SCRIPT)
    yield 6
    shot("game")

    # A wrong placement on the sensing board: the squares to fix are shown.
    sim = app.session.link.source
    sim.place(chess.H1, SimPiece.of(chess.Piece(chess.BISHOP, chess.BLACK)))
    sim.advance(sim.settle)
    yield 6
    shot("game-sensing-fix")
    screen = app.screen("game")
    if screen.menu_more:  # a narrow phone: the move list and sensed board in the menu
        touch.tap(screen.ids.menu)
        yield 3
        shot("game-menu")
        screen.close_sheets()
        yield 2
    if not screen.sensed_inline:  # small screens: the sensed board behind the Board button
        if screen.menu_more:
            screen.open_sensed()
        else:
            touch.tap(screen.ids.sensed_button)
        yield 4
        shot("game-sensed-board")
        screen.close_sheets()
        yield 2
    # The bishop set down where the board sees it only faintly (a camera's pale piece
    # on a pale square): the companion asks, never places it by itself.
    sim.lift(chess.H1)
    sim.place(chess.F8, faint=True)
    sim.advance(sim.settle)
    yield 6
    shot("game-sensor-question")
    app.session.link.choose(0)
    yield 6

    screen = app.screen("game")
    # On the on-screen board: a selected piece with its targets, then the promotion picker.
    rules = HouseRules()
    game = Game(rules, decks=Decks.from_order(
        {"white": list("KPQNPPRBPPNRBPPP"), "black": list("kpnqbrpppnrpbppp")}, rules))
    app.start_game(NewGame(board="screen"), game=game)
    yield 3
    yield from run_script(["flip", "K@e1", "flip", "k@e8", "flip", "P@g6", "flip", "p@d6",
                           "g6g7", "flip", "n@c6", "flip", "Q@a4", "flip", "q@b6"])
    touch.tap_square(screen.ids.board, chess.A4)
    yield 4
    shot("game-move-targets")
    touch.tap_square(screen.ids.board, chess.G7)
    yield 2
    touch.tap_square(screen.ids.board, chess.G8)
    yield 5
    shot("promotion-picker")
    yield from run_script(["promote:q"])

    # Verify: the verdict with its four conditions and the rescue chance.
    touch.tap(screen.ids.verify)
    yield 4
    shot("verdict")
    screen.verdict_view.dismiss(animation=False)
    yield 2

    # A failed rescue: the game-over screen with the card, the reasons and the export.
    def deck(top: str, color: bool) -> list[str]:
        rest = list(rules.deck_letters(color))
        for card in top:
            rest.remove(card)
        return list(top) + rest

    game = Game(rules, decks=Decks.from_order(
        {"white": deck("KPNP", chess.WHITE), "black": deck("kpq", chess.BLACK)}, rules))
    app.start_game(NewGame(board="screen"), game=game)
    yield 3
    yield from run_script(["flip", "K@e1", "flip", "k@h8", "flip", "P@c3", "flip", "p@a6",
                           "flip", "N@f7", "flip"])
    yield 4
    app.export_pgn()
    yield 4
    shot("game-over")

    # Review from the game-over screen: the board steps through the game.
    over = app.screen("game_over")
    touch.tap(over.ids.review)
    yield 3
    review = app.screen("game").review
    review.go(3)
    yield 4
    shot("review")
    app.screen("game").close_sheets()
    yield 2

    # The settings' largest text and the Simple pieces (DejaVu Sans glyphs), on the demo.
    app.settings.text_size = "larger"
    app.settings.pieces = "dejavu"
    app.start_game(NewGame(board="sim"), game=demo_game())
    yield 3
    yield from run_script(DEMO_SCRIPT)
    yield 6
    shot("game-larger-text")
    app.settings.text_size = "normal"
    app.settings.pieces = "cburnett"
    app.apply_settings()
    yield 2

    # A camera board (the synthetic demo scene through vision's reader): the picture with
    # the grid it found, beside the game.
    from ui.camera_feed import DemoCapture
    from vision.reader import CameraBoardReader

    reader = CameraBoardReader("demo", capture_factory=lambda _source: DemoCapture(0.0),
                               live=True)
    app.start_game(NewGame(board="camera"), game=demo_game(), source=reader)
    for _ in range(1500):
        yield 1
        game_screen = app.screen("game")
        if game_screen.camera_corners and game_screen.sensed and game_screen.sensed.kind:
            break
    yield 4
    shot("game-camera")
    app.end_session()

    camera = app.screen("camera")
    app.show("camera")
    camera.start_camera(camera.demo_source)
    for _ in range(200):
        yield 1
        if camera.feed.texture is not None:
            break
    camera.feed.find_board()
    for _ in range(600):
        yield 1
        if not camera.feed.finding:
            break
    yield 3
    shot("camera-setup")
    camera.feed.stop()
    del Window


def _shrink(path: Path) -> None:
    """64 colours (ImageMagick), if ``convert`` is installed: a tenth of the bytes."""
    import shutil
    import subprocess

    convert = shutil.which("magick") or shutil.which("convert")
    if convert is None:
        return
    subprocess.run([convert, str(path), "-dither", "None", "-colors", "64",
                    f"PNG8:{path}"], check=False, capture_output=True)


def open_app(size: tuple[int, int], board: str) -> Any:
    """A RaindropApp for pictures: a window of ``size``, throwaway data and settings
    folders, no move animation, no sound (one Kivy window per process)."""
    os.environ.setdefault("RAINDROP_DATA_DIR", tempfile.mkdtemp(prefix="raindrop-shots-"))
    os.environ.setdefault("RAINDROP_CONFIG_DIR", tempfile.mkdtemp(prefix="raindrop-shots-"))
    from ui.launch import configure

    configure(size, quiet=True)
    import ui.widgets.board
    from ui.app import RaindropApp

    ui.widgets.board.ANIMATION_SECONDS = 0  # pictures of positions, not of moves
    app = RaindropApp(board=board)
    app.settings.sound = False  # pictures need no sound (and may have no audio device)
    return app


def play_scenes(app: Any, scenes: Frames) -> int:
    """Run the app through ``scenes`` (each yields how many frames to wait), then stop;
    0, or 1 with the failure said on standard error."""
    from kivy.clock import Clock

    state: dict[str, Any] = {"wait": 0, "problem": None}

    def step(_dt: float) -> bool:
        if state["wait"] > 0:
            state["wait"] -= 1
            return True
        try:
            state["wait"] = next(scenes)
        except StopIteration:
            app.stop()
            return False
        except Exception as error:
            LOGGER.exception("screenshot scene failed")
            state["problem"] = str(error)
            app.stop()
            return False
        return True

    app.bind(on_start=lambda *_: Clock.schedule_interval(step, 0))
    app.run()
    if state["problem"]:
        print(f"screenshots failed: {state['problem']}", file=sys.stderr)
        return 1
    return 0


def main_over_sizes(module: str, run: Callable[[Path, tuple[int, int]], int],
                    sizes: Sequence[tuple[int, int]], description: str | None,
                    argv: list[str] | None) -> int:
    """The command line of a screenshots module: ``OUT [--size WxH ...]``; several sizes
    run one process each (``python -m MODULE``), one Kivy window per process."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("out", type=Path, help="folder for the PNGs")
    parser.add_argument("--size", type=parse_size, action="append", metavar="WxH",
                        help="a window size (repeatable); default: "
                             + ", ".join(f"{w}x{h}" for w, h in sizes))
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    chosen = args.size or list(sizes)
    if len(chosen) == 1:
        return run(args.out, chosen[0])
    import subprocess

    status = 0
    for width, height in chosen:
        status |= subprocess.call([sys.executable, "-m", module, str(args.out),
                                   "--size", f"{width}x{height}"])
    return status


def run(out: Path, size: tuple[int, int]) -> int:
    """Make the screenshots for one window size (one Kivy window per process)."""
    app = open_app(size, "sim")
    return play_scenes(app, _scenes(app, out, size))


def main(argv: list[str] | None = None) -> int:
    return main_over_sizes("ui.screenshots", run, SIZES, __doc__, argv)


if __name__ == "__main__":
    sys.exit(main())
