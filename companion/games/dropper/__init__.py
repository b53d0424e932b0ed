"""Dropper: drop on an enemy stone, push it aside, place a lone stone.

``RULES`` is the game for the registry (``companion.games.get("dropper")``).
The standard layout of a game folder (``docs/dev/README.md``): ``position`` (the
position and its text), ``turns`` (reading and checking a typed turn), ``engine``
(turn generation), ``builder`` (a turn step by step), ``rules`` (the interface);
and ``geometry`` (point names, neighbours, bit masks).
"""

from __future__ import annotations

from companion.games.dropper.builder import DropperBuilder
from companion.games.dropper.position import DropperPosition, parse_position
from companion.games.dropper.rules import RULES, DropperRules

__all__ = ["RULES", "DropperBuilder", "DropperPosition", "DropperRules", "parse_position"]
