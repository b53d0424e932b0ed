"""Haptic feedback: one buzz per action (the event that matters most, as the sounds
pick it), a buzz for a refused touch, nothing when the settings turn it off, and
nothing but a debug line on a platform without a vibrator."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from app_driver import Driver


class FakeVibrator:
    def __init__(self) -> None:
        self.pulses: list[float] = []

    def vibrate(self, seconds: float) -> None:
        self.pulses.append(seconds)


def test_a_buzz_per_event_and_none_when_turned_off() -> None:
    from ui.haptics import PULSES, Haptics

    vibrator = FakeVibrator()
    haptics = Haptics(vibrator)
    haptics.buzz_first(["check", "capture"])
    haptics.buzz_first(["end", "check"])
    haptics.buzz_first([])
    assert haptics.felt == ["check", "end"]
    assert vibrator.pulses == [PULSES["check"], PULSES["end"]]
    haptics.enabled = False
    haptics.buzz("move")
    assert vibrator.pulses == [PULSES["check"], PULSES["end"]]
    with pytest.raises(ValueError, match="no haptic event 'boom'"):
        haptics.buzz("boom")


def test_without_a_vibrator_it_only_logs(caplog: pytest.LogCaptureFixture) -> None:
    from ui.haptics import Haptics

    haptics = Haptics()  # desktop: no vibrator is found
    with caplog.at_level(logging.DEBUG, logger="ui.haptics"):
        haptics.buzz("flip")
    assert haptics.felt == ["flip"]
    assert any("no haptic feedback" in r.getMessage() and r.levelno == logging.DEBUG
               for r in caplog.records)


def test_the_table_buzzes_on_its_events_and_refusals(driver: Driver,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.haptics import PULSES, Haptics

    vibrator = FakeVibrator()
    monkeypatch.setattr(driver.app, "_haptics", Haptics(vibrator))
    driver.new_game("KQ", "k")
    driver.play(["flip", "K@f6"])
    assert driver.app.haptics.felt == ["flip", "move"]
    driver.tap_square("f6")  # White's king, with Black to play: refused
    assert "Black to play" in driver.message()
    assert driver.app.haptics.felt[-1] == "illegal"
    driver.play(["flip", "k@h8", "flip", "Q@g7"])  # mate: one buzz, the end
    assert driver.app.haptics.felt[-1] == "end"
    assert driver.app.haptics.felt.count("end") == 1
    assert vibrator.pulses[-1] == PULSES["end"]


def test_the_settings_switch_turns_vibration_off(driver: Driver,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.haptics import Haptics

    vibrator = FakeVibrator()
    monkeypatch.setattr(driver.app, "_haptics", Haptics(vibrator))
    app = driver.app
    app.show("settings")
    driver.pump()
    screen = app.screen("settings")
    driver.tap_button(screen.ids.haptics, "Off")
    driver.tap(screen.ids.header.ids.action)
    assert app.settings.haptics is False and not app.haptics.enabled
    driver.new_game("KQ", "k")
    driver.play(["flip", "K@f6"])
    driver.tap_square("f6")
    assert vibrator.pulses == [] and app.haptics.felt == []
