"""Exact Crumble geometry: dyadic numbers, rectangles scaled to integers, regions.

Every coordinate of a position is a dyadic rational (an integer over a power of two). A
position picks one scale ``S`` (a power of two) such that every coordinate times ``S`` is an
even integer; then every piece and every half of a piece has integer coordinates, and the
engine never touches a float. :func:`fmt` writes a scaled integer back in lowest terms.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import TypeVar

from companion.limits import is_digits

LOGGER = logging.getLogger(__name__)

Rect = tuple[int, int, int, int]
Num = TypeVar("Num", int, Fraction)
"""A rectangle ``(x, y, w, h)`` in scaled integer units."""

ExactRect = tuple[Fraction, Fraction, Fraction, Fraction]
"""A rectangle ``(x, y, w, h)`` in board units, exact."""

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
DIRECTIONS = "NESW"
SIDE_BITS = {"N": 1, "E": 2, "S": 4, "W": 8}
ALL_SIDES = 15


def parse_number(text: str) -> Fraction:
    """A non-negative dyadic number written ``7`` or ``p/q``; ``ValueError`` otherwise."""
    head, slash, tail = text.partition("/")
    if not is_digits(head) or (slash and not is_digits(tail)):
        raise ValueError(f"{text!r} is not a number (write 3 or 3/4)")
    value = Fraction(int(head), int(tail) if slash else 1) if (not slash or int(tail)) else None
    if value is None:
        raise ValueError(f"{text!r} divides by zero")
    if value.denominator & (value.denominator - 1):
        raise ValueError(f"{text!r} is not dyadic (its denominator must be a power of two)")
    return value


@lru_cache(maxsize=65536)
def fmt(value: int, scale: int) -> str:
    """The scaled integer ``value`` (units of ``1/scale``) in lowest terms: ``3``, ``9/2``."""
    exact = Fraction(value, scale)
    if exact.denominator == 1:
        return str(exact.numerator)
    return f"{exact.numerator}/{exact.denominator}"


def fmt_exact(value: Fraction) -> str:
    """An exact number in lowest terms: ``3``, ``9/2``."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


@lru_cache(maxsize=65536)
def rect_text(rect: Rect, scale: int) -> str:
    """``x,y,w,h`` in lowest terms (the cell name of a piece, and its part of the board text)."""
    x, y, w, h = rect
    return f"{fmt(x, scale)},{fmt(y, scale)},{fmt(w, scale)},{fmt(h, scale)}"


def to_exact(rect: Rect, scale: int) -> ExactRect:
    x, y, w, h = rect
    return (Fraction(x, scale), Fraction(y, scale), Fraction(w, scale), Fraction(h, scale))


def to_scaled(rect: ExactRect, scale: int) -> Rect | None:
    """``rect`` in units of ``1/scale``, or ``None`` when it is not on that grid."""
    out = []
    for value in rect:
        scaled = value * scale
        if scaled.denominator != 1:
            return None
        out.append(scaled.numerator)
    return (out[0], out[1], out[2], out[3])


def legal_shape(w: int | Fraction, h: int | Fraction) -> bool:
    """A square or a 2:1 half-square of positive size."""
    return w > 0 and h > 0 and (w == h or w == 2 * h or h == 2 * w)


def slab_form(rects: list[ExactRect]) -> tuple[ExactRect, ...]:
    """A region (a union of rectangles) in maximal horizontal slab form, sorted by (y, x).

    The region is cut at every height where its horizontal cross-section changes; each slab's
    maximal x-intervals are written as rectangles (rules file, section 9).
    """
    return tuple(_slabs(rects))


def slab_form_scaled(rects: list[Rect]) -> list[Rect]:
    """:func:`slab_form` on scaled integer rectangles (the same cuts, no fractions)."""
    return _slabs(rects)


def _slabs(rects: Sequence[tuple[Num, Num, Num, Num]]) -> list[tuple[Num, Num, Num, Num]]:
    """The slab form of :func:`slab_form`, for exact or scaled integer rectangles alike."""
    ys = sorted({r[1] for r in rects} | {r[1] + r[3] for r in rects})
    slabs: list[tuple[Num, Num, list[tuple[Num, Num]]]] = []
    for y0, y1 in itertools.pairwise(ys):
        spans = sorted((r[0], r[0] + r[2]) for r in rects if r[1] <= y0 and r[1] + r[3] >= y1)
        merged: list[tuple[Num, Num]] = []
        for a, b in spans:
            if merged and merged[-1][1] >= a:
                merged[-1] = (merged[-1][0], max(merged[-1][1], b))
            else:
                merged.append((a, b))
        if not merged:
            continue
        if slabs and slabs[-1][1] == y0 and slabs[-1][2] == merged:
            slabs[-1] = (slabs[-1][0], y1, merged)
        else:
            slabs.append((y0, y1, merged))
    out = [(a, y0, b - a, y1 - y0) for y0, y1, merged in slabs for a, b in merged]
    out.sort(key=lambda r: (r[1], r[0]))
    return out


def region_text(region: tuple[ExactRect, ...] | None) -> str:
    """A history entry: ``-`` or the slab-form rectangles ``x,y,w,h`` joined by ``;``."""
    if region is None:
        return "-"
    return ";".join(",".join(fmt_exact(v) for v in r) for r in region)
