"""The interface every abstract board game of the companion implements.

A game is a :class:`GameRules` object: it makes start positions from named
options, reads and writes canonical position text, lists legal turns as turn
texts, applies a turn, lists successor positions, decides the outcome, and
builds a turn step by step (one physical act at a time) for the app and for
board sensing. Positions are immutable and hashable; two positions are equal
exactly when their canonical texts are equal.

Words: a *turn* is one player's whole go, written as the turn text of the
game's rules file; a *step* is one physical act within it (a stone put down,
a piece lifted, a swap). "Move" is kept for chess.

Everything here is pure: no I/O, no randomness, no clock. Sessions, records,
the journal and the clock live in :mod:`companion.games.session`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Generic, Protocol, Self, TypeVar

Player = str
"""A side: ``"black"``, ``"white"``, ``"vertical"``, ``"horizontal"``."""

Cell = str
"""A place on the board: ``"c5"``; in Crumble a piece's ``"x,y"``."""

EMPTY = "."


class PositionError(ValueError):
    """A position text that is malformed or impossible; the message names the field."""


class IllegalTurn(ValueError):
    """A turn (or step) that is not legal here; the message names the bad part."""


MAX_OPTION_TEXT = 100
"""The longest value an option may be given (no option needs more than a few characters)."""


class TooManyTurns(ValueError):
    """A listing (turns, successors) went past the limit it was given; nothing more is
    searched. The message says the limit."""

    def __init__(self, limit: int, what: str = "legal turns") -> None:
        super().__init__(f"more than {limit} {what} (the limit)")
        self.limit = limit


def check_count(count: int, limit: int | None, what: str = "legal turns") -> None:
    """:class:`TooManyTurns` if ``count`` is past ``limit`` (``None``: no limit)."""
    if limit is not None and count > limit:
        raise TooManyTurns(limit, what)


class OptionError(ValueError):
    """An unknown option, or a value the option does not allow."""


@dataclass(frozen=True)
class Option:
    """A named start option of a game (``size=9``, ``first=b``...)."""

    default: str | None
    """The value used when the option is not given; ``None``: absent unless given."""
    choices: tuple[str, ...] | None
    """The allowed values; ``None``: ``start()`` checks the value itself."""
    help: str
    """One plain sentence for the command line and the new-game screen."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended."""

    winner: Player | None
    """The winning side; ``None`` for a draw."""
    scores: Mapping[Player, int] = field(default_factory=dict)
    """The final score per side; empty when the game is unscored."""
    reason: str = ""
    """Why, in plain words for the players ("White's largest group is 12, Black's 9")."""

    @property
    def result(self) -> str:
        """The winner's name, or ``"draw"``."""
        return self.winner if self.winner is not None else "draw"


@dataclass(frozen=True)
class Step:
    """One physical act within a turn."""

    text: str
    """Its share of the turn text (``"d5"``, ``">c5"``, ``"+g5"``...)."""
    changes: Mapping[Cell, str]
    """Cell -> its content after the step (``"."`` empty)."""
    note: str = ""
    """What the step does, in plain words (``"push the white stone to c5"``)."""


class Position(Protocol):
    """A game position: immutable, hashable, equal exactly when ``text()`` is equal."""

    @property
    def to_move(self) -> Player: ...

    def text(self) -> str:
        """The canonical position text of the game's rules file."""
        ...

    def cells(self) -> Mapping[Cell, str]:
        """Every cell and its content (``"."`` empty); what a sensor would see."""
        ...


P = TypeVar("P", bound=Position)
P_co = TypeVar("P_co", bound=Position, covariant=True)


class TurnBuilder(Protocol[P_co]):
    """A turn being built step by step. Immutable: ``add`` returns a new builder."""

    @property
    def start(self) -> P_co:
        """The position the turn starts from."""
        ...

    @property
    def position(self) -> P_co:
        """The position after the steps so far (what the board shows)."""
        ...

    @property
    def steps(self) -> tuple[Step, ...]:
        """The steps taken so far, in order."""
        ...

    @property
    def message(self) -> str:
        """What the player should do now, in plain words."""
        ...

    @property
    def complete(self) -> bool:
        """True when a legal turn may end here (the player may stop)."""
        ...

    def next_steps(self) -> tuple[Step, ...]:
        """Every legal next step; empty when the turn must end here."""
        ...

    def add(self, step: Step | str) -> Self:
        """The builder after one more step (a :class:`Step` or its text); :class:`IllegalTurn`."""
        ...

    def turn(self) -> str:
        """The canonical turn text; :class:`IllegalTurn` unless :attr:`complete`."""
        ...


class GameRules(Protocol[P]):
    """One game. Implementations subclass :class:`RulesBase` for the shared defaults."""

    name: ClassVar[str]
    """Registry name, lower case (``"dropper"``); also the first field of position text."""
    title: ClassVar[str]
    """Display name (``"Dropper"``)."""
    pitch: ClassVar[str]
    """One line for the game shelf."""
    players: ClassVar[tuple[Player, Player]]
    """The two sides, in the order of the rules file (the usual first mover first)."""
    options: ClassVar[Mapping[str, Option]]
    """The named start options of the rules file."""

    def start(self, **options: str) -> P:
        """The start position; :class:`OptionError` for an unknown option or bad value."""
        ...

    def check_options(self, given: Mapping[str, str]) -> dict[str, str]:
        """Every option's value with defaults filled in; :class:`OptionError`."""
        ...

    def parse(self, text: str) -> P:
        """Position text (lenient as the rules file allows) -> position; :class:`PositionError`."""
        ...

    def turns(self, pos: P) -> Iterator[str]:
        """Every legal turn text (canonical), each once; none when the game is over.
        Lazy: taking the first few works out little more than those."""
        ...

    def play(self, pos: P, turn: str) -> P:
        """The position after ``turn``; :class:`IllegalTurn` naming what is wrong."""
        ...

    def canonical_turn(self, pos: P, turn: str) -> str:
        """``turn`` written canonically, if legal in ``pos``; else :class:`IllegalTurn`."""
        ...

    def successors(self, pos: P, *, limit: int | None = None) -> frozenset[P]:
        """Every distinct position one complete legal turn reaches; with ``limit``,
        :class:`TooManyTurns` as soon as there are more than that many."""
        ...

    def turns_to(self, pos: P, target: P) -> tuple[str, ...]:
        """The legal turns from ``pos`` that reach ``target`` (sorted; empty if none).

        What sensing needs: games with huge turn spaces search from both positions
        instead of listing every successor.
        """
        ...

    def outcome(self, pos: P) -> Outcome | None:
        """The outcome if ``pos`` ends the game, else ``None``."""
        ...

    def builder(self, pos: P) -> TurnBuilder[P]:
        """A step-wise builder for the turn of the player to move."""
        ...

    def claims(self, pos: P) -> tuple[str, ...]:
        """Claims the player to move may make now (``"draw"``...), outside any turn."""
        ...

    def claim(self, pos: P, claim: str) -> P:
        """The position after a claim; :class:`IllegalTurn` if it is not available."""
        ...

    def diagram(self, pos: P) -> str:
        """The position drawn in plain text for a terminal (several lines, coordinates)."""
        ...


class RulesBase(ABC, Generic[P]):
    """Shared defaults for :class:`GameRules` implementations.

    Subclasses implement the abstract methods; they override the defaults
    (``successors``, ``turns_to``, ``claims``, ``claim``) where a faster or
    game-specific answer exists: games with huge turn spaces must override
    ``turns_to``, games with claims override ``claims`` and ``claim``.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    pitch: ClassVar[str]
    players: ClassVar[tuple[Player, Player]]
    options: ClassVar[Mapping[str, Option]]

    @abstractmethod
    def start(self, **options: str) -> P: ...

    @abstractmethod
    def parse(self, text: str) -> P: ...

    @abstractmethod
    def turns(self, pos: P) -> Iterator[str]: ...

    @abstractmethod
    def play(self, pos: P, turn: str) -> P: ...

    @abstractmethod
    def canonical_turn(self, pos: P, turn: str) -> str: ...

    @abstractmethod
    def outcome(self, pos: P) -> Outcome | None: ...

    @abstractmethod
    def builder(self, pos: P) -> TurnBuilder[P]: ...

    @abstractmethod
    def diagram(self, pos: P) -> str: ...

    def check_options(self, given: Mapping[str, str]) -> dict[str, str]:
        """Every option's value (defaults filled in; absent ones left out); :class:`OptionError`."""
        unknown = sorted(set(given) - set(self.options))
        if unknown:
            known = ", ".join(sorted(self.options)) or "none"
            raise OptionError(
                f"{self.name}: unknown option {unknown[0][:40]!r} (options: {known})")
        values: dict[str, str] = {}
        for key, option in self.options.items():
            value = given.get(key, option.default)
            if value is None:
                continue
            value = str(value).strip()
            if len(value) > MAX_OPTION_TEXT:
                raise OptionError(f"{self.name}: the value of {key} is {len(value)} characters "
                                  f"long; at most {MAX_OPTION_TEXT}")
            if option.choices is not None and value not in option.choices:
                raise OptionError(
                    f"{self.name}: {key}={value!r} is not allowed "
                    f"(choose one of {', '.join(option.choices)})")
            values[key] = value
        return values

    def successors(self, pos: P, *, limit: int | None = None) -> frozenset[P]:
        found: set[P] = set()
        for turn in self.turns(pos):
            found.add(self.play(pos, turn))
            check_count(len(found), limit, "positions")
        return frozenset(found)

    def turns_to(self, pos: P, target: P) -> tuple[str, ...]:
        return tuple(sorted(turn for turn in self.turns(pos) if self.play(pos, turn) == target))

    def claims(self, pos: P) -> tuple[str, ...]:
        return ()

    def claim(self, pos: P, claim: str) -> P:
        available = self.claims(pos)
        if claim not in available:
            raise IllegalTurn(
                f"{claim!r} cannot be claimed here"
                + (f" (available: {', '.join(available)})" if available else " (none available)"))
        raise NotImplementedError(f"{type(self).__name__} lists {claim!r} but cannot apply it")
