"""The abstract games' journals on the shelf: which games are unfinished, and resuming
one (through :mod:`companion.games.resume`, on the same journal as Raindropchess's).
"""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

from companion.games.resume import is_games_journal, resume_session, session_from_contents
from companion.games.session import GameSession
from companion.journal import Journal, JournalError, journals, read_entries

LOGGER = logging.getLogger(__name__)

RECENT = 30
"""How many of the newest journals the shelf looks at."""


@dataclasses.dataclass(frozen=True)
class Unfinished:
    """An unfinished game on the shelf."""

    game: str
    path: Path
    text: str


def session_at(path: Path) -> GameSession:
    """The session a games journal records (no file touched); :class:`JournalError`."""
    return session_from_contents(read_entries(path))


def unfinished_by_game() -> dict[str, Unfinished]:
    """The newest unfinished game of each game, by game name."""
    found: dict[str, Unfinished] = {}
    for path in reversed(journals()[-RECENT:]):
        try:
            contents = read_entries(path)
            if not is_games_journal(contents.header):
                continue
            game = str(contents.header.get("game"))
            if game in found:
                continue
            session = session_from_contents(contents)
        except JournalError as error:
            LOGGER.debug("%s", error)
            continue
        if session.is_over:
            continue
        found[game] = Unfinished(game, path, f"{len(session.record)} actions played, "
                                             f"{session.to_move} to move")
    return found


def resume(path: Path) -> tuple[GameSession, Journal, tuple[str, ...]]:
    """Rebuild the game and keep journaling to the same file; :class:`JournalError`
    leaves the file as it was."""
    resumed = resume_session(path)
    return resumed.session, resumed.journal, resumed.warnings
