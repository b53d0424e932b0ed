"""A second, deliberately simple Raindropchess action generator for perft.

Written apart from the engine to prove its counts: plain 64-square lists,
square loops, its own RFEN reader and writer, its own attack detection, and
legality by "make the action, then look whether one's own king is attacked".
It uses nothing from python-chess or from ``companion.rules``.

The action tree (the same one the engine perft in ``test_perft.py`` walks):
at a node with a pending card, its placements (or, for a pending
remove-piece joker, its removals); otherwise the legal chess moves plus one
child per distinct card kind the side to move may flip.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

WHITE = True
BLACK = False

FILES = "abcdefgh"
CARD_ORDER = "kqrbldnpj"  # the RFEN writing order of cards
BLUE_ORDER = "qrbn"
KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING_STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
ROOK_DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))
BISHOP_DIRS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


@dataclasses.dataclass(frozen=True)
class Piece:
    white: bool
    kind: str  # one of "pnbrqk"
    blue: bool = False


@dataclasses.dataclass
class Rules:
    failed_rescue: str = "lose"
    joker_effect: str = "extra_turn"
    blue_returns_when_captured: bool = False


@dataclasses.dataclass
class Position:
    squares: list[Piece | None]
    decks: dict[bool, dict[str, int]]
    blue: dict[bool, dict[str, int]]
    white_to_move: bool
    pending: str  # "" or a lowercase card kind
    must_move: bool
    halfmove: int
    fullmove: int

    def copy(self) -> Position:
        return Position(list(self.squares), {c: dict(d) for c, d in self.decks.items()},
                        {c: dict(d) for c, d in self.blue.items()}, self.white_to_move,
                        self.pending, self.must_move, self.halfmove, self.fullmove)


def square_name(square: int) -> str:
    return FILES[square % 8] + str(square // 8 + 1)


def on_board(file: int, rank: int) -> bool:
    return 0 <= file < 8 and 0 <= rank < 8


# ----------------------------------------------------------------------
# RFEN, read and written without the engine


def parse(rfen: str) -> Position:
    board_part, turn, blue_part, pending, halfmove, fullmove = rfen.split()
    placement, cards = board_part[:-1].split("[")
    squares: list[Piece | None] = [None] * 64
    for row, text in enumerate(placement.split("/")):
        rank = 7 - row
        file = 0
        for char in text:
            if char.isdigit():
                file += int(char)
            elif char == "~":
                piece = squares[rank * 8 + file - 1]
                assert piece is not None
                squares[rank * 8 + file - 1] = Piece(piece.white, piece.kind, True)
            else:
                squares[rank * 8 + file] = Piece(char.isupper(), char.lower())
                file += 1
    decks: dict[bool, dict[str, int]] = {WHITE: {}, BLACK: {}}
    for char in cards:
        deck = decks[char.isupper()]
        deck[char.lower()] = deck.get(char.lower(), 0) + 1
    blue: dict[bool, dict[str, int]] = {WHITE: {}, BLACK: {}}
    for char in blue_part.replace("-", ""):
        pool = blue[char.isupper()]
        pool[char.lower()] = pool.get(char.lower(), 0) + 1
    return Position(squares, decks, blue, turn == "w",
                    "" if pending in "-+" else pending.lower(), pending == "+",
                    int(halfmove), int(fullmove))


def write(pos: Position) -> str:
    rows = []
    for rank in range(7, -1, -1):
        text = ""
        empty = 0
        for file in range(8):
            piece = pos.squares[rank * 8 + file]
            if piece is None:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += piece.kind.upper() if piece.white else piece.kind
            if piece.blue:
                text += "~"
        if empty:
            text += str(empty)
        rows.append(text)
    cards = ""
    for white in (WHITE, BLACK):
        for kind in CARD_ORDER:
            letter = kind.upper() if white else kind
            cards += letter * pos.decks[white].get(kind, 0)
    blue = ""
    for white in (WHITE, BLACK):
        for kind in BLUE_ORDER:
            blue += (kind.upper() if white else kind) * pos.blue[white].get(kind, 0)
    if pos.must_move:
        pending = "+"
    elif pos.pending:
        pending = pos.pending.upper() if pos.white_to_move else pos.pending
    else:
        pending = "-"
    return (f"{'/'.join(rows)}[{cards}] {'w' if pos.white_to_move else 'b'} {blue or '-'} "
            f"{pending} {pos.halfmove} {pos.fullmove}")


# ----------------------------------------------------------------------
# Attacks, by walking the board


def attacked(pos: Position, square: int, by_white: bool) -> bool:
    """Whether a piece of ``by_white``'s side attacks ``square``."""
    file, rank = square % 8, square // 8
    for df, dr in KNIGHT_STEPS:
        if on_board(file + df, rank + dr):
            piece = pos.squares[(rank + dr) * 8 + file + df]
            if piece is not None and piece.white == by_white and piece.kind == "n":
                return True
    for df, dr in KING_STEPS:
        if on_board(file + df, rank + dr):
            piece = pos.squares[(rank + dr) * 8 + file + df]
            if piece is not None and piece.white == by_white and piece.kind == "k":
                return True
    pawn_rank = rank - 1 if by_white else rank + 1
    for df in (-1, 1):
        if on_board(file + df, pawn_rank):
            piece = pos.squares[pawn_rank * 8 + file + df]
            if piece is not None and piece.white == by_white and piece.kind == "p":
                return True
    for dirs, kinds in ((ROOK_DIRS, "rq"), (BISHOP_DIRS, "bq")):
        for df, dr in dirs:
            f, r = file + df, rank + dr
            while on_board(f, r):
                piece = pos.squares[r * 8 + f]
                if piece is not None:
                    if piece.white == by_white and piece.kind in kinds:
                        return True
                    break
                f, r = f + df, r + dr
    return False


def king_square(pos: Position, white: bool) -> int | None:
    for square, piece in enumerate(pos.squares):
        if piece is not None and piece.white == white and piece.kind == "k":
            return square
    return None


def in_check(pos: Position, white: bool) -> bool:
    king = king_square(pos, white)
    return king is not None and attacked(pos, king, not white)


# ----------------------------------------------------------------------
# Actions: (name, resulting position)


def _end_turn(pos: Position, *, reset: bool) -> None:
    if not pos.white_to_move:
        pos.fullmove += 1
    pos.halfmove = 0 if reset else pos.halfmove + 1
    pos.white_to_move = not pos.white_to_move
    pos.pending = ""
    pos.must_move = False


def _targets(pos: Position, square: int, piece: Piece) -> Iterator[int]:
    file, rank = square % 8, square // 8
    if piece.kind in "nk":
        for df, dr in KNIGHT_STEPS if piece.kind == "n" else KING_STEPS:
            if on_board(file + df, rank + dr):
                yield (rank + dr) * 8 + file + df
        return
    dirs: tuple[tuple[int, int], ...] = ()
    if piece.kind in "rq":
        dirs += ROOK_DIRS
    if piece.kind in "bq":
        dirs += BISHOP_DIRS
    for df, dr in dirs:
        f, r = file + df, rank + dr
        while on_board(f, r):
            yield r * 8 + f
            if pos.squares[r * 8 + f] is not None:
                break
            f, r = f + df, r + dr


def moves(pos: Position, rules: Rules) -> list[tuple[str, Position]]:
    """Legal chess moves of the side to move (none while a card is pending or
    its king is off the board)."""
    white = pos.white_to_move
    if pos.pending or king_square(pos, white) is None:
        return []
    out = []
    for square in range(64):
        piece = pos.squares[square]
        if piece is None or piece.white != white:
            continue
        candidates: list[tuple[int, str]] = []
        if piece.kind == "p":
            step = 8 if white else -8
            ahead = square + step
            if pos.squares[ahead] is None:
                candidates.append((ahead, ""))
            for df in (-1, 1):
                file = square % 8 + df
                if 0 <= file < 8:
                    target = ahead - square % 8 + file
                    victim = pos.squares[target]
                    if victim is not None and victim.white != white:
                        candidates.append((target, ""))
            expanded = []
            for target, _ in candidates:
                if target // 8 in (0, 7):
                    for kind in BLUE_ORDER:
                        if pos.blue[white].get(kind, 0):
                            expanded.append((target, kind))
                else:
                    expanded.append((target, ""))
            candidates = expanded
        else:
            for target in _targets(pos, square, piece):
                victim = pos.squares[target]
                if victim is None or victim.white != white:
                    candidates.append((target, ""))
        for target, promotion in candidates:
            after = pos.copy()
            victim = after.squares[target]
            moved = Piece(white, promotion, True) if promotion else piece
            after.squares[target] = moved
            after.squares[square] = None
            if promotion:
                after.blue[white][promotion] -= 1
            if victim is not None and victim.blue and rules.blue_returns_when_captured:
                pool = after.blue[not white]
                pool[victim.kind] = pool.get(victim.kind, 0) + 1
            if in_check(after, white):
                continue
            _end_turn(after, reset=piece.kind == "p" or victim is not None)
            out.append((square_name(square) + square_name(target) + promotion, after))
    return out


def _placed(pos: Position, kind: str, square: int) -> Position | None:
    """The position after placing a card of ``kind`` on ``square``, or None."""
    white = pos.white_to_move
    if pos.squares[square] is not None:
        return None
    rank = square // 8
    light = (square % 8 + rank) % 2 == 1
    if kind == "p" and not (1 <= rank <= 5 if white else 2 <= rank <= 6):
        return None
    if (kind == "l" and not light) or (kind == "d" and light):
        return None
    if kind == "k" and attacked(pos, square, not white):
        return None
    after = pos.copy()
    after.squares[square] = Piece(white, "b" if kind in "ld" else kind)
    if in_check(after, white):
        return None
    return after


def drops(pos: Position, kind: str) -> list[tuple[str, Position]]:
    """Placements of a card of ``kind`` by the side to move."""
    out = []
    for square in range(64):
        after = _placed(pos, kind, square)
        if after is not None:
            _end_turn(after, reset=True)
            piece = "B" if kind in "ld" else kind.upper()
            out.append((f"{piece}@{square_name(square)}", after))
    return out


def removals(pos: Position) -> list[tuple[str, Position]]:
    """Opposing non-king pieces a joker may remove, leaving one's own king safe."""
    white = pos.white_to_move
    if king_square(pos, white) is None:
        return []
    out = []
    for square in range(64):
        piece = pos.squares[square]
        if piece is None or piece.white == white or piece.kind == "k":
            continue
        after = pos.copy()
        after.squares[square] = None
        if in_check(after, white):
            continue
        _end_turn(after, reset=True)  # a removal resets the clock like a capture
        out.append((f"remove:{square_name(square)}", after))
    return out


def _return_card(pos: Position, kind: str) -> None:
    deck = pos.decks[pos.white_to_move]
    deck[kind] = deck.get(kind, 0) + 1


def flip(pos: Position, kind: str, rules: Rules) -> Position:
    """The position after the side to move flips a card of ``kind``."""
    white = pos.white_to_move
    after = pos.copy()
    after.decks[white][kind] -= 1
    checked = in_check(after, white)
    if kind == "j":
        if rules.joker_effect == "extra_turn":
            return after
        if king_square(after, white) is None:
            _end_turn(after, reset=False)
            return after
        if removals(after):
            after.pending = "j"
            return after
        if not checked:
            _end_turn(after, reset=False)
            return after
    elif drops(after, kind):
        after.pending = kind
        return after
    elif not checked:
        _return_card(after, kind)  # unplaceable: to the bottom, turn over
        _end_turn(after, reset=False)
        return after
    # A failed rescue flip.
    if rules.failed_rescue == "return":
        _return_card(after, kind)
        after.must_move = True
    else:
        after.pending = kind  # stays pending: the game is lost
    return after


def _rescues(pos: Position, rules: Rules) -> bool:
    """Whether some card left in the deck would lift the current check."""
    white = pos.white_to_move
    deck = pos.decks[white]
    for kind, count in deck.items():
        if count and kind != "j" and drops(pos, kind):
            return True
    if deck.get("j", 0) and rules.joker_effect == "remove_piece":
        return bool(removals(pos))
    return False


def may_flip(pos: Position, rules: Rules) -> bool:
    """R2 with R7/R9: a card is there to flip, nothing pending, the game not over."""
    white = pos.white_to_move
    if pos.pending or pos.must_move or not sum(pos.decks[white].values()):
        return False
    if in_check(pos, white) and not moves(pos, rules) and not _rescues(pos, rules):
        return False  # checkmate
    # Insufficient material (R10) needs both decks empty, so it never stops a flip.
    return pos.halfmove < 150


def children(pos: Position, rules: Rules) -> list[tuple[str, Position]]:
    """Every child of a node of the action tree, named."""
    if pos.pending == "j":
        return removals(pos)
    if pos.pending:
        return drops(pos, pos.pending)
    out = moves(pos, rules)
    if may_flip(pos, rules):
        for kind in CARD_ORDER:
            if pos.decks[pos.white_to_move].get(kind, 0):
                letter = kind.upper() if pos.white_to_move else kind
                out.append((f"flip:{letter}", flip(pos, kind, rules)))
    return out


def perft(pos: Position, rules: Rules, depth: int) -> int:
    if depth == 0:
        return 1
    kids = children(pos, rules)
    if depth == 1:
        return len(kids)
    return sum(perft(child, rules, depth - 1) for _, child in kids)
