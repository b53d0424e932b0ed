"""One session a journal (issue 60, item 1): a journal is locked for the whole life of
the session that writes it, new or resumed, Raindropchess or another game, against
other processes and other sessions of the same process; a second session is refused
with one line naming the first (its pid, host and start), and nothing is lost.

The two-process tests run the real CLI; they wait on what the first process prints,
never on a sleep."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from fault_helpers import (
    Raindrop,
    dropper_journal,
    numbers,
    one_line_error,
    raindropchess_journal,
    run_subprocess,
)

from companion.games.resume import resume_session
from companion.journal import Journal, JournalError, read_entries
from companion.resume import resume


def _refused_while_held(holder: Raindrop, path: Path, data: Path) -> str:
    second = run_subprocess(["resume", str(path)], data, "flip\nb2>c2+a4\nquit\n")
    line = one_line_error(second.stderr)
    assert second.returncode == 2
    assert "in use" in line and f"pid {holder.pid}" in line
    assert socket.gethostname() in line and "since" in line
    return line


def test_a_resumed_games_journal_refuses_a_second_resume(tmp_path: Path) -> None:
    path = dropper_journal(tmp_path, "a4")
    first = Raindrop(["resume", str(path)], tmp_path)
    try:
        first.wait_for("black> ")
        _refused_while_held(first, path, tmp_path)
        first.send("a4>b3+d1", "quit")
        code, out, _ = first.finish()
    finally:
        first.kill()
    assert code == 0 and "Black plays a4>b3+d1" in out
    assert numbers(path) == [1, 2]
    again = resume_session(path)
    assert again.session.turns == ["a4", "a4>b3+d1"] and again.warnings == ()
    again.journal.close()


def test_a_resumed_raindropchess_journal_refuses_a_second_resume(tmp_path: Path) -> None:
    path, placement = raindropchess_journal(tmp_path)
    first = Raindrop(["resume", str(path), "--board", "none", "--no-color"], tmp_path)
    try:
        first.wait_for("white> ")
        _refused_while_held(first, path, tmp_path)
        first.send(placement, "quit")
        code, out, _ = first.finish()
    finally:
        first.kill()
    assert code == 0 and "White places" in out
    assert numbers(path) == [1, 2]
    again = resume(path)
    assert len(again.game.actions()) == 2 and again.warnings == ()
    again.journal.close()


def test_a_new_game_is_locked_from_its_first_line(tmp_path: Path) -> None:
    first = Raindrop(["play", "--game", "dropper", "size=4"], tmp_path)
    try:
        first.wait_for("white> ")
        (path,) = (tmp_path / "games").glob("*.rdj")
        _refused_while_held(first, path, tmp_path)
        first.send("a4", "quit")
        code, _, _ = first.finish()
    finally:
        first.kill()
    assert code == 0 and numbers(path) == [1]


def test_two_sessions_of_one_process_are_refused_too(tmp_path: Path) -> None:
    path = dropper_journal(tmp_path, "a4")
    held = resume_session(path)
    read_entries(path)  # reading through another descriptor keeps the lock
    with pytest.raises(JournalError, match=r"in use .*this program"):
        resume_session(path)
    with pytest.raises(JournalError, match="in use"):
        resume(path)
    held.session.play("a4>b3+d1")
    held.journal.close()
    after = resume_session(path)  # released with its session
    assert after.session.turns == ["a4", "a4>b3+d1"]
    after.journal.close()


def test_the_lock_goes_with_the_session_and_leaves_no_file(tmp_path: Path) -> None:
    path = dropper_journal(tmp_path, "a4")
    before = sorted(p.name for p in path.parent.iterdir())
    for _ in range(2):
        held = resume_session(path)
        assert sorted(p.name for p in path.parent.iterdir()) != before  # the holder's note
        held.journal.close()
        assert sorted(p.name for p in path.parent.iterdir()) == before


def test_a_killed_holder_leaves_the_journal_free(tmp_path: Path) -> None:
    path = dropper_journal(tmp_path, "a4")
    first = Raindrop(["resume", str(path)], tmp_path)
    try:
        first.wait_for("black> ")
    finally:
        first.kill()  # kill -9: the kernel drops the lock; its stale note is overwritten
    again = resume_session(path)
    assert again.session.turns == ["a4"]
    again.journal.close()


def test_a_new_journal_at_a_path_is_locked(tmp_path: Path) -> None:
    target = tmp_path / "match.rec"
    with Journal.at(target) as journal:
        journal.begin({"format": "toy"})
        with pytest.raises(JournalError, match="in use"):
            from companion.journal import reopen

            reopen(target, lambda contents: None)
