"""The app keeps the journals' locking discipline (issue 60): a game played in another
program is refused with a message naming it, never a crash; the app lets go of a game's
journal when the game is left, so resuming the game that was running works."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from companion.games.resume import new_session
from companion.resume import new_game

if TYPE_CHECKING:
    from app_driver import Driver


@pytest.fixture
def holder(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], Path]]:
    """``raindrop resume`` of a Dropper journal in another process, holding it."""
    session, journal = new_session("dropper", {"size": "4"}, directory=tmp_path / "data")
    session.play("a4")
    journal.close()
    env = dict(os.environ, RAINDROP_DATA_DIR=str(tmp_path / "data"), PYTHONUNBUFFERED="1")
    process = subprocess.Popen([sys.executable, "-m", "companion", "resume", str(journal.path)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=env)
    assert process.stdout is not None
    seen = b""
    deadline = time.monotonic() + 120
    while b"black> " not in seen and time.monotonic() < deadline:  # it holds the journal
        ready, _, _ = select.select([process.stdout], [], [], 1.0)
        if ready:
            chunk = os.read(process.stdout.fileno(), 65536)
            if not chunk:
                break
            seen += chunk
    assert b"black> " in seen, seen
    yield process, journal.path
    process.kill()
    process.communicate(timeout=60)


def test_a_game_held_by_another_program_is_refused_with_a_message(
        driver: Driver, holder: tuple[subprocess.Popen[bytes], Path]) -> None:
    from ui.games.control import resume_path

    process, path = holder
    before = path.read_bytes()
    assert resume_path(driver.app, path) is None
    assert "in use by another program" in driver.app.message
    assert f"pid {process.pid}" in driver.app.message
    assert path.read_bytes() == before


def test_a_raindropchess_game_held_elsewhere_is_refused_on_the_saved_games_screen(
        driver: Driver, tmp_path: Path) -> None:
    from companion.journal import reopen

    game, journal = new_game(seed=1)
    game.flip()
    journal.close()
    _, held, _ = reopen(journal.path, lambda contents: None)  # another session holds it
    try:
        app = driver.app
        app.show("games")
        driver.pump()
        assert app.open_saved_now(journal.path, True) is None
        assert "in use by this program" in app.screen("games").empty_text
        assert app.session is None
    finally:
        held.close()
    assert driver.app.open_saved_now(journal.path, True) is not None  # free again


def test_resuming_the_running_game_lets_go_of_it_first(driver: Driver) -> None:
    app = driver.app
    game = driver.new_game("KQ", "k")
    driver.play(["flip", "K@e1"])
    path = Path(game.journal.path)  # type: ignore[union-attr]
    session = app.open_saved_now(path, True)
    assert session is not None and session.game is not game
    assert session.game.rfen() == game.rfen()
    assert game.journal is None  # the old game let go of it
    driver.play(["flip"])
    app.end_session()
    assert app.open_saved_now(path, True) is not None
