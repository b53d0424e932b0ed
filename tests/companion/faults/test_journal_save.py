"""``save FILE`` never writes over a file (issue 60, item 2): not the game's own
journal, not any other file, not a folder's name; a failed save leaves no stray
temporary file, and the turns played after it are journaled as ever."""

from __future__ import annotations

from pathlib import Path

import pytest
from fault_helpers import dropper_journal, raindropchess_journal, run_main

from companion.games.record import read_record
from companion.games.resume import resume_session
from companion.journal import read_entries
from companion.resume import resume


def test_save_onto_its_own_journal_is_refused_and_nothing_is_lost(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = dropper_journal(tmp_path, "a4")
    before = path.read_bytes()
    code, out, _ = run_main(capsys, ["resume", str(path)],
                            f"save {path}\na4>b3+d1\nquit\n")
    assert code == 0
    assert f"{path} exists already" in out and "nothing was written" in out
    assert path.read_bytes().startswith(before)
    resumed = resume_session(path)
    assert resumed.session.turns == ["a4", "a4>b3+d1"] and resumed.warnings == ()
    resumed.journal.close()


def test_save_refuses_any_existing_file_or_folder_and_leaves_no_stray(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    folder = tmp_path / "folder"
    folder.mkdir()
    new = tmp_path / "new.txt"
    code, out, _ = run_main(
        capsys, ["play", "--game", "dropper", "size=4", "--data-dir", str(tmp_path / "data")],
        f"a4\nsave {notes}\nsave {folder}\nsave {new}\nsave {new}\nsave\nsave\nquit\n")
    assert code == 0
    assert notes.read_text() == "mine" and folder.is_dir() and not any(folder.iterdir())
    assert out.count("exists already") == 3
    assert read_record(new.read_text()).session.turns == ["a4"]
    (journal,) = (tmp_path / "data" / "games").glob("*.rdj")
    record = journal.with_suffix(".txt")  # the default file beside the journal is its own
    assert read_record(record.read_text()).session.turns == ["a4"]
    assert out.count(f"Saved the record as {record}") == 2
    everything = [p.name for p in tmp_path.rglob("*")]
    assert not [name for name in everything if name.endswith(".tmp")], everything
    assert len(read_entries(journal).entries) == 1


def test_raindropchess_save_and_export_never_overwrite_either(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, placement = raindropchess_journal(tmp_path)
    before = path.read_bytes()
    folder = tmp_path / "folder"
    folder.mkdir()
    code, out, _ = run_main(capsys, ["resume", str(path), "--board", "none", "--no-color"],
                            f"save {path}\nsave {folder}\n{placement}\nquit\n")
    assert code == 0 and out.count("exists already") == 2
    assert path.read_bytes().startswith(before)
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith(".tmp")]
    again = resume(path)
    assert len(again.game.actions()) == 2
    again.journal.close()


def test_a_save_without_hard_links_or_with_a_full_disk_leaves_nothing_behind(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import os

    from companion.saving import write_new, write_replacing

    def no_links(*_: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)  # a FAT card: written in place, still new only
    assert write_new(tmp_path / "a.txt", "record").read_text() == "record"
    with pytest.raises(FileExistsError):
        write_new(tmp_path / "a.txt", "other")
    real_write = os.write

    def full(fd: int, data: bytes) -> int:
        if os.readlink(f"/proc/self/fd/{fd}").endswith((".tmp", "b.txt")):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError, match="No space"):
        write_new(tmp_path / "b.txt", "record")
    with pytest.raises(OSError, match="No space"):
        write_replacing(tmp_path / "a.txt", "newer")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]
    assert (tmp_path / "a.txt").read_text() == "record"
    with pytest.raises(FileExistsError):
        write_replacing(tmp_path / "a.txt", "x", never=tmp_path / "a.txt")
