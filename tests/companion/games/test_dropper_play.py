"""Dropper played out: random games to the end with the rules file's invariants, the
engine against the plain implementation (benchmarks/plain_dropper.py), the step
builder against the turn list, and ``turns_to``.

Reduced by default; ``RAINDROP_FULL=1`` plays ten times as many games.
"""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Iterator

import plain_dropper as plain
import pytest

from companion import games
from companion.games.dropper import RULES, DropperBuilder, DropperPosition

FULL = os.environ.get("RAINDROP_FULL") == "1"
GAMES = 200 if FULL else 20


def random_games(count: int, seed: int) -> Iterator[list[DropperPosition]]:
    """Seeded random games to the end, on boards from 1 x 1 to 10 x 10 (8 x 8 often)."""
    rng = random.Random(seed)
    for number in range(count):
        if number % 3 == 0:
            width = height = 8
        else:
            width, height = rng.randint(1, 10), rng.randint(1, 10)
        pos = RULES.start(width=str(width), height=str(height), first=rng.choice("wb"))
        line = [pos]
        while True:
            turns = sorted(RULES.turns(pos))
            if not turns:
                break
            pos = RULES.play(pos, rng.choice(turns))
            line.append(pos)
        yield line


def occupied(pos: DropperPosition) -> set[str]:
    return {cell for cell, content in pos.cells().items() if content != "."}


def test_random_games_keep_the_invariants() -> None:
    for line in random_games(GAMES, seed=1):
        first = line[0]
        assert len(line) - 1 <= first.width * first.height  # the game always ends
        for before, after in itertools.pairwise(line):
            stones = occupied(before)
            assert stones <= occupied(after)  # stones never leave the board
            assert len(occupied(after)) - len(stones) in (1, 2)
            assert len(RULES.free_points(after)) <= len(RULES.free_points(before))
            assert after.side != before.side
            if not RULES.free_points(before):  # once drop-only, always drop-only
                assert not RULES.free_points(after)
        end = line[-1]
        outcome = RULES.outcome(end)
        assert outcome is not None
        assert RULES.successors(end) == frozenset()
        assert all(RULES.outcome(pos) is None for pos in line[:-1])
        groups = RULES.groups(end)
        assert sum(groups["white"]) == end.board.count("w")
        assert sum(groups["black"]) == end.board.count("b")


def test_engine_agrees_with_the_plain_implementation() -> None:
    for line in random_games(GAMES if FULL else 8, seed=2):
        for pos in line:
            text = pos.text()
            expected = plain.turns(text)
            turns = list(RULES.turns(pos))
            assert len(turns) == len(set(turns))  # each turn once
            assert set(turns) == set(expected), text
            assert {p.text() for p in RULES.successors(pos)} == set(expected.values()), text
            assert RULES.count_turns(pos) == len(expected)
            outcome = RULES.outcome(pos)
            assert (outcome.result if outcome else None) == plain.outcome(text), text


def test_turns_play_and_turns_to_agree() -> None:
    rng = random.Random(3)
    for line in random_games(GAMES // 2, seed=3):
        for pos in line:
            after = RULES.successors(pos)
            turns = list(RULES.turns(pos))
            assert len(after) == len(turns)  # rules 8.4: one successor per turn
            for turn in rng.sample(turns, min(len(turns), 12)):
                reached = RULES.play(pos, turn)
                assert reached in after
                assert RULES.canonical_turn(pos, turn.upper()) == turn
                assert RULES.turns_to(pos, reached) == (turn,)
            assert RULES.turns_to(pos, pos) == ()
            for other in rng.sample(line, min(len(line), 4)):
                if other not in after:
                    assert RULES.turns_to(pos, other) == ()


def test_turns_to_refuses_near_misses() -> None:
    pos = RULES.parse("dropper ......../......../......../...w..../......../......../"
                      "......../........ b")
    reached = RULES.play(pos, "d5>c5+g5")
    # the same board with the wrong side to move, a stone too many, a different size
    assert RULES.turns_to(pos, RULES.parse(reached.text()[:-1] + "b")) == ()
    assert RULES.turns_to(pos, RULES.parse(reached.text().replace("........ w", "b....... w")))\
        == ()
    assert RULES.turns_to(pos, RULES.start(size="3")) == ()
    # a free stone that is not free, a push that is not a neighbour
    assert RULES.turns_to(pos, RULES.parse(
        "dropper ......../......../......../..wbb.../......../......../......../........ w")) \
        == ()
    assert RULES.turns_to(pos, RULES.parse(
        "dropper ......../......../......../.w.b..b./......../......../......../........ w")) \
        == ()


def complete_turns(builder: DropperBuilder) -> Iterator[DropperBuilder]:
    """Every complete builder reachable from ``builder`` through its next steps."""
    if builder.complete:
        assert builder.next_steps() == ()
        yield builder
        return
    for step in builder.next_steps():
        yield from complete_turns(builder.add(step))


def check_builder(pos: DropperPosition) -> None:
    turns = set(RULES.turns(pos))
    built = list(complete_turns(RULES.builder(pos)))
    assert {b.turn() for b in built} == turns
    assert len(built) == len(turns)
    for b in built:
        assert b.position == RULES.play(pos, b.turn())
        assert "".join(step.text for step in b.steps) == b.turn()
        board = dict(pos.cells())
        for step in b.steps:
            board.update(step.changes)
        assert board == dict(b.position.cells())


@pytest.mark.parametrize("text", [
    "dropper ......../......../......../...w..../......../......../......../........ b",
    "dropper .w.. b",
    "dropper bbw/bww/ww. b",
    "dropper ......../......../......../......../......../......../ww....../bw...... w",
    "dropper . w",
])
def test_builder_yields_exactly_the_legal_turns(text: str) -> None:
    check_builder(RULES.parse(text))


def test_builder_on_random_positions() -> None:
    rng = random.Random(4)
    for line in random_games(GAMES // 2, seed=4):
        for pos in rng.sample(line, min(len(line), 4)):
            check_builder(pos)


def test_builder_steps_are_the_physical_acts() -> None:
    pos = RULES.parse("dropper ......../......../......../...w..../......../......../"
                      "......../........ b")
    b = RULES.builder(pos)
    assert not b.complete and b.steps == () and b.start == pos == b.position
    assert "drop on a White stone" in b.message
    taps = b.next_steps()
    assert [s.text for s in taps] == ["d5"] and taps[0].changes == {}
    b = b.add("d5")
    assert b.position == pos and "push the White stone on d5" in b.message
    pushes = {s.text: s for s in b.next_steps()}
    assert set(pushes) == {">c4", ">c5", ">c6", ">d4", ">d6", ">e4", ">e5", ">e6"}
    assert pushes[">c5"].changes == {"c5": "w", "d5": "b"}
    assert "push the White stone from d5 to c5" in pushes[">c5"].note
    b = b.add(pushes[">c5"])
    assert b.position.at("c5") == "w" and b.position.at("d5") == "b"
    assert b.position.side == "b" and not b.complete
    assert "put a free stone" in b.message and "(52 such points)" in b.message
    frees = {s.text for s in b.next_steps()}
    assert "+g5" in frees and "+b5" not in frees and len(frees) == 52
    b = b.add("g5")  # the "+" may be left out
    assert b.complete and b.turn() == "d5>c5+g5" and b.next_steps() == ()
    assert b.position == RULES.play(pos, "d5>c5+g5") and b.position.side == "w"
    assert b.message == "the turn is complete: d5>c5+g5"
    assert RULES.builder(pos).add("D5>C5+G5").position == b.position
    assert RULES.builder(pos).add("d5").add(">c5").add("+g5").turn() == "d5>c5+g5"


def test_builder_drop_only_and_free_only_turns() -> None:
    b = RULES.builder(RULES.parse("dropper .w.. b")).add("b1").add(">c1")
    assert b.complete and b.turn() == "b1>c1" and b.position.text() == "dropper .bw. w"
    free_only = RULES.builder(RULES.parse("dropper ... w"))
    assert "no Black stone can be dropped on" in free_only.message
    step = next(s for s in free_only.next_steps() if s.text == "a1")
    assert step.changes == {"a1": "w"}
    done = free_only.add(step)
    assert done.complete and done.turn() == "a1" and done.position.text() == "dropper w.. b"
    over = RULES.builder(RULES.parse("dropper bbw/bww/ww. w"))
    assert over.next_steps() == () and not over.complete
    assert "the game is over" in over.message


@pytest.mark.parametrize(("steps", "reason"), [
    (["c5"], "cannot drop on c5: it is empty; tap a White stone"),
    ([">c5"], "out of order: next is tap the stone to drop on"),
    (["d5", "b5"], "cannot push the stone on d5 to b5: b5 is not next to d5"),
    (["d5", "+c5"], "out of order: next is the push"),
    (["d5", "c5", "e6"], "the free stone cannot go on e6: a neighbour holds a stone"),
    (["d5", "c5", "d5"], "the free stone cannot go on d5: it holds a stone"),
    (["d5", "c5", "g5", "a1"], "the turn is complete: d5>c5\\+g5; no more steps"),
    (["i9"], "i9 is off the 8 x 8 board"),
    (["hello"], "is not a step"),
    (["d5>c5!"], "is not a step"),
])
def test_builder_refuses_bad_steps(steps: list[str], reason: str) -> None:
    b = RULES.builder(RULES.parse(
        "dropper ......../......../......../...w..../......../......../......../........ b"))
    with pytest.raises(games.IllegalTurn, match=reason):
        for step in steps:
            b = b.add(step)


def test_incomplete_builder_has_no_turn() -> None:
    b = RULES.builder(RULES.start()).add
    with pytest.raises(games.IllegalTurn, match="not complete"):
        RULES.builder(RULES.parse("dropper .w.. b")).add("b1").turn()
    assert b("a1").turn() == "a1"
