"""The host reader for the reed-switch board (a Pico on USB serial).

One thread owns the port: it finds the board (by the Pico's USB vendor id
unless a port is given), greets it and checks the protocol version, validates
every frame (CRC, grammar, sequence: bad frames are counted and dropped, never
acted on), notices a lost board (I/O error or missing heartbeats) and
reconnects with a full resync. A snapshot is reported only once the board has
held it for ``settle_s`` (hands and sliding pieces never reach the game).

Sequence numbers are checked both ways: a device frame that is not 1 to 127
ahead of the last one accepted (a replayed or reordered frame) is dropped, and
every connection greets the board with a new session id (``sid``), so the
board refuses the host's own replayed commands and a HELLO answering another
greeting is not taken for this one. See docs/protocol.md.
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import chess
import serial
import serial.threaded
from serial.tools import list_ports

from companion.sensors import protocol
from companion.sensors.board_frames import (
    Ack,
    Beat,
    DeviceError,
    DeviceFrameDecoder,
    DeviceMessage,
    Hello,
    SelfTestReport,
    Snap,
    led_pattern,
)
from companion.sensors.snapshot import TRAIL_LIMIT, BoardSnapshot, Glimpse
from companion.sensors.source import (
    BoardSource,
    BoardSourceError,
    LedHint,
    SnapshotCallback,
    SourceStatus,
    StatusCallback,
)

LOGGER = logging.getLogger(__name__)

PICO_VID = 0x2E8A  # Raspberry Pi
MICROPYTHON_PID = 0x0005  # MicroPython's CDC on the Pico
STALE_RUN_REGREET = 3  # stale device frames in a row before the host greets the board again


class SerialBoardError(BoardSourceError):
    """The board cannot be used: not found, wrong protocol version, a command refused."""


class _Disconnected(Exception):
    """The session with the board ended (internal)."""


@dataclasses.dataclass(frozen=True)
class ReaderConfig:
    """Timings of the reader, all in seconds."""

    settle_s: float = 0.25  # a snapshot must hold this long before it is reported
    handshake_s: float = 1.0  # wait for HELLO after HI (then HI again, 3 tries)
    silence_s: float = 3.5  # no frame for this long (3 heartbeats missed): disconnected
    reconnect_s: float = 0.5  # pause between connection attempts
    ack_s: float = 1.0  # resend an unacknowledged LED frame after this long
    poll_s: float = 0.01  # serial read timeout (the reader's tick)
    scan_hz: int = 0  # when set, configure the board's scan rate after the handshake
    debounce: int = 0  # when set, configure the board's debounce scans


@dataclasses.dataclass(frozen=True)
class ReaderStats:
    """Counters of the reader since it started."""

    frames: int
    bad_crc: int
    malformed: int
    overflow: int
    rejected: int
    lost: int
    duplicates: int
    stale: int  # device frames dropped as replayed or reordered (behind the window)
    device_errors: int
    connects: int
    reboots: int
    device_updates: int  # SNAP and BEAT frames accepted
    snap_frames: int  # of which SNAPs (every settled change the board saw)
    snapshots: int


class PortInfo(Protocol):
    """What the reader needs of ``serial.tools.list_ports`` entries."""

    device: str
    vid: int | None
    pid: int | None


def find_board_ports(ports: Callable[[], Sequence[PortInfo]] | None = None) -> list[str]:
    """Serial ports that look like a Pico (USB vendor 0x2E8A), MicroPython's first."""
    listed = list((ports or list_ports.comports)())
    boards = [p for p in listed if p.vid == PICO_VID]
    boards.sort(key=lambda p: (p.pid != MICROPYTHON_PID, p.device))
    return [p.device for p in boards]


class FrameProtocol(serial.threaded.Protocol):
    """pyserial framing class: bytes in, device messages out (usable with ReaderThread)."""

    def __init__(self, on_message: Callable[[DeviceMessage], None]) -> None:
        self.decoder = DeviceFrameDecoder(on_message)
        self.lost: BaseException | None = None

    def data_received(self, data: bytes) -> None:
        self.decoder.feed(data)

    def connection_lost(self, exc: BaseException | None) -> None:
        self.lost = exc


def new_session_id() -> str:
    """A fresh ``sid`` for a HI: 8 random upper-case hex digits."""
    return secrets.token_hex(4).upper()


class _Command:
    """A host command that waits for the board's OK (a rotation, maintenance)."""

    def __init__(self, build: Callable[[int], bytes], regreet: bool) -> None:
        self.build = build
        self.regreet = regreet  # greet again after the OK (a fresh HELLO shows the change)
        self.host_seq = -1
        self.sent_at = 0.0
        self.acked = False
        self.done = threading.Event()
        self.error = ""


class _SelfTestRequest:
    def __init__(self, ranks: int, sweep_ms: int) -> None:
        self.ranks = ranks
        self.sweep_ms = sweep_ms
        self.host_seq = -1
        self.acked = False
        self.done = threading.Event()
        self.report: SelfTestReport | None = None
        self.error = ""


class SerialBoardReader:
    """A :class:`BoardSource` for the reed-switch board on a serial port.

    ``port`` "" finds the board by USB id (again on every reconnect). Callbacks
    run on the reader thread. ``show``, ``set_leds`` and ``run_selftest`` may
    be called from any thread; the reader thread does the I/O.
    """

    def __init__(self, port: str = "", config: ReaderConfig | None = None, *,
                 ports: Callable[[], Sequence[PortInfo]] | None = None,
                 open_port: Callable[[str], Any] | None = None) -> None:
        self.port = port
        self.name = f"serial:{port}" if port else "serial"
        self.config = config or ReaderConfig()
        self._ports = ports
        self._open_port = open_port or self._default_open
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._connected = threading.Event()
        self._thread: threading.Thread | None = None
        self._on_snapshot: SnapshotCallback = lambda snapshot: None
        self._on_status: StatusCallback = lambda status: None
        self._last_status: SourceStatus | None = None
        self._protocol = FrameProtocol(self._on_message)
        # Outbox (guarded by _lock).
        self._leds: str | None = None  # what the board should show; None: never set
        self._leds_dirty = False
        self._leds_pending: tuple[int, float] | None = None
        self._selftests: list[_SelfTestRequest] = []
        self._commands: list[_Command] = []
        # Session state (reader thread only).
        self._serial: Any = None
        self._hello: Hello | None = None
        self._tx_seq = 0
        self._rx_seq: int | None = None  # kept across reconnects: the window survives them
        self._boot: str | None = None  # the board's power-up id, kept across reconnects
        self._session_id = ""
        self._regreet = False
        self._awaiting_hello = False  # a HI is out: its HELLO is taken whatever its number
        self._stale_run = 0
        self._active_command: _Command | None = None
        self._want_snapshot = False
        self._last_frame = 0.0
        self._pending_mask: int | None = None
        self._pending_since = 0.0
        self._reported_mask: int | None = None
        self._trail: list[Glimpse] = []   # boards seen since the last report, unsettled
        self._trailed: int | None = None  # the last board reported or put in the trail
        self._active_test: _SelfTestRequest | None = None
        # Counters.
        self._lost = 0
        self._duplicates = 0
        self._stale = 0
        self._device_errors = 0
        self._connects = 0
        self._reboots = 0
        self._device_updates = 0
        self._snap_frames = 0
        self._snapshots = 0

    # --- the BoardSource interface -------------------------------------------

    def start(self, on_snapshot: SnapshotCallback, on_status: StatusCallback) -> None:
        """Start the reader thread; snapshots and status changes arrive through the callbacks."""
        if self._thread is not None:
            raise SerialBoardError("the serial board reader is already started")
        self._on_snapshot = on_snapshot
        self._on_status = on_status
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="raindrop-serial-board",
                                        daemon=True)
        self._thread.start()

    def show(self, hint: LedHint) -> None:
        """Light the hint's squares on the board (sent now, and again after a reconnect)."""
        self.set_leds(led_pattern(hint))

    def stop(self) -> None:
        """Stop the thread and close the port."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        self._thread = None

    # --- more for the CLI ------------------------------------------------------

    def set_leds(self, pattern: str) -> None:
        """Show a raw 64-character pattern (:data:`protocol.LED_CHARS` per square, a1..h8)."""
        try:
            protocol.decode_led_pattern(pattern)
        except protocol.FrameError as error:
            raise SerialBoardError(str(error)) from error
        with self._lock:
            if pattern == self._leds and (self._leds_dirty or self._leds_pending is not None
                                          or self._connected.is_set()):
                return  # already shown, or on its way
            self._leds = pattern
            self._leds_dirty = True
            self._leds_pending = None

    def leds_acknowledged(self) -> bool:
        """Whether the board confirmed the latest LED pattern."""
        with self._lock:
            return not self._leds_dirty and self._leds_pending is None and self._connected.is_set()

    def wait_connected(self, timeout: float) -> Hello | None:
        """Block until the handshake is done; the board's HELLO, or None on timeout."""
        if self._connected.wait(timeout):
            return self._hello
        return None

    @property
    def hello(self) -> Hello | None:
        return self._hello if self._connected.is_set() else None

    def run_selftest(self, ranks: int = 0xFF, sweep_ms: int = 0,
                     timeout: float = 10.0) -> SelfTestReport:
        """Run the board's self-test on ``ranks`` (bit 0 = rank 1) and wait for its report.

        With ``sweep_ms`` > 0 the board also waits that long for a magnet to be
        swept over every square, and names the switches that never closed.
        """
        if not 0 < ranks <= 0xFF:
            raise SerialBoardError("the self-test needs at least one rank")
        request = _SelfTestRequest(ranks, sweep_ms)
        with self._lock:
            self._selftests.append(request)
        if not request.done.wait(timeout + sweep_ms / 1000):
            with self._lock:
                if request in self._selftests:
                    self._selftests.remove(request)
            raise SerialBoardError("the board did not report a self-test in time")
        if request.report is None:
            raise SerialBoardError(f"the board refused the self-test: {request.error}")
        return request.report

    def set_rotation(self, rotation: int, timeout: float = 10.0) -> Hello:
        """Tell the board how it sits (0, or 180: turned round); it keeps this across power-ups.

        Returns the board's HELLO after the change.
        """
        if rotation not in protocol.ROTATIONS:
            raise SerialBoardError(f"the rotation must be 0 or 180, not {rotation}")
        hello = self._need_capability("rot", "a rotation setting")
        self._run_command(_Command(lambda seq: protocol.encode_cfg(seq, rotation=rotation),
                                   regreet=True), timeout)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            hello = self.hello or hello
            if hello.rotation == rotation:
                return hello
            time.sleep(0.01)
        raise SerialBoardError("the board did not confirm its new rotation")

    def enter_maintenance(self, timeout: float = 10.0) -> str:
        """Restart the board into maintenance mode (for ``mpremote``); returns its id."""
        hello = self._need_capability("maint", "a maintenance command")
        board_id = hello.board_id
        self._run_command(_Command(lambda seq: protocol.encode_maint(seq, board_id),
                                   regreet=False), timeout)
        return board_id

    def _need_capability(self, capability: str, what: str) -> Hello:
        hello = self.hello
        if hello is None:
            raise SerialBoardError("the board is not connected")
        if capability not in hello.capabilities:
            raise SerialBoardError(f"board {hello.board_id} (firmware {hello.firmware}) has no "
                                   f"{what}: flash the firmware from this release")
        return hello

    def _run_command(self, command: _Command, timeout: float) -> None:
        with self._lock:
            self._commands.append(command)
        if not command.done.wait(timeout):
            with self._lock:
                if command in self._commands:
                    self._commands.remove(command)
            raise SerialBoardError("the board did not confirm the command in time")
        if command.error:
            raise SerialBoardError(f"the board refused the command: {command.error}")

    def stats(self) -> ReaderStats:
        """Counters: frames accepted and dropped (by reason), reconnects, snapshots."""
        parser = self._protocol.decoder.parser
        return ReaderStats(
            frames=parser.frames, bad_crc=parser.bad_crc, malformed=parser.malformed,
            overflow=parser.overflow, rejected=self._protocol.decoder.rejected,
            lost=self._lost, duplicates=self._duplicates, stale=self._stale,
            device_errors=self._device_errors,
            connects=self._connects, reboots=self._reboots,
            device_updates=self._device_updates, snap_frames=self._snap_frames,
            snapshots=self._snapshots,
        )

    # --- the reader thread ------------------------------------------------------

    def _default_open(self, port: str) -> Any:
        return serial.Serial(port, 115200, timeout=self.config.poll_s, write_timeout=1.0,
                             exclusive=True)

    def _status(self, connected: bool, message: str) -> None:
        status = SourceStatus(self.name, connected, message)
        if status != self._last_status:
            self._last_status = status
            LOGGER.info("%s: %s", self.name, message)
            try:
                self._on_status(status)
            except Exception:  # a listener's bug must not stop the board
                LOGGER.exception("%s: the status listener failed", self.name)

    def _pick_port(self) -> str:
        if self.port:
            return self.port
        found = find_board_ports(self._ports)
        if not found:
            raise _Disconnected(f"no board found (looking for USB vendor id {PICO_VID:04X}); "
                                "is it plugged in?")
        return found[0]

    def _run(self) -> None:
        while not self._stop.is_set():
            delay = self.config.reconnect_s
            try:
                port = self._pick_port()
                self._serial = self._open_port(port)
                try:
                    self._session(port)
                finally:
                    self._close()
            except _Disconnected as reason:
                self._status(False, str(reason))
            except SerialBoardError as error:  # wrong protocol: retry slowly
                self._status(False, str(error))
                delay = max(delay, 5.0)
            except (serial.SerialException, OSError) as error:
                self._status(False, f"board disconnected ({error}); reconnecting")
            except Exception as error:  # a bug here must not leave the game without a board
                LOGGER.exception("%s: reader error", self.name)
                self._status(False, f"reader error ({error!r}); reconnecting")
                delay = max(delay, 2.0)
            self._stop.wait(delay)
        self._status(False, "stopped")

    def _close(self) -> None:
        was_connected = self._connected.is_set()
        self._connected.clear()
        self._hello = None
        with self._lock:
            self._leds_pending = None
            # The board may have lost its LEDs (a power cut): send them again after a resync.
            self._leds_dirty = self._leds is not None
            active = self._active_test
            self._active_test = None
            command = self._active_command
            self._active_command = None
        if active is not None:
            active.error = "the board disconnected during the self-test"
            active.done.set()
        if command is not None:
            command.error = "the board disconnected before it confirmed the command"
            command.done.set()
        try:
            self._serial.close()
        except (serial.SerialException, OSError) as error:
            LOGGER.debug("closing the port: %s", error)
        self._serial = None
        self._protocol.connection_lost(None)
        if was_connected:
            LOGGER.info("%s: session closed", self.name)

    def _write(self, frame: bytes) -> None:
        self._serial.write(frame)

    def _next_tx(self) -> int:
        seq = self._tx_seq
        self._tx_seq = protocol.next_seq(seq)
        return seq

    def _session(self, port: str) -> None:
        """Handshake, then read until the board is lost or the reader stops."""
        ser = self._serial
        ser.reset_input_buffer()
        self._protocol.decoder.parser.reset()
        self._session_id = new_session_id()  # a new window on the board for this connection
        self._regreet = False
        self._stale_run = 0
        self._pending_mask = None
        self._reported_mask = None
        self._trail, self._trailed = [], None
        tries = 0
        deadline = 0.0
        while not self._stop.is_set():
            now = time.monotonic()
            if self._hello is None and now >= deadline:
                if tries == 3:
                    raise _Disconnected(f"no answer from a board on {port}; retrying")
                tries += 1
                self._greet()
                deadline = now + self.config.handshake_s
            data = ser.read(ser.in_waiting or 1)
            if data:
                self._protocol.data_received(data)
            if self._hello is not None and not self._connected.is_set():
                self._on_connected(port)
            if self._connected.is_set():
                now = time.monotonic()
                self._service(now)
                if now - self._last_frame > self.config.silence_s:
                    raise _Disconnected(f"board on {port} went silent; reconnecting")

    def _greet(self) -> None:
        self._awaiting_hello = True
        self._write(protocol.encode_hi(self._next_tx(), self._session_id))

    def _on_connected(self, port: str) -> None:
        hello = self._hello
        assert hello is not None
        if hello.protocol != protocol.PROTOCOL_VERSION:
            self._hello = None
            raise SerialBoardError(
                f"the board on {port} speaks protocol {hello.protocol} "
                f"(firmware {hello.firmware}); this companion speaks "
                f"{protocol.PROTOCOL_VERSION}: flash the firmware from this release "
                "(see firmware/README.md)")
        self._connects += 1
        self._connected.set()
        self._want_snapshot = True
        if self.config.scan_hz or self.config.debounce:
            self._write(protocol.encode_cfg(self._next_tx(), self.config.scan_hz,
                                            self.config.debounce))
        self._status(True, f"board {hello.board_id} (firmware {hello.firmware}) on {port}")

    def _service(self, now: float) -> None:
        """Send what the outbox holds, and report a snapshot once settled."""
        if self._regreet:
            self._regreet = False
            self._greet()
        if self._want_snapshot:
            self._want_snapshot = False
            self._write(protocol.encode_get(self._next_tx()))
        hello = self._hello
        has_leds = hello is not None and "leds" in hello.capabilities
        led_seq = -1
        with self._lock:  # take the pattern and mark it sent in one step: no update is lost
            if self._leds_dirty or (self._leds_pending is not None
                                    and now - self._leds_pending[1] > self.config.ack_s):
                self._leds_dirty = False
                self._leds_pending = None
                if has_leds and self._leds is not None:
                    led_seq = self._next_tx()
                    self._leds_pending = (led_seq, now)
            pattern = self._leds
            test = None
            if self._active_test is None and self._selftests:
                test = self._active_test = self._selftests.pop(0)
            command = self._active_command
            if command is None and self._commands:
                command = self._active_command = self._commands.pop(0)
            elif command is not None and (command.acked
                                          or now - command.sent_at <= self.config.ack_s):
                command = None  # confirmed, or still waiting for its OK
        if led_seq >= 0 and pattern is not None:
            self._write(protocol.encode_led(led_seq, pattern))
        if test is not None:
            test.host_seq = self._next_tx()
            self._write(protocol.encode_runtest(test.host_seq, test.ranks, test.sweep_ms))
        if command is not None:  # new, or unconfirmed for a while: (re)send with a new number
            command.host_seq = self._next_tx()
            command.sent_at = now
            self._write(command.build(command.host_seq))
        self._settle(now)

    def _settle(self, now: float) -> None:
        mask = self._pending_mask
        if mask is None or (mask == self._reported_mask and not self._trail):
            return
        if now - self._pending_since < self.config.settle_s:
            return
        self._reported_mask = mask
        self._snapshots += 1
        trail = tuple(self._trail)
        self._trail = []
        self._trailed = mask
        snapshot = BoardSnapshot(chess.SquareSet(mask), None, now, self.name, trail)
        try:
            self._on_snapshot(snapshot)
        except Exception:  # a listener's bug must not stop the board
            LOGGER.exception("%s: the snapshot listener failed", self.name)

    # --- messages from the board (reader thread) ----------------------------------

    def _on_message(self, message: DeviceMessage) -> None:
        self._last_frame = time.monotonic()
        if isinstance(message, Hello):
            self._on_hello(message)
            return
        if self._hello is None:
            return  # before the handshake: stale bytes from an earlier session
        if not self._check_seq(message.seq):
            return
        if isinstance(message, Snap | Beat):
            if isinstance(message, Snap):
                self._snap_frames += 1
            self._device_mask(message.mask)
        elif isinstance(message, Ack):
            self._on_ack(message)
        elif isinstance(message, SelfTestReport):
            self._on_report(message)
        elif isinstance(message, DeviceError):
            self._on_device_error(message)

    def _on_hello(self, hello: Hello) -> None:
        """A HELLO (re)starts the window on the board's numbers; a new boot id is a restart.

        The first HELLO answering this connection's latest HI (its ``sid``) is taken
        whatever its number; one answering another HI is stale; any other is taken
        unless it is behind the window of the same power-up (a replay).
        """
        ours = bool(hello.session) and hello.session == self._session_id
        last = self._rx_seq
        same_boot = bool(hello.boot) and hello.boot == self._boot
        behind = same_boot and last is not None and not protocol.seq_fresh(last, hello.seq)
        if (not ours and bool(hello.session)) or (behind and not (ours and self._awaiting_hello)):
            self._stale += 1
            LOGGER.info("%s: dropped a stale HELLO (seq %02X)", self.name, hello.seq)
            return
        if hello.boot:
            rebooted = self._connected.is_set() and hello.boot != self._boot
        else:  # firmware 1.0: no boot id; a HELLO at 0 or out of sequence is a restart
            rebooted = self._connected.is_set() and (
                hello.seq == 0 or last is None or protocol.seq_gap(last, hello.seq) != 0)
        self._hello = hello
        self._rx_seq = hello.seq
        self._stale_run = 0
        if ours:
            self._awaiting_hello = False
        if hello.boot:
            self._boot = hello.boot
            if not ours:
                self._regreet = True  # a board just powered up has no window for us yet
        if rebooted:
            self._reboots += 1
            LOGGER.warning("%s: the board restarted (firmware %s); resyncing",
                           self.name, hello.firmware)
            self._want_snapshot = True
            with self._lock:
                self._leds_dirty = True
                self._leds_pending = None

    def _check_seq(self, seq: int) -> bool:
        """Accept a frame 1 to SEQ_WINDOW - 1 ahead of the last one (lost frames: ask GET)."""
        last = self._rx_seq
        if last is None:
            self._rx_seq = seq
            return True
        ahead = protocol.seq_ahead(last, seq)
        if ahead == 0:
            self._duplicates += 1
            return False
        if ahead >= protocol.SEQ_WINDOW:  # behind: a replayed or reordered frame
            self._stale += 1
            self._stale_run += 1
            LOGGER.info("%s: dropped a stale frame (seq %02X after %02X)", self.name, seq, last)
            if self._stale_run >= STALE_RUN_REGREET:  # or the board's numbers jumped: resync
                self._stale_run = 0
                self._regreet = True
            return False
        self._stale_run = 0
        self._rx_seq = seq
        if ahead > 1:
            self._lost += ahead - 1
            LOGGER.info("%s: %d frame(s) lost; asking for a snapshot", self.name, ahead - 1)
            self._want_snapshot = True
        return True

    def _device_mask(self, mask: int) -> None:
        self._device_updates += 1
        if mask != self._pending_mask:
            # Every debounced change the board sent joins the trail of the next
            # snapshot: the order of lifts and set-downs too fast to settle.
            pending = self._pending_mask
            if pending is not None and pending != self._trailed:
                self._trail = [*self._trail[-(TRAIL_LIMIT - 1):],
                               Glimpse(pending, self._pending_since)]
                self._trailed = pending
            self._pending_mask = mask
            self._pending_since = time.monotonic()

    def _on_ack(self, ack: Ack) -> None:
        with self._lock:
            if self._active_test is not None and self._active_test.host_seq == ack.host_seq:
                self._active_test.acked = True
            if self._leds_pending is not None and self._leds_pending[0] == ack.host_seq:
                self._leds_pending = None
            command = self._active_command
            if command is not None and command.host_seq == ack.host_seq:
                self._active_command = None
                command.acked = True
                if command.regreet:
                    self._regreet = True
                command.done.set()

    def _on_report(self, report: SelfTestReport) -> None:
        with self._lock:
            test = self._active_test
            self._active_test = None
        if test is not None:
            test.report = report
            test.done.set()

    def _on_device_error(self, error: DeviceError) -> None:
        self._device_errors += 1
        LOGGER.warning("%s: the board refused a command: %s %s", self.name, error.code,
                       error.detail)
        # A damaged (crc) or refused-as-stale command was not carried out: send it again.
        resend = error.code in (protocol.ERR_CRC, protocol.ERR_STALE)
        if error.code == protocol.ERR_STALE:
            # The board's window is ahead of our numbers: a new session resets it.
            self._session_id = new_session_id()
            self._regreet = True
        with self._lock:
            if resend and self._leds_pending is not None:
                self._leds_dirty = True  # our LED frame may have been the damaged one
            if self._leds_pending is not None and self._leds_pending[0] == error.host_seq:
                self._leds_pending = None
            command = self._active_command
            if command is not None and (command.host_seq == error.host_seq or resend):
                self._active_command = None
                if resend:
                    self._commands.insert(0, command)
                    command = None
            else:
                command = None
            test = self._active_test
            if test is not None and test.host_seq == error.host_seq and not resend:
                self._active_test = None
            else:
                if resend and test is not None and not test.acked:
                    self._active_test = None  # the RUNTEST may have been damaged: send again
                    self._selftests.insert(0, test)
                test = None
        if command is not None:
            command.error = f"{error.code}: {error.detail}"
            command.done.set()
        if test is not None:
            test.error = f"{error.code}: {error.detail}"
            test.done.set()
        if error.code == protocol.ERR_CRC and test is None:
            self._want_snapshot = True


def open_board(argument: str) -> BoardSource:
    """The ``serial[:PORT]`` board source; no port: find the Pico by its USB id."""
    return SerialBoardReader(port=argument)
