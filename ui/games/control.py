"""Starting, resuming and showing abstract games in the app (the screens call these).

The screens themselves are made when first shown (``ui.app.SCREENS``), so the app starts
as fast as before the games came.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion import games
from companion.clock import ClockSettings
from companion.games import OptionError
from companion.games.resume import new_session
from companion.games.session import GameSession
from companion.journal import Journal, JournalError

LOGGER = logging.getLogger(__name__)

CLOCKS = ("none", "5+0", "10+5", "30+0")
"""The new-game screen's clock choices: none, or minutes each + seconds added a turn."""


def clock_settings(choice: str) -> ClockSettings | None:
    """A clock choice (``"none"``, ``"10+5"``) as the session's settings."""
    return None if choice in ("", "none") else ClockSettings.parse(choice)


def start_game(app: Any, name: str, options: Mapping[str, str], *,
               clock: ClockSettings | None = None, board: str = "on-screen",
               table: Mapping[str, Any] | None = None) -> Any:
    """A new journaled game of ``name`` on the play screen, with ``clock`` if given;
    :class:`OptionError` for a bad option (nothing is started then). ``board``:
    ``camera`` or ``camera-cells`` has the camera follow the physical board
    (:mod:`ui.games.sensing`). ``table``: who plays each side and the hint limit
    (:meth:`companion.table.seats.TableSettings.to_dict`), kept in the journal.
    Returns the PlayModel."""
    journal: Journal | None
    try:
        session, journal = new_session(name, options, clock=clock, table=table)
    except (OSError, JournalError) as error:
        LOGGER.warning("no journal for the new game: %s", error)
        app.message = f"The game is not being saved: {error}"
        rules = games.get(name)
        session = GameSession(rules, rules.start(**options),
                              options=rules.check_options(options), clock=clock, table=table)
        journal = None
    model = show_session(app, session, journal)
    if board != "on-screen":
        from ui.games.sensing import follow_camera

        follow_camera(app, model, board)
    return model


def show_session(app: Any, session: GameSession, journal: Journal | None) -> Any:
    from ui.games.model import PlayModel

    screen = app.screen("games_play")
    old = screen.model
    if old is not None and getattr(old, "journal", None) is not None:
        old.journal.close()
    if old is not None and getattr(old, "sensing", None) is not None:
        old.sensing.stop()
    if old is not None and getattr(old, "companion", None) is not None:
        old.companion.close()
    sounds = getattr(app, "sounds", None)  # the table's sounds, silent when muted
    model = PlayModel(session, journal=journal,
                      sound=sounds.play if sounds is not None else None)
    settings = getattr(app, "settings", None)
    screen.face_to_face = bool(getattr(settings, "face_to_face", True))  # or side by side
    if session.table and hasattr(app, "companion_link"):
        from companion.table.games_table import GamesTable

        try:
            model.attach_companion(app.companion_link(GamesTable(session)))
        except ValueError as error:  # seats the journal got wrong: two persons then
            LOGGER.warning("no companion: %s", error)
            app.message = f"Playing without the companion: {error}"
    screen.model = model
    app.show("games_play")
    return model


def resume_game(app: Any, name: str) -> Any:
    """Resume the latest unfinished game of ``name``; the PlayModel, or None (the shelf
    says why)."""
    from ui.games import saved

    info = saved.unfinished_by_game().get(name)
    if info is None:
        app.message = f"No unfinished game of {name} to resume"
        return None
    return resume_path(app, info.path)


def _let_go_of(app: Any, path: Path) -> None:
    """Close the journal at ``path`` if the play screen's game records to it (resuming
    the game that is running): a journal is open in one session at a time."""
    if not app.root.has_screen("games_play"):
        return
    model = app.screen("games_play").model
    journal = getattr(model, "journal", None)
    if journal is not None and Path(journal.path).resolve() == Path(path).resolve():
        journal.close()


def resume_path(app: Any, path: Path) -> Any:
    """Resume the games journal at ``path`` on the play screen; the PlayModel, or None
    (``app.message`` says why)."""
    from ui.games import saved

    _let_go_of(app, path)
    try:
        session, journal, warnings = saved.resume(path)
    except (JournalError, OptionError, ValueError) as error:
        app.message = f"Cannot resume: {error}"
        return None
    model = show_session(app, session, journal)
    if warnings:
        model.alert = " ".join(warnings)
        model.alert_level = "warn"
        model._changed()
    return model
