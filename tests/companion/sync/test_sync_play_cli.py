"""``raindrop play --board sim``: typed moves and typed physical actions travel the
whole path: simulated board -> snapshots -> BoardSync -> game."""

from __future__ import annotations

import io
import random
import subprocess
import sys

import chess

from companion.cli.play import TerminalSession
from companion.game import Game
from companion.sensors.simulated import SimulatedBoard


def _session(seed: int, board: str = "sim") -> tuple[Game, TerminalSession, io.StringIO]:
    game = Game(seed=seed)
    out = io.StringIO()
    session = TerminalSession(game, None, color=False, out=out)
    session.open_board(board)
    return game, session, out


def test_typed_moves_are_played_through_the_simulated_board() -> None:
    game, session, out = _session(11)
    sim = session.sim
    assert isinstance(sim, SimulatedBoard)
    rng = random.Random(11)
    played = 0
    while played < 40 and not game.is_over:
        moves = game.legal_moves()
        if game.can_flip() and (not moves or rng.random() < 0.3):
            assert session.handle("flip")
            continue
        if not moves:
            break
        move = rng.choice(moves)
        san = game.board.san(move)
        before = len(game.board.actions)
        sent = sim.sent
        assert session.handle(san)
        assert sim.sent > sent, "the board reported nothing"
        assert len(game.board.actions) == before + 1, out.getvalue()[-500:]
        assert game.board.actions[-1].move == move
        played += 1
        # The physical board shows the game's position.
        board = game.board
        assert {sq: p.color for sq, p in sim.squares.items()} == {
            sq: ("blue" if board.is_blue(sq) else "white" if p.color else "black")
            for sq, p in board.piece_map().items()}
    text = out.getvalue()
    assert played >= 20
    # The game says what was played; the board's own report of it is not repeated.
    assert "Board:" not in text
    assert "White plays" in text or "White places" in text


def test_physical_commands_and_answers_at_the_terminal() -> None:
    game, session, out = _session(5)
    assert session.handle("flip")
    card = game.pending
    assert card is not None
    target = sorted(game.drop_targets())[0]
    name = chess.square_name(target)
    assert session.handle(f"place {name}")        # the flipped card's piece
    piece = game.board.piece_at(target)
    assert game.pending is None and piece is not None and piece.symbol() == card
    assert f"Board: White played {card.upper()}@{name}" in out.getvalue()
    assert session.handle("lift z9")
    assert "Board: 'z9' is not a square (e.g. e4)" in out.getvalue()
    actions = len(game.board.actions)
    assert session.handle("place h4 black n")     # before Black flips
    assert "Board: A piece set down on h4 is not legal: no card is flipped: flip a card " \
           "first. Remove the extra piece from h4." in out.getvalue()
    assert session.handle("remove h4")
    assert session.board_session.last_result.kind.value == "in_sync"
    assert len(game.board.actions) == actions
    assert session.handle("choose 0")
    assert "there is no open question to answer" in out.getvalue()


def test_raindrop_play_board_sim_from_the_command_line(tmp_path: object) -> None:
    script = "flip\nplace d4\nshow\nquit\n"
    run = subprocess.run(
        [sys.executable, "-m", "companion", "play", "--board", "sim", "--seed", "7",
         "--no-color", "--data-dir", str(tmp_path)],
        input=script, capture_output=True, text=True, timeout=120,
        env={"RAINDROP_FAKE_CLOCK": "1", "PATH": ""})
    assert run.returncode == 0, run.stderr
    assert "Board sim: simulated board (occupancy) ready" in run.stdout
    assert "Board: White played" in run.stdout and "@d4" in run.stdout


def test_a_piece_the_board_sees_only_faintly_is_asked_about_at_the_terminal() -> None:
    # 'faint' stands for a camera's pale piece on a pale square: the board reports the
    # square unsure, never occupied, and the companion asks instead of playing it.
    game, session, out = _session(5)

    def played() -> list[chess.Move]:
        return [a.move for a in game.board.actions if a.move is not None]

    assert session.handle("flip")
    card = game.pending
    assert card is not None
    target = sorted(game.drop_targets())[0]
    name = chess.square_name(target)
    assert session.handle(f"place {name} faint")
    assert game.pending == card and not played(), "played without being asked"
    assert "The camera cannot tell for sure." in out.getvalue()
    assert f" on {name}?" in out.getvalue()
    assert session.handle("choose 0")
    assert game.pending is None and played()[-1].to_square == target
    # The faint piece counts as standing from then on: the game goes on normally.
    while True:
        assert session.handle("flip")
        drop = sorted(game.drop_targets())[0]
        assert session.handle(f"place {chess.square_name(drop)}")
        assert game.pending is None, out.getvalue()[-300:]
        assert session.board_session.last_result.kind.value == "committed"
        moves = [m for m in game.legal_moves() if game.board.piece_at(m.to_square) is None]
        if moves:
            break
    # A move set down faintly is asked about too, and played once chosen.
    move = moves[0]
    before = len(played())
    origin, to = chess.square_name(move.from_square), chess.square_name(move.to_square)
    assert session.handle(f"move {origin} {to} faint")
    assert len(played()) == before, "played without being asked"
    assert f"from {origin} to {to}?" in out.getvalue() or f"from {origin} go:" in out.getvalue()
    question = session.board_session.last_result
    index = next(i for i, choice in enumerate(question.choices) if choice.move == move)
    assert session.handle(f"choose {index}")
    assert len(played()) == before + 1 and played()[-1] == move


def test_a_piece_a_colour_board_reads_in_another_colour_is_asked_about_at_the_terminal(
        ) -> None:
    # 'seen blue' stands for a camera reading a white piece blue in poor light: the
    # placement fits by occupancy, not by colour, and the companion asks.
    game, session, out = _session(5, "sim:color")
    assert session.handle("flip")
    card = game.pending
    assert card is not None
    target = sorted(game.drop_targets())[0]
    name = chess.square_name(target)
    wrong = "black" if game.board.turn == chess.WHITE else "white"
    assert session.handle(f"place {name} seen {wrong}")
    assert game.pending == card, "played without being asked"
    assert "cannot tell its colour for sure" in out.getvalue()
    assert f"on {name} looks {wrong}" in out.getvalue()
    assert session.handle("choose 0")
    assert game.pending is None and game.board.piece_at(target) is not None
    # Still read in the other colour, the confirmed piece is the game's: the next
    # placement is played as usual.
    assert session.handle("flip")
    drop = sorted(game.drop_targets())[0]
    assert session.handle(f"place {chess.square_name(drop)}")
    assert game.pending is None, out.getvalue()[-300:]
    assert session.board_session.last_result.kind.value == "committed"
