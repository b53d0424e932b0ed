"""Rumbo: a territory game for Vertical and Horizontal (rules: ``docs/games/rumbo.md``).

``RULES`` is the game behind the games interface. Beyond it, for the session
and the app: :func:`komi_advice` / :func:`parity_advice` (the komi's parity
advice), ``RULES.effects(pos, turn)`` (which holes a placement filled and which
groups it claimed, for animation), ``RULES.seating(turn)`` (who plays which
side after the chooser's ``side=v|h``). During the setup ``to_move`` names the
role: ``"proposer"`` (phase k) then ``"chooser"`` (phase s).
"""

from __future__ import annotations

from companion.games.rumbo.advice import diagram, komi_advice, komi_range, parity_advice
from companion.games.rumbo.builder import RumboBuilder
from companion.games.rumbo.position import CHOOSER, PROPOSER, RumboPosition, parse
from companion.games.rumbo.rules import RULES, RumboRules
from companion.games.rumbo.turns import Effects, GroupDeath

__all__ = [
    "CHOOSER", "PROPOSER", "RULES", "Effects", "GroupDeath", "RumboBuilder", "RumboPosition",
    "RumboRules", "diagram", "komi_advice", "komi_range", "parity_advice", "parse",
]
