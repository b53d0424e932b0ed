"""Headless Kivy for the app's tests: the environment is set before Kivy is first
imported, one app (and window) per test process, a fresh data folder per test."""

from __future__ import annotations

import os
import tempfile

_KIVY_HOME = tempfile.mkdtemp(prefix="raindrop-kivy-test-")
os.environ.update(
    KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_NO_FILELOG="1",
    KIVY_USE_DEFAULTCONFIG="1", KIVY_HOME=_KIVY_HOME,
)
os.environ.setdefault("RAINDROP_DATA_DIR", tempfile.mkdtemp(prefix="raindrop-data-test-"))
os.environ.setdefault("RAINDROP_CONFIG_DIR", tempfile.mkdtemp(prefix="raindrop-config-test-"))

from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from ui.launch import configure  # noqa: E402

configure((960, 600), quiet=True)  # smaller than a tablet: software GL is slow

from app_driver import Driver  # noqa: E402


@pytest.fixture(scope="session")
def _driver() -> Iterator[Driver]:
    driver = Driver.start()
    yield driver
    driver.close()


@pytest.fixture
def driver(_driver: Driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Driver]:
    """The app, back on the home screen, with its own data folder for this test."""
    monkeypatch.setenv("RAINDROP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("RAINDROP_CONFIG_DIR", str(tmp_path / "config"))
    _driver.reset()
    yield _driver
    _driver.reset()
