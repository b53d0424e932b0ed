"""An engine's estimate in plain words, for the terminal, the app and speech."""

from __future__ import annotations

from companion.engine.contract import Proof

_SCALE: tuple[tuple[float, str], ...] = (
    (0.90, "{side} is winning"),
    (0.70, "{side} is clearly better"),
    (0.57, "{side} is slightly better"),
    (0.43, "the game is even"),
    (0.30, "{other} is slightly better"),
    (0.10, "{other} is clearly better"),
    (0.00, "{other} is winning"),
)


def chance_words(value: float, side: str, other: str, *, proof: Proof | None = None) -> str:
    """``value`` (``side``'s expected score, 0 to 1) as a sentence.

    >>> chance_words(0.83, "black", "white")
    'Black is clearly better (about 83% for Black)'
    """
    side_name, other_name = side.capitalize(), other.capitalize()
    if proof is Proof.WIN:
        return f"{side_name} wins with best play"
    if proof is Proof.LOSS:
        return f"{other_name} wins with best play"
    if proof is Proof.DRAW:
        return "a draw with best play"
    value = min(1.0, max(0.0, value))
    for floor, pattern in _SCALE:
        if value >= floor:
            words = pattern.format(side=side_name, other=other_name)
            break
    return f"{words[0].upper()}{words[1:]} (about {round(value * 100)}% for {side_name})"
