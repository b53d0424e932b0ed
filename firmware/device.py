"""The board's firmware logic: scan, debounce, report, obey the host.

Hardware-independent: ``hw`` is the thin layer (``hw_rp2040`` on the Pico,
``hw_sim`` under the MicroPython unix port) and ``link`` carries the bytes (USB
serial on the Pico, a pty in tests). The protocol is ``protocol.py``, the same
file the host imports. See docs/protocol.md.
"""

import os
import time

import protocol
from scanner import Debouncer, rows_to_mask, turn_byte, turn_mask, turn_pattern

FIRMWARE_VERSION = "1.1.0"
DEFAULT_SCAN_HZ = 400
DEFAULT_DEBOUNCE = 5
DEFAULT_BEAT_MS = 1000
SELFTEST_SETTLE_SCANS = 3
RETIRED_SESSIONS = 4  # earlier host sessions remembered, so a replayed HI cannot revive one


def new_boot_id():
    """8 hex digits naming this power-up (the host sees a new one as a restart)."""
    try:
        raw = os.urandom(4)
    except (AttributeError, OSError):  # a port without a random source
        ticks = time.ticks_us()
        raw = bytes([(ticks >> shift) & 0xFF for shift in (24, 16, 8, 0)])
    value = 0
    for byte in raw:
        value = (value << 8) | byte
    return protocol.hex_fixed(value, 8)


def parse_settings(text):
    """The rotation kept in the board's settings file ("rot=180"); 0 when unset or unreadable."""
    for line in text.split("\n"):
        if line.strip() == "rot=180":
            return 180
    return 0


class SelfTest:
    """One self-test run: stuck switches at the start, dead ones during a sweep."""

    def __init__(self, host_seq, checked, stuck, columns_low, sweep_ms, now_ms):
        self.host_seq = host_seq
        self.checked = checked
        self.stuck = stuck
        self.columns_low = columns_low
        self.seen = stuck  # a stuck switch is closed, so not dead
        self.deadline = time.ticks_add(now_ms, sweep_ms)
        self.sweeping = sweep_ms > 0

    def dead(self):
        return self.checked & ~self.seen

    def pattern(self):
        """LEDs during a sweep: squares still to sweep yellow, stuck ones red."""
        chars = []
        for square in range(64):
            bit = 1 << square
            if self.stuck & bit:
                chars.append("R")
            elif self.checked & bit and not self.seen & bit:
                chars.append("Y")
            else:
                chars.append(".")
        return "".join(chars)


class Device:
    """The firmware's main object; ``step`` does one scan and services the link."""

    def __init__(self, hw, link, board_id, scan_hz=DEFAULT_SCAN_HZ,
                 debounce=DEFAULT_DEBOUNCE, beat_ms=DEFAULT_BEAT_MS):
        self.hw = hw
        self.link = link
        self.board_id = board_id
        self.scan_hz = scan_hz
        self.beat_ms = beat_ms
        self.debouncer = Debouncer(debounce)
        self.parser = protocol.FrameParser(self._on_frame)
        self.seq = 0
        self.boot_id = new_boot_id()
        self.host_session = None  # the sid of the host's HI; None: no host yet
        self.host_seq = None  # the last sequence number accepted from the host
        self._retired = []
        self.maintenance = False  # set by a MAINT naming this board: run() returns
        self.faults = 0  # commands the firmware failed on (a bug; answered ERR fault)
        self.rotation = 0
        try:
            self.rotation = parse_settings(hw.load_settings())
        except Exception:  # a damaged settings file: the default orientation
            self.rotation = 0
        self.raw = bytearray(8)
        self.mask = 0
        self.leds = protocol.LED_OFF * 64
        self.selftest = None
        self.scans = 0
        self._beat_scans = 0
        self._boot_ms = time.ticks_ms()
        self._next_beat = time.ticks_add(self._boot_ms, beat_ms)

    # --- output -------------------------------------------------------------

    def _send(self, frame_bytes):
        self.link.write(frame_bytes)
        self.seq = protocol.next_seq(self.seq)

    def send_hello(self):
        caps = ["selftest", "wdt", "seq", "maint", "rot"]
        if self.hw.has_leds:
            caps.append("leds")
        self._send(protocol.encode_hello(self.seq, FIRMWARE_VERSION, self.board_id, caps,
                                         self.scan_hz, self.debouncer.scans, self.boot_id,
                                         self.host_session or "", self.rotation))

    def game_mask(self, mask):
        """A mask in the wiring's squares as the game's squares (the board may sit turned)."""
        return turn_mask(mask) if self.rotation == 180 else mask

    def send_snap(self):
        self._send(protocol.encode_snap(self.seq, self.game_mask(self.mask)))

    def _show_host_leds(self):
        pattern = turn_pattern(self.leds) if self.rotation == 180 else self.leds
        return self.hw.show_leds(pattern)

    def _send_err(self, code, host_seq, detail):
        self._send(protocol.encode_err(self.seq, code, host_seq, detail))

    # --- input --------------------------------------------------------------

    def _on_frame(self, kind, seq, fields):
        """Carry out one verified frame; nothing a host sends may escape from here."""
        try:
            if kind == protocol.HI:
                self._on_hi(seq, fields)
            elif self._fresh(seq):
                self._command(kind, seq, fields)
        except protocol.FrameError as error:
            self._send_err(protocol.ERR_ARG, seq, str(error))
        except Exception as error:  # a firmware bug: answer and go on (the loop must not stop)
            self.faults += 1
            try:
                self._send_err(protocol.ERR_FAULT, seq, "%s %s" % (type(error).__name__, error))
            except Exception:
                pass

    def _fresh(self, seq):
        """Accept a command only when its sequence number follows the last one (no replays)."""
        last = self.host_seq
        if last is not None and not protocol.seq_fresh(last, seq):
            self._send_err(protocol.ERR_STALE, seq, "seq %s is not after %s"
                           % (protocol.hex_fixed(seq, 2), protocol.hex_fixed(last, 2)))
            return False
        self.host_seq = seq
        return True

    def _on_hi(self, seq, fields):
        """HI starts (or repeats) a host session; the sid keeps the window across reconnects."""
        _, session = protocol.decode_hi(fields)
        if session and session == self.host_session:
            if not self._fresh(seq):
                return  # a replayed HI of the current session
        elif session and session in self._retired:
            self._send_err(protocol.ERR_STALE, seq, "session %s is over" % session)
            return
        else:
            if self.host_session:
                self._retired.append(self.host_session)
                if len(self._retired) > RETIRED_SESSIONS:
                    self._retired.pop(0)
            self.host_session = session or None
            self.host_seq = seq
        self.send_hello()
        self.send_snap()

    def _command(self, kind, seq, fields):
        if kind == protocol.GET:
            self.send_snap()
        elif kind == protocol.LED:
            self.leds = protocol.decode_led(fields)
            sweeping = self.selftest is not None and self.selftest.sweeping
            if not sweeping and not self._show_host_leds():
                self._send_err(protocol.ERR_HW, seq, "no LEDs fitted")
                return
            self._send(protocol.encode_ok(self.seq, seq))
        elif kind == protocol.CFG:
            scan_hz, debounce, beat_ms, rotation = protocol.decode_cfg(fields)
            if scan_hz:
                self.scan_hz = scan_hz
            if debounce:
                self.debouncer.set_scans(debounce)
            if beat_ms:
                self.beat_ms = beat_ms
            self._send(protocol.encode_ok(self.seq, seq))
            if rotation >= 0 and rotation != self.rotation:
                self._set_rotation(rotation)
        elif kind == protocol.RUNTEST:
            ranks, sweep_ms = protocol.decode_runtest(fields)
            if self.selftest is not None:
                self._send_err(protocol.ERR_BUSY, seq, "a self-test is running")
                return
            self._send(protocol.encode_ok(self.seq, seq))
            if self.rotation == 180:
                ranks = turn_byte(ranks)
            self._start_selftest(seq, ranks, sweep_ms)
        elif kind == protocol.MAINT:
            board = protocol.decode_maint(fields)
            if board != self.board_id:
                self._send_err(protocol.ERR_ARG, seq, "this board is %s, not %s"
                               % (self.board_id, board))
                return
            self._send(protocol.encode_ok(self.seq, seq))
            self.maintenance = True
        else:
            self._send_err(protocol.ERR_UNKNOWN, seq, kind)

    def _set_rotation(self, rotation):
        """Turn the board round: kept in the settings file, the host told by a SNAP."""
        self.rotation = rotation
        self.hw.save_settings("rot=%d\n" % rotation)
        sweeping = self.selftest is not None and self.selftest.sweeping
        if not sweeping:
            self._show_host_leds()
        self.send_snap()

    def poll_link(self):
        data = self.link.read()
        if data:
            bad = self.parser.bad_frames
            try:
                self.parser.feed(data)
            except Exception:  # the parser is pure and tested; still, never stop the loop
                self.faults += 1
                self.parser.reset()
            if self.parser.bad_frames != bad:
                self._send_err(protocol.ERR_CRC, -1, "frame dropped")

    # --- self-test ----------------------------------------------------------

    def _start_selftest(self, host_seq, ranks, sweep_ms):
        checked = protocol.ranks_mask(ranks)
        columns_low = self.hw.columns_idle()
        # Stuck: closed in every one of a few fresh scans with the ranks cleared.
        closed = checked
        for _ in range(SELFTEST_SETTLE_SCANS):
            self.hw.scan(self.raw)
            closed &= rows_to_mask(self.raw)
        test = SelfTest(host_seq, checked, closed, columns_low, sweep_ms, time.ticks_ms())
        self.selftest = test
        if test.sweeping:
            self.hw.show_leds(test.pattern())
        else:
            self._finish_selftest()

    def _selftest_scan(self, now_ms):
        test = self.selftest
        newly = rows_to_mask(self.raw) & test.checked & ~test.seen
        if newly:
            test.seen |= newly
            self.hw.show_leds(test.pattern())
        if not test.dead() or time.ticks_diff(now_ms, test.deadline) >= 0:
            self._finish_selftest()

    def _finish_selftest(self):
        test = self.selftest
        self.selftest = None
        dead = test.dead() if test.sweeping else 0
        columns = test.columns_low
        if self.rotation == 180:
            columns = turn_byte(columns)
        self._send(protocol.encode_test(self.seq, self.game_mask(test.stuck),
                                        self.game_mask(dead), self.game_mask(test.checked),
                                        columns))
        self._show_host_leds()

    # --- the loop -----------------------------------------------------------

    def step(self):
        """One pass: read the link, scan once, report changes, heartbeat, feed the watchdog."""
        self.poll_link()
        self.hw.scan(self.raw)
        self.scans += 1
        if self.debouncer.update(self.raw):
            self.mask = self.debouncer.mask()
            self.send_snap()
        now = time.ticks_ms()
        if self.selftest is not None and self.selftest.sweeping:
            self._selftest_scan(now)
        if time.ticks_diff(now, self._next_beat) >= 0:
            elapsed = self.beat_ms + time.ticks_diff(now, self._next_beat)
            rate = (self.scans - self._beat_scans) * 1000 // max(1, elapsed)
            self._beat_scans = self.scans
            self._next_beat = time.ticks_add(now, self.beat_ms)
            uptime = time.ticks_diff(now, self._boot_ms) // 1000
            self._send(protocol.encode_beat(self.seq, uptime, self.mask, rate))
        self.hw.feed()

    def run(self, max_steps=-1):
        """Scan at ``scan_hz`` until a MAINT names this board (or ``max_steps`` times)."""
        self.send_hello()
        self.send_snap()
        next_scan = time.ticks_us()
        steps = 0
        while steps != max_steps and not self.maintenance:
            self.step()
            steps += 1
            period = 1000000 // self.scan_hz
            next_scan = time.ticks_add(next_scan, period)
            wait = time.ticks_diff(next_scan, time.ticks_us())
            if wait > 0:
                time.sleep_us(wait)
            elif wait < -period:
                next_scan = time.ticks_us()  # fell behind: do not burst to catch up
