"""The abstract games' journals: which are unfinished, and resuming one in the app.

A games journal is a :class:`companion.journal.Journal` whose header has the format
``raindrop-games-journal`` (written by :class:`companion.games.session.GameSession`).
Until :func:`companion.journal.read_journal` reads that format, its lines are read here
with the journal's own line decoder; a damaged tail is cut back to the last good entry
after the original is copied aside, as the journal's resume does for Raindropchess.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import shutil
from pathlib import Path
from typing import Any

from companion import games, journal
from companion.clock import ClockSettings
from companion.games.session import JOURNAL_GAME_FORMAT, GameSession, ReplayError

LOGGER = logging.getLogger(__name__)

RECENT = 30
"""How many of the newest journals the shelf looks at."""


@dataclasses.dataclass(frozen=True)
class Contents:
    path: Path
    header: dict[str, Any]
    entries: tuple[dict[str, Any], ...]
    good_bytes: int
    problem: str | None


@dataclasses.dataclass(frozen=True)
class Unfinished:
    """An unfinished game on the shelf."""

    game: str
    path: Path
    text: str


def read(path: Path) -> Contents:
    """A games journal's header and good entries; :class:`JournalError` if it is none."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise journal.JournalError(f"cannot read {path}: {error}") from None
    end = data.find(b"\n")
    try:
        header = journal.decode_line(data[:end]) if end >= 0 else {}
    except ValueError as error:
        raise journal.JournalError(f"{path.name}: the header is bad ({error})") from None
    if header.get("format") != JOURNAL_GAME_FORMAT:
        raise journal.JournalError(f"{path.name} is not a games journal")
    entries: list[dict[str, Any]] = []
    position = end + 1
    problem = None
    while position < len(data):
        end = data.find(b"\n", position)
        if end < 0:
            problem = f"the last entry is torn ({len(data) - position} bytes)"
            break
        try:
            record = journal.decode_line(data[position:end])
        except ValueError as error:
            problem = f"entry {len(entries) + 1} is damaged: {error}"
            break
        if record.get("n") != len(entries) + 1:
            problem = f"entry {len(entries) + 1} is out of sequence"
            break
        entries.append(record)
        position = end + 1
    return Contents(path, header, tuple(entries), position, problem)


def session_of(contents: Contents) -> GameSession:
    """The session a games journal records (no file touched); :class:`JournalError`."""
    header = contents.header
    name = contents.path.name
    try:
        rules = games.get(str(header["game"]))
        start = rules.parse(str(header["start"]))
        clock = header.get("clock")
        session = GameSession(rules, start, options=dict(header.get("options") or {}),
                              names=dict(header.get("names") or {}),
                              clock=ClockSettings.from_dict(clock) if clock else None)
    except (KeyError, ValueError, TypeError) as error:
        raise journal.JournalError(f"{name}: the header does not describe a game: "
                                   f"{error}") from None
    with session.replaying():
        for entry in contents.entries:
            try:
                session.apply_record(entry)
            except ReplayError as error:
                raise journal.JournalError(f"{name}: entry {entry.get('n')} cannot be "
                                           f"replayed ({error})") from None
    return session


def unfinished_by_game() -> dict[str, Unfinished]:
    """The newest unfinished game of each game, by game name."""
    found: dict[str, Unfinished] = {}
    for path in reversed(journal.journals()[-RECENT:]):
        try:
            contents = read(path)
            game = str(contents.header.get("game"))
            if game in found:
                continue
            session = session_of(contents)
        except journal.JournalError as error:
            LOGGER.debug("%s", error)
            continue
        if session.is_over:
            continue
        found[game] = Unfinished(game, path, f"{len(session.record)} actions played, "
                                             f"{session.to_move} to move")
    return found


def resume(path: Path) -> tuple[GameSession, journal.Journal, tuple[str, ...]]:
    """Rebuild the game and keep journaling to the same file (a damaged tail cut back
    after the original is copied aside); :class:`JournalError` leaves the file as it is."""
    contents = read(path)
    session = session_of(contents)
    warnings: list[str] = []
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        if contents.problem is not None:
            aside = path.with_name(path.name + ".damaged-1")
            index = 1
            while aside.exists():
                index += 1
                aside = path.with_name(f"{path.name}.damaged-{index}")
            shutil.copy2(path, aside)
            os.ftruncate(fd, contents.good_bytes)
            os.fsync(fd)
            warnings.append(f"{contents.problem}: resumed from entry {len(contents.entries)}; "
                            f"the damaged original was kept as {aside.name}")
    except BaseException:
        os.close(fd)
        raise
    recorder = journal.Journal(path, fd=fd, entries=len(contents.entries))
    session.attach_journal(recorder)
    return session, recorder, tuple(warnings)
