"""Bounds on every text that reaches a number, a recursion, a read or a listing.

Texts come from players, files and other programs: a command line, a typed turn, a
record or journal edited by hand, a line on standard input. Whatever they hold, the
companion answers with one line naming the problem, quickly and in little memory.
So, before a text becomes a number, a parsed structure or a listing:

- **Numbers** are ASCII digits only (``int()`` also takes ``８`` or ``٣``) and at most
  :data:`MAX_DIGITS` of them (``int()`` refuses more than 4,300 digits with a
  traceback, and a float of 400 digits is infinite): :func:`parse_count`,
  :func:`parse_decimal`, :func:`is_digits`, :data:`DIGITS` for regular expressions.
- **Texts** have a length: :data:`MAX_LINE` for one line (a position, a typed
  command), checked by :func:`check_length`; :func:`bounded_lines` reads a stream
  line by line without ever holding more than that.
- **Files** are read only when they are regular files of at most a given size
  (:func:`read_file`): never ``/dev/zero``, a pipe or a 10 GB mistake.
- **Nesting**: JSON read from files nests at most :data:`MAX_JSON_DEPTH` deep,
  checked before it is parsed (:func:`check_json_depth`).
- **Listings** stop at a limit (:data:`LISTING_LIMIT` unless the player asks for
  more) with a message that says so.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO, TextIO

MAX_DIGITS = 9
"""The most digits a number of ours may have (no size, count or counter needs more)."""

MAX_LINE = 65_536
"""The longest line read at once (a position, a typed command, a line on stdin)."""

MAX_JOURNAL_BYTES = 64 << 20
"""The largest journal read (a long game's journal is well under 1 MiB)."""

MAX_RECORD_BYTES = 16 << 20
"""The largest PGN or game record read."""

MAX_JSON_DEPTH = 32
"""How deep JSON read from a file may nest (a journal's entries nest 3 deep)."""

LISTING_LIMIT = 100_000
"""How many turns or positions a listing gives unless asked for more."""

MAX_LISTING_LIMIT = 10_000_000
"""The largest limit a player may ask a listing for."""

DIGITS = "[0-9]"
"""An ASCII digit in a regular expression (``\\d`` also matches other scripts' digits)."""

_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]+)?")


class LimitError(ValueError):
    """A text beyond a bound, or a number that is not one; the message says which."""


def is_digits(text: str, digits: int = MAX_DIGITS) -> bool:
    """Whether ``text`` is a whole number safe to give ``int()``: 1 to ``digits`` ASCII
    digits (``str.isdigit`` also takes ``²`` and ``٣``, and any number of them)."""
    return 0 < len(text) <= digits and text.isascii() and text.isdigit()


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:20] + "..." + text[-8:])


def parse_count(text: str, what: str, *, low: int = 0, high: int | None = None,
                digits: int = MAX_DIGITS) -> int:
    """A whole number written in ASCII digits (no sign, no spaces inside), at most
    ``digits`` of them, from ``low`` to ``high``; :class:`LimitError` naming ``what``."""
    if not is_digits(text, len(text)):
        raise LimitError(f"{what} must be a whole number written with the digits 0-9, not "
                         f"{_shown(text)}")
    if len(text) > digits:
        raise LimitError(f"{what} has {len(text)} digits; at most {digits} are read")
    value = int(text)
    if value < low or (high is not None and value > high):
        upper = "" if high is None else f" to {high}"
        raise LimitError(f"{what} must be from {low}{upper}, not {value}")
    return value


def count_arg(what: str, *, low: int = 0, high: int,
              digits: int = MAX_DIGITS) -> Callable[[str], int]:
    """An ``argparse`` type: :func:`parse_count` of the option's text, its
    :class:`LimitError` turned into argparse's one-line usage error."""

    def parse(text: str) -> int:
        try:
            return parse_count(text.strip(), what, low=low, high=high, digits=digits)
        except LimitError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return parse


def parse_decimal(text: str, what: str, *, low: float = 0.0, high: float,
                  digits: int = MAX_DIGITS) -> float:
    """A number ``12`` or ``12.5`` in ASCII digits (no sign, no exponent), at most
    ``digits`` digits before the point, from ``low`` to ``high``; :class:`LimitError`."""
    text = text.strip()
    if not _DECIMAL.fullmatch(text):
        raise LimitError(f"{what} must be a number like 10 or 2.5, not {_shown(text)}")
    if len(text.partition(".")[0]) > digits or len(text) > 2 * digits + 1:
        raise LimitError(f"{what} has too many digits ({_shown(text)})")
    value = float(text)
    if not low <= value <= high:
        raise LimitError(f"{what} must be from {low:g} to {high:g}, not {text}")
    return value


def check_finite(value: object, what: str, *, low: float = 0.0, high: float) -> float:
    """A number read from a file (JSON): a real int or float, finite, within bounds."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise LimitError(f"{what} must be a number, not {type(value).__name__} {value!r:.40}")
    number = float(value)
    if not math.isfinite(number) or not low <= number <= high:
        raise LimitError(f"{what} must be from {low:g} to {high:g}, not {value!r:.40}")
    return number


def check_length(text: str, what: str, limit: int = MAX_LINE) -> str:
    """``text`` if it has at most ``limit`` characters; :class:`LimitError` otherwise."""
    if len(text) > limit:
        raise LimitError(f"{what} is {len(text)} characters long; at most {limit} are read")
    return text


def check_json_depth(data: bytes | str, what: str, limit: int = MAX_JSON_DEPTH) -> None:
    """Refuse JSON that nests deeper than ``limit`` before it is parsed (the parser
    recurses and would fail with a RecursionError). Strings are skipped, so brackets
    inside them do not count."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    if text.count("[") + text.count("{") <= limit:
        return  # too few brackets to nest that deep (the usual case, counted fast)
    depth = 0
    in_string = False
    escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                raise LimitError(f"{what} nests deeper than {limit} levels")
        elif char in "]}":
            depth -= 1


def read_file(path: str | os.PathLike[str], limit: int, what: str) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; :class:`LimitError`
    for anything else (a device like ``/dev/zero``, a pipe, a folder, a bigger file)
    and ``OSError`` (``FileNotFoundError``...) when it cannot be opened. Never reads
    more than ``limit + 1`` bytes, even from a file that grows meanwhile."""
    file = Path(path)
    fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        return read_fd(fd, limit, f"{what} {file}")
    finally:
        os.close(fd)


def read_fd(fd: int, limit: int, what: str) -> bytes:
    """:func:`read_file` on an open descriptor, from its start (``pread``)."""
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        raise LimitError(f"{what} is not a regular file")
    if info.st_size > limit:
        raise LimitError(f"{what} is too big ({info.st_size} bytes; at most {limit} are read)")
    chunks = []
    read = 0
    while read <= limit:
        chunk = os.pread(fd, min(1 << 20, limit + 1 - read), read)
        if not chunk:
            break
        chunks.append(chunk)
        read += len(chunk)
    if read > limit:
        raise LimitError(f"{what} is too big (more than {limit} bytes)")
    return b"".join(chunks)


def bounded_lines(stream: BinaryIO, limit: int = MAX_LINE,
                  ) -> Iterator[tuple[str, str | None]]:
    """``(line, problem)`` for each line of ``stream``, never holding more than
    ``limit`` bytes: a longer line is skipped and answered with its first characters
    and the problem; a line that is not UTF-8 likewise. Lines are stripped."""
    while True:
        raw = stream.readline(limit + 1)
        if not raw:
            return
        if len(raw) > limit and not raw.endswith(b"\n"):
            while True:  # skip the rest of the over-long line
                rest = stream.readline(limit)
                if not rest or rest.endswith(b"\n"):
                    break
            yield raw[:60].decode("utf-8", "replace"), f"line longer than {limit} bytes"
            continue
        try:
            yield raw.decode("utf-8").strip(), None
        except UnicodeDecodeError:
            yield raw[:60].decode("utf-8", "replace").strip(), "not UTF-8 text"



def typed_lines(stream: TextIO, limit: int = MAX_LINE) -> Iterator[tuple[str, str | None]]:
    """:func:`bounded_lines` for what a player types (or a script pipes) on a text
    stream; one without a byte buffer (a test's ``StringIO``) is read as text."""
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        yield from bounded_lines(buffer, limit)
        return
    for line in stream:
        if len(line) > limit:
            yield line[:60].strip(), f"line longer than {limit} characters"
        else:
            yield line.strip(), None
