"""``raindrop board monitor|selftest|leds`` and ``raindrop play --board serial:PORT``
against the real firmware on a simulated board."""

from __future__ import annotations

import subprocess
import sys
import threading

import chess
import pytest
from board_test_helpers import eventually

from companion.cli import main


def test_monitor_shows_the_sensed_board(sim_board, capsys: pytest.CaptureFixture[str]) -> None:
    board = sim_board()
    board.set_magnets(chess.BB_E2 | chess.BB_D7)
    assert main(["board", "monitor", "--port", board.port, "--count", "1"]) == 0
    out = capsys.readouterr().out
    assert "2 occupied" in out
    assert "7 . . . o . . . . 7" in out and "2 . . . . o . . . 2" in out
    assert "[connected] board SIM0001" in out


def test_monitor_simulate_plays_a_demo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board", "monitor", "--simulate", "--count", "3", "--settle", "100"]) == 0
    out = capsys.readouterr().out
    assert "simulated board on" in out and "(demo: " in out
    assert "snapshot 3: " in out


def test_selftest_reports_faults_and_exit_code(sim_board,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    board = sim_board()
    assert main(["board", "selftest", "--port", board.port, "--ranks", "1-2"]) == 0
    assert "checked 16 squares" in capsys.readouterr().out
    board.send(f"STUCK {chess.BB_C1:016X}")
    assert main(["board", "selftest", "--port", board.port, "--ranks", "1"]) == 1
    assert "stuck closed: c1" in capsys.readouterr().out


def test_leds_lights_squares(sim_board, capsys: pytest.CaptureFixture[str]) -> None:
    board = sim_board()
    assert main(["board", "leds", "--port", board.port, "--targets", "e3,e4",
                 "--fix", "d5"]) == 0
    assert "3 square(s) lit" in capsys.readouterr().out
    pattern = board.leds()
    assert pattern[chess.E3] == pattern[chess.E4] == "G" and pattern[chess.D5] == "R"
    assert main(["board", "leds", "--port", board.port]) == 0
    assert board.leds() == "." * 64


@pytest.mark.parametrize(("argv", "message"), [
    (["board", "leds", "--targets", "z9"], "--targets: 'z9' is not a square"),
    (["board", "leds", "--pattern", "." * 64, "--fix", "a1"], "either --pattern or squares"),
    (["board", "selftest", "--ranks", "0-3"], "--ranks: '0-3' is outside 1-8"),
    (["board", "selftest", "--ranks", "x"], "--ranks: 'x' is not a rank"),
    (["board", "monitor", "--simulate", "--port", "/dev/ttyACM0"], "leave out --port"),
])
def test_user_errors_are_named(argv: list[str], message: str, sim_board,
                               capsys: pytest.CaptureFixture[str]) -> None:
    board = sim_board()
    if "--port" not in argv:
        argv = [*argv, "--port", board.port]
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_missing_board_is_reported(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    port = str(tmp_path / "ttyACM9")
    assert main(["board", "leds", "--port", port, "--timeout", "1"]) == 2
    err = capsys.readouterr().err
    assert "did not answer within 1 s" in err and "ttyACM9" in err


def test_board_without_leds_says_so(sim_board, capsys: pytest.CaptureFixture[str]) -> None:
    board = sim_board(leds=False)
    assert main(["board", "leds", "--port", board.port, "--targets", "a1"]) == 2
    assert "has no LEDs fitted" in capsys.readouterr().err


def test_play_with_the_serial_board(sim_board, tmp_path) -> None:
    """``raindrop play --board serial:PORT``: a flip on the screen, a placement on the board."""
    board = sim_board()
    play = subprocess.Popen(
        [sys.executable, "-m", "companion", "play", "--board", f"serial:{board.port}",
         "--seed", "3", "--no-color", "--data-dir", str(tmp_path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(play.stdout), daemon=True).start()
    try:
        assert eventually(lambda: any("board SIM0001" in line for line in lines))
        play.stdin.write("flip\n")
        play.stdin.flush()
        # The flipped card's legal squares light up green on the board.
        assert eventually(lambda: board.leds().count("G") >= 16)
        board.set_magnets(chess.BB_E4)  # any first card of White's may stand on e4
        assert eventually(lambda: any("White played" in line and "@e4" in line
                                      for line in lines))
        assert eventually(lambda: board.leds()[chess.E4] == "B")  # the last move, in blue
        play.stdin.write("quit\n")
        play.stdin.flush()
        assert play.wait(timeout=30) == 0
    finally:
        if play.poll() is None:
            play.kill()
            play.wait()
