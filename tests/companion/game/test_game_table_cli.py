"""``raindrop play`` as players meet it (issue 14, points 5, 6 and 9): the simulated
board follows undo, help lists the game's commands in every mode, typed moves on the
simulated board bring no board chatter, a finished game says so, a bare square
places a pending card, output into a closed pipe ends quietly, and API misuse gets a
clear TypeError or ValueError."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path

import chess
import pytest
from cli_scripts import run_cli
from game_helpers import playout

from companion.cli.play import TerminalSession
from companion.game import Game, GameOverError
from companion.notation import read_pgn, write_pgn
from companion.rules import IllegalActionError


def _session(seed: int, board: str | None = "sim") -> tuple[Game, TerminalSession, io.StringIO]:
    game = Game(seed=seed)
    out = io.StringIO()
    session = TerminalSession(game, None, color=False, out=out)
    if board is not None:
        session.open_board(board)
    return game, session, out


def _sim_matches(game: Game, session: TerminalSession) -> bool:
    board = game.board
    return {sq: p.symbol for sq, p in session.sim.squares.items()} == {
        sq: p.symbol() for sq, p in board.piece_map().items()} and not session.sim.hand


def test_the_reported_undo_on_the_simulated_board(tmp_path: Path) -> None:
    result = run_cli(["play", "--seed", "10055", "--no-color"],
                     ["flip", "K@e1", "undo", "K@d1", "quit"], tmp_path / "data")
    assert result.returncode == 0, result.stderr
    assert "Board:" not in result.stdout
    assert "White places K@d1." in result.stdout


def test_after_any_undo_the_simulated_board_shows_the_game() -> None:
    """A scripted game with many takebacks: no command is refused and the simulated
    pieces always stand as the game's (124 of 213 commands were refused before)."""
    undos = 0
    for seed in range(6):
        game, session, out = _session(seed)
        rng = random.Random(seed)
        commands = 0
        while commands < 150 and not game.is_over:
            moves = game.legal_moves()
            if game.pending and game.pending.upper() == "J":
                line = f"remove {chess.square_name(rng.choice(list(game.legal_removals())))}"
            elif game.can_undo() and rng.random() < 0.25:
                line = "undo"
                undos += 1
            elif game.can_redo() and rng.random() < 0.2:
                line = "redo"
            elif game.can_flip() and (not moves or rng.random() < 0.6):
                line = "flip"
            else:
                line = game.board.san(rng.choice(moves))
            before = out.tell()
            assert session.handle(line)
            said = out.getvalue()[before:]
            assert "Board:" not in said and "Illegal" not in said, (line, said)
            assert _sim_matches(game, session), line
            commands += 1
    assert undos > 40


@pytest.mark.parametrize("board", [None, "sim"])
def test_help_lists_the_game_commands_in_every_mode(board: str | None) -> None:
    _game, session, out = _session(3, board)
    session.handle("help")
    text = out.getvalue()
    for command in ("flip", "undo", "redo", "verdict", "moves", "draw", "resign", "save",
                    "export", "quit"):
        assert f"\n  {command}" in text, command
    assert ("lift SQ" in text) == (board == "sim")
    assert ("choose N" in text) == (board == "sim")


def test_a_typed_move_on_the_simulated_board_brings_no_chatter() -> None:
    _game, session, out = _session(10055)
    for line in ("flip", "K@e1", "flip", "K@h8"):
        session.handle(line)
    text = out.getvalue()
    assert "White places K@e1." in text
    assert "Board:" not in text


@pytest.mark.parametrize("board", [None, "sim"])
def test_a_move_after_the_end_is_told_the_game_is_over(board: str | None) -> None:
    game, session, out = _session(10055, board)
    for line in ("flip", "K@a1", "flip", "K@h8", "flip", "P@b2", "flip", "R@h1", "flip"):
        session.handle(line)
    assert game.is_over
    start = out.tell()
    for line in ("Ka2", "undo", "e4"):
        session.handle(line)
    said = out.getvalue()[start:]
    assert said.count("Illegal: the game is over") == 3, said
    assert "not a legal move" not in said
    with pytest.raises(GameOverError):
        game.parse_move("Ka2")


def test_a_square_places_the_pending_card() -> None:
    game = Game(seed=1)
    game.flip()
    card = game.pending
    assert card is not None
    square = "e4"
    game.play_text(square)
    assert game.board.piece_at(chess.E4) == chess.Piece.from_symbol(card)
    game.flip()
    with pytest.raises(IllegalActionError, match="e4 is not empty"):
        game.play_text("e4")
    # The terminal and the simulated board take the same short form.
    game, session, out = _session(1)
    session.handle("flip")
    session.handle("e4")
    assert game.board.piece_at(chess.E4) is not None, out.getvalue()[-300:]


def test_output_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    game = Game(seed=3)
    playout(game, random.Random(3), limit=2000)  # a long game (seventy-five moves)
    pgn = tmp_path / "long.pgn"
    pgn.write_text(write_pgn(game, include_decks=True))
    assert len(game.actions()) > 100
    process = subprocess.Popen([sys.executable, "-m", "companion", "replay", str(pgn),
                                "--all", "--no-color"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=dict(os.environ))
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()  # what `| head -1` does
    error = process.stderr.read().decode()
    assert process.wait(timeout=120) == 0
    assert "Traceback" not in error and "BrokenPipe" not in error, error


def test_api_misuse_gets_a_clear_type_or_value_error() -> None:
    game = Game(seed=2)
    with pytest.raises(TypeError, match=r"chess\.Move"):
        game.play(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"chess\.Move"):
        game.play("e2e3")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="99 is not a square"):
        game.remove(99)
    with pytest.raises(TypeError, match=r"chess\.Square"):
        game.remove("e4")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text"):
        game.play_text(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"chess\.Square"):
        game.targets(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="str"):
        read_pgn(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="game number"):
        read_pgn('[Variant "Raindropchess"]\n\n*\n', number="2")  # type: ignore[arg-type]
    assert game.rfen() == game.rules.start_rfen() and game.entries == 0
