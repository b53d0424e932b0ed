"""Speaking the companion's sentences: off by default, never in the game's way.

A :class:`Speaker` says one sentence (``say(text)``). :class:`FakeSpeaker` records them
(tests check the words the screen shows are the ones spoken); :class:`Pyttsx3Speaker`
speaks on a desktop through pyttsx3 (espeak-ng on Linux, where installed);
:class:`NullSpeaker` stays silent and says once why (:attr:`NullSpeaker.reason`). The app
adds Android's speaker (through plyer) behind the same protocol.

:class:`SpeechQueue` puts any speaker on its own thread: ``say`` returns at once, and
sentences are spoken in order, so speaking never blocks the game.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any, Protocol

LOGGER = logging.getLogger(__name__)

QUEUE_LIMIT = 32
"""Sentences waiting at most; older ones are dropped when the speaker falls behind."""


class Speaker(Protocol):
    """Something that speaks a sentence (it may take its time: :class:`SpeechQueue`)."""

    def say(self, text: str) -> None: ...


class FakeSpeaker:
    """Records every sentence, in order (tests)."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self._lock = threading.Lock()

    def say(self, text: str) -> None:
        with self._lock:
            self.said.append(text)


class NullSpeaker:
    """Silence, with the reason there is no voice (shown once by the front end)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def say(self, text: str) -> None:
        LOGGER.debug("not spoken (%s): %s", self.reason, text)


class Pyttsx3Speaker:
    """The desktop's voice through pyttsx3 (espeak-ng on Linux). Build it with
    :func:`desktop_speaker`, which checks the engine starts."""

    def __init__(self, engine: Any) -> None:
        self._engine = engine

    def say(self, text: str) -> None:
        self._engine.say(text)
        self._engine.runAndWait()

    def save(self, text: str, path: str) -> None:
        """Speak ``text`` into a sound file (checking a voice without speakers)."""
        self._engine.save_to_file(text, path)
        self._engine.runAndWait()


def desktop_speaker(*, rate: int | None = None) -> Pyttsx3Speaker | NullSpeaker:
    """pyttsx3's voice, or a :class:`NullSpeaker` saying why there is none (pyttsx3 not
    installed, no speech engine such as espeak-ng on this machine)."""
    try:
        import pyttsx3
    except ImportError:
        return NullSpeaker("no voice: pyttsx3 is not installed (pip install -e '.[voice]')")
    try:
        engine = pyttsx3.init()
        if rate is not None:
            engine.setProperty("rate", rate)
    except Exception as error:  # pyttsx3 raises whatever its driver raises
        return NullSpeaker(f"no voice: the speech engine did not start ({error}; on Linux, "
                           f"install espeak-ng)")
    return Pyttsx3Speaker(engine)


class SpeechQueue:
    """Speaks through ``speaker`` on its own thread; ``say`` never waits."""

    def __init__(self, speaker: Speaker, *, on_error: Callable[[str], None] | None = None
                 ) -> None:
        self.speaker = speaker
        self._on_error = on_error
        self._queue: queue.Queue[str | None] = queue.Queue(QUEUE_LIMIT)
        self._thread = threading.Thread(target=self._run, name="speech", daemon=True)
        self._thread.start()
        self._failed = False

    def say(self, text: str) -> None:
        if not text.strip() or self._failed:
            return
        try:
            self._queue.put_nowait(text)
        except queue.Full:
            LOGGER.info("speech falls behind: a sentence dropped")

    def close(self, *, wait: float = 0.0) -> None:
        """Stop after the sentences queued (waiting up to ``wait`` seconds for them)."""
        try:
            self._queue.put(None, timeout=max(wait, 0.1))
        except queue.Full:
            return
        if wait > 0:
            self._thread.join(wait)

    def _run(self) -> None:
        while True:
            text = self._queue.get()
            if text is None:
                return
            try:
                self.speaker.say(text)
            except Exception as error:  # a voice failing must never stop the game
                LOGGER.exception("speaking failed")
                self._failed = True
                if self._on_error is not None:
                    self._on_error(f"the voice stopped: {error}")
                return
