"""The latest journal described for the home screen (of any game), and finding and
resuming journalled Raindropchess games (through :mod:`companion.resume`)."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import chess

from companion.game import Game
from companion.games.resume import is_games_journal, session_from_contents
from companion.journal import Journal, JournalError, journals, latest_journal, read_entries
from companion.resume import game_from_contents, read_journal, resume

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
        path = latest_journal(directory)
    except JournalError:
        return ResumeInfo(False, "no saved game")
    other = describe_games_journal(path)
    if other is not None:
        return other
    try:
        contents = read_journal(path)
        game = game_from_contents(contents)
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


def describe_games_journal(path: Path) -> ResumeInfo | None:
    """What the home screen says of ``path`` when it holds an abstract game; ``None``
    for any other journal."""
    try:
        contents = read_entries(path)
    except JournalError:
        return None
    if not is_games_journal(contents.header):
        return None
    game = str(contents.header.get("game"))
    try:
        session = session_from_contents(contents)
    except JournalError as error:
        return ResumeInfo(False, f"the last game cannot be read: {error}", path, game)
    title = session.rules.title
    result = session.result
    if result is not None:
        return ResumeInfo(False, f"the last game of {title} is over ({result.text})", path, game)
    return ResumeInfo(True, f"{title}: {len(session.record)} actions played, "
                            f"{session.to_move} to move", path, game)


@dataclasses.dataclass(frozen=True)
class SavedGame:
    """One journalled game, for the saved-games list."""

    path: Path
    when: str            # "2026-11-23 11:52" (the journal's creation)
    text: str            # "12 actions played, Black to play" / "1-0, White wins by checkmate"
    running: bool        # can be resumed
    readable: bool


def saved_games(directory: Path | None = None, *, limit: int = 30) -> list[SavedGame]:
    """The newest ``limit`` journals, newest first, each described (unreadable ones say
    why; nothing is changed)."""
    found = list(reversed(journals(directory)))[:limit]
    games = []
    for path in found:
        try:
            contents = read_journal(path)
            game = game_from_contents(contents)
        except ValueError as error:
            games.append(SavedGame(path, "", f"cannot be read: {error}", False, False))
            continue
        when = str(contents.header.get("created", ""))[:16].replace("T", " ")
        outcome = game.outcome
        if outcome is not None:
            text = f"{outcome.result()}, {outcome.describe()}"
        else:
            side = "White" if game.turn == chess.WHITE else "Black"
            text = f"{len(game.san_history())} actions played, {side} to play"
        games.append(SavedGame(path, when, text, outcome is None, True))
    return games


def resume_path(path: Path) -> tuple[Game, tuple[str, ...]]:
    """Resume one journalled game, recording on; raises JournalError (a ValueError)."""
    resumed = resume(path)
    return resumed.game, resumed.warnings


def load_for_review(path: Path) -> Game:
    """A journalled game to look at (its journal is not written to)."""
    return game_from_contents(read_journal(path))


def new_journal(directory: Path | None = None) -> Journal:
    """A fresh journal for a new game."""
    return Journal.create(directory)


def resume_latest(directory: Path | None = None) -> tuple[Game, tuple[str, ...]]:
    """The latest journalled game, recording on; raises JournalError (a ValueError)."""
    path = latest_journal(directory)
    resumed = resume(path)
    return resumed.game, resumed.warnings
