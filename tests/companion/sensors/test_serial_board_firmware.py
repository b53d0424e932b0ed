"""The host reader against the real firmware (MicroPython unix port, simulated matrix, pty).

Faults injected here: hands and sliding pieces, a bouncing switch, stuck, dead
and shorted switches, a hung firmware loop (watchdog), unplug and replug, and
a noisy cable corrupting, dropping and inventing bytes in both directions.
"""

from __future__ import annotations

import threading

import chess
from board_test_helpers import NoisyCable, Recorder, eventually

from companion.sensors import LedHint
from companion.sensors.board_frames import SelfTestReport, led_pattern

E2, E4, D7, D5 = (chess.BB_SQUARES[s] for s in (chess.E2, chess.E4, chess.D7, chess.D5))
SETTLE = {"settle_s": 0.4}


def test_hands_and_slides_never_reach_the_game(sim_board, reader_for,
                                               recorder: Recorder) -> None:
    board = sim_board()
    reader_for(board.port, recorder, **SETTLE)
    assert recorder.wait_snapshot(0)
    board.set_magnets(E2 | D7)
    assert recorder.wait_snapshot(E2 | D7)
    # e2-e4: lifted (held long enough for the firmware to report it), slid over e3, put down.
    board.play([(D7, 12), (D7 | chess.BB_E3, 12), (D7 | E4, 1)])
    assert recorder.wait_snapshot(D7 | E4)
    # d7-d5 with a bouncing reed on d5 as the magnet arrives.
    board.play([(E4, 10), (E4 | D5, 1), (E4, 1), (E4 | D5, 2), (E4, 1), (E4 | D5, 1)])
    assert recorder.wait_snapshot(E4 | D5)
    assert recorder.masks() == [0, E2 | D7, D7 | E4, E4 | D5]


def test_led_hints_reach_the_board(sim_board, reader_for, recorder: Recorder) -> None:
    board = sim_board()
    reader = reader_for(board.port, recorder, **SETTLE)
    assert reader.wait_connected(15)
    hint = LedHint(targets=chess.SquareSet(chess.BB_RANK_3), fix=chess.SquareSet([chess.E4]),
                   last_move=chess.SquareSet([chess.E2, chess.E4]))
    reader.show(hint)
    assert board.wait_leds(led_pattern(hint), timeout=15)
    assert eventually(reader.leds_acknowledged)
    reader.show(LedHint())
    assert board.wait_leds("." * 64, timeout=15)


def test_selftest_names_stuck_dead_and_shorted(sim_board, reader_for, recorder: Recorder) -> None:
    board = sim_board()
    reader = reader_for(board.port, recorder, **SETTLE)
    assert reader.wait_connected(15)
    board.send("STUCK " + f"{1 << chess.C1:016X}")
    board.send("DEAD " + f"{1 << chess.G1:016X}")
    board.send("SHORT 80")
    assert eventually(lambda: reader.stats().device_updates > 0)
    report = reader.run_selftest(ranks=0x01, sweep_ms=0)
    assert list(report.stuck) == [chess.C1]
    assert not report.dead and report.checked == chess.SquareSet(chess.BB_RANK_1)
    assert report.columns_low == 0x80
    assert "stuck closed: c1" in report.describe() and "h" in report.describe()
    # A sweep: a magnet passes over a1..h1; g1 never closes.
    result: list[SelfTestReport] = []
    worker = threading.Thread(target=lambda: result.append(
        reader.run_selftest(ranks=0x01, sweep_ms=3000)))
    worker.start()
    assert eventually(lambda: "Y" in board.leds())  # the board lights the squares to sweep
    board.play([(1 << square, 3) for square in chess.SQUARES[:8]] + [(0, 1)])
    worker.join(timeout=30)
    assert result and list(result[0].dead) == [chess.G1]
    assert "never closed (dead): g1" in result[0].describe()


def test_unplug_and_replug_mid_game_resyncs(sim_board, reader_for, recorder: Recorder) -> None:
    board = sim_board()
    reader = reader_for(board.port, recorder, **SETTLE)
    board.set_magnets(E2 | D7)
    assert recorder.wait_snapshot(E2 | D7)
    hint = LedHint(last_move=chess.SquareSet([chess.E2]))
    reader.show(hint)
    assert board.wait_leds(led_pattern(hint), timeout=15)
    statuses = len(recorder.statuses)
    board.unplug()
    assert recorder.wait_status(False, after=statuses)
    assert "disconnected" in recorder.statuses[-1].message
    assert board.leds() == "." * 64
    board.magnets = E4 | D7  # a move made while the cable was out
    board.start()
    assert recorder.wait_snapshot(E4 | D7)
    assert board.wait_leds(led_pattern(hint), timeout=15)  # the LEDs come back too
    assert reader.stats().connects == 2
    assert recorder.masks() == [E2 | D7, E4 | D7]


def test_watchdog_reset_is_noticed_and_resynced(sim_board, reader_for,
                                                recorder: Recorder) -> None:
    board = sim_board(watchdog_ms=500)
    reader = reader_for(board.port, recorder, **SETTLE)
    board.set_magnets(E2)
    assert recorder.wait_snapshot(E2)
    hint = LedHint(targets=chess.SquareSet([chess.E4]))
    reader.show(hint)
    assert board.wait_leds(led_pattern(hint), timeout=15)
    board.send("STALL 900")
    assert eventually(lambda: reader.stats().reboots == 1)
    assert board.wait_leds(led_pattern(hint), timeout=15)
    board.set_magnets(E4)
    assert recorder.wait_snapshot(E4)


def test_noisy_cable_never_yields_a_corrupt_snapshot(sim_board, reader_for,
                                                     recorder: Recorder) -> None:
    board = sim_board(beat_ms=200)
    cable = NoisyCable(board.port, rate=0.01, seed=5)
    try:
        reader = reader_for(cable.port, recorder, settle_s=0.3, silence_s=5.0)
        placed = [0]
        mask = 0
        for square in (chess.E2, chess.E7, chess.G1, chess.B8, chess.D2, chess.F7, chess.A1,
                       chess.H8, chess.C4, chess.F5):
            mask |= chess.BB_SQUARES[square]
            placed.append(mask)
            board.set_magnets(mask)
            assert recorder.wait_snapshot(mask, timeout=30), (recorder.masks(), reader.stats())
        hint = LedHint(targets=chess.SquareSet(chess.BB_RANK_4))
        reader.show(hint)
        assert board.wait_leds(led_pattern(hint), timeout=30)
        stats = reader.stats()
        assert cable.damaged > 0
        assert stats.bad_crc + stats.malformed + stats.rejected + stats.lost > 0
        assert set(recorder.masks()) <= set(placed)
        assert recorder.masks()[-1] == mask
    finally:
        cable.close()
