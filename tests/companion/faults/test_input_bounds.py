"""Texts that reach a number, a recursion or a read are bounded (issue 60, items 5, 6,
7 and 9): numbers of thousands of digits, a clock that overflows, journals edited by
hand (checksums recomputed) with deep nesting or clock fields of the wrong type, files
that never end, Unicode digits, negative or NaN durations, empty rule lists. Each is
refused with one line, no traceback, and nothing is lost or left behind."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from fault_helpers import cli_env, dropper_journal, one_line_error, run_main

from companion.games.record import write_record
from companion.games.resume import resume_session
from companion.journal import JournalError, encode_line
from companion.resume import new_game, resume

BIG = "1" * 5000
"""More digits than Python turns into a number (4,300)."""

DROPPER = "dropper ..../..../..../.... w"
CRUMBLE = "crumble 2x1 0,0,1,1,b;1,0,1,1,w w 0 -|-|-|-"
RFEN = "8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w QRBNqrbn - 0 1"

REFUSED_COMMANDS = {
    "dropper size": ["games", "start", "dropper", f"size={BIG}"],
    "dropper width": ["games", "start", "dropper", f"width={BIG}"],
    "rumbo size": ["games", "start", "rumbo", f"size={BIG}"],
    "rumbo komi": ["games", "start", "rumbo", f"komi={BIG}"],
    "raindrops size": ["games", "start", "raindrops", f"size={BIG}"],
    "crumble width": ["games", "start", "crumble", f"width={BIG}"],
    "crumble height": ["games", "start", "crumble", f"height={BIG}"],
    "crumble board size": ["games", "turns", CRUMBLE.replace("2x1", f"{BIG}x1")],
    "crumble piece": ["games", "turns", CRUMBLE.replace("0,0,1,1,b", f"0,0,{BIG},1,b")],
    "crumble fraction": ["games", "turns", CRUMBLE.replace("0,0,1,1,b", f"0,0,1/{BIG},1,b")],
    "dropper turn": ["games", "play", DROPPER, f"a{BIG}"],
    "rumbo turn": ["games", "play", "rumbo 3 . . ./././. b", f"a{BIG}"],
    "raindrops turn": ["games", "play", "raindrops bw/wb b", f"a{BIG}-b1"],
    "crumble turn": ["games", "steps", CRUMBLE, f"a{BIG}"],
    "halfmove counter": ["check", RFEN.replace("- 0 1", f"- {BIG} 1")],
    "fullmove counter": ["check", RFEN.replace("- 0 1", f"- 0 {BIG}")],
    "house rule": ["check", RFEN, "--rules", f"jokers_per_deck={BIG}"],
    "games clock": ["play", "--game", "dropper", "--clock", f"{BIG}+5"],
    "raindropchess clock": ["play", "--clock", "9" * 400 + "+5", "--board", "none"],
}


@pytest.mark.parametrize("case", sorted(REFUSED_COMMANDS))
def test_five_thousand_digits_are_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        case: str) -> None:
    monkeypatch.setenv("RAINDROP_DATA_DIR", str(tmp_path))
    code, out, err = run_main(capsys, REFUSED_COMMANDS[case], "quit\n")
    assert code == 2, out
    one_line_error(err)
    assert not list(tmp_path.rglob("*.rdj"))  # no game was started


def _record(tmp_path: Path, edit: tuple[str, str]) -> Path:
    from companion.games.record import read_record

    record = read_record("[Game \"dropper\"]\n[Options \"size=4\"]\n\n1. white a4\n"
                         "2. black a4>b3+d1\n")
    text = write_record(record.session).replace(*edit)
    path = tmp_path / "game.txt"
    path.write_text(text)
    return path


@pytest.mark.parametrize("edit", [
    ('[Options "size=4"]', f'[Options "size={BIG}"]'),
    ("1. white a4", f"{BIG}. white a4"),
    ("2. black a4>b3+d1", "٢. black a4>b3+d1"),
    ('[Result "*"]', f'[Result "{BIG}"]'),
])
def test_a_record_with_huge_or_unicode_numbers_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: tuple[str, str]) -> None:
    path = _record(tmp_path, edit)
    code, _, err = run_main(capsys, ["replay", str(path), "--all"])
    assert code == 2
    one_line_error(err)


def test_typed_turns_with_huge_numbers_are_refused_and_play_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = dropper_journal(tmp_path, "a4")
    code, out, err = run_main(capsys, ["resume", str(path)],
                              f"a{BIG}\nb{BIG}>c2\na4>b3+d1\nquit\n")
    assert code == 0 and "Traceback" not in err
    assert out.count("Not done") == 2
    resumed = resume_session(path)
    assert resumed.session.turns == ["a4", "a4>b3+d1"]
    resumed.journal.close()


# ----------------------------------------------------------------------
# Journals edited by hand, their checksums recomputed


def _edit_journal(path: Path, line: int, change: dict[str, object]) -> bytes:
    lines = path.read_bytes().splitlines(keepends=True)
    item = json.loads(lines[line][9:])
    item.update(change)
    lines[line] = encode_line(item)
    data = b"".join(lines)
    path.write_bytes(data)
    return data


def _nested(depth: int) -> object:
    value: object = 0
    for _ in range(depth):
        value = [value]
    return value


def _raw_nested(path: Path, line: int, depth: int) -> bytes:
    """An entry whose JSON nests ``depth`` deep (beyond what json.dumps itself writes)."""
    lines = path.read_bytes().splitlines(keepends=True)
    text = lines[line][9:].rstrip(b"\n")
    deep = b'{"deep":' + b"[" * depth + b"]" * depth + b","
    body = deep + text[1:]
    import zlib

    lines[line] = f"{zlib.crc32(body):08x} ".encode() + body + b"\n"
    data = b"".join(lines)
    path.write_bytes(data)
    return data


JOURNAL_EDITS = {
    "nested entry": lambda path: _raw_nested(path, 1, 100_000),
    "nested header": lambda path: _raw_nested(path, 0, 100_000),
    "clock of the wrong type": lambda path: _edit_journal(
        path, 1, {"clock": {"white": "soon", "black": [], "turn": 3, "paused": "no"}}),
    "clock settings of the wrong type": lambda path: _edit_journal(
        path, 0, {"clock": {"base": "ten", "increment": True}}),
    "infinite clock": lambda path: _edit_journal(path, 0, {"clock": {"base": 1e308 * 10}}),
    "huge clock": lambda path: _edit_journal(path, 0, {"clock": {"base": 1e300}}),
    "huge number in the turn": lambda path: _edit_journal(path, 2, {"turn": f"a{BIG}"}),
    "turn of the wrong type": lambda path: _edit_journal(path, 2, {"turn": {"a": 1}}),
    "a list for the options": lambda path: _edit_journal(path, 0, {"options": [1, 2]}),
}


@pytest.mark.parametrize("edit", sorted(JOURNAL_EDITS))
def test_a_hand_edited_games_journal_is_refused_unchanged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: str) -> None:
    session_path = tmp_path / "session"
    from companion.clock import ClockSettings
    from companion.games.resume import new_session

    session, journal = new_session("dropper", {"size": "4"}, directory=session_path,
                                   clock=ClockSettings(600, increment=5))
    session.play("a4")
    session.play("a4>b3+d1")
    journal.close()
    path = journal.path
    data = JOURNAL_EDITS[edit](path)
    with pytest.raises(JournalError):
        resume_session(path)
    code, _, err = run_main(capsys, ["resume", str(path)], "quit\n")
    assert code == 2
    one_line_error(err)
    assert path.read_bytes() == data


@pytest.mark.parametrize("edit", ["nested entry", "clock of the wrong type",
                                  "clock settings of the wrong type", "infinite clock"])
def test_a_hand_edited_raindropchess_journal_is_refused_unchanged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: str) -> None:
    from companion.clock import ClockSettings

    game, journal = new_game(seed=2, clock=ClockSettings(600, increment=5),
                             directory=tmp_path)
    game.flip()
    game.play_text(__import__("chess").square_name(min(game.drop_targets())))
    journal.close()
    path = journal.path
    data = JOURNAL_EDITS[edit](path)
    with pytest.raises(JournalError):
        resume(path)
    code, _, err = run_main(capsys, ["resume", str(path), "--board", "none"], "quit\n")
    assert code == 2
    one_line_error(err)
    assert path.read_bytes() == data


# ----------------------------------------------------------------------
# Files that never end, or are too big


def _limited_run(args: list[str], data: Path) -> subprocess.CompletedProcess[str]:
    """The real CLI with 1 GiB of memory and a minute at most: a read without a bound
    fails it (MemoryError or the timeout) instead of the machine."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_DATA, (1 << 30, 1 << 30))

    try:
        return subprocess.run([sys.executable, "-m", "companion", *args], input="quit\n",
                              capture_output=True, text=True, env=cli_env(data), timeout=60,
                              preexec_fn=limit, check=False)
    except subprocess.TimeoutExpired:
        pytest.fail(f"raindrop {' '.join(args)} did not end within a minute")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.parametrize("command", ["replay", "resume"])
def test_a_file_that_never_ends_is_refused(tmp_path: Path, command: str) -> None:
    done = _limited_run([command, "/dev/zero"], tmp_path)
    assert done.returncode == 2
    assert "not a regular file" in one_line_error(done.stderr)


@pytest.mark.parametrize("command", ["replay", "resume"])
def test_a_file_too_big_is_refused_before_it_is_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    path = tmp_path / "huge.rdj"
    with path.open("wb") as file:
        file.truncate(200 << 20)  # sparse: no disk used
    code, _, err = run_main(capsys, [command, str(path)], "quit\n")
    assert code == 2 and "too big" in one_line_error(err)
    assert path.stat().st_size == 200 << 20


# ----------------------------------------------------------------------
# Item 9: the minor ones


def test_a_finished_record_saying_result_star_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.games.record import read_record

    record = read_record("[Game \"dropper\"]\n[Options \"size=4\"]\n\n1. white a4\n"
                         "2. black resigns\n")
    assert record.session.is_over
    path = tmp_path / "game.txt"
    path.write_text(write_record(record.session).replace('[Result "white"]', '[Result "*"]'))
    code, _, err = run_main(capsys, ["replay", str(path), "--all"])
    assert code == 2 and "Result" in one_line_error(err)


def test_a_finished_pgn_saying_result_star_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.game import Game
    from companion.notation import write_pgn

    game = Game(seed=1)
    game.flip()
    game.resign(__import__("chess").WHITE)
    text = write_pgn(game)
    assert '[Result "0-1"]' in text
    path = tmp_path / "game.pgn"
    path.write_text(text.replace('[Result "0-1"]', '[Result "*"]').replace(" 0-1", " *"))
    code, _, err = run_main(capsys, ["replay", str(path), "--all"])
    assert code == 2 and "Result" in one_line_error(err)


UNICODE_DIGITS = {
    "fullwidth size": ["games", "start", "dropper", "size=８"],
    "arabic-indic size": ["games", "start", "raindrops", "size=١٠"],
    "superscript size": ["games", "start", "crumble", "width=²"],
    "fullwidth komi": ["games", "start", "rumbo", "komi=３"],
    "rfen halfmove": ["check", RFEN.replace("- 0 1", "- ٠ 1")],
    "rfen fullmove": ["check", RFEN.replace("- 0 1", "- 0 ١")],
    "dropper point": ["games", "play", DROPPER, "a٤"],
    "crumble size": ["games", "turns", CRUMBLE.replace("2x1", "２x1")],
    "house rule": ["check", RFEN, "--rules", "jokers_per_deck=２"],
    "clock": ["play", "--game", "dropper", "--clock", "１0+5"],
}


@pytest.mark.parametrize("case", sorted(UNICODE_DIGITS))
def test_only_ascii_digits_are_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch, case: str) -> None:
    monkeypatch.setenv("RAINDROP_DATA_DIR", str(tmp_path))
    code, _, err = run_main(capsys, UNICODE_DIGITS[case], "quit\n")
    assert code == 2
    one_line_error(err)


@pytest.mark.parametrize("args", [
    ["monitor", "--seconds", "-1"], ["monitor", "--seconds", "nan"],
    ["monitor", "--seconds", "inf"], ["monitor", "--settle", "-5"],
    ["monitor", "--count", "-1"], ["selftest", "--sweep", "nan"],
    ["selftest", "--sweep", "-2"],
])
def test_board_durations_must_be_finite_and_not_negative(
        capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code, _, err = run_main(capsys, ["board", *args, "--port", "/nonexistent/port"])
    assert code == 2 and "Traceback" not in err
    assert f"argument {args[1]}" in err


@pytest.mark.parametrize("rules", [",,,", "jokers_per_deck=1,,", ",", " , "])
def test_empty_house_rules_in_a_list_are_refused(capsys: pytest.CaptureFixture[str],
                                                  rules: str) -> None:
    code, _, err = run_main(capsys, ["check", RFEN, "--rules", rules])
    assert code == 2 and "empty" in one_line_error(err)


@pytest.mark.parametrize("command", [["play", "--game", "dropper", "size=4"],
                                     ["play", "--board", "none", "--no-color", "--seed", "1"]])
def test_a_typed_line_too_long_is_refused_and_play_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        command: list[str]) -> None:
    monkeypatch.setenv("RAINDROP_DATA_DIR", str(tmp_path))
    first = "a4" if "dropper" in command else "flip"
    code, out, err = run_main(capsys, command, f"{'x' * 200_000}\n{first}\nquit\n")
    assert code == 0 and "Traceback" not in err
    assert "Not understood: line longer than 65536 bytes." in out
    assert "plays a4" in out or "flips" in out


@pytest.mark.parametrize("args", [
    ["play", "--seed", BIG], ["play", "--seed", "８"], ["play", "--jokers", BIG],
    ["play", "--jokers", "3"], ["replay", "--game", BIG, "x.pgn"],
])
def test_numeric_options_are_bounded_with_a_short_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        args: list[str]) -> None:
    monkeypatch.setenv("RAINDROP_DATA_DIR", str(tmp_path))
    code, _, err = run_main(capsys, args, "quit\n")
    assert code == 2 and "Traceback" not in err
    error = err.strip().splitlines()[-1]
    assert f"argument {args[1]}" in error and len(error) < 200, error
    assert not list(tmp_path.rglob("*.rdj"))
