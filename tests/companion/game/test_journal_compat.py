"""Journals written before the house was rearranged (companion.records, companion.journal's
old resume, companion.games.journal) still resume, and resuming appends to them byte for byte:
``data/journals_v1`` holds a Raindropchess game (decks sealed, a flip taken back, a draw
offered, a clock) and a Dropper game (a turn taken back), with their key file."""

from __future__ import annotations

import shutil
from pathlib import Path

import chess

from companion.games.resume import resume_session
from companion.journal import read_entries
from companion.resume import resume

DATA = Path(__file__).parent / "data" / "journals_v1"


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "games"
    shutil.copytree(DATA, folder)
    return folder


def test_a_raindropchess_journal_of_the_old_layout_resumes_and_goes_on(tmp_path: Path) -> None:
    path = _copy(tmp_path) / "raindropchess.rdj"
    before = path.read_bytes()
    resumed = resume(path, now=lambda: 100.0)
    game = resumed.game
    assert resumed.warnings == ()
    assert game.rfen() == ("8/8/8/8/8/8/8/BnRr4[KQRBNNPPPPPPPPkqrbbnpppppppp] w QRBNqrbn - 0 3")
    assert game.san_history() == ["B@a1", "N@b1", "R@c1", "R@d1"]
    assert game.draw_offer == chess.WHITE
    assert game.clock is not None
    game.decline_draw(chess.BLACK)
    resumed.journal.close()
    after = path.read_bytes()
    assert after.startswith(before) and len(after) > len(before)
    assert read_entries(path).entries[-1]["a"] == "decline"


def test_a_games_journal_of_the_old_layout_resumes_and_goes_on(tmp_path: Path) -> None:
    path = _copy(tmp_path) / "dropper.rdj"
    before = path.read_bytes()
    resumed = resume_session(path)
    session = resumed.session
    assert session.position.text() == "dropper bw.b../....../....../....../....../...... w"
    assert session.turns == ["a6", "a6>b6+d6"]
    assert session.names == {"white": "Ann"}
    session.play(next(iter(session.rules.turns(session.position))))
    resumed.journal.close()
    after = path.read_bytes()
    assert after.startswith(before) and len(after) > len(before)
