"""Firmware checks that run under the MicroPython unix port (driven by test_firmware_unix.py).

    micropython mp_checks.py CHECK_NAME

prints ``PASS CHECK_NAME`` or raises. MICROPYPATH must hold firmware/ and the
shared protocol.py (companion/sensors).
"""

# '%' formatting: it works in every MicroPython build, like the firmware's.
# ruff: noqa: UP031

import random
import sys
import time

import protocol


class FakeLink:
    """The host side of the link: bytes queued for the device, frames it sent."""

    def __init__(self):
        self.inbox = b""
        self.frames = []
        self.parser = protocol.FrameParser(lambda k, s, f: self.frames.append((k, s, f)))

    def read(self):
        data = self.inbox[:64]
        self.inbox = self.inbox[64:]
        return data

    def write(self, frame):
        self.parser.feed(frame)

    def kinds(self):
        return [f[0] for f in self.frames]

    def take(self):
        frames = self.frames
        self.frames = []
        return frames


def rows(mask):
    out = bytearray(8)
    for r in range(8):
        out[r] = (mask >> (8 * r)) & 0xFF
    return out


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def new_device(**kwargs):
    import device
    import hw_sim

    hw = hw_sim.SimHardware(None, kwargs.pop("leds", True), None, kwargs.pop("wdt", 2000))
    link = FakeLink()
    dev = device.Device(hw, link, "TEST", **kwargs)
    return dev, hw, link


def steps(dev, count):
    for _ in range(count):
        dev.step()


# --- debounce ----------------------------------------------------------------

def debounce_bounce():
    from scanner import Debouncer

    deb = Debouncer(4)
    for i in range(40):  # a1 chatters every scan: never settles
        check(not deb.update(rows(0 if i % 2 else 1)), "bounce settled at scan %d" % i)
    check(deb.mask() == 0, "bouncing switch reported")
    results = [deb.update(rows(1)) for _ in range(6)]
    check(results == [False, False, False, True, False, False], "settle timing %r" % (results,))
    check(deb.mask() == 1, "a1 not settled")


def debounce_per_switch():
    from scanner import Debouncer

    deb = Debouncer(3)
    changes = []
    for i in range(12):  # b1 placed for good at scan 0 while a1 bounces throughout
        raw = 0b10 | (i % 2)
        if deb.update(rows(raw)):
            changes.append((i, deb.mask()))
    check(changes == [(2, 0b10)], "per-switch settle %r" % (changes,))


def debounce_reconfigure():
    from scanner import Debouncer

    deb = Debouncer(2)
    deb.update(rows(0xFF00))
    deb.update(rows(0xFF00))
    check(deb.mask() == 0xFF00, "not settled")
    deb.set_scans(5)
    check(deb.mask() == 0xFF00, "reconfigure lost the settled state")
    for _ in range(4):
        check(not deb.update(rows(0)), "settled too early after reconfigure")
    check(deb.update(rows(0)) and deb.mask() == 0, "not settled after 5 scans")
    try:
        deb.set_scans(0)
    except ValueError:
        pass
    else:
        raise AssertionError("debounce of 0 scans accepted")


def debounce_model():
    """Random chatter on random switches: the debouncer agrees with a per-switch counter."""
    from scanner import Debouncer

    random.seed(77)
    for scans in (1, 2, 3, 5, 8):
        deb = Debouncer(scans)
        stable = [0] * 64
        run = [0] * 64  # consecutive scans each switch has read its current value
        last = [0] * 64
        raw_mask = 0
        for _ in range(600):
            for _ in range(random.getrandbits(2)):  # flip 0..3 random switches
                raw_mask ^= 1 << random.getrandbits(6)
            changed = deb.update(rows(raw_mask))
            expect_changed = False
            for sq in range(64):
                value = (raw_mask >> sq) & 1
                run[sq] = run[sq] + 1 if value == last[sq] else 1
                last[sq] = value
                if run[sq] >= scans and stable[sq] != value:
                    stable[sq] = value
                    expect_changed = True
            expected = 0
            for sq in range(64):
                expected |= stable[sq] << sq
            check(deb.mask() == expected, "debounce %d disagrees with the model" % scans)
            check(changed == expect_changed, "change flag with debounce %d" % scans)


# --- the device ------------------------------------------------------------------

def device_snapshot_on_settled_change():
    dev, hw, link = new_device(debounce=5)
    steps(dev, 10)
    link.take()
    hw.magnets = 1 << 12  # e2
    steps(dev, 4)
    check("SNAP" not in link.kinds(), "snapshot before settled")
    steps(dev, 1)
    frames = link.take()
    check([f[0] for f in frames] == ["SNAP"], "one snapshot expected, got %r" % (frames,))
    check(protocol.decode_snap(frames[0][2]) == 1 << 12, "wrong mask")
    for i in range(30):  # a bouncing reed on e4 while e2 stays
        hw.magnets = (1 << 12) | ((i % 2) << 28)
        dev.step()
    check("SNAP" not in link.kinds(), "bounce reported")
    seqs = [f[1] for f in frames]
    check(seqs[0] == dev.seq - 1, "sequence not counted")


def device_commands():
    dev, hw, link = new_device()
    steps(dev, 6)
    link.take()
    pattern = "G" * 8 + "." * 48 + "R" * 8
    link.inbox = (protocol.encode_hi(0) + protocol.encode_get(1) + protocol.encode_led(2, pattern)
                  + protocol.encode_cfg(3, 250, 7, 500) + protocol.encode_cfg(4, 9999)
                  + protocol.encode_frame("FOO", 5, []))
    steps(dev, 8)
    frames = link.take()
    kinds = [f[0] for f in frames]
    check(kinds == ["HELLO", "SNAP", "SNAP", "OK", "OK", "ERR", "ERR"], "replies %r" % (kinds,))
    check(hw.pattern == pattern, "LEDs not set")
    check(dev.scan_hz == 250 and dev.debouncer.scans == 7 and dev.beat_ms == 500, "CFG ignored")
    check(protocol.decode_ok(frames[3][2]) == 2 and protocol.decode_ok(frames[4][2]) == 3,
          "acks")
    check(protocol.decode_err(frames[5][2])[:2] == ("arg", 4), "range error %r" % (frames[5],))
    check(protocol.decode_err(frames[6][2]) == ("unknown", 5, "FOO"), "unknown %r" % (frames[6],))
    hello = protocol.decode_hello(frames[0][2])
    check(hello[0] == protocol.PROTOCOL_VERSION and "leds" in hello[3], "hello %r" % (hello,))


def device_rejects_damaged_commands():
    dev, hw, link = new_device()
    steps(dev, 6)
    link.take()
    good = protocol.encode_led(1, "R" * 64)
    bad = good[:10] + b"G" + good[11:]
    link.inbox = bad
    steps(dev, 3)
    frames = link.take()
    check([f[0] for f in frames] == ["ERR"], "damaged frame reply %r" % (frames,))
    check(protocol.decode_err(frames[0][2])[0] == "crc", "not a crc error")
    check(hw.pattern == "." * 64, "damaged LED frame acted on")


def device_random_input():
    dev, hw, link = new_device()
    random.seed(1234)
    total = 0
    for _ in range(400):
        chunk = bytes(random.getrandbits(8) for _ in range(random.getrandbits(6)))
        if random.getrandbits(2) == 0:
            chunk = chunk.replace(b"\x00", b"$").replace(b"\x01", b"\n")
        link.inbox += chunk
        total += len(chunk)
        dev.step()
    steps(dev, 20)
    check(total > 10000, "too little input")
    check(hw.pattern == "." * 64 and dev.scan_hz == 400, "random bytes changed state")
    check(all(f[0] in ("SNAP", "ERR", "BEAT") for f in link.frames), "odd replies")


def device_heartbeat():
    dev, hw, link = new_device(beat_ms=100)
    hw.magnets = 0xFF
    deadline = time.ticks_add(time.ticks_ms(), 5000)
    while "BEAT" not in link.kinds():
        dev.step()
        time.sleep_ms(1)
        check(time.ticks_diff(deadline, time.ticks_ms()) > 0, "no heartbeat")
    beat = next(f for f in link.frames if f[0] == "BEAT")
    _, mask, rate = protocol.decode_beat(beat[2])
    check(mask == 0xFF and rate > 0, "heartbeat %r" % (beat,))
    check(hw.feeds == dev.scans, "watchdog not fed every scan")


def device_selftest():
    dev, hw, link = new_device()
    hw.stuck = 1 << 9  # b2 stuck closed
    hw.dead = 1 << 14  # g2 never closes
    hw.short_columns = 0x04
    steps(dev, 6)
    link.take()
    link.inbox = protocol.encode_runtest(1, 0x02, 0)  # rank 2, no sweep
    steps(dev, 2)
    frames = link.take()
    check([f[0] for f in frames] == ["OK", "TEST"], "selftest replies %r" % (frames,))
    stuck, dead, checked, columns = protocol.decode_test(frames[1][2])
    check(stuck == 1 << 9 and dead == 0 and checked == 0xFF00 and columns == 0x04,
          "selftest %r" % (frames[1],))
    # A sweep: the magnet passes over every square of rank 2; g2 never closes.
    link.inbox = protocol.encode_runtest(2, 0x02, 300)
    dev.step()
    check(hw.pattern.count("Y") == 7 and hw.pattern[9] == "R", "sweep LEDs %r" % hw.pattern)
    for square in range(8, 16):
        hw.magnets = 1 << square
        dev.step()
    deadline = time.ticks_add(time.ticks_ms(), 5000)
    while "TEST" not in link.kinds():
        dev.step()
        time.sleep_ms(2)
        check(time.ticks_diff(deadline, time.ticks_ms()) > 0, "sweep never ended")
    report = next(f for f in link.frames if f[0] == "TEST")
    stuck, dead, _, _ = protocol.decode_test(report[2])
    check(dead == 1 << 14 and stuck == 1 << 9, "sweep report %r" % (report,))
    check(hw.pattern == "." * 64, "LEDs not restored after the sweep")


def device_watchdog():
    import hw_sim

    dev, _, _ = new_device(wdt=20)
    steps(dev, 3)
    time.sleep_ms(60)
    try:
        dev.step()
    except hw_sim.WatchdogReset:
        pass
    else:
        raise AssertionError("a stalled loop did not trip the watchdog")


def device_paced_run():
    dev, _, link = new_device(scan_hz=1000)
    start = time.ticks_ms()
    dev.run(max_steps=50)
    elapsed = time.ticks_diff(time.ticks_ms(), start)
    check(elapsed >= 40, "run() did not pace the scans (%d ms for 50 at 1 kHz)" % elapsed)
    check(link.kinds()[:2] == ["HELLO", "SNAP"], "boot frames %r" % link.kinds()[:2])


# --- the RP2040 layer against a fake chip -------------------------------------------

class FakeMem:
    """SIO registers of a fake RP2040 wired to a reed matrix with diodes."""

    def __init__(self):
        self.oe = 0
        self.out = 0
        self.closed = 0  # 64-square mask of closed switches

    def __getitem__(self, address):
        check(address == 0xD0000004, "read of register %x" % address)
        value = 0xFFFFFFFF  # pull-ups
        for rank in range(8):
            if self.oe & (1 << rank) and not self.out & (1 << rank):  # row driven low
                for file in range(8):
                    if self.closed & (1 << (rank * 8 + file)):
                        value &= ~(1 << (8 + file))
        return value

    def __setitem__(self, address, value):
        if address == 0xD0000024:
            self.oe |= value
        elif address == 0xD0000028:
            self.oe &= ~value
        elif address == 0xD0000018:
            self.out &= ~value
        else:
            raise AssertionError("write to register %x" % address)


class FakePin:
    IN = 0
    OUT = 1
    PULL_UP = 2

    def __init__(self, number, mode=0, pull=None, value=None):
        self.number = number

    def value(self):
        return 1


class FakeNeoPixel:
    def __init__(self, pin, count):
        self.pixels = [(0, 0, 0)] * count
        self.writes = 0

    def __setitem__(self, index, color):
        self.pixels[index] = color

    def write(self):
        self.writes += 1


def rp2040_layer():
    class FakeMachine:
        mem32 = FakeMem()
        Pin = FakePin

        @staticmethod
        def unique_id():
            return b"\xe6\x61\x41\x03"

    class FakeNeo:
        NeoPixel = FakeNeoPixel

    sys.modules["machine"] = FakeMachine
    sys.modules["neopixel"] = FakeNeo
    import hw_rp2040

    hw = hw_rp2040.Rp2040Hardware()
    out = bytearray(8)
    for closed in (0, 1, 1 << 63, 0x8100000000000081, 0x0123456789ABCDEF):
        FakeMachine.mem32.closed = closed
        hw.scan(out)
        check(out == rows(closed), "scan of %x gave %r" % (closed, out))
        check(FakeMachine.mem32.oe == 0, "a row left driven")
    check(hw.columns_idle() == 0, "idle columns")
    check(hw.board_id() == "E6614103", "board id")
    check([hw_rp2040.led_index(s) for s in (0, 7, 8, 15, 16)] == [0, 7, 15, 8, 16], "serpentine")
    pattern = "R" + "." * 14 + "G" + "." * 48
    check(hw.show_leds(pattern), "LEDs refused")
    level = hw_rp2040.BRIGHTNESS
    check(hw._np.pixels[0] == (level, 0, 0), "a1 colour")
    check(hw._np.pixels[8] == (0, level, 0), "h2 sits at chain position 8")


CHECKS = {
    name: fn for name, fn in list(globals().items())
    if callable(fn) and name.split("_")[0] in ("debounce", "device", "rp2040")
}

if __name__ == "__main__":
    name = sys.argv[1]
    CHECKS[name]()
    print("PASS", name)
