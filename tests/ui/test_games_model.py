"""The touch model of the abstract games without Kivy: which step a touch means, what a
refused touch says, and how a turn is built, confirmed and taken back."""

from __future__ import annotations

from companion import games
from companion.games.session import GameSession
from ui.games import picking
from ui.games.model import PlayModel


def model_of(name: str, text: str) -> PlayModel:
    rules = games.get(name)
    return PlayModel(GameSession(rules, rules.parse(text)))


def test_a_dropper_turn_by_three_touches_with_reasons_for_wrong_ones() -> None:
    model = model_of("dropper", "dropper ..../.w../..../.... b")
    assert model.view.targets == {"b3"}
    model.tap("a1")  # empty: nothing to drop on
    assert "cannot drop on a1: it is empty" in model.view.alert.lower()
    model.tap("b3")
    assert model.view.touched == () and model.builder.steps[0].text == "b3"
    assert model.view.targets == {"a2", "a3", "a4", "b2", "b4", "c2", "c3", "c4"}
    assert "b3" in model.view.building
    model.tap("d1")  # not next to b3
    assert "d1 is not next to b3" in model.view.alert.lower()
    model.tap("c2")
    assert [s.text for s in model.builder.steps] == ["b3", ">c2"]
    assert model.view.targets == {"a1"} or "a1" in model.view.targets
    model.back()
    assert [s.text for s in model.builder.steps] == ["b3"]
    model.tap("a4")
    free = sorted(model.view.targets)
    model.tap(free[0])
    assert model.session.turns == [f"b3>a4+{free[0]}"]
    assert model.view.last == {"b3", "a4", free[0]}
    assert "Played" in model.view.alert


def test_rumbo_touches_put_the_chosen_colour_and_claims_are_marked() -> None:
    model = model_of("rumbo", "rumbo ..../..../..../.... v 0 ..../..../..../....")
    assert model.view.contents == ("b", "w") and model.view.prefer == "b"
    assert model.view.targets == set()  # every empty point: no dots
    model.choose_content("w")
    model.tap("a1")
    assert model.session.turns == ["w@a1"]
    for turn in ("b@b1", "w@a3"):
        model.session.play(turn)
    model.cancel()
    model.choose_content("b")
    model.tap("a2")  # the white stone on a1 loses its last liberty, south of the new stone
    assert model.session.turns[-1] == "b@a2"
    assert model.view.owners == {"a1": "v"}
    assert "Vertical claims" in model.view.alert
    assert "Vertical (blue marks) 1" in model.view.status


def test_rumbo_setup_steps_are_actions_a_number_and_two_sides() -> None:
    model = model_of("rumbo", "rumbo .../.../... k ? .../.../...")
    (komi,) = model.view.actions
    assert komi.name == "komi" and komi.numbers == tuple(range(-9, 10))
    assert model.view.everyone and model.view.to_move == "proposer"
    model.choose(komi.step_for(2))
    (side,) = model.view.actions
    assert [s.text for s in side.steps] == ["side=v", "side=h"] and not side.numbers
    model.choose("side=h")
    assert model.session.turns == ["komi=2", "side=h"]
    assert model.view.to_move == "vertical" and not model.view.everyone


def test_raindrops_placement_by_the_point_first_then_the_piece() -> None:
    model = model_of("raindrops", "raindrops ...w/.bb./b.bb/.wwb b")
    assert model.view.targets == {"a2", "b3", "d1"}
    model.tap("b2")
    assert model.view.touched == ("b2",)
    assert model.view.targets == {"a2", "b3", "d1"}  # which piece goes to b2?
    model.tap("b3")
    assert model.builder.steps[-1].text == "b3-b2"


def test_touches_that_cannot_tell_steps_apart_offer_them_as_choices() -> None:
    steps = (games.Step("x", {"a1": "b"}, "one"), games.Step("y", {"a1": "b"}, "two"))
    picked = picking.pick(steps, (), "a1")
    assert picked.choices == steps
    picked = picking.pick(steps, (), "c3")
    assert picked.problem == "c3 is not a legal step here"


def test_sounds_a_step_a_capture_a_refused_touch_and_the_end() -> None:
    rules = games.get("crumble")
    played: list[str] = []
    model = PlayModel(GameSession(rules, rules.start(width="5", height="5")),
                      sound=played.append)
    model.tap("1,0,1,1")  # White's b1: not Black's to cut
    assert played == ["illegal"]
    model.choose("a1-")  # a cut, then swaps: each a piece put down
    assert played == ["illegal", "move"]
    # Play on by the builder's own steps until a step's note tells of a capture and the
    # game ends: each step sounds once, the capture as a capture, the end as the end.
    for _ in range(200):
        if model.session.is_over:
            break
        steps = model.builder.next_steps()
        if model.builder.steps and (not steps or len(model.builder.steps) >= 4):
            model.confirm()
            continue
        step = next((s for s in steps if "captured" in s.note),  # captures when it can
                    steps[(len(played) * 7) % len(steps)])
        before = len(played)
        model.choose(step)
        sounds = played[before:]
        if model.session.is_over:
            assert sounds == ["end"]
        else:
            assert sounds == [("capture" if "captured" in step.note else "move")]
    assert model.session.is_over and played[-1] == "end" and played.count("end") == 1
    assert "capture" in played


def test_a_resignation_sounds_the_end_and_no_sound_stops_a_game() -> None:
    rules = games.get("dropper")

    def broken(name: str) -> None:
        raise RuntimeError("no audio")

    model = PlayModel(GameSession(rules, rules.start(size="4")), sound=broken)
    model.resign("black")  # the sound fails; the game still ends
    assert model.session.is_over
    played: list[str] = []
    model = PlayModel(GameSession(rules, rules.start(size="4")), sound=played.append)
    model.resign("white")
    assert played == ["end"]


def test_a_clock_counts_down_each_side_and_a_fallen_flag_ends_the_game() -> None:
    from companion.clock import ClockSettings

    rules = games.get("dropper")
    now = [0.0]
    played: list[str] = []
    model = PlayModel(GameSession(rules, rules.start(size="4"), clock=ClockSettings.parse("5+2"),
                                  now=lambda: now[0]), sound=played.append)
    first, second = rules.players
    assert model.view.clocks == {first: "5:00", second: "5:00"}
    now[0] = 61.0
    model.tick()
    assert model.view.clocks[model.session.to_move] == "3:59"
    now[0] = 400.0
    model.tick()
    assert model.session.is_over and model.session.result.by == "time"
    assert "time ran out" in model.view.alert and played == ["end"]
    assert PlayModel(GameSession(rules, rules.start(size="4"))).view.clocks == {}
