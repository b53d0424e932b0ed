"""``hint`` in ``raindrop play`` with the real Raindropchess engine: the action and its chance.

(The table's own tests play Raindropchess with a fake engine; this one goes through the
registry to the engine itself.)"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from companion.cli import main


def test_hint_names_the_action_and_the_chance_in_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("hint\nflip\nhint\nquit\n"))
    code = main(["play", "--board", "none", "--data-dir", str(tmp_path), "--no-color",
                 "--seed", "3", "--companion-playouts", "300"])
    out = capsys.readouterr().out
    assert code == 0, out[-1500:]
    hints = [line for line in out.splitlines() if line.startswith("Hint for White: ")]
    assert len(hints) == 2, out[-1500:]
    assert re.fullmatch(r"Hint for White: flip a card\. .*\(about \d+% for White\)\.", hints[0])
    placed = re.fullmatch(r"Hint for White: place the (\w+) on ([a-h][1-8])\. "
                          r".*\(about \d+% for White\)\.", hints[1])
    assert placed, hints[1]
    typed = re.findall(r"\(as typed: ([^)]*)\)", out)
    assert typed[0] == "flip"
    best = typed[1].split(", ")[0]
    assert best.endswith("@" + placed.group(2))
    flipped = re.search(r"White flips: (\w+) ", out)
    assert flipped and flipped.group(1).lower() == placed.group(1)   # the card just flipped


def test_a_hint_never_changes_the_game(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("hint\nhint\nquit\n"))
    assert main(["play", "--board", "none", "--data-dir", str(tmp_path), "--no-color",
                 "--seed", "3", "--companion-playouts", "200"]) == 0
    out = capsys.readouterr().out
    assert out.count("Hint for White: flip a card.") == 2   # still White's first turn
    assert "flips:" not in out
