"""Helpers of the fault-injection suite: a ``raindrop`` process driven through its
stdin and read as it prints (waiting on what it prints, never on a sleep), the CLI
run in-process with a scripted stdin, and small journals made in-process."""

from __future__ import annotations

import io
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.cli import main
from companion.games.resume import new_session
from companion.journal import read_entries

FULL = bool(os.environ.get("RAINDROP_FULL"))
"""Full size (``RAINDROP_FULL=1``); the default is the reduced size the suite runs."""

TIMEOUT = 120.0
"""How long a test waits on a process before it fails (never reached when all is well)."""


def cli_env(data_dir: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ, RAINDROP_DATA_DIR=str(data_dir), PYTHONUNBUFFERED="1")
    env.update(extra)
    return env


class Raindrop:
    """A ``raindrop`` process whose stdin the test writes and whose stdout it reads."""

    def __init__(self, args: list[str], data_dir: Path, **env: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", *args], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=cli_env(data_dir, **env))
        self.out = b""
        self.seen = 0  # where the next wait_for starts looking

    @property
    def pid(self) -> int:
        return self.process.pid

    def read_some(self, timeout: float) -> bool:
        """Read what the process printed within ``timeout``; False at its end of output."""
        stdout = self.process.stdout
        assert stdout is not None
        ready, _, _ = select.select([stdout], [], [], timeout)
        if not ready:
            return True
        chunk = os.read(stdout.fileno(), 65536)
        self.out += chunk
        return bool(chunk)

    def wait_for(self, text: str, timeout: float = TIMEOUT) -> str:
        """Wait until ``text`` is printed (after what earlier waits saw); the output so far."""
        wanted = text.encode()
        deadline = time.monotonic() + timeout
        while wanted not in self.out[self.seen:]:
            if time.monotonic() > deadline or not self.read_some(1.0):
                raise AssertionError(f"never printed {text!r}; output:\n"
                                     f"{self.out.decode(errors='replace')[-3000:]}")
        self.seen = self.out.index(wanted, self.seen) + len(wanted)
        return self.out.decode(errors="replace")

    def send(self, *lines: str) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write("".join(f"{line}\n" for line in lines).encode())
        stdin.flush()

    def finish(self, timeout: float = TIMEOUT) -> tuple[int, str, str]:
        """Close stdin and wait for the end: (exit status, all stdout, stderr)."""
        out, err = self.process.communicate(timeout=timeout)
        self.out += out
        return (self.process.returncode, self.out.decode(errors="replace"),
                err.decode(errors="replace"))

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.communicate(timeout=TIMEOUT)


def run_subprocess(args: list[str], data_dir: Path, stdin: str = "",
                   ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], input=stdin,
                          capture_output=True, text=True, env=cli_env(data_dir),
                          timeout=TIMEOUT, check=False)


def run_main(capsys: pytest.CaptureFixture[str], args: list[str], stdin: str | bytes = "",
             ) -> tuple[int, str, str]:
    """``raindrop ARGS`` in this process with ``stdin``: (exit status, stdout, stderr).

    Anything but a clean exit (a traceback's exception) propagates to the test."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        code = main(args)
    except SystemExit as stop:  # argparse's usage errors
        code = int(stop.code or 0)
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err: str) -> str:
    """The command's error: exactly one line, starting ``raindrop:``, no traceback."""
    lines = [line for line in err.splitlines() if line.strip()]
    assert "Traceback" not in err, err
    assert len(lines) == 1 and lines[0].startswith("raindrop: "), err
    return lines[0]


def dropper_journal(folder: Path, *turns: str, size: str = "4") -> Path:
    """A closed Dropper journal in ``folder``'s games folder holding ``turns``."""
    session, journal = new_session("dropper", {"size": size}, directory=folder)
    for turn in turns:
        session.play(turn)
    journal.close()
    return journal.path


def raindropchess_journal(folder: Path, seed: int = 3) -> tuple[Path, str]:
    """A closed Raindropchess journal after White's first flip, and a legal placement."""
    import chess

    from companion.resume import new_game

    game, journal = new_game(seed=seed, directory=folder)
    game.flip()
    journal.close()
    return journal.path, chess.square_name(min(game.drop_targets()))


def numbers(path: Path) -> list[int]:
    """The ``n`` of every line after the header, as written (no checks)."""
    import json

    found = []
    for line in path.read_bytes().splitlines()[1:]:
        found.append(json.loads(line[9:])["n"])
    return found


def entries(path: Path) -> int:
    contents = read_entries(path)
    assert contents.problem is None, contents.problem
    return len(contents.entries)
