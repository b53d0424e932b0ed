"""The fault-injection suite (issue 60): ``kill -9`` at random moments of every game,
new and resumed; torn and damaged journals of every kind; a disk that fills up at
every byte of an entry; sessions racing for one journal; and a seeded fuzzer over
every command that reads text.

Reduced size by default; ``RAINDROP_FULL=1`` runs it at full size:

    RAINDROP_FULL=1 python -m pytest -s tests/companion/faults/test_fault_injection.py

The invariants: no acknowledged action is ever lost; resume either refuses with the
file byte for byte as it was, or resumes a prefix of the game losing at most a torn
last entry that was never acknowledged; every bad input gets one line, no traceback.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import threading
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fault_helpers import FULL, Raindrop, run_main
from test_journal_full_disk import FakeDisk

from companion import games
from companion.games.resume import new_session, resume_session
from companion.journal import JournalError, read_entries, reopen

KILL_TRIALS = 40 if FULL else 4
DAMAGE_TRIALS = 2000 if FULL else 120
FUZZ_CASES = 12_000 if FULL else 150

GAMES = {"dropper": {"size": "5"}, "rumbo": {"size": "5", "komi": "0"},
         "raindrops": {"size": "6"}, "crumble": {"width": "3", "height": "3"}}


def scripted_turns(game: str, options: dict[str, str], seed: int, count: int) -> list[str]:
    """``count`` random legal turns (fewer if the game ends), as typed."""
    rules = games.get(game)
    rng = random.Random(seed)
    position = rules.start(**options)
    turns: list[str] = []
    while len(turns) < count and rules.outcome(position) is None:
        choices = list(itertools.islice(rules.turns(position), 200))
        if not choices:
            break
        turn = rng.choice(choices)
        turns.append(turn)
        position = rules.play(position, turn)
    return turns


_PROMPT = re.compile(rb"(?:^|\n)[a-z]+> ")
_PLAYED = re.compile(rb"[A-Z][a-z]+ plays ")
"""Printed once a turn is on disk: the turns acknowledged."""


# ----------------------------------------------------------------------
# kill -9


def kill_trial(tmp_path: Path, trial: int) -> dict[str, int]:
    rng = random.Random(trial)
    game = sorted(GAMES)[trial % len(GAMES)]
    options = GAMES[game]
    turns = scripted_turns(game, options, 100 + trial, rng.randint(4, 24))
    data = tmp_path / f"t{trial}"
    resumed_from = 0
    if trial % 2:  # a resumed session, killed
        resumed_from = rng.randint(1, max(1, len(turns) // 2))
        session, journal = new_session(game, options, directory=data)
        for turn in turns[:resumed_from]:
            session.play(turn)
        journal.close()
        process = Raindrop(["resume", str(journal.path)], data)
    else:
        process = Raindrop(["play", "--game", game, *(f"{k}={v}" for k, v in options.items())],
                           data)
    typed = turns[resumed_from:]
    try:
        for turn in typed:  # 'done' plays a turn typed whole that could go on
            process.send(turn, "done")
        stop_at = rng.randint(1, 2 * len(typed) + 1)  # after this many prompts: mid-command
        while len(_PROMPT.findall(process.out)) < stop_at and process.read_some(1.0):
            pass
    finally:
        process.kill()  # SIGKILL
    acknowledged = len(_PLAYED.findall(process.out))
    (path,) = (data / "games").glob("*.rdj")
    try:
        resumed = resume_session(path)
    except JournalError as error:  # killed while the header was written
        assert "no complete header" in str(error) and resumed_from + acknowledged == 0
        return {"acknowledged": 0, "entries": 0, "torn": 0}
    played = resumed.session.turns
    assert resumed_from + acknowledged <= len(played) <= len(turns)
    assert played == turns[:len(played)]
    assert all("torn" in w for w in resumed.warnings)
    if len(played) < len(turns):  # it plays on, and resumes clean
        resumed.session.play(turns[len(played)])
    resumed.journal.close()
    again = resume_session(path)
    assert again.warnings == () and again.session.turns == turns[:len(again.session.turns)]
    again.journal.close()
    return {"acknowledged": resumed_from + acknowledged, "entries": len(played),
            "torn": len(resumed.warnings)}


@pytest.mark.slow
def test_kill_9_of_every_game_new_and_resumed(tmp_path: Path) -> None:
    totals = {"acknowledged": 0, "entries": 0, "torn": 0}
    for trial in range(KILL_TRIALS):
        for key, value in kill_trial(tmp_path, trial).items():
            totals[key] += value
    print(f"kill -9 trials: {KILL_TRIALS}, nothing acknowledged was lost; {totals}")
    assert totals["entries"] >= totals["acknowledged"] > 0


# ----------------------------------------------------------------------
# Damage of every kind


def _journal(tmp_path: Path, entries: int = 8) -> tuple[Path, list[str]]:
    turns = scripted_turns("dropper", {"size": "5"}, 7, entries)
    session, journal = new_session("dropper", {"size": "5"}, directory=tmp_path)
    for turn in turns:
        session.play(turn)
    journal.close()
    return journal.path, turns


def _recrc(line: bytes) -> bytes:
    body = line.rstrip(b"\n")[9:]
    return f"{zlib.crc32(body):08x} ".encode() + body + b"\n"


DAMAGES: dict[str, Callable[[list[bytes], random.Random], list[bytes]]] = {
    "flip a bit": lambda lines, rng: _flip(lines, rng),
    "swap two lines": lambda lines, rng: _swap(lines, rng),
    "duplicate a line": lambda lines, rng: _insert(lines, rng.randrange(1, len(lines)),
                                                   lines[rng.randrange(1, len(lines))]),
    "delete a line": lambda lines, rng: _without(lines, rng.randrange(1, len(lines))),
    "merge two lines": lambda lines, rng: _merge(lines, rng.randrange(1, len(lines) - 1)),
    "tear the end": lambda lines, rng: _tear(lines, rng),
    "zeros at the end": lambda lines, rng: [*lines, b"\0" * rng.randint(1, 300)],
    "renumber an entry": lambda lines, rng: _renumber(lines, rng),
    "blank line": lambda lines, rng: _insert(lines, rng.randrange(1, len(lines) + 1), b"\n"),
}


def _flip(lines: list[bytes], rng: random.Random) -> list[bytes]:
    index = rng.randrange(1, len(lines))
    line = bytearray(lines[index])
    spot = rng.randrange(len(line))
    line[spot] ^= 1 << rng.randrange(8)
    return [*lines[:index], bytes(line), *lines[index + 1:]]


def _swap(lines: list[bytes], rng: random.Random) -> list[bytes]:
    a, b = sorted(rng.sample(range(1, len(lines)), 2))
    out = list(lines)
    out[a], out[b] = out[b], out[a]
    return out


def _insert(lines: list[bytes], index: int, line: bytes) -> list[bytes]:
    return [*lines[:index], line, *lines[index:]]


def _without(lines: list[bytes], index: int) -> list[bytes]:
    return [*lines[:index], *lines[index + 1:]]


def _merge(lines: list[bytes], index: int) -> list[bytes]:
    return [*lines[:index], lines[index].rstrip(b"\n") + b" " + lines[index + 1],
            *lines[index + 2:]]


def _tear(lines: list[bytes], rng: random.Random) -> list[bytes]:
    last = lines[-1]
    return [*lines[:-1], last[:rng.randrange(len(last))]]


def _renumber(lines: list[bytes], rng: random.Random) -> list[bytes]:
    index = rng.randrange(1, len(lines))
    item = json.loads(lines[index][9:])
    item["n"] = rng.choice([0, item["n"] + 1, item["n"] - 1, "x", None])
    text = json.dumps(item, separators=(",", ":"), sort_keys=True).encode()
    return [*lines[:index], _recrc(b"00000000 " + text), *lines[index + 1:]]


@pytest.mark.slow
def test_damage_of_every_kind_never_drops_an_intact_entry(tmp_path: Path) -> None:
    path, turns = _journal(tmp_path)
    original = path.read_bytes()
    lines = original.splitlines(keepends=True)
    rng = random.Random(60)
    tally: dict[str, int] = {"refused": 0, "cut": 0, "whole": 0}
    for trial in range(DAMAGE_TRIALS):
        kind = sorted(DAMAGES)[trial % len(DAMAGES)]
        damaged = b"".join(DAMAGES[kind](lines, rng))
        path.write_bytes(damaged)
        for extra in path.parent.glob("*.damaged-*"):
            extra.unlink()
        try:
            resumed = resume_session(path)
        except JournalError as error:
            assert path.read_bytes() == damaged, kind
            assert "left as it is" in str(error) or "not a readable" in str(error), error
            tally["refused"] += 1
            continue
        played = resumed.session.turns
        resumed.journal.close()
        assert played == turns[:len(played)], kind
        if not resumed.warnings:  # harmless (a checksum's hex digit in capitals), or the
            # last line deleted (a journal that ended there: nothing says otherwise)
            assert played == turns or damaged == b"".join(lines[:-1]), kind
            tally["whole"] += 1
            continue
        # Resumed after a cut: at most the last entry lost, and only when the last line
        # was the damaged one (nothing intact was dropped).
        assert len(played) >= len(turns) - 1, (kind, len(played))
        if len(played) == len(turns) - 1:
            assert lines[-1] not in damaged.splitlines(keepends=True)[len(played) + 1:], kind
        assert (path.parent / f"{path.name}.damaged-1").read_bytes() == damaged
        tally["cut"] += 1
    print(f"damage trials: {DAMAGE_TRIALS}, {tally}")
    assert tally["refused"] and tally["cut"]


@pytest.mark.slow
def test_a_disk_full_at_every_byte_of_an_entry(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    turns = scripted_turns("dropper", {"size": "5"}, 3, 6)
    session, journal = new_session("dropper", {"size": "5"}, directory=tmp_path)
    for turn in turns[:3]:
        session.play(turn)
    before = journal.path.read_bytes()
    disk = FakeDisk(monkeypatch, free=0)
    for free in range(60):
        disk.free = free
        try:
            session.play(turns[3])
        except JournalError as error:
            assert "not saved" in str(error)
            assert journal.path.read_bytes() == before
            assert session.turns == turns[:3]
            continue
        break
    else:
        raise AssertionError("no room was ever enough")
    assert free > 10  # the room an entry took
    disk.free = 10**9
    for turn in turns[4:]:
        session.play(turn)
    journal.close()
    monkeypatch.undo()
    resumed = resume_session(journal.path)
    assert resumed.session.turns == turns and resumed.warnings == ()
    resumed.journal.close()


# ----------------------------------------------------------------------
# Concurrent sessions


@pytest.mark.slow
def test_sessions_racing_for_one_journal_one_wins(tmp_path: Path) -> None:
    path, turns = _journal(tmp_path, 5)
    path.write_bytes(b"".join(path.read_bytes().splitlines(keepends=True)[:5]))  # 4 entries
    size = 8 if FULL else 4
    winners: list[Any] = []
    refusals: list[str] = []
    start = threading.Barrier(size)

    def race() -> None:
        start.wait()
        try:
            winners.append(reopen(path, lambda contents: len(contents.entries))[1])
        except JournalError as error:
            refusals.append(str(error))

    threads = [threading.Thread(target=race) for _ in range(size)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(winners) == 1 and len(refusals) == size - 1
    assert all("in use by this program" in r for r in refusals)
    winners[0].close()

    processes = [Raindrop(["resume", str(path)], tmp_path) for _ in range(3 if not FULL else 6)]
    try:
        results = []
        for process in processes:
            while b"> " not in process.out and process.read_some(1.0):
                pass
            results.append(b"> " in process.out)
        assert results.count(True) == 1  # exactly one holds it; the rest were refused
        for process, won in zip(processes, results, strict=True):
            if not won:
                code, _, err = process.finish()
                assert code == 2 and "in use by another program" in err
        winner = processes[results.index(True)]
        winner.send(turns[4], "quit")
        code, _, _ = winner.finish()
        assert code == 0
    finally:
        for process in processes:
            process.kill()
    contents = read_entries(path)
    assert contents.problem is None and [e["n"] for e in contents.entries] == [1, 2, 3, 4, 5]


# ----------------------------------------------------------------------
# The fuzzer


def _digits_run(rng: random.Random) -> str:
    return rng.choice(["1" * rng.choice([10, 400, 5000]), "٣", "８", "²", "-1", "0" * 50 + "1",
                       "1e999", "nan", "inf", "99999999999999999999"])


def mutate(text: str, rng: random.Random) -> str:
    """One seeded mutation of a text that some command reads."""
    kind = rng.randrange(10)
    if not text:
        return _digits_run(rng)
    at = rng.randrange(len(text) + 1)
    if kind == 0:  # a number becomes huge, Unicode, negative, not a number
        runs = [m.span() for m in re.finditer(r"[0-9]+", text)]
        if runs:
            a, b = rng.choice(runs)
            return text[:a] + _digits_run(rng) + text[b:]
        return text[:at] + _digits_run(rng) + text[at:]
    if kind == 1:
        return text[:at]
    if kind == 2:
        return text[:at] + text[rng.randrange(len(text) + 1):]
    if kind == 3:
        b = rng.randrange(at, len(text) + 1)
        return text[:b] + text[at:b] * rng.choice([2, 50, 2000]) + text[b:]
    if kind == 4:
        return text[:at] + rng.choice(["[" * 5000, "{" * 3000, "(" * 1000, "\0", "\x1b[2J",
                                       "\u202e", "\ud7ff", " " * 70_000]) + text[at:]
    if kind == 5:
        return text[:at] + chr(rng.randrange(1, 0x2FFF)) + text[at + 1:]
    if kind == 6:
        words = text.split(" ")
        rng.shuffle(words)
        return " ".join(words)
    if kind == 7:
        return text.upper() if rng.random() < 0.5 else text.replace("/", "//", 1)
    if kind == 8:
        return text[:at] + "," * rng.randint(1, 5) + text[at:]
    return text + rng.choice([" ", "\n", "x" * 70_000, ";", "|", "=", "+", ">", "@"])


POSITIONS = [games.get(name).start(**options).text() for name, options in GAMES.items()]
RFEN = "rn6/8/8/8/8/8/8/6NR[KQRBBNPPPPPPPPkqrbbnpppppppp] w QRBNqrbn - 0 5"
RECORD = ("[Game \"dropper\"]\n[Options \"size=4\"]\n[Result \"white\"]\n\n1. white a4\n"
          "2. black a4>b3+d1\n3. black resigns\n")
PGN = ("[Event \"x\"]\n[Result \"*\"]\n[Variant \"Raindropchess\"]\n\n"
       "1. {[%flip P pending]} P@e2 {[%flip p pending]} p@e7 *\n")


def _fuzz_case(rng: random.Random, tmp_path: Path, journal: bytes) -> tuple[list[str], str]:
    """A command line and its stdin, each built from valid input by mutation."""
    choice = rng.randrange(11)
    position = rng.choice(POSITIONS)
    if choice == 0:
        name, options = rng.choice(sorted(GAMES.items()))
        words = [mutate(f"{k}={v}", rng) for k, v in options.items()]
        return ["games", "start", name, *words], ""
    if choice == 1:
        return ["games", "turns", mutate(position, rng), "--limit", "300"], ""
    if choice == 2:
        rules = games.game_of(position)
        turn = next(iter(rules.turns(rules.parse(position))), "a1")
        return ["games", "play", mutate(position, rng), mutate(turn, rng)], ""
    if choice == 3:
        return ["games", "steps", mutate(position, rng), mutate("a1", rng)], ""
    if choice == 4:
        lines = "\n".join(mutate(p, rng) for p in rng.sample(POSITIONS, 2))
        return ["games", "next", "--jsonl", "--limit", "300"], lines + "\n"
    if choice == 5:
        rules_text = mutate("jokers_per_deck=1,failed_rescue=return", rng)
        return ["check", mutate(RFEN, rng), "--rules", rules_text], ""
    if choice == 6:
        target = tmp_path / "fuzz.txt"
        target.write_text(mutate(rng.choice([RECORD, PGN]), rng), encoding="utf-8",
                          errors="surrogatepass")
        return ["replay", str(target), "--all"], ""
    if choice == 7:  # a journal edited by hand, checksums recomputed or not
        target = tmp_path / "fuzz.rdj"
        lines = journal.splitlines(keepends=True)
        index = rng.randrange(len(lines))
        changed = mutate(lines[index].decode()[9:].rstrip("\n"), rng).encode("utf-8",
                                                                              "surrogatepass")
        line = b"00000000 " + changed + b"\n"
        lines[index] = _recrc(line) if rng.random() < 0.8 else line
        target.write_bytes(b"".join(lines))
        (tmp_path / "fuzz.rdj.lock").unlink(missing_ok=True)
        return ["resume", str(target)], "quit\n"
    if choice == 8:
        name, options = rng.choice(sorted(GAMES.items()))
        typed = "\n".join(mutate(t, rng) for t in
                          [*scripted_turns(name, options, rng.randrange(99), 3), "save x",
                           "claim draw", "turns", "steps"])
        return ["play", "--game", name, *(f"{k}={v}" for k, v in options.items()),
                "--clock", mutate("10+5", rng)], typed + "\nquit\n"
    if choice == 9:
        typed = "\n".join(mutate(t, rng) for t in ["flip", "e2", "moves", "draw offer",
                                                   "resign white", "save", "remove e5"])
        return ["play", "--board", "none", "--no-color", "--seed", "1"], typed + "\nquit\n"
    # The board's options are only parsed (a valid one would wait for the board).
    return [PARSE_ONLY, "board", rng.choice(["monitor", "selftest"]),
            mutate(rng.choice(["--seconds", "--settle", "--count", "--sweep", "--ranks"]), rng),
            mutate(rng.choice(["5", "2.5", "250", "1-8"]), rng)], ""


PARSE_ONLY = "(parse only)"


def _parse_only(args: list[str]) -> int:
    """The arguments through the parser alone: 0, or argparse's 2 with its error."""
    from companion.cli import build_parser

    try:
        build_parser().parse_args(args)
    except SystemExit as stop:
        return int(stop.code or 0)
    return 0


@pytest.mark.slow
def test_a_fuzzer_over_every_command_that_reads_text(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAINDROP_DATA_DIR", str(tmp_path / "data"))
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)  # where 'save NAME' writes
    path, _ = _journal(tmp_path / "journal", 4)
    journal = path.read_bytes()
    rng = random.Random(6060)
    codes: dict[int, int] = {}
    for case in range(FUZZ_CASES):
        args, stdin = _fuzz_case(rng, tmp_path, journal)
        try:
            if args[0] == PARSE_ONLY:
                code = _parse_only(args[1:])
                _, err = capsys.readouterr()
                err = err if code else ""
            else:
                code, _, err = run_main(capsys, args, stdin)
        except Exception as error:  # a traceback: the case that made it
            raise AssertionError(f"case {case}: raindrop {args!r:.500} with stdin "
                                 f"{stdin!r:.300} raised {error!r:.300}") from error
        assert "Traceback" not in err, (case, args)
        assert code in (0, 2), (case, args, err[-500:])
        if code:  # the error's line (an argument holding an end of line may follow it)
            assert any(line.startswith("raindrop") or "error:" in line
                       for line in err.strip().splitlines()), (case, args, err[-500:])
        codes[code] = codes.get(code, 0) + 1
    print(f"fuzz cases: {FUZZ_CASES}, exit statuses {codes}")
    assert codes.get(0) and codes.get(2)
