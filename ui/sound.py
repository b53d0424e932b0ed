"""The table's sounds: a card flip, a piece put down, a capture, check, the end, and a
refused touch (the abstract games' "illegal").

The sounds are made here, not shipped: each is a few tones with a short envelope,
written once as a small WAV file (16-bit mono, 22 kHz, under 20 kB) into the data
folder's ``sounds`` and played through Kivy's audio. Where the platform has no audio,
the game goes on silently. ``muted`` (the settings' sound switch) silences them all.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import struct
import wave
from pathlib import Path
from typing import Any

LOGGER = logging.getLogger(__name__)

RATE = 22050
PRIORITY = ("end", "check", "capture", "move", "flip", "illegal")


@dataclasses.dataclass(frozen=True)
class Tone:
    """One note of a sound: ``frequency`` Hz (0: a noise burst), from ``start`` for
    ``length`` seconds, at ``volume`` (0-1), decaying at ``decay`` per second."""

    frequency: float
    start: float
    length: float
    volume: float = 0.6
    decay: float = 12.0


SOUNDS: dict[str, tuple[Tone, ...]] = {
    "flip": (Tone(0, 0.0, 0.06, 0.35, 60.0), Tone(1400, 0.0, 0.05, 0.15, 70.0)),
    "move": (Tone(220, 0.0, 0.09, 0.7, 45.0), Tone(440, 0.0, 0.05, 0.2, 60.0)),
    "capture": (Tone(180, 0.0, 0.12, 0.8, 30.0), Tone(0, 0.0, 0.08, 0.4, 45.0),
                Tone(360, 0.05, 0.08, 0.4, 40.0)),
    "check": (Tone(880, 0.0, 0.12, 0.5, 14.0), Tone(1175, 0.12, 0.18, 0.5, 12.0)),
    "end": (Tone(523, 0.0, 0.2, 0.45, 6.0), Tone(659, 0.15, 0.2, 0.45, 6.0),
            Tone(784, 0.3, 0.45, 0.5, 4.0)),
    "illegal": (Tone(140, 0.0, 0.16, 0.45, 10.0), Tone(0, 0.0, 0.05, 0.15, 50.0)),
}


def samples(tones: tuple[Tone, ...]) -> list[int]:
    """The sound as 16-bit samples (a fixed pseudo-random noise, so every run writes
    the same bytes)."""
    length = max(t.start + t.length for t in tones)
    count = int(length * RATE) + 1
    mix = [0.0] * count
    seed = 12345
    for tone in tones:
        first = int(tone.start * RATE)
        for index in range(int(tone.length * RATE)):
            t = index / RATE
            envelope = tone.volume * math.exp(-tone.decay * t) * min(1.0, index / 40)
            if tone.frequency:
                value = math.sin(2 * math.pi * tone.frequency * t)
            else:
                seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
                value = seed / 0x3FFFFFFF - 1.0
            if first + index < count:
                mix[first + index] += envelope * value
    peak = max(1.0, max(abs(v) for v in mix))
    return [int(32767 * 0.9 * v / peak) for v in mix]


def write_wav(path: Path, tones: tuple[Tone, ...]) -> Path:
    data = samples(tones)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with wave.open(str(tmp), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(struct.pack(f"<{len(data)}h", *data))
    tmp.replace(path)
    return path


def ensure_sounds(folder: Path) -> dict[str, Path]:
    """The sound files in ``folder``, written where missing."""
    files = {}
    for name, tones in SOUNDS.items():
        path = folder / f"{name}.wav"
        if not path.exists():
            write_wav(path, tones)
        files[name] = path
    return files


def sound_folder() -> Path:
    from companion import journal

    return journal.data_dir() / "sounds"


class SoundBoard:
    """Plays the table's sounds (loaded on first use); silent while ``muted``."""

    def __init__(self, folder: Path | None = None, *, muted: bool = False) -> None:
        self.folder = folder
        self.muted = muted
        self._sounds: dict[str, Any] | None = None
        self.played: list[str] = []  # what was played (or would have been, muted: not)

    def _load(self) -> dict[str, Any]:
        if self._sounds is None:
            self._sounds = {}
            try:
                files = ensure_sounds(self.folder or sound_folder())
            except OSError as error:
                LOGGER.warning("no sounds: %s", error)
                return self._sounds
            from kivy.core.audio import SoundLoader

            for name, path in files.items():
                sound = SoundLoader.load(str(path))
                if sound is None:
                    LOGGER.info("no audio on this platform: playing silently")
                    self._sounds = {}
                    break
                self._sounds[name] = sound
        return self._sounds

    def play(self, name: str) -> None:
        if self.muted:
            return
        if name not in SOUNDS:
            raise ValueError(f"no sound called {name!r} (known: {', '.join(SOUNDS)})")
        self.played.append(name)
        sound = self._load().get(name)
        if sound is not None:
            sound.stop()
            sound.play()

    def play_first(self, names: list[str]) -> None:
        """Of the sounds of one action's events, play the one that matters most (a move
        that gives check sounds as check; a mate as the end)."""
        if names:
            self.play(min(names, key=PRIORITY.index))


def event_sound(event: object) -> str | None:
    """Which sound a game event makes: flip, move (a placement too), capture, check, end."""
    from companion import events

    if isinstance(event, events.GameOver):
        return "end"
    if isinstance(event, events.Check):
        return "check"
    if isinstance(event, events.CardFlipped):
        return "flip"
    if isinstance(event, events.MovePlayed):
        return "capture" if event.captured else "move"
    if isinstance(event, events.PiecePlaced):
        return "move"
    if isinstance(event, events.PieceRemoved):
        return "capture"
    return None
