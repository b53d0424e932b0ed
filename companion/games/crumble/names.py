"""Piece designators of the turn text (rules file, section 10.1): ``c4``, ``a6tl``, ``a5:b6``,
``[x,y,w,h]``; printing them canonically and reading them back."""

from __future__ import annotations

import logging
import re
from fractions import Fraction

from companion.games.crumble.geometry import ExactRect, fmt_exact, parse_number

LOGGER = logging.getLogger(__name__)

LETTERS = "abcdefghijklmnopqrstuvwxyz"

_CELL = re.compile(r"^([a-z])([0-9]{1,9})([lrbt]*)$")
_RANGE = re.compile(r"^([a-z])([0-9]{1,9}):([a-z])([0-9]{1,9})$")
_EXACT = re.compile(r"^\[([^\]]*)\]$")


class DesignatorError(ValueError):
    """A designator that cannot be read; the message says why."""


def cell_name(col: int, row: int) -> str:
    return f"{LETTERS[col]}{row + 1}"


def _is_power_of_two(value: Fraction) -> bool:
    n, d = value.numerator, value.denominator
    return n > 0 and (n & (n - 1)) == 0 and (d & (d - 1)) == 0 and (n == 1 or d == 1)


def designate(rect: ExactRect) -> str:
    """The canonical designator of a piece (rules file, section 10.1, printing)."""
    x, y, w, h = rect
    col, row = int(x), int(y)  # floor: coordinates are non-negative
    inside_cell = x + w <= col + 1 and y + h <= row + 1
    if (inside_cell and _is_power_of_two(w) and _is_power_of_two(h)
            and ((x - col) / w).denominator == 1 and ((y - row) / h).denominator == 1):
        return cell_name(col, row) + _halving_path(rect, col, row)
    if all(v.denominator == 1 for v in rect):
        last = cell_name(int(x + w) - 1, int(y + h) - 1)
        return f"{cell_name(col, row)}:{last}"
    return "[" + ",".join(fmt_exact(v) for v in rect) + "]"


def _halving_path(rect: ExactRect, col: int, row: int) -> str:
    """Letters that halve cell (col, row) down to ``rect``; horizontal first when lower."""
    x, y, w, h = rect
    cx, cy, cw, ch = Fraction(col), Fraction(row), Fraction(1), Fraction(1)
    path = []
    while (cw, ch) != (w, h):
        vertical = h == ch if cw == ch else cw > ch
        if vertical:
            cw /= 2
            if x >= cx + cw:
                cx += cw
                path.append("r")
            else:
                path.append("l")
        else:
            ch /= 2
            if y >= cy + ch:
                cy += ch
                path.append("t")
            else:
                path.append("b")
    return "".join(path)


def read_designator(text: str, width: int, height: int) -> ExactRect:
    """The rectangle a designator names (not checked against the pieces); DesignatorError."""
    token = text.strip().lower()
    exact = _EXACT.match(token)
    if exact:
        parts = exact.group(1).split(",")
        if len(parts) != 4:
            raise DesignatorError(f"{text!r}: the exact form is [x,y,w,h]")
        try:
            x, y, w, h = (parse_number(p.strip()) for p in parts)
        except ValueError as exc:
            raise DesignatorError(f"{text!r}: {exc}") from None
        return (x, y, w, h)
    ranged = _RANGE.match(token)
    if ranged:
        c0, r0 = _cell(ranged.group(1), ranged.group(2), width, height, text)
        c1, r1 = _cell(ranged.group(3), ranged.group(4), width, height, text)
        if c1 < c0 or r1 < r0:
            raise DesignatorError(
                f"{text!r}: write the bottom-left cell first, then the top-right cell")
        return (Fraction(c0), Fraction(r0), Fraction(c1 - c0 + 1), Fraction(r1 - r0 + 1))
    cell = _CELL.match(token)
    if not cell:
        raise DesignatorError(
            f"{text!r} is not a piece designator (c4, c4tl, a5:b6 or [x,y,w,h])")
    col, row = _cell(cell.group(1), cell.group(2), width, height, text)
    x, y, w, h = Fraction(col), Fraction(row), Fraction(1), Fraction(1)
    for letter in cell.group(3):
        if letter in "lr":
            if h > w:
                raise DesignatorError(
                    f"{text!r}: {letter!r} halves a tall piece the wrong way (use b or t)")
            w /= 2
            if letter == "r":
                x += w
        else:
            if w > h:
                raise DesignatorError(
                    f"{text!r}: {letter!r} halves a wide piece the wrong way (use l or r)")
            h /= 2
            if letter == "t":
                y += h
    return (x, y, w, h)


def _cell(letter: str, digits: str, width: int, height: int, text: str) -> tuple[int, int]:
    col, row = LETTERS.index(letter), int(digits) - 1
    if not (0 <= col < width and 0 <= row < height):
        raise DesignatorError(f"{text!r}: cell {letter}{digits} is off the {width}x{height} board")
    return col, row
