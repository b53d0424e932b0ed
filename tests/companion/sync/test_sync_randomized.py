"""The randomized suite: random legal games played by simulated hands with
realistic noise (switch bounce, hovering, slides resting on the way, both capture
orders, too-fast captures, touched pieces, fast replies, hand occlusion of the
camera), on an
occupancy-only board and with colour sensing. Not one wrong action may be
committed; every action is committed, asked (with the right choice offered) or
flagged until the players put it right.

CI runs 1,000 sequences; ``RAINDROP_FULL=1`` runs 10,000.
"""

from __future__ import annotations

import os

import pytest
from sync_random import Tally, run_suite

FULL = os.environ.get("RAINDROP_FULL") == "1"
TOTAL = 10_000 if FULL else 1_000


@pytest.mark.slow
def test_random_games_commit_no_wrong_action() -> None:
    occupancy, colour = run_suite(TOTAL)
    both = Tally()
    both.add(occupancy)
    both.add(colour)
    for name, tally in (("occupancy", occupancy), ("colour", colour), ("all", both)):
        print(f"{name}: {tally.sequences} sequences, {tally.committed} committed "
              f"({tally.corrected} after a correction, {tally.fast_replies} with a fast reply), "
              f"{tally.asked} asked, {tally.flagged} flagged, {tally.wrong} wrong; "
              f"{tally.snapshots} snapshots; flagged: {dict(tally.flagged_why)}")
    assert both.failures == []
    assert both.wrong == 0
    assert both.sequences >= TOTAL
    assert both.committed + both.asked + both.flagged == both.sequences
    # The noise really happened: rested slides and long hovers were corrected, fast
    # replies were played.
    assert both.corrected > 0 and both.fast_replies > 0
