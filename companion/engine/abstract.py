"""The engine of the four abstract games: the generic tree search with each game's bot.

``make_engine(game, options)`` is what :mod:`companion.engine.registry` calls for
Dropper, Rumbo, Raindrops and Crumble. The engine parses the position text,
asks the game's bot (``companion.games.<game>.bot.BOT``) for a search setup or
a decision outside turns, runs :mod:`companion.engine.mcts` within the budget,
and answers an :class:`~companion.engine.contract.Analysis` whose candidates
are the best root turns with the mover's expected score after each.

Levels: the budget comes from the level's time cap (or the caller's seconds or
playouts); a weak level also thinks shallower and picks among its best turns
by a softmax over their values (see :mod:`companion.engine.bots`).
"""

from __future__ import annotations

import importlib
import logging
import random
import threading
import time
from collections.abc import Mapping
from typing import Any

from companion import games
from companion.engine.bots import GameBot, Setup, style_of
from companion.engine.contract import (
    Analysis,
    Budget,
    Candidate,
    EngineError,
    Progress,
    ProgressCallback,
    Proof,
    draw_is_welcome,
)
from companion.engine.levels import Level
from companion.engine.mcts import LOSS, WIN, Line, Search, choose
from companion.games.base import GameRules, PositionError

LOGGER = logging.getLogger(__name__)

HINTS = 5
"""Candidates kept in an analysis (the hint list)."""


def make_engine(game: str, options: Mapping[str, str]) -> AbstractEngine:
    """The engine for one of the abstract games; they take no house rules."""
    if options:
        raise EngineError(f"{game} takes no engine options (its options are in the position)")
    try:
        return AbstractEngine(game)
    except games.UnknownGameError:
        raise EngineError(f"no engine plays {game!r}") from None


def bot_for(game: str) -> GameBot:
    """The game's bot (``companion.games.<game>.bot.BOT``); :class:`EngineError` if none."""
    try:
        module = importlib.import_module(f"companion.games.{game}.bot")
    except ModuleNotFoundError:
        raise EngineError(f"no engine plays {game!r}") from None
    bot: GameBot = module.BOT
    return bot


def proof_of(value: float | None) -> Proof | None:
    if value is None:
        return None
    if value == WIN:
        return Proof.WIN
    if value == LOSS:
        return Proof.LOSS
    return Proof.DRAW


class AbstractEngine:
    """An opponent for one abstract game (the :class:`~companion.engine.contract.Engine`
    protocol)."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.rules: GameRules[Any] = games.get(game)
        self.bot = bot_for(self.rules.name)

    def _position(self, position: str) -> Any:
        head = position.strip().split(maxsplit=1)
        if not head or head[0].lower() != self.rules.name:
            raise EngineError(f"not a {self.rules.title} position: {position.strip()[:40]!r}")
        try:
            pos = self.rules.parse(position)
        except PositionError as error:
            raise EngineError(str(error)) from None
        outcome = self.rules.outcome(pos)
        if outcome is not None:
            raise EngineError(f"the game is over ({outcome.result}): {outcome.reason}")
        return pos

    def analyse(self, position: str, *, level: Level, budget: Budget, seed: int = 0,
                stop: threading.Event | None = None,
                progress: ProgressCallback | None = None) -> Analysis:
        started = time.monotonic()
        pos = self._position(position)
        decided = self.bot.decide(pos, level=level, budget=budget, seed=seed, stop=stop,
                                  progress=progress)
        if decided is not None:
            return decided
        setup = self.bot.setup(pos, style_of(level))
        return run_search(setup, pos.text(), level=level, budget=budget, seed=seed, stop=stop,
                          progress=progress, started=started)

    def accepts_draw(self, position: str, *, level: Level, seed: int = 0) -> bool:
        pos = self._position(position)
        return self.bot.accepts_draw(pos, level=level, seed=seed)

    def offers_draw(self, position: str, *, level: Level, seed: int = 0) -> bool:
        """Whether the side to move offers a draw before its turn (its own judgement)."""
        pos = self._position(position)
        offers = getattr(self.bot, "offers_draw", None)
        return bool(offers(pos, level=level, seed=seed)) if offers is not None else False

    def claim(self, position: str, *, level: Level, seed: int = 0) -> str | None:
        """The claim the side to move makes now (a claim its rules offer), or ``None``."""
        pos = self._position(position)
        if not self.rules.claims(pos):
            return None
        chooses = getattr(self.bot, "claim", None)
        return chooses(pos, level=level, seed=seed) if chooses is not None else None


def search_seconds(budget: Budget, started: float) -> float | None:
    """The time the search itself may take: the budget's, less what reading the position
    took and a reserve for writing the answer (15% of the budget, at most 0.3 s), so the
    whole turn keeps within the time asked for."""
    if budget.seconds is None:
        return None
    reserve = min(0.15 * budget.seconds, 0.3)
    return max(0.001, budget.seconds - reserve - (time.monotonic() - started))


def run_search(setup: Setup, text: str, *, level: Level, budget: Budget, seed: int,
               stop: threading.Event | None, progress: ProgressCallback | None,
               hints: int = HINTS, started: float | None = None) -> Analysis:
    """Search a setup within the budget and write the analysis."""
    start = time.monotonic() if started is None else started
    style = style_of(level)
    settings = setup.settings
    if style.max_depth and (not settings.max_depth or settings.max_depth > style.max_depth):
        from dataclasses import replace
        settings = replace(settings, max_depth=style.max_depth)
    search = Search(setup.domain, setup.evaluator, settings, seed=seed)

    def candidate(line: Line[Any]) -> Candidate:
        return Candidate(
            turn=setup.turn_text(setup.state, line.action),
            value=line.value,
            visits=line.visits,
            after=setup.position_text(line.state),
            line=_continuation(setup, line),
            proof=proof_of(line.proof))

    def report(done: int, seconds: float, best: Line[Any] | None) -> None:
        if progress is not None:
            progress(Progress(done, seconds, None if best is None else candidate(best)))

    outcome = search.run(setup.state, playouts=budget.playouts,
                         seconds=search_seconds(budget, start),
                         stop=stop, progress=report if progress is not None else None)
    lines = outcome.lines
    picked = choose(lines, style.temperature, random.Random(seed ^ 0x5EED))
    candidates = tuple(candidate(line) for line in lines[:hints])
    chosen = next((c for c, line in zip(candidates, lines, strict=False) if line is picked),
                  None) or candidate(picked)
    notes = {"opponent": setup.opponent, **setup.notes}
    return Analysis(position=text, mover=setup.mover, chosen=chosen, candidates=candidates,
                    playouts=outcome.playouts, seconds=time.monotonic() - start,
                    level=level.number, stopped=outcome.stopped, notes=notes)


def _continuation(setup: Setup, line: Line[Any]) -> tuple[str, ...]:
    """The expected line after the turn, as turn texts."""
    out: list[str] = []
    state = line.state
    try:
        for action in line.continuation[:8]:
            out.append(setup.turn_text(state, action))
            state = setup.domain.play(state, action)
    except (ValueError, KeyError, IndexError):  # a text the game cannot write: stop there
        LOGGER.debug("continuation cut short", exc_info=True)
    return tuple(out)


def welcome_draw(value: float) -> bool:
    """A draw offer is taken when the side's expected score is clearly below a half."""
    return draw_is_welcome(value)
