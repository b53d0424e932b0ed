"""Seeded random Crumble games: invariants at every step, the engine against the plain peer,
the step builder against ``turns``, and ``turns_to`` against filtering the turns.

Reduced by default; ``RAINDROP_FULL=1`` plays the rules file's 24 games of up to 300 plies.
"""

from __future__ import annotations

import os
import random
from collections import deque
from fractions import Fraction

import plain_crumble
import pytest
from bench_crumble import STOP, random_game

from companion.games.crumble import RULES, CrumbleBuilder, CrumblePosition

FULL = bool(os.environ.get("RAINDROP_FULL"))
GAMES = 24 if FULL else 3
PLIES = 300 if FULL else 50
SEED = 4099


def region(text: str) -> list[tuple[Fraction, ...]]:
    return [tuple(Fraction(v) for v in r.split(",")) for r in text.split(";")]


def inside(inner: str, outer: str) -> bool:
    """Every rectangle of ``inner`` is covered by the union of ``outer`` (area of overlaps)."""
    for x, y, w, h in region(inner):
        covered = Fraction(0)
        for ox, oy, ow, oh in region(outer):
            dx = min(x + w, ox + ow) - max(x, ox)
            dy = min(y + h, oy + oh) - max(y, oy)
            if dx > 0 and dy > 0:
                covered += dx * dy
        if covered != w * h:
            return False
    return True


def area(text: str) -> Fraction:
    total = Fraction(0)
    for item in text.split()[2].split(";"):
        _, _, w, h, _ = item.split(",")
        total += Fraction(w) * Fraction(h)
    return total


def check_position(pos: CrumblePosition) -> None:
    """Tiling, no capturable cluster, not two winners: the validating parser says so."""
    again = RULES.parse(pos.text())
    assert again.text() == pos.text()
    width, height = (int(v) for v in pos.text().split()[1].split("x"))
    assert area(pos.text()) == width * height


def play_checked(pos: CrumblePosition, rng: random.Random) -> tuple[CrumblePosition, bool]:
    """A random turn through the builder, checking the board after every step."""
    builder = RULES.builder(pos)
    builder = builder.add(rng.choice(builder.next_steps()))
    check_position(builder.position)
    assert RULES.outcome(builder.position) is None or builder.position.text().split()[4] == "3"
    swapped = False
    while rng.random() >= STOP:
        steps = builder.next_steps()
        if not steps:
            break
        builder = builder.add(rng.choice(steps))
        swapped = True
        check_position(builder.position)
        won = RULES.outcome(builder.position)
        if won is not None and won.winner is not None:
            assert builder.ended and builder.winner == won.winner
            assert builder.next_steps() == ()
        elif builder.ended:
            assert builder.winner is None  # the swapping piece was captured
    assert RULES.play(pos, builder.turn()) == builder.position
    return builder.position, swapped


@pytest.mark.parametrize("game", range(GAMES))
def test_random_game_invariants_and_draw_counter(game: int) -> None:
    rng = random.Random(SEED + game)
    pos = RULES.start()
    history: list[CrumblePosition] = [pos]
    for _ in range(PLIES):
        if RULES.outcome(pos) is not None:
            break
        before = pos.text().split()
        pos, swapped = play_checked(pos, rng)
        after = pos.text().split()
        r_new, r2, r4 = after[5].split("|")[0], before[5].split("|")[1], before[5].split("|")[3]
        assert after[5].split("|")[1:] == before[5].split("|")[:3]
        draw_turn = swapped and "-" not in (r2, r4) and inside(r_new, r2) and inside(r_new, r4)
        expected = str(int(before[4]) + 1) if draw_turn else "0"
        assert after[4] == expected
        history.append(pos)
    assert len(history) > 1


def sample(games: int, plies: list[int], **options: str) -> list[CrumblePosition]:
    out = []
    for g in range(games):
        line = random_game(SEED + 100 + g, max(plies), **options)
        out.extend(line[p] for p in plies if p < len(line))
    return out


CROSS = (sample(6 if FULL else 2, [0, 5, 10, 20, 30, 45, 60, 80] if FULL else [3, 12, 25])
         + sample(3 if FULL else 1, [4, 15, 40] if FULL else [6, 18], width="5", height="4")
         + sample(2 if FULL else 1, [10, 30] if FULL else [8], width="3", height="3",
                  topleft="w"))


@pytest.mark.parametrize("pos", CROSS, ids=lambda p: f"{len(p.state.rects)}pieces")
def test_successors_match_the_plain_peer(pos: CrumblePosition) -> None:
    fresh = CrumblePosition(pos.text())
    assert {p.text() for p in RULES.successors(fresh)} == plain_crumble.successors(pos.text())


def builder_turns(pos: CrumblePosition) -> tuple[set[str], set[str]]:
    """Breadth-first through the builder, one visit per (board, swapping piece) state."""
    turns: set[str] = set()
    ends: set[str] = set()
    root = RULES.builder(pos)
    for action in root.next_steps():
        after = root.add(action)
        assert after.complete
        turns.add(after.turn())
        ends.add(after.position.text())
        seen = {(after.position.text(), name) for name in _new_names(after)}
        queue: deque[CrumbleBuilder] = deque([after])
        while queue:
            current = queue.popleft()
            for step in current.next_steps():
                nxt = current.add(step)
                key = (nxt.position.text(), nxt.swapping)
                if key in seen:
                    continue
                seen.add(key)
                turns.add(nxt.turn())
                ends.add(nxt.position.text())
                assert RULES.play(pos, nxt.turn()) == nxt.position
                if not nxt.ended:
                    queue.append(nxt)
    return turns, ends


def _new_names(builder: CrumbleBuilder) -> list[str]:
    from companion.games.crumble.engine import piece_name
    assert builder.swap_state is not None
    work = builder.swap_state.work
    return [piece_name(work.rects[i], work.scale) for i in work.new]


BUILDER = sample(6 if FULL else 2, [0, 4, 9, 15] if FULL else [2, 8])


@pytest.mark.parametrize("pos", BUILDER, ids=lambda p: f"{len(p.state.rects)}pieces")
def test_builder_reaches_exactly_the_turns(pos: CrumblePosition) -> None:
    turns, ends = builder_turns(pos)
    assert turns == set(RULES.turns(pos))
    assert ends == {p.text() for p in RULES.successors(pos)}


@pytest.mark.parametrize("pos", BUILDER, ids=lambda p: f"{len(p.state.rects)}pieces")
def test_turns_to_agrees_with_filtering(pos: CrumblePosition) -> None:
    played: dict[str, list[str]] = {}
    for turn in RULES.turns(pos):
        played.setdefault(RULES.play(pos, turn).text(), []).append(turn)
    rng = random.Random(len(played))
    for target in rng.sample(sorted(played), min(25, len(played))):
        assert RULES.turns_to(pos, CrumblePosition(target)) == tuple(sorted(played[target]))
    assert RULES.turns_to(pos, pos) == ()
    assert RULES.turns_to(pos, RULES.start(width="5")) == ()
