"""House rules: the options the rules file names, with their defaults."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Literal

import chess

from companion.limits import LimitError, parse_count
from companion.rules.letters import BLUE_ORDER

FailedRescue = Literal["lose", "return"]
TouchMove = Literal["off", "warn", "enforce"]
JokerEffect = Literal["extra_turn", "remove_piece"]

FAILED_RESCUE_CHOICES: tuple[FailedRescue, ...] = ("lose", "return")
TOUCH_MOVE_CHOICES: tuple[TouchMove, ...] = ("off", "warn", "enforce")
JOKER_EFFECT_CHOICES: tuple[JokerEffect, ...] = ("extra_turn", "remove_piece")

# One line per option, for the CLI's help and the app's new-game screen.
EXPLANATIONS: Mapping[str, str] = {
    "jokers_per_deck": "Jokers shuffled into each deck (0, 1 or 2).",
    "blue_pieces": "The blue pieces each side may promote to, each usable once.",
    "blue_returns_when_captured": "A captured blue piece becomes available again.",
    "failed_rescue": "Flipping in check with a card that cannot block: lose at once, "
                     "or put it back and a move must lift the check.",
    "touch_move": "With a sensing board, a lifted piece must be moved: off, warn or enforce.",
    "joker_effect": "A joker gives an extra turn, or removes an opposing piece (not the king).",
    "coloured_bishop_cards": "Each deck has a light-square and a dark-square bishop card.",
}


class HouseRulesError(ValueError):
    """A house-rule option has a value the rules do not allow."""


@dataclasses.dataclass(frozen=True)
class HouseRules:
    """The house-rule options of the rules file, with its defaults."""

    jokers_per_deck: int = 0
    blue_pieces: str = "QRBN"
    blue_returns_when_captured: bool = False
    failed_rescue: FailedRescue = "lose"
    touch_move: TouchMove = "warn"
    joker_effect: JokerEffect = "extra_turn"
    coloured_bishop_cards: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.jokers_per_deck, int) or not 0 <= self.jokers_per_deck <= 2:
            raise HouseRulesError(
                f"jokers_per_deck must be 0, 1 or 2, not {self.jokers_per_deck!r}")
        blue = self.blue_pieces.upper()
        if any(letter not in "QRBN" for letter in blue):
            raise HouseRulesError(
                f"blue_pieces may only name Q, R, B and N, not {self.blue_pieces!r}")
        object.__setattr__(self, "blue_pieces", "".join(
            chess.piece_symbol(pt).upper() * blue.count(chess.piece_symbol(pt).upper())
            for pt in BLUE_ORDER))
        if self.failed_rescue not in FAILED_RESCUE_CHOICES:
            raise HouseRulesError(
                f"failed_rescue must be one of {', '.join(FAILED_RESCUE_CHOICES)}, "
                f"not {self.failed_rescue!r}")
        if self.touch_move not in TOUCH_MOVE_CHOICES:
            raise HouseRulesError(
                f"touch_move must be one of {', '.join(TOUCH_MOVE_CHOICES)}, "
                f"not {self.touch_move!r}")
        if self.joker_effect not in JOKER_EFFECT_CHOICES:
            raise HouseRulesError(
                f"joker_effect must be one of {', '.join(JOKER_EFFECT_CHOICES)}, "
                f"not {self.joker_effect!r}")
        for name in ("blue_returns_when_captured", "coloured_bishop_cards"):
            if not isinstance(getattr(self, name), bool):
                raise HouseRulesError(f"{name} must be true or false")

    def deck_letters(self, color: chess.Color) -> str:
        """The full deck of one side, as RFEN letters (R1, R12, R13)."""
        bishops = "LD" if self.coloured_bishop_cards else "BB"
        letters = "KQRR" + bishops + "NNPPPPPPPP" + "J" * self.jokers_per_deck
        return letters if color == chess.WHITE else letters.lower()

    def start_rfen(self) -> str:
        """The starting position under these rules."""
        blue = self.blue_pieces + self.blue_pieces.lower() or "-"
        return (f"8/8/8/8/8/8/8/8[{self.deck_letters(chess.WHITE)}"
                f"{self.deck_letters(chess.BLACK)}] w {blue} - 0 1")

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HouseRules:
        """Rules from a mapping (as saved in a journal); unknown keys are an error."""
        names = {field.name for field in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise HouseRulesError(f"unknown house rule(s): {', '.join(unknown)}")
        try:
            return cls(**dict(data))
        except TypeError as error:
            raise HouseRulesError(str(error)) from error

    @classmethod
    def parse(cls, text: str) -> HouseRules:
        """Rules from ``"key=value,key=value"`` (the CLI's ``--rules``)."""
        values: dict[str, Any] = {}
        fields = {field.name: field for field in dataclasses.fields(cls)}
        items = [part.strip() for part in text.split(",")] if text.strip() else []
        for item in items:
            if not item:
                raise HouseRulesError(f"an empty item in --rules {text[:60]!r} (write "
                                      f"key=value,key=value)")
            key, sep, raw = item.partition("=")
            key = key.strip().replace("-", "_")
            if not sep:
                raise HouseRulesError(f"expected key=value in --rules, got {item!r}")
            if key not in fields:
                raise HouseRulesError(
                    f"unknown house rule {key!r}; known: {', '.join(fields)}")
            values[key] = _convert(key, raw.strip(), type(getattr(cls(), key)))
        return cls(**values)

    def differences(self) -> dict[str, Any]:
        """The options that differ from the defaults (for headers and summaries)."""
        default = HouseRules()
        return {key: value for key, value in self.to_dict().items()
                if getattr(default, key) != value}


def _convert(key: str, raw: str, kind: type) -> Any:
    if kind is bool:
        lowered = raw.lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise HouseRulesError(f"{key} must be true or false, not {raw!r}")
    if kind is int:
        try:
            return parse_count(raw, key)
        except LimitError:
            raise HouseRulesError(f"{key} must be a number (digits 0-9), not "
                                  f"{raw[:20]!r}") from None
    return raw
