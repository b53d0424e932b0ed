"""Board geometry of the abstract games (no Kivy): grid cells, star points, Crumble's
rectangles from its position text, and which cell a point of the board falls in."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import pytest

from ui.games.geometry import LayoutError, changed_cells, layout, owners, star_points


@dataclass(frozen=True)
class TextPosition:
    """A stand-in position: its text and its cells, as an engine would give them."""

    board: str
    cell_map: tuple[tuple[str, str], ...]
    to_move: str = "black"

    def text(self) -> str:
        return self.board

    def cells(self) -> dict[str, str]:
        return dict(self.cell_map)


@dataclass(frozen=True)
class Named:
    name: str


def test_grid_cells_become_unit_squares_with_go_star_points() -> None:
    cells = tuple((f"{c}{r}", "b" if (c, r) == ("c", 3) else ".")
                  for c in "abcdefghi" for r in range(1, 10))
    board = layout(Named("rumbo"), TextPosition("rumbo ...", cells))
    assert (board.style, board.columns, board.rows) == ("points", 9, 9)
    assert board.stars == ((2, 2), (2, 6), (4, 4), (6, 2), (6, 6))
    shape = board.shape("c3")
    assert shape is not None and (shape.x, shape.y, shape.content) == (2, 2, "b")
    assert board.cell_at(2.5, 2.5) == "c3" and board.cell_at(9.1, 0) is None
    assert layout(Named("dropper"), TextPosition("d", cells)).style == "cells"
    assert star_points(8, 8) == ((2, 2), (2, 5), (5, 2), (5, 5))
    assert star_points(5, 5) == () and len(star_points(19, 19)) == 9


def test_crumble_pieces_are_read_from_the_position_text_at_any_depth() -> None:
    # A 2x1 board: a1 cut into a wide half and two quarters; b1 whole.
    text = ("crumble 2x1 0,0,1/2,1/2,w;1/2,0,1/2,1/2,b;1,0,1,1,b;0,1/2,1,1/2,w "
            "w 0 -|-|-|-")
    cells = (("0,0,1/2,1/2", "w"), ("1/2,0,1/2,1/2", "b"), ("1,0,1,1", "b"),
             ("0,1/2,1,1/2", "w"))
    board = layout(Named("crumble"), TextPosition(text, cells))
    assert (board.style, board.columns, board.rows) == ("pieces", 2, 1)
    quarter = board.shape("1/2,0,1/2,1/2")
    assert quarter is not None
    assert (quarter.x, quarter.y, quarter.w, quarter.h) == (Fraction(1, 2), 0,
                                                          Fraction(1, 2), Fraction(1, 2))
    assert board.cell_at(0.75, 0.25) == "1/2,0,1/2,1/2"
    assert board.cell_at(0.2, 0.9) == "0,1/2,1,1/2"
    assert board.cell_at(1.9, 0.9) == "1,0,1,1"
    # The cells are the engine's own names of its pieces.
    from companion import games

    rules = games.get("crumble")
    start = rules.start(width="3", height="2")
    assert {shape.cell for shape in layout(rules, start).shapes} == set(start.cells())
    # A sixty-fourth of a square is still found.
    tiny = "crumble 1x1 " + ";".join(
        f"{Fraction(x, 8)},{Fraction(y, 8)},1/8,1/8,{'bw'[(x + y) % 2]}"
        for y in range(8) for x in range(8)) + " b 0 -|-|-|-"
    board = layout(Named("crumble"), TextPosition(tiny, ()))
    assert len(board.shapes) == 64 and board.cell_at(0.99, 0.99) == "7/8,7/8,1/8,1/8"
    with pytest.raises(LayoutError, match="not x,y,w,h,colour"):
        layout(Named("crumble"), TextPosition("crumble 1x1 0,0,1,1 b 0 -|-|-|-", ()))


def test_changed_cells_and_rumbo_claim_marks() -> None:
    before = TextPosition("x", (("a1", "."), ("b1", "w")))
    after = TextPosition("x", (("a1", "b"), ("b1", "w")))
    assert changed_cells(before, after) == {"a1"} and changed_cells(None, after) == set()
    claimed = TextPosition("rumbo .../b../bb. v 0 .../h../hh.", ())
    assert owners(Named("rumbo"), claimed) == {"a2": "h", "a1": "h", "b1": "h"}
    assert owners(Named("dropper"), claimed) == {}
