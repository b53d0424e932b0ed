"""companion.limits: numbers in ASCII digits and few of them, nesting counted outside
strings, files read only when regular and small, lines read with a cap."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from companion.limits import (
    LimitError,
    bounded_lines,
    check_finite,
    check_json_depth,
    is_digits,
    parse_count,
    parse_decimal,
    read_file,
    typed_lines,
)


def test_numbers_are_ascii_digits_and_few() -> None:
    assert parse_count("0042", "n") == 42 and parse_count("7", "n", low=1, high=9) == 7
    for bad in ("", "-1", "+1", " 1", "1_000", "٣", "８", "²", "1" * 10, "1" * 5000, "1.0"):
        with pytest.raises(LimitError):
            parse_count(bad, "n")
        assert not is_digits(bad)
    with pytest.raises(LimitError, match="from 1 to 9, not 10"):
        parse_count("10", "n", low=1, high=9)
    assert parse_decimal("2.5", "s", high=10) == 2.5
    for bad in ("1e3", "nan", "inf", "-1", ".5", "5.", "1" * 10, "2.5.1", "١"):
        with pytest.raises(LimitError):
            parse_decimal(bad, "s", high=1e12)


def test_numbers_from_files_must_be_real_finite_numbers() -> None:
    assert check_finite(3, "x", high=10) == 3.0
    for bad in (True, "3", None, [3], float("nan"), float("inf"), 11, -1):
        with pytest.raises(LimitError):
            check_finite(bad, "x", high=10)


def test_nesting_is_counted_outside_strings() -> None:
    check_json_depth(json.dumps({"a": [[["[[[[[[[[[[[[[[[["]]]}), "x", limit=4)
    check_json_depth(json.dumps({"a": "\\\"[[[[[[[[[[[[["}), "x", limit=2)
    with pytest.raises(LimitError, match="deeper than 4"):
        check_json_depth(b"[" * 5 + b"]" * 5, "x", limit=4)
    check_json_depth(b"[" * 4 + b"]" * 4 + b"[" * 4 + b"]" * 4, "x", limit=4)


def test_only_regular_files_of_a_bounded_size_are_read(tmp_path: Path) -> None:
    small = tmp_path / "small"
    small.write_bytes(b"12345")
    assert read_file(small, 5, "the file") == b"12345"
    with pytest.raises(LimitError, match="too big"):
        read_file(small, 4, "the file")
    with pytest.raises(LimitError, match="not a regular file"):
        read_file(tmp_path, 10, "the file")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(LimitError, match="not a regular file"):
        read_file(fifo, 10, "the file")  # never blocks waiting for a writer
    if os.path.exists("/dev/zero"):
        with pytest.raises(LimitError, match="not a regular file"):
            read_file("/dev/zero", 10, "the file")
    with pytest.raises(FileNotFoundError):
        read_file(tmp_path / "missing", 10, "the file")


def test_lines_are_read_with_a_cap() -> None:
    data = b"short\n" + b"x" * 50 + b"\n\xff\xfe\nlast"
    assert list(bounded_lines(io.BytesIO(data), 20)) == [
        ("short", None), ("x" * 21, "line longer than 20 bytes"),
        ("\ufffd\ufffd", "not UTF-8 text"), ("last", None)]
    assert list(typed_lines(io.StringIO("a\n" + "y" * 30 + "\nb\n"), 20)) == [
        ("a", None), ("y" * 30, "line longer than 20 characters"), ("b", None)]
