"""Bad input never crashes Rumbo: mangled position texts raise PositionError, mangled turns
IllegalTurn, and whatever parses is valid and round-trips. Seeded; RAINDROP_FULL=1 tries more."""

from __future__ import annotations

import os
import random

from companion.games import IllegalTurn, PositionError
from companion.games.rumbo import RULES

FULL = os.environ.get("RAINDROP_FULL") == "1"
TRIES = 20_000 if FULL else 2_000
ALPHABET = ".bwvhks?/ -+0123456789x,@=edgholsnrtaiumBW\t"
SEEDS = [
    "rumbo bb./wwb/bwb h 0 .../vv./.v.",
    "rumbo .../.../... k ? .../.../...",
    "rumbo .../.../... s -4 .../.../... edgeholes",
    "rumbo www/wbw/w.w v 0 .../.../... nostraight",
    "rumbo bb../wwb./.wb./wwb. v 0 ..../..../..../....",
]


def _mangle(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(chars) + 1)
        kind = rng.random()
        if kind < 0.4 and i < len(chars):
            chars[i] = rng.choice(ALPHABET)
        elif kind < 0.7:
            chars.insert(i, rng.choice(ALPHABET))
        elif i < len(chars):
            del chars[i]
    return "".join(chars)


def test_mangled_positions_raise_position_error_or_round_trip() -> None:
    rng = random.Random(1)
    accepted = 0
    for _ in range(TRIES):
        text = _mangle(rng, rng.choice(SEEDS))
        try:
            pos = RULES.parse(text)
        except PositionError as error:
            assert str(error)
            continue
        accepted += 1
        assert RULES.parse(pos.text()) == pos
        list(RULES.turns(pos))
        RULES.outcome(pos)
    assert 0 < accepted < TRIES


def test_mangled_turns_raise_illegal_turn_or_are_legal() -> None:
    rng = random.Random(2)
    positions = [RULES.parse(text) for text in SEEDS]
    turns = ["b@c3", "w@a1", "komi=4", "side=v", "side=h", "komi=-9"]
    for _ in range(TRIES):
        pos = rng.choice(positions)
        turn = _mangle(rng, rng.choice(turns))
        try:
            canonical = RULES.canonical_turn(pos, turn)
        except IllegalTurn as error:
            assert str(error)
            continue
        assert canonical in set(RULES.turns(pos))
        assert RULES.play(pos, turn) == RULES.play(pos, canonical)
