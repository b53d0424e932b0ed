"""Every worked example of the Dropper rules file (section 11, V1 to V10), exactly.

V9 (tiny boards solved) solves the boards up to 3 x 3 by default; the 4 x 3
board (about 230,000 positions) runs with ``RAINDROP_FULL=1``.
"""

from __future__ import annotations

import os
import random
from functools import cache

import plain_dropper as plain
import pytest

from companion import games
from companion.games.dropper import RULES, DropperPosition

FULL = os.environ.get("RAINDROP_FULL") == "1"

START_8 = "dropper ......../......../......../......../......../......../......../........ w"


def texts(positions: frozenset[DropperPosition]) -> set[str]:
    return {p.text() for p in positions}


def test_registry_finds_dropper() -> None:
    assert games.get("dropper") is RULES
    assert games.game_of(START_8) is RULES
    assert RULES.players == ("white", "black")


# V1 ------------------------------------------------------------------------------------


def test_v1_start() -> None:
    start = RULES.start()
    assert start.text() == START_8
    assert RULES.parse(START_8) == start
    after = RULES.successors(start)
    assert len(after) == 64
    assert all(p.board.count("w") == 1 and p.board.count("b") == 0 for p in after)
    assert RULES.outcome(start) is None


# V2 ------------------------------------------------------------------------------------

V2_GAME = [
    ("d5", "dropper ......../......../......../...w..../......../......../......../........ b",
     408),
    ("d5>e6+f3",
     "dropper ......../......../....w.../...b..../......../.....b../......../........ w", 590),
    ("d5>c5+g5",
     "dropper ......../......../....w.../..bw..w./......../.....b../......../........ b", 685),
    ("d5>d4+b3",
     "dropper ......../......../....w.../..bb..w./...w..../.b...b../......../........ w", 660),
    ("d5>e4+a5",
     "dropper ......../......../....w.../w.bw..w./...wb.../.b...b../......../........ b", 665),
    ("d4>d3+e1",
     "dropper ......../......../....w.../w.bw..w./...bb.../.b.w.b../......../....b... w", 655),
]


def test_v2_author_game() -> None:
    pos = RULES.start()
    for turn, expected, count in V2_GAME:
        assert turn in set(RULES.turns(pos))
        after = RULES.play(pos, turn)
        assert after.text() == expected
        assert after in RULES.successors(pos)
        assert RULES.turns_to(pos, after) == (turn,)
        assert len(RULES.successors(after)) == count
        assert RULES.count_turns(after) == count
        assert RULES.outcome(after) is None
        pos = after


def test_v2_author_record_lines_read() -> None:
    pos = RULES.parse(V2_GAME[1][1])
    assert RULES.canonical_turn(pos, "W D5>C5+G5.") == "d5>c5+g5"
    assert RULES.play(pos, "W D5>C5+G5.").text() == V2_GAME[2][1]
    with pytest.raises(games.IllegalTurn, match="a turn for Black, but White is to move"):
        RULES.play(pos, "B d5>c5+g5")


def test_v2_hand_counts_explained() -> None:
    """After 1. d5: 4 orthogonal pushes leave 52 free points, 4 diagonal ones 50.
    After 2. ...d5>e6+f3: 42 free points and 15 drops (7 on d5, 8 on f3)."""
    pos = RULES.parse(V2_GAME[0][1])
    per_drop: dict[str, int] = {}
    for turn in RULES.turns(pos):
        drop = turn.split("+")[0]
        per_drop[drop] = per_drop.get(drop, 0) + 1
    assert sorted(per_drop.values()) == [50] * 4 + [52] * 4
    assert per_drop["d5>c5"] == 52 and per_drop["d5>e6"] == 50
    pos = RULES.parse(V2_GAME[1][1])
    assert len(RULES.free_points(pos)) == 42
    drops = RULES.drops(pos)
    assert len(drops) == 15
    assert sum(d.startswith("d5>") for d in drops) == 7
    assert sum(d.startswith("f3>") for d in drops) == 8


@pytest.mark.parametrize(("turn", "reason"), [
    ("d5", "a drop comes first"),
    ("d5>e6", "the free stone is due"),
    ("e6>d5+f3", "cannot drop on e6: it is empty"),
    ("d5>b5+f3", "b5 is not next to d5"),
    ("d5>e6+e7", "cannot go on e7 after the drop d5>e6: its neighbour e6 holds a stone"),
    ("i5", "i5 is off the 8 x 8 board"),
])
def test_v2_illegal_turns_after_d5(turn: str, reason: str) -> None:
    pos = RULES.parse(V2_GAME[0][1])
    with pytest.raises(games.IllegalTurn, match=reason):
        RULES.play(pos, turn)
    with pytest.raises(games.IllegalTurn):
        RULES.canonical_turn(pos, turn)
    assert turn not in set(RULES.turns(pos))


# V3 ------------------------------------------------------------------------------------


def test_v3_one_by_one() -> None:
    pos = RULES.parse("dropper . w")
    assert texts(RULES.successors(pos)) == {"dropper w b"}
    end = RULES.parse("dropper w b")
    assert RULES.successors(end) == frozenset()
    outcome = RULES.outcome(end)
    assert outcome is not None and outcome.result == "white"
    assert RULES.groups(end) == {"white": [1], "black": []}


def test_v3_two_by_one() -> None:
    assert texts(RULES.successors(RULES.parse("dropper .. w"))) == {
        "dropper w. b", "dropper .w b"}
    assert texts(RULES.successors(RULES.parse("dropper w. b"))) == {"dropper bw w"}
    assert list(RULES.turns(RULES.parse("dropper w. b"))) == ["a1>b1"]
    outcome = RULES.outcome(RULES.parse("dropper bw w"))
    assert outcome is not None and outcome.result == "draw"


def test_v3_three_by_three_all_drop_only() -> None:
    pos = RULES.parse("dropper .../.w./... b")
    assert texts(RULES.successors(pos)) == {
        "dropper w../.b./... w", "dropper .w./.b./... w", "dropper ..w/.b./... w",
        "dropper .../wb./... w", "dropper .../.bw/... w", "dropper .../.b./w.. w",
        "dropper .../.b./.w. w", "dropper .../.b./..w w"}
    assert all("+" not in turn for turn in RULES.turns(pos))


# V4 ------------------------------------------------------------------------------------


def test_v4_free_points_judged_after_the_drop() -> None:
    pos = RULES.parse("dropper .w.. b")
    assert texts(RULES.successors(pos)) == {"dropper wb.b w", "dropper .bw. w"}
    assert sorted(RULES.turns(pos)) == ["b1>a1+d1", "b1>c1"]
    assert RULES.play(pos, "b1>a1+d1").text() == "dropper wb.b w"
    assert RULES.play(pos, "b1>c1").text() == "dropper .bw. w"
    with pytest.raises(games.IllegalTurn, match="no free point remains after the drop b1>c1"):
        RULES.play(pos, "b1>c1+d1")
    with pytest.raises(games.IllegalTurn, match="free points remain"):
        RULES.play(pos, "b1>a1")


def test_v4_continued_to_a_draw() -> None:
    pos = RULES.parse("dropper .bw. w")
    assert list(RULES.turns(pos)) == ["b1>a1"]
    pos = RULES.play(pos, "b1>a1")
    assert pos.text() == "dropper bww. b"
    assert list(RULES.turns(pos)) == ["c1>d1"]
    pos = RULES.play(pos, "c1>d1")
    assert pos.text() == "dropper bwbw w"
    outcome = RULES.outcome(pos)
    assert outcome is not None and outcome.winner is None
    assert RULES.groups(pos) == {"white": [1, 1], "black": [1, 1]}


# V5 ------------------------------------------------------------------------------------

V5 = "dropper ......../......../......../......../......../......../ww....../bw...... w"


def test_v5_free_only_turn_in_a_set_up_position() -> None:
    pos = RULES.parse(V5)
    assert RULES.outcome(pos) is None
    after = texts(RULES.successors(pos))
    assert len(after) == 55
    assert ("dropper ......../......../......../......../......../......../ww....../bw.w.... b"
            in after)
    turns = set(RULES.turns(pos))
    assert "d1" in turns and "c2" not in turns and "h8" in turns
    spoiled = {f"{c}{r}" for c in "abc" for r in (1, 2, 3)}
    assert turns == {f"{c}{r}" for c in "abcdefgh" for r in range(1, 9)} - spoiled
    with pytest.raises(games.IllegalTurn, match="cannot go on c2: its neighbour b1"):
        RULES.play(pos, "c2")
    with pytest.raises(games.IllegalTurn, match="from a1 to b1: b1 is not empty"):
        RULES.play(pos, "a1>b1+h8")
    with pytest.raises(games.IllegalTurn, match="cannot drop on b2: it holds White's own"):
        RULES.play(pos, "b2>c3")


def test_a_stone_with_no_empty_neighbour_cannot_be_dropped_on() -> None:
    pos = RULES.parse("dropper bbb/bwb/bbb b")
    outcome = RULES.outcome(pos)
    assert outcome is not None and outcome.result == "black"
    with pytest.raises(games.IllegalTurn, match="the game is over"):
        RULES.play(pos, "b2>a1")
    pos = RULES.parse("dropper bbb./bwb./bbb./...w b")
    assert RULES.drops(pos) == ("d1>c1", "d1>d2")
    with pytest.raises(games.IllegalTurn, match="the White stone there has no empty neighbour"):
        RULES.builder(pos).add("b3")
    with pytest.raises(games.IllegalTurn, match="b2 is not empty"):
        RULES.play(pos, "b3>b2")


# V6 ------------------------------------------------------------------------------------


def test_v6_the_end_is_decided_by_the_player_to_move() -> None:
    over = RULES.parse("dropper bbw/bww/ww. w")
    assert RULES.successors(over) == frozenset()
    assert list(RULES.turns(over)) == []
    outcome = RULES.outcome(over)
    assert outcome is not None and outcome.result == "white"
    assert outcome.scores == {"white": 5, "black": 3}
    going = RULES.parse("dropper bbw/bww/ww. b")
    assert RULES.outcome(going) is None
    assert texts(RULES.successors(going)) == {
        "dropper bbw/bww/wbw w", "dropper bbw/bbw/www w", "dropper bbw/bwb/www w"}
    assert sorted(RULES.turns(going)) == ["b1>c1", "b2>c1", "c2>c1"]


# V7 ------------------------------------------------------------------------------------

V7 = [
    ("dropper bbw/wbw/wwb w", [3, 2], [3, 1], "white"),
    ("dropper bbww/bwbb/wwbw w", [3, 2, 1], [3, 3], "black"),
    ("dropper wwb/bbw/wwb w", [2, 2, 1], [2, 1, 1], "white"),
    ("dropper bbw/wbb/www w", [4, 1], [4], "white"),
    ("dropper wbw/bwb/wbw b", [1, 1, 1, 1, 1], [1, 1, 1, 1], "white"),
    ("dropper bbbb/wbbw/wwww w", [6], [6], "draw"),
    ("dropper wbw/bbw/wwb w", [2, 2, 1], [3, 1], "black"),
    ("dropper bbw/bww/ww. w", [5], [3], "white"),
]


@pytest.mark.parametrize(("text", "white", "black", "result"), V7)
def test_v7_scoring(text: str, white: list[int], black: list[int], result: str) -> None:
    pos = RULES.parse(text)
    assert RULES.groups(pos) == {"white": white, "black": black}
    outcome = RULES.outcome(pos)
    assert outcome is not None
    assert outcome.result == result
    assert outcome.scores == {"white": white[0], "black": black[0]}
    if "." not in text:  # full boards are over whichever side is to move
        flipped = RULES.parse(text[:-1] + ("b" if text.endswith("w") else "w"))
        other = RULES.outcome(flipped)
        assert other is not None and other.result == result


def test_v7_reasons_name_the_deciding_group() -> None:
    second = RULES.outcome(RULES.parse("dropper bbww/bwbb/wwbw w"))
    assert second is not None
    assert second.reason == ("White has no turn. White's groups 3, 2, 1, Black's 3, 3: "
                             "Black wins on the second largest group")
    missing = RULES.outcome(RULES.parse("dropper bbw/wbb/www w"))
    assert missing is not None and "second largest" in missing.reason
    draw = RULES.outcome(RULES.parse("dropper bbbb/wbbw/wwww w"))
    assert draw is not None and "draw" in draw.reason


# V8 ------------------------------------------------------------------------------------


def perft(pos: DropperPosition, depth: int) -> int:
    if depth == 1:
        return RULES.count_turns(pos)
    return sum(perft(after, depth - 1) for after in RULES.successors(pos))


def test_v8_perft_8x8() -> None:
    start = RULES.start()
    assert perft(start, 1) == 64
    assert perft(start, 2) == 22176


def test_v8_perft_4x4() -> None:
    start = RULES.start(size="4")
    assert [perft(start, n) for n in (1, 2, 3)] == [16, 576, 14040]
    layer = {start}
    for _ in range(3):
        layer = {after for pos in layer for after in RULES.successors(pos)}
    assert len(layer) == 9188


def test_v8_perft_5x5() -> None:
    start = RULES.start(size="5")
    assert perft(start, 1) == 25
    assert perft(start, 2) == 2160
    assert perft(start, 3) == 189872


def test_v8_counts_by_turn_texts_agree() -> None:
    start = RULES.start(size="4")
    total = sum(len(list(RULES.turns(RULES.play(RULES.play(start, a), b))))
                for a in RULES.turns(start)
                for b in RULES.turns(RULES.play(start, a)))
    assert total == 14040


# V9 ------------------------------------------------------------------------------------

V9 = [
    (1, 1, "white"), (2, 1, "draw"), (3, 1, "white"), (4, 1, "draw"), (5, 1, "draw"),
    (6, 1, "draw"), (2, 2, "draw"), (3, 2, "draw"), (4, 2, "draw"), (3, 3, "white"),
    (4, 3, "white"),
]
RESULT = {1: "white", 0: "draw", -1: "black"}


def solve(start: DropperPosition) -> str:
    """The result with perfect play from ``start`` (plain minimax with a memo)."""

    @cache
    def value(pos: DropperPosition) -> int:
        after = RULES.successors(pos)
        if not after:
            outcome = RULES.outcome(pos)
            assert outcome is not None
            return {"white": 1, "black": -1, None: 0}[outcome.winner]
        values = [value(p) for p in after]
        return max(values) if pos.side == "w" else min(values)

    return RESULT[value(start)]


@pytest.mark.parametrize(("width", "height", "result"),
                         [(w, h, r) for w, h, r in V9 if FULL or w * h <= 9])
def test_v9_tiny_boards_solved(width: int, height: int, result: str) -> None:
    assert solve(RULES.start(width=str(width), height=str(height))) == result


def test_v9_plain_implementation_solves_the_same() -> None:
    """The 3 x 3 solution again, on the plain implementation's successors and outcome."""

    @cache
    def value(text: str) -> int:
        after = plain.successors(text)
        if not after:
            return {"white": 1, "black": -1, "draw": 0}[str(plain.outcome(text))]
        values = [value(p) for p in after]
        return max(values) if text.endswith("w") else min(values)

    assert RESULT[value("dropper .../.../... w")] == "white"
    assert RESULT[value("dropper ..../.... w")] == "draw"


def test_v9_black_first_on_three_by_one() -> None:
    assert solve(RULES.start(width="3", height="1", first="b")) == "black"


# V10 -----------------------------------------------------------------------------------


def test_v10_random_games_on_8x8() -> None:
    """Seeded uniformly random games: lengths, the end of the free placements, and the
    facts that hold on every board (outcome none exactly when successors exist)."""
    rng = random.Random(10)
    lengths, free_ends, counts = [], [], []
    for _ in range(40 if FULL else 8):
        pos = RULES.start()
        turn_number = 0
        free_end = None
        while True:
            after = sorted(RULES.successors(pos), key=DropperPosition.text)
            assert (RULES.outcome(pos) is None) == bool(after)
            if not after:
                break
            counts.append(len(after))
            if free_end is None and not RULES.free_points(pos):
                free_end = turn_number
            pos = rng.choice(after)
            turn_number += 1
        lengths.append(turn_number)
        free_ends.append(free_end)
    assert all(45 <= n <= 64 for n in lengths), lengths
    assert all(f is not None and 6 <= f <= 16 for f in free_ends), free_ends
    assert 40 <= sum(lengths) / len(lengths) <= 60
    assert max(counts) <= 1200 and 60 <= sum(counts) / len(counts) <= 160
