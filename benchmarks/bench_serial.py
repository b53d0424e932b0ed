"""Host frame-to-snapshot latency of the serial board reader.

Two measurements, each against a plain peer measured in the same run:

1. In process: bytes of a SNAP frame -> a BoardSnapshot, through the shared
   parser (CRC, grammar), the typed message and the sequence check. Peer: the
   naive way, ``line.split()`` and ``int(mask, 16)`` into a BoardSnapshot with
   no checks at all.
2. Over a pty, end to end: a frame written on the device side -> the reader's
   snapshot callback (settling off). Peer: pyserial reading the same line on
   the same kind of pty with ``readline()`` and nothing else.

Prints medians and ratios.  ``python benchmarks/bench_serial.py [--samples 300]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time
import tty

import chess
import serial

from companion.sensors import BoardSnapshot
from companion.sensors import protocol as P
from companion.sensors.serial_board import ReaderConfig, SerialBoardReader


def in_process(samples: int) -> tuple[float, float]:
    reader = SerialBoardReader("bench", ReaderConfig(settle_s=0.0))
    got: list[BoardSnapshot] = []
    reader._on_snapshot = got.append  # drive the reader's own handlers without a thread
    reader._protocol.data_received(P.encode_hello(0, "1.0.0", "BENCH", ["leds"], 400, 5))
    frames = [P.encode_snap(P.next_seq(i % 255), (i * 0x9E3779B97F4A7C15) & (2**64 - 1))
              for i in range(samples)]
    timings = []
    for frame in frames:
        start = time.perf_counter_ns()
        reader._protocol.data_received(frame)
        reader._settle(time.monotonic() + 1.0)
        timings.append(time.perf_counter_ns() - start)
    naive = []
    out: list[BoardSnapshot] = []
    for frame in frames:
        start = time.perf_counter_ns()
        words = frame.split()
        out.append(BoardSnapshot(chess.SquareSet(int(words[2][:16], 16)), None, 0.0, "naive"))
        naive.append(time.perf_counter_ns() - start)
    assert len(got) >= samples - 2
    return statistics.median(timings) / 1000, statistics.median(naive) / 1000


def pty_pair() -> tuple[int, str]:
    master, slave = os.openpty()
    tty.setraw(slave)
    name = os.ttyname(slave)
    os.close(slave)
    return master, name


def over_pty(samples: int) -> tuple[float, float]:
    master, port = pty_pair()
    arrived = threading.Event()
    sent_at = [0]
    latencies: list[float] = []

    def on_snapshot(snapshot: BoardSnapshot) -> None:
        latencies.append((time.perf_counter_ns() - sent_at[0]) / 1000)
        arrived.set()

    def device() -> None:  # answer HI and GET like the firmware
        parser = P.FrameParser(lambda kind, seq, fields: replies.append(kind))
        while not stop.is_set():
            try:
                data = os.read(master, 4096)
            except OSError:  # the reader has not opened its end yet
                time.sleep(0.005)
                continue
            parser.feed(data)

    replies: list[str] = []
    stop = threading.Event()
    threading.Thread(target=device, daemon=True).start()
    reader = SerialBoardReader(port, ReaderConfig(settle_s=0.0, poll_s=0.005))
    reader.start(on_snapshot, lambda status: None)
    while "HI" not in replies:
        time.sleep(0.01)
    os.write(master, P.encode_hello(0, "1.0.0", "BENCH", ["leds"], 400, 5))
    seq = 0
    for i in range(samples + 1):
        seq = P.next_seq(seq)
        arrived.clear()
        sent_at[0] = time.perf_counter_ns()
        os.write(master, P.encode_snap(seq, i + 1))
        arrived.wait(2)
        time.sleep(0.002)
    stop.set()
    reader.stop()
    os.close(master)
    reader_median = statistics.median(latencies[1:])

    master, port = pty_pair()
    plain = serial.Serial(port, timeout=1)
    raw = []
    for i in range(samples):
        frame = P.encode_snap(i & 0xFF, i)
        start = time.perf_counter_ns()
        os.write(master, frame)
        plain.readline()
        raw.append((time.perf_counter_ns() - start) / 1000)
    plain.close()
    os.close(master)
    return reader_median, statistics.median(raw)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()
    ours, naive = in_process(args.samples * 10)
    print(f"frame -> snapshot in process ({args.samples * 10} frames)")
    print(f"  reader (CRC, grammar, sequence)  {ours:8.1f} us median")
    print(f"  naive split, no checks (peer)    {naive:8.1f} us median   ratio {ours / naive:.1f}")
    ours, raw = over_pty(args.samples)
    print(f"frame -> snapshot over a pty ({args.samples} frames, settling off)")
    print(f"  reader thread to callback        {ours:8.1f} us median")
    print(f"  pyserial readline (peer)         {raw:8.1f} us median   ratio {ours / raw:.1f}")


if __name__ == "__main__":
    main()
