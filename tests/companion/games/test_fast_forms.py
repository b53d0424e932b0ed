"""The fast forms behind the games interface agree with the engines and the plain peers.

Dropper positions packed in one integer, Rumbo's placement on bit boards and its
successors, the search playouts: checked on random positions of every size,
tiny boards and finished games included.
"""

from __future__ import annotations

import pickle
import random

import plain_dropper
import plain_rumbo

from companion.games.dropper import RULES as DROPPER
from companion.games.dropper.bot import DropperDomain, Playout, state_of, tables
from companion.games.dropper.position import DropperPosition, parse_position
from companion.games.rumbo import RULES as RUMBO
from companion.games.rumbo.bot import RumboDomain
from companion.games.rumbo.bot import state_of as rumbo_state
from companion.games.rumbo.engine import place as slow_place
from companion.games.rumbo.fast import board_of, fields_of, masks, place


def random_board(width: int, height: int, rng: random.Random) -> str:
    rows = ["".join(rng.choice(".wwbb.") for _ in range(width)) for _ in range(height)]
    return "/".join(rows)


def test_a_packed_dropper_position_is_its_text() -> None:
    rng = random.Random(1)
    seen: dict[DropperPosition, str] = {}
    for _ in range(400):
        width, height = rng.randint(1, 26), rng.randint(1, 26)
        if rng.random() < 0.7:
            width, height = rng.randint(1, 5), rng.randint(1, 5)
        text = f"dropper {random_board(width, height, rng)} {rng.choice('wb')}"
        pos = parse_position(text)
        assert pos.text() == text
        again = DropperPosition.of(pos.white, pos.black, pos.side, pos.grid)
        assert again == pos and hash(again) == hash(pos) and again.text() == text
        assert pickle.loads(pickle.dumps(pos)) == pos
        assert f"{pos}" == text and bool(pos)
        if pos in seen:
            assert seen[pos] == text
        seen[pos] = text


def test_dropper_successors_and_playouts_agree_with_the_plain_rules_on_every_size() -> None:
    rng = random.Random(2)
    for width, height in ((1, 1), (2, 1), (1, 2), (3, 1), (2, 3), (4, 4), (5, 2), (6, 6)):
        pos = DROPPER.start(width=str(width), height=str(height))
        domain = DropperDomain(tables(pos.grid))
        while True:
            text = pos.text()
            mine = {p.text() for p in DROPPER.successors(pos)}
            assert mine == plain_dropper.successors(text), text
            state = state_of(pos)
            by_turns = {domain.play(state, turn) for turn in domain.turns(state)}
            assert {state_of(p) for p in DROPPER.successors(pos)} == by_turns, text
            outcome = DROPPER.outcome(pos)
            result = domain.result(state)
            assert (result is None) == (outcome is None)
            if outcome is not None:
                assert result == {"white": 1.0, "black": 0.0, "draw": 0.5}[outcome.result]
                break
            value = Playout(domain).evaluate(state, rng)
            assert value in (0.0, 0.5, 1.0)
            pos = rng.choice(sorted(DROPPER.successors(pos), key=lambda p: p.text()))


def test_rumbo_bit_board_placement_agrees_with_the_engine_on_every_size() -> None:
    rng = random.Random(3)
    for size, edgeholes, nostraight in ((2, False, False), (3, False, False), (3, True, False),
                                        (4, False, True), (5, True, True), (9, False, False)):
        options = {"size": str(size), "komi": "0", "edgeholes": "on" if edgeholes else "off",
                   "nostraight": "on" if nostraight else "off"}
        pos = RUMBO.start(**options)
        m = masks(size, edgeholes, nostraight)
        while not pos.full:
            board = board_of(pos.stones, pos.claims)
            empties = [i for i, s in enumerate(pos.stones) if s == "."]
            for p in rng.sample(empties, min(6, len(empties))):
                for black in (True, False):
                    fast = place(board, p, black, m)
                    slow = slow_place(pos, p, "b" if black else "w").after
                    assert fields_of(fast, m) == (slow.stones, slow.claims), (pos.text(), p)
            text = pos.text()
            assert {q.text() for q in RUMBO.successors(pos)} == plain_rumbo.successors(text)
            domain = RumboDomain(m, 0)
            state = rumbo_state(pos)
            kids = domain.children(state, rng)
            assert len(kids.actions) == 2 * len(empties)
            pos = RUMBO.play(pos, rng.choice(list(RUMBO.turns(pos))))
        assert RumboDomain(m, 0).result(rumbo_state(pos)) == {
            "vertical": 1.0, "horizontal": 0.0, "draw": 0.5}[plain_rumbo.outcome(pos.text()) or ""]
