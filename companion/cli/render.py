"""Text pictures of a game for the terminal: the board in Unicode pieces (ANSI
colours optional), the decks' counts, the clock and whose turn it is.

Blue (promoted) pieces are drawn in blue with colours on, and marked ``~``
(as in RFEN) without. Nothing here can show the decks' order: it only sees
the board and the public counts.
"""

from __future__ import annotations

import logging

import chess

from companion.game import Game
from companion.rules import RaindropBoard, card_name, parse_card_letter

LOGGER = logging.getLogger(__name__)

_WHITE_GLYPHS = {chess.KING: "♔", chess.QUEEN: "♕", chess.ROOK: "♖", chess.BISHOP: "♗",
                 chess.KNIGHT: "♘", chess.PAWN: "♙"}
_BLACK_GLYPHS = {chess.KING: "♚", chess.QUEEN: "♛", chess.ROOK: "♜", chess.BISHOP: "♝",
                 chess.KNIGHT: "♞", chess.PAWN: "♟"}

RESET = "\x1b[0m"
_LIGHT_BG = "\x1b[48;5;187m"
_DARK_BG = "\x1b[48;5;137m"
_TARGET_BG = "\x1b[48;5;150m"
_WHITE_FG = "\x1b[1;38;5;231m"
_BLACK_FG = "\x1b[1;38;5;16m"
_LIGHT_BLUE_FG = "\x1b[1;38;5;45m"   # White's blue pieces (R5: light blue)
_DARK_BLUE_FG = "\x1b[1;38;5;19m"    # Black's blue pieces (dark blue)


def glyph(piece: chess.Piece) -> str:
    table = _WHITE_GLYPHS if piece.color == chess.WHITE else _BLACK_GLYPHS
    return table[piece.piece_type]


def render_board(board: RaindropBoard, *, color: bool = True,
                 targets: chess.SquareSet | None = None,
                 last: chess.SquareSet | None = None) -> str:
    """The board from White's side, rank 8 on top; ``targets`` marked ``·`` (or shaded)."""
    targets = targets or chess.SquareSet()
    last = last or chess.SquareSet()
    lines = ["    a  b  c  d  e  f  g  h"]
    for rank in range(7, -1, -1):
        cells = []
        for file in range(8):
            square = chess.square(file, rank)
            piece = board.piece_at(square)
            blue = board.is_blue(square)
            light = (file + rank) % 2 == 1
            body = ("·" if square in targets else " ") if piece is None else glyph(piece)
            if color:
                bg = _TARGET_BG if square in targets else _LIGHT_BG if light else _DARK_BG
                if piece is None:
                    fg = _BLACK_FG
                elif blue:
                    fg = _LIGHT_BLUE_FG if piece.color == chess.WHITE else _DARK_BLUE_FG
                else:
                    fg = _WHITE_FG if piece.color == chess.WHITE else _BLACK_FG
                cells.append(f"{bg}{fg} {body} {RESET}")
            else:
                left = ">" if square in last else " "
                right = "~" if blue else ("<" if square in last else " ")
                cells.append(f"{left}{body}{right}")
        lines.append(f" {rank + 1} " + "".join(cells) + f" {rank + 1}")
    lines.append(lines[0])
    return "\n".join(lines)


def format_counts(counts: dict[str, int]) -> str:
    if not counts:
        return "none"
    return " ".join(f"{letter.upper()}{count}" for letter, count in counts.items())


def status_lines(game: Game) -> list[str]:
    """Cards left, blue pieces, clock, and what the side to move must do."""
    board = game.board
    lines = []
    for color in (chess.WHITE, chess.BLACK):
        name = chess.COLOR_NAMES[color].capitalize()
        blue = "".join(chess.piece_symbol(p).upper() for p in board.blue_available(color))
        lines.append(f"{name:5} cards left {game.deck_size(color):2}: "
                     f"{format_counts(game.deck_counts(color)):28} blue: {blue or '-'}")
    if game.clock is not None:
        clock = game.clock
        lines.append(f"Clock  White {_clock(clock.remaining(chess.WHITE))}  "
                     f"Black {_clock(clock.remaining(chess.BLACK))}"
                     + ("  (paused)" if game.paused else ""))
    lines.append(turn_line(game))
    return lines


def _clock(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}" + (f".{int(seconds * 10) % 10}" if seconds < 10
                                                else "")


def square_names(squares: chess.SquareSet, *, limit: int = 16) -> str:
    """Squares by name; many squares as a count (they are marked on the board)."""
    if len(squares) > limit:
        return f"{len(squares)} squares (marked · on the board)"
    return " ".join(chess.square_name(sq) for sq in squares)


def turn_line(game: Game) -> str:
    """What the side to move may or must do now."""
    outcome = game.outcome
    if outcome is not None:
        return f"Game over: {outcome.describe()} ({outcome.result()})."
    board = game.board
    side = chess.COLOR_NAMES[game.turn].capitalize()
    pending = game.pending
    if pending is not None:
        kind, _ = parse_card_letter(pending)
        if pending.upper() == "J":
            return (f"{side} removes an opposing piece: type remove SQUARE "
                    f"({square_names(game.legal_removals())}).")
        example = next(iter(game.legal_moves()), None)
        hint = f" (e.g. {board.san(example)})" if example is not None else ""
        return (f"{side} places the {card_name(kind)} on one of: "
                f"{square_names(game.drop_targets())}{hint}.")
    check = f"{side} is in check. " if board.is_check() else ""
    if board.must_move:
        return check + f"{side} must lift the check with a chess move (the rescue flip failed)."
    can_flip = game.can_flip()
    has_moves = bool(game.legal_moves())
    if can_flip and has_moves:
        return check + f"{side} to play: flip, or a move."
    if can_flip:
        return check + f"{side} to play: flip (type flip)."
    return check + f"{side} to play: a move (the deck is empty)."
