"""The board's rotation setting and maintenance command, end to end: the host reader and
``raindrop board rotation|maintenance`` against the real firmware on a simulated board."""

from __future__ import annotations

import chess
import pytest
from board_test_helpers import Recorder, eventually

from companion.cli import main
from companion.sensors import LedHint

FAST = {"settle_s": 0.05, "handshake_s": 0.5, "silence_s": 2.0, "reconnect_s": 0.05}


def test_a_turned_board_reports_and_lights_the_game_way(sim_board, reader_for,
                                                        recorder: Recorder) -> None:
    board = sim_board()
    board.set_magnets(chess.BB_A1 | chess.BB_E2)  # as wired: the wiring's a1 and e2
    reader = reader_for(board.port, recorder, **FAST)
    hello = reader.wait_connected(10)
    assert hello is not None and hello.rotation == 0 and hello.boot
    # A HELLO sent at power-up is taken too; the answer to the reader's HI echoes its sid.
    assert eventually(lambda: reader.hello is not None and bool(reader.hello.session))
    assert recorder.wait_snapshot(chess.BB_A1 | chess.BB_E2)
    hello = reader.set_rotation(180)
    assert hello.rotation == 180
    # Turned round, the wiring's a1 is the game's h8 and e2 is d7.
    assert recorder.wait_snapshot(chess.BB_H8 | chess.BB_D7)
    reader.show(LedHint(targets=chess.SquareSet(chess.BB_A1), fix=chess.SquareSet(chess.BB_E4)))
    # The game's a1 is the wiring's h8 (last in the pattern), e4 the wiring's d5.
    expected = ["."] * 64
    expected[chess.H8], expected[chess.D5] = "G", "R"
    assert board.wait_leds("".join(expected))
    # The setting outlives a power cut (the board's flash), and the host is told again.
    board.replug()
    assert eventually(lambda: reader.hello is not None and reader.stats().connects >= 2)
    assert reader.hello is not None and reader.hello.rotation == 180
    board.set_magnets(chess.BB_H1)
    assert recorder.wait_snapshot(chess.BB_A8)
    assert reader.set_rotation(0).rotation == 0
    assert recorder.wait_snapshot(chess.BB_H1)


def test_rotation_and_maintenance_from_the_command_line(
        sim_board, capsys: pytest.CaptureFixture[str]) -> None:
    board = sim_board()
    assert main(["board", "rotation", "--port", board.port]) == 0
    assert "rotation 0 (White sits at the wiring's rank 1)" in capsys.readouterr().out
    assert main(["board", "rotation", "--port", board.port, "180"]) == 0
    assert "rotation 180" in capsys.readouterr().out
    assert main(["board", "rotation", "--port", board.port]) == 0
    assert "rotation 180 (White sits at the wiring's rank 8 (turned round))" in \
        capsys.readouterr().out
    assert board.settings_file.read_text() == "rot=180\n"
    assert main(["board", "maintenance", "--port", board.port]) == 0
    assert "restarts in maintenance mode" in capsys.readouterr().out
    assert eventually(lambda: not board.running)  # the firmware stopped


def test_bad_rotation_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["board", "rotation", "90"])
    assert "invalid choice: 90" in capsys.readouterr().err


def test_ctrl_c_on_the_port_does_not_stop_the_firmware(sim_board, reader_for,
                                                        recorder: Recorder) -> None:
    """Ctrl-C bytes are line noise to the firmware. (On the Pico, main.py also turns the
    REPL's interrupt character off before the loop: mp_checks.py main_entry checks that.)"""
    board = sim_board()
    board.set_magnets(chess.BB_C3)
    reader = reader_for(board.port, recorder, **FAST)
    assert recorder.wait_snapshot(chess.BB_C3)
    # What a serial terminal sends for Ctrl-C (and Ctrl-D), on the port the reader holds.
    reader._write(b"\x03\x03\r\n\x04\x03")
    board.set_magnets(chess.BB_C4)
    assert recorder.wait_snapshot(chess.BB_C4)
    assert board.running and reader.stats().reboots == 0 and reader.stats().connects == 1
