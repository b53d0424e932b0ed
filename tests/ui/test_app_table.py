"""The table's pure parts: move list, clock text, the camera grid through four corners."""

from __future__ import annotations

import pytest

from ui.table import format_clock, moves_text


def test_moves_text_numbers_pairs_and_keeps_each_pair_on_one_line() -> None:
    text = moves_text(["K@e1", "K@e8", "P@g6", "flip p (unplaceable)", "g7"])
    assert text.replace("\u00a0", " ") == \
        "1. K@e1 K@e8   2. P@g6 flip p (unplaceable)   3. g7"
    assert "1.\u00a0K@e1\u00a0K@e8" in text
    assert moves_text([]) == ""


@pytest.mark.parametrize(("seconds", "text"), [
    (300, "5:00"), (61.9, "1:01"), (9.94, "0:09.9"), (0, "0:00.0"), (-3, "0:00.0"),
    (3725, "1:02:05"),
])
def test_format_clock(seconds: float, text: str) -> None:
    assert format_clock(seconds) == text


def test_grid_lines_pass_through_the_corners_and_split_the_edges() -> None:
    from ui.camera_feed import grid_lines

    square = ((0.0, 0.0), (80.0, 0.0), (80.0, 80.0), (0.0, 80.0))
    lines = grid_lines(square)
    assert len(lines) == 18
    starts = sorted({round(a[0], 6) for a, b in lines if a[1] == 0.0 and b[1] == 80.0})
    assert starts == [float(x) for x in range(0, 81, 10)]
    # A perspective quad: the lines still end on its edges and corners.
    quad = ((10.0, 5.0), (90.0, 12.0), (120.0, 100.0), (0.0, 90.0))
    for (ax, ay), (bx, by) in grid_lines(quad):
        assert all(abs(v) < 1e6 for v in (ax, ay, bx, by))
    ends = {(round(x, 6), round(y, 6)) for line in grid_lines(quad) for x, y in line}
    for corner in quad:
        assert corner in ends
