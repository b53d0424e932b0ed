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

from companion.clock import ClockSettings
from companion.games import get
from companion.games.base import Position
from companion.games.session import (
    JOURNAL_GAME_FORMAT,
    JOURNAL_GAME_VERSION,
    GameSession,
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
                now: Callable[[], float] = time.monotonic,
                table: Mapping[str, Any] | None = None) -> tuple[GameSession, Journal]:
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
                              journal=journal, table=table)
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
        options = {str(k): str(v) for k, v in _mapping(header.get("options")).items()}
        names = {str(k): str(v) for k, v in _mapping(header.get("names")).items()}
        clock_data = header.get("clock")
        clock = ClockSettings.from_dict(clock_data) if clock_data else None
        table = header.get("table")
        if table is not None and not isinstance(table, dict):
            raise TypeError(f"the table settings are not a mapping: {str(table)[:60]}")
        session = GameSession(rules, start, options=options, names=names, clock=clock,
                              now=now, table=table)
    except (KeyError, TypeError, ValueError) as error:  # UnknownGameError, PositionError,
        # OptionError, ClockSettingsError, SessionError are ValueErrors
        raise JournalError(f"{file}: the header does not describe a game: "
                           f"{str(error)[:300]}") from None
    with session.replaying():
        for entry in contents.entries:
            try:
                apply_entry(session, entry)
            except ReplayError as error:
                raise JournalError(f"{file}: entry {entry.get('n')} cannot be replayed "
                                   f"({str(error)[:300]}); the file was left as it is"
                                   ) from None
    return session


def _mapping(value: Any) -> Mapping[str, Any]:
    """A header's table (options, names): a JSON object or nothing."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise TypeError(f"expected a table of names and values, not {value!r:.40}")
    return value


def apply_entry(session: GameSession, entry: Mapping[str, Any]) -> None:
    """Apply one journal entry to ``session`` (inside :meth:`GameSession.replaying`);
    :class:`ReplayError` if it does not fit, whatever a hand-edited entry holds."""
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
        elif action == "hint":
            session.note_hint(str(entry["player"]))
        elif action == "pause":
            session.pause()
        elif action == "continue":
            session.resume_clock()
        else:
            raise ReplayError(f"unknown action {str(action)[:40]!r}")
        clock = entry.get("clock")
        if session.clock is not None and isinstance(clock, dict) and not session.is_over:
            session.clock.restore(clock, running=True)
    except (KeyError, TypeError, ValueError) as error:  # IllegalTurn, SessionError,
        # ClockSettingsError, and what a hand-edited entry's wrong types or sizes raise
        raise ReplayError(f"{str(action)[:40]!r}: {str(error)[:300]}") from None


@dataclasses.dataclass(frozen=True)
class ResumedSession:
    """A session rebuilt from its journal, recording on to the same file."""

    session: GameSession
    journal: Journal
    warnings: tuple[str, ...]


def resume_session(path: str | os.PathLike[str], *,
                   now: Callable[[], float] = time.monotonic,
                   cut: bool = False) -> ResumedSession:
    """Rebuild a session from its journal and keep recording to it (a torn last entry
    is cut with a warning, other damage only with ``cut``; anything else wrong raises
    :class:`JournalError` and leaves the file as it was)."""

    def rebuild(contents: JournalContents) -> GameSession:
        return session_from_contents(contents, now=now)

    session, journal, warnings = reopen(path, rebuild, cut=cut)
    session.attach_journal(journal)
    return ResumedSession(session, journal, warnings)
