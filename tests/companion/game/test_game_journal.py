"""The journal: every action on disk before anyone hears of it; resume rebuilds the game;
damaged tails are recovered with a warning; unreadable journals are never changed."""

from __future__ import annotations

import json
import random
from pathlib import Path

import chess
import pytest
from game_helpers import random_step

from companion import events
from companion.clock import ClockSettings
from companion.game import Game
from companion.journal import (
    ENV_DATA_DIR,
    KEY_DIR,
    Journal,
    JournalError,
    data_dir,
    encode_line,
    latest_journal,
    load_key,
)
from companion.resume import new_game, read_journal, resume
from companion.rules import HouseRules
from companion.sealing import seal, unseal


class FakeTime:
    def __init__(self) -> None:
        self.value = 50.0

    def __call__(self) -> float:
        return self.value


def _same(a: Game, b: Game) -> None:
    assert a.rfen() == b.rfen()
    assert a.san_history() == b.san_history()
    assert a.action_texts() == b.action_texts()
    assert a.export_deck_order() == b.export_deck_order()
    assert a.export_initial_order() == b.export_initial_order()
    assert a.outcome == b.outcome
    assert a.draw_offer == b.draw_offer
    assert a.can_redo() == b.can_redo()


def _scripted(tmp_path: Path, seed: int, steps: int, now: FakeTime) -> tuple[Game, Journal]:
    rules = HouseRules(jokers_per_deck=seed % 3,
                       joker_effect="remove_piece" if seed % 2 else "extra_turn")
    game, journal = new_game(rules, seed=seed, clock=ClockSettings(900, increment=3),
                             directory=tmp_path, now=now)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        now.value += rng.uniform(0.5, 9)
        roll = rng.random()
        if roll < 0.08 and game.can_undo():
            game.undo()
        elif roll < 0.12 and game.can_redo():
            game.redo()
        elif roll < 0.14:
            game.pause()
            now.value += 500
            game.resume()
        elif roll < 0.16 and game.draw_offer is None:
            game.offer_draw(game.turn)
        elif roll < 0.17 and game.draw_offer is not None and game.draw_offer != game.turn:
            game.decline_draw(game.turn)
        else:
            random_step(game, rng)
    return game, journal


def test_resume_rebuilds_the_same_game(tmp_path: Path) -> None:
    for seed in range(8):
        now = FakeTime()
        game, journal = _scripted(tmp_path / str(seed), seed, 150, now)
        journal.close()
        resumed = resume(journal.path, now=now)
        assert resumed.warnings == ()
        _same(resumed.game, game)
        assert game.clock is not None and resumed.game.clock is not None
        assert resumed.game.clock.state() == game.clock.state()
        # Play on in both: they stay identical, and the journal keeps growing.
        game.attach_journal(None)
        if not game.is_over:
            rng1, rng2 = random.Random(1), random.Random(1)
            for _ in range(10):
                if game.is_over:
                    break
                random_step(game, rng1)
                random_step(resumed.game, rng2)
            _same(resumed.game, game)
        resumed.journal.close()
        again = resume(journal.path, now=now)
        _same(again.game, resumed.game)
        again.journal.close()


def test_the_entry_is_on_disk_before_listeners_hear(tmp_path: Path) -> None:
    game, journal = new_game(seed=3, directory=tmp_path)
    seen: list[int] = []

    def listener(event: events.GameEvent) -> None:
        if isinstance(event, events.PositionChanged):
            seen.append(len(read_journal(journal.path).entries))

    game.subscribe(listener)
    game.flip()
    game.play(game.legal_moves()[0])
    game.undo()
    assert seen == [1, 2, 3]


def test_data_dir_override_and_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_DATA_DIR, str(tmp_path / "env"))
    assert data_dir() == tmp_path / "env"
    assert data_dir(tmp_path / "arg") == tmp_path / "arg"
    _game, journal = new_game(seed=1)
    assert journal.path.parent == tmp_path / "env" / "games"
    assert latest_journal() == journal.path
    monkeypatch.delenv(ENV_DATA_DIR)
    assert "raindrop" in str(data_dir())


def test_a_journal_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "game.rdj"
    path.write_bytes(b"precious")
    with pytest.raises(JournalError, match="never overwritten"):
        Journal.at(path)
    assert path.read_bytes() == b"precious"


def _journal_with_entries(tmp_path: Path) -> tuple[Path, Game]:
    now = FakeTime()
    game, journal = _scripted(tmp_path, 4, 40, now)
    journal.close()
    return journal.path, game


def test_every_torn_tail_is_recovered_to_the_last_good_entry(tmp_path: Path) -> None:
    path, _game = _journal_with_entries(tmp_path)
    data = path.read_bytes()
    lines = data.splitlines(keepends=True)
    last_start = len(data) - len(lines[-1])
    reference = read_journal(path)
    count = len(reference.entries)
    for cut in range(last_start + 1, len(data)):
        trial = path.parent / f"cut{cut}.rdj"  # beside it: the same key folder
        trial.write_bytes(data[:cut])
        resumed = resume(trial)
        assert len(resumed.warnings) == 1
        assert "torn" in resumed.warnings[0]
        assert f"resumed from entry {count - 1}" in resumed.warnings[0]
        resumed.journal.close()
        aside = trial.with_name(trial.name + ".damaged-1")
        assert aside.read_bytes() == data[:cut]  # the original kept, byte for byte
        assert trial.read_bytes() == data[:last_start]
        assert len(read_journal(trial).entries) == count - 1


def test_a_bit_flip_in_the_last_entry_cuts_the_tail_there(tmp_path: Path) -> None:
    path, _game = _journal_with_entries(tmp_path)
    data = bytearray(path.read_bytes())
    lines = bytes(data).splitlines(keepends=True)
    count = len(lines) - 1
    offset = sum(len(line) for line in lines[:-1]) + 20  # inside the last entry
    data[offset] ^= 0x04
    path.write_bytes(bytes(data))
    resumed = resume(path)
    assert f"entry {count} is damaged" in resumed.warnings[0]
    assert resumed.game.entries == count - 1
    resumed.journal.close()


def test_a_damaged_entry_with_good_entries_after_it_is_never_cut(tmp_path: Path) -> None:
    """Issue 14, point 4: resume refuses, names the entry, and changes no byte."""
    path, _game = _journal_with_entries(tmp_path)
    lines = path.read_bytes().splitlines(keepends=True)
    count = len(lines) - 1
    assert count > 20
    for damaged, how in ((6, "flip"), (count - 1, "flip"), (10, "cut"), (3, "swap")):
        data = bytearray(b"".join(lines))
        start = sum(len(line) for line in lines[:damaged])
        if how == "flip":
            data[start + 20] ^= 0x04
        elif how == "cut":
            data[start + 12:start + 30] = b""
        else:  # two good entries in the wrong order
            data[start:start + len(lines[damaged]) + len(lines[damaged + 1])] = \
                lines[damaged + 1] + lines[damaged]
        path.write_bytes(bytes(data))
        before = sorted(p.name for p in path.parent.iterdir())
        with pytest.raises(JournalError, match=rf"entry {damaged} is damaged.*intact entries "
                                               rf"follow it.*left as it is"):
            resume(path)
        assert path.read_bytes() == bytes(data)
        assert sorted(p.name for p in path.parent.iterdir()) == before  # no copy aside


@pytest.mark.parametrize(("damage", "message"), [
    (lambda d: b"", "no complete header"),
    (lambda d: d[:30], "no complete header"),
    (lambda d: bytes([d[0] ^ 1]) + d[1:], "header is bad"),
    (lambda d: d[:20] + bytes([d[20] ^ 0x10]) + d[21:], "header is bad"),
    (lambda d: b"hello world\n" + d, "header is bad"),
])
def test_an_unreadable_journal_is_refused_and_left_alone(
        tmp_path: Path, damage: object, message: str) -> None:
    path, _ = _journal_with_entries(tmp_path)
    data = damage(path.read_bytes())  # type: ignore[operator]
    path.write_bytes(data)
    with pytest.raises(JournalError, match=message):
        resume(path)
    assert path.read_bytes() == data
    assert sorted(p.name for p in path.parent.iterdir()) == [KEY_DIR, path.name]


def test_wrong_version_or_format_is_refused(tmp_path: Path) -> None:
    path, _ = _journal_with_entries(tmp_path)
    data = path.read_bytes()
    first, rest = data.split(b"\n", 1)
    header = json.loads(first[9:])
    key = load_key(path, header)
    assert key is not None
    secret = json.loads(unseal(key, header["secret"], "0"))
    bad_decks = dict(secret, decks={"white": ["K"], "black": ["k"]})
    for key_name, value, message in (
            ("version", 99, "version 99"),
            ("version", 1, "version 1"),
            ("format", "something", "not a Raindropchess journal"),
            ("secret", seal(key, json.dumps(bad_decks).encode(), "0"), "not a full deck"),
            ("secret", seal(key, json.dumps(secret).encode(), "1"), "cannot be opened"),
            ("key", "0123456789abcdef", "key file .* is missing"),
            ("rules", {"jokers_per_deck": 7}, "jokers_per_deck")):
        changed = dict(header, **{key_name: value})
        bad = encode_line(changed) + rest
        path.write_bytes(bad)
        with pytest.raises(JournalError, match=message):
            resume(path)
        assert path.read_bytes() == bad


def test_an_entry_that_cannot_be_replayed_is_refused(tmp_path: Path) -> None:
    path, _ = _journal_with_entries(tmp_path)
    lines = path.read_bytes().splitlines(keepends=True)
    entry = json.loads(lines[2][9:])
    entry = {"a": "move", "uci": "a1h8", "n": entry["n"]}
    lines[2] = encode_line(entry)
    bad = b"".join(lines)
    path.write_bytes(bad)
    with pytest.raises(JournalError, match="entry 2 cannot be replayed"):
        resume(path)
    assert path.read_bytes() == bad


def test_resume_of_a_finished_game(tmp_path: Path) -> None:
    game, journal = new_game(seed=2, directory=tmp_path)
    game.resign(chess.BLACK)
    journal.close()
    resumed = resume(journal.path)
    assert resumed.game.outcome == game.outcome
    resumed.journal.close()


class _FullDisk:
    """A recorder whose writes fail after ``ok`` entries (a full disk)."""

    def __init__(self, ok: int) -> None:
        self.ok = ok
        self.entries: list[dict[str, object]] = []

    def begin(self, header: dict[str, object]) -> None:
        pass

    def append(self, entry: dict[str, object]) -> None:
        if len(self.entries) >= self.ok:
            raise OSError(28, "No space left on device")
        self.entries.append(entry)


def test_a_failed_write_leaves_the_game_unchanged_and_silent() -> None:
    recorder = _FullDisk(ok=2)
    game = Game(seed=8, journal=recorder)
    seen: list[events.GameEvent] = []
    game.subscribe(seen.append)
    game.flip()
    game.play(game.legal_moves()[0])
    before = (game.rfen(), game.export_deck_order(), game.san_history(), len(seen))
    with pytest.raises(OSError, match="No space"):
        game.flip()
    assert (game.rfen(), game.export_deck_order(), game.san_history(), len(seen)) == before
    with pytest.raises(OSError):
        game.undo()
    assert game.rfen() == before[0]
    recorder.ok = 10
    game.flip()
    assert len(recorder.entries) == 3


def test_a_journal_in_use_by_another_process_is_refused(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys
    import time

    env = dict(os.environ, RAINDROP_DATA_DIR=str(tmp_path), PYTHONUNBUFFERED="1")
    process = subprocess.Popen([sys.executable, "-m", "companion", "play", "--seed", "1",
                                "--no-color"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=env)
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(b"flip\n")
        process.stdin.flush()
        deadline = time.monotonic() + 60
        seen = b""
        while b"places the" not in seen and time.monotonic() < deadline:
            seen += process.stdout.read1(4096)
        path = latest_journal(tmp_path)
        before = path.read_bytes()
        with pytest.raises(JournalError, match="in use by another program: pid"):
            resume(path)
        assert path.read_bytes() == before
    finally:
        process.stdin.close()
        process.wait(timeout=60)
        process.stdout.close()
    resumed = resume(path)
    assert resumed.game.pending is not None
    resumed.journal.close()
