"""Journals of the abstract games: resume exactly, cut only a torn tail, refuse the rest."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.games.resume import new_session, resume_session, session_from_contents
from companion.journal import JournalError, read_entries


def play(tmp_path: Path, *turns: str) -> Path:
    session, journal = new_session("dropper", {"size": "4"}, directory=tmp_path)
    for turn in turns:
        session.play(turn)
    journal.close()
    return journal.path


def test_resume_rebuilds_the_session_and_records_on(tmp_path: Path) -> None:
    path = play(tmp_path, "b2", "b2>c2+a4", "a4>b4+d4")
    resumed = resume_session(path)
    session = resumed.session
    assert session.turns == ["b2", "b2>c2+a4", "a4>b4+d4"]
    assert resumed.warnings == ()
    session.undo()
    session.play(next(iter(session.rules.turns(session.position))))
    resumed.journal.close()
    again = resume_session(path).session
    assert again.position == session.position and again.turns == session.turns
    assert (path.stat().st_mode & 0o777) == 0o600


def test_a_torn_tail_is_cut_with_a_warning(tmp_path: Path) -> None:
    path = play(tmp_path, "b2", "b2>c2+a4")
    with path.open("ab") as file:
        file.write(b'0badc0de {"do":"turn","tu')
    resumed = resume_session(path)
    assert resumed.session.turns == ["b2", "b2>c2+a4"]
    assert any("torn" in w for w in resumed.warnings)
    assert list(tmp_path.glob("games/*.damaged-1"))


def test_a_damaged_entry_with_good_ones_after_it_is_refused_unchanged(tmp_path: Path) -> None:
    path = play(tmp_path, "b2", "b2>c2+a4", "a4>b4+d4")
    lines = path.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b"turn", b"tur!")
    path.write_bytes(b"\n".join(lines))
    before = path.read_bytes()
    with pytest.raises(JournalError, match=r"entry 2 .*intact entries follow"):
        resume_session(path)
    assert path.read_bytes() == before
    assert not list(tmp_path.glob("games/*.damaged-*"))


def test_an_entry_that_does_not_replay_is_refused(tmp_path: Path) -> None:
    path = play(tmp_path, "b2")
    contents = read_entries(path)
    bad = contents.__class__(contents.path, contents.header,
                             ({"do": "turn", "turn": "q9", "n": 1},), contents.good_bytes,
                             contents.total_bytes, None)
    with pytest.raises(JournalError, match="entry 1 cannot be replayed"):
        session_from_contents(bad)


def test_raindrop_resume_continues_a_dropper_game(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    old = sys.stdin
    try:
        sys.stdin = io.StringIO("b2\nb2>c2+a4\nquit\n")
        assert main(["play", "--game", "dropper", "size=4", "--data-dir", str(tmp_path)]) == 0
        sys.stdin = io.StringIO("turns\nquit\n")
        assert main(["resume", "--data-dir", str(tmp_path)]) == 0
    finally:
        sys.stdin = old
    out = capsys.readouterr().out
    assert "Resumed the game of Dropper after 2 action(s)." in out
    assert "Turns: b2 b2>c2+a4" in out


def test_raindrop_replay_steps_through_a_saved_record(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    old = sys.stdin
    record = tmp_path / "game.txt"
    try:
        sys.stdin = io.StringIO(f"b2\nb2>c2+a4\nresign\nsave {record}\nquit\n")
        assert main(["play", "--game", "dropper", "size=4", "--data-dir", str(tmp_path)]) == 0
        capsys.readouterr()
        sys.stdin = io.StringIO("\n\nb\nq\n")
        assert main(["replay", str(record)]) == 0
    finally:
        sys.stdin = old
    out = capsys.readouterr().out
    assert "[0/2] the start" in out and "[2/2] Black: b2>c2+a4" in out
    assert "Result: white resigned (black)" in out
    assert out.count("[1/2] White: b2") == 2  # forward, then back
    record.write_text(record.read_text().replace("2. black b2>c2+a4", "2. black b2>b2+a4"))
    assert main(["replay", "--all", str(record)]) == 2
    assert "line 9: black b2>b2+a4: cannot push" in capsys.readouterr().err
