"""Helpers for the serial board tests: a scripted fake device, a noisy cable, a recorder."""

from __future__ import annotations

import contextlib
import os
import random
import select
import threading
import time
import tty
from collections.abc import Callable

from companion.sensors import BoardSnapshot, SourceStatus
from companion.sensors import protocol as P

WAIT = 15.0  # generous: waiting is for events, never a timing assertion


def eventually(predicate: Callable[[], bool], timeout: float = WAIT) -> bool:
    """Poll ``predicate`` until it holds (a wait for an event, not a timing assertion)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()


class Recorder:
    """Collects what a reader reports, with waits for tests."""

    def __init__(self) -> None:
        self.snapshots: list[BoardSnapshot] = []
        self.statuses: list[SourceStatus] = []
        self._cond = threading.Condition()

    def on_snapshot(self, snapshot: BoardSnapshot) -> None:
        with self._cond:
            self.snapshots.append(snapshot)
            self._cond.notify_all()

    def on_status(self, status: SourceStatus) -> None:
        with self._cond:
            self.statuses.append(status)
            self._cond.notify_all()

    def masks(self) -> list[int]:
        with self._cond:
            return [s.mask for s in self.snapshots]

    def wait_for(self, predicate: Callable[[], bool], timeout: float = WAIT) -> bool:
        with self._cond:
            return self._cond.wait_for(predicate, timeout)

    def wait_snapshot(self, mask: int, timeout: float = WAIT) -> bool:
        return self.wait_for(lambda: bool(self.snapshots) and self.snapshots[-1].mask == mask,
                             timeout)

    def wait_status(self, connected: bool, after: int = 0, timeout: float = WAIT) -> bool:
        return self.wait_for(
            lambda: any(s.connected == connected for s in self.statuses[after:]), timeout)


class FakeDevice:
    """A scripted board on a pty: the test decides every byte it sends."""

    def __init__(self) -> None:
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.port = os.ttyname(slave)
        os.close(slave)
        self.received: list[tuple[str, int, list[str]]] = []
        self.seq = 0
        self.on_command: Callable[[FakeDevice, str, int, list[str]], None] = lambda *a: None
        self._parser = P.FrameParser(self._frame)
        self._cond = threading.Condition()
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _frame(self, kind: str, seq: int, fields: list[str]) -> None:
        with self._cond:
            self.received.append((kind, seq, fields))
            self._cond.notify_all()
        self.on_command(self, kind, seq, fields)

    def _run(self) -> None:
        while not self._stop:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self.master, 4096)
            except OSError:  # the host closed its end; it may open it again
                time.sleep(0.01)
                continue
            self._parser.feed(data)

    def send(self, frame: bytes) -> None:
        os.write(self.master, frame)

    def next_seq(self) -> int:
        seq = self.seq
        self.seq = P.next_seq(seq)
        return seq

    def kinds(self) -> list[str]:
        with self._cond:
            return [k for k, _, _ in self.received]

    def wait_kind(self, kind: str, count: int = 1, timeout: float = WAIT) -> bool:
        with self._cond:
            return self._cond.wait_for(
                lambda: sum(1 for k, _, _ in self.received if k == kind) >= count, timeout)

    def close(self) -> None:
        self._stop = True
        self._thread.join(timeout=2)
        os.close(self.master)


def hello_then_snap(mask: int, proto: int = P.PROTOCOL_VERSION):
    """A fake device's command handler: answer HI with HELLO, GET with SNAP."""

    def handle(device: FakeDevice, kind: str, seq: int, fields: list[str]) -> None:
        if kind == "HI" and proto == P.PROTOCOL_VERSION:
            device.send(P.encode_hello(device.next_seq(), "1.0.0", "FAKE", ["leds"], 400, 5))
        elif kind == "HI":
            device.send(P.encode_frame("HELLO", device.next_seq(),
                                       [f"proto={proto}", "fw=9.0.0", "id=FAKE"]))
        elif kind == "GET":
            device.send(P.encode_snap(device.next_seq(), mask))

    return handle


class NoisyCable:
    """Relays bytes between the board's pty and a new pty the host opens, damaging them.

    Each byte is corrupted with probability ``rate`` (a flipped bit, a dropped
    byte, or a burst of garbage), in both directions, from a seeded RNG.
    """

    def __init__(self, board_port: str, rate: float, seed: int = 1) -> None:
        self.rate = rate
        self.rng = random.Random(seed)
        self.damaged = 0
        self.board = os.open(board_port, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.board)
        self.host, slave = os.openpty()
        tty.setraw(slave)
        self.port = os.ttyname(slave)
        os.close(slave)
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _damage(self, data: bytes) -> bytes:
        out = bytearray()
        for byte in data:
            if self.rng.random() >= self.rate:
                out.append(byte)
                continue
            self.damaged += 1
            kind = self.rng.randrange(3)
            if kind == 0:
                out.append(byte ^ (1 << self.rng.randrange(8)))
            elif kind == 2:
                out.extend(self.rng.randbytes(self.rng.randrange(1, 12)))
        return bytes(out)

    def _run(self) -> None:
        while not self._stop:
            ready, _, _ = select.select([self.board, self.host], [], [], 0.05)
            for fd in ready:
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    time.sleep(0.01)
                    continue
                target = self.host if fd == self.board else self.board
                with contextlib.suppress(OSError):
                    os.write(target, self._damage(data))

    def close(self) -> None:
        self._stop = True
        self._thread.join(timeout=2)
        os.close(self.board)
        os.close(self.host)
