"""Run under the MicroPython unix port by bench_firmware_scan.py: scan-loop rates.

Prints one line per measurement: ``NAME SCANS_PER_SECOND``.
"""

import sys
import time

import device
import hw_sim


class NullLink:
    """A link that never has input and swallows frames."""

    def read(self):
        return b""

    def write(self, frame):
        pass


def rate(loop, scans):
    start = time.ticks_us()
    loop(scans)
    elapsed = time.ticks_diff(time.ticks_us(), start)
    return scans * 1000000 // max(1, elapsed)


def main(scans):
    hw = hw_sim.SimHardware()
    rows = bytearray(8)

    def bare_scan(n):  # the plain baseline: read the matrix, nothing else
        for _ in range(n):
            hw.scan(rows)

    dev = device.Device(hw, NullLink(), "BENCH")

    def firmware_steady(n):  # the firmware loop on a still board
        for _ in range(n):
            dev.step()

    def firmware_busy(n):  # every scan differs: debounce does its full work
        for i in range(n):
            hw.magnets = (i * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
            dev.step()

    for name, loop in (("bare_scan", bare_scan), ("firmware_steady", firmware_steady),
                       ("firmware_busy", firmware_busy)):
        print(name, rate(loop, scans))


main(int(sys.argv[1]) if len(sys.argv) > 1 else 20000)
