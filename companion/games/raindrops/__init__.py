"""Raindrops, the connection game of Luis Bolaños Mures (2011).

Modules: ``geometry`` (bit-board tables), ``position`` (position text),
``units`` (units, engagement, singleton slides), ``search`` (every chain of
placements, the direct search for a target),
``turn`` (turn text, one step at a time with reasons), ``builder`` (the
step-wise builder), ``rules`` (the :class:`~companion.games.base.GameRules`).
"""

from __future__ import annotations

from companion.games.raindrops.builder import RaindropsBuilder
from companion.games.raindrops.position import RaindropsPosition
from companion.games.raindrops.rules import RULES, RaindropsRules

__all__ = ["RULES", "RaindropsBuilder", "RaindropsPosition", "RaindropsRules"]
