"""docs/rules.md stays true: its RFEN examples parse and its sample output is real."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.cli import main
from companion.rules import HouseRules, RaindropBoard

DOC = Path(__file__).resolve().parents[3] / "docs" / "rules.md"
RFEN_LINE = re.compile(r"^\s+(\S+\[[A-Za-z]*\] [wb] \S+ \S+ \d+ \d+)$")


def doc_rfens() -> list[str]:
    return [m.group(1) for line in DOC.read_text().splitlines()
            if (m := RFEN_LINE.match(line))]


def test_the_doc_has_rfen_examples() -> None:
    assert len(doc_rfens()) >= 12


@pytest.mark.parametrize("rfen", doc_rfens())
def test_every_rfen_in_the_doc_is_valid_and_written_back_alike(rfen: str) -> None:
    cards = rfen.split("[")[1].split("]")[0]
    held = cards + rfen.split()[3]
    rules = HouseRules(jokers_per_deck=2 if "J" in held.upper() else 0,
                       coloured_bishop_cards="L" in cards.upper(),
                       failed_rescue="return" if " + " in rfen else "lose",
                       joker_effect="remove_piece" if rfen.split()[3] in "Jj" else "extra_turn")
    assert RaindropBoard(rfen, rules=rules).rfen() == rfen


def test_the_sample_check_output_is_what_raindrop_check_prints(
        capsys: pytest.CaptureFixture[str]) -> None:
    text = DOC.read_text()
    block = text.split('    $ raindrop check "')[1].split("\n\n")[0]
    rfen, _, printed = block.partition('"\n')
    assert main(["check", rfen]) == 0
    expected = [line[4:] for line in printed.splitlines()]
    assert capsys.readouterr().out.splitlines() == expected
