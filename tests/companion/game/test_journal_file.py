"""The game-agnostic journal (companion.journal), with a toy game's entries:
secrets sealed and opened, a torn tail cut, a damaged entry inside never cut."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from companion.journal import KEY_DIR, Journal, JournalError, read_entries, reopen


def _toy(tmp_path: Path, entries: int = 6) -> Path:
    path = tmp_path / "toy" / "match.rec"
    with Journal.at(path) as journal:
        journal.begin({"format": "toy-game", "secret": {"hidden": "stones 3,1,2"}})
        for number in range(1, entries + 1):
            entry: dict[str, object] = {"turn": f"c{number}"}
            if number % 2:
                entry["secret"] = [number, "draw"]
            journal.append(entry)
    return path


def test_secrets_are_sealed_on_disk_and_opened_on_reading(tmp_path: Path) -> None:
    path = _toy(tmp_path)
    raw = path.read_text()
    assert "stones" not in raw and "draw" not in raw
    contents = read_entries(path)
    assert contents.header["secret"] == {"hidden": "stones 3,1,2"}
    assert [e.get("secret") for e in contents.entries] == [
        [1, "draw"], None, [3, "draw"], None, [5, "draw"], None]
    assert contents.problem is None
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE((path.parent / KEY_DIR).stat().st_mode) == 0o700


def test_reopen_cuts_only_a_torn_tail(tmp_path: Path) -> None:
    path = _toy(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[:-7])  # a crash in the middle of the last write
    count, journal, warnings = reopen(path, lambda contents: len(contents.entries))
    assert count == 5 and journal.entries == 5
    assert "entry 6" in warnings[0] and "torn" in warnings[0]
    journal.append({"turn": "again", "secret": "more"})
    journal.close()
    assert read_entries(path).entries[-1]["secret"] == "more"
    assert (path.parent / (path.name + ".damaged-1")).read_bytes() == data[:-7]


def test_reopen_refuses_a_damaged_entry_with_intact_ones_after(tmp_path: Path) -> None:
    path = _toy(tmp_path)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[3] = lines[3].replace(b"c3", b"c9")  # the checksum no longer fits
    data = b"".join(lines)
    path.write_bytes(data)
    called = []
    with pytest.raises(JournalError, match=r"entry 3 is damaged.*intact entries follow"):
        reopen(path, called.append)
    assert called == [] and path.read_bytes() == data
    assert sorted(p.name for p in path.parent.iterdir()) == [KEY_DIR, path.name]


def test_what_prepare_refuses_leaves_the_file_alone(tmp_path: Path) -> None:
    path = _toy(tmp_path)
    data = path.read_bytes()[:-3]
    path.write_bytes(data)

    def refuse(contents: object) -> None:
        raise JournalError("not my game")

    with pytest.raises(JournalError, match="not my game"):
        reopen(path, refuse)
    assert path.read_bytes() == data
