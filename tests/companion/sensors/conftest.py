"""Fixtures for the serial board tests (helpers live in board_test_helpers.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from board_test_helpers import FakeDevice, Recorder

from companion.sensors.firmware_sim import SimOptions, SimulatedBoard
from companion.sensors.serial_board import ReaderConfig, SerialBoardReader


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def fake_device() -> Iterator[FakeDevice]:
    device = FakeDevice()
    yield device
    device.close()


@pytest.fixture
def sim_board() -> Iterator[Callable[..., SimulatedBoard]]:
    boards: list[SimulatedBoard] = []

    def make(**options: object) -> SimulatedBoard:
        board = SimulatedBoard(SimOptions(**options))  # type: ignore[arg-type]
        board.start()
        boards.append(board)
        return board

    yield make
    for board in boards:
        board.close()


@pytest.fixture
def reader_for() -> Iterator[Callable[..., SerialBoardReader]]:
    readers: list[SerialBoardReader] = []

    def make(port: str, recorder: Recorder, **config: object) -> SerialBoardReader:
        reader = SerialBoardReader(port, ReaderConfig(**config))  # type: ignore[arg-type]
        reader.start(recorder.on_snapshot, recorder.on_status)
        readers.append(reader)
        return reader

    yield make
    for reader in readers:
        reader.stop()
