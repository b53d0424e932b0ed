"""Finding, describing and resuming the journalled game (through companion.journal)."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import chess

from companion import journal
from companion.game import Game

LOGGER = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class ResumeInfo:
    """What the home screen says about the latest journal."""

    can_resume: bool
    text: str
    path: Path | None = None
    game: str = "raindropchess"
    """Which game the journal holds (an abstract game's name, resumed by ui.games)."""


def describe(directory: Path | None = None) -> ResumeInfo:
    """The latest journal: resumable (a game still running), finished, or unreadable."""
    try:
        path = journal.latest_journal(directory)
    except journal.JournalError:
        return ResumeInfo(False, "no saved game")
    from ui.games.saved import describe_games_journal

    other = describe_games_journal(path)
    if other is not None:
        return other
    try:
        contents = journal.read_journal(path)
        game = journal.game_from_contents(contents)
    except ValueError as error:
        LOGGER.warning("cannot describe %s: %s", path, error)
        return ResumeInfo(False, f"the last game cannot be read: {error}", path)
    if game.is_over:
        outcome = game.outcome
        return ResumeInfo(False, f"the last game is over ({outcome.result() if outcome else ''})",
                          path)
    side = "White" if game.turn == chess.WHITE else "Black"
    actions = len(game.san_history())
    return ResumeInfo(True, f"{actions} actions played, {side} to play", path)


def new_journal(directory: Path | None = None) -> journal.Journal:
    """A fresh journal for a new game."""
    return journal.Journal.create(directory)


def resume_latest(directory: Path | None = None) -> tuple[Game, tuple[str, ...]]:
    """The latest journalled game, recording on; raises JournalError (a ValueError)."""
    path = journal.latest_journal(directory)
    resumed = journal.resume(path)
    return resumed.game, resumed.warnings
