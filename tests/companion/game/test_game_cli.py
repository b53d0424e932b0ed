"""Whole games through ``raindrop play`` (a subprocess fed on stdin), ``resume`` and
``replay``: every ending, bad input, bad files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import chess
import pytest
from cli_scripts import find_game, run_cli, scripted_game

from companion.game import Game
from companion.journal import latest_journal
from companion.notation import read_pgn
from companion.resume import read_journal, resume
from companion.rules import HouseRules, Termination


def _play(tmp_path: Path, seed: int, lines: list[str], *extra: str,
          env: dict[str, str] | None = None) -> str:
    result = run_cli(["play", "--seed", str(seed), "--no-color", *extra],
                     [*lines, f"save {tmp_path / 'game.pgn'}", "quit"], tmp_path / "data",
                     env=env)
    assert result.returncode == 0, result.stderr
    return result.stdout


def _check_records(tmp_path: Path, game: Game) -> None:
    """The journal and the saved PGN both rebuild exactly the in-process game."""
    resumed = resume(latest_journal(tmp_path / "data"))
    assert resumed.warnings == ()
    assert resumed.game.rfen() == game.rfen()
    assert resumed.game.san_history() == game.san_history()
    assert resumed.game.export_deck_order() == game.export_deck_order()
    assert resumed.game.outcome == game.outcome
    resumed.journal.close()
    imported = read_pgn((tmp_path / "game.pgn").read_text())
    assert imported.game.rfen() == game.rfen()
    assert imported.game.san_history() == game.san_history()
    assert imported.game.outcome == game.outcome


@pytest.mark.parametrize(("termination", "start", "flip_bias"), [
    (Termination.CHECKMATE, 15, 0.7),
    (Termination.FAILED_RESCUE, 1, 0.7),
    (Termination.STALEMATE, 40, 0.7),
])
def test_a_whole_game_to_its_end(tmp_path: Path, termination: Termination, start: int,
                                 flip_bias: float) -> None:
    seed, lines, game = find_game(
        lambda g: g.outcome is not None and g.outcome.termination == termination,
        start=start, flip_bias=flip_bias)
    assert lines[0] == "flip"
    out = _play(tmp_path, seed, [*lines, "verdict", "flip"])
    assert game.outcome is not None
    assert f"GAME OVER: {game.outcome.describe()} ({game.outcome.result()})" in out
    assert "Not a move" not in out
    assert out.count("Illegal") == 1  # only the flip after the end
    assert "Illegal: the game is over" in out
    verdict = {Termination.CHECKMATE: "Checkmate: ", Termination.FAILED_RESCUE: "failed rescue",
               Termination.STALEMATE: "Not checkmate"}[termination]
    assert verdict in out
    assert out.count("flips:") == sum(1 for a in game.actions() if a.card is not None)
    _check_records(tmp_path, game)


def test_a_game_to_a_draw_claim(tmp_path: Path) -> None:
    seed, lines, game = find_game(lambda g: not g.is_over and g.can_claim_draw(),
                                  stop=lambda g: g.can_claim_draw(), flip_bias=0.5,
                                  start=9)
    out = _play(tmp_path, seed, [*lines, "draw"])
    assert game.claim_draw()
    assert game.outcome is not None
    assert game.outcome.termination in (Termination.THREEFOLD_REPETITION,
                                        Termination.FIFTY_MOVES)
    assert f"GAME OVER: {game.outcome.describe()}" in out
    _check_records(tmp_path, game)


def test_a_game_to_a_time_forfeit(tmp_path: Path) -> None:
    lines, game = scripted_game(3, limit=6)
    out = _play(tmp_path, 3, [*lines, "_wait 30", "flip" if game.can_flip() else "undo",
                              "_wait 31", "flip", "flip"],
                "--clock", "1+0", env={"RAINDROP_FAKE_CLOCK": "1"})
    loser = chess.COLOR_NAMES[game.turn].capitalize()
    assert f"{loser}'s time is up." in out
    assert "wins by time forfeit" in out
    assert "Illegal: the game is over" in out  # the last flip came too late
    resumed = resume(latest_journal(tmp_path / "data"))
    assert resumed.game.outcome is not None
    assert resumed.game.outcome.termination == Termination.TIME_FORFEIT
    assert resumed.game.outcome.winner == (not game.turn)
    resumed.journal.close()


def test_resign_and_agreement(tmp_path: Path) -> None:
    out = _play(tmp_path, 5, ["flip", "resign"])
    assert "GAME OVER: Black wins by resignation (0-1)" in out
    out = _play(tmp_path / "b", 5, ["draw", "draw accept"])
    assert "White offers a draw" in out
    assert "GAME OVER: Draw: draw by agreement (1/2-1/2)" in out


def test_house_rule_options_reach_the_game(tmp_path: Path) -> None:
    rules = HouseRules(jokers_per_deck=2, joker_effect="remove_piece", failed_rescue="return",
                       coloured_bishop_cards=True, blue_pieces="QN",
                       blue_returns_when_captured=True, touch_move="off")
    lines, game = scripted_game(9, rules, limit=120)
    out = _play(tmp_path, 9, lines, "--jokers", "2", "--joker-effect", "remove_piece",
                "--failed-rescue", "return", "--coloured-bishop-cards", "--blue-pieces", "QN",
                "--blue-returns-when-captured", "--touch-move", "off")
    assert "Illegal" not in out
    resumed = resume(latest_journal(tmp_path / "data"))
    assert resumed.game.rules == rules
    assert resumed.game.rfen() == game.rfen()
    resumed.journal.close()


def test_bad_input_is_explained_and_changes_nothing(tmp_path: Path) -> None:
    lines = ["undo", "redo", "e9", "hello world", "N@e4", "Nx", "draw claim", "flip", "P@e8",
             "K@e9", "resign purple", "remove e4", "save", "verdict"]
    out = _play(tmp_path, 1, lines)
    assert "Illegal: there is nothing to undo" in out
    assert "Illegal: there is nothing to redo" in out
    assert "Not a move or command: 'e9'" in out
    assert "Not a move or command: 'hello world'" in out
    assert "Illegal: no card is flipped: flip a card first" in out
    assert "Illegal: no draw can be claimed" in out
    assert "Not understood: expected white or black, not 'purple'" in out
    # With the default simulated board, "remove e4" (no joker pending) is a hand
    # taking a piece off the board, and e4 is empty.
    assert "Board: there is no piece on e4 to remove" in out
    assert "Illegal: illegal placement P@e8" in out
    assert "Not checkmate" in out
    contents = read_journal(latest_journal(tmp_path / "data"))
    assert [e["a"] for e in contents.entries] == ["flip"]  # only the one legal action


def test_save_never_overwrites_a_file(tmp_path: Path) -> None:
    target = tmp_path / "mine.pgn"
    target.write_text("my own notes")
    out = _play(tmp_path, 1, ["flip", f"save {target}"])
    assert "exists already; nothing was written" in out
    assert target.read_text() == "my own notes"


def test_quit_then_resume_continues_the_same_game(tmp_path: Path) -> None:
    lines, game = scripted_game(0, limit=400)
    half = len(lines) // 2
    first = run_cli(["play", "--seed", "0", "--no-color"], [*lines[:half], "quit"],
                    tmp_path / "data")
    assert first.returncode == 0
    assert "raindrop resume" in first.stdout
    second = run_cli(["resume", "--no-color"], [*lines[half:], "quit"], tmp_path / "data")
    assert second.returncode == 0, second.stderr
    assert f"after {half} action(s)" in second.stdout
    assert "Illegal" not in second.stdout
    resumed = resume(latest_journal(tmp_path / "data"))
    assert resumed.game.rfen() == game.rfen()
    assert resumed.game.san_history() == game.san_history()
    resumed.journal.close()


def test_resume_refuses_an_unreadable_journal_and_leaves_it(tmp_path: Path) -> None:
    run_cli(["play", "--seed", "2", "--no-color"], ["flip", "quit"], tmp_path / "data")
    path = latest_journal(tmp_path / "data")
    damaged = b"\x00garbage" + path.read_bytes()[8:]
    path.write_bytes(damaged)
    result = run_cli(["resume"], ["quit"], tmp_path / "data")
    assert result.returncode == 2
    assert "cannot resume" in result.stderr and "header is bad" in result.stderr
    assert path.read_bytes() == damaged
    # A new game starts a new file.
    run_cli(["play", "--seed", "2"], ["quit"], tmp_path / "data")
    assert path.read_bytes() == damaged
    assert len(list(path.parent.glob("*.rdj"))) == 2


def test_resume_recovers_a_torn_tail_with_a_warning(tmp_path: Path) -> None:
    lines, _ = scripted_game(4, limit=20)
    run_cli(["play", "--seed", "4", "--no-color"], [*lines, "quit"], tmp_path / "data")
    path = latest_journal(tmp_path / "data")
    path.write_bytes(path.read_bytes()[:-5])
    result = run_cli(["resume", str(path), "--no-color"], ["quit"], tmp_path / "data")
    assert result.returncode == 0
    assert "Warning:" in result.stdout and "torn" in result.stdout
    assert f"after {len(lines) - 1} action(s)" in result.stdout


def test_replay_steps_through_a_game(tmp_path: Path) -> None:
    seed, lines, game = find_game(lambda g: g.outcome is not None, tries=5)
    _play(tmp_path, seed, lines)
    pgn = tmp_path / "game.pgn"
    result = run_cli(["replay", str(pgn), "--no-color"], ["", "", "b", "q"], tmp_path)
    assert result.returncode == 0, result.stderr
    total = len(game.actions())
    assert f"[0/{total}] the start" in result.stdout
    assert f"[2/{total}]" in result.stdout
    assert result.stdout.count(f"[1/{total}]") == 2  # forward, forward, back
    everything = run_cli(["replay", str(pgn), "--all", "--no-color"], [], tmp_path)
    assert everything.stdout.count(f"/{total}]") == total + 1
    assert game.rfen() in everything.stdout


@pytest.mark.parametrize("content", [b"", b"not a pgn at all", b"\xff\xfe\x00binary",
                                     b'[Event "x"]\n[Variant "Crazyhouse"]\n\n1. e4 *\n'])
def test_replay_refuses_files_that_are_not_games(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.pgn"
    path.write_bytes(content)
    result = run_cli(["replay", str(path)], [], tmp_path)
    assert result.returncode == 2
    assert "raindrop:" in result.stderr
    assert path.read_bytes() == content


def test_replay_of_a_missing_file(tmp_path: Path) -> None:
    result = run_cli(["replay", str(tmp_path / "nothing.pgn")], [], tmp_path)
    assert result.returncode == 2
    assert "no such file" in result.stderr


def test_bad_options_are_refused(tmp_path: Path) -> None:
    for args, message in ((["--clock", "ten"], "cannot read the time control"),
                          (["--blue-pieces", "XK"], "blue_pieces"),
                          (["--board", "nonsense"], "unknown board")):
        result = run_cli(["play", *args], ["quit"], tmp_path / "data")
        assert result.returncode == 2, args
        assert message in result.stderr


def test_bad_rfen_is_refused_by_check(tmp_path: Path) -> None:
    result = run_cli(["check", "8/8/8/8/8/8/8/8[] x - - 0 1"], [], tmp_path)
    assert result.returncode == 2
    assert "invalid RFEN turn" in result.stderr


def test_colour_output_marks_blue_pieces(tmp_path: Path) -> None:
    result = run_cli(["play", "--seed", "1"], ["flip", "N@e4", "quit"], tmp_path / "data")
    assert "\x1b[" in result.stdout
    assert "♘" in result.stdout


def test_a_simulated_board_plays_through_board_sync(tmp_path: Path) -> None:
    out = run_cli(["play", "--seed", "1", "--no-color", "--board", "sim"],
                  ["flip", "place e4 white N", "quit"], tmp_path / "data").stdout
    assert "Board: White played N@e4." in out
    contents = read_journal(latest_journal(tmp_path / "data"))
    assert [e["a"] for e in contents.entries] == ["flip", "move"]


def test_blue_pieces_are_drawn_distinctly() -> None:
    from companion.cli.render import render_board
    from companion.notation import board_from_rfen

    board = board_from_rfen("4k2q~/8/8/8/8/8/8/Q~3K3[] w RBNrbn - 0 1")
    plain = render_board(board, color=False)
    assert " ♕~" in plain and " ♛~" in plain and " ♔ " in plain
    coloured = render_board(board, color=True)
    assert "\x1b[1;38;5;45m ♕ " in coloured   # White's blue: light blue
    assert "\x1b[1;38;5;19m ♛ " in coloured   # Black's blue: dark blue
    assert "\x1b[1;38;5;231m ♔ " in coloured  # an ordinary white piece


def test_typed_moves_only_without_a_board(tmp_path: Path) -> None:
    out = _play(tmp_path, 1, ["remove e4", "flip", "lift e2"], "--board", "none")
    assert "Illegal: no joker is pending" in out
    # Without a physical board, the simulated board's verbs are not commands.
    assert "Not a move or command: 'lift e2'" in out
    contents = read_journal(latest_journal(tmp_path / "data"))
    assert [e["a"] for e in contents.entries] == ["flip"]


def test_unknown_board_is_named_before_a_game_starts(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "companion", "play", "--board", "abacus", "--data-dir",
         str(tmp_path / "data")], input="", capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "unknown board 'abacus'" in result.stderr and "none (typed moves only)" in result.stderr
    assert not (tmp_path / "data").exists()  # no journal was created
