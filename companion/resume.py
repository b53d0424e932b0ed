"""Resuming a Raindropchess game from its journal, and starting a journaled game.

A journal (:mod:`companion.journal`) is ``CRC32 JSON`` lines, each fsynced
before the game tells anyone about the action. A Raindropchess header holds the
format, version, house rules and clock settings, and, sealed in its ``secret``
field with a key kept apart, the decks' order and the seed; each entry is one
committed action (an undo that took back a flip also seals where the card went).

Resuming replays the actions (:func:`apply_entry`, through the game's public
methods). A torn tail is cut back to the last good entry (the original copied aside as
``NAME.damaged-N``) with a warning; a damaged entry followed by intact ones, an
unreadable header or key, or entries that cannot be replayed make resume refuse with a
:class:`JournalError` naming the problem, and the file is left byte for byte as it was.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import time
from collections.abc import Callable
from typing import Any

import chess

from companion.cards import DeckError, Decks
from companion.clock import ClockSettings, ClockSettingsError
from companion.game import JOURNAL_FORMAT, JOURNAL_VERSION, Game
from companion.journal import (
    SECRET,
    Journal,
    JournalContents,
    JournalError,
    ReplayError,
    read_entries,
    reopen,
)
from companion.rules import ActionKind, HouseRules, HouseRulesError, IllegalActionError

LOGGER = logging.getLogger(__name__)


def read_journal(path: str | os.PathLike[str]) -> JournalContents:
    """Read a Raindropchess journal without changing it; :class:`JournalError` if its
    header (or key) is bad, or it is another format or version."""
    return _checked(read_entries(path))


def _checked(contents: JournalContents) -> JournalContents:
    header, file = contents.header, contents.path
    if header.get("format") != JOURNAL_FORMAT:
        raise JournalError(f"{file} is not a Raindropchess journal (format "
                           f"{header.get('format')!r})")
    if header.get("version") != JOURNAL_VERSION:
        raise JournalError(f"{file} is a journal of version {header.get('version')!r}; this "
                           f"companion reads version {JOURNAL_VERSION} only. The file was "
                           f"left as it is.")
    return contents


def game_from_contents(contents: JournalContents, *,
                       now: Callable[[], float] = time.monotonic) -> Game:
    """Rebuild the game a journal records (no file is touched)."""
    header = contents.header
    file = contents.path
    secret = header.get(SECRET)
    if not isinstance(secret, dict):
        raise JournalError(f"{file}: the header has no sealed secret (the decks' order)")
    try:
        rules = HouseRules.from_dict(header.get("rules") or {})
        decks = Decks.from_order(secret["decks"], rules)
        clock_data = header.get("clock")
        clock = ClockSettings.from_dict(clock_data) if clock_data else None
    except (KeyError, TypeError, HouseRulesError, DeckError, ClockSettingsError) as error:
        raise JournalError(f"{file}: the header does not describe a game: {error}") from None
    seed = secret.get("seed")
    game = Game(rules, seed=seed if isinstance(seed, int) else None, clock=clock, now=now,
                decks=decks)
    with game.replaying():
        for entry in contents.entries:
            try:
                apply_entry(game, entry)
            except ReplayError as error:
                raise JournalError(f"{file}: entry {entry.get('n')} cannot be replayed "
                                   f"({error}); the file was left as it is") from None
    if game.clock is not None and not game.is_over:
        last_clock = next((e["clock"] for e in reversed(contents.entries)
                           if isinstance(e.get("clock"), dict)), None)
        if last_clock is not None:
            game.clock.restore(last_clock)
    return game


def _color(name: Any) -> chess.Color:
    if name == "white":
        return chess.WHITE
    if name == "black":
        return chess.BLACK
    raise ReplayError(f"expected 'white' or 'black', got {name!r}")


def apply_entry(game: Game, entry: dict[str, Any]) -> None:
    """Apply one journal entry to ``game`` (inside :meth:`Game.replaying`);
    :class:`ReplayError` if it does not fit the game."""
    kind = entry.get("a")
    try:
        if kind == "flip":
            expected = game.export_next_card()
            if expected != entry.get("card"):
                raise ReplayError(f"the journal flips {entry.get('card')!r} but the top card "
                                  f"is {expected!r}")
            game.flip()
        elif kind == "move":
            game.play(chess.Move.from_uci(str(entry.get("uci"))))
        elif kind == "remove":
            game.remove(chess.parse_square(str(entry.get("square"))))
        elif kind == "undo":
            secret = entry.get("secret")
            place = secret.get("at") if isinstance(secret, dict) else None
            actions = game.actions()
            if place is None and actions and actions[-1].kind == ActionKind.FLIP:
                raise ReplayError("the journal takes back a flip without saying where its "
                                  "card went")
            game.undo(place=place)
        elif kind == "redo":
            game.redo()
        elif kind == "offer":
            game.offer_draw(_color(entry.get("color")))
        elif kind == "accept":
            color = _color(entry.get("color"))
            if game.draw_offer is not None and game.draw_offer != color:
                game.accept_draw(color)
            else:
                game.offer_draw(color)
        elif kind == "decline":
            game.decline_draw(_color(entry.get("color")))
        elif kind == "claim":
            if not game.claim_draw():
                raise ReplayError("the journal claims a draw the position does not allow")
        elif kind == "resign":
            game.resign(_color(entry.get("color")))
        elif kind == "flag":
            game.flag(_color(entry.get("color")))
        elif kind == "pause":
            game.pause()
        elif kind == "resume":
            game.resume()
        else:
            raise ReplayError(f"unknown action {kind!r}")
    except (IllegalActionError, DeckError, ValueError) as error:
        if isinstance(error, ReplayError):
            raise
        raise ReplayError(f"cannot apply {entry!r}: {error}") from None
    clock_state = entry.get("clock")
    if game.clock is not None and isinstance(clock_state, dict):
        game.clock.restore(clock_state, running=not game.is_over)


@dataclasses.dataclass(frozen=True)
class Resumed:
    """A game rebuilt from its journal, recording on to the same file."""

    game: Game
    journal: Journal
    warnings: tuple[str, ...]


def resume(path: str | os.PathLike[str], *, now: Callable[[], float] = time.monotonic,
           ) -> Resumed:
    """Rebuild a game from its journal and keep recording to it (see
    :func:`companion.journal.reopen`: a torn tail is cut with a warning; anything
    else wrong raises :class:`JournalError` and leaves the file as it was)."""

    def rebuild(contents: JournalContents) -> Game:
        return game_from_contents(_checked(contents), now=now)

    game, journal, warnings = reopen(path, rebuild)
    game.attach_journal(journal)
    game.entries = journal.entries
    return Resumed(game, journal, warnings)


def new_game(rules: HouseRules | None = None, *, seed: int | None = None,
             clock: ClockSettings | None = None,
             directory: str | os.PathLike[str] | None = None,
             now: Callable[[], float] = time.monotonic) -> tuple[Game, Journal]:
    """A new game recording to a new journal in the games directory."""
    journal = Journal.create(directory)
    game = Game(rules, seed=seed, clock=clock, journal=journal, now=now)
    return game, journal
