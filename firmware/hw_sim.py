"""A simulated board for the MicroPython unix port: the switch matrix a test controls.

The test writes lines to a control file (a pipe); the simulated matrix reads
them between scans. Each ``M`` state is shown for at least ``HOLD`` scans, so a
test can replay a piece being lifted, slid or bounced scan by scan:

    M <16 hex mask> [HOLD]   switches that magnets close now (queued, default hold 1)
    STUCK <16 hex mask>      switches that are stuck closed
    DEAD <16 hex mask>       switches that never close
    SHORT <2 hex>            columns shorted to ground (read closed with every row idle)
    STALL <ms>               hang the scan loop (the simulated watchdog then resets)

The LEDs are written to a file (one line, the 64-character pattern) so a test
can see what the board shows.
"""

import select
import sys
import time

import protocol
from scanner import mask_to_rows


class WatchdogReset(Exception):
    """The simulated watchdog fired: the firmware restarts from boot."""


class SimHardware:
    """The hardware layer of ``device.Device`` with a simulated matrix."""

    def __init__(self, control_path=None, leds=True, led_file=None, wdt_ms=2000,
                 settings_path=None):
        self.has_leds = leds
        self.settings_path = settings_path  # the simulated flash (None: memory only)
        self.settings = ""
        self.led_file = led_file
        self.wdt_ms = wdt_ms
        self.magnets = 0
        self.stuck = 0
        self.dead = 0
        self.short_columns = 0
        self.pattern = protocol.LED_OFF * 64
        self._queue = []
        self._hold = 0
        self._stall_ms = 0
        self._last_feed = None
        self.feeds = 0
        self._control = None
        self._poll = None
        if control_path:
            self._control = open(control_path, "rb")
            self._poll = select.poll()
            self._poll.register(self._control, select.POLLIN)

    def _read_control(self):
        while self._control is not None:
            events = self._poll.poll(0)
            if not events:
                return
            line = self._control.readline()
            if not line:  # the test closed its end: keep the last state
                self._poll.unregister(self._control)
                self._control.close()
                self._control = None
                return
            self._command(line.decode().split())

    def _command(self, words):
        try:
            op = words[0]
            if op == "M":
                hold = int(words[2]) if len(words) > 2 else 1
                self._queue.append((protocol.parse_mask(words[1]), max(1, hold)))
            elif op == "STUCK":
                self.stuck = protocol.parse_mask(words[1])
            elif op == "DEAD":
                self.dead = protocol.parse_mask(words[1])
            elif op == "SHORT":
                self.short_columns = protocol.parse_hex(words[1], 2, "columns")
            elif op == "STALL":
                self._stall_ms = int(words[1])
            else:
                raise ValueError("unknown command")
        except (IndexError, ValueError) as error:
            sys.stderr.write("sim: bad control line %r: %s\n" % (" ".join(words), error))

    def scan(self, rows):
        """Fill eight row bytes with the closed switches of this scan."""
        self._read_control()
        if self._stall_ms:
            time.sleep_ms(self._stall_ms)
            self._stall_ms = 0
        if self._hold > 1:
            self._hold -= 1
        elif self._queue:
            self.magnets, self._hold = self._queue.pop(0)
        closed = (self.magnets | self.stuck) & ~self.dead
        mask_to_rows(closed, rows)

    def columns_idle(self):
        """Columns that read closed with every row idle (shorted to ground)."""
        self._read_control()
        return self.short_columns

    def show_leds(self, pattern):
        """Show a 64-character LED pattern; False when the board has no LEDs."""
        if not self.has_leds:
            return False
        self.pattern = pattern
        if self.led_file:
            with open(self.led_file, "w") as out:
                out.write(pattern + "\n")
        return True

    def load_settings(self):
        """The board's kept settings ("" when none were saved)."""
        if self.settings_path:
            try:
                with open(self.settings_path) as source:
                    self.settings = source.read()
            except OSError:
                self.settings = ""
        return self.settings

    def save_settings(self, text):
        """Keep the settings (in the settings file, if given: it outlives a replug)."""
        self.settings = text
        if self.settings_path:
            with open(self.settings_path, "w") as out:
                out.write(text)

    def feed(self):
        """Feed the simulated watchdog; raises WatchdogReset after a stall."""
        now = time.ticks_ms()
        if self._last_feed is not None and time.ticks_diff(now, self._last_feed) > self.wdt_ms:
            self._last_feed = None
            raise WatchdogReset()
        self._last_feed = now
        self.feeds += 1

    def reboot(self):
        """What a reset does to the hardware: LEDs off, watchdog disarmed."""
        self._last_feed = None
        self.show_leds(protocol.LED_OFF * 64)
