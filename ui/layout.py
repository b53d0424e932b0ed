"""Where the game screen's parts go, for any window from a 360x740 phone to a
1920x1200 tablet, portrait or landscape (from 412 dp high). Plain arithmetic (no Kivy), in dp.

The players' panels have two forms: *regular* (a row for the cards left by kind)
and *compact* (without it, for phones). Every row has a fixed height in dp, so
the screen never jumps when a message grows to two lines: two lines are
reserved. What does not fit beside the board (the move list, the sensed board)
goes behind a button of the toolbar.
"""

from __future__ import annotations

import dataclasses
import logging

LOGGER = logging.getLogger(__name__)

TOUCH = 48.0          # the smallest touch target (dp)
GAP = 6.0             # between the screen's parts
PANEL_PAD = 8.0
ROW_GAP = 4.0
MESSAGE_H = 56.0      # two lines of the players' message (three at the smallest size)
NAME_H = 34.0
DECK_H = 30.0
BUTTONS_H = 52.0
TOOLBAR_H = 52.0
MENU_BUTTON_W = 52.0  # the toolbar's menu button (the other buttons share the rest)
MIDDLE_MIN = 120.0    # the least room worth showing the move list in
SENSED_MIN = 150.0    # the least side worth drawing the sensed board at
LARGE_PANEL_H = 330.0  # the tallest a panel grows on a large screen (the card grows)

Rect = tuple[float, float, float, float]  # x, y, width, height


def toolbar_spacing(width: float) -> float:
    """The gap between the toolbar's buttons (dp) on a toolbar ``width`` dp wide."""
    return GAP if width > 480 else GAP / 2


def panel_height(compact: bool) -> float:
    """A player's panel: message, then name and clock, deck row, buttons."""
    rows = MESSAGE_H + NAME_H + BUTTONS_H + 3 * ROW_GAP
    if not compact:
        rows += DECK_H + ROW_GAP
    return rows + 2 * PANEL_PAD


@dataclasses.dataclass(frozen=True)
class GameLayout:
    """The game screen's rectangles (dp, origin bottom left) and what is shown where."""

    landscape: bool
    compact: bool          # panels without the deck row
    board: Rect
    white: Rect
    black: Rect
    toolbar: Rect
    middle: Rect           # below the toolbar: sensed board and move list (may be empty)
    moves_inline: bool     # the move list is shown in ``middle``
    sensed_inline: bool    # the sensed board is shown in ``middle``


def game_layout(width: float, height: float, *, sensing: bool = False) -> GameLayout:
    """The layout for a window of ``width`` x ``height`` dp."""
    if width >= height:
        return _landscape(width, height, sensing)
    return _portrait(width, height, sensing)


def _landscape(width: float, height: float, sensing: bool) -> GameLayout:
    column_h = height - 2 * GAP
    compact = column_h < 2 * panel_height(False) + TOOLBAR_H + 2 * GAP + MIDDLE_MIN
    panel_h = panel_height(compact)
    if not compact:  # a large screen: a larger card, read from across the table
        panel_h = max(panel_h, min(LARGE_PANEL_H, column_h * 0.27))
    # The column needs room for a panel's card, name and buttons side by side.
    column_min = 320.0 if compact else 380.0
    side = min(column_h, width - 3 * GAP - column_min)
    column_x = 2 * GAP + side
    column_w = width - column_x - GAP
    white = (column_x, GAP, column_w, panel_h)
    black = (column_x, height - GAP - panel_h, column_w, panel_h)
    toolbar_y = GAP + panel_h + GAP
    toolbar = (column_x, toolbar_y, column_w, TOOLBAR_H)
    middle_y = toolbar_y + TOOLBAR_H + GAP
    middle_h = max(0.0, black[1] - GAP - middle_y)
    middle = (column_x, middle_y, column_w, middle_h)
    return GameLayout(
        landscape=True, compact=compact, board=(GAP, (height - side) / 2, side, side),
        white=white, black=black, toolbar=toolbar, middle=middle,
        moves_inline=middle_h >= MIDDLE_MIN,
        sensed_inline=sensing and middle_h >= SENSED_MIN)


def _portrait(width: float, height: float, sensing: bool) -> GameLayout:
    inner_w = width - 2 * GAP
    regular = 2 * panel_height(False) + TOOLBAR_H + 4 * GAP
    # A phone keeps the board as wide as the screen: the panels lose their deck row.
    compact = height - regular < inner_w
    panel_h = panel_height(compact)
    fixed = 2 * panel_h + TOOLBAR_H + 4 * GAP
    side = min(inner_w, height - fixed)
    spare = height - fixed - side  # room for the move list and the sensed board
    middle_h = spare - GAP if spare >= MIDDLE_MIN + GAP else 0.0
    white = (GAP, GAP, inner_w, panel_h)
    black = (GAP, height - GAP - panel_h, inner_w, panel_h)
    toolbar = (GAP, GAP + panel_h + GAP, inner_w, TOOLBAR_H)
    board_y = toolbar[1] + TOOLBAR_H + GAP
    board = ((width - side) / 2, board_y, side, side)
    middle = (GAP, board_y + side + GAP, inner_w, middle_h)
    if middle_h <= 0:
        middle = (GAP, board_y + side, inner_w, 0.0)
    return GameLayout(
        landscape=False, compact=compact, board=board, white=white, black=black,
        toolbar=toolbar, middle=middle, moves_inline=middle_h >= MIDDLE_MIN,
        sensed_inline=sensing and middle_h >= SENSED_MIN)
