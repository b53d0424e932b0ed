"""A full disk (issue 60, item 3): an append is whole or absent. A write cut short (or
refused, or not flushed) is rolled back to the last whole entry before play goes on,
the action is not played and the player is told so; once space is freed play goes
on and resume finds every acknowledged action, with no warning.

The always-running variant is a fake file system: ``os.write`` on journal files runs
out of space at a chosen byte. Where the test runs as root, the same is done on a
real 64 KiB tmpfs."""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import chess
import pytest
from fault_helpers import run_main

from companion.games.resume import new_session, resume_session
from companion.journal import Journal, JournalError, read_entries
from companion.resume import new_game, resume


def _is_journal(fd: int) -> bool:
    try:
        return os.readlink(f"/proc/self/fd/{fd}").endswith((".rdj", ".rec"))
    except OSError:
        return False


class FakeDisk:
    """``os.write`` to journal files with ``free`` bytes of room: a write beyond it is
    cut short at the last free byte, and one with no room left fails (ENOSPC);
    ``refill`` > 0: the room comes back after that many failed or short writes.
    ``fsync_fails`` makes the next fsync of a journal fail (EIO) once."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, free: int, *, refill: int = 0) -> None:
        self.free = free
        self.refill = refill
        self.failures = 0
        self.fsync_fails = False
        self._write: Callable[[int, Any], int] = os.write
        self._fsync: Callable[[int], None] = os.fsync
        monkeypatch.setattr(os, "write", self.write)
        monkeypatch.setattr(os, "fsync", self.fsync)

    def write(self, fd: int, data: Any) -> int:
        if not _is_journal(fd):
            return self._write(fd, data)
        if self.free <= 0:
            self._failed()
            raise OSError(errno.ENOSPC, "No space left on device")
        written = self._write(fd, bytes(data)[:self.free])
        self.free -= written
        if written < len(data):
            self._failed()
        return written

    def _failed(self) -> None:
        self.failures += 1
        if self.refill and self.failures >= self.refill:
            self.free = 10**9

    def fsync(self, fd: int) -> None:
        if self.fsync_fails and _is_journal(fd):
            self.fsync_fails = False
            raise OSError(errno.EIO, "Input/output error")
        self._fsync(fd)


def test_a_short_write_is_rolled_back_and_play_goes_on_after_space_is_freed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session, journal = new_session("dropper", {"size": "4"}, directory=tmp_path)
    session.play("a4")
    disk = FakeDisk(monkeypatch, free=20)  # less than one entry
    with pytest.raises(JournalError, match="not saved"):
        session.play("a4>b3+d1")
    assert session.turns == ["a4"]  # not played
    assert read_entries(journal.path).problem is None  # no half entry left
    with pytest.raises(JournalError, match="not saved"):
        session.play("a4>b3+d1")  # no room at all: nothing written either
    disk.free = 10**9  # space freed
    for turn in ("a4>b3+d1", "a4>b4+d4", "b3>c2+a1"):
        session.play(turn)
    journal.close()
    resumed = resume_session(journal.path)
    assert resumed.session.turns == ["a4", "a4>b3+d1", "a4>b4+d4", "b3>c2+a1"]
    assert resumed.warnings == ()
    resumed.journal.close()


def test_a_failed_fsync_is_rolled_back_too(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    game, journal = new_game(seed=4, directory=tmp_path)
    game.flip()
    disk = FakeDisk(monkeypatch, free=10**9)
    disk.fsync_fails = True
    before = game.rfen()
    target = chess.square_name(min(game.drop_targets()))
    with pytest.raises(JournalError, match="not saved"):
        game.play_text(target)
    assert game.rfen() == before
    game.play_text(target)
    journal.close()
    resumed = resume(journal.path)
    assert resumed.game.rfen() == game.rfen() and resumed.warnings == ()
    resumed.journal.close()


@pytest.mark.parametrize("free", [0, 1, 9, 30, 46])  # an entry here is 47 bytes
def test_the_player_is_told_the_turn_was_not_saved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        free: int) -> None:
    session, journal = new_session("dropper", {"size": "4"}, directory=tmp_path)
    session.play("a4")
    journal.close()
    FakeDisk(monkeypatch, free=free, refill=1)
    code, out, _ = run_main(capsys, ["resume", str(journal.path)],
                            "a4>b3+d1\na4>b3+d1\na4>b4+d4\nquit\n")
    assert code == 0
    assert out.count("Not saved") == 1 and "not played" in out
    monkeypatch.undo()
    resumed = resume_session(journal.path)
    assert resumed.session.turns == ["a4", "a4>b3+d1", "a4>b4+d4"]
    assert resumed.warnings == ()
    resumed.journal.close()


# ----------------------------------------------------------------------
# A real file system that fills up


@contextlib.contextmanager
def small_tmpfs(folder: Path, size: str = "64k") -> Iterator[Path]:
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root; the fake file system tests above run anyway")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip()}); the fake file "
                    f"system tests above run anyway")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def _fill(folder: Path) -> Path:
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        with contextlib.suppress(OSError):
            while os.write(fd, b"\0" * 512):
                pass
    finally:
        os.close(fd)
    return filler


def test_a_real_full_disk_never_leaves_half_an_entry(tmp_path: Path) -> None:
    with small_tmpfs(tmp_path / "disk") as disk:
        path = disk / "match.rec"
        journal = Journal.at(path)
        journal.begin({"format": "toy"})
        filler = _fill(disk)
        acknowledged = 0
        failures = 0
        for number in range(1, 200):
            try:
                journal.append({"turn": f"t{number}", "pad": "x" * 700})
                acknowledged += 1
            except JournalError as error:
                assert "not saved" in str(error)
                failures += 1
                contents = read_entries(path)
                assert contents.problem is None and len(contents.entries) == acknowledged
                if failures == 3:
                    break
        assert failures == 3
        filler.unlink()  # space freed: play goes on
        for _ in range(3):
            journal.append({"turn": "after", "pad": "y" * 700})
        journal.close()
        contents = read_entries(path)
        assert contents.problem is None
        assert [e["n"] for e in contents.entries] == list(range(1, acknowledged + 4))
