"""The time the terminal games run on: the real monotonic clock, or, with
``RAINDROP_FAKE_CLOCK`` set (scripts and tests), a clock that moves only by the hidden
``_wait SECONDS`` command. Shared by ``raindrop play`` and ``raindrop resume`` for every game."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable

LOGGER = logging.getLogger(__name__)

ENV_FAKE_CLOCK = "RAINDROP_FAKE_CLOCK"


class FakeClock:
    """Time that passes only by the hidden ``_wait SECONDS`` command (tests)."""

    def __init__(self) -> None:
        self.value = 0.0

    def __call__(self) -> float:
        return self.value


def make_now() -> tuple[Callable[[], float], FakeClock | None]:
    """The clock to play on, and the fake one when it is fake (to advance it)."""
    if os.environ.get(ENV_FAKE_CLOCK):
        fake = FakeClock()
        return fake, fake
    return time.monotonic, None
