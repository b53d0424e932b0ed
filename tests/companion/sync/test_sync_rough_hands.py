"""The rough-hands suite (issue 15): random legal games played by hands rougher
than real ones (see rough_hands.HandModel and docs/sync.md), on an occupancy-only
board and with colour sensing. No action nobody made may be left in the game, no
exception, no board left stuck; transient wrong commits (corrected by the same
player), questions and missed actions are counted and printed.

CI plays 400 physical actions; ``RAINDROP_FULL=1`` plays 10,000.
"""

from __future__ import annotations

import os

import pytest
from rough_hands import Tally, run_rough

FULL = os.environ.get("RAINDROP_FULL") == "1"
TOTAL = 10_000 if FULL else 400


@pytest.mark.slow
def test_rough_hands_leave_no_wrong_action_in_the_game() -> None:
    occupancy, colour = run_rough(TOTAL)
    both = Tally()
    both.add(occupancy)
    both.add(colour)
    for name, tally in (("occupancy", occupancy), ("colour", colour), ("all", both)):
        print(tally.line(name))
    print(f"kinds: {dict(both.kinds)}")
    assert both.failures == []
    assert both.wrong == 0 and both.stuck == 0 and both.exceptions == 0
    assert both.actions >= TOTAL
    assert both.committed + both.asked + both.missed + both.illegal == both.actions
    # The roughness really happened: every kind of physical action was done,
    # wrong commits were put right, takebacks and questions were answered.
    assert {"action", "takeback", "relocate", "illegal"} <= set(both.kinds)
    assert both.transient > 0 and both.asked > 0 and both.illegal > 0
