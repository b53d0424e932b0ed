"""The firmware's scan loop rate on the MicroPython unix port, simulated matrix.

Peer (plain baseline, same run): a bare loop that only reads the simulated
matrix. The firmware loop adds debounce, the link poll, heartbeats and the
watchdog. Prints the median over several runs, the ratio, and the headroom
over the 200 full scans a second the board needs (on this machine; an RP2040
is much slower, see docs/PERFORMANCE.md).

    python benchmarks/bench_firmware_scan.py [--runs 5] [--scans 20000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
from pathlib import Path

from companion.sensors.firmware_sim import micropython_command, micropython_path

HERE = Path(__file__).resolve().parent


def measure(scans: int) -> dict[str, int]:
    env = dict(os.environ, MICROPYPATH=micropython_path())
    result = subprocess.run([micropython_command(), str(HERE / "mp_scan_loop.py"), str(scans)],
                            env=env, capture_output=True, text=True, check=True, timeout=300)
    rates = {}
    for line in result.stdout.splitlines():
        name, value = line.split()
        rates[name] = int(value)
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--scans", type=int, default=20000)
    args = parser.parse_args()
    runs = [measure(args.scans) for _ in range(args.runs)]
    median = {name: statistics.median(r[name] for r in runs) for name in runs[0]}
    base = median["bare_scan"]
    print(f"firmware scan loop, MicroPython unix port, {args.runs} runs x {args.scans} scans")
    print(f"  bare matrix scan (peer)  {base:>10.0f} scans/s (median)")
    for name in ("firmware_steady", "firmware_busy"):
        print(f"  {name:<24} {median[name]:>10.0f} scans/s (median)  "
              f"ratio to peer {median[name] / base:.2f}  headroom over 200/s "
              f"{median[name] / 200:.0f}x")


if __name__ == "__main__":
    main()
