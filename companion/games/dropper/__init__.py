"""Dropper: drop on an enemy stone, push it aside, place a lone stone.

``RULES`` is the game for the registry (``companion.games.get("dropper")``).
Modules: ``grid`` (point names, neighbours, bit masks), ``position`` (the
position and its text), ``engine`` (turn generation), ``turns`` (reading and
checking a typed turn), ``builder`` (a turn step by step), ``rules`` (the
interface).
"""

from __future__ import annotations

from companion.games.dropper.builder import DropperBuilder
from companion.games.dropper.position import DropperPosition, parse_position
from companion.games.dropper.rules import RULES, DropperRules

__all__ = ["RULES", "DropperBuilder", "DropperPosition", "DropperRules", "parse_position"]
