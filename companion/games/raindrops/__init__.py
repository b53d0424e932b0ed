"""Raindrops, the connection game of Luis Bolaños Mures (2011).

The standard layout of a game folder (``docs/dev/README.md``): ``position`` (the
position and its text), ``turns`` (turn text, one step at a time with reasons),
``engine`` (every chain of placements, the direct search for a target), ``builder``
(the step-wise builder), ``rules`` (the :class:`~companion.games.base.GameRules`);
and ``geometry`` (bit-board tables), ``units`` (units, engagement, singleton slides).
"""

from __future__ import annotations

from companion.games.raindrops.builder import RaindropsBuilder
from companion.games.raindrops.position import RaindropsPosition
from companion.games.raindrops.rules import RULES, RaindropsRules

__all__ = ["RULES", "RaindropsBuilder", "RaindropsPosition", "RaindropsRules"]
