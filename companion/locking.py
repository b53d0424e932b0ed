"""One session a journal: the lock a session holds on its journal for its whole life.

The lock is ``flock(LOCK_EX | LOCK_NB)`` on the descriptor the session writes
through. A ``flock`` lock belongs to that open file, so reading the journal through
another descriptor (and closing it) never releases it, unlike a POSIX record lock
(``lockf``/``fcntl``), which the process loses when it closes *any* descriptor of the
file; and a second session is refused even in the same process. The kernel drops the
lock when its holder ends, however it ends (``kill -9`` included), so a lock is never
stale.

Who holds it is written beside the journal, in ``NAME.lock`` (its pid, host and
start time, one JSON object), so that a refused session can name the other; the
holder removes it when it lets go. A note left by a killed holder is only a note:
the next session takes the lock and writes its own, and a refused session ignores a
note naming a process of this host that is gone (it waits a moment for the holder's
own note, written just after the lock was taken).
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import socket
import time
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]

LOGGER = logging.getLogger(__name__)

LOCK_SUFFIX = ".lock"
FILE_MODE = 0o600


class JournalInUse(ValueError):
    """Another session holds the journal; the message names it (pid, host, since)."""


def note_path(path: Path) -> Path:
    """Where the holder of ``path``'s lock is described (``NAME.lock`` beside it)."""
    return path.with_name(path.name + LOCK_SUFFIX)


NOTE_WAIT = 2.0
"""How long a refused session waits for the holder's note (written just after it took
the lock) before it says it cannot tell who holds the journal."""


def _read_note(path: Path) -> tuple[int, str, str] | None:
    """The holder's (pid, host, since), if its note is there, readable and not stale
    (a note of this host naming a process that is gone was left by a crash)."""
    try:
        note = json.loads(note_path(path).read_text(encoding="utf-8")[:4096])
        pid, host, since = int(note["pid"]), str(note["host"])[:100], str(note["since"])[:40]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if host == socket.gethostname():
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except OSError:
            pass  # alive, another user's
    return pid, host, since


def _holder(path: Path) -> str:
    """The other session, in words, from its note (or as much as can be said)."""
    deadline = time.monotonic() + NOTE_WAIT
    while (note := _read_note(path)) is None and time.monotonic() < deadline:
        time.sleep(0.02)  # the holder writes its note right after taking the lock
    if note is None:
        return "another session (it left no note saying which)"
    pid, host, since = note
    mine = pid == os.getpid() and host == socket.gethostname()
    where = "this program" if mine else "another program"
    return f"{where}: pid {pid} on host {host}, since {since}"


def acquire(fd: int, path: Path) -> None:
    """Lock the journal open as ``fd`` for this session, and leave the holder's note;
    :class:`JournalInUse` naming the other session if one holds it. On a file system
    without locks the journal is used unlocked (logged)."""
    if fcntl is None:  # pragma: no cover - not POSIX
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise JournalInUse(f"{path} is in use by {_holder(path)}. Finish or quit the "
                               f"game there first (a session that ended, even by a "
                               f"crash, lets go at once)") from None
        LOGGER.warning("cannot lock %s (%s): used without a lock", path, error)
        return
    _write_note(path)


def _write_note(path: Path) -> None:
    note = {"pid": os.getpid(), "host": socket.gethostname(),
            "since": time.strftime("%Y-%m-%d %H:%M:%S")}
    target = note_path(path)
    temporary = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
        try:
            os.write(fd, json.dumps(note).encode("utf-8") + b"\n")
        finally:
            os.close(fd)
        os.replace(temporary, target)
    except OSError as error:  # the note only helps a refused session say who holds it
        LOGGER.debug("cannot write %s: %s", target, error)
        with contextlib.suppress(OSError):
            temporary.unlink()


def release(path: Path) -> None:
    """Remove the holder's note; called just before the locked descriptor is closed."""
    with contextlib.suppress(OSError):
        note_path(path).unlink()
