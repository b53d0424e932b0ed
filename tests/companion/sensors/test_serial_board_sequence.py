"""Sequence numbers both ways: the host drops replayed and reordered device frames, greets
the board with a session id per connection, and resyncs when the board calls a frame stale."""

from __future__ import annotations

from board_test_helpers import FakeDevice, Recorder, eventually

from companion.sensors import protocol as P

FAST = {"settle_s": 0.05, "handshake_s": 0.3, "silence_s": 1.0, "reconnect_s": 0.05,
        "ack_s": 0.3}
BOOT = "B0070001"


class ModernBoard:
    """A fake board that answers like firmware 1.1: HELLO with boot id, echoed sid, rot."""

    def __init__(self, device: FakeDevice, mask: int, boot: str = BOOT) -> None:
        self.device = device
        self.mask = mask
        self.boot = boot
        self.sessions: list[str] = []
        self.answer_hi = True
        self.stale_for: set[str] = set()  # command kinds to refuse as stale (once each)
        device.on_command = self.handle

    def hello(self, session: str) -> bytes:
        return P.encode_hello(self.device.next_seq(), "1.1.0", "FAKE", ["leds", "seq", "rot"],
                              400, 5, self.boot, session, 0)

    def handle(self, device: FakeDevice, kind: str, seq: int, fields: list[str]) -> None:
        if kind == "HI":
            session = P.decode_hi(fields)[1]
            self.sessions.append(session)
            if self.answer_hi:
                device.send(self.hello(session))
                device.send(P.encode_snap(device.next_seq(), self.mask))
        elif kind in self.stale_for:
            self.stale_for.discard(kind)
            device.send(P.encode_err(device.next_seq(), P.ERR_STALE, seq, "seq is not after"))
        elif kind == "GET":
            device.send(P.encode_snap(device.next_seq(), self.mask))
        elif kind == "LED":
            device.send(P.encode_ok(device.next_seq(), seq))


def test_replayed_and_reordered_device_frames_are_dropped(fake_device: FakeDevice,
                                                          recorder: Recorder,
                                                          reader_for) -> None:
    board = ModernBoard(fake_device, 0x0F)
    reader = reader_for(fake_device.port, recorder, **FAST)
    assert recorder.wait_snapshot(0x0F)
    old = [fake_device.next_seq() for _ in range(3)]
    for seq in old:  # three frames the host sees, in order: the board's settled changes
        fake_device.send(P.encode_snap(seq, 0x0F))
    # Replayed: the SNAP before those, and a BEAT from earlier, both with another board.
    fake_device.send(P.encode_snap(old[0], 0xFF00))
    fake_device.send(P.encode_beat((old[0] - 20) & 0xFF, 9, 0xFF00, 400))
    assert eventually(lambda: reader.stats().stale >= 2)
    # Reordered: frame n+2 arrives, then n+1 (late): the late one is stale.
    board.mask = 0x1F  # what a GET (asked for the lost n+1) now reads
    ahead, late = (old[-1] + 2) & 0xFF, (old[-1] + 1) & 0xFF
    fake_device.seq = (ahead + 1) & 0xFF
    fake_device.send(P.encode_snap(ahead, 0x1F))
    fake_device.send(P.encode_snap(late, 0xFF00))
    assert recorder.wait_snapshot(0x1F)
    assert eventually(lambda: reader.stats().stale >= 3)
    fake_device.send(P.encode_beat(fake_device.next_seq(), 10, 0x1F, 400))
    assert eventually(lambda: reader.stats().frames >= 10)
    assert 0xFF00 not in recorder.masks()
    assert board.sessions and all(len(s) == 8 for s in board.sessions)


def test_a_hello_answering_another_greeting_is_not_taken(fake_device: FakeDevice,
                                                         recorder: Recorder,
                                                         reader_for) -> None:
    board = ModernBoard(fake_device, 0x03)
    board.answer_hi = False
    reader = reader_for(fake_device.port, recorder, **FAST)
    assert fake_device.wait_kind("HI")
    # A HELLO answering some earlier greeting (another sid) cannot complete this handshake.
    fake_device.send(P.encode_hello(fake_device.next_seq(), "1.1.0", "OLD", ["seq"], 400, 5,
                                    BOOT, "DEADBEEF", 0))
    fake_device.send(P.encode_snap(fake_device.next_seq(), 0xFF))
    assert eventually(lambda: reader.stats().stale >= 1)
    assert reader.hello is None
    board.answer_hi = True
    hello = reader.wait_connected(10)
    assert hello is not None and hello.board_id == "FAKE" and hello.session == board.sessions[-1]
    assert recorder.wait_snapshot(0x03)
    assert 0xFF not in recorder.masks()


def test_the_window_survives_a_reconnect(fake_device: FakeDevice, recorder: Recorder,
                                         reader_for) -> None:
    board = ModernBoard(fake_device, 0x01)
    reader = reader_for(fake_device.port, recorder, **FAST)
    assert recorder.wait_snapshot(0x01)
    first_session = board.sessions[-1]
    before_gap = fake_device.next_seq()
    fake_device.send(P.encode_snap(before_gap, 0x01))
    # The board goes silent; the reader reconnects with a new session id ...
    assert recorder.wait_status(False, after=1)
    assert eventually(lambda: reader.stats().connects >= 2)
    assert board.sessions[-1] != first_session
    # ... and a frame from before the reconnect, replayed now, is still stale; so is a
    # replay of the board's power-up HELLO (same boot, behind the window): no restart.
    fake_device.send(P.encode_snap(before_gap, 0xF0))
    fake_device.send(P.encode_hello(before_gap, "1.1.0", "FAKE", ["seq"], 400, 5, BOOT, "", 0))
    fake_device.send(P.encode_beat(fake_device.next_seq(), 3, 0x01, 400))
    assert eventually(lambda: reader.stats().stale >= 2)
    assert reader.stats().reboots == 0
    assert 0xF0 not in recorder.masks()


def test_a_new_boot_id_is_a_restart_and_gets_a_new_greeting(fake_device: FakeDevice,
                                                           recorder: Recorder,
                                                           reader_for) -> None:
    board = ModernBoard(fake_device, 0x01)
    reader = reader_for(fake_device.port, recorder, **FAST)
    assert recorder.wait_snapshot(0x01)
    greetings = fake_device.kinds().count("HI")
    board.boot = "B0070002"
    board.mask = 0x02
    fake_device.seq = 0
    fake_device.send(board.hello(""))  # the watchdog fired: HELLO at power-up, no session
    assert eventually(lambda: reader.stats().reboots == 1)
    assert fake_device.wait_kind("HI", greetings + 1)  # the board learns our session again
    assert recorder.wait_snapshot(0x02)


def test_a_command_the_board_calls_stale_is_sent_again_in_a_new_session(
        fake_device: FakeDevice, recorder: Recorder, reader_for) -> None:
    board = ModernBoard(fake_device, 0x01)
    board.stale_for = {"LED"}
    reader = reader_for(fake_device.port, recorder, **FAST)
    assert recorder.wait_snapshot(0x01)
    reader.set_leds("G" * 64)
    assert eventually(reader.leds_acknowledged)
    assert fake_device.kinds().count("LED") == 2
    assert len(set(board.sessions)) == 2  # greeted again with a fresh session id
    assert reader.stats().device_errors == 1


def test_a_replayed_answer_to_our_greeting_does_not_move_the_window_back(
        fake_device: FakeDevice, recorder: Recorder, reader_for) -> None:
    board = ModernBoard(fake_device, 0x01)
    reader = reader_for(fake_device.port, recorder, **FAST)
    assert recorder.wait_snapshot(0x01)
    assert eventually(lambda: reader.hello is not None and bool(reader.hello.session))
    answer = reader.hello
    assert answer is not None
    middle = fake_device.next_seq()
    fake_device.send(P.encode_snap(middle, 0x01))
    for _ in range(3):
        fake_device.send(P.encode_beat(fake_device.next_seq(), 2, 0x01, 400))
    assert eventually(lambda: reader.stats().device_updates >= 5)
    # The HELLO that answered our HI, replayed, then a SNAP from just after it.
    fake_device.send(P.encode_hello(answer.seq, "1.1.0", "FAKE", ["seq"], 400, 5, BOOT,
                                    answer.session, 0))
    fake_device.send(P.encode_snap(middle, 0xF000))
    fake_device.send(P.encode_beat(fake_device.next_seq(), 3, 0x01, 400))
    assert eventually(lambda: reader.stats().stale >= 2)
    assert 0xF000 not in recorder.masks() and reader.stats().reboots == 0
    assert board.sessions
