"""The reed-switch board's wire protocol: the one framing implementation.

This file is imported by the host (``companion.sensors.serial_board``) and, copied
as ``protocol.py``, by the firmware on the Pico, so the two cannot drift. It is
written in the subset of Python that both CPython and MicroPython run: no
``typing`` or ``dataclasses`` at run time, annotations only where MicroPython
ignores them, no ``del`` of slices, no ``bytes.hex``. See ``docs/protocol.md``.

A frame is one line of printable ASCII::

    $KIND SS FIELD FIELD ...*CCCCCCCC\\n

``KIND`` is an upper-case word, ``SS`` the sender's 8-bit sequence number in two
hex digits, ``CCCCCCCC`` the CRC-32 (IEEE, as ``binascii.crc32``) of every byte
between ``$`` and ``*``. The parser is pure: bytes in, verified frames out
through a callback; anything else is counted and dropped.
"""

# MicroPython compatibility: '%' formatting works in every MicroPython build
# (f-strings need MICROPY_PY_FSTRINGS) and MicroPython has no contextlib.
# ruff: noqa: UP031, SIM105

try:  # CPython: names for the annotations (MicroPython never evaluates them).
    from collections.abc import Callable
except ImportError:  # pragma: no cover - MicroPython
    pass

try:
    from binascii import crc32 as _builtin_crc32

    _HAVE_BUILTIN_CRC = True
except ImportError:  # pragma: no cover - a MicroPython build without crc32
    _HAVE_BUILTIN_CRC = False

PROTOCOL_VERSION = 1
MAX_FRAME = 200  # bytes from '$' to '\n' inclusive; longer lines are dropped

# Frame kinds, device to host.
HELLO = "HELLO"
SNAP = "SNAP"
BEAT = "BEAT"
TEST = "TEST"
OK = "OK"
ERR = "ERR"
DEVICE_KINDS = (HELLO, SNAP, BEAT, TEST, OK, ERR)

# Frame kinds, host to device.
HI = "HI"
GET = "GET"
LED = "LED"
CFG = "CFG"
RUNTEST = "RUNTEST"
MAINT = "MAINT"
HOST_KINDS = (HI, GET, LED, CFG, RUNTEST, MAINT)

# One character per square in an LED frame: off and seven colours.
LED_CHARS = ".RGBYWCM"
LED_OFF = "."

# Error codes a device sends in ERR frames.
ERR_CRC = "crc"  # a frame from the host failed its CRC or grammar
ERR_UNKNOWN = "unknown"  # an unknown command kind
ERR_ARG = "arg"  # a command's arguments were out of range or malformed
ERR_BUSY = "busy"  # a self-test is already running
ERR_HW = "hw"  # a hardware fault (LED strip missing, ...)
ERR_STALE = "stale"  # a command's sequence number is not after the last one (a replay)
ERR_FAULT = "fault"  # the firmware failed on a command (a bug; the loop goes on)

# Limits for the CFG command (checked by the firmware, shown by the host).
SCAN_HZ_MIN = 50
SCAN_HZ_MAX = 2000
DEBOUNCE_MIN = 1
DEBOUNCE_MAX = 50
BEAT_MS_MIN = 100
BEAT_MS_MAX = 10000
ROTATIONS = (0, 180)  # how the board sits: 180 = turned round, White at the wiring's rank 8

# Sequence numbers are 8 bits. A frame is fresh when its number is 1 to
# SEQ_WINDOW - 1 ahead of the last one accepted from that sender; a repeat or
# one up to 256 - SEQ_WINDOW behind is stale (a replayed or reordered frame).
SEQ_WINDOW = 128

_HEX = "0123456789ABCDEF"


class FrameError(ValueError):
    """A frame's fields do not follow the protocol's grammar."""


def _crc32_table() -> list[int]:
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE: list[int] = []


def crc32_pure(data: bytes) -> int:
    """CRC-32 (IEEE 802.3, reflected, init and xor-out 0xFFFFFFFF) in plain Python."""
    if not _TABLE:
        _TABLE.extend(_crc32_table())
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def crc32(data: bytes) -> int:
    """The frame checksum: CRC-32 of ``data`` (the built-in one where the port has it)."""
    if _HAVE_BUILTIN_CRC:
        return int(_builtin_crc32(data)) & 0xFFFFFFFF
    return crc32_pure(data)


def hex_fixed(value: int, digits: int) -> str:
    """``value`` as exactly ``digits`` upper-case hex digits (no bigint formatting needed)."""
    out = ""
    for _ in range(digits):
        out = _HEX[value & 0xF] + out
        value >>= 4
    return out


def parse_hex(text: str, digits: int, what: str) -> int:
    """Read exactly ``digits`` upper-case hex digits; :class:`FrameError` otherwise."""
    if len(text) != digits:
        raise FrameError("%s: expected %d hex digits, got %r" % (what, digits, text))
    value = 0
    for ch in text:
        nibble = _HEX.find(ch)
        if nibble < 0:
            raise FrameError("%s: %r is not upper-case hex" % (what, text))
        value = (value << 4) | nibble
    return value


def parse_uint(text: str, what: str, low: int = 0, high: int = 0x7FFFFFFF) -> int:
    """Read a decimal integer in ``[low, high]``; :class:`FrameError` otherwise."""
    if not text or len(text) > 10:
        raise FrameError("%s: %r is not a number" % (what, text))
    value = 0
    for ch in text:
        if ch < "0" or ch > "9":
            raise FrameError("%s: %r is not a number" % (what, text))
        value = value * 10 + (ord(ch) - 48)
    if value < low or value > high:
        raise FrameError("%s: %d is outside %d..%d" % (what, value, low, high))
    return value


def format_mask(mask: int) -> str:
    """A 64-square occupancy mask (bit n = square n, a1 = 0, h8 = 63) as 16 hex digits."""
    return hex_fixed(mask, 16)


def parse_mask(text: str) -> int:
    """The inverse of :func:`format_mask`."""
    return parse_hex(text, 16, "mask")


def next_seq(seq: int) -> int:
    """The sequence number after ``seq`` (8 bits, wrapping)."""
    return (seq + 1) & 0xFF


def seq_gap(last: int, new: int) -> int:
    """How many frames were lost between ``last`` and ``new`` (0: none; 255: a repeat)."""
    return (new - last - 1) & 0xFF


def seq_ahead(last: int, new: int) -> int:
    """How far ``new`` is after ``last`` (0: a repeat; SEQ_WINDOW and more: behind)."""
    return (new - last) & 0xFF


def seq_fresh(last: int, new: int) -> bool:
    """Whether ``new`` may follow ``last``: 1 to ``SEQ_WINDOW - 1`` ahead (lost frames allowed)."""
    ahead = (new - last) & 0xFF
    return 0 < ahead < SEQ_WINDOW


def clean_text(text: str) -> str:
    """``text`` with every character a field may not hold ('$', '*', control, non-ASCII) as '?'."""
    out = []
    for ch in text:
        out.append(ch if " " <= ch <= "~" and ch != "$" and ch != "*" else "?")
    return "".join(out)


def _valid_token(token: str) -> bool:
    if not token:
        return False
    return all(" " < ch <= "~" and ch != "$" and ch != "*" for ch in token)


def encode_frame(kind: str, seq: int, fields: list[str]) -> bytes:
    """One complete frame, ``$KIND SS FIELDS*CRC\\n``, as bytes.

    Raises :class:`FrameError` for an empty or non-printable field, or a frame
    longer than :data:`MAX_FRAME`.
    """
    if not _valid_token(kind):
        raise FrameError("bad frame kind %r" % kind)
    parts = [kind, hex_fixed(seq & 0xFF, 2)]
    for field in fields:
        if not _valid_token(field):
            raise FrameError("bad field %r in a %s frame" % (field, kind))
        parts.append(field)
    body = " ".join(parts).encode()
    frame = b"$" + body + b"*" + hex_fixed(crc32(body), 8).encode() + b"\n"
    if len(frame) > MAX_FRAME:
        raise FrameError("a %s frame of %d bytes exceeds %d" % (kind, len(frame), MAX_FRAME))
    return frame


class FrameParser:
    """Cuts a byte stream into verified frames; pure (no I/O, no clock).

    ``feed`` accepts any chunking of the stream. For every line that is a
    well-formed frame with a matching CRC, ``on_frame(kind, seq, fields)`` is
    called; every other line is counted (``bad_crc``, ``malformed``,
    ``overflow``) and dropped. Bytes before a ``$`` on the same line are noise
    (``noise_bytes``); the frame starts at the last ``$`` of a line, so a frame
    that follows garbage without a newline is still found.
    """

    def __init__(self, on_frame: "Callable[[str, int, list[str]], None]",
                 max_frame: int = MAX_FRAME) -> None:
        self.on_frame = on_frame
        self.max_frame = max_frame
        self.frames = 0
        self.bad_crc = 0
        self.malformed = 0
        self.overflow = 0
        self.noise_bytes = 0
        self._buf = b""

    @property
    def bad_frames(self) -> int:
        """Lines that looked like frames and were dropped."""
        return self.bad_crc + self.malformed + self.overflow

    @property
    def pending(self) -> int:
        """Bytes held waiting for the end of a line (always under ``max_frame``)."""
        return len(self._buf)

    def reset(self) -> None:
        """Forget a partial line (after a reconnect)."""
        self._buf = b""

    def feed(self, data: bytes) -> None:
        """Take the next bytes of the stream, in any chunking."""
        buf = self._buf + bytes(data) if self._buf else bytes(data)
        start = 0
        while True:
            end = buf.find(b"\n", start)
            if end < 0:
                break
            self._line(buf[start:end])
            start = end + 1
        rest = buf[start:]
        if len(rest) >= self.max_frame:
            # No newline within a frame's length: keep only a possible frame start.
            dollar = rest.rfind(b"$")
            if dollar < 0 or len(rest) - dollar >= self.max_frame:
                self.overflow += 1
                self.noise_bytes += len(rest)
                rest = b""
            else:
                self.overflow += 1
                self.noise_bytes += dollar
                rest = rest[dollar:]
        self._buf = rest

    def _line(self, line: bytes) -> None:
        if line.endswith(b"\r"):
            line = line[:-1]
        dollar = line.rfind(b"$")
        if dollar < 0:
            self.noise_bytes += len(line)
            return
        self.noise_bytes += dollar
        frame = line[dollar + 1:]
        if len(frame) + 2 > self.max_frame:
            self.overflow += 1
            return
        star = len(frame) - 9
        if star < 1 or frame[star] != 42:  # '*'
            self.malformed += 1
            return
        body = frame[:star]
        try:
            expected = parse_hex(frame[star + 1:].decode(), 8, "crc")
            text = body.decode()
        except (UnicodeError, ValueError):
            self.malformed += 1
            return
        if crc32(body) != expected:
            self.bad_crc += 1
            return
        parts = text.split(" ")
        try:
            if len(parts) < 2:
                raise FrameError("no sequence number")
            kind = parts[0]
            for ch in kind:
                if ch < "A" or ch > "Z":
                    raise FrameError("bad kind %r" % kind)
            seq = parse_hex(parts[1], 2, "seq")
            fields = parts[2:]
            for field in fields:
                if not _valid_token(field):
                    raise FrameError("empty or non-printable field")
        except FrameError:
            self.malformed += 1
            return
        self.frames += 1
        self.on_frame(kind, seq, fields)


def parse_kv(fields: list[str]) -> dict[str, str]:
    """``key=value`` fields as a dict (a later key wins); :class:`FrameError` if one has no '='."""
    out: dict[str, str] = {}
    for field in fields:
        eq = field.find("=")
        if eq <= 0:
            raise FrameError("expected key=value, got %r" % field)
        out[field[:eq]] = field[eq + 1:]
    return out


def _need(fields: list[str], count: int, kind: str) -> None:
    if len(fields) != count:
        raise FrameError("%s takes %d fields, got %d" % (kind, count, len(fields)))


# --- Device to host -----------------------------------------------------------

def encode_hello(seq: int, firmware: str, board_id: str, caps: list[str],
                 scan_hz: int, debounce: int, boot: str = "", session: str = "",
                 rotation: int = -1) -> bytes:
    """HELLO: who the device is. Sent at boot and in answer to HI.

    ``boot`` names this power-up (a new one means the board restarted),
    ``session`` echoes the ``sid`` of the HI answered, ``rotation`` is how the
    board is set to sit (-1: not said).
    """
    fields = ["proto=%d" % PROTOCOL_VERSION, "fw=" + firmware, "id=" + board_id,
              "caps=" + ",".join(caps), "hz=%d" % scan_hz, "db=%d" % debounce]
    if boot:
        fields.append("boot=" + boot)
    if session:
        fields.append("sid=" + session)
    if rotation >= 0:
        fields.append("rot=%d" % rotation)
    return encode_frame(HELLO, seq, fields)


def decode_hello(fields: list[str]) -> tuple[int, str, str, list[str], int, int]:
    """``(proto, firmware, board_id, caps, scan_hz, debounce)``; unknown keys are ignored."""
    kv = parse_kv(fields)
    if "proto" not in kv:
        raise FrameError("HELLO without proto=")
    proto = parse_uint(kv["proto"], "proto", 1, 9999)
    caps = [c for c in kv.get("caps", "").split(",") if c]
    return (proto, kv.get("fw", "?"), kv.get("id", "?"), caps,
            parse_uint(kv.get("hz", "0"), "hz"), parse_uint(kv.get("db", "0"), "db"))


def decode_hello_session(fields: list[str]) -> tuple[str, str, int]:
    """``(boot, session, rotation)`` of a HELLO ("" and 0 where a firmware does not say)."""
    kv = parse_kv(fields)
    rotation = parse_uint(kv.get("rot", "0"), "rot", 0, 359)
    return kv.get("boot", ""), kv.get("sid", ""), rotation


def encode_snap(seq: int, mask: int) -> bytes:
    """SNAP: the settled occupancy, sent on every settled change and in answer to GET."""
    return encode_frame(SNAP, seq, [format_mask(mask)])


def decode_snap(fields: list[str]) -> int:
    """The occupancy mask of a SNAP frame."""
    _need(fields, 1, SNAP)
    return parse_mask(fields[0])


def encode_beat(seq: int, uptime_s: int, mask: int, scans_per_s: int) -> bytes:
    """BEAT: the heartbeat, every second; repeats the settled mask so a lost SNAP heals."""
    return encode_frame(BEAT, seq, ["%d" % uptime_s, format_mask(mask), "%d" % scans_per_s])


def decode_beat(fields: list[str]) -> tuple[int, int, int]:
    """``(uptime_s, mask, scans_per_s)``."""
    _need(fields, 3, BEAT)
    return (parse_uint(fields[0], "uptime"), parse_mask(fields[1]),
            parse_uint(fields[2], "scan rate"))


def encode_test(seq: int, stuck: int, dead: int, checked: int, columns_low: int) -> bytes:
    """TEST: a self-test report (masks of stuck, dead and checked squares; shorted columns)."""
    return encode_frame(TEST, seq, [format_mask(stuck), format_mask(dead), format_mask(checked),
                                    hex_fixed(columns_low, 2)])


def decode_test(fields: list[str]) -> tuple[int, int, int, int]:
    """``(stuck, dead, checked, columns_low)``."""
    _need(fields, 4, TEST)
    return (parse_mask(fields[0]), parse_mask(fields[1]), parse_mask(fields[2]),
            parse_hex(fields[3], 2, "columns"))


def encode_ok(seq: int, host_seq: int) -> bytes:
    """OK: the host's command with sequence ``host_seq`` was carried out."""
    return encode_frame(OK, seq, [hex_fixed(host_seq, 2)])


def decode_ok(fields: list[str]) -> int:
    """The host sequence number an OK acknowledges."""
    _need(fields, 1, OK)
    return parse_hex(fields[0], 2, "acknowledged seq")


def encode_err(seq: int, code: str, host_seq: int, detail: str) -> bytes:
    """ERR: a command was refused (``host_seq`` -1 when its sequence is unknown).

    Always fits :data:`MAX_FRAME`: characters a field cannot hold become '?',
    and a detail too long for the frame (it may quote the bad field) is cut,
    ending in "..".
    """
    fields = [code, "--" if host_seq < 0 else hex_fixed(host_seq, 2)]
    # Frame = '$' + body + '*' + 8 CRC digits + '\n'; body = "ERR SS CODE HS DETAIL".
    room = MAX_FRAME - 11 - len("ERR 00 ") - len(code) - 3 - 1
    text = " ".join([w for w in clean_text(detail).split(" ") if w])
    if len(text) > room:
        text = text[:room - 2].rstrip(" ") + ".."
    fields.extend([w for w in text.split(" ") if w])
    return encode_frame(ERR, seq, fields)


def decode_err(fields: list[str]) -> tuple[str, int, str]:
    """``(code, host_seq or -1, detail)``."""
    if len(fields) < 2:
        raise FrameError("ERR takes at least 2 fields")
    host_seq = -1 if fields[1] == "--" else parse_hex(fields[1], 2, "refused seq")
    return fields[0], host_seq, " ".join(fields[2:])


# --- Host to device -----------------------------------------------------------

def encode_hi(seq: int, session: str = "") -> bytes:
    """HI: the host's greeting; the device answers HELLO and then a SNAP.

    ``session`` (8 hex digits, new for every connection) starts the device's
    window for the host's sequence numbers; the HELLO answering it echoes it.
    """
    fields = ["proto=%d" % PROTOCOL_VERSION]
    if session:
        fields.append("sid=" + session)
    return encode_frame(HI, seq, fields)


def decode_hi(fields: list[str]) -> tuple[int, str]:
    """``(protocol version, session)`` of a HI (session "" from an older host)."""
    kv = parse_kv(fields)  # unknown keys are ignored, as in HELLO
    session = kv.get("sid", "")
    if session:
        parse_hex(session, 8, "sid")
    return parse_uint(kv.get("proto", "0"), "proto", 0, 9999), session


def encode_get(seq: int) -> bytes:
    """GET: ask for a SNAP of the current settled occupancy."""
    return encode_frame(GET, seq, [])


def encode_led(seq: int, pattern: str) -> bytes:
    """LED: one character of :data:`LED_CHARS` per square, a1..h8."""
    return encode_frame(LED, seq, [decode_led_pattern(pattern)])


def decode_led(fields: list[str]) -> str:
    """The 64-character pattern of an LED frame."""
    _need(fields, 1, LED)
    return decode_led_pattern(fields[0])


def decode_led_pattern(pattern: str) -> str:
    """Check a 64-square LED pattern; :class:`FrameError` naming the bad square."""
    if len(pattern) != 64:
        raise FrameError("LED pattern has %d squares, expected 64" % len(pattern))
    for index in range(64):
        if LED_CHARS.find(pattern[index]) < 0:
            raise FrameError("LED colour %r on square %d is not one of %s"
                             % (pattern[index], index, LED_CHARS))
    return pattern


def encode_cfg(seq: int, scan_hz: int = 0, debounce: int = 0, beat_ms: int = 0,
               rotation: int = -1) -> bytes:
    """CFG: set scan rate, debounce scans, heartbeat period (0 = leave unchanged) and
    the board's rotation (0 or 180, kept by the board across power-ups; -1 = unchanged)."""
    fields = []
    if scan_hz:
        fields.append("hz=%d" % scan_hz)
    if debounce:
        fields.append("db=%d" % debounce)
    if beat_ms:
        fields.append("beat=%d" % beat_ms)
    if rotation >= 0:
        fields.append("rot=%d" % rotation)
    return encode_frame(CFG, seq, fields)


def decode_cfg(fields: list[str]) -> tuple[int, int, int, int]:
    """``(scan_hz, debounce, beat_ms, rotation)``: 0 (rotation -1) where not given.

    :class:`FrameError` for an unknown key or a value out of range.
    """
    kv = parse_kv(fields)
    for key in kv:
        if key not in ("hz", "db", "beat", "rot"):
            raise FrameError("unknown CFG key %r" % key)
    scan_hz = parse_uint(kv["hz"], "hz", SCAN_HZ_MIN, SCAN_HZ_MAX) if "hz" in kv else 0
    debounce = parse_uint(kv["db"], "db", DEBOUNCE_MIN, DEBOUNCE_MAX) if "db" in kv else 0
    beat_ms = parse_uint(kv["beat"], "beat", BEAT_MS_MIN, BEAT_MS_MAX) if "beat" in kv else 0
    rotation = -1
    if "rot" in kv:
        rotation = parse_uint(kv["rot"], "rot", 0, 180)
        if rotation not in ROTATIONS:
            raise FrameError("rot: %d is not 0 or 180" % rotation)
    return scan_hz, debounce, beat_ms, rotation


def encode_runtest(seq: int, ranks: int, sweep_ms: int) -> bytes:
    """RUNTEST: self-test ranks (bit 0 = rank 1); sweep_ms > 0 also watches for dead switches."""
    return encode_frame(RUNTEST, seq, [hex_fixed(ranks, 2), "%d" % sweep_ms])


def decode_runtest(fields: list[str]) -> tuple[int, int]:
    """``(ranks, sweep_ms)``."""
    _need(fields, 2, RUNTEST)
    ranks = parse_hex(fields[0], 2, "ranks")
    if ranks == 0:
        raise FrameError("RUNTEST names no rank")
    return ranks, parse_uint(fields[1], "sweep ms", 0, 600000)


def encode_maint(seq: int, board_id: str) -> bytes:
    """MAINT: restart the board into maintenance mode (it must name the board's id)."""
    return encode_frame(MAINT, seq, ["id=" + board_id])


def decode_maint(fields: list[str]) -> str:
    """The board id a MAINT frame names."""
    _need(fields, 1, MAINT)
    kv = parse_kv(fields)
    if "id" not in kv or not kv["id"]:
        raise FrameError("MAINT must name the board: id=BOARD_ID")
    return kv["id"]


def ranks_mask(ranks: int) -> int:
    """The squares of the ranks in ``ranks`` (bit 0 = rank 1) as a 64-square mask."""
    mask = 0
    for rank in range(8):
        if ranks & (1 << rank):
            mask |= 0xFF << (8 * rank)
    return mask
