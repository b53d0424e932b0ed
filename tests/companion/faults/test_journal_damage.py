"""Damage near the end (issue 60, item 4): resume cuts only a torn last entry. Any
other damage (entries swapped, merged, duplicated, a bad checksum before the end) is
refused with the file byte for byte as it was, and a message saying what is wrong,
where (line and entry) and what the player can do; ``raindrop resume --cut`` then
resumes from the last good entry, the whole original kept aside."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from fault_helpers import dropper_journal, one_line_error, run_main

from companion.games.resume import resume_session
from companion.journal import MAX_ENTRY_BYTES, JournalError

TURNS = ("a4", "a4>b3+d1", "a4>b4+d4", "b3>c2+a1", "b4>c4", "c2>c1")


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def swap_last_two(lines: list[bytes]) -> list[bytes]:
    return [*lines[:-2], lines[-1], lines[-2]]


def swap_two_before_the_end(lines: list[bytes]) -> list[bytes]:
    return [*lines[:-3], lines[-2], lines[-3], lines[-1]]


def merge_the_last_two(lines: list[bytes]) -> list[bytes]:
    return [*lines[:-2], lines[-2].rstrip(b"\n") + b" ", lines[-1]]


def duplicate_the_last(lines: list[bytes]) -> list[bytes]:
    return [*lines, lines[-1]]


def duplicate_one_before_the_end(lines: list[bytes]) -> list[bytes]:
    return [*lines[:-1], lines[-2], lines[-1]]


def checksum_before_the_end(lines: list[bytes]) -> list[bytes]:
    return [*lines[:-2], lines[-2].replace(b"b4", b"b9", 1), lines[-1]]


def drop_one_before_the_end(lines: list[bytes]) -> list[bytes]:
    return [*lines[:-2], lines[-1]]


def two_damaged_at_the_end(lines: list[bytes]) -> list[bytes]:
    return [*lines[:-2], b"garbage\n", b"more garbage\n"]


REFUSED: dict[str, tuple[Callable[[list[bytes]], list[bytes]], int]] = {
    # damage -> (how, the first entry that does not read)
    "swapped last two": (swap_last_two, 5),
    "swapped before the end": (swap_two_before_the_end, 4),
    "merged last two": (merge_the_last_two, 5),
    "duplicated last": (duplicate_the_last, 7),
    "duplicated before the end": (duplicate_one_before_the_end, 6),
    "bad checksum before the end": (checksum_before_the_end, 5),
    "one missing before the end": (drop_one_before_the_end, 5),
    "two damaged at the end": (two_damaged_at_the_end, 5),
}


@pytest.mark.parametrize("damage", sorted(REFUSED))
def test_damage_that_would_drop_intact_entries_is_refused_unchanged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str) -> None:
    how, entry = REFUSED[damage]
    path = dropper_journal(tmp_path, *TURNS)
    path.write_bytes(b"".join(how(_lines(path))))
    before = path.read_bytes()
    folder = sorted(p.name for p in path.parent.iterdir())
    with pytest.raises(JournalError) as caught:
        resume_session(path)
    message = str(caught.value)
    assert f"entry {entry} is damaged (line {entry + 1})" in message
    assert "left as it is" in message and f"raindrop resume --cut {path}" in message
    code, _, err = run_main(capsys, ["resume", str(path)], "quit\n")
    assert code == 2 and f"entry {entry}" in one_line_error(err)
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == folder


@pytest.mark.parametrize("cut", [1, 7, 30])
def test_a_torn_last_entry_is_cut_with_a_warning(tmp_path: Path, cut: int) -> None:
    path = dropper_journal(tmp_path, *TURNS)
    data = path.read_bytes()[:-cut]
    path.write_bytes(data)
    resumed = resume_session(path)
    assert resumed.session.turns == list(TURNS[:-1])
    assert "entry 6" in resumed.warnings[0] and "torn" in resumed.warnings[0]
    resumed.journal.close()
    assert (path.parent / f"{path.name}.damaged-1").read_bytes() == data


def test_a_damaged_last_line_is_cut_with_a_warning(tmp_path: Path) -> None:
    path = dropper_journal(tmp_path, *TURNS)
    lines = _lines(path)
    path.write_bytes(b"".join([*lines[:-1], lines[-1].replace(b"c1", b"c9")]))
    resumed = resume_session(path)
    assert resumed.session.turns == list(TURNS[:-1])
    assert "entry 6" in resumed.warnings[0]
    resumed.journal.close()


def test_cut_resumes_from_the_last_good_entry_keeping_the_original(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = dropper_journal(tmp_path, *TURNS)
    path.write_bytes(b"".join(swap_last_two(_lines(path))))
    damaged = path.read_bytes()
    code, out, _ = run_main(capsys, ["resume", "--cut", str(path)], f"{TURNS[4]}\nquit\n")
    assert code == 0 and "Warning" in out and "entry 5" in out
    assert (path.parent / f"{path.name}.damaged-1").read_bytes() == damaged
    resumed = resume_session(path)
    assert resumed.session.turns == list(TURNS[:5])
    resumed.journal.close()


def test_an_endless_last_line_is_not_taken_for_a_torn_entry(tmp_path: Path) -> None:
    path = dropper_journal(tmp_path, *TURNS)
    path.write_bytes(path.read_bytes() + b"x" * (MAX_ENTRY_BYTES + 1))
    before = path.read_bytes()
    with pytest.raises(JournalError, match="longer than any entry"):
        resume_session(path)
    assert path.read_bytes() == before
