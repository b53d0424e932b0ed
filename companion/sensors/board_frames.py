"""The reed-switch board's device frames as typed, frozen messages (host side).

:mod:`companion.sensors.protocol` is the framing shared with the firmware (plain
Python that MicroPython runs); this module turns its verified frames into
messages for the host and maps the game's :class:`LedHint` to an LED pattern.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable

import chess

from companion.sensors import protocol
from companion.sensors.source import LedHint

LOGGER = logging.getLogger(__name__)

# LED colours for the game's hints (a square in several sets takes the first).
TURN_COLOR = "C"
FIX_COLOR = "R"
TARGET_COLOR = "G"
LAST_MOVE_COLOR = "B"


@dataclasses.dataclass(frozen=True)
class Hello:
    """The device introduced itself (at boot and in answer to HI)."""

    seq: int
    protocol: int
    firmware: str
    board_id: str
    capabilities: tuple[str, ...]
    scan_hz: int
    debounce: int
    boot: str = ""  # names the power-up; "" from firmware 1.0
    session: str = ""  # the sid of the HI this answers; "" when sent at boot
    rotation: int = 0  # 180: the board sits turned round (White at the wiring's rank 8)


@dataclasses.dataclass(frozen=True)
class Snap:
    """The device's settled occupancy changed (or was asked for)."""

    seq: int
    mask: int


@dataclasses.dataclass(frozen=True)
class Beat:
    """The once-a-second heartbeat, repeating the settled occupancy."""

    seq: int
    uptime_s: int
    mask: int
    scans_per_s: int


@dataclasses.dataclass(frozen=True)
class SelfTestReport:
    """A self-test result: stuck and dead switches by square, shorted columns."""

    seq: int
    stuck: chess.SquareSet
    dead: chess.SquareSet
    checked: chess.SquareSet
    columns_low: int

    @property
    def passed(self) -> bool:
        return not self.stuck and not self.dead and not self.columns_low

    def describe(self) -> str:
        """A short human report naming every faulty square."""
        lines = [f"checked {len(self.checked)} squares"]
        if self.columns_low:
            files = [chess.FILE_NAMES[f] for f in range(8) if self.columns_low & (1 << f)]
            lines.append("columns reading closed with every row idle (short to ground): "
                         + ", ".join(files))
        if self.stuck:
            lines.append("stuck closed: " + ", ".join(chess.square_name(s) for s in self.stuck))
        if self.dead:
            lines.append("never closed (dead): "
                         + ", ".join(chess.square_name(s) for s in self.dead))
        if self.passed:
            lines.append("all switches good")
        return "\n".join(lines)


@dataclasses.dataclass(frozen=True)
class Ack:
    """The device carried out the host's command ``host_seq``."""

    seq: int
    host_seq: int


@dataclasses.dataclass(frozen=True)
class DeviceError:
    """The device refused a command (``host_seq`` -1 when it could not read one)."""

    seq: int
    code: str
    host_seq: int
    detail: str


DeviceMessage = Hello | Snap | Beat | SelfTestReport | Ack | DeviceError


def decode_device_frame(kind: str, seq: int, fields: list[str]) -> DeviceMessage:
    """A verified frame as a message.

    Raises :class:`protocol.FrameError` for an unknown kind or bad fields.
    """
    if kind == protocol.SNAP:
        return Snap(seq, protocol.decode_snap(fields))
    if kind == protocol.BEAT:
        uptime, mask, rate = protocol.decode_beat(fields)
        return Beat(seq, uptime, mask, rate)
    if kind == protocol.HELLO:
        proto, firmware, board_id, caps, scan_hz, debounce = protocol.decode_hello(fields)
        boot, session, rotation = protocol.decode_hello_session(fields)
        return Hello(seq, proto, firmware, board_id, tuple(caps), scan_hz, debounce, boot,
                     session, rotation)
    if kind == protocol.TEST:
        stuck, dead, checked, columns = protocol.decode_test(fields)
        return SelfTestReport(seq, chess.SquareSet(stuck), chess.SquareSet(dead),
                          chess.SquareSet(checked), columns)
    if kind == protocol.OK:
        return Ack(seq, protocol.decode_ok(fields))
    if kind == protocol.ERR:
        code, host_seq, detail = protocol.decode_err(fields)
        return DeviceError(seq, code, host_seq, detail)
    raise protocol.FrameError(f"unknown device frame kind {kind!r}")


class DeviceFrameDecoder:
    """Bytes from the device in, typed messages out (pure; any chunking).

    Frames failing the CRC or the grammar are counted and dropped, never passed on.
    """

    def __init__(self, on_message: Callable[[DeviceMessage], None]) -> None:
        self.on_message = on_message
        self.parser = protocol.FrameParser(self._on_frame)
        self.rejected = 0  # CRC good, but an unknown kind or bad fields

    def feed(self, data: bytes) -> None:
        self.parser.feed(data)

    @property
    def bad_frames(self) -> int:
        return self.parser.bad_frames + self.rejected

    def _on_frame(self, kind: str, seq: int, fields: list[str]) -> None:
        try:
            message = decode_device_frame(kind, seq, fields)
        except protocol.FrameError as error:
            self.rejected += 1
            LOGGER.debug("dropped a %s frame: %s", kind, error)
            return
        self.on_message(message)


def led_pattern(hint: LedHint) -> str:
    """The 64-square LED pattern for a hint: the companion's turn to make cyan, fix red,
    targets green, last move blue."""
    chars = []
    for square in chess.SQUARES:
        if square in hint.turn:
            chars.append(TURN_COLOR)
        elif square in hint.fix:
            chars.append(FIX_COLOR)
        elif square in hint.targets:
            chars.append(TARGET_COLOR)
        elif square in hint.last_move:
            chars.append(LAST_MOVE_COLOR)
        else:
            chars.append(protocol.LED_OFF)
    return "".join(chars)
