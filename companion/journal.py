"""The journal: a crash-safe record of a game, and resuming from it.

A journal is a text file, one record per line: ``CRC32 JSON``, the CRC
(8 hex digits) taken over the JSON text. The first line is the header (format,
version, house rules, the decks' order, clock settings); every following line
is one committed action, numbered from 1, written with ``os.write`` and
flushed with ``os.fsync`` before the game tells anyone about the action.

Resuming replays the actions. A torn or corrupt tail (a crash mid-write, a
damaged disk block) is cut back to the last good entry: the original file is
first copied aside (``NAME.damaged-N``) and the caller gets a warning. A
journal whose header cannot be read, or whose good entries cannot be
replayed, is never changed: resuming refuses with a :class:`JournalError`.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import logging
import os
import secrets
import shutil
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import platformdirs

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]

from companion.cards import DeckError, Decks
from companion.clock import ClockSettings, ClockSettingsError
from companion.game import JOURNAL_FORMAT, JOURNAL_VERSION, Game, RecordError
from companion.rules import HouseRules, HouseRulesError

LOGGER = logging.getLogger(__name__)

ENV_DATA_DIR = "RAINDROP_DATA_DIR"
SUFFIX = ".rdj"


class JournalError(ValueError):
    """A journal that cannot be used; the message names the file and the problem."""


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """Where games are kept: ``override``, else ``$RAINDROP_DATA_DIR``, else the
    user's data directory (``platformdirs.user_data_dir("raindrop")``)."""
    if override is not None:
        return Path(override)
    env = os.environ.get(ENV_DATA_DIR)
    if env:
        return Path(env)
    return Path(platformdirs.user_data_dir("raindrop"))


def games_dir(override: str | os.PathLike[str] | None = None) -> Path:
    return data_dir(override) / "games"


def encode_line(record: dict[str, Any]) -> bytes:
    text = json.dumps(record, separators=(",", ":"), sort_keys=True)
    data = text.encode("utf-8")
    return f"{zlib.crc32(data):08x} ".encode("ascii") + data + b"\n"


def decode_line(line: bytes) -> dict[str, Any]:
    """One journal line (without its newline) back to its record; ``ValueError`` if bad."""
    if len(line) < 10 or line[8:9] != b" ":
        raise ValueError("not a journal line (expected 'CRC32 JSON')")
    try:
        crc = int(line[:8].decode("ascii"), 16)
    except (UnicodeDecodeError, ValueError):
        raise ValueError("the checksum is not 8 hex digits") from None
    data = line[9:]
    if zlib.crc32(data) != crc:
        raise ValueError("the checksum does not match (damaged data)")
    try:
        record = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"the JSON is damaged: {error}") from None
    if not isinstance(record, dict):
        raise ValueError("the record is not a JSON object")
    return record


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _lock(fd: int, path: Path) -> None:
    """Hold the journal against other processes (two appending would corrupt it).

    A POSIX record lock: per process, so one process may open its own journal
    again; the kernel drops it when the process dies, even by ``kill -9``.
    """
    if fcntl is None:  # pragma: no cover - not POSIX
        return
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        if error.errno in (errno.EACCES, errno.EAGAIN):
            raise JournalError(f"{path} is open in another raindrop process (the game is "
                               f"being played there)") from None
        LOGGER.debug("cannot lock %s: %s", path, error)  # a file system without locks


class Journal:
    """Appends a game's records to one file, each flushed to disk (fsync)."""

    def __init__(self, path: Path, *, fd: int, entries: int) -> None:
        self.path = path
        self._fd: int | None = fd
        self._entries = entries

    @classmethod
    def create(cls, directory: str | os.PathLike[str] | None = None) -> Journal:
        """A new, empty journal file in the games directory (never an existing file)."""
        folder = games_dir(directory)
        folder.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        for _ in range(100):
            path = folder / f"game-{stamp}-{secrets.token_hex(3)}{SUFFIX}"
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
            except FileExistsError:
                continue
            _lock(fd, path)
            _fsync_dir(folder)
            return cls(path, fd=fd, entries=-1)
        raise JournalError(f"cannot create a new journal in {folder}")

    @classmethod
    def at(cls, path: str | os.PathLike[str]) -> Journal:
        """A new journal at ``path``, which must not exist yet."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
        except FileExistsError:
            raise JournalError(f"{target} exists already: a journal is never "
                               f"overwritten") from None
        _lock(fd, target)
        _fsync_dir(target.parent)
        return cls(target, fd=fd, entries=-1)

    def _write(self, record: dict[str, Any]) -> None:
        if self._fd is None:
            raise JournalError(f"the journal {self.path} is closed")
        data = encode_line(record)
        try:
            written = os.write(self._fd, data)
            if written != len(data):
                raise JournalError(f"short write to {self.path} ({written} of {len(data)} "
                                   f"bytes)")
            os.fsync(self._fd)
        except OSError as error:
            raise JournalError(f"cannot write to the journal {self.path}: {error}") from None

    def begin(self, header: dict[str, Any]) -> None:
        """Write the header line (a new journal only)."""
        if self._entries != -1:
            raise JournalError(f"the journal {self.path} already has a header")
        self._write(header)
        self._entries = 0

    def append(self, entry: dict[str, Any]) -> None:
        """Write one action and fsync before returning."""
        if self._entries < 0:
            raise JournalError(f"the journal {self.path} has no header yet")
        record = dict(entry)
        record["n"] = self._entries + 1
        self._write(record)
        self._entries += 1

    @property
    def entries(self) -> int:
        return max(self._entries, 0)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Journal({str(self.path)!r}, entries={self.entries})"


# ----------------------------------------------------------------------
# Reading and resuming


@dataclasses.dataclass(frozen=True)
class JournalContents:
    """What a journal file holds: its header, its good entries, and any bad tail."""

    path: Path
    header: dict[str, Any]
    entries: tuple[dict[str, Any], ...]
    good_bytes: int          # the length of the good part (header and good entries)
    total_bytes: int
    problem: str | None      # why the tail was cut, if it was


def read_journal(path: str | os.PathLike[str]) -> JournalContents:
    """Read a journal without changing it; :class:`JournalError` if the header is bad."""
    file = Path(path)
    try:
        data = file.read_bytes()
    except FileNotFoundError:
        raise JournalError(f"no journal at {file}") from None
    except OSError as error:
        raise JournalError(f"cannot read the journal {file}: {error}") from None
    end = data.find(b"\n")
    if end < 0:
        raise JournalError(f"{file} is not a Raindropchess journal: no complete header line "
                           f"({len(data)} bytes)")
    try:
        header = decode_line(data[:end])
    except ValueError as error:
        raise JournalError(f"{file} is not a readable Raindropchess journal: the header is "
                           f"bad ({error})") from None
    if header.get("format") != JOURNAL_FORMAT:
        raise JournalError(f"{file} is not a Raindropchess journal (format "
                           f"{header.get('format')!r})")
    if header.get("version") != JOURNAL_VERSION:
        raise JournalError(f"{file} is a journal of version {header.get('version')!r}; this "
                           f"companion reads version {JOURNAL_VERSION} only. The file was "
                           f"left as it is.")
    entries: list[dict[str, Any]] = []
    position = end + 1
    problem = None
    while position < len(data):
        end = data.find(b"\n", position)
        if end < 0:
            problem = (f"the last entry is torn ({len(data) - position} bytes without an end "
                       f"of line)")
            break
        try:
            record = decode_line(data[position:end])
        except ValueError as error:
            problem = f"entry {len(entries) + 1} is damaged: {error}"
            break
        if record.get("n") != len(entries) + 1:
            problem = (f"entry {len(entries) + 1} is out of sequence (numbered "
                       f"{record.get('n')!r})")
            break
        entries.append(record)
        position = end + 1
    if problem is not None:
        problem += f"; {len(data) - position} bytes after entry {len(entries)} were ignored"
    return JournalContents(file, header, tuple(entries), position, len(data), problem)


def game_from_contents(contents: JournalContents, *,
                       now: Callable[[], float] = time.monotonic) -> Game:
    """Rebuild the game a journal records (no file is touched)."""
    header = contents.header
    file = contents.path
    try:
        rules = HouseRules.from_dict(header.get("rules") or {})
        decks = Decks.from_order(header["decks"], rules)
        clock_data = header.get("clock")
        clock = ClockSettings.from_dict(clock_data) if clock_data else None
    except (KeyError, TypeError, HouseRulesError, DeckError, ClockSettingsError) as error:
        raise JournalError(f"{file}: the header does not describe a game: {error}") from None
    seed = header.get("seed")
    game = Game(rules, seed=seed if isinstance(seed, int) else None, clock=clock, now=now,
                decks=decks)
    with game.replaying():
        for entry in contents.entries:
            try:
                game.apply_record(entry)
            except RecordError as error:
                raise JournalError(f"{file}: entry {entry.get('n')} cannot be replayed "
                                   f"({error}); the file was left as it is") from None
    if game.clock is not None and not game.is_over:
        last_clock = next((e["clock"] for e in reversed(contents.entries)
                           if isinstance(e.get("clock"), dict)), None)
        if last_clock is not None:
            game.clock.restore(last_clock)
    return game


@dataclasses.dataclass(frozen=True)
class Resumed:
    """A game rebuilt from its journal, recording on to the same file."""

    game: Game
    journal: Journal
    warnings: tuple[str, ...]


def _aside_name(path: Path) -> Path:
    for index in range(1, 1000):
        candidate = path.with_name(f"{path.name}.damaged-{index}")
        if not candidate.exists():
            return candidate
    raise JournalError(f"too many damaged copies of {path}")


def resume(path: str | os.PathLike[str], *, now: Callable[[], float] = time.monotonic,
           ) -> Resumed:
    """Rebuild a game from its journal and keep recording to it.

    A torn or damaged tail is cut back to the last good entry after the
    original file is copied aside; the warning says so. An unreadable journal
    raises :class:`JournalError` and is left untouched.
    """
    file = Path(path)
    try:
        fd = os.open(file, os.O_WRONLY | os.O_APPEND)
    except FileNotFoundError:
        raise JournalError(f"no journal at {file}") from None
    except OSError as error:
        raise JournalError(f"cannot open the journal {file}: {error}") from None
    try:
        _lock(fd, file)
        contents = read_journal(file)
        game = game_from_contents(contents, now=now)
        warnings: list[str] = []
        if contents.problem is not None:
            aside = _aside_name(file)
            shutil.copy2(file, aside)
            os.ftruncate(fd, contents.good_bytes)
            os.fsync(fd)
            message = (f"{file}: {contents.problem}. The game was resumed from entry "
                       f"{len(contents.entries)}; the damaged original was kept as "
                       f"{aside.name}.")
            LOGGER.warning("%s", message)
            warnings.append(message)
    except BaseException:
        os.close(fd)
        raise
    journal = Journal(file, fd=fd, entries=len(contents.entries))
    game.attach_journal(journal)
    game.entries = len(contents.entries)
    return Resumed(game, journal, tuple(warnings))


def journals(directory: str | os.PathLike[str] | None = None) -> list[Path]:
    """The journals in the games directory, oldest first."""
    folder = games_dir(directory)
    if not folder.is_dir():
        return []
    return sorted(folder.glob(f"*{SUFFIX}"), key=lambda p: (p.stat().st_mtime, p.name))


def latest_journal(directory: str | os.PathLike[str] | None = None) -> Path:
    """The most recently written journal; :class:`JournalError` if there is none."""
    found = journals(directory)
    if not found:
        raise JournalError(f"no saved game in {games_dir(directory)}")
    return found[-1]


def new_game(rules: HouseRules | None = None, *, seed: int | None = None,
             clock: ClockSettings | None = None,
             directory: str | os.PathLike[str] | None = None,
             now: Callable[[], float] = time.monotonic) -> tuple[Game, Journal]:
    """A new game recording to a new journal in the games directory."""
    journal = Journal.create(directory)
    game = Game(rules, seed=seed, clock=clock, journal=journal, now=now)
    return game, journal
