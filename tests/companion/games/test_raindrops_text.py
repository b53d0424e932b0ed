"""Raindrops position text, options, turn text and the step builder."""

from __future__ import annotations

import pytest

from companion.games import IllegalTurn, OptionError, PositionError, Step
from companion.games.raindrops import RULES as R


def test_canonical_text_round_trip_and_leniency() -> None:
    text = "raindrops w....w/....../....../....../..b.../bb...b b"
    assert R.parse(text).text() == text
    loose = "  raindrops \t w....w/....../....../....../..b.../bb...b   b \n"
    assert R.parse(loose).text() == text
    assert R.parse(text) == R.parse(text + " ")
    assert hash(R.parse(text)) == hash(R.parse(" " + text))
    assert R.parse(text).to_move == "black"
    assert R.parse("raindrops bw/.. w").to_move == "white"


@pytest.mark.parametrize(("text", "field"), [
    ("raindrops bw/..", "3 fields"),
    ("raindrops bw/.. b extra", "3 fields"),
    ("Raindrops bw/.. b", "name field"),
    ("dropper bw/.. b", "name field"),
    ("raindrops bw/... b", "square"),
    ("raindrops bw/../.. b", "square"),
    ("raindrops b w", "size must be 2 to 26"),
    ("raindrops " + "/".join(["b" * 27] * 27) + " b", "size must be 2 to 26"),
    ("raindrops bx/.. b", "'x'"),
    ("raindrops bB/.. b", "'B'"),
    ("raindrops bw/.. x", "side field"),
    ("raindrops bw/.. B", "side field"),
    ("raindrops ../.. b", "no pieces"),
])
def test_invalid_positions_name_the_field(text: str, field: str) -> None:
    with pytest.raises(PositionError, match=field):
        R.parse(text)


def test_one_colour_only_is_valid_and_won() -> None:
    outcome = R.outcome(R.parse("raindrops b./.b w"))
    assert outcome is not None and outcome.winner == "black"
    assert "no pieces" in outcome.reason


def test_options() -> None:
    assert R.start(size="12").size == 12
    assert R.start(size="26").size == 26
    for bad in ("1", "27", "x", "8.5"):
        with pytest.raises(OptionError, match="size"):
            R.start(size=bad)
    with pytest.raises(OptionError, match="layout"):
        R.start(layout="empty")
    with pytest.raises(OptionError, match="a1"):
        R.start(a1="red")
    with pytest.raises(OptionError, match="unknown option"):
        R.start(colour="b")


def test_cells_and_diagram() -> None:
    pos = R.parse("raindrops ....w/ww.../...../...bb/b.... b")
    cells = pos.cells()
    assert len(cells) == 25
    assert cells["a1"] == "b" and cells["e5"] == "w" and cells["c3"] == "."
    assert cells["d2"] == cells["e2"] == "b" and cells["a4"] == cells["b4"] == "w"
    art = R.diagram(pos)
    assert art.splitlines()[0] == " 5  . . . . w"
    assert art.splitlines()[4] == " 1  b . . . ."
    assert art.splitlines()[-1] == "    a b c d e"


@pytest.mark.parametrize(("turn", "why"), [
    ("", "empty turn"),
    ("a1", "FROM-TO"),
    ("a1=c1", "FROM-TO"),
    ("a1-c1;b1-d1", "FROM-TO"),
    ("a1-z1", "not on the 6x6 board"),
    ("a1-a7", "not on the 6x6 board"),
    ("a6-a5", "holds an enemy piece"),
    ("c1-d1", "holds no piece"),
    ("a1xc1", "holds no enemy piece: write a1-c1"),
])
def test_turn_text_errors(turn: str, why: str) -> None:
    pos = R.parse("raindrops w....w/....../....../....../..b.../bb...b b")
    with pytest.raises(IllegalTurn, match=why):
        R.play(pos, turn)


V5 = "raindrops w....w/....../....../....../..b.../bb...b b"


def test_builder_walks_a_group_turn() -> None:
    builder = R.builder(R.parse(V5))
    assert not builder.complete
    assert "Black to move" in builder.message
    first = {s.text for s in builder.next_steps()}
    assert {"a1-c1", "b1-a2", "a1-b2", "c2-b2", "f1-c1", "f1xf6"} <= first
    assert "a1-a2" not in first  # a2 would not touch b1
    with pytest.raises(IllegalTurn, match="row or column"):
        builder.add("a1-d4")
    b1 = builder.add("a1-c1")
    assert b1.complete  # joined c2: the turn may stop
    assert b1.steps == (Step("a1-c1", {"a1": ".", "c1": "b"}, b1.steps[0].note),)
    assert b1.position.text() == "raindrops w....w/....../....../....../..b.../.bb..b w"
    assert {s.text for s in b1.next_steps()} == {"b1-d1", "c2-d1"}
    assert "confirm" in b1.message and "d1" in b1.message
    with pytest.raises(IllegalTurn, match="split"):
        b1.add("c1-d1")
    b2 = b1.add("c2-d1")
    b3 = b2.add(Step("b1-e1", {}))
    assert b3.complete and b3.next_steps() == ()
    assert "has ended" in b3.message
    assert b3.turn() == "a1-c1,c2-d1,b1-e1"
    assert b3.position == R.play(R.parse(V5), "a1-c1,b1-d1,c2-e1")
    with pytest.raises(IllegalTurn, match="already ended"):
        b3.add("c1-f2")
    assert builder.steps == ()  # builders are immutable


def test_builder_capture_step_lists_the_removed_unit() -> None:
    builder = R.builder(R.parse("raindrops ....w/ww.../...../...bb/b.... b"))
    (capture,) = [s for s in builder.next_steps() if s.text == "a1xa4"]
    assert capture.changes == {"a1": ".", "a4": "b", "b4": "."}
    assert "capturing" in capture.note
    done = builder.add(capture)
    assert done.complete and done.turn() == "a1xa4"


def test_builder_refuses_a_dead_end_and_an_early_stop() -> None:
    builder = R.builder(R.parse("raindrops ...wb./....../....../.....w/....../bb...w b"))
    assert {s.text for s in builder.next_steps()} == {"a1-c1", "e6xd6"}
    with pytest.raises(IllegalTurn, match="no legal turn can end"):
        builder.add("b1-a2")
    chain = builder.add("a1-c1")
    assert not chain.complete
    assert "must reduce" in chain.message
    with pytest.raises(IllegalTurn, match="not complete"):
        chain.turn()
    chain = chain.add("b1-d1").add("c1-e1")
    assert {s.text for s in chain.next_steps()} == {"d1xf1"}
    assert chain.add("d1xf1").turn() == "a1-c1,b1-d1,c1-e1,d1xf1"


def test_builder_singleton_slide_is_one_step() -> None:
    v6 = "raindrops b.....w/......./......./...b.../......./......./w.....b b"
    builder = R.builder(R.parse(v6))
    texts = {s.text for s in builder.next_steps()}
    assert {"d4-a4", "d4-d7", "a7xg7", "g1xa1"} <= texts
    assert "d4-c4" not in texts
    with pytest.raises(IllegalTurn, match="unengaged"):
        builder.add("d4-c4")
    done = builder.add("d4-a4")
    assert done.complete and done.next_steps() == () and done.turn() == "d4-a4"


def test_leading_zero_rows_are_refused() -> None:
    pos = R.parse(V5)
    with pytest.raises(IllegalTurn, match="FROM-TO"):
        R.play(pos, "a01-c1")


def test_garbage_only_ever_gives_clear_errors() -> None:
    import random

    rng = random.Random(5)
    pos = R.parse(V5)
    alphabet = "abcfghwx.-/,0123456789 rainds"
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 30)))
        try:
            R.play(pos, text)
        except IllegalTurn as error:
            assert str(error)
        try:
            R.parse("raindrops " + text + " b")
        except PositionError as error:
            assert str(error)
    for _ in range(2000):
        steps = ",".join(
            f"{rng.choice('abcdefg')}{rng.randrange(1, 8)}{rng.choice('-x')}"
            f"{rng.choice('abcdefg')}{rng.randrange(1, 8)}" for _ in range(rng.randrange(1, 5)))
        try:
            after = R.play(pos, steps)
        except IllegalTurn as error:
            assert str(error)
        else:
            assert after in R.successors(pos)
            assert R.turns_to(pos, after)


def test_first_placement_on_two_lines_goes_on_along_the_open_one() -> None:
    # b2 lies on row 2 and column b, both lines of the group a1 b1 a2. It joins c2,
    # which lies on row 2: along row 2 the turn ends, along column b it may go on.
    text = "raindrops ...w/..../b.b./bb.w b"
    pos = R.parse(text)
    assert R.play(pos, "b1-b2").text() == "raindrops ...w/..../bbb./b..w w"
    assert R.play(pos, "b1-b2,a1-b3").text() == "raindrops ...w/.b../bbb./...w w"
    with pytest.raises(IllegalTurn, match="not on the movement line \\(column b\\)"):
        R.play(pos, "b1-b2,b2-c2")
    import plain_raindrops as plain

    assert {p.text() for p in R.successors(pos)} == plain.successors(text)


def test_turns_to_never_lists_successors(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.games.raindrops import engine, rules

    pos = R.parse(V5)
    targets = {t: R.play(pos, t) for t in R.turns(pos)}

    def refuse(*_: object) -> None:
        raise AssertionError("turns_to listed successors")

    monkeypatch.setattr(engine, "finals", refuse)
    monkeypatch.setattr(engine, "all_finals", refuse)
    monkeypatch.setattr(engine, "least_turns", refuse)
    monkeypatch.setattr(rules, "all_finals", refuse)
    monkeypatch.setattr(rules, "least_turns", refuse)
    with pytest.raises(AssertionError, match="listed successors"):
        R.successors(pos)
    for turn, target in targets.items():
        assert R.turns_to(pos, target) == (turn,)
