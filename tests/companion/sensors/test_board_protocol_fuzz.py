"""Fuzzing the frame parser with random and mutated bytes: no crash, no bad frame accepted.

Reduced by default; ``RAINDROP_FULL=1 pytest tests/companion/sensors/test_board_protocol_fuzz.py``
runs it on ten million bytes of each kind (one million by default).
"""

from __future__ import annotations

import os
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.sensors import protocol as P
from companion.sensors.board_frames import DeviceFrameDecoder

FULL = os.environ.get("RAINDROP_FULL") == "1"
FUZZ_BYTES = 10_000_000 if FULL else 1_000_000


def random_frame(rng: random.Random) -> bytes:
    seq = rng.randrange(256)
    mask = rng.getrandbits(64)
    choice = rng.randrange(9)
    if choice == 0:
        return P.encode_hello(seq, f"1.0.{rng.randrange(9)}", f"{rng.getrandbits(64):016X}",
                              ["selftest", "leds"], rng.randrange(50, 2000), rng.randrange(1, 9))
    if choice == 1:
        return P.encode_beat(seq, rng.randrange(10**6), mask, rng.randrange(2000))
    if choice == 2:
        return P.encode_test(seq, mask, rng.getrandbits(64), rng.getrandbits(64),
                             rng.randrange(256))
    if choice == 3:
        return P.encode_ok(seq, rng.randrange(256))
    if choice == 4:
        return P.encode_err(seq, "arg", rng.randrange(-1, 256), f"bad value {rng.randrange(99)}")
    if choice == 5:
        return P.encode_led(seq, "".join(rng.choice(P.LED_CHARS) for _ in range(64)))
    if choice == 6:
        return P.encode_cfg(seq, rng.randrange(50, 2000), rng.randrange(1, 50))
    return P.encode_snap(seq, mask)


def mutate(rng: random.Random, frame: bytes) -> bytes:
    data = bytearray(frame)
    for _ in range(rng.choice([1, 1, 2, 3, 8])):
        op = rng.randrange(6)
        index = rng.randrange(len(data)) if data else 0
        if op == 0 and data:  # flip a bit
            data[index] ^= 1 << rng.randrange(8)
        elif op == 1 and data:  # replace a byte by a likely-looking one
            data[index] = rng.choice(b"0123456789ABCDEF $*\n\r" + bytes([rng.randrange(256)]))
        elif op == 2 and data:  # drop a byte
            del data[index]
        elif op == 3:  # insert a byte
            data.insert(index, rng.randrange(256))
        elif op == 4 and data:  # truncate
            del data[index:]
        elif op == 5 and len(data) > 4:  # swap two bytes
            other = rng.randrange(len(data))
            data[index], data[other] = data[other], data[index]
    return bytes(data)


def feed_chunked(rng: random.Random, parser: P.FrameParser, stream: bytes) -> None:
    pos = 0
    while pos < len(stream):
        size = rng.choice([1, 2, 5, 17, 64, 333, 4096])
        parser.feed(stream[pos:pos + size])
        pos += size


def test_mutated_stream_accepts_only_genuine_frames() -> None:
    rng = random.Random(0xB0A4D)
    parts: list[bytes] = []
    genuine: set[bytes] = set()
    intact: list[bytes] = []
    total = 0
    while total < FUZZ_BYTES:
        frame = random_frame(rng)
        genuine.add(frame)
        roll = rng.random()
        if roll < 0.4:
            piece = frame
            intact.append(frame)
        elif roll < 0.9:
            piece = mutate(rng, frame)
        else:
            piece = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
        parts.append(piece)
        total += len(piece)
    stream = b"".join(parts)
    accepted: list[bytes] = []
    parser = P.FrameParser(
        lambda kind, seq, fields: accepted.append(P.encode_frame(kind, seq, fields)))
    feed_chunked(rng, parser, stream)
    assert len(stream) >= FUZZ_BYTES
    assert set(accepted) <= genuine, "a damaged frame was accepted"
    missing = Counter(intact) - Counter(accepted)
    assert not missing, "an intact frame after damaged bytes was lost"
    assert parser.bad_frames > 0 and parser.pending < P.MAX_FRAME


def test_random_bytes_accept_nothing() -> None:
    rng = random.Random(99)
    stream = rng.randbytes(FUZZ_BYTES)
    # Random bytes with frame punctuation sprinkled in, so many lines look like frames.
    sprinkled = bytearray(stream)
    for _ in range(FUZZ_BYTES // 20):
        sprinkled[rng.randrange(len(sprinkled))] = rng.choice(b"$*\n ")
    for data in (stream, bytes(sprinkled)):
        messages: list[object] = []
        decoder = DeviceFrameDecoder(messages.append)
        feed_chunked(rng, decoder.parser, data)
        assert messages == []
        assert decoder.parser.pending < P.MAX_FRAME


@settings(max_examples=300 if FULL else 60, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=300),
                          st.sampled_from([P.encode_snap(1, 2), P.encode_ok(3, 4), b"$", b"*",
                                           b"\n", b"\r\n"])), max_size=40))
def test_any_bytes_never_crash(chunks: list[bytes]) -> None:
    messages: list[object] = []
    decoder = DeviceFrameDecoder(messages.append)
    for chunk in chunks:
        decoder.feed(chunk)
        assert decoder.parser.pending < P.MAX_FRAME
    genuine = {P.encode_snap(1, 2), P.encode_ok(3, 4)}
    assert len(messages) <= sum(1 for c in chunks if c in genuine) + 1

