"""Resuming a Raindropchess game from its journal, and starting a journaled game.

A journal (:mod:`companion.journal`) is ``CRC32 JSON`` lines, each fsynced
before the game tells anyone about the action. A Raindropchess header holds the
format, version, house rules and clock settings, and, sealed in its ``secret``
field with a key kept apart, the decks' order and the seed; each entry is one
committed action (an undo that took back a flip also seals where the card went).

Resuming replays the actions. A torn tail is cut back to the last good entry
(the original copied aside as ``NAME.damaged-N``) with a warning; a damaged entry
followed by intact ones, an unreadable header or key, or entries that cannot be
replayed make resume refuse with a :class:`JournalError` naming the problem, and
the file is left byte for byte as it was.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import time
from collections.abc import Callable

from companion.cards import DeckError, Decks
from companion.clock import ClockSettings, ClockSettingsError
from companion.game import JOURNAL_FORMAT, JOURNAL_VERSION, Game, RecordError
from companion.journal import (
    SECRET,
    Journal,
    JournalContents,
    JournalError,
    read_entries,
    reopen,
)
from companion.rules import HouseRules, HouseRulesError

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
                game.apply_record(entry)
            except RecordError as error:
                raise JournalError(f"{file}: entry {entry.get('n')} cannot be replayed "
                                   f"({error}); the file was left as it is") from None
    if game.clock is not None and not game.is_over:
        last_clock = next((e["clock"] for e in reversed(contents.entries)
                           if isinstance(e.get("clock"), dict)), None)
        if last_clock is not None:
            game.clock.restore(last_clock)
    return game


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
