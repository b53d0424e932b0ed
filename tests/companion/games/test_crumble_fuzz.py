"""Mangled Crumble texts: every one raises PositionError / IllegalTurn with a message, or is
read as something valid whose canonical text reads back the same."""

from __future__ import annotations

import os
import random

from crumble_vectors import P3Q, P6, P10

from companion.games import IllegalTurn, PositionError
from companion.games.crumble import RULES, from_official

TRIALS = 3000 if os.environ.get("RAINDROP_FULL") else 400
ALPHABET = "0123456789,;/|-+>[]: abcdefhltrNESWxbw=HVJ"


def mangle(text: str, rng: random.Random) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        k = rng.randrange(len(chars) + 1)
        kind = rng.randrange(3)
        if kind == 0 and chars:
            del chars[min(k, len(chars) - 1)]
        elif kind == 1:
            chars.insert(k, rng.choice(ALPHABET))
        elif chars:
            chars[min(k, len(chars) - 1)] = rng.choice(ALPHABET)
    return "".join(chars)


def test_mangled_positions() -> None:
    rng = random.Random(11)
    for _ in range(TRIALS):
        text = mangle(rng.choice((P3Q, P6, P10)), rng)
        try:
            pos = RULES.parse(text)
        except PositionError as exc:
            assert str(exc)
            continue
        assert RULES.parse(pos.text()).text() == pos.text()


def test_mangled_turns() -> None:
    rng = random.Random(12)
    pos = RULES.parse(P6)
    turns = list(RULES.turns(pos))
    for _ in range(TRIALS):
        turn = mangle(rng.choice(turns), rng)
        try:
            after = RULES.play(pos, turn)
        except IllegalTurn as exc:
            assert str(exc)
            continue
        assert RULES.play(pos, RULES.canonical_turn(pos, turn)) == after
        builder = RULES.builder(pos)
        try:
            builder.add(turn.split()[0])
        except IllegalTurn as exc:
            raise AssertionError(f"{turn!r} plays but its action is refused: {exc}") from None


def test_mangled_official_notation() -> None:
    rng = random.Random(13)
    pos = RULES.parse(P6)
    for _ in range(TRIALS):
        text = mangle(rng.choice(("1,1H2-1S-S", "4,2VW", "0J2,1", "2,3HN", "1,4HS-E")), rng)
        try:
            turn = from_official(pos, text)
        except IllegalTurn as exc:
            assert str(exc)
            continue
        RULES.play(pos, turn)
