"""Headless Kivy for the app's tests.

Kivy's environment is set before Kivy is first imported. ``KIVY_LOG_MODE=PYTHON``
keeps Kivy from taking over the root logger and ``sys.stderr`` (every test worker
collects these files, so nothing here may disturb other packages' tests). The app
and its window are made on first use, one per test process; every test gets its
own data and config folders. Frames pass without being drawn (software GL is most of
the cost and no test reads pixels); the window is drawn once after each test, and on
every frame with ``RAINDROP_FULL=1``. Frames come as fast as they can
(``companion_driver.unthrottled_frames``: Kivy's clock would sleep out the rest of each
60th of a second, a fifth of these tests' time): a test that needs real time to pass
waits for what it needs (``companion_driver.wait_for``, ``games_app_driver.tap_in_list``),
never counts frames for it.
"""

from __future__ import annotations

import os
import tempfile

os.environ.update(
    KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_NO_FILELOG="1", KIVY_LOG_MODE="PYTHON",
    KIVY_USE_DEFAULTCONFIG="1", KIVY_HOME=tempfile.mkdtemp(prefix="raindrop-kivy-test-"),
)

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from ui_window import TEST_WINDOW

if TYPE_CHECKING:
    from app_driver import Driver



@pytest.fixture(scope="session")
def _driver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Driver]:
    from ui.launch import configure

    configure(TEST_WINDOW, quiet=True)
    from app_driver import Driver
    from companion_driver import unthrottled_frames

    base = tmp_path_factory.mktemp("app")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAINDROP_DATA_DIR", str(base / "data"))
        patch.setenv("RAINDROP_CONFIG_DIR", str(base / "config"))
        driver = Driver.start()
    with unthrottled_frames():
        yield driver
    driver.close()


@pytest.fixture
def driver(_driver: Driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Driver]:
    """The app, back on the home screen, with its own data folder for this test."""
    monkeypatch.setenv("RAINDROP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("RAINDROP_CONFIG_DIR", str(tmp_path / "config"))
    _driver.reset()
    yield _driver
    _driver.draw()  # the screen the test left, drawn (pumped frames are not: app_driver)
    _driver.reset()


@pytest.fixture
def sized(driver: Driver, request: pytest.FixtureRequest) -> Iterator[Driver]:
    """The driver with the window at ``request.param`` (width, height): parametrize
    ``sized`` with ``indirect=True``; the test window's size comes back after."""
    from kivy.core.window import Window
    from ui_window import TEST_WINDOW

    Window.size = request.param
    driver.pump(4)
    yield driver
    Window.size = TEST_WINDOW
    driver.pump(2)
