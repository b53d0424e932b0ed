"""Contacts between the pieces of a tiling: side, point and swap contact (rules file, section 3).

Built in O(n log n): side contacts by sweeping the pieces' edges on each grid line, corner-only
contacts through a map of corner points (in a tiling two pieces that meet only at a point meet
at a corner of both), swap contacts through a map of whole sides.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence

from companion.games.crumble.geometry import Rect

LOGGER = logging.getLogger(__name__)

NO_PIECE = -1


def edge_mask(rect: Rect, width: int, height: int) -> int:
    """The board sides ``rect`` touches: bits N=1, E=2, S=4, W=8."""
    x, y, w, h = rect
    return ((y + h == height) | (x + w == width) << 1 | (y == 0) << 2 | (x == 0) << 3)


def _overlaps(
    left: list[tuple[int, int, int]], right: list[tuple[int, int, int]],
) -> list[tuple[int, int]]:
    """Pairs of (start, end, piece) spans on one line that overlap for a positive length."""
    left.sort()
    right.sort()
    pairs: list[tuple[int, int]] = []
    i = j = 0
    while i < len(left) and j < len(right):
        a0, a1, a = left[i]
        b0, b1, b = right[j]
        if min(a1, b1) > max(a0, b0):
            pairs.append((a, b))
        if a1 <= b1:
            i += 1
        else:
            j += 1
    return pairs


def build(
    rects: Sequence[Rect],
) -> tuple[list[list[int]], list[list[int]], list[list[int]]]:
    """For every piece: side neighbours, point neighbours and swap neighbours [N, E, S, W].

    Swap neighbour entries are piece indices or :data:`NO_PIECE`. Indices whose rectangle is
    ``None``-like (width 0) are skipped, so callers can keep removed pieces as placeholders.
    """
    n = len(rects)
    lefts: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    rights: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    bottoms: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    tops: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    corners: dict[tuple[int, int], list[int]] = defaultdict(list)
    west_sides: dict[tuple[int, int, int], int] = {}
    south_sides: dict[tuple[int, int, int], int] = {}
    for i, (x, y, w, h) in enumerate(rects):
        if w <= 0:
            continue
        lefts[x].append((y, y + h, i))
        rights[x + w].append((y, y + h, i))
        bottoms[y].append((x, x + w, i))
        tops[y + h].append((x, x + w, i))
        for corner in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)):
            corners[corner].append(i)
        west_sides[(x, y, h)] = i
        south_sides[(x, y, w)] = i
    side: list[set[int]] = [set() for _ in range(n)]
    for line, spans in rights.items():
        if line in lefts:
            for a, b in _overlaps(spans, lefts[line]):
                side[a].add(b)
                side[b].add(a)
    for line, spans in tops.items():
        if line in bottoms:
            for a, b in _overlaps(spans, bottoms[line]):
                side[a].add(b)
                side[b].add(a)
    point = [set(s) for s in side]
    for members in corners.values():
        for a in members:
            for b in members:
                if a != b:
                    point[a].add(b)
    swap = [[NO_PIECE] * 4 for _ in range(n)]
    for i, (x, y, w, h) in enumerate(rects):
        if w <= 0:
            continue
        east = west_sides.get((x + w, y, h), NO_PIECE)
        if east != NO_PIECE:
            swap[i][1] = east
            swap[east][3] = i
        north = south_sides.get((x, y + h, w), NO_PIECE)
        if north != NO_PIECE:
            swap[i][0] = north
            swap[north][2] = i
    return [sorted(s) for s in side], [sorted(s) for s in point], swap
