"""The host reader against a scripted fake board: handshake, validation, resync, LEDs."""

from __future__ import annotations

import dataclasses

import chess
import pytest
from board_test_helpers import FakeDevice, Recorder, eventually, hello_then_snap

from companion.sensors import BoardSnapshot, BoardSource, LedHint, open_board_source
from companion.sensors import protocol as P
from companion.sensors.board_frames import led_pattern
from companion.sensors.serial_board import (
    PICO_VID,
    SerialBoardReader,
    find_board_ports,
    open_board,
)

FAST = {"settle_s": 0.05, "handshake_s": 0.3, "silence_s": 1.0, "reconnect_s": 0.05,
        "ack_s": 0.3}


@dataclasses.dataclass
class Port:
    device: str
    vid: int | None
    pid: int | None


def test_open_board_source_reaches_the_serial_reader() -> None:
    source = open_board_source("serial:/dev/ttyACM7")
    assert isinstance(source, SerialBoardReader)
    assert source.port == "/dev/ttyACM7" and source.name == "serial:/dev/ttyACM7"
    assert isinstance(open_board(""), SerialBoardReader)
    reader: BoardSource = source  # the protocol is satisfied statically too
    assert reader.name


def test_autodetect_picks_the_pico_by_usb_id() -> None:
    ports = [Port("/dev/ttyUSB0", 0x0403, 0x6001), Port("/dev/ttyACM1", PICO_VID, 0x000A),
             Port("/dev/ttyACM0", PICO_VID, 0x0005), Port("/dev/ttyS0", None, None)]
    assert find_board_ports(lambda: ports) == ["/dev/ttyACM0", "/dev/ttyACM1"]
    assert find_board_ports(lambda: ports[:1]) == []


def test_autodetect_connects_and_reports_a_missing_board(fake_device: FakeDevice,
                                                         recorder: Recorder) -> None:
    fake_device.on_command = hello_then_snap(0xFF)
    listed: list[Port] = []
    reader = SerialBoardReader("", config_fast(), ports=lambda: list(listed))
    reader.start(recorder.on_snapshot, recorder.on_status)
    try:
        assert recorder.wait_status(False)
        assert "no board found" in recorder.statuses[0].message
        assert "2E8A" in recorder.statuses[0].message
        listed.append(Port(fake_device.port, PICO_VID, 0x0005))
        assert recorder.wait_snapshot(0xFF)
        snapshot = recorder.snapshots[0]
        assert snapshot.colors is None and snapshot.source == "serial"
    finally:
        reader.stop()


def config_fast():
    from companion.sensors.serial_board import ReaderConfig
    return ReaderConfig(**FAST)  # type: ignore[arg-type]


def test_handshake_then_settled_snapshot(fake_device: FakeDevice, recorder: Recorder,
                                         reader_for) -> None:
    fake_device.on_command = hello_then_snap(0x1000EF00)
    reader = reader_for(fake_device.port, recorder, **FAST)
    hello = reader.wait_connected(10)
    assert hello is not None and hello.board_id == "FAKE"
    assert recorder.wait_snapshot(0x1000EF00)
    assert recorder.statuses[0].connected and "FAKE" in recorder.statuses[0].message
    assert fake_device.kinds()[:2] == ["HI", "GET"]


def test_wrong_protocol_version_is_named_and_never_reports(fake_device: FakeDevice,
                                                           recorder: Recorder,
                                                           reader_for) -> None:
    fake_device.on_command = hello_then_snap(0xFF, proto=2)
    reader_for(fake_device.port, recorder, **FAST)
    assert recorder.wait_status(False)
    message = recorder.statuses[-1].message
    assert "speaks protocol 2" in message and "firmware 9.0.0" in message
    assert "flash the firmware" in message
    assert recorder.snapshots == []


def test_damaged_frames_are_counted_and_never_acted_on(fake_device: FakeDevice,
                                                       recorder: Recorder, reader_for) -> None:
    fake_device.on_command = hello_then_snap(0x0F)
    reader = reader_for(fake_device.port, recorder, **FAST)
    assert recorder.wait_snapshot(0x0F)
    gets = fake_device.kinds().count("GET")
    # A frame repeating the last sequence number is a duplicate, whatever it says.
    seq = fake_device.next_seq()
    fake_device.send(P.encode_beat(seq, 1, 0x0F, 400))
    fake_device.send(P.encode_snap(seq, 0xAAAA))
    # A SNAP with a broken CRC, one with bad grammar, some noise.
    good = P.encode_snap(fake_device.next_seq(), 0xF0F0)
    fake_device.send(good[:12] + b"1" + good[13:])
    body = b"SNAP %02X 12345" % fake_device.next_seq()
    fake_device.send(b"$" + body + b"*%08X\n" % P.crc32(body))
    fake_device.send(b"\x00\xffnoise\r\n")
    # The lost frames show up as a sequence gap: the reader asks for a fresh snapshot.
    fake_device.send(P.encode_beat(fake_device.next_seq(), 5, 0x0F, 400))
    assert fake_device.wait_kind("GET", gets + 1)
    assert eventually(lambda: reader.stats().lost >= 2)
    stats = reader.stats()
    assert stats.bad_crc == 1 and stats.rejected == 1 and stats.duplicates == 1
    assert all(mask == 0x0F for mask in recorder.masks())


def test_heartbeat_mask_heals_a_lost_snapshot(fake_device: FakeDevice, recorder: Recorder,
                                              reader_for) -> None:
    fake_device.on_command = hello_then_snap(0x01)
    reader_for(fake_device.port, recorder, **FAST)
    assert recorder.wait_snapshot(0x01)
    fake_device.send(P.encode_beat(fake_device.next_seq(), 3, 0x03, 400))
    assert recorder.wait_snapshot(0x03)


def test_silent_board_is_dropped_and_reconnected(fake_device: FakeDevice, recorder: Recorder,
                                                 reader_for) -> None:
    fake_device.on_command = hello_then_snap(0x01)
    reader = reader_for(fake_device.port, recorder, **FAST)
    assert recorder.wait_snapshot(0x01)
    # No heartbeats: after silence_s the reader gives up the session and greets again.
    assert recorder.wait_status(False, after=1)
    assert "went silent" in recorder.statuses[1].message
    assert fake_device.wait_kind("HI", 2)
    assert eventually(lambda: reader.stats().connects >= 2)


def test_led_hint_is_sent_and_resent_until_acknowledged(fake_device: FakeDevice,
                                                        recorder: Recorder, reader_for) -> None:
    acked: list[int] = []

    def handle(device: FakeDevice, kind: str, seq: int, fields: list[str]) -> None:
        hello_then_snap(0)(device, kind, seq, fields)
        if kind == "LED" and len([k for k in device.kinds() if k == "LED"]) >= 2:
            acked.append(seq)
            device.send(P.encode_ok(device.next_seq(), seq))

    fake_device.on_command = handle
    reader = reader_for(fake_device.port, recorder, **FAST)
    assert reader.wait_connected(10)
    hint = LedHint(targets=chess.SquareSet([chess.E3, chess.E4]),
                   fix=chess.SquareSet([chess.E4, chess.D5]),
                   last_move=chess.SquareSet([chess.A1]))
    reader.show(hint)
    assert fake_device.wait_kind("LED", 2)  # the first was not acknowledged: sent again
    assert eventually(reader.leds_acknowledged)
    leds = [fields[0] for kind, _, fields in fake_device.received if kind == "LED"]
    assert leds[0] == leds[1] == led_pattern(hint)
    pattern = leds[0]
    assert pattern[chess.E4] == "R" and pattern[chess.D5] == "R"  # fix wins over target
    assert pattern[chess.E3] == "G" and pattern[chess.A1] == "B"
    assert pattern.count(".") == 60


def test_bad_led_pattern_is_refused() -> None:
    reader = SerialBoardReader("/dev/null")
    with pytest.raises(ValueError, match="colour 'Q' on square 0"):
        reader.set_leds("Q" + "." * 63)


def test_a_failing_listener_does_not_stop_the_reader(fake_device: FakeDevice,
                                                     recorder: Recorder, reader_for) -> None:
    fake_device.on_command = hello_then_snap(0x01)
    calls: list[int] = []

    def explode(snapshot) -> None:
        calls.append(snapshot.mask)
        if len(calls) == 1:
            raise RuntimeError("listener bug")
        recorder.on_snapshot(snapshot)

    reader = SerialBoardReader(fake_device.port, config_fast())
    reader.start(explode, recorder.on_status)
    try:
        assert eventually(lambda: calls == [0x01])
        fake_device.send(P.encode_beat(fake_device.next_seq(), 1, 0x03, 400))
        assert recorder.wait_snapshot(0x03)
        assert reader.stats().connects == 1
    finally:
        reader.stop()


def test_frame_protocol_works_with_pyserial_reader_thread() -> None:
    import serial
    import serial.threaded

    from companion.sensors.board_frames import Snap
    from companion.sensors.serial_board import FrameProtocol

    messages: list[object] = []
    port = serial.serial_for_url("loop://", timeout=0.05)
    with serial.threaded.ReaderThread(port, lambda: FrameProtocol(messages.append)) as proto:
        port.write(P.encode_snap(1, 0xF0) + b"noise\n" + P.encode_snap(2, 0x0F)[:-5] + b"\n")
        assert eventually(lambda: len(messages) == 1)
    assert messages == [Snap(1, 0xF0)]
    assert proto.decoder.bad_frames == 1


def test_same_led_pattern_is_not_resent(fake_device: FakeDevice, recorder: Recorder,
                                        reader_for) -> None:
    def handle(device: FakeDevice, kind: str, seq: int, fields: list[str]) -> None:
        hello_then_snap(0)(device, kind, seq, fields)
        if kind == "LED":
            device.send(P.encode_ok(device.next_seq(), seq))

    fake_device.on_command = handle
    reader = reader_for(fake_device.port, recorder, **FAST)
    assert reader.wait_connected(10)
    hint = LedHint(targets=chess.SquareSet([chess.C3]))
    for _ in range(5):
        reader.show(hint)
    assert eventually(reader.leds_acknowledged)
    reader.show(hint)
    reader.show(LedHint(fix=chess.SquareSet([chess.C3])))
    assert fake_device.wait_kind("LED", 2)
    assert eventually(reader.leds_acknowledged)
    leds = [fields[0][chess.C3] for kind, _, fields in fake_device.received if kind == "LED"]
    assert leds == ["G", "R"]


def test_every_debounced_change_reaches_sync_in_order(fake_device: FakeDevice,
                                                      recorder: Recorder, reader_for) -> None:
    """Issue 15, defect 6: a capture faster than the settling time (rook lifted,
    victim off, rook on) settles as "rook lifted"; the SNAPs in between go with it
    as its trail, so the order of lifts and set-downs is not lost."""
    fake_device.on_command = hello_then_snap(0x0F)
    reader_for(fake_device.port, recorder, **FAST)
    assert recorder.wait_snapshot(0x0F)
    for mask in (0x0E, 0x0C, 0x0E):
        fake_device.send(P.encode_snap(fake_device.next_seq(), mask))
    assert recorder.wait_for(lambda: recorder.snapshots[-1].mask == 0x0E
                             and 0x0C in _seen(recorder.snapshots))
    assert _seen(recorder.snapshots) == [0x0F, 0x0E, 0x0C, 0x0E]
    # Back where it settled, with a change in between: reported again, with its trail.
    count = len(recorder.snapshots)
    for mask in (0x0C, 0x0E):
        fake_device.send(P.encode_snap(fake_device.next_seq(), mask))
    assert recorder.wait_for(lambda: len(recorder.snapshots) > count
                             and recorder.snapshots[-1].mask == 0x0E)
    assert _seen(recorder.snapshots)[-3:] == [0x0E, 0x0C, 0x0E]


def _seen(snapshots: list[BoardSnapshot]) -> list[int]:
    """Every board the reader passed on, settled or in a trail, repeats merged."""
    masks: list[int] = []
    for snapshot in snapshots:
        for mask in [g.mask for g in snapshot.trail] + [snapshot.mask]:
            if not masks or masks[-1] != mask:
                masks.append(mask)
    return masks
