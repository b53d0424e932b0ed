"""The journal: the crash-safe log of a game in progress, for every game.

A journal is a text file, one line per item: ``CRC32 JSON``, the CRC (8 hex
digits) taken over the JSON text. The first line is the header; every following
line is one entry, numbered from 1 in its ``n`` field, written with ``os.write``
and flushed with ``os.fsync`` before :meth:`Journal.append` returns.

An item's ``secret`` field is stored sealed (:mod:`companion.sealing`) with a key
made for each file when its header is written and kept apart from it, in a key
file (``.keys/ID.key`` beside the file, the ``ID`` named by the header's ``key``
field). Journals, key files and their folders are created readable by their
owner only (0600, 0700).

A session holds its journal locked for its whole life (:mod:`companion.locking`):
a second session, in another process or the same one, is refused with a message
naming the first. An append is whole or absent: a write cut short (a full disk) or
not flushed is rolled back to the last whole entry before the error reaches the
game, which then does not play the action.

Reading (:func:`read_entries`) stops at the first entry that is torn, damaged or
out of sequence. :func:`reopen` goes on writing to a journal: it cuts back a torn
*last entry* (a crash mid-write: bytes without an end of line, or one damaged last
line) after copying the original aside (``NAME.damaged-N``), but refuses, changing
nothing, whenever that would drop an intact entry (entries swapped, merged,
duplicated, missing, damaged before the end), unless asked to cut. Files are read
with bounds (:mod:`companion.limits`): regular files only, at most
:data:`~companion.limits.MAX_JOURNAL_BYTES`, JSON nested at most
:data:`~companion.limits.MAX_JSON_DEPTH` deep. Nothing here knows any game:
:mod:`companion.resume` rebuilds a Raindropchess game from a journal,
:mod:`companion.games.resume` one of the abstract games.
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import re
import secrets
import shlex
import stat
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

import platformdirs

from companion import locking
from companion.limits import (
    MAX_JOURNAL_BYTES,
    MAX_LINE,
    LimitError,
    check_json_depth,
    read_fd,
)
from companion.sealing import KEY_BYTES, SealError, new_key, seal, unseal

LOGGER = logging.getLogger(__name__)

T = TypeVar("T")

ENV_DATA_DIR = "RAINDROP_DATA_DIR"
SUFFIX = ".rdj"
SECRET = "secret"    # a header's or entry's field stored sealed
KEY_FIELD = "key"    # the header's field naming its key file
KEY_DIR = ".keys"    # the key files' folder, beside the journals
FILE_MODE = 0o600
DIR_MODE = 0o700
MAX_ENTRY_BYTES = MAX_LINE
"""No entry is longer: more damaged bytes than this at the end are not one torn entry."""


class JournalError(ValueError):
    """A journal that cannot be used; the message names the file and the problem."""


class ReplayError(ValueError):
    """A journal entry that does not fit the game it is replayed on; the message names it."""


class JournalWriter(Protocol):
    """Where a live game writes its committed actions (a :class:`Journal`, or a test's list)."""

    def begin(self, header: dict[str, Any]) -> None: ...

    def append(self, entry: dict[str, Any]) -> None: ...


def write_private(path: str | os.PathLike[str], text: str, *, exclusive: bool) -> None:
    """Write ``text`` to a file readable by its owner only (FILE_MODE, 0600);
    ``exclusive``: refuse (FileExistsError) to replace a file already there."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_EXCL if exclusive else os.O_TRUNC)
    fd = os.open(path, flags, FILE_MODE)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)


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


def encode_line(item: dict[str, Any]) -> bytes:
    text = json.dumps(item, separators=(",", ":"), sort_keys=True)
    data = text.encode("utf-8")
    return f"{zlib.crc32(data):08x} ".encode("ascii") + data + b"\n"


def decode_line(line: bytes) -> dict[str, Any]:
    """One journal line (without its newline) back to its JSON object; ``ValueError`` if bad."""
    if len(line) < 10 or line[8:9] != b" ":
        raise ValueError("not a journal line (expected 'CRC32 JSON')")
    try:
        crc = int(line[:8].decode("ascii"), 16)
    except (UnicodeDecodeError, ValueError):
        raise ValueError("the checksum is not 8 hex digits") from None
    data = line[9:]
    if zlib.crc32(data) != crc:
        raise ValueError("the checksum does not match (damaged data)")
    check_json_depth(data, "the JSON")
    try:
        item = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError) as error:  # bad UTF-8, JSON, or a huge number
        raise ValueError(f"the JSON is damaged: {str(error)[:200]}") from None
    if not isinstance(item, dict):
        raise ValueError("the line is not a JSON object")
    return item


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


def _private_dir(folder: Path) -> None:
    """Create ``folder`` (and its parents) if missing; a new folder is owner-only."""
    if not folder.is_dir():
        folder.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)


def key_path(journal: Path, key_id: str) -> Path:
    """Where the key of a journal lives (``.keys/ID.key`` in the journal's folder)."""
    if not key_id or not all(c in "0123456789abcdef" for c in key_id):
        raise JournalError(f"{journal}: the header's key id {key_id!r} is not a hex id")
    return journal.parent / KEY_DIR / f"{key_id}.key"


def _write_key(journal: Path) -> tuple[str, bytes]:
    folder = journal.parent / KEY_DIR
    _private_dir(folder)
    for _ in range(100):
        key_id = secrets.token_hex(8)
        path = folder / f"{key_id}.key"
        key = new_key()
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
        except FileExistsError:
            continue
        try:
            os.write(fd, key.hex().encode("ascii") + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
        _fsync_dir(folder)
        return key_id, key
    raise JournalError(f"cannot create a key file in {folder}")


def load_key(journal: Path, header: dict[str, Any]) -> bytes | None:
    """The key a journal's header names (``None`` if it names none)."""
    key_id = header.get(KEY_FIELD)
    if key_id is None:
        return None
    path = key_path(journal, str(key_id))
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        raise JournalError(f"{journal}: its key file {path} is missing, so the secret part "
                           f"(the decks' order) cannot be read; the journal was left as it "
                           f"is. Put the key file back (a journal moved to another folder "
                           f"needs its {KEY_DIR} folder moved with it)") from None
    except (OSError, UnicodeDecodeError) as error:
        raise JournalError(f"{journal}: cannot read its key file {path}: {error}") from None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise JournalError(f"{journal}: its key file {path} is damaged (expected "
                           f"{KEY_BYTES * 2} hex digits)")
    return key


def _sealed(item: dict[str, Any], key: bytes | None, label: str) -> dict[str, Any]:
    if SECRET not in item:
        return item
    if key is None:
        raise JournalError("an entry with a secret needs a journal with a key")
    data = json.dumps(item[SECRET], separators=(",", ":"), sort_keys=True).encode("utf-8")
    return dict(item, **{SECRET: seal(key, data, label)})


def _unsealed(item: dict[str, Any], key: bytes | None, label: str) -> dict[str, Any]:
    """``item`` with its secret opened; ``ValueError`` (a :class:`SealError`) if bad."""
    if SECRET not in item:
        return item
    if key is None:
        raise SealError("the entry has a secret but the journal names no key")
    value = json.loads(unseal(key, item[SECRET], label).decode("utf-8"))
    return dict(item, **{SECRET: value})


def _lock(fd: int, path: Path) -> None:
    """Hold the journal for this session (two sessions appending would corrupt it);
    :class:`JournalError` naming the session that holds it, ``fd`` closed then."""
    try:
        locking.acquire(fd, path)
    except locking.JournalInUse as error:
        os.close(fd)
        raise JournalError(str(error)) from None


class Journal:
    """Appends a game's entries to one file, each flushed to disk (fsync); an entry's
    ``secret`` field is sealed with the journal's key (made by :meth:`begin`).

    It holds the file locked (:mod:`companion.locking`) until :meth:`close`. An
    append is whole or absent: when a write fails or is cut short, or the flush
    fails, the file is cut back to the last whole entry and :class:`JournalError`
    says the action was not saved. If even that cut fails, the journal refuses
    every further append (resume cuts the torn last entry)."""

    def __init__(self, path: Path, *, fd: int, entries: int, key: bytes | None = None,
                 ) -> None:
        self.path = path
        self._fd: int | None = fd
        self._entries = entries
        self._key = key
        self._size = os.fstat(fd).st_size  # the end of the last whole entry
        self._broken: str | None = None

    @classmethod
    def create(cls, directory: str | os.PathLike[str] | None = None) -> Journal:
        """A new, empty journal file in the games directory (never an existing file)."""
        folder = games_dir(directory)
        _private_dir(folder)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        for _ in range(100):
            path = folder / f"game-{stamp}-{secrets.token_hex(3)}{SUFFIX}"
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND,
                             FILE_MODE)
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
        _private_dir(target.parent)
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND,
                         FILE_MODE)
        except FileExistsError:
            raise JournalError(f"{target} exists already: a journal is never "
                               f"overwritten") from None
        _lock(fd, target)
        _fsync_dir(target.parent)
        return cls(target, fd=fd, entries=-1)

    def _write(self, item: dict[str, Any]) -> None:
        if self._fd is None:
            raise JournalError(f"the journal {self.path} is closed")
        if self._broken is not None:
            raise JournalError(self._broken)
        data = encode_line(item)
        try:
            written = os.write(self._fd, data)
            if written != len(data):
                raise OSError(f"only {written} of {len(data)} bytes were written; the "
                              f"disk may be full")
            os.fsync(self._fd)
        except OSError as error:
            self._roll_back()
            raise JournalError(f"cannot write to the journal {self.path} ({error}): the "
                               f"action was not saved, so it was not played. Free some "
                               f"space and try again") from None
        self._size += len(data)

    def _roll_back(self) -> None:
        """Cut the file back to its last whole entry after a failed append."""
        assert self._fd is not None
        try:
            os.ftruncate(self._fd, self._size)
            os.fsync(self._fd)
        except OSError as error:
            LOGGER.error("cannot cut %s back after a failed write: %s", self.path, error)
            self._broken = (f"the journal {self.path} could not be repaired after a failed "
                            f"write ({error}): the action was not saved, so it was not "
                            f"played. Quit, free some space and resume (resume cuts the "
                            f"torn last entry)")

    def begin(self, header: dict[str, Any]) -> None:
        """Write the header line (a new journal only). A header with a ``secret``
        gets a new key, written to its key file first, and names it."""
        if self._entries != -1:
            raise JournalError(f"the journal {self.path} already has a header")
        item = dict(header)
        if SECRET in item:
            key_id, self._key = _write_key(self.path)
            item[KEY_FIELD] = key_id
        self._write(_sealed(item, self._key, "0"))
        self._entries = 0

    def append(self, entry: dict[str, Any]) -> None:
        """Write one entry (its ``secret`` sealed) and fsync before returning."""
        if self._entries < 0:
            raise JournalError(f"the journal {self.path} has no header yet")
        item = dict(entry)
        item["n"] = self._entries + 1
        self._write(_sealed(item, self._key, str(item["n"])))
        self._entries += 1

    @property
    def entries(self) -> int:
        return max(self._entries, 0)

    def close(self) -> None:
        """Let go of the file (and its lock)."""
        if self._fd is not None:
            locking.release(self.path)
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
    """What a journal file holds: its header, its good entries (secrets opened), and
    what is wrong after them, if anything."""

    path: Path
    header: dict[str, Any]
    entries: tuple[dict[str, Any], ...]
    good_bytes: int          # the length of the good part (header and good entries)
    total_bytes: int
    problem: str | None      # why reading stopped before the end, if it did
    damaged_inside: bool = False
    """Cutting after the good entries would drop more than a torn last entry (an
    intact entry, or more than one line): never done unless asked."""


def read_entries(path: str | os.PathLike[str]) -> JournalContents:
    """Read any journal's header and entries without changing the file (no game knowledge).

    :class:`JournalError` if the file is not a regular file of at most
    :data:`~companion.limits.MAX_JOURNAL_BYTES`, or its header or key cannot be read.
    Reading stops at the first entry that is torn, damaged (checksum, JSON, seal) or
    out of sequence; ``damaged_inside`` says whether more than a torn last entry
    follows the good ones.
    """
    file = Path(path)
    try:
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise JournalError(f"no journal at {file}") from None
    except OSError as error:
        raise JournalError(f"cannot read the journal {file}: {error}") from None
    try:
        return _contents(file, _read(fd, file))
    finally:
        os.close(fd)


def _read(fd: int, file: Path) -> bytes:
    try:
        return read_fd(fd, MAX_JOURNAL_BYTES, f"the journal {file}")
    except LimitError as error:
        raise JournalError(f"{error}; it was left as it is") from None
    except OSError as error:
        raise JournalError(f"cannot read the journal {file}: {error}") from None


def _contents(file: Path, data: bytes) -> JournalContents:
    end = data.find(b"\n")
    if end < 0:
        raise JournalError(f"{file} is not a readable journal: no complete header line "
                           f"({len(data)} bytes)")
    try:
        header = decode_line(data[:end])
    except ValueError as error:
        raise JournalError(f"{file} is not a readable journal: the header is bad "
                           f"({error})") from None
    key = load_key(file, header)
    try:
        header = _unsealed(header, key, "0")
    except ValueError as error:
        raise JournalError(f"{file}: the header's secret cannot be opened with its key "
                           f"({error}); the journal was left as it is") from None
    entries: list[dict[str, Any]] = []
    position = end + 1
    problem = None
    while position < len(data):
        end = data.find(b"\n", position)
        number = len(entries) + 1
        if end < 0:
            problem = (f"entry {number}, the last, is torn (line {number + 1}: "
                       f"{len(data) - position} bytes without an end of line)")
            break
        try:
            item = decode_line(data[position:end])
            if item.get("n") != number:
                raise ValueError(f"it is out of sequence (numbered {item.get('n')!r:.20})")
            item = _unsealed(item, key, str(number))
        except ValueError as error:
            problem = f"entry {number} is damaged (line {number + 1}): {error}"
            break
        entries.append(item)
        position = end + 1
    damaged_inside = False
    if problem is not None:
        rest = data[position:]
        damaged_inside = not _torn_last_entry(rest)
        if damaged_inside:
            if _holds_an_entry(rest):
                problem += ", and intact entries follow it"
            elif b"\n" in rest[:-1]:
                problem += ", and more lines follow it"
            else:
                problem += f", and it is longer than any entry ({MAX_ENTRY_BYTES} bytes)"
        problem += f"; {len(rest)} bytes after entry {len(entries)} were not read"
    return JournalContents(file, header, tuple(entries), position, len(data), problem,
                           damaged_inside)


_BOUNDARY = re.compile(rb" (?=[0-9a-f]{8} )")
"""Where a line may have been merged into the one before it (its end of line lost)."""


def _torn_last_entry(rest: bytes) -> bool:
    """Whether the bytes after the good entries are only a torn last entry: at most
    one line, no longer than any entry, holding no intact entry. A whole entry that
    lacks only its end of line counts as torn: its write never finished."""
    if b"\n" in rest[:-1] or len(rest) > MAX_ENTRY_BYTES:
        return False
    if rest.endswith(b"\n"):
        return not _holds_an_entry(rest[:-1])
    return not _holds_an_entry(rest, whole_is_torn=True)


def _holds_an_entry(rest: bytes, *, whole_is_torn: bool = False) -> bool:
    """Whether an intact (checksummed) entry lies anywhere in ``rest``: a whole line,
    or lines merged into one (an end of line turned into a space)."""
    for line in rest.split(b"\n"):
        cuts = [0, *(m.end() for m in _BOUNDARY.finditer(line))]
        if len(cuts) > 64:
            return True  # not a torn entry, whatever it is
        ends = [*(c - 1 for c in cuts[1:]), len(line)]
        for start in cuts:
            for stop in ends:
                if stop <= start or (whole_is_torn and (start, stop) == (0, len(line))):
                    continue
                try:
                    decode_line(line[start:stop])
                except ValueError:
                    continue
                return True
    return False


def _aside_name(path: Path) -> Path:
    for index in range(1, 1000):
        candidate = path.with_name(f"{path.name}.damaged-{index}")
        if not candidate.exists():
            return candidate
    raise JournalError(f"too many damaged copies of {path}")


def _keep_aside(path: Path, data: bytes) -> Path:
    """Write ``data`` (the journal as it was read) to ``NAME.damaged-N``, owner-only."""
    aside = _aside_name(path)
    try:
        fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as error:
        with contextlib.suppress(OSError):
            aside.unlink()
        raise JournalError(f"{path}: cannot keep a copy of the damaged journal aside "
                           f"({error}); nothing was cut and the file was left as it "
                           f"is") from None
    return aside


def reopen(path: str | os.PathLike[str], prepare: Callable[[JournalContents], T], *,
           cut: bool = False) -> tuple[T, Journal, tuple[str, ...]]:
    """Open a journal to write on, after ``prepare`` (e.g. rebuilding a game)
    accepted its contents; returns what ``prepare`` returned, the journal, warnings.

    The file is locked first, and read through the locked descriptor.
    :class:`JournalError` (or whatever ``prepare`` raises) leaves it byte for byte as
    it was: not a regular file, too big, in use by another session, an unreadable
    header or key, or damage that cutting would not confine to a torn last entry
    (unless ``cut``: the player asked to resume from the last good entry). Only then
    is the damage cut back to the last good entry, the original first copied aside;
    the warning says so.
    """
    file = Path(path)
    try:
        fd = os.open(file, os.O_RDWR | os.O_APPEND | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise JournalError(f"no journal at {file}") from None
    except OSError as error:
        raise JournalError(f"cannot open the journal {file}: {error}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise JournalError(f"the journal {file} is not a regular file")
    except BaseException:
        os.close(fd)
        raise
    _lock(fd, file)
    warnings: list[str] = []
    try:
        data = _read(fd, file)
        contents = _contents(file, data)
        if contents.damaged_inside and not cut:
            good = len(contents.entries)
            raise JournalError(
                f"{file}: {(contents.problem or '').split(';')[0]}. Resuming would throw "
                f"away more than a torn last entry, so nothing was resumed and the file was "
                f"left as it is. Repair line {good + 2} by hand (each line after the first "
                f"is one entry, numbered in order), or resume from entry {good}, cutting "
                f"the rest: raindrop resume --cut {shlex.quote(str(file))} (the whole file "
                f"is kept aside first)")
        prepared = prepare(contents)
        key = load_key(file, contents.header)
        if contents.problem is not None:
            aside = _keep_aside(file, data)
            os.ftruncate(fd, contents.good_bytes)
            os.fsync(fd)
            asked = " (cut as asked)" if contents.damaged_inside else ""
            message = (f"{file}: {contents.problem}. The game was resumed from entry "
                       f"{len(contents.entries)}{asked}; the damaged original was kept as "
                       f"{aside.name}.")
            LOGGER.info("%s", message)  # the caller shows the warning to the player
            warnings.append(message)
    except BaseException:
        locking.release(file)
        os.close(fd)
        raise
    return prepared, Journal(file, fd=fd, entries=len(contents.entries), key=key), \
        tuple(warnings)


def journals(directory: str | os.PathLike[str] | None = None) -> list[Path]:
    """The journals in the games directory (of every game), oldest first."""
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


def journal_header(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The header of any journal (to tell which game it is); :class:`JournalError`."""
    return read_entries(path).header
