"""The firmware under the MicroPython unix port fed random, mutated and crafted bytes.

The stream (host commands, good and with bad arguments, long fields, then
mutated, plus random bytes and Ctrl-C) is made here with a fixed seed and fed
to ``device.Device`` by ``mp_checks.py device_fuzz``, which fails on any
exception out of ``Device.step``, any reply over the frame limit or broken, any
firmware fault, and any CRC-valid command left unanswered. Reduced by default;
``RAINDROP_FULL=1`` feeds 10^6 bytes.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

from test_firmware_unix import run_micropython

from companion.sensors import protocol as P

FULL = os.environ.get("RAINDROP_FULL") == "1"
FUZZ_BYTES = 1_000_000 if FULL else 250_000


def raw_frame(body: str) -> bytes:
    data = body.encode()
    return b"$" + data + b"*" + P.hex_fixed(P.crc32(data), 8).encode() + b"\n"


def host_frame(rng: random.Random, seq: int) -> bytes:
    """One host command: mostly well-formed, often with bad arguments or long fields."""
    choice = rng.randrange(12)
    if choice == 0:
        return P.encode_hi(seq, f"{rng.getrandbits(32):08X}" if rng.random() < 0.8 else "")
    if choice == 1:
        return P.encode_get(seq)
    if choice == 2:
        return P.encode_led(seq, "".join(rng.choice(P.LED_CHARS) for _ in range(64)))
    if choice == 3:
        return P.encode_cfg(seq, rng.choice([0, rng.randrange(50, 2001)]),
                            rng.choice([0, rng.randrange(1, 51)]),
                            rng.choice([0, rng.randrange(100, 10001)]),
                            rng.choice([-1, 0, 180]))
    if choice == 4:
        return P.encode_runtest(seq, rng.randrange(1, 256), rng.choice([0, 0, 5, 50]))
    if choice == 5:
        return P.encode_maint(seq, rng.choice(["OTHER", "E6614103", "X" * 40]))
    kind = rng.choice(["HI", "GET", "LED", "CFG", "RUNTEST", "MAINT", "FOO", "Z" * 30])
    head = f"{kind} {seq:02X}"
    room = P.MAX_FRAME - 11 - len(head) - 1
    if choice == 6:  # one long field, up to the frame limit (and sometimes one byte over)
        length = rng.randrange(1, room + 2)
        prefix = rng.choice(["", "proto=", "sid=", "hz=", "rot=", "id=", "FF "])
        field = (prefix + rng.choice("x9R.=") * length)[:length]
        return raw_frame(f"{head} {field}")
    if choice == 7:  # many fields
        fields = [rng.choice(["a=1", "hz=400", "db=0", "R" * 64, "FF", "0", "==", "x"])
                  for _ in range(rng.randrange(1, 40))]
        body = f"{head} {' '.join(fields)}"
        return raw_frame(body[:P.MAX_FRAME - 11].rstrip(" "))
    if choice == 8:  # numbers out of range, malformed
        value = rng.choice(["-1", "0", "1e3", "99999999999", "2001", "49", "", "180x", "90",
                            "FFFFFFFF", "zz"])
        key = rng.choice(["hz", "db", "beat", "rot", "proto", "sid", "id"])
        return raw_frame(f"{head} {key}={value}")
    if choice == 9:
        return raw_frame(f"{head} {rng.choice(['00 0', 'ZZ 0', 'FF 600001', 'FF 1 2', 'ff 0'])}")
    if choice == 10:
        return raw_frame(head)
    pattern = "".join(rng.choice(P.LED_CHARS + "rgXZ*") for _ in range(rng.randrange(60, 68)))
    return raw_frame(f"{head} {pattern.replace('*', '.')}")


def mutate(rng: random.Random, frame: bytes) -> bytes:
    data = bytearray(frame)
    for _ in range(rng.choice([1, 1, 2, 3, 8])):
        op = rng.randrange(6)
        index = rng.randrange(len(data)) if data else 0
        if op == 0 and data:
            data[index] ^= 1 << rng.randrange(8)
        elif op == 1 and data:
            data[index] = rng.choice(b"0123456789ABCDEF $*=\n\r\x03" + bytes([rng.randrange(256)]))
        elif op == 2 and data:
            del data[index]
        elif op == 3:
            data.insert(index, rng.randrange(256))
        elif op == 4 and data:
            del data[index:]
        elif op == 5 and len(data) > 4:
            other = rng.randrange(len(data))
            data[index], data[other] = data[other], data[index]
    return bytes(data)


def fuzz_stream(size: int, seed: int = 0xF1A5) -> bytes:
    rng = random.Random(seed)
    parts: list[bytes] = []
    total = 0
    seq = 0
    while total < size:
        seq = (seq + 1) & 0xFF if rng.random() < 0.9 else rng.randrange(256)
        roll = rng.random()
        frame = host_frame(rng, seq)
        if roll < 0.45:
            piece = frame
        elif roll < 0.85:
            piece = mutate(rng, frame)
        elif roll < 0.95:
            piece = rng.randbytes(rng.randrange(1, 400))
        else:
            piece = b"\x03" * rng.randrange(1, 5) + rng.choice([b"", b"\r", b"\r\n"])
        parts.append(piece)
        total += len(piece)
    return b"".join(parts)


def test_firmware_survives_random_mutated_and_crafted_bytes(tmp_path: Path) -> None:
    stream = fuzz_stream(FUZZ_BYTES)
    path = tmp_path / "fuzz.bin"
    path.write_bytes(stream)
    expected: list[str] = []
    parser = P.FrameParser(lambda kind, seq, fields: expected.append(kind))
    parser.feed(stream)
    result = run_micropython("mp_checks.py", "device_fuzz", str(path), timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    stats = re.search(r"STATS bytes=(\d+) frames=(\d+) bad=(\d+)", result.stdout)
    assert stats is not None, result.stdout
    assert int(stats[1]) == len(stream) >= FUZZ_BYTES
    # The device read exactly the CRC-valid frames the host-side parser finds in the stream.
    assert int(stats[2]) == len(expected) > FUZZ_BYTES // 200
    assert int(stats[3]) > 0 and parser.bad_frames > 0  # counts differ with the chunking
    assert set(expected) >= {"HI", "GET", "LED", "CFG", "RUNTEST", "MAINT", "FOO"}
    assert result.stdout.strip().endswith("PASS device_fuzz")
