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
from companion.rules import ActionKind, HouseRules, IllegalActionError

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
    except (KeyError, TypeError, AttributeError, ValueError) as error:  # HouseRulesError,
        # DeckError, ClockSettingsError are ValueErrors
        raise JournalError(f"{file}: the header does not describe a game: "
                           f"{str(error)[:300]}") from None
    seed = secret.get("seed")
    table = header.get("table")
    game = Game(rules, seed=seed if isinstance(seed, int) else None, clock=clock, now=now,
                decks=decks, table=table if isinstance(table, dict) else None)
    with game.replaying():
        for entry in contents.entries:
            try:
                apply_entry(game, entry)
            except ReplayError as error:
                raise JournalError(f"{file}: entry {entry.get('n')} cannot be replayed "
                                   f"({str(error)[:300]}); the file was left as it is"
                                   ) from None
    if game.clock is not None and not game.is_over:
        last_clock = next((e["clock"] for e in reversed(contents.entries)
                           if isinstance(e.get("clock"), dict)), None)
        if last_clock is not None:
            try:
                game.clock.restore(last_clock)
            except ClockSettingsError as error:
                raise JournalError(f"{file}: {error}; the file was left as it is") from None
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
        elif kind == "hint":
            game.note_hint(_color(entry.get("color")))
        elif kind == "pause":
            game.pause()
        elif kind == "resume":
            game.resume()
        else:
            raise ReplayError(f"unknown action {kind!r}")
        clock_state = entry.get("clock")
        if game.clock is not None and isinstance(clock_state, dict):
            game.clock.restore(clock_state, running=not game.is_over)
    except (IllegalActionError, DeckError, ValueError, KeyError, TypeError,
            AttributeError) as error:  # and what a hand-edited entry's wrong types raise
        if isinstance(error, ReplayError):
            raise
        raise ReplayError(f"cannot apply {str(entry)[:200]}: {str(error)[:300]}") from None


@dataclasses.dataclass(frozen=True)
class Resumed:
    """A game rebuilt from its journal, recording on to the same file."""

    game: Game
    journal: Journal
    warnings: tuple[str, ...]


def resume(path: str | os.PathLike[str], *, now: Callable[[], float] = time.monotonic,
           cut: bool = False) -> Resumed:
    """Rebuild a game from its journal and keep recording to it (see
    :func:`companion.journal.reopen`: a torn last entry is cut with a warning, other
    damage only with ``cut``; anything else wrong raises :class:`JournalError` and
    leaves the file as it was)."""

    def rebuild(contents: JournalContents) -> Game:
        return game_from_contents(_checked(contents), now=now)

    game, journal, warnings = reopen(path, rebuild, cut=cut)
    game.attach_journal(journal)
    game.entries = journal.entries
    return Resumed(game, journal, warnings)


def new_game(rules: HouseRules | None = None, *, seed: int | None = None,
             clock: ClockSettings | None = None,
             directory: str | os.PathLike[str] | None = None,
             now: Callable[[], float] = time.monotonic,
             table: dict[str, Any] | None = None) -> tuple[Game, Journal]:
    """A new game recording to a new journal in the games directory (``table``: who sits
    where, :meth:`companion.table.seats.TableSettings.to_dict`)."""
    journal = Journal.create(directory)
    game = Game(rules, seed=seed, clock=clock, journal=journal, now=now, table=table)
    return game, journal
