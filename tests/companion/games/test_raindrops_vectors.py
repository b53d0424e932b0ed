"""Every worked example (section 9) and start layout of the Raindrops rules file, exactly."""

from __future__ import annotations

import pytest

from companion import games
from companion.games import IllegalTurn
from companion.games.raindrops import RULES as R
from companion.games.raindrops import RaindropsPosition


def pos(text: str) -> RaindropsPosition:
    return R.parse(text)


def boards(texts: set[str] | frozenset[RaindropsPosition]) -> set[str]:
    return {p.text() if isinstance(p, RaindropsPosition) else p for p in texts}


def after(start: str, turn: str) -> str:
    return R.play(pos(start), turn).text()


def test_registered_and_described() -> None:
    assert games.get("raindrops") is R
    assert R.players == ("black", "white")
    assert set(R.options) == {"size", "layout", "a1"}
    assert R.check_options({}) == {"size": "8", "layout": "full", "a1": "black"}


START_TEXTS = {
    (8, "full"): "raindrops wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/"
                 "bwbwbwbw b",
    (3, "full"): "raindrops bwb/w.w/bwb b",
    (5, "full"): "raindrops bwbwb/wbwbw/bw.wb/wbwbw/bwbwb b",
    (8, "sparse"): "raindrops b.b.b.b./.w.w.w.w/b.b.b.b./.w.w.w.w/b.b.b.b./.w.w.w.w/b.b.b.b./"
                   ".w.w.w.w b",
}


@pytest.mark.parametrize(("size", "layout"), sorted(START_TEXTS))
def test_start_positions(size: int, layout: str) -> None:
    assert R.start(size=str(size), layout=layout).text() == START_TEXTS[(size, layout)]


def test_default_start_is_8x8_full() -> None:
    assert R.start().text() == START_TEXTS[(8, "full")]


def test_a1_white_swaps_colours() -> None:
    assert R.start(size="3", a1="white").text() == "raindrops wbw/b.b/wbw b"
    even = R.start(size="4", a1="white").text()
    assert even == "raindrops bwbw/wbwb/bwbw/wbwb b"
    sparse = R.start(size="4", layout="sparse", a1="white").text()
    assert sparse == "raindrops w.w./.b.b/w.w./.b.b b"
    assert R.start(size="4", layout="sparse").text() == "raindrops b.b./.w.w/b.b./.w.w b"


@pytest.mark.parametrize(("size", "layout", "count"), [
    (2, "full", 4), (4, "full", 24), (8, "full", 112), (3, "full", 8), (5, "full", 36),
    (9, "full", 140), (8, "sparse", 48), (6, "full", 60), (7, "full", 80),
])
def test_v3_start_counts(size: int, layout: str, count: int) -> None:
    start = R.start(size=str(size), layout=layout)
    assert len(R.successors(start)) == count
    if layout == "full":
        expected = 2 * size * (size - 1) - (4 if size % 2 else 0)
        assert count == expected


def test_v1_two_by_two() -> None:
    start = pos("raindrops wb/bw b")
    assert R.outcome(start) is None
    assert set(R.turns(start)) == {"a1xb1", "a1xa2", "b2xb1", "b2xa2"}
    assert after("raindrops wb/bw b", "a1xb1") == "raindrops wb/.b w"
    for succ in R.successors(start):
        result = R.outcome(succ)
        assert result is not None and result.winner == "black"


def test_v2_four_by_four() -> None:
    start = "raindrops wbwb/bwbw/wbwb/bwbw b"
    assert len(R.successors(pos(start))) == 24
    assert after(start, "a1xb1") == "raindrops wbwb/bwbw/wbwb/.bbw w"
    with pytest.raises(IllegalTurn, match="write a1xb1"):
        R.play(pos(start), "a1-b1")
    with pytest.raises(IllegalTurn, match="pass over"):
        R.play(pos(start), "a1xc1")


V4 = "raindrops ....w/ww.../...../...bb/b.... b"


def test_v4_engaged_singleton_and_group() -> None:
    start = pos(V4)
    assert boards(R.successors(start)) == {
        "raindrops ....b/ww..b/...../...../b.... w",
        "raindrops ....w/b..../...../...bb/..... w",
        "raindrops ....w/ww.../...../...bb/....b w",
        "raindrops ....w/ww.../...../...bb/...b. w",
        "raindrops ....w/ww.../...../bb.../b.... w",
    }
    outcome = R.outcome(R.play(start, "a1xa4"))
    assert outcome is not None and outcome.winner == "white"
    for turn in ("a1-d1", "a1-e1", "e2-c2,d2-b2,c2-a2"):
        outcome = R.outcome(R.play(start, turn))
        assert outcome is not None and outcome.winner == "black", turn
    outcome = R.outcome(R.play(start, "d2-e3,e2-e4,e3xe5"))
    assert outcome is not None and outcome.winner == "white"


@pytest.mark.parametrize(("turn", "why"), [
    ("a1-a2", "neither joins nor captures"),
    ("a1-a3", "neither joins nor captures"),
    ("a1-b1", "neither joins nor captures"),
    ("a1-c1", "neither joins nor captures"),
    ("a1xb4", "row or column"),
    ("d2-e3", "must reduce"),
    ("d2-e3,e2-e4", "must reduce"),
    ("e2-c2,d2-b2", "must reduce"),
    ("e2-e3", "would not touch"),
    ("d2-d3", "would not touch"),
    ("d2-c2,c2-b2", "would not touch"),
    ("e2-c2,d2-b2,c2-a2,b2-a3", "not on the movement line"),
])
def test_v4_illegal(turn: str, why: str) -> None:
    with pytest.raises(IllegalTurn, match=why):
        R.play(pos(V4), turn)


V5 = "raindrops w....w/....../....../....../..b.../bb...b b"


def test_v5_count_and_groups() -> None:
    start = pos(V5)
    assert len(R.successors(start)) == 17
    row1 = {after(V5, t) for t in ("a1-c1", "a1-c1,b1-d1", "a1-c1,c2-d1", "a1-c1,b1-d1,c2-e1")}
    assert len(row1) == 4
    assert after(V5, "a1-c1,b1-d1,c2-e1") == after(V5, "a1-c1,c2-d1,b1-e1")
    assert after(V5, "a1-c1,b1-d1,c2-e1") == "raindrops w....w/....../....../....../....../..bbbb w"
    outcome = R.outcome(R.play(start, "a1-c1,b1-d1,c2-e1"))
    assert outcome is not None and outcome.winner == "black"
    column_a = R.play(start, "b1-a2,a1-a3,a2-a4,a3-a5,a4xa6")
    assert column_a.text() == "raindrops b....w/b...../....../....../..b.../.....b w"
    outcome = R.outcome(column_a)
    assert outcome is not None and outcome.winner == "white"
    column_b = {after(V5, t) for t in (
        "a1-b2", "a1-b2,b1-b3", "a1-b2,c2-b3", "a1-b2,b1-b3,c2-b4", "a1-b2,b1-b3,c2-b4,b2-b5",
        "a1-b2,b1-b3,c2-b4,b2-b5,b3-b6")}
    assert len(column_b) == 6
    singles = {after(V5, t) for t in ("c2-b2", "c2-a2", "c2-f2", "c2-c1", "f1-c1", "f1xf6")}
    assert len(singles) == 6
    everything = row1 | {column_a.text()} | column_b | singles
    assert everything == boards(R.successors(start))


@pytest.mark.parametrize(("turn", "why"), [
    ("a1-c1,b1-d1,c2-e1,c1-f2", "already ended"),
    ("a1-c1,c1-d1", "split"),
    ("a1-c1,b1-e1", "beside c1"),
    ("a1-c1,b1-d1,c2-b1", "not the next point"),
    ("b1-a2,a1-a3", "must reduce"),
    ("b1-a2,a1-b2", "not on the movement line \\(column a\\)"),
    ("f1-e1", "neither joins nor captures"),
    ("f1-f5", "neither joins nor captures"),
])
def test_v5_illegal(turn: str, why: str) -> None:
    with pytest.raises(IllegalTurn, match=why):
        R.play(pos(V5), turn)


V6 = "raindrops b.....w/......./......./...b.../......./......./w.....b b"


def test_v6_unengaged_singleton() -> None:
    start = pos(V6)
    legal = ["d4-a4", "d4-b4", "d4-f4", "d4-g4", "d4-d1", "d4-d2", "d4-d6", "d4-d7",
             "a7xg7", "a7xa1", "g1xa1", "g1xg7"]
    assert {after(V6, t) for t in legal} == boards(R.successors(start))
    assert len(R.successors(start)) == 12
    for turn in ("d4-c4", "d4-e4", "d4-d3", "d4-d5"):
        with pytest.raises(IllegalTurn, match="unengaged"):
            R.play(start, turn)
    for turn in ("a7-b7", "a7-a4", "g1-g4", "g1-d1"):
        with pytest.raises(IllegalTurn):
            R.play(start, turn)


V7 = "raindrops ...wb./....../....../.....w/....../bb...w b"


def test_v7_pieces_move_twice() -> None:
    start = pos(V7)
    assert after(V7, "a1-c1,b1-d1,c1-e1,d1xf1") == (
        "raindrops ...wb./....../....../.....w/....../....bb w")
    assert set(R.turns(start)) == {"a1-c1,b1-d1,c1-e1,d1xf1", "e6xd6"}
    for turn in ("a1-c1", "a1-c1,b1-d1", "a1-c1,b1-d1,c1-e1", "a1-c1,c1-d1", "b1-c1",
                 "b1-a2", "e6-f6", "e6-e1"):
        with pytest.raises(IllegalTurn):
            R.play(start, turn)


V8 = "raindrops w....w/....../....../....../...bbb/bb...b b"
V8_TABLE = {
    "b1-a2,a1-a3,a2-a4,a3-a5,a4xa6": "b....w/b...../....../....../...bbb/.....b",
    "d2-f3,e2-f4,f1-f5,f2xf6": "w....b/.....b/.....b/.....b/....../bb....",
    "a1-c1,b1-d1": "w....w/....../....../....../...bbb/..bb.b",
    "f1-d1,f2-c1": "w....w/....../....../....../...bb./bbbb..",
    "d2-e1,e2-d1,f2-c1": "w....w/....../....../....../....../bbbbbb",
    "d2-e1,f2-d1,f1-c1": "w....w/....../....../....../....b./bbbbb.",
    "f1-e1,f2-d1,e2-c1": "w....w/....../....../....../...b../bbbbb.",
    "f1-c2,f2-b2": "w....w/....../....../....../.bbbb./bb....",
    "f1-c2,f2-b2,e2-a2": "w....w/....../....../....../bbbb../bb....",
    "f1-c2,f2-b2,a1-a2": "w....w/....../....../....../bbbbb./.b....",
}


@pytest.mark.parametrize("turn", sorted(V8_TABLE))
def test_v8_table(turn: str) -> None:
    assert after(V8, turn) == f"raindrops {V8_TABLE[turn]} w"


def test_v8_joining_a_unit_on_the_line_ends_the_turn() -> None:
    start = pos(V8)
    assert boards(R.successors(start)) == {f"raindrops {b} w" for b in V8_TABLE.values()}
    with pytest.raises(IllegalTurn, match="already ended"):
        R.play(start, "a1-c1,b1-d1,c1-e1")
    with pytest.raises(IllegalTurn, match="must reduce"):
        R.play(start, "a1-c1")


def test_lifted_piece_never_returns_to_its_point() -> None:
    assert len(R.successors(pos("raindrops ...w/.bb./b.bb/.wwb b"))) == 24


@pytest.mark.parametrize(("text", "winner"), [
    ("raindrops bw/.. b", "white"),
    ("raindrops bw/.. w", "black"),
    ("raindrops b.w/.../w.. w", "black"),
    ("raindrops w....b/....../....../....../..b.../bb.... w", "white"),
    ("raindrops w./.. b", "white"),
    ("raindrops bb/ww w", "black"),
])
def test_v9_results(text: str, winner: str) -> None:
    outcome = R.outcome(pos(text))
    assert outcome is not None and outcome.winner == winner
    assert outcome.reason
    assert list(R.turns(pos(text))) == []
    assert R.successors(pos(text)) == frozenset()
    with pytest.raises(IllegalTurn, match="game is over"):
        R.play(pos(text), "a1-a2")


def test_v5_two_turn_texts_one_position() -> None:
    start = pos(V5)
    target = R.play(start, "a1-c1,c2-d1,b1-e1")
    (canonical,) = R.turns_to(start, target)
    assert canonical == "a1-c1,b1-d1,c2-e1"
    assert canonical in set(R.turns(start))
    assert R.canonical_turn(start, " A1-C1, c2-d1 ,b1-e1 ") == "a1-c1,c2-d1,b1-e1"
