"""The shared frame protocol: CRC, grammar, and the pure parser on recorded bytes."""

from __future__ import annotations

import binascii
import random
from pathlib import Path

import pytest

from companion.sensors import protocol as P

CAPTURE = Path(__file__).parent / "data" / "board_session.bin"


def collect(data: bytes, chunks: list[int] | None = None) -> tuple[P.FrameParser, list[tuple]]:
    frames: list[tuple] = []
    parser = P.FrameParser(lambda kind, seq, fields: frames.append((kind, seq, fields)))
    if chunks is None:
        parser.feed(data)
    else:
        pos = 0
        for size in chunks:
            parser.feed(data[pos:pos + size])
            pos += size
        parser.feed(data[pos:])
    return parser, frames


def test_crc_is_crc32_ieee_in_both_implementations() -> None:
    assert P.crc32(b"123456789") == 0xCBF43926
    assert P.crc32_pure(b"123456789") == 0xCBF43926
    rng = random.Random(7)
    for _ in range(200):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(80)))
        assert P.crc32_pure(data) == binascii.crc32(data) == P.crc32(data)


def test_frame_layout() -> None:
    frame = P.encode_snap(0x0A, 0xFFFF00000000FFFF)
    body = b"SNAP 0A FFFF00000000FFFF"
    assert frame == b"$" + body + b"*" + b"%08X" % binascii.crc32(body) + b"\n"


def test_recorded_session_decodes_the_same_in_any_chunking() -> None:
    data = CAPTURE.read_bytes()
    whole_parser, whole = collect(data)
    kinds = [kind for kind, _, _ in whole]
    assert kinds[0] == "HELLO" and kinds.count("SNAP") == 5 and "TEST" in kinds
    assert whole_parser.bad_frames == 0 and whole_parser.noise_bytes == 0
    assert [seq for _, seq, _ in whole] == list(range(2, 2 + len(whole)))
    rng = random.Random(2024)
    for _ in range(300):
        chunks = [rng.choice([1, 1, 2, 3, 7, 31, 64, 200]) for _ in range(rng.randrange(1, 400))]
        parser, frames = collect(data, chunks)
        assert frames == whole
        assert parser.bad_frames == 0


def test_recorded_session_contents() -> None:
    _, frames = collect(CAPTURE.read_bytes())
    hello = P.decode_hello(frames[0][2])
    assert hello == (1, "1.0.0", "E6614103E7452D2F", ["selftest", "wdt", "leds"], 400, 5)
    snaps = [P.decode_snap(fields) for kind, _, fields in frames if kind == "SNAP"]
    assert snaps[-1] == 0x000000001000EF00
    errors = [P.decode_err(fields) for kind, _, fields in frames if kind == "ERR"]
    assert errors[0] == ("arg", 4, "hz: 5000 is outside 50..2000")
    assert ("crc", -1, "frame dropped") in errors
    assert ("unknown", 7, "FOO") in errors


def test_noise_before_a_frame_and_crlf_are_tolerated() -> None:
    frame = P.encode_beat(3, 12, 0xFF, 400)
    parser, frames = collect(b"\x00\xff garbage $$ more" + frame[:-1] + b"\r\n")
    assert frames == [("BEAT", 3, ["12", "00000000000000FF", "400"])]
    assert parser.noise_bytes == len(b"\x00\xff garbage $$ more")
    assert parser.bad_frames == 0


def test_truncated_frame_is_dropped_and_the_next_one_read() -> None:
    good = P.encode_snap(1, 5)
    parser, frames = collect(good[:15] + b"\n" + good + good[:-3] + P.encode_snap(2, 6))
    assert [f[1] for f in frames] == [1, 2]
    assert parser.malformed == 1  # the first cut line; the second cut merges into noise


def test_every_single_byte_corruption_is_rejected() -> None:
    frame = P.encode_test(9, 1, 2, 0xFF, 0)
    for index in range(1, len(frame) - 1):
        for value in (0x00, 0x20, 0x2A, 0x30, 0x41, 0x7E, frame[index] ^ 0x01):
            if value == frame[index]:
                continue
            damaged = frame[:index] + bytes([value]) + frame[index + 1:]
            _, frames = collect(damaged)
            assert frames == [], damaged


def test_overlong_line_is_bounded_and_resyncs() -> None:
    frames: list[tuple] = []
    parser = P.FrameParser(lambda kind, seq, fields: frames.append((kind, seq, fields)))
    for _ in range(50):
        parser.feed(b"$" + b"A" * 99)
        assert parser.pending < P.MAX_FRAME
    parser.feed(P.encode_snap(4, 1))
    assert frames == [("SNAP", 4, ["0000000000000001"])]
    assert parser.overflow >= 20


def test_valid_crc_with_bad_grammar_is_malformed() -> None:
    for body in (b"snap 01 00", b"SNAP 1 00", b"SNAP 01  X", b"SNAP", b"SNAP 0G"):
        line = b"$" + body + b"*" + b"%08X" % binascii.crc32(body) + b"\n"
        parser, frames = collect(line)
        assert frames == [] and parser.malformed == 1, body


@pytest.mark.parametrize(("call", "message"), [
    (lambda: P.parse_mask("00FF"), "expected 16 hex digits"),
    (lambda: P.parse_mask("00000000000000ff"), "not upper-case hex"),
    (lambda: P.decode_cfg(["hz=10"]), "hz: 10 is outside 50..2000"),
    (lambda: P.decode_cfg(["speed=3"]), "unknown CFG key 'speed'"),
    (lambda: P.decode_cfg(["rot=90"]), "rot: 90 is not 0 or 180"),
    (lambda: P.decode_hi(["sid=12"]), "sid: expected 8 hex digits"),
    (lambda: P.decode_maint(["id="]), "MAINT must name the board"),
    (lambda: P.decode_led(["." * 10 + "X" + "." * 53]), "colour 'X' on square 10"),
    (lambda: P.decode_led(["." * 63]), "63 squares"),
    (lambda: P.decode_runtest(["00", "0"]), "names no rank"),
    (lambda: P.decode_snap([]), "SNAP takes 1 fields, got 0"),
    (lambda: P.parse_kv(["novalue"]), "expected key=value"),
    (lambda: P.encode_frame("SNAP", 1, ["two words"]), "bad field"),
    (lambda: P.encode_frame("SNAP", 1, ["x" * 300]), "exceeds"),
])
def test_grammar_errors_name_the_problem(call, message: str) -> None:
    with pytest.raises(P.FrameError, match=message):
        call()


def test_round_trips() -> None:
    assert P.decode_snap(P_fields(P.encode_snap(1, (1 << 64) - 1))) == (1 << 64) - 1
    assert P.decode_beat(P_fields(P.encode_beat(1, 99, 1 << 63, 401))) == (99, 1 << 63, 401)
    assert P.decode_test(P_fields(P.encode_test(1, 1, 2, 3, 0x81))) == (1, 2, 3, 0x81)
    assert P.decode_ok(P_fields(P.encode_ok(1, 0xFE))) == 0xFE
    assert P.decode_err(P_fields(P.encode_err(1, "arg", -1, "a  b"))) == ("arg", -1, "a b")
    assert P.decode_hi(P_fields(P.encode_hi(0))) == (P.PROTOCOL_VERSION, "")
    assert P.decode_hi(P_fields(P.encode_hi(0, "00C0FFEE"))) == (P.PROTOCOL_VERSION, "00C0FFEE")
    assert P.decode_cfg(P_fields(P.encode_cfg(1, 400, 6, 500))) == (400, 6, 500, -1)
    assert P.decode_cfg(P_fields(P.encode_cfg(1, debounce=3))) == (0, 3, 0, -1)
    assert P.decode_cfg(P_fields(P.encode_cfg(1, rotation=180))) == (0, 0, 0, 180)
    assert P.decode_cfg(P_fields(P.encode_cfg(1, rotation=0))) == (0, 0, 0, 0)
    hello = P_fields(P.encode_hello(3, "1.1.0", "ID", ["seq"], 400, 5, "0A0B0C0D", "00C0FFEE",
                                    180))
    assert P.decode_hello(hello) == (P.PROTOCOL_VERSION, "1.1.0", "ID", ["seq"], 400, 5)
    assert P.decode_hello_session(hello) == ("0A0B0C0D", "00C0FFEE", 180)
    old_hello = P_fields(P.encode_hello(3, "1.0.0", "ID", [], 400, 5))
    assert P.decode_hello_session(old_hello) == ("", "", 0)
    assert P.decode_maint(P_fields(P.encode_maint(4, "E6614103"))) == "E6614103"
    assert P.decode_runtest(P_fields(P.encode_runtest(1, 0x81, 30000))) == (0x81, 30000)
    pattern = "".join(P.LED_CHARS[i % len(P.LED_CHARS)] for i in range(64))
    assert P.decode_led(P_fields(P.encode_led(1, pattern))) == pattern


def test_sequence_arithmetic() -> None:
    assert P.next_seq(255) == 0
    assert P.seq_gap(255, 0) == 0
    assert P.seq_gap(10, 13) == 2
    assert P.seq_gap(10, 10) == 255
    assert P.seq_ahead(250, 3) == 9
    assert [P.seq_fresh(10, n) for n in (10, 11, 137, 138, 200, 9)] == [
        False, True, True, False, False, False]
    assert P.seq_fresh(200, 5) and not P.seq_fresh(5, 200)


def test_error_replies_always_fit_a_frame() -> None:
    for detail in ("x" * 1000, "y " * 500, "quoted 'a$b*c\x01é'"):
        frame = P.encode_err(255, P.ERR_ARG, 3, detail)
        assert len(frame) <= P.MAX_FRAME
        code, host_seq, text = P.decode_err(P_fields(frame))
        assert (code, host_seq) == ("arg", 3) and "$" not in text and "*" not in text
    assert P.decode_err(P_fields(P.encode_err(1, "arg", 3, "x" * 1000)))[2].endswith("..")
    assert len(P.encode_err(1, "arg", 3, "x" * 175)) == P.MAX_FRAME  # exactly full: not cut
    assert P.decode_err(P_fields(P.encode_err(1, "arg", 3, "x" * 175)))[2] == "x" * 175
    assert P.ranks_mask(0b10000001) == 0xFF000000000000FF


def P_fields(frame: bytes) -> list[str]:
    _, frames = collect(frame)
    assert len(frames) == 1
    return frames[0][2]
