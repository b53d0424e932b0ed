"""Writing a saved game's file (a PGN, a game record): never over a file the player did
not mean, never half a file, nothing stray after a failure.

:func:`write_new` is ``save FILE``: the name must be new. :func:`write_replacing`
is the plain ``save``, which keeps one record beside its journal up to date: it
replaces that file whole, and never the journal itself. Both write a temporary
file in the same folder, flush it, then put it in place in one step, and remove
the temporary file whatever happens. Files are readable by their owner only.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import secrets
from pathlib import Path

LOGGER = logging.getLogger(__name__)

FILE_MODE = 0o600
_NO_LINKS = (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.EXDEV)


def _create(path: Path, text: str) -> None:
    """``text`` in a new file at ``path`` (``FileExistsError`` if taken), flushed to
    disk; on any failure the file is removed."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    try:
        view = memoryview(text.encode("utf-8"))
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            path.unlink()
        raise
    os.close(fd)


def _temporary(target: Path, text: str) -> Path:
    """``text`` written and flushed to a new hidden file beside ``target``."""
    for _ in range(100):
        temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            _create(temporary, text)
        except FileExistsError:
            continue
        except OSError as error:  # named after the file meant, not the temporary one
            raise OSError(error.errno, error.strerror, str(target)) from None
        return temporary
    raise FileExistsError(errno.EEXIST, "cannot make a temporary file", str(target))


def write_new(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` to ``path``, which must not exist yet: ``FileExistsError`` if
    anything has that name (a file, a journal, a folder, a link), another
    ``OSError`` if it cannot be written; either way nothing is left behind."""
    target = Path(path)
    if os.path.lexists(target):
        raise FileExistsError(errno.EEXIST, "exists already", str(target))
    temporary = _temporary(target, text)
    try:
        try:
            os.link(temporary, target)  # in place at once, and never over a file
        except OSError as error:
            if error.errno not in _NO_LINKS:
                raise
            _create(target, text)  # a file system without hard links
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()
    return target


def write_replacing(path: str | os.PathLike[str], text: str, *,
                    never: str | os.PathLike[str] | None = None) -> Path:
    """Write ``text`` to ``path``, replacing the file there whole (the record kept
    beside a journal); ``FileExistsError`` if ``path`` is a folder or the file
    ``never`` (the game's journal), another ``OSError`` if it cannot be written."""
    target = Path(path)
    if target.is_dir() or (never is not None and os.path.lexists(target)
                           and os.path.lexists(never) and os.path.samefile(target, never)):
        raise FileExistsError(errno.EEXIST, "exists already and is not a saved game",
                              str(target))
    temporary = _temporary(target, text)
    try:
        os.replace(temporary, target)
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()
    return target
