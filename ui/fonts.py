"""Button text that stays on one line: the font shrinks with the button, within bounds.

One rule for every button that shrinks its text (the chess toolbar's, the games
screen's bar and panel buttons): the font size at which ``chars`` characters of
``em`` font sizes each fit in ``room`` pixels, kept between ``smallest`` and
``largest`` (pixels too). A kv rule passes ``14 * Metrics.sp``, which follows a
change of the text size; ``sp(14)`` would not. Plain arithmetic, no Kivy.
"""

from __future__ import annotations


def longest_word(text: str) -> int:
    """The characters of ``text``'s longest word (0 for no word)."""
    return max((len(word) for word in text.split()), default=0)


def fitting_font(room: float, chars: float, smallest: float, largest: float,
                 em: float) -> float:
    """The font size (px) at which ``chars`` characters fit in ``room`` px, a character
    taking ``em`` of the font size; never under ``smallest`` nor over ``largest``."""
    if room <= 0 or chars <= 0:
        return smallest if room <= 0 else largest
    return max(smallest, min(largest, room / (em * chars)))
