"""Rumbo turn text, the step-wise builder, placement effects, seating, komi advice, the diagram."""

from __future__ import annotations

import pytest

from companion.games import IllegalTurn, Step
from companion.games.rumbo import RULES, RumboPosition, komi_advice, komi_range, parity_advice

SETUP = RULES.parse("rumbo .../.../... k ? .../.../...")
CHOOSE = RULES.parse("rumbo .../.../... s 4 .../.../...")
PLAY = RULES.parse("rumbo wb./b../... h 0 v../.../...")
FULL = RULES.parse("rumbo bw/wb h 0 ../..")
EXAMPLE5 = RULES.parse("rumbo bb./wwb/bwb h 0 .../vv./.v.")
EXAMPLE8 = RULES.parse("rumbo bbbbb/bbbbb/b..bb/bbbbb/bbbbb v 0 ...../...../...../...../.....")


@pytest.mark.parametrize(("pos", "typed", "canonical"), [
    (SETUP, "komi=4", "komi=4"),
    (SETUP, " KOMI=+04 ", "komi=4"),
    (SETUP, "komi = -9", "komi=-9"),
    (SETUP, "komi=-0", "komi=0"),
    (CHOOSE, "side=v", "side=v"),
    (CHOOSE, "SIDE=H", "side=h"),
    (CHOOSE, "side=vertical", "side=v"),
    (CHOOSE, "side=horizontal", "side=h"),
    (PLAY, "b@a1", "b@a1"),
    (PLAY, " B@C3 ", "b@c3"),
    (PLAY, "w @ b2", "w@b2"),
    (PLAY, "w@b02", "w@b2"),
])
def test_turn_text_is_read_leniently_and_written_canonically(
        pos: RumboPosition, typed: str, canonical: str) -> None:
    assert RULES.canonical_turn(pos, typed) == canonical
    assert RULES.play(pos, typed) == RULES.play(pos, canonical)


@pytest.mark.parametrize(("pos", "turn", "reason"), [
    (SETUP, "", "empty turn: the proposer names the komi"),
    (SETUP, "   ", "empty turn"),
    (SETUP, "b@c3", "the komi must be named first"),
    (SETUP, "side=v", "the komi must be named first"),
    (SETUP, "komi=x", "komi 'x' is not a whole number"),
    (SETUP, "komi=", "komi '' is not a whole number"),
    (SETUP, "komi=10", "komi 10 is outside -9 to 9"),
    (SETUP, "komi=-10", "komi -10 is outside -9 to 9"),
    (SETUP, "komi=1.5", "not a whole number"),
    (CHOOSE, "komi=3", "the komi is already named \\(4\\)"),
    (CHOOSE, "b@a1", "a side must be chosen first"),
    (CHOOSE, "side=x", "the side is v \\(Vertical\\) or h \\(Horizontal\\), not 'x'"),
    (CHOOSE, "side=", "not ''"),
    (PLAY, "komi=3", "the komi is already named"),
    (PLAY, "side=v", "the sides are already chosen"),
    (PLAY, "x@c3", "the colour 'x' must be b \\(black\\) or w \\(white\\)"),
    (PLAY, "black@c3", "the colour 'black'"),
    (PLAY, "b@d1", "point d1 is off the 3x3 board \\(a1 to c3\\)"),
    (PLAY, "b@a0", "point a0 is off the 3x3 board"),
    (PLAY, "b@a4", "point a4 is off"),
    (PLAY, "b@", "'' is not a point"),
    (PLAY, "b@1a", "'1a' is not a point"),
    (PLAY, "b@a2", "a2 is occupied \\(a black stone\\)"),
    (PLAY, "w@a3", "a3 is occupied \\(a white stone\\)"),
    (PLAY, "c3", "'c3' is not a placement"),
    (PLAY, "pass", "'pass' is not a placement"),
    (FULL, "b@a1", "the game is over \\(the board is full\\)"),
])
def test_bad_turns_get_clear_errors(pos: RumboPosition, turn: str, reason: str) -> None:
    with pytest.raises(IllegalTurn, match=reason):
        RULES.play(pos, turn)
    with pytest.raises(IllegalTurn, match=reason):
        RULES.canonical_turn(pos, turn)


def test_turn_lists() -> None:
    assert list(RULES.turns(SETUP)) == [f"komi={k}" for k in range(-9, 10)]
    assert list(RULES.turns(CHOOSE)) == ["side=v", "side=h"]
    turns = list(RULES.turns(PLAY))
    assert len(turns) == len(set(turns)) == 12
    assert {"b@c3", "w@c3", "b@a1", "w@b2"} <= set(turns)
    assert list(RULES.turns(FULL)) == []


def test_builder_setup_steps() -> None:
    builder = RULES.builder(SETUP)
    assert not builder.complete
    assert "-9 to 9" in builder.message and "even komi on 3x3" in builder.message
    steps = builder.next_steps()
    assert [s.text for s in steps] == [f"komi={k}" for k in range(-9, 10)]
    assert all(s.changes == {} for s in steps)
    odd = next(s for s in steps if s.text == "komi=3")
    assert "same parity" in odd.note
    assert "same parity" not in next(s for s in steps if s.text == "komi=4").note
    done = builder.add("komi=4")
    assert done.complete and done.turn() == "komi=4" and done.next_steps() == ()
    assert done.position == CHOOSE and done.start == SETUP
    with pytest.raises(IllegalTurn, match="already complete"):
        done.add("komi=5")
    with pytest.raises(IllegalTurn, match="not complete"):
        builder.turn()
    chooser = RULES.builder(CHOOSE)
    assert "komi is 4" in chooser.message
    assert [s.text for s in chooser.next_steps()] == ["side=v", "side=h"]
    taken = chooser.add(Step("side=h", {}))
    assert taken.turn() == "side=h"
    assert taken.position.text() == "rumbo .../.../... v 4 .../.../..."
    assert "Horizontal" in taken.steps[0].note


def test_builder_placement_step_lists_fills_and_claims() -> None:
    builder = RULES.builder(EXAMPLE8)
    assert builder.message.startswith("Vertical: place a black or a white stone")
    step = next(s for s in builder.next_steps() if s.text == "b@c3")
    assert step.changes == {"c3": "b", "b3": "b"}
    assert "fills the hole b3" in step.note
    assert "nobody owns the set N+E+S+W" in step.note
    assert "the game ends" in step.note
    plain = next(s for s in builder.next_steps() if s.text == "w@c3")
    assert plain.changes == {"c3": "w"} and plain.note == "white on c3"
    after = builder.add("B@C3")
    assert after.turn() == "b@c3" and after.steps == (step,)
    assert after.position == RULES.play(EXAMPLE8, "b@c3")
    five = RULES.builder(EXAMPLE5).add("w@c3").steps[0]
    assert five.changes == {"c3": "w"}
    assert "Horizontal claims the black group a3-b3 (set W)" in five.note
    assert "Vertical claims the black group c2-c1 (set S)" in five.note
    assert "white c3 has no liberty" in five.note and "empty set" in five.note
    with pytest.raises(IllegalTurn, match="occupied"):
        builder.add("b@a1")


def test_builder_when_the_game_is_over() -> None:
    builder = RULES.builder(FULL)
    assert builder.next_steps() == ()
    assert not builder.complete
    assert "over" in builder.message
    with pytest.raises(IllegalTurn, match="the game is over"):
        builder.add("b@a1")


def test_effects_for_the_app() -> None:
    five = RULES.effects(EXAMPLE5, "w@c3")
    assert (five.point, five.colour, five.filled) == ("c3", "w", ())
    assert [(d.owner, d.colour, d.cells, d.directions) for d in five.dead] == [
        (None, "w", ("c3",), "none"),
        ("vertical", "b", ("c2", "c1"), "S"),
        ("horizontal", "b", ("a3", "b3"), "W"),
    ]
    assert [d.owner for d in five.claimed] == ["vertical", "horizontal"]
    assert [d.cells for d in five.unclaimed] == [("c3",)]
    assert five.after.text() == "rumbo bbw/wwb/bwb v 0 hh./vvv/.vv"
    eight = RULES.effects(EXAMPLE8, "b@b3")
    assert eight.filled == ("c3",)
    assert eight.changes() == {"b3": "b", "c3": "b"}
    assert eight.dead[0].directions == "N+E+S+W" and len(eight.dead[0].cells) == 25
    ring = RULES.effects(RULES.parse("rumbo www/wbw/w.w v 0 .../.../..."), "b@b1")
    assert [(d.owner, d.directions, len(d.cells)) for d in ring.dead] == [
        ("vertical", "N", 2), ("horizontal", "E+W", 7)]
    quiet = RULES.effects(PLAY, "b@c1")
    assert quiet.dead == () and quiet.filled == ()
    with pytest.raises(IllegalTurn, match="not a placement"):
        RULES.effects(CHOOSE, "side=v")
    with pytest.raises(IllegalTurn, match="occupied"):
        RULES.effects(PLAY, "b@a2")


def test_seating() -> None:
    assert RULES.seating("side=v") == {"chooser": "vertical", "proposer": "horizontal"}
    assert RULES.seating(" SIDE=H ") == {"chooser": "horizontal", "proposer": "vertical"}
    with pytest.raises(IllegalTurn, match="not a side choice"):
        RULES.seating("b@a1")
    assert RULES.roles == ("proposer", "chooser")


def test_komi_advice() -> None:
    assert komi_advice(9, 4) is None
    assert komi_advice(9, 0) is None
    assert komi_advice(9, -80) is None is komi_advice(8, 3)
    assert komi_advice(9, -81) is not None
    odd_on_nine = komi_advice(9, 3)
    assert odd_on_nine is not None and "An even komi" in odd_on_nine
    even_on_eight = komi_advice(8, 4)
    assert even_on_eight is not None and "An odd komi" in even_on_eight
    assert RULES.komi_advice(8, 0) == komi_advice(8, 0)
    assert "even komi on 9x9" in parity_advice(9) and "-81 to 81" in parity_advice(9)
    assert "odd komi on 8x8" in RULES.parity_advice(8)
    assert komi_range(3) == (-9, 9)
    with pytest.raises(ValueError, match="komi 82 is outside -81 to 81"):
        komi_advice(9, 82)
    with pytest.raises(ValueError, match="board size 1"):
        komi_advice(1, 0)
    with pytest.raises(ValueError, match="board size 27"):
        parity_advice(27)


def test_diagram() -> None:
    lines = RULES.diagram(RULES.parse("rumbo bbw/wwb/bwb v 0 hh./vvv/.vv")).splitlines()
    assert lines[0].split() == ["a", "b", "c", "a", "b", "c"]
    assert lines[1].split() == ["3", "b", "b", "w", "3", "h", "h", "x"]
    assert lines[3].split() == ["1", "b", "w", "b", "1", "x", "v", "v"]
    assert lines[-1] == "Game over: Vertical 5, Horizontal 2 (komi 0)"
    assert RULES.diagram(SETUP).splitlines()[-1].startswith("Setup: the proposer names the komi")
    assert "Horizontal to place" in RULES.diagram(PLAY)
    big = RULES.diagram(RULES.start(size="12", komi="1", edgeholes="on")).splitlines()
    assert big[1].split()[0] == "12" and len(big) == 15
    assert "options: edgeholes" in big[-1]
