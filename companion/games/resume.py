"""Resuming an abstract game from its journal, and starting a journaled session.

The journal (checksummed lines, fsync, torn tails cut, damaged entries never
thrown away) is :mod:`companion.journal`, the same as Raindropchess's;
this module only knows how a :class:`~companion.games.session.GameSession`
is written to it and rebuilt from it.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import time
from collections.abc import Callable, Mapping
from typing import Any

from companion.clock import ClockSettings, ClockSettingsError
from companion.games import OptionError, PositionError, UnknownGameError, get
from companion.games.base import IllegalTurn, Position
from companion.games.session import (
    JOURNAL_GAME_FORMAT,
    JOURNAL_GAME_VERSION,
    GameSession,
    SessionError,
)
from companion.journal import Journal, JournalContents, JournalError, ReplayError, reopen

LOGGER = logging.getLogger(__name__)


def is_games_journal(header: Mapping[str, Any]) -> bool:
    """Whether a journal's header is one of the abstract games' (not Raindropchess's)."""
    return header.get("format") == JOURNAL_GAME_FORMAT


def new_session(game: str, options: Mapping[str, str], *,
                clock: ClockSettings | None = None,
                names: Mapping[str, str] | None = None,
                directory: str | os.PathLike[str] | None = None,
                now: Callable[[], float] = time.monotonic) -> tuple[GameSession, Journal]:
    """A new session of ``game`` recording to a new journal in the games directory.

    :class:`~companion.games.UnknownGameError`, :class:`~companion.games.OptionError`
    for a bad game or option (no file is made then); :class:`JournalError` if the
    journal cannot be made.
    """
    rules = get(game)
    start: Position = rules.start(**options)
    values = rules.check_options(options)
    journal = Journal.create(directory)
    try:
        session = GameSession(rules, start, options=values, names=names, clock=clock, now=now,
                              journal=journal)
    except BaseException:
        journal.close()
        raise
    return session, journal


def session_from_contents(contents: JournalContents, *,
                          now: Callable[[], float] = time.monotonic) -> GameSession:
    """Rebuild the session a games journal records (no file is touched)."""
    header, file = contents.header, contents.path
    if not is_games_journal(header):
        raise JournalError(f"{file} is not a journal of the abstract games (format "
                           f"{header.get('format')!r})")
    if header.get("version") != JOURNAL_GAME_VERSION:
        raise JournalError(f"{file} is a games journal of version {header.get('version')!r}; "
                           f"this companion reads version {JOURNAL_GAME_VERSION} only. The "
                           f"file was left as it is.")
    try:
        rules = get(str(header["game"]))
        start: Position = rules.parse(str(header["start"]))
        options = {str(k): str(v) for k, v in dict(header.get("options") or {}).items()}
        names = {str(k): str(v) for k, v in dict(header.get("names") or {}).items()}
        clock_data = header.get("clock")
        clock = ClockSettings.from_dict(clock_data) if clock_data else None
    except (KeyError, TypeError, ValueError, UnknownGameError, PositionError, OptionError,
            ClockSettingsError) as error:
        raise JournalError(f"{file}: the header does not describe a game: {error}") from None
    session = GameSession(rules, start, options=options, names=names, clock=clock, now=now)
    with session.replaying():
        for entry in contents.entries:
            try:
                apply_entry(session, entry)
            except ReplayError as error:
                raise JournalError(f"{file}: entry {entry.get('n')} cannot be replayed "
                                   f"({error}); the file was left as it is") from None
    return session


def apply_entry(session: GameSession, entry: Mapping[str, Any]) -> None:
    """Apply one journal entry to ``session`` (inside :meth:`GameSession.replaying`);
    :class:`ReplayError` if it does not fit."""
    action = entry.get("do")
    try:
        if action == "turn":
            session.play(str(entry["turn"]))
        elif action == "claim":
            session.claim(str(entry["claim"]))
        elif action == "undo":
            session.undo()
        elif action == "redo":
            session.redo()
        elif action == "offer":
            session.offer_draw(str(entry["player"]))
        elif action == "accept":
            session.accept_draw(str(entry["player"]))
        elif action == "decline":
            session.decline_draw(str(entry["player"]))
        elif action == "resign":
            session.resign(str(entry["player"]))
        elif action == "flag":
            session.flag(str(entry["player"]))
        elif action == "pause":
            session.pause()
        elif action == "continue":
            session.resume_clock()
        else:
            raise ReplayError(f"unknown action {action!r}")
    except (IllegalTurn, SessionError, KeyError, TypeError) as error:
        raise ReplayError(f"{action!r}: {error}") from None
    clock = entry.get("clock")
    if session.clock is not None and isinstance(clock, dict) and not session.is_over:
        session.clock.restore(clock, running=True)


@dataclasses.dataclass(frozen=True)
class ResumedSession:
    """A session rebuilt from its journal, recording on to the same file."""

    session: GameSession
    journal: Journal
    warnings: tuple[str, ...]


def resume_session(path: str | os.PathLike[str], *,
                   now: Callable[[], float] = time.monotonic) -> ResumedSession:
    """Rebuild a session from its journal and keep recording to it (a torn tail is
    cut with a warning; anything else wrong raises :class:`JournalError` and leaves
    the file as it was)."""

    def rebuild(contents: JournalContents) -> GameSession:
        return session_from_contents(contents, now=now)

    session, journal, warnings = reopen(path, rebuild)
    session.attach_journal(journal)
    return ResumedSession(session, journal, warnings)
