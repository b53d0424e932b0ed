"""The platform's own speech for the companion's sentences: Android's text to speech
through plyer, the desktop's through pyttsx3 (espeak-ng), or silence with the reason."""

from __future__ import annotations

import logging
from typing import Any

from kivy.utils import platform

from companion.table.speech import NullSpeaker, desktop_speaker

LOGGER = logging.getLogger(__name__)


class PlyerSpeaker:
    """Speaks through plyer's ``tts`` (Android's text to speech)."""

    def __init__(self, tts: Any) -> None:
        self.tts = tts

    def say(self, text: str) -> None:
        self.tts.speak(message=text)


def platform_speaker() -> Any:
    """The speaker this platform has: plyer's on Android, pyttsx3's on a desktop, else a
    :class:`~companion.table.speech.NullSpeaker` whose ``reason`` says why there is none."""
    if platform == "android":
        try:
            from plyer import tts
        except ImportError as error:
            return NullSpeaker(f"no voice: plyer is not installed ({error})")
        return PlyerSpeaker(tts)
    return desktop_speaker()
