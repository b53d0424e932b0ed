"""Random Raindrops games: the rules file's invariants, and the engine against the plain peer.

Reduced by default; ``RAINDROP_FULL=1`` plays more and bigger games.
"""

from __future__ import annotations

import os
import random

import plain_raindrops as plain
import pytest

from companion.games.raindrops import RULES as R
from companion.games.raindrops import RaindropsBuilder, RaindropsPosition
from companion.games.raindrops.geometry import bits, geometry
from companion.games.raindrops.units import Context

FULL = os.environ.get("RAINDROP_FULL") == "1"


def phi(pos: RaindropsPosition) -> tuple[int, int]:
    """(all units, all unengaged units): section 8 says every turn lowers it."""
    b_units, b_free = R.engagement(pos, "b")
    w_units, w_free = R.engagement(pos, "w")
    return b_units + w_units, b_free + w_free


def random_turn(pos: RaindropsPosition, rng: random.Random) -> str:
    """A random legal turn built step by step (stopping at random where allowed)."""
    builder = R.builder(pos)
    while True:
        steps = builder.next_steps()
        assert steps or builder.complete, builder.message
        if not steps or (builder.complete and rng.random() < 0.35):
            return builder.turn()
        builder = builder.add(rng.choice(steps))


def playout(size: int, layout: str, rng: random.Random) -> list[RaindropsPosition]:
    pos = R.start(size=str(size), layout=layout)
    seen = [pos]
    units0 = phi(pos)[0]
    while R.outcome(pos) is None:
        before = phi(pos)
        after = R.play(pos, random_turn(pos, rng))
        assert phi(after) < before, (pos.text(), after.text())
        pos = after
        seen.append(pos)
        assert len(seen) < units0 * units0
    return seen


SIZES = list(range(3, 13))


@pytest.mark.parametrize("size", SIZES)
def test_playouts_keep_the_invariants(size: int) -> None:
    rng = random.Random(1000 + size)
    games = 4 if FULL else 1
    for layout in ("full", "sparse"):
        for _ in range(games):
            history = playout(size, layout, rng)
            end = history[-1]
            outcome = R.outcome(end)
            assert outcome is not None and outcome.winner in ("black", "white")
            for pos in history[:-1]:
                assert R.outcome(pos) is None
                b_units = R.engagement(pos, "b")[0]
                w_units = R.engagement(pos, "w")[0]
                assert b_units >= 2 and w_units >= 2
                # a player with two or more units has a legal turn
                assert R.builder(pos).next_steps()


def sample_positions(sizes: list[int], per_size: int, seed: int) -> list[RaindropsPosition]:
    rng = random.Random(seed)
    out: list[RaindropsPosition] = []
    for size in sizes:
        for layout in ("full", "sparse"):
            history = playout(size, layout, rng)
            picks = history[:-1]
            out.extend(rng.sample(picks, min(per_size, len(picks))))
    return out


CROSS_SIZES = [3, 4, 5, 6, 7, 8] if FULL else [3, 4, 5, 6]
CROSS = sample_positions(CROSS_SIZES, 12 if FULL else 4, seed=7)


@pytest.mark.parametrize("index", range(len(CROSS)))
def test_successors_match_the_plain_peer(index: int) -> None:
    pos = CROSS[index]
    ours = {p.text() for p in R.successors(pos)}
    assert ours == plain.successors(pos.text())
    turns = list(R.turns(pos))
    assert len(turns) == len(set(turns)) == len(ours)
    assert {R.play(pos, t).text() for t in turns} == ours
    before = phi(pos)
    assert all(phi(after) < before for after in R.successors(pos))


@pytest.mark.parametrize("index", range(len(CROSS)))
def test_turns_to_agrees_with_filtering_successors(index: int) -> None:
    pos = CROSS[index]
    by_target = {R.play(pos, t): t for t in R.turns(pos)}
    for target, turn in by_target.items():
        assert R.turns_to(pos, target) == (turn,)
    assert R.turns_to(pos, pos) == ()
    flipped = RaindropsPosition(pos.size, pos.board, "w" if pos.side == "b" else "b")
    assert R.turns_to(pos, flipped) == ()
    plain_next = plain.successors(pos.text())
    rng = random.Random(index)
    for target in rng.sample(sorted(by_target, key=str), min(5, len(by_target))):
        if R.outcome(target) is None:
            for two_away in R.successors(target):
                same_side = RaindropsPosition(two_away.size, two_away.board, target.side)
                found = R.turns_to(pos, same_side) != ()
                assert found == (same_side in by_target) == (same_side.text() in plain_next)


def builder_ends(pos: RaindropsPosition) -> tuple[set[RaindropsPosition], int]:
    """Every position a complete step sequence reaches (each builder state explored once)."""
    ends: set[RaindropsPosition] = set()
    seen: set[tuple[object, ...]] = set()
    todo: list[RaindropsBuilder] = [R.builder(pos)]
    complete = 0
    while todo:
        builder = todo.pop()
        steps = builder.next_steps()
        if builder.complete:
            complete += 1
            ends.add(builder.position)
            assert R.play(pos, builder.turn()) == builder.position
        else:
            assert steps, builder.message  # never a dead end
        for step in steps:
            nxt = builder.add(step)
            key = (nxt.chain.state, nxt.chain.legal, nxt.chain.ended != "")
            if key not in seen:
                seen.add(key)
                todo.append(nxt)
    return ends, complete


BUILD = sample_positions([4, 5, 6, 7] if FULL else [4, 5, 6], 6 if FULL else 3, seed=11)


@pytest.mark.parametrize("index", range(len(BUILD)))
def test_builder_reaches_exactly_the_successors(index: int) -> None:
    pos = BUILD[index]
    ends, complete = builder_ends(pos)
    assert ends == set(R.successors(pos))
    assert complete >= len(ends)


ENGAGE = sample_positions([3, 4, 5, 6], 5 if FULL else 3, seed=13)


@pytest.mark.parametrize("index", range(len(ENGAGE)))
def test_closed_form_e1_matches_the_definition(index: int) -> None:
    pos = ENGAGE[index]
    n, grid, _ = plain.parse(pos.text())
    for colour in ("b", "w"):
        view = RaindropsPosition(pos.size, pos.board, colour)
        ctx = Context(view)
        for plan in ctx.plans:
            unit = frozenset((x % n, x // n) for x in bits(plan.mask))
            assert plan.engaged == plain.engaged_brute(n, grid, unit)
            assert plan.engaged == plain.engaged_e1(n, grid, unit)


@pytest.mark.parametrize("size", [3, 5, 8, 12])
def test_liftable_pieces_match_brute_force(size: int) -> None:
    g = geometry(size)
    rng = random.Random(size)
    for _ in range(300 if FULL else 80):
        density = rng.uniform(0.3, 0.9)
        mask = sum(1 << x for x in range(size * size) if rng.random() < density)
        for group in g.components(mask):
            if group.bit_count() < 2:
                continue
            points = {(x % size, x // size) for x in bits(group)}
            expected = {x for x in bits(group)
                        if plain.connected(size, points - {(x % size, x // size)})}
            assert set(bits(g.liftable(group))) == expected


def random_board(rng: random.Random, size: int) -> RaindropsPosition:
    """Any board at all (not from a game) with the game on: big groups, holes, walls."""
    while True:
        black, white = rng.uniform(0.1, 0.6), rng.uniform(0.05, 0.4)
        cells = []
        for _ in range(size * size):
            r = rng.random()
            cells.append("b" if r < black else "w" if r < black + white else ".")
        pos = RaindropsPosition(size, "".join(cells), rng.choice("bw"))
        if "b" in cells and "w" in cells and R.outcome(pos) is None:
            return pos


BOARDS = [random_board(random.Random(i), 4 + i % (4 if FULL else 3))
          for i in range(200 if FULL else 40)]


@pytest.mark.parametrize("index", range(len(BOARDS)))
def test_random_boards_match_the_plain_peer(index: int) -> None:
    pos = R.parse(BOARDS[index].text())
    ours = {p.text() for p in R.successors(pos)}
    assert ours == plain.successors(pos.text())
    assert ours  # two units or more each: a legal turn exists
    if ours:
        target = R.parse(sorted(ours)[index % len(ours)])
        (turn,) = R.turns_to(pos, target)
        assert R.play(pos, turn) == target
        ends, _ = builder_ends(pos) if pos.size <= 5 else (set(R.successors(pos)), 0)
        assert {p.text() for p in ends} == ours


def point_key(size: int, name: str) -> int:
    return (int(name[1:]) - 1) * size + "abcdefghijklmnopqrstuvwxyz".index(name[0])


def turn_key(size: int, turn: str) -> list[tuple[int, int]]:
    return [(point_key(size, step[:2] if step[2] in "-x" else step[:3]),
             point_key(size, step[3:] if step[2] in "-x" else step[4:]))
            for step in turn.split(",")]


@pytest.mark.parametrize("text", [
    "raindrops w....w/....../....../....../..b.../bb...b b",
    "raindrops w....w/....../....../....../...bbb/bb...b b",
    "raindrops ...w/.bb./b.bb/.wwb b",
    *(b.text() for b in BOARDS[:8] if b.size <= 5),
])
def test_listed_turn_is_the_least_of_all_turns_to_its_position(text: str) -> None:
    pos = R.parse(text)
    least: dict[RaindropsPosition, str] = {}
    todo = [R.builder(pos)]
    while todo:
        builder = todo.pop()
        if builder.complete:
            turn = builder.turn()
            end = builder.position
            if end not in least or turn_key(pos.size, turn) < turn_key(pos.size, least[end]):
                least[end] = turn
        todo.extend(builder.add(step) for step in builder.next_steps())
    assert sorted(R.turns(pos)) == sorted(least.values())
