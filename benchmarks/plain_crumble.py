"""A plain Crumble: successors of a position text, written from the rules file alone.

The honest peer: what a careful engineer writes in an afternoon. It shares no code with
``companion.games.crumble``: exact coordinates (every number scaled by one power of two so
that each one and each possible half is an integer, as section 11 of the rules file suggests),
contacts found per action through the pieces' edges on each grid line and their shared
corners, captures and chains recomputed over the whole board after every swap step. It is
the peer the benchmark times the engine against, and the tests cross-check the engine with it.
``successors(text) -> set[str]`` gives the canonical texts of every position one complete turn
reaches.
"""

from __future__ import annotations

import random
from fractions import Fraction

Piece = tuple[int, int, int, int, str]
Rect = tuple[int, int, int, int]

SCALE = [1]
"""The current scale: integer coordinate = exact value * SCALE[0] (set by :func:`parse`)."""


def num(text: str) -> int:
    value = Fraction(text) * SCALE[0]
    assert value.denominator == 1
    return value.numerator


def fmt(value: int) -> str:
    """A scaled number in lowest terms (each value written once per scale)."""
    key = (value, SCALE[0])
    text = _FORMATTED.get(key)
    if text is None:
        text = _FORMATTED[key] = _fmt(value)
    return text


_FORMATTED: dict[tuple[int, int], str] = {}


def _fmt(value: int) -> str:
    exact = Fraction(value, SCALE[0])
    if exact.denominator == 1:
        return str(exact.numerator)
    return f"{exact.numerator}/{exact.denominator}"


def parse(text: str) -> dict[str, object]:
    fields = text.split()
    denominator = 1
    for token in fields[2].replace(";", ",").split(",") + fields[5].replace("|", ",").replace(
            ";", ",").split(","):
        if "/" in token:
            denominator = max(denominator, int(token.split("/")[1]))
    SCALE[0] = 2 * denominator
    width, height = (int(v) * SCALE[0] for v in fields[1].split("x"))
    pieces: list[Piece] = []
    for item in fields[2].split(";"):
        x, y, w, h, c = item.split(",")
        pieces.append((num(x), num(y), num(w), num(h), c))
    history: list[list[Rect] | None] = []
    for entry in fields[5].split("|"):
        if entry == "-":
            history.append(None)
        else:
            rects: list[Rect] = []
            for part in entry.split(";"):
                a, b, c2, d = part.split(",")
                rects.append((num(a), num(b), num(c2), num(d)))
            history.append(rects)
    return {"W": width, "H": height, "pieces": pieces, "side": fields[3],
            "draw": fields[4], "history": history}


def region_text(rects: list[Rect] | None) -> str:
    """The maximal horizontal slab form of a union of rectangles."""
    if rects is None:
        return "-"
    ys = sorted({r[1] for r in rects} | {r[1] + r[3] for r in rects})
    slabs: list[tuple[int, int, list[tuple[int, int]]]] = []
    for i in range(len(ys) - 1):
        y0, y1 = ys[i], ys[i + 1]
        intervals = []
        for r in rects:
            if r[1] <= y0 and r[1] + r[3] >= y1:
                intervals.append((r[0], r[0] + r[2]))
        intervals.sort()
        merged: list[tuple[int, int]] = []
        for a, b in intervals:
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
    out = []
    for y0, y1, merged in slabs:
        for a, b in merged:
            out.append((y0, a, f"{fmt(a)},{fmt(y0)},{fmt(b - a)},{fmt(y1 - y0)}"))
    out.sort()
    return ";".join(t for _, _, t in out)


def board_text(pieces: list[Piece]) -> str:
    ordered = sorted(pieces, key=lambda p: (p[1], p[0]))
    return ";".join(piece_text(p) for p in ordered)


def piece_text(p: Piece) -> str:
    """``x,y,w,h,c`` (each piece written once per scale)."""
    key = (p, SCALE[0])
    text = _PIECES.get(key)
    if text is None:
        text = _PIECES[key] = f"{fmt(p[0])},{fmt(p[1])},{fmt(p[2])},{fmt(p[3])},{p[4]}"
    return text


_PIECES: dict[tuple[Piece, int], str] = {}


def side_contact(a: Piece, b: Piece) -> bool:
    ax0, ay0, ax1, ay1 = a[0], a[1], a[0] + a[2], a[1] + a[3]
    bx0, by0, bx1, by1 = b[0], b[1], b[0] + b[2], b[1] + b[3]
    if ax1 == bx0 or bx1 == ax0:
        return min(ay1, by1) - max(ay0, by0) > 0
    if ay1 == by0 or by1 == ay0:
        return min(ax1, bx1) - max(ax0, bx0) > 0
    return False


def point_contact(a: Piece, b: Piece) -> bool:
    ax0, ay0, ax1, ay1 = a[0], a[1], a[0] + a[2], a[1] + a[3]
    bx0, by0, bx1, by1 = b[0], b[1], b[0] + b[2], b[1] + b[3]
    return max(ax0, bx0) <= min(ax1, bx1) and max(ay0, by0) <= min(ay1, by1)


def swap_direction(a: Piece, b: Piece) -> str | None:
    """The side of ``a`` that coincides with a whole side of ``b``, if any."""
    if a[1] == b[1] and a[3] == b[3]:
        if a[0] + a[2] == b[0]:
            return "E"
        if b[0] + b[2] == a[0]:
            return "W"
    if a[0] == b[0] and a[2] == b[2]:
        if a[1] + a[3] == b[1]:
            return "N"
        if b[1] + b[3] == a[1]:
            return "S"
    return None


def contacts(pieces: list[Piece]) -> tuple[list[list[int]], list[list[int]],
                                           list[dict[str, int]]]:
    """Side contacts, point contacts and swap contacts (direction -> piece) of every piece,
    found through the pieces' edges on each grid line and their shared corners."""
    n = len(pieces)
    lefts: dict[int, list[int]] = {}
    rights: dict[int, list[int]] = {}
    bottoms: dict[int, list[int]] = {}
    tops: dict[int, list[int]] = {}
    corners: dict[tuple[int, int], list[int]] = {}
    for i, (x, y, w, h, _) in enumerate(pieces):
        lefts.setdefault(x, []).append(i)
        rights.setdefault(x + w, []).append(i)
        bottoms.setdefault(y, []).append(i)
        tops.setdefault(y + h, []).append(i)
        for corner in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)):
            corners.setdefault(corner, []).append(i)
    side: list[set[int]] = [set() for _ in range(n)]
    swaps: list[dict[str, int]] = [{} for _ in range(n)]
    for x, left_of in rights.items():
        for a in left_of:
            for b in lefts.get(x, ()):
                if side_contact(pieces[a], pieces[b]):
                    side[a].add(b)
                    side[b].add(a)
                    if swap_direction(pieces[a], pieces[b]) == "E":
                        swaps[a]["E"] = b
                        swaps[b]["W"] = a
    for y, below in tops.items():
        for a in below:
            for b in bottoms.get(y, ()):
                if side_contact(pieces[a], pieces[b]):
                    side[a].add(b)
                    side[b].add(a)
                    if swap_direction(pieces[a], pieces[b]) == "N":
                        swaps[a]["N"] = b
                        swaps[b]["S"] = a
    point = [set(s) for s in side]
    for members in corners.values():
        for a in members:
            point[a].update(b for b in members if b != a)
    return [sorted(s) for s in side], [sorted(p) for p in point], swaps


def touches_edge(p: Piece, width: int, height: int) -> bool:
    return p[0] == 0 or p[1] == 0 or p[0] + p[2] == width or p[1] + p[3] == height


def sides_of(p: Piece, width: int, height: int) -> set[str]:
    out = set()
    if p[0] == 0:
        out.add("W")
    if p[0] + p[2] == width:
        out.add("E")
    if p[1] == 0:
        out.add("S")
    if p[1] + p[3] == height:
        out.add("N")
    return out


def do_captures(colours: list[str], point: list[list[int]], pieces: list[Piece],
                width: int, height: int) -> None:
    while True:
        seen = [False] * len(pieces)
        flip: list[int] = []
        for start in range(len(pieces)):
            if seen[start]:
                continue
            cluster = [start]
            seen[start] = True
            i = 0
            while i < len(cluster):
                for j in point[cluster[i]]:
                    if not seen[j] and colours[j] == colours[start]:
                        seen[j] = True
                        cluster.append(j)
                i += 1
            if not any(touches_edge(pieces[k], width, height) for k in cluster):
                flip.extend(cluster)
        if not flip:
            return
        for k in flip:
            colours[k] = "w" if colours[k] == "b" else "b"


def winner(colours: list[str], side: list[list[int]], pieces: list[Piece],
           width: int, height: int) -> str | None:
    seen = [False] * len(pieces)
    for start in range(len(pieces)):
        if seen[start]:
            continue
        chain = [start]
        seen[start] = True
        i = 0
        while i < len(chain):
            for j in side[chain[i]]:
                if not seen[j] and colours[j] == colours[start]:
                    seen[j] = True
                    chain.append(j)
            i += 1
        touched: set[str] = set()
        for k in chain:
            touched |= sides_of(pieces[k], width, height)
        if len(touched) == 4:
            return colours[start]
    return None


def legal_shape(w: int, h: int) -> bool:
    return w > 0 and h > 0 and (w == h or w == 2 * h or h == 2 * w)


def actions(pieces: list[Piece], me: str) -> list[tuple[list[Piece], list[Piece], list[Rect]]]:
    """Every split and join: (pieces after, new pieces, worked region)."""
    out = []
    for horizontal in (True, False):
        lines = set()
        for p in pieces:
            if p[4] == me:
                lines.add(p[1] + p[3] // 2 if horizontal else p[0] + p[2] // 2)
        for line in sorted(lines):
            crossing = []
            for p in pieces:
                if horizontal and p[1] < line < p[1] + p[3]:
                    crossing.append(p)
                if not horizontal and p[0] < line < p[0] + p[2]:
                    crossing.append(p)
            crossing.sort(key=lambda p: p[0] if horizontal else p[1])
            ok = []
            for p in crossing:
                if horizontal:
                    good = p[4] == me and p[1] + p[3] // 2 == line and p[3] >= p[2]
                else:
                    good = p[4] == me and p[0] + p[2] // 2 == line and p[2] >= p[3]
                ok.append(good)
            for i in range(len(crossing)):
                for j in range(i, len(crossing)):
                    if not all(ok[i:j + 1]):
                        break
                    cut = crossing[i:j + 1]
                    rest = [p for p in pieces if p not in cut]
                    new = []
                    for p in cut:
                        x, y, w, h, c = p
                        if horizontal:
                            new += [(x, y, w, h // 2, c), (x, y + h // 2, w, h // 2, c)]
                        else:
                            new += [(x, y, w // 2, h, c), (x + w // 2, y, w // 2, h, c)]
                    out.append((rest + new, new, [p[:4] for p in cut]))
    mine = [p for p in pieces if p[4] == me]
    for a in mine:
        for b in mine:
            x0, y0 = a[0], a[1]
            x1, y1 = b[0] + b[2], b[1] + b[3]
            if not legal_shape(x1 - x0, y1 - y0):
                continue
            inside = []
            bad = False
            for p in pieces:
                px1, py1 = p[0] + p[2], p[1] + p[3]
                overlaps = p[0] < x1 and px1 > x0 and p[1] < y1 and py1 > y0
                if not overlaps:
                    continue
                if p[4] != me or p[0] < x0 or p[1] < y0 or px1 > x1 or py1 > y1:
                    bad = True
                    break
                inside.append(p)
            if bad or len(inside) < 2:
                continue
            joined = (x0, y0, x1 - x0, y1 - y0, me)
            rest = [p for p in pieces if p not in inside]
            out.append(([*rest, joined], [joined], [joined[:4]]))
    return out


def inside_region(inner: list[Rect], outer: list[Rect]) -> bool:
    """Every rectangle of ``inner`` lies in the union of ``outer`` (compared by area)."""
    for r in inner:
        covered = 0
        for o in outer:
            w = min(r[0] + r[2], o[0] + o[2]) - max(r[0], o[0])
            h = min(r[1] + r[3], o[1] + o[3]) - max(r[1], o[1])
            if w > 0 and h > 0:
                covered += w * h
        if covered != r[2] * r[3]:
            return False
    return True


def any_winner(pieces: list[Piece], width: int, height: int) -> str | None:
    n = len(pieces)
    side = [[j for j in range(n) if j != i and side_contact(pieces[i], pieces[j])]
            for i in range(n)]
    return winner([p[4] for p in pieces], side, pieces, width, height)


def successors(text: str) -> set[str]:
    """Every position text one complete legal turn reaches from ``text``."""
    state = parse(text)
    width, height = state["W"], state["H"]
    pieces = state["pieces"]
    me = state["side"]
    draw = state["draw"]
    history = state["history"]
    assert isinstance(width, int) and isinstance(height, int)
    assert isinstance(pieces, list) and isinstance(me, str) and isinstance(draw, str)
    assert isinstance(history, list)
    if draw in ("3", "=") or any_winner(pieces, width, height) is not None:
        return set()
    other = "w" if me == "b" else "b"
    results: set[str] = set()
    for after, new, worked in actions(pieces, me):
        side, point, swaps = contacts(after)
        candidate = (history[1] is not None and history[3] is not None
                     and inside_region(worked, history[1])
                     and inside_region(worked, history[3]))
        prefix_history = [worked, *history[:3]]
        hist = "|".join(region_text(r) for r in prefix_history)
        base = [p[4] for p in after]

        def emit(colours: list[str], swapped: bool, after: list[Piece] = after,
                 candidate: bool = candidate, hist: str = hist) -> None:
            count = int(draw) + 1 if (swapped and candidate) else 0
            board = [(p[0], p[1], p[2], p[3], colours[k]) for k, p in enumerate(after)]
            size = f"{width // SCALE[0]}x{height // SCALE[0]}"
            results.add(f"crumble {size} {board_text(board)} {other} {count} {hist}")

        emit(base, False)
        seen: set[tuple[tuple[str, ...], int]] = set()
        stack: list[tuple[list[str], int]] = []
        for p in new:
            k = after.index(p)
            seen.add((tuple(base), k))
            stack.append((base, k))
        while stack:
            colours, cur = stack.pop()
            for _d, j in swaps[cur].items():
                if colours[j] != other:
                    continue
                nxt = list(colours)
                nxt[cur] = other
                nxt[j] = me
                do_captures(nxt, point, after, width, height)
                emit(nxt, True)
                if winner(nxt, side, after, width, height) is not None:
                    continue
                if nxt[j] != me:
                    continue
                key = (tuple(nxt), j)
                if key not in seen:
                    seen.add(key)
                    stack.append((nxt, j))
    return results


def playout(text: str, rng: random.Random, plies: int) -> str:
    """A random game (a random successor each turn) for at most ``plies`` turns: the last text."""
    for _ in range(plies):
        after = successors(text)
        if not after:
            break
        text = rng.choice(sorted(after))
    return text
