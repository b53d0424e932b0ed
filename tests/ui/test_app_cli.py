"""``raindrop app``: the command's options, and the scripted demo writing a screenshot."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ui.cli import parse_size, register


def test_app_command_options() -> None:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["app"])
    assert args.board == "sim" and not args.demo and args.screenshot is None
    args = parser.parse_args(["app", "--demo", "--screenshot", "x.png", "--size", "800x1280",
                              "--board", "serial:/dev/ttyACM0"])
    assert args.demo and args.size == (800, 1280) and args.board == "serial:/dev/ttyACM0"


@pytest.mark.parametrize("text", ["800", "800x", "x600", "10x10", "80000x600", "wide"])
def test_bad_sizes_are_refused_with_the_expected_form(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=r"WIDTHxHEIGHT|out of range"):
        parse_size(text)


def test_demo_screenshot_of_the_game_screen(tmp_path: Path) -> None:
    shot = tmp_path / "demo.png"
    env = dict(os.environ, RAINDROP_DATA_DIR=str(tmp_path / "data"))
    done = subprocess.run(
        [sys.executable, "-m", "companion", "app", "--demo", "--screenshot", str(shot),
         "--size", "960x600"],
        env=env, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"screenshot saved to {shot}" in done.stdout
    # Kivy's probes for what a tablet app does not use (libmtdev, xclip) print no
    # tracebacks at the default log level.
    assert "Traceback" not in done.stderr and "MTDev" not in done.stderr, done.stderr[-3000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (960, 600)
    # Every scripted step had its effect (the demo exits 1 naming a step that had none),
    # and the demo's game is not saved as the user's game to resume.
    assert not list((tmp_path / "data").rglob("*.rdj"))
    assert len(data) > 20_000  # a drawn board, not a blank window


def test_app_help_does_not_need_a_display() -> None:
    done = subprocess.run([sys.executable, "-m", "companion", "app", "--help"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0
    assert "--screenshot" in done.stdout and "--demo" in done.stdout
