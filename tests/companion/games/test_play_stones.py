"""`raindrop play --game GAME --board ...`: the terminal game following a physical board
through a StoneBoardSession (companion.sync.stone_session).

The board sources are stood in for: settled stone boards fed to the session as the
camera reader would send them, and occupancy snapshots as the reed-switch board
sends every change.
"""

from __future__ import annotations

import io
from pathlib import Path

import chess
import pytest

from companion import games
from companion.cli import CommandError
from companion.cli.play_games import GamesTerminal, start_session
from companion.cli.play_stones import open_stone_board, stone_board
from companion.games.session import GameSession
from companion.sensors.snapshot import BoardSnapshot
from companion.sync.stone_session import StoneBoardSession, occupancy_snapshot
from companion.sync.stones import GridLayout, StoneSnapshot


class NoSource:
    name = "test"

    def start(self, *_: object) -> None:
        pass

    def stop(self) -> None:
        pass


def _link(terminal: GamesTerminal, spec: str = "camera") -> StoneBoardSession:
    return stone_board(terminal, NoSource(), spec)


def _terminal(tmp_path: Path, game: str, *options: str) -> tuple[GamesTerminal, io.StringIO]:
    session, _journal = start_session(game, list(options), clock_text=None,
                                      directory=str(tmp_path), now=lambda: 0.0)
    out = io.StringIO()
    return GamesTerminal(session, out=out), out


def test_camera_boards_commit_turns_and_guide(tmp_path: Path) -> None:
    terminal, out = _terminal(tmp_path, "dropper", "size=5")
    link = _link(terminal)
    rules, session = terminal.rules, terminal.session
    after = rules.play(session.position, "c3")
    link.on_snapshot(StoneSnapshot(dict(after.cells())))
    assert session.turns == ["c3"]
    # A black stone put down on the wrong point: no commit, words instead.
    wrong = dict(session.position.cells()) | {"e5": "b"}
    link.on_snapshot(StoneSnapshot(wrong))
    assert session.turns == ["c3"]
    assert "fits no legal turn" in out.getvalue()
    after = rules.play(session.position, "c3>d3+a1")
    link.on_snapshot(StoneSnapshot(dict(after.cells())))
    assert session.turns == ["c3", "c3>d3+a1"]
    assert "Black plays c3>d3+a1." in out.getvalue()


def _occupancy(cells: dict[str, str]) -> BoardSnapshot:
    return BoardSnapshot(chess.SquareSet(chess.parse_square(c) for c, v in cells.items()
                                         if v != "."))


SET_UP = "dropper ......../......../......../......../......../......../......../w.w..... b"


def _set_up() -> tuple[GamesTerminal, io.StringIO]:
    rules = games.get("dropper")
    out = io.StringIO()
    return GamesTerminal(GameSession(rules, rules.parse(SET_UP)), out=out), out


@pytest.mark.parametrize(("lifted", "turn"), [("a1", "a1>b1+h8"), ("c1", "c1>b1+h8")])
def test_reed_board_follows_dropper_by_the_order_of_changes(lifted: str, turn: str) -> None:
    """White on a1 and c1: Black dropping on either and pushing to b1 ends on the same
    occupancy; the stone lifted first tells which."""
    terminal, out = _set_up()
    link = _link(terminal, "serial")
    board = {c: v for c, v in terminal.session.position.cells().items()}
    link.on_board(_occupancy(board))  # the board as the game starts: nothing to do
    for cell, value in ((lifted, "."), ("b1", "x"), (lifted, "x"), ("h8", "x")):
        board[cell] = value
        link.on_board(_occupancy(board))
    assert terminal.session.turns == [turn], out.getvalue()
    assert "fits no legal turn" not in out.getvalue()  # a stone in hand is not a mistake
    assert "White to move" in out.getvalue()


def test_reed_board_asks_when_the_order_cannot_tell() -> None:
    terminal, out = _set_up()
    link = _link(terminal, "serial")
    board = {c: v for c, v in terminal.session.position.cells().items()}
    link.on_board(_occupancy(board))
    # The lift was missed (the board reported the end only): both drops fit.
    board |= {"b1": "x", "h8": "x"}
    link.on_board(_occupancy(board))
    assert terminal.session.turns == []
    assert "a1>b1+h8, c1>b1+h8; say which (type the turn)" in out.getvalue()


def test_boards_that_cannot_follow_are_refused(tmp_path: Path) -> None:
    terminal, _ = _terminal(tmp_path, "dropper", "size=5")
    with pytest.raises(CommandError, match="stone game follows"):
        open_stone_board("sim", terminal)
    layout = GridLayout.of(terminal.session.position)
    with pytest.raises(ValueError, match="lacks"):
        occupancy_snapshot(BoardSnapshot(chess.SquareSet([chess.H8])), layout)
