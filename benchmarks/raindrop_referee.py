"""A referee for engine games: holds both secret decks, deals, and judges every turn.

The referee does not trust the companion's rules engine. It keeps the game on
the separate simple generator of the rules tests
(``tests/companion/rules/simple_generator.py``: plain square lists, its own
RFEN reader and writer, its own attack detection, nothing from python-chess or
``companion.rules``) and adds what a game needs beyond perft: the secret deck
order (shuffled from a recorded seed; a card that cannot be placed goes to the
bottom), dealing the top card on a flip, and the ends of a game (checkmate,
failed rescue, stalemate, the seventy-five-move rule, fivefold repetition,
insufficient material with both decks empty).

Players see only :meth:`Referee.rfen`. Each turn text a player answers is
checked against the referee's own list of legal turns before it is played.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.companion.rules import simple_generator as simple  # noqa: E402

FLIP = "flip"
MAX_TURNS = 600
"""A game still going after this many turns (both sides) is adjudicated a draw."""


class IllegalTurn(ValueError):
    """A player answered a turn the referee's rules do not allow."""


@dataclass(frozen=True)
class RefereeRules:
    """The house rules a game is played under (the referee's copy of the options)."""

    jokers_per_deck: int = 0
    joker_effect: str = "extra_turn"
    failed_rescue: str = "lose"
    blue_returns_when_captured: bool = False
    coloured_bishop_cards: bool = False
    blue_pieces: str = "QRBN"

    @classmethod
    def parse(cls, text: str) -> RefereeRules:
        """``"key=value,..."`` as ``raindrop best --rules`` takes it."""
        values: dict[str, object] = {}
        for item in filter(None, (part.strip() for part in text.split(","))):
            key, _, raw = item.partition("=")
            if key in ("jokers_per_deck",):
                values[key] = int(raw)
            elif key in ("blue_returns_when_captured", "coloured_bishop_cards"):
                values[key] = raw.lower() in ("1", "true", "yes", "on")
            elif key in ("joker_effect", "failed_rescue", "blue_pieces"):
                values[key] = raw
            else:
                raise ValueError(f"the referee knows no house rule {key!r}")
        return cls(**values)  # type: ignore[arg-type]

    def options(self) -> dict[str, str]:
        """The rules as ``--rules`` options for the engines."""
        return {"jokers_per_deck": str(self.jokers_per_deck), "joker_effect": self.joker_effect,
                "failed_rescue": self.failed_rescue,
                "blue_returns_when_captured": str(self.blue_returns_when_captured).lower(),
                "coloured_bishop_cards": str(self.coloured_bishop_cards).lower(),
                "blue_pieces": self.blue_pieces}

    def deck(self, white: bool) -> list[str]:
        bishops = "ld" if self.coloured_bishop_cards else "bb"
        letters = "kqrr" + bishops + "nnpppppppp" + "j" * self.jokers_per_deck
        return [letter.upper() if white else letter for letter in letters]

    def start(self) -> str:
        cards = "".join(self.deck(True)) + "".join(self.deck(False))
        blue = self.blue_pieces.upper() + self.blue_pieces.lower()
        return f"8/8/8/8/8/8/8/8[{cards}] w {blue or '-'} - 0 1"

    def simple(self) -> simple.Rules:
        return simple.Rules(failed_rescue=self.failed_rescue, joker_effect=self.joker_effect,
                            blue_returns_when_captured=self.blue_returns_when_captured)


@dataclass
class Ending:
    """How a game ended: the winner (``True`` white, ``False`` black, ``None`` a draw)."""

    winner: bool | None
    reason: str


@dataclass
class Referee:
    """One game: the position, both secret decks, and the record."""

    rules: RefereeRules
    seed: int
    pos: simple.Position = field(init=False)
    decks: dict[bool, list[str]] = field(init=False)
    turns: list[str] = field(default_factory=list)
    flips: list[str] = field(default_factory=list)
    seen: Counter[str] = field(default_factory=Counter)
    ending: Ending | None = None

    def __post_init__(self) -> None:
        self.pos = simple.parse(self.rules.start())
        self.decks = {}
        for white, name in ((True, "white"), (False, "black")):
            cards = self.rules.deck(white)
            random.Random(f"referee:{self.seed}:{name}").shuffle(cards)
            self.decks[white] = [card.lower() for card in cards]
        self.seen[self._repetition_key()] += 1
        self._judge()

    # What players see.

    def rfen(self) -> str:
        return simple.write(self.pos)

    @property
    def white_to_move(self) -> bool:
        return self.pos.white_to_move

    def legal_turns(self) -> dict[str, simple.Position | None]:
        """Every legal turn text now, with the position it leads to (``None``: a flip)."""
        pos = self.pos
        rules = self.rules.simple()
        if pos.pending == "j":
            return {f"Jx{name.split(':')[1]}": after for name, after in simple.removals(pos)}
        if pos.pending:
            return dict(simple.drops(pos, pos.pending))
        turns: dict[str, simple.Position | None] = dict(simple.moves(pos, rules))
        if simple.may_flip(pos, rules):
            turns[FLIP] = None
        return turns

    # Acting.

    def play(self, turn: str) -> str | None:
        """Play a player's turn text; the card dealt for a flip. :class:`IllegalTurn`."""
        if self.ending is not None:
            raise IllegalTurn(f"the game is over ({self.ending.reason})")
        legal = self.legal_turns()
        if turn not in legal:
            raise IllegalTurn(f"{turn!r} is not legal at {self.rfen()} "
                              f"(legal: {', '.join(sorted(legal))})")
        self.turns.append(turn)
        card = None
        if turn == FLIP:
            card = self._flip()
        else:
            after = legal[turn]
            assert after is not None
            self.pos = after
        self.seen[self._repetition_key()] += 1
        self._judge()
        return card

    def _flip(self) -> str:
        white = self.pos.white_to_move
        deck = self.decks[white]
        card = deck.pop(0)
        before = self.pos.decks[white].get(card, 0)
        after = simple.flip(self.pos, card, self.rules.simple())
        if after.decks[white].get(card, 0) == before:  # R7 return, R8: under the deck
            deck.append(card)
        self.pos = after
        self.flips.append(card.upper() if white else card)
        return card

    # The end.

    def _repetition_key(self) -> str:
        return " ".join(self.rfen().split()[:4])

    def _judge(self) -> None:
        pos = self.pos
        rules = self.rules.simple()
        white = pos.white_to_move
        checked = simple.in_check(pos, white)
        if pos.pending:
            if checked and not (simple.removals(pos) if pos.pending == "j"
                                else simple.drops(pos, pos.pending)):
                self.ending = Ending(not white, "failed rescue")
            return
        moves = simple.moves(pos, rules)
        cards = sum(pos.decks[white].values())
        if checked and not moves:
            rescues = cards and not pos.must_move and simple._rescues(pos, rules)
            if not rescues:
                self.ending = Ending(not white, "checkmate")
                return
        if pos.halfmove >= 150:
            self.ending = Ending(None, "seventy-five-move rule")
        elif self.seen[self._repetition_key()] >= 5:
            self.ending = Ending(None, "fivefold repetition")
        elif not sum(pos.decks[True].values()) and not sum(pos.decks[False].values()) \
                and _insufficient(pos):
            self.ending = Ending(None, "insufficient material")
        elif not checked and not moves and not cards:
            self.ending = Ending(None, "stalemate")
        elif len(self.turns) >= MAX_TURNS:
            self.ending = Ending(None, f"adjudicated: {MAX_TURNS} turns")


def _insufficient(pos: simple.Position) -> bool:
    """Bare kings, or a king and one knight or bishop against a bare king."""
    pieces = [piece for piece in pos.squares if piece is not None and piece.kind != "k"]
    if any(piece.kind in "pqr" for piece in pieces):
        return False
    return len(pieces) <= 1
