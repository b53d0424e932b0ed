"""Rumbo on random games: playouts to the end with the rules file's invariants, perft counts,
and the engine cross-checked against the plain implementation in benchmarks/.

Seeded. Reduced by default; ``RAINDROP_FULL=1`` plays ten times as many games.
"""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Iterator

import plain_rumbo
import pytest

from companion.games.rumbo import RULES, RumboPosition

FULL = os.environ.get("RAINDROP_FULL") == "1"
GAMES = 300 if FULL else 30


def _options(rng: random.Random, size: int) -> dict[str, str]:
    options = {"size": str(size)}
    if rng.random() < 0.3:
        options["edgeholes"] = "on"
    if rng.random() < 0.3:
        options["nostraight"] = "on"
    return options


def random_game(rng: random.Random, size: int | None = None) -> Iterator[RumboPosition]:
    """Every position of one random game from the setup (komi, side) to the full board."""
    n = size if size is not None else rng.choice([2, 3, 4, 5, 6, 7, 9])
    pos = RULES.start(**_options(rng, n))
    yield pos
    while RULES.outcome(pos) is None:
        pos = RULES.play(pos, rng.choice(list(RULES.turns(pos))))
        yield pos


def _points(pos: RumboPosition) -> dict[str, tuple[str, str]]:
    return {pos.geometry.names[i]: (pos.stones[i], pos.claims[i]) for i in pos.geometry.points}


def test_random_playouts_keep_the_invariants() -> None:
    rng = random.Random(2016)
    for _ in range(GAMES):
        game = list(random_game(rng))
        start, last = game[0], game[-1]
        n = start.size
        assert [p.side for p in game[:3]] == ["k", "s", "v"]
        assert len(game) - 3 <= n * n  # at most N*N placements (R4)
        for before, after in itertools.pairwise(game):
            assert RULES.parse(after.text()) == after  # valid, round trips
            assert after in RULES.successors(before)
            if before.setup:
                continue
            was, now = _points(before), _points(after)
            placed = [p for p in was if was[p][0] == "." and now[p][0] != "."]
            assert placed, "every turn places a stone"
            assert len({now[p][0] for p in placed}) == 1, "fills take the first stone's colour"
            assert len(placed) <= 5
            for point, (stone, mark) in was.items():
                if stone != ".":
                    assert now[point][0] == stone, "stones never move or change"
                if mark != ".":
                    assert now[point][1] == mark, "claims never change"
            assert after.side == ("h" if before.side == "v" else "v")
        outcome = RULES.outcome(last)
        assert outcome is not None and last.full
        vertical = last.claims.count("v")
        horizontal_stones = last.claims.count("h")
        unclaimed = last.claims.count(".")
        assert vertical + horizontal_stones + unclaimed == n * n  # the score adds up
        assert last.komi is not None
        assert outcome.scores == {
            "vertical": vertical, "horizontal": horizontal_stones + last.komi}
        if vertical != horizontal_stones + last.komi:
            assert outcome.winner == (
                "vertical" if vertical > horizontal_stones + last.komi else "horizontal")
        else:
            assert outcome.winner is None
        if unclaimed == 0 and (n + last.komi) % 2:
            assert outcome.winner is not None  # the parity advice: no tie


def test_engine_agrees_with_the_plain_implementation() -> None:
    rng = random.Random(13)
    checked = 0
    for _ in range(GAMES * 2 // 3):
        for pos in random_game(rng):
            text = pos.text()
            assert {p.text() for p in RULES.successors(pos)} == plain_rumbo.successors(text)
            assert sorted(RULES.turns(pos)) == sorted(plain_rumbo.turns(text))
            outcome = RULES.outcome(pos)
            assert (outcome.result if outcome else None) == plain_rumbo.outcome(text)
            checked += 1
    assert checked > GAMES * 2


def test_every_turn_agrees_with_the_plain_implementation_on_9x9() -> None:
    rng = random.Random(9)
    for _ in range(max(2, GAMES // 10)):
        for pos in random_game(rng, 9):
            if pos.setup or pos.full or rng.random() > 0.2:
                continue
            for turn in RULES.turns(pos):
                assert RULES.play(pos, turn).text() == plain_rumbo.play(pos.text(), turn)


def test_builder_reaches_exactly_the_legal_turns() -> None:
    rng = random.Random(5)
    for _ in range(GAMES):
        for pos in random_game(rng, rng.choice([2, 3, 4, 5])):
            builder = RULES.builder(pos)
            reached = {}
            for step in builder.next_steps():
                done = builder.add(step)
                assert done.complete and done.next_steps() == ()
                reached[done.turn()] = done.position
            assert set(reached) == set(RULES.turns(pos))
            for turn, after in reached.items():
                assert after == RULES.play(pos, turn)
            if not pos.setup and reached:
                turn, after = next(iter(reached.items()))
                step = builder.add(turn).steps[0]
                before = pos.cells()
                changed = {c: v for c, v in after.cells().items() if before[c] != v}
                assert step.changes == changed  # the first stone and every fill


def test_turns_to_agrees_with_filtering_successors() -> None:
    rng = random.Random(7)
    for _ in range(GAMES):
        game = list(random_game(rng))
        for pos in game:
            if rng.random() > 0.3:
                continue
            reaching: dict[RumboPosition, list[str]] = {}
            for turn in RULES.turns(pos):
                reaching.setdefault(RULES.play(pos, turn), []).append(turn)
            assert set(reaching) == RULES.successors(pos)
            for target, turns in reaching.items():
                assert RULES.turns_to(pos, target) == tuple(sorted(turns))
            assert RULES.turns_to(pos, pos) == ()
            assert RULES.turns_to(pos, game[-1]) == tuple(sorted(reaching.get(game[-1], [])))


def _perft(pos: RumboPosition, depth: int) -> list[tuple[int, int]]:
    """(turn sequences, distinct positions) after 1..depth turns."""
    layer = {pos: 1}
    counts = []
    for _ in range(depth):
        following: dict[RumboPosition, int] = {}
        for here, ways in layer.items():
            for turn in RULES.turns(here):
                after = RULES.play(here, turn)
                following[after] = following.get(after, 0) + ways
        layer = following
        counts.append((sum(layer.values()), len(layer)))
    return counts


def _perft_plain(text: str, depth: int) -> list[tuple[int, int]]:
    layer = {text: 1}
    counts = []
    for _ in range(depth):
        following: dict[str, int] = {}
        for here, ways in layer.items():
            for turn in plain_rumbo.turns(here):
                after = plain_rumbo.play(here, turn)
                following[after] = following.get(after, 0) + ways
        layer = following
        counts.append((sum(layer.values()), len(layer)))
    return counts


# (options, depth, counts). 2x2 and 3x3 depths 1-2 follow by hand (no fill or death is
# possible yet: 8 = 4 points x 2 colours, 48 = 8 x 6 sequences giving 24 = C(4,2) x 4 boards;
# the setup gives 9 komi values, then one position per komi whichever side is taken); the
# rest were counted by the plain implementation, which this test also runs.
PERFT = [
    ({"size": "2", "komi": "0"}, 4, [(8, 8), (48, 24), (192, 48), (384, 68)]),
    ({"size": "2", "komi": "0", "edgeholes": "on"}, 4, [(8, 8), (48, 24), (160, 36), (192, 24)]),
    ({"size": "2"}, 4, [(9, 9), (18, 9), (144, 72), (864, 216)]),
    ({"size": "3", "komi": "0"}, 3, [(18, 18), (288, 144), (4032, 688)]),
    ({"size": "3", "komi": "0", "edgeholes": "on"}, 3, [(18, 18), (288, 144), (4000, 680)]),
]


@pytest.mark.parametrize(("options", "depth", "counts"), PERFT)
def test_perft(options: dict[str, str], depth: int, counts: list[tuple[int, int]]) -> None:
    pos = RULES.start(**options)
    assert _perft(pos, depth) == counts
    assert _perft_plain(pos.text(), depth) == counts


def test_successor_counts_of_the_rules_file() -> None:
    for n in (2, 3, 9, 26):
        assert len(RULES.successors(RULES.start(size=str(n)))) == 2 * n * n + 1
        assert len(RULES.successors(RULES.start(size=str(n), komi="0"))) == 2 * n * n
    rng = random.Random(3)
    for _ in range(GAMES):
        for pos in random_game(rng):
            if not pos.setup:
                assert len(RULES.successors(pos)) <= 2 * pos.stones.count(".")


def test_facts_of_section_11_hold_in_random_games() -> None:
    """Other-coloured dead groups never have the empty set or N+E+S+W; N+E+S+W needs a fill;
    under edgeholes nothing dies with the empty set; every claim in ``effects`` is in the text."""
    rng = random.Random(11)
    seen: set[str] = set()
    for _ in range(GAMES):
        game = list(random_game(rng))
        for before, after in itertools.pairwise(game):
            if before.setup:
                continue
            turn = RULES.turns_to(before, after)[0]
            done = RULES.effects(before, turn)
            assert done.after == after
            for death in done.dead:
                seen.add(death.directions)
                if death.colour != done.colour:
                    assert death.directions not in ("none", "N+E+S+W")
                if death.directions == "N+E+S+W":
                    assert done.filled
                if before.edgeholes:
                    assert death.directions != "none"
                mark = {"vertical": "v", "horizontal": "h", None: "."}[death.owner]
                assert {after.claim(cell) for cell in death.cells} == {mark}
                assert all(before.claim(cell) == "." for cell in death.cells if
                           before.stone(cell) != ".")
    assert {"N", "E", "S", "W", "none"} <= seen
