"""The two secret decks: shuffling, drawing, returning cards (R1, R12, R13).

This is the only place with randomness. Each side's deck is an ordered list
of RFEN card letters, top first. The order is secret: ``repr`` and every
public attribute show only the sizes and contents by kind; the single way to
read the order is :meth:`Decks.export_order`, meant for the journal, replays
and tests.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections import Counter
from collections.abc import Mapping, Sequence

import chess

from companion.rules import HouseRules, parse_card_letter
from companion.rules.letters import WRITE_ORDER, card_letter

LOGGER = logging.getLogger(__name__)


class DeckError(ValueError):
    """A deck order that does not fit the rules, or a card that is not in the deck."""


def _side_key(color: chess.Color) -> str:
    return "white" if color == chess.WHITE else "black"


class Decks:
    """Both players' decks, each an ordered pile (top first) of card letters."""

    def __init__(self, white: Sequence[str], black: Sequence[str]) -> None:
        for color, cards in ((chess.WHITE, white), (chess.BLACK, black)):
            for letter in cards:
                try:
                    _, card_color = parse_card_letter(letter)
                except ValueError as error:
                    raise DeckError(f"{_side_key(color)} deck: {error}") from None
                if card_color != color:
                    raise DeckError(f"{_side_key(color)} deck holds {letter!r}, a "
                                    f"{chess.COLOR_NAMES[card_color]} card")
        self._piles: tuple[list[str], list[str]] = (list(black), list(white))
        # How many cards at the bottom of each pile were seen going there (R7, R8):
        # their place is public, the rest of the pile is unseen.
        self._seen_bottom = [0, 0]
        # For each draw not yet taken back: whether it came from those seen cards.
        self._from_seen: tuple[list[bool], list[bool]] = ([], [])

    # ------------------------------------------------------------------
    # Making decks

    @classmethod
    def shuffled(cls, rules: HouseRules, seed: int | None = None) -> Decks:
        """Fresh decks for ``rules``: shuffled by the system's secure source, or,
        with a seed, reproducibly (each side's shuffle derived from the seed)."""
        piles = []
        for color in (chess.WHITE, chess.BLACK):
            cards = list(rules.deck_letters(color))
            rng: random.Random = (secrets.SystemRandom() if seed is None
                                  else random.Random(f"raindrop:{seed}:{_side_key(color)}"))
            rng.shuffle(cards)
            piles.append(cards)
        return cls(piles[0], piles[1])

    @classmethod
    def from_order(cls, order: Mapping[str, Sequence[str] | str],
                   rules: HouseRules | None = None) -> Decks:
        """Decks from an exported order (see :meth:`export_order`).

        With ``rules``, the contents must be exactly a full deck under those
        rules; :class:`DeckError` says what differs.
        """
        try:
            white = list(order["white"])
            black = list(order["black"])
        except (KeyError, TypeError):
            raise DeckError("a deck order needs 'white' and 'black' card lists") from None
        decks = cls(white, black)
        if rules is not None:
            for color, cards in ((chess.WHITE, white), (chess.BLACK, black)):
                expected = Counter(rules.deck_letters(color))
                if Counter(cards) != expected:
                    raise DeckError(f"the {_side_key(color)} deck {''.join(cards)!r} is not a "
                                    f"full deck under these rules "
                                    f"({rules.deck_letters(color)!r} in some order)")
        return decks

    @classmethod
    def stacked(cls, white_top: str, black_top: str, rules: HouseRules | None = None) -> Decks:
        """Full decks with chosen top cards (the rest in canonical order): prepared
        positions for tests, demos and lessons. :class:`DeckError` if a top card is
        not in the deck."""
        rules = rules or HouseRules()
        piles = []
        for color, top in ((chess.WHITE, white_top), (chess.BLACK, black_top)):
            rest = list(rules.deck_letters(color))
            for card in top:
                if card not in rest:
                    raise DeckError(f"the {_side_key(color)} deck has no {card!r} card left "
                                    f"to put on top")
                rest.remove(card)
            piles.append(list(top) + rest)
        return cls(piles[0], piles[1])

    def export_order(self) -> dict[str, list[str]]:
        """The secret order of both decks, top first (journal, replays, tests only)."""
        return {"white": list(self._piles[chess.WHITE]),
                "black": list(self._piles[chess.BLACK])}

    def copy(self) -> Decks:
        decks = Decks(self._piles[chess.WHITE], self._piles[chess.BLACK])
        decks._seen_bottom = list(self._seen_bottom)
        decks._from_seen = (list(self._from_seen[0]), list(self._from_seen[1]))
        return decks

    # ------------------------------------------------------------------
    # Public information: sizes and contents by kind

    def size(self, color: chess.Color) -> int:
        return len(self._piles[color])

    def unseen(self, color: chess.Color) -> int:
        """How many cards lie above those seen going to the bottom (R7, R8)."""
        return len(self._piles[color]) - self._seen_bottom[color]

    def counts(self, color: chess.Color) -> dict[str, int]:
        """Cards left by kind, in the canonical order (e.g. ``{"Q": 1, "P": 5}``)."""
        counter = Counter(self._piles[color])
        result = {}
        for kind in WRITE_ORDER:
            letter = card_letter(kind, color)
            if counter[letter]:
                result[letter] = counter[letter]
        return result

    def __repr__(self) -> str:
        return (f"Decks(white={self.size(chess.WHITE)} cards, "
                f"black={self.size(chess.BLACK)} cards)")

    # ------------------------------------------------------------------
    # Moving cards

    def draw(self, color: chess.Color) -> str:
        """Take the top card; :class:`DeckError` if the deck is empty."""
        pile = self._piles[color]
        if not pile:
            raise DeckError(f"{chess.COLOR_NAMES[color]}'s deck is empty")
        self._from_seen[color].append(self.unseen(color) == 0)
        card = pile.pop(0)
        self._seen_bottom[color] = min(self._seen_bottom[color], len(pile))
        return card

    def take(self, color: chess.Color, card: str) -> str:
        """Take a named card from wherever it lies (replaying a record whose deck
        order is unknown); :class:`DeckError` if it is not in the deck."""
        pile = self._piles[color]
        try:
            pile.remove(card)
        except ValueError:
            raise DeckError(f"no {card!r} card is left in {chess.COLOR_NAMES[color]}'s "
                            f"deck") from None
        self._from_seen[color].append(False)
        self._seen_bottom[color] = min(self._seen_bottom[color], len(pile))
        return card

    def export_top(self, color: chess.Color) -> str | None:
        """The top card (for replays and tests: never show it to players)."""
        pile = self._piles[color]
        return pile[0] if pile else None

    def put_top(self, color: chess.Color, card: str) -> None:
        """Put ``card`` back on top (rewinding a record: never during play, R1)."""
        self._piles[color].insert(0, card)

    def undraw_places(self, color: chess.Color) -> int:
        """How many places the card of the last draw may go back to (see :meth:`undraw`)."""
        history = self._from_seen[color]
        return 1 if history and history[-1] else self.unseen(color) + 1

    def undraw(self, color: chess.Color, card: str, place: int) -> None:
        """Take back the last draw of ``color``: ``card`` goes to ``place`` among the
        unseen cards (0: on top; :meth:`undraw_places` says how many places there are).
        A card drawn from those seen going to the bottom goes back on top of them."""
        pile = self._piles[color]
        history = self._from_seen[color]
        places = self.undraw_places(color)
        if not 0 <= place < places:
            raise DeckError(f"place {place} is outside the {places} place(s) the card may go "
                            f"back to in {chess.COLOR_NAMES[color]}'s deck")
        if history and history.pop():
            self._seen_bottom[color] += 1
        pile.insert(place, card)

    def put_bottom(self, color: chess.Color, card: str) -> None:
        """Put a card seen by both players at the bottom (R7, R8)."""
        self._piles[color].append(card)
        self._seen_bottom[color] += 1

    def take_bottom(self, color: chess.Color, card: str) -> None:
        """Undo :meth:`put_bottom`; :class:`DeckError` if ``card`` is not at the bottom."""
        pile = self._piles[color]
        if not pile or pile[-1] != card:
            raise DeckError(f"{card!r} is not at the bottom of {chess.COLOR_NAMES[color]}'s "
                            f"deck")
        pile.pop()
        self._seen_bottom[color] = max(0, min(self._seen_bottom[color] - 1, len(pile)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Decks):
            return NotImplemented
        return self._piles == other._piles and self._seen_bottom == other._seen_bottom

    __hash__ = None  # type: ignore[assignment]
