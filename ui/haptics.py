"""Haptic feedback: a short buzz for the table's events, where the platform has a
vibrator (Android, through plyer or pyjnius). Elsewhere (desktop, CI) nothing
happens: the missing vibrator is logged once at debug level.

The events are the sounds' (``ui.sound.SOUNDS``: flip, move, capture, check, end)
and ``illegal``, a touch the table refused. ``enabled`` (the settings' haptics
switch) turns them all off.
"""

from __future__ import annotations

import logging
from typing import Protocol

LOGGER = logging.getLogger(__name__)

# Pulse lengths in seconds: light for the everyday actions, longer for what matters.
PULSES: dict[str, float] = {
    "flip": 0.015,
    "move": 0.02,
    "capture": 0.035,
    "check": 0.06,
    "end": 0.12,
    "illegal": 0.05,
}
PRIORITY = ("end", "check", "illegal", "capture", "move", "flip")


class Vibrator(Protocol):
    """What a platform's vibrator does for us."""

    def vibrate(self, seconds: float) -> None: ...


class _Plyer:
    def __init__(self) -> None:
        from plyer import vibrator

        self._vibrator = vibrator

    def vibrate(self, seconds: float) -> None:
        self._vibrator.vibrate(time=seconds)


class _Jnius:
    """Android's Vibrator service through pyjnius (part of every Kivy Android build)."""

    def __init__(self) -> None:
        from jnius import autoclass

        activity = autoclass("org.kivy.android.PythonActivity").mActivity
        context = autoclass("android.content.Context")
        self._service = activity.getSystemService(context.VIBRATOR_SERVICE)
        if self._service is None or not self._service.hasVibrator():
            raise RuntimeError("this device has no vibrator")

    def vibrate(self, seconds: float) -> None:
        self._service.vibrate(int(seconds * 1000))


def platform_vibrator() -> Vibrator | None:
    """The platform's vibrator, or None where there is none (logged at debug level)."""
    from kivy.utils import platform

    if platform != "android":
        LOGGER.debug("no haptic feedback on %s", platform)
        return None
    for backend in (_Jnius, _Plyer):
        try:
            return backend()
        except Exception as error:  # any failure: no vibration, the game goes on
            LOGGER.debug("no vibrator through %s: %s", backend.__name__, error)
    return None


class Haptics:
    """Buzzes for the table's events (the vibrator is looked up on first use);
    nothing while ``enabled`` is False."""

    def __init__(self, vibrator: Vibrator | None = None, *, enabled: bool = True) -> None:
        self.enabled = enabled
        self._vibrator = vibrator
        self._looked_up = vibrator is not None
        self.felt: list[str] = []  # what was buzzed (or would have been without a vibrator)

    def _device(self) -> Vibrator | None:
        if not self._looked_up:
            self._looked_up = True
            self._vibrator = platform_vibrator()
        return self._vibrator

    def buzz(self, name: str) -> None:
        if name not in PULSES:
            raise ValueError(f"no haptic event {name!r} (known: {', '.join(PULSES)})")
        if not self.enabled:
            return
        self.felt.append(name)
        device = self._device()
        if device is None:
            return
        try:
            device.vibrate(PULSES[name])
        except Exception as error:  # a failing vibrator is not worth a crash
            LOGGER.debug("vibration failed: %s", error)

    def buzz_first(self, names: list[str]) -> None:
        """Of one action's events, buzz the one that matters most (as the sounds do)."""
        if names:
            self.buzz(min(names, key=PRIORITY.index))
