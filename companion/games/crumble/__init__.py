"""Crumble (Adam Sandstedt): split, join and swap squares until a chain touches all four sides.

The rules, rulings and text formats are those of ``docs/games/crumble.md``. Positions are
:class:`CrumblePosition` (exact dyadic geometry, never floats); ``RULES`` is the game.
Besides the shared interface: :meth:`CrumbleRules.agree_draw`, the claim name ``"agreed"``,
:func:`to_official` / :func:`from_official` for the official apps' move notation.
"""

from companion.games.crumble.builder import CrumbleBuilder
from companion.games.crumble.official import from_official, to_official
from companion.games.crumble.position import CrumblePosition
from companion.games.crumble.rules import AGREED, CLAIM_DRAW, RULES, CrumbleRules

__all__ = ["AGREED", "CLAIM_DRAW", "RULES", "CrumbleBuilder", "CrumblePosition",
           "CrumbleRules", "from_official", "to_official"]
