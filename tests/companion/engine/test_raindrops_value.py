"""Raindrops' leaf value (the fitted logistic of companion.games.raindrops.bot): it favours
the side nearer one unit, treats the colours alike, and does not swing with the side to move.

The old leaf value (the plain race, kept for the turns' priors) put the positions after
Black's opening turn at 0.71 for Black on average (0.79 after most of them), and the next
ones at 0.62: the side that had just moved always looked ahead, so the search's values
followed the parity of its leaves' depths.
"""

from __future__ import annotations

import pytest

from companion import games
from companion.games.raindrops.bot import heuristic, race
from companion.games.raindrops.position import RaindropsPosition, parse_position

POSITIONS = [
    "raindrops ....w/ww.../...../...bb/b.... b",  # V4
    "raindrops w....w/....../....../....../..b.../bb...b b",  # V5
    "raindrops b.....w/......./......./...b.../......./......./w.....b w",  # V6, White to move
    "raindrops wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/bwbwbwbw/wbwbwbwb/.bbwbwbw w",
]


def swapped(pos: RaindropsPosition) -> RaindropsPosition:
    """The same position with the colours (and the side to move) exchanged."""
    return RaindropsPosition(pos.size, pos.board.translate(str.maketrans("bw", "wb")),
                             "w" if pos.side == "b" else "b")


@pytest.mark.parametrize("text", POSITIONS, ids=[t[10:24] for t in POSITIONS])
def test_the_value_treats_the_colours_alike(text: str) -> None:
    pos = parse_position(text)
    assert 0.0 < heuristic(pos) < 1.0
    assert heuristic(pos) + heuristic(swapped(pos)) == pytest.approx(1.0)


def test_fewer_units_is_better_whoever_moves() -> None:
    # Black: two units (a 2x2 block and a pair); White: five singletons; equal pieces.
    near = "raindrops ......../......../.w.w.w../......../w.....w./......../bb..bb../bb...... {}"
    for side in "bw":
        pos = parse_position(near.format(side))
        assert heuristic(pos) > 0.75
        assert heuristic(swapped(pos)) < 0.25


def test_the_value_after_an_opening_turn_stays_near_even() -> None:
    rules = games.get("raindrops")
    start = rules.start(size="8")
    after = rules.successors(start)
    assert len(after) == 112
    for pos in after:  # Black has captured and joined: White to move, the game still even
        assert abs(heuristic(pos) - 0.5) < 0.1
    assert sum(race(pos) for pos in after) / len(after) > 0.7  # what the race said
