"""The terminal's ``hint``: the engine's best few turns with their chances, in words.

The search runs off the terminal's thread (:mod:`companion.engine.thinker`):
the terminal says it is thinking, shows the playouts now and then, and an
interrupt (Ctrl-C) stops the search at once and shows the best found so far.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from companion.engine.contract import Analysis, Budget, EngineError
from companion.engine.levels import DEFAULT_LEVEL, Level, level
from companion.engine.registry import engine_for
from companion.engine.thinker import think
from companion.engine.words import chance_words

LOGGER = logging.getLogger(__name__)

HINT_TURNS = 3
"""Turns a hint lists unless asked for another number."""

REPORT_EVERY = 0.5
"""Seconds between the terminal's "thinking..." lines."""


def hint_lines(analysis: Analysis, count: int) -> list[str]:
    """The hint as lines: each turn with the mover's chances after it, in words."""
    mover = analysis.mover
    other = analysis.notes.get("opponent", "the opponent")
    lines = [f"Best turns for {mover} (level {analysis.level}, {analysis.playouts} playouts):"]
    for number, candidate in enumerate(analysis.candidates[:count], start=1):
        words = chance_words(candidate.value, mover, other, proof=candidate.proof)
        lines.append(f"  {number}. {candidate.turn}: {words}")
    return lines


def show_hint(position: str, say: Callable[[str], None], *, count: int = HINT_TURNS,
              chosen_level: Level | None = None, budget: Budget | None = None,
              seed: int = 0) -> Analysis | None:
    """Think about ``position`` and say the best ``count`` turns; ``None`` if no engine can."""
    chosen_level = chosen_level or level(DEFAULT_LEVEL)
    try:
        engine = engine_for(position)
    except EngineError as error:
        say(f"No hint: {error}")
        return None
    thinking = think(engine, position, level=chosen_level,
                     budget=budget or Budget.for_level(chosen_level), seed=seed)
    say("Thinking... (Ctrl-C stops and shows the best so far)")
    try:
        while not thinking.wait(REPORT_EVERY):
            progress = thinking.progress
            if progress is not None:
                say(f"  ... {progress.playouts} playouts")
    except KeyboardInterrupt:
        thinking.stop()
    try:
        analysis = thinking.result(timeout=10)
    except (EngineError, ValueError) as error:
        say(f"No hint: {error}")
        return None
    for line in hint_lines(analysis, count):
        say(line)
    return analysis
