"""The Raindropchess rules engine: a python-chess board for the variant.

Importing this package registers :class:`RaindropBoard` in
``chess.variant.VARIANTS``, so ``chess.pgn`` reads and writes games with
``[Variant "Raindropchess"]``.
"""

from companion.rules.board import (
    Action,
    ActionKind,
    FlipOutcome,
    FlipResult,
    RaindropBoard,
)
from companion.rules.errors import (
    IllegalActionError,
    IllegalFlipError,
    IllegalRemovalError,
    RfenError,
)
from companion.rules.house import EXPLANATIONS, HouseRules, HouseRulesError
from companion.rules.letters import card_letter, card_name, parse_card_letter
from companion.rules.outcome import Outcome, Termination
from companion.rules.rfen import STARTING_RFEN
from companion.rules.verdict import Condition, MateVerdict, RescueCard, mate_verdict

__all__ = [
    "EXPLANATIONS",
    "STARTING_RFEN",
    "Action",
    "ActionKind",
    "Condition",
    "FlipOutcome",
    "FlipResult",
    "HouseRules",
    "HouseRulesError",
    "IllegalActionError",
    "IllegalFlipError",
    "IllegalRemovalError",
    "MateVerdict",
    "Outcome",
    "RaindropBoard",
    "RescueCard",
    "RfenError",
    "Termination",
    "card_letter",
    "card_name",
    "mate_verdict",
    "parse_card_letter",
]
