"""The one rule by which button text shrinks to stay on one line (ui/fonts.py)."""

from __future__ import annotations

import pytest

from ui.fonts import fitting_font, longest_word


def test_the_longest_word_counts() -> None:
    assert longest_word("Yes, resign") == 6
    assert longest_word("Hint (3 left)") == 5
    assert longest_word("") == longest_word("   ") == 0


def test_the_font_shrinks_with_the_room_between_its_bounds() -> None:
    sizes = [fitting_font(room, 7, 14.0, 17.0, 0.55) for room in range(0, 200, 5)]
    assert sizes == sorted(sizes)  # more room never gives a smaller font
    assert min(sizes) == 14.0 and max(sizes) == 17.0
    inside = fitting_font(60.0, 7, 10.0, 30.0, 0.5)
    assert inside == pytest.approx(60.0 / 3.5)  # seven characters of half a size fill it
    assert 7 * 0.5 * inside == pytest.approx(60.0)


def test_no_room_or_no_text() -> None:
    assert fitting_font(-4.0, 5, 14.0, 15.0, 0.6) == 14.0
    assert fitting_font(0.0, 5, 14.0, 15.0, 0.6) == 14.0
    assert fitting_font(80.0, 0, 14.0, 15.0, 0.6) == 15.0
