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

    def __init__(self, chunk=64):
        self.inbox = b""
        self.frames = []
        self.chunk = chunk
        self.longest = 0
        self.parser = protocol.FrameParser(lambda k, s, f: self.frames.append((k, s, f)))

    def read(self):
        data = self.inbox[:self.chunk]
        self.inbox = self.inbox[self.chunk:]
        return data

    def write(self, frame):
        self.longest = max(self.longest, len(frame))
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

    hw = kwargs.pop("hw", None) or hw_sim.SimHardware(None, kwargs.pop("leds", True), None,
                                                      kwargs.pop("wdt", 2000))
    link = FakeLink(kwargs.pop("chunk", 64))
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


def raw_frame(body):
    """A CRC-valid frame around ``body`` with no grammar or length check (crafted input)."""
    data = body.encode()
    return b"$" + data + b"*" + protocol.hex_fixed(protocol.crc32(data), 8).encode() + b"\n"


def state(dev, hw):
    return (hw.pattern, dev.leds, dev.scan_hz, dev.debouncer.scans, dev.beat_ms, dev.rotation,
            dev.maintenance, dev.selftest is None, hw.settings)


def pad(prefix, kind_seq, filler):
    """``prefix`` followed by ``filler`` so the frame is exactly MAX_FRAME bytes long."""
    room = protocol.MAX_FRAME - 11 - len(kind_seq) - 1 - len(prefix)
    return prefix + filler * room


def crafted_bodies():
    """(body without "KIND SS ", kind, the answers allowed) for every crafted frame class."""
    longest = lambda kind, prefix, filler="9": pad(prefix, kind + " 00", filler)  # noqa: E731
    arg = ("ERR",)
    hello = ("HELLO", "SNAP")  # HI ignores keys it does not know, as HELLO does
    cases = []
    for kind in ("HI", "GET", "LED", "CFG", "RUNTEST", "MAINT", "FOO", "Q" * 60):
        other = None if kind in ("GET", "FOO", "Q" * 60) else arg
        cases.append((kind, longest(kind, "x"), other))
        cases.append((kind, longest(kind, "k="), hello if kind == "HI" else other))
        many = (protocol.MAX_FRAME - 11 - len(kind) - 3) // 4  # as many fields as fit
        cases.append((kind, " ".join(["a=1"] * many), hello if kind == "HI" else other))
    cases += [
        ("HI", "proto=" + "9" * 11, arg), ("HI", "proto=-1", arg), ("HI", "sid=12", arg),
        ("HI", "sid=zzzzzzzz", arg), ("HI", "proto", arg), ("HI", "=1", arg),
        ("HI", longest("HI", "sid="), arg), ("HI", "proto=1 speed=3", hello),
        ("LED", "", arg), ("LED", "." * 63, arg), ("LED", "." * 65, arg), ("LED", "r" * 64, arg),
        ("LED", "." * 64 + " " + "." * 64, arg), ("LED", longest("LED", "", "R"), arg),
        ("CFG", "hz=0", arg), ("CFG", "hz=49", arg), ("CFG", "hz=2001", arg),
        ("CFG", "hz=" + "9" * 10, arg), ("CFG", "hz=" + "9" * 11, arg), ("CFG", "hz=-5", arg),
        ("CFG", "hz=1e3", arg), ("CFG", "hz=", arg), ("CFG", "=5", arg), ("CFG", "db=0", arg),
        ("CFG", "db=51", arg), ("CFG", "beat=99", arg), ("CFG", "beat=10001", arg),
        ("CFG", "rot=90", arg), ("CFG", "rot=181", arg), ("CFG", "rot=x", arg),
        ("CFG", "hz=400 db=0", arg), ("CFG", longest("CFG", "hz="), arg),
        ("CFG", longest("CFG", "unknownkey=", "K"), arg), ("CFG", "hz=400=3", arg),
        ("RUNTEST", "", arg), ("RUNTEST", "00 0", arg), ("RUNTEST", "ZZ 0", arg),
        ("RUNTEST", "ff 0", arg), ("RUNTEST", "FF 600001", arg), ("RUNTEST", "FF -1", arg),
        ("RUNTEST", "FF 0 0", arg), ("RUNTEST", "FFF 0", arg),
        ("RUNTEST", "FF " + "9" * 11, arg), ("RUNTEST", longest("RUNTEST", "FF "), arg),
        ("MAINT", "", arg), ("MAINT", "id=", arg), ("MAINT", "id=OTHER", arg),
        ("MAINT", "board=TEST", arg), ("MAINT", "id=TEST id=TEST", arg),
        ("MAINT", longest("MAINT", "id="), arg),
        ("GET", "", None), ("GET", "extra", None),
    ]
    return cases


def device_crafted_frames():
    """Every crafted CRC-valid frame class: one answer that fits, no state change, no fault."""
    dev, hw, link = new_device()
    steps(dev, 6)
    link.take()
    seq = 0
    for kind, body, allowed in crafted_bodies():
        before = state(dev, hw)
        frame = raw_frame("%s %s %s" % (kind, protocol.hex_fixed(seq, 2), body)
                          if body else "%s %s" % (kind, protocol.hex_fixed(seq, 2)))
        check(len(frame) <= protocol.MAX_FRAME, "crafted frame too long: %d" % len(frame))
        seq = protocol.next_seq(seq)
        link.inbox = frame
        steps(dev, 1 + len(frame) // 64)
        frames = link.take()
        kinds = [f[0] for f in frames]
        what = "%s %r" % (kind, body[:40])
        if allowed is None:  # GET, or an unknown kind: SNAP / ERR unknown
            check(kinds in (["SNAP"], ["ERR"]), "%s: answers %r" % (what, kinds))
        else:
            check(kinds == list(allowed), "%s: answers %r" % (what, kinds))
        if kinds == ["ERR"]:
            code, host_seq, detail = protocol.decode_err(frames[0][2])
            check(code in ("arg", "unknown") and host_seq == (seq - 1) & 0xFF,
                  "%s: error %r" % (what, frames[0][2][:3]))
            check(detail, "%s: an error without a reason" % what)
        check(state(dev, hw) == before, "%s changed the device" % what)
    check(dev.faults == 0, "%d command(s) reached a firmware fault" % dev.faults)
    check(link.longest <= protocol.MAX_FRAME, "a reply of %d bytes" % link.longest)
    check(link.parser.bad_frames == 0, "the device sent a broken frame")
    # One byte over the limit is dropped as a whole (answered as damaged), the loop goes on.
    link.inbox = raw_frame("HI %s %s" % (protocol.hex_fixed(seq, 2),
                                         pad("x", "HI 00", "9") + "9"))
    steps(dev, 5)
    check(link.kinds() == ["ERR"] and protocol.decode_err(link.frames[0][2])[0] == "crc",
          "an over-long frame: %r" % link.kinds())
    link.take()
    link.inbox = protocol.encode_get(protocol.next_seq(seq))
    steps(dev, 1)
    check(link.kinds() == ["SNAP"], "the device stopped answering: %r" % link.kinds())


def read_frames(data):
    """The fields of every frame in ``data``."""
    out = []
    protocol.FrameParser(lambda kind, seq, fields: out.append(fields)).feed(data)
    return out


def device_error_detail_fits():
    """An error quoting a long field is cut to fit; a character no field may hold is masked."""
    for detail in ("x" * 500, "a " * 300, "bad $ * \n \x01 value", ""):
        for code in ("arg", "unknown", "stale", "fault"):
            frame = protocol.encode_err(255, code, 7, detail)
            check(len(frame) <= protocol.MAX_FRAME, "ERR of %d bytes" % len(frame))
            fields = read_frames(frame)
            check(len(fields) == 1 and fields[0][0] == code, "ERR not readable: %r" % frame)
            if len(detail) > 300:
                check(fields[0][-1].endswith(".."), "a cut detail is not marked: %r" % frame)
    fields = read_frames(protocol.encode_err(1, "arg", 2, "a$b*c\x07d"))
    check(protocol.decode_err(fields[0]) == ("arg", 2, "a?b?c?d"), "masked %r" % (fields,))


def device_sequence_window():
    """A replayed or duplicated command is refused; HI's sid keeps the window per host session."""
    dev, hw, link = new_device()
    steps(dev, 6)
    link.take()
    led = protocol.encode_led(11, "R" * 64)
    link.inbox = protocol.encode_hi(10, "0000AAAA") + led + led  # the LED frame duplicated
    steps(dev, 8)
    frames = link.take()
    check([f[0] for f in frames] == ["HELLO", "SNAP", "OK", "ERR"], "replies %r" % (frames,))
    check(protocol.decode_hello_session(frames[0][2])[1] == "0000AAAA", "sid not echoed")
    check(protocol.decode_err(frames[3][2])[:2] == ("stale", 11), "duplicate %r" % (frames[3],))
    # Reordered: 13 arrives before 12; 12 is then stale. A CFG duplicated runs once.
    link.inbox = (protocol.encode_led(13, "G" * 64) + protocol.encode_led(12, "B" * 64)
                  + protocol.encode_cfg(14, 300) + protocol.encode_cfg(14, 300))
    steps(dev, 8)
    kinds = [(f[0], f[2][0]) for f in link.take()]
    check(kinds == [("OK", "0D"), ("ERR", "stale"), ("OK", "0E"), ("ERR", "stale")],
          "reordered %r" % (kinds,))
    check(hw.pattern == "G" * 64 and dev.scan_hz == 300, "a stale frame was carried out")
    # Frames lost on the way (a jump within the window) are fine.
    link.inbox = protocol.encode_get(60)
    steps(dev, 2)
    check(link.kinds() == ["SNAP"], "a jump in the window refused: %r" % link.kinds())
    link.take()
    # The same session's HI replayed: stale; a fresh HI of it: answered.
    link.inbox = protocol.encode_hi(10, "0000AAAA") + protocol.encode_hi(61, "0000AAAA")
    steps(dev, 6)
    check(link.kinds() == ["ERR", "HELLO", "SNAP"], "HI replay %r" % link.kinds())
    link.take()
    # A new session (a reconnect) starts its own window, even with lower numbers ...
    link.inbox = protocol.encode_hi(0, "0000BBBB") + protocol.encode_led(1, "." * 64)
    steps(dev, 6)
    check(link.kinds() == ["HELLO", "SNAP", "OK"], "new session %r" % link.kinds())
    link.take()
    # ... and the old one cannot come back (a replay of its HI is refused).
    link.inbox = protocol.encode_hi(62, "0000AAAA") + protocol.encode_led(63, "R" * 64)
    steps(dev, 6)
    kinds = [(f[0], f[2][0]) for f in link.take()]
    check(kinds == [("ERR", "stale"), ("OK", "3F")], "old session %r" % (kinds,))
    check(dev.host_session == "0000BBBB", "a replayed HI took the session back")
    # The same companion reconnecting numbers on: its frames from before are behind.
    link.inbox = (protocol.encode_led(90, "Y" * 64) + protocol.encode_hi(100, "0000CCCC")
                  + protocol.encode_led(90, "M" * 64) + protocol.encode_led(101, "W" * 64))
    steps(dev, 8)
    kinds = [(f[0], f[2][0]) for f in link.take()]
    check(kinds == [("OK", "5A"), ("HELLO", "proto=1"), ("SNAP", kinds[2][1]),
                    ("ERR", "stale"), ("OK", "65")], "reconnect %r" % (kinds,))
    check(hw.pattern == "W" * 64, "a frame from before the reconnect was carried out")
    # A host without sids (an older companion) still works: each HI starts afresh.
    link.inbox = protocol.encode_hi(5) + protocol.encode_get(6)
    steps(dev, 6)
    check(link.kinds() == ["HELLO", "SNAP", "SNAP"], "legacy host %r" % link.kinds())
    check(dev.faults == 0, "faults")


def device_rotation():
    """rot=180: the board sits turned round; masks, LEDs and self-test follow; it is kept."""
    dev, hw, link = new_device()
    hw.magnets = 1 | 1 << 12  # wiring a1 and e2
    steps(dev, 8)
    link.take()
    link.inbox = protocol.encode_hi(0, "00000001")
    steps(dev, 2)
    hello = link.take()[0]
    check(protocol.decode_hello_session(hello[2])[2] == 0, "rotation at first %r" % (hello,))
    link.inbox = protocol.encode_cfg(1, rotation=180)
    steps(dev, 2)
    frames = link.take()
    check([f[0] for f in frames] == ["OK", "SNAP"], "rotation replies %r" % (frames,))
    check(protocol.decode_snap(frames[1][2]) == (1 << 63 | 1 << 51), "turned mask")
    check(hw.settings == "rot=180\n", "rotation not kept: %r" % hw.settings)
    pattern = "R" + "." * 62 + "G"
    link.inbox = protocol.encode_led(2, pattern)
    steps(dev, 2)
    check(hw.pattern == "G" + "." * 62 + "R", "LEDs not turned: %r" % hw.pattern)
    hw.magnets = 0
    hw.stuck = 1 << 8  # wiring a2 = game h7
    steps(dev, 8)
    link.take()
    link.inbox = protocol.encode_runtest(3, 0x40, 0)  # game rank 7 = wiring rank 2
    steps(dev, 2)
    report = next(f for f in link.take() if f[0] == "TEST")
    stuck, _, checked, _ = protocol.decode_test(report[2])
    check(stuck == 1 << 55 and checked == 0xFF << 48, "turned self-test %r" % (report,))
    # A restart keeps the rotation (the settings file).
    import device

    again = device.Device(hw, FakeLink(), "TEST")
    check(again.rotation == 180, "rotation lost over a restart")
    link2 = again.link
    again.step()
    link2.inbox = protocol.encode_hi(0, "00000002")
    steps(again, 8)
    hello = next(f for f in link2.frames if f[0] == "HELLO")
    check(protocol.decode_hello_session(hello[2])[2] == 180, "HELLO rotation %r" % (hello,))
    link2.take()
    link2.inbox = protocol.encode_cfg(1, rotation=0)
    steps(again, 2)
    check(link2.kinds() == ["OK", "SNAP"] and hw.settings == "rot=0\n", "turned back")
    check(protocol.decode_snap(link2.frames[1][2]) == 1 << 8, "back to wiring")


def device_maintenance():
    """Ctrl-C is noise; only a MAINT naming this board stops the firmware (run() returns)."""
    dev, _, link = new_device()
    steps(dev, 6)
    link.take()
    link.inbox = b"\x03\x03\r\x03" + b"\x03" * 50 + b"\r\n"
    steps(dev, 4)
    check(not dev.maintenance, "Ctrl-C bytes stopped the firmware")
    link.take()
    link.inbox = protocol.encode_maint(1, "OTHER") + protocol.encode_maint(2, "TEST")
    dev.run(max_steps=50)
    kinds = [(f[0], f[2][0]) for f in link.frames]
    check(("ERR", "arg") in kinds and ("OK", "02") in kinds, "maint replies %r" % (kinds,))
    check(dev.maintenance, "MAINT did not stop the firmware")


class FakeMicropython:
    calls: list = []  # noqa: RUF012 - MicroPython has no ClassVar

    @staticmethod
    def kbd_intr(char):
        FakeMicropython.calls.append(char)


class FakeMachineReset(Exception):
    pass


def main_entry():
    """main.py: Ctrl-C off before the loop; a KeyboardInterrupt restarts; MAINT flags and resets."""
    import os

    import main as entry

    class Hw:
        def __init__(self):
            self.watchdog = False

        def start_watchdog(self):
            self.watchdog = True

        def board_id(self):
            return "TEST"

    class HwModule:
        made: list = []  # noqa: RUF012

        @staticmethod
        def Rp2040Hardware():
            hw = Hw()
            HwModule.made.append(hw)
            return hw

        @staticmethod
        def maintenance_requested():
            return False

    runs = []

    class Dev:
        def __init__(self, hw, link, board_id):
            check(FakeMicropython.calls == [-1], "Ctrl-C still on when the firmware runs")
            check(hw.watchdog, "watchdog not armed")
            self.maintenance = False

        def run(self):
            runs.append(1)
            if len(runs) == 1:
                raise KeyboardInterrupt()
            self.maintenance = True

    class DeviceModule:
        Device = Dev

    class LinkModule:
        @staticmethod
        def StreamLink():
            return None

    class Machine:
        @staticmethod
        def reset():
            raise FakeMachineReset()

    here = os.getcwd()
    work = "/tmp/raindrop-mp-main-%d" % time.ticks_us()
    os.mkdir(work)
    os.chdir(work)
    try:
        if entry.MAINTENANCE_FLAG in os.listdir():
            os.remove(entry.MAINTENANCE_FLAG)
        check(not entry.maintenance_boot(os, HwModule), "a normal boot read as maintenance")
        try:
            entry.run_firmware(Machine, FakeMicropython, HwModule, DeviceModule, LinkModule)
        except FakeMachineReset:
            pass
        else:
            raise AssertionError("no reset after MAINT")
        check(len(runs) == 2, "a KeyboardInterrupt ended the firmware (runs %d)" % len(runs))
        check(entry.maintenance_boot(os, HwModule), "the next boot is not maintenance")
        check(not entry.maintenance_boot(os, HwModule), "maintenance is not for one boot only")
    finally:
        os.chdir(here)
        os.rmdir(work)


def device_fuzz():
    """The bytes of a file (random, mutated, crafted; made by the test) fed to the device."""
    with open(sys.argv[2], "rb") as source:
        data = source.read()
    dev, _, link = new_device(chunk=256)
    frames_in = [0]
    answered = [0]
    on_frame = dev.parser.on_frame
    out = {}

    class Counter:
        def __init__(self):
            self.parser = protocol.FrameParser(self.frame)
            self.longest = 0

        def frame(self, kind, seq, fields):
            out[kind] = out.get(kind, 0) + 1

        def read(self):
            return link.read()

        def write(self, frame):
            self.longest = max(self.longest, len(frame))
            self.parser.feed(frame)

    counter = Counter()
    dev.link = counter

    def counted(kind, seq, fields):
        before = counter.parser.frames
        on_frame(kind, seq, fields)
        frames_in[0] += 1
        answered[0] += counter.parser.frames > before

    dev.parser.on_frame = counted
    pos = 0
    step_count = 0
    while pos < len(data):
        size = random.getrandbits(8) + 1
        link.inbox = data[pos:pos + size]
        pos += size
        while link.inbox:
            dev.step()
            step_count += 1
        check(dev.parser.pending < protocol.MAX_FRAME,
              "parser holds %d bytes" % dev.parser.pending)
    fed = frames_in[0]
    link.inbox = protocol.encode_hi(0, "FFFF0000") + protocol.encode_get(1)
    before = dict(out)
    steps(dev, 4)
    check(out.get("HELLO", 0) == before.get("HELLO", 0) + 1
          and out.get("SNAP", 0) == before.get("SNAP", 0) + 2, "no answer after the fuzz")
    check(counter.parser.bad_frames == 0, "the device sent a broken frame")
    check(counter.longest <= protocol.MAX_FRAME, "a reply of %d bytes" % counter.longest)
    check(dev.faults == 0, "%d firmware fault(s)" % dev.faults)
    check(answered[0] == frames_in[0], "%d of %d commands unanswered"
          % (frames_in[0] - answered[0], frames_in[0]))
    check(protocol.SCAN_HZ_MIN <= dev.scan_hz <= protocol.SCAN_HZ_MAX
          and dev.rotation in protocol.ROTATIONS, "settings out of range")
    kinds = ",".join("%s=%d" % (k, out[k]) for k in sorted(out))
    print("STATS bytes=%d frames=%d bad=%d steps=%d %s" % (
        len(data), fed, dev.parser.bad_frames, step_count, kinds))


# --- the RP2040 layer against a fake chip -------------------------------------------

class FakeMem:
    """SIO registers of a fake RP2040 wired to a reed matrix with diodes.

    A row not driven keeps the level it last had (its wire and diodes hold the
    charge for longer than a scan), which is how a released row that was just
    driven low fakes closed switches in the next row's reading.
    """

    def __init__(self):
        self.oe = 0
        self.out = 0xFF  # Pin(OUT, value=1) at start-up
        self.level = 0  # rows' levels: bit set = high; unpowered rows start low
        self.closed = 0  # 64-square mask of closed switches

    def _settle(self):
        self.level = (self.level & ~self.oe) | (self.out & self.oe)

    def __getitem__(self, address):
        check(address == 0xD0000004, "read of register %x" % address)
        self._settle()
        value = 0xFFFFFFFF  # pull-ups
        for rank in range(8):
            if not self.level & (1 << rank):  # row low, driven or left low
                for file in range(8):
                    if self.closed & (1 << (rank * 8 + file)):
                        value &= ~(1 << (8 + file))
        return value

    def __setitem__(self, address, value):
        if address == 0xD0000024:
            self.oe |= value
        elif address == 0xD0000028:
            self.oe &= ~value
        elif address == 0xD0000014:
            self.out |= value
        elif address == 0xD0000018:
            self.out &= ~value
        else:
            raise AssertionError("write to register %x" % address)
        self._settle()


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
    mem = FakeMachine.mem32
    for closed in (0, 1, 1 << 63, 0x8100000000000081, 0x0123456789ABCDEF, 1 << 8 | 1):
        mem.closed = closed
        hw.scan(out)
        check(out == rows(closed), "scan of %x gave %r" % (closed, out))
        check(mem.oe & 0xFF == 0xFF and mem.level & 0xFF == 0xFF,
              "an idle row not driven high (oe %x, level %x)" % (mem.oe, mem.level))
    check(hw.columns_idle() == 0, "idle columns")
    # The old way, releasing a row after its turn, reads a ghost on the next row.
    mem.closed = 1  # a1 only
    mem.oe &= ~0xFF
    mem.out &= ~0xFF
    mem.level = 0xFF
    ghost = bytearray(8)
    for r in range(8):
        mem[0xD0000024] = 1 << r
        ghost[r] = ((mem[0xD0000004] >> 8) & 0xFF) ^ 0xFF
        mem[0xD0000028] = 1 << r
    check(ghost[1] == 1, "the fake chip does not model a floating row")
    mem.oe |= 0xFF
    mem.out |= 0xFF
    hw.scan(out)
    check(out == rows(1), "a1 read as %r" % out)
    hw_rp2040.SETTINGS_FILE = "/tmp/raindrop-mp-settings-%d.txt" % time.ticks_us()
    check(hw.load_settings() == "", "settings before any were saved")
    hw.save_settings("rot=180\n")
    check(hw.load_settings() == "rot=180\n", "settings not kept")
    import os
    os.remove(hw_rp2040.SETTINGS_FILE)
    check(hw.board_id() == "E6614103", "board id")
    check([hw_rp2040.led_index(s) for s in (0, 7, 8, 15, 16)] == [0, 7, 15, 8, 16], "serpentine")
    pattern = "R" + "." * 14 + "G" + "." * 48
    check(hw.show_leds(pattern), "LEDs refused")
    level = hw_rp2040.BRIGHTNESS
    check(hw._np.pixels[0] == (level, 0, 0), "a1 colour")
    check(hw._np.pixels[8] == (0, level, 0), "h2 sits at chain position 8")


CHECKS = {
    name: fn for name, fn in list(globals().items())
    if callable(fn) and name.split("_")[0] in ("debounce", "device", "rp2040", "main")
}

if __name__ == "__main__":
    name = sys.argv[1]
    CHECKS[name]()
    print("PASS", name)
