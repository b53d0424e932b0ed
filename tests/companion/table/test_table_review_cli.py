"""``raindrop review FILE`` and the terminal's ``review`` at the end of a game.

A game is played companion against companion (tiny playout budgets; Raindropchess with
the fake engine of ``table_helpers``), then reviewed from its record, its PGN and its
journal; bad files get one clear line and no traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from table_helpers import chess_engine, run_main

from companion.journal import latest_journal

MARK = re.compile(r"^(\d+)\. (\w+): .*?(?: An? (inaccuracy|mistake|blunder): (\d+)% given "
                  r"away(?:; better: .+)?\.)?  \[(\w+) (\d+)%\]$")


def _play(capsys: pytest.CaptureFixture[str], directory: Path, game: str, *options: str,
          stdin: str = "") -> tuple[str, str]:
    """Companion against companion to the end: (the saved record's path, the output)."""
    code, out = run_main(capsys, "play", "--game", game, *options, "--companion", "both:1",
                      "--companion-playouts", "20", "--board", "none", "--data-dir",
                      str(directory), "--no-color", "--seed", "5", stdin=stdin)
    assert code == 0, out[-1500:]
    saved = next(line for line in out.splitlines() if line.startswith("Saved the "))
    record = saved.rsplit(": ", 1)[-1] if game == "raindropchess" else \
        saved.removeprefix("Saved the record as ").rstrip(".")
    return record, out


def _check_review(out: str, first: str, game: str) -> None:
    lines = out.splitlines()
    assert lines[0].startswith("Reviewing ") and "20 playouts each" in lines[0]
    assert lines[1].startswith(f"Review of {game} (")
    turns = int(lines[1].split("(")[1].split()[0])
    marked = [MARK.match(line) for line in lines if re.match(r"^\d+\. ", line)]
    assert len(marked) == turns and all(marked), lines
    for number, match in enumerate(marked, start=1):
        assert match is not None and int(match.group(1)) == number
        assert match.group(5) == first and 0 <= int(match.group(6)) <= 100
        if match.group(3):   # a marked turn names the chance it gave away
            assert int(match.group(4)) >= 5
    graph = next(line for line in lines if line.startswith("Graph of "))
    assert len(graph.rsplit(": ", 1)[1]) == turns + 1


def test_review_of_a_stone_games_record_and_journal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record, _ = _play(capsys, tmp_path, "dropper", "size=4")
    code, out = run_main(capsys, "review", "--playouts", "20", record)
    assert code == 0, out
    _check_review(out, "White", "Dropper")
    assert re.search(r"^White: \d+ good", out, re.M) and re.search(r"^Black: \d+ good", out,
                                                                    re.M)
    code, again = run_main(capsys, "review", "--playouts", "20", str(latest_journal(tmp_path)))
    assert code == 0 and again == out          # the journal holds the same game


def test_review_of_rumbo_names_its_roles(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    record, _ = _play(capsys, tmp_path, "rumbo", "size=3")
    code, out = run_main(capsys, "review", "--playouts", "20", record)
    assert code == 0, out
    _check_review(out, "Proposer", "Rumbo")


def test_review_of_raindropchess_pgn_and_journal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with chess_engine():
        record, _ = _play(capsys, tmp_path, "raindropchess")
        code, out = run_main(capsys, "review", "--playouts", "20", record)
        assert code == 0, out
        _check_review(out, "White", "Raindropchess")
        assert "1. White: flip a card." in out
        code, again = run_main(capsys, "review", "--playouts", "20",
                            str(latest_journal(tmp_path)))
        assert code == 0 and again == out


@pytest.mark.parametrize("game, options", [("crumble", ["width=3", "height=3"]),
                                           ("raindropchess", [])])
def test_review_at_the_end_of_a_terminal_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str,
        options: list[str]) -> None:
    with chess_engine():
        _, out = _play(capsys, tmp_path, game, *options, stdin="review\n")
    assert "Reviewing the game: " in out and "20 playouts each..." in out
    tail = out[out.index("Reviewing the game: "):]
    assert f"Review of {game.capitalize()} (" in tail and "Graph of " in tail


def test_review_before_the_end_is_refused(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_main(capsys, "play", "--game", "dropper", "size=4", "--board", "none",
                      "--data-dir", str(tmp_path), "--no-color", stdin="review\nquit\n")
    assert code == 0 and "Not done: review comes once the game is over" in out


@pytest.mark.parametrize("content, says", [
    (None, "no such file: "),
    (b"\x00\x01\x02", "is not a text file"),
    (b"", "is empty"),
    (b"hello there\n", "is neither a PGN, a record nor a readable journal"),
    (b"[Game \"dropper\"]\n[Options \"size=99999\"]\n\n1. b2\n", "game.txt: "),
    (b"[Event \"x\"]\n\n1. Qh9 *\n", "game.txt: "),
    (b"[Game \"dropper\"]\n[Options \"size=4\"]\n\n", "game.txt has no turns to review"),
])
def test_bad_files_get_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      content: bytes | None, says: str) -> None:
    path = tmp_path / "game.txt"
    if content is not None:
        path.write_bytes(content)
    code, out = run_main(capsys, "review", "--playouts", "5", str(path))
    assert code == 2 and out.startswith("raindrop: ") and says in out, out
    assert len(out.strip().splitlines()) == 1 and "Traceback" not in out


def test_a_folder_is_not_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_main(capsys, "review", str(tmp_path))
    assert code == 2 and out.startswith("raindrop: ") and len(out.strip().splitlines()) == 1


@pytest.mark.parametrize("option", [["--seconds", "0"], ["--seconds", "nan"],
                                    ["--playouts", "0"], ["--level", "9"], ["--game", "0"]])
def test_bad_budgets_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 option: list[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        run_main(capsys, "review", *option, str(tmp_path / "x.pgn"))
    assert stopped.value.code == 2
