"""The game's position as a sensor would see it, and the boards each action would leave.

Built once per game position (not per snapshot): every legal action's
resulting occupancy goes into a dict keyed by the occupancy bitboard, with
the colours a colour sensor would see, so a snapshot is matched with one dict
look-up (the picochess method, computed once instead of per snapshot). The
boards of earlier positions (takebacks) and of the alternatives to the last
move (a piece slid further) are indexed the same way, on first use.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from typing import Protocol

import chess

from companion.rules import ActionKind, RaindropBoard
from companion.sensors.snapshot import BoardSnapshot

LOGGER = logging.getLogger(__name__)

# What a colour sensor sees, as bitboards: (white, black, blue).
Colours = tuple[int, int, int]

# How many actions back a takeback is looked for.
TAKEBACK_DEPTH = 12


class GameView(Protocol):
    """The parts of :class:`companion.game.Game` the position index reads."""

    @property
    def board(self) -> RaindropBoard: ...

    @property
    def is_over(self) -> bool: ...

    def can_flip(self) -> bool: ...

    def legal_moves(self) -> list[chess.Move]: ...

    def legal_removals(self) -> chess.SquareSet: ...


@dataclasses.dataclass(frozen=True)
class Expected:
    """The board one action would leave: a move or drop (``move``), or the
    removal of the piece on ``remove`` by a joker; ``capture`` is the square of
    a captured piece (the mover's destination), if any; ``turn`` the side acting."""

    colours: Colours
    move: chess.Move | None = None
    remove: chess.Square | None = None
    capture: chess.Square | None = None
    turn: chess.Color = chess.WHITE


@dataclasses.dataclass(frozen=True)
class Earlier:
    """An earlier position: ``undo_count`` undos bring the game back to it."""

    undo_count: int
    colours: Colours


def board_colours(board: chess.BaseBoard) -> Colours:
    promoted = board.promoted
    return (board.occupied_co[chess.WHITE] & ~promoted,
            board.occupied_co[chess.BLACK] & ~promoted, promoted)


def snapshot_colours(snapshot: BoardSnapshot) -> Colours | None:
    """The colours a snapshot saw as bitboards, or ``None`` for an occupancy-only one."""
    colors: Mapping[chess.Square, str] | None = snapshot.colors
    if colors is None:
        return None
    white = black = blue = 0
    for square, color in colors.items():
        bit = chess.BB_SQUARES[square]
        if color == "white":
            white |= bit
        elif color == "black":
            black |= bit
        else:
            blue |= bit
    return (white, black, blue)


def colours_after(board: chess.Board, move: chess.Move) -> Colours:
    """The colours after ``move`` (a move or a drop by the side to move), without pushing."""
    turn = board.turn
    to_bb = chess.BB_SQUARES[move.to_square]
    own = board.occupied_co[turn]
    opp = board.occupied_co[not turn]
    promoted = board.promoted
    if move.drop:
        own |= to_bb
    else:
        from_bb = chess.BB_SQUARES[move.from_square]
        was_blue = promoted & from_bb
        own = own & ~from_bb | to_bb
        opp &= ~to_bb
        promoted &= ~(from_bb | to_bb)
        if was_blue or move.promotion:
            promoted |= to_bb
    white, black = (own, opp) if turn == chess.WHITE else (opp, own)
    return (white & ~promoted, black & ~promoted, promoted)


def colours_after_removal(board: chess.Board, square: chess.Square) -> Colours:
    keep = ~chess.BB_SQUARES[square]
    promoted = board.promoted & keep
    return (board.occupied_co[chess.WHITE] & keep & ~promoted,
            board.occupied_co[chess.BLACK] & keep & ~promoted, promoted)


def occupancy(colours: Colours) -> int:
    return colours[0] | colours[1] | colours[2]


def _index_moves(board: chess.Board, moves: list[chess.Move],
                 index: dict[int, list[Expected]]) -> None:
    occupied = board.occupied
    for move in moves:
        colours = colours_after(board, move)
        capture = None
        if not move.drop and occupied & chess.BB_SQUARES[move.to_square]:
            capture = move.to_square
        index.setdefault(occupancy(colours), []).append(
            Expected(colours, move=move, capture=capture, turn=board.turn))


class Position:
    """One game position, indexed for matching snapshots (see the module docstring)."""

    def __init__(self, game: GameView, board: RaindropBoard | None = None) -> None:
        """``board``: the game's board (a copy with its history), if already at hand."""
        if board is None:
            board = game.board
        self.board = board
        self.turn = board.turn
        self.mask: int = board.occupied
        self.colours = board_colours(board)
        self.over = game.is_over
        self.pending = board.pending
        self._game = game
        self._can_flip: bool | None = None
        self.index: dict[int, list[Expected]] = {}
        self.from_squares = 0     # squares of pieces that have a legal move
        self.capture_targets = 0  # squares of pieces that can be captured
        self.captures: set[tuple[chess.Square, chess.Square]] = set()
        # The copy's own generator: the game's would judge the outcome once more.
        moves = [] if self.over else list(board.legal_moves)
        _index_moves(board, moves, self.index)
        for move in moves:
            if move.drop:
                continue
            self.from_squares |= chess.BB_SQUARES[move.from_square]
            if self.mask & chess.BB_SQUARES[move.to_square]:
                self.capture_targets |= chess.BB_SQUARES[move.to_square]
                self.captures.add((move.from_square, move.to_square))
        self.moves = moves
        self.drop_targets = chess.SquareSet(m.to_square for m in moves if m.drop)
        self.removals = chess.SquareSet()
        if board.pending is not None and board.pending.upper() == "J":
            self.removals = chess.SquareSet() if self.over else board.legal_removals()
            for square in self.removals:
                colours = colours_after_removal(board, square)
                self.index.setdefault(occupancy(colours), []).append(
                    Expected(colours, remove=square))
        self._earlier: dict[int, list[Earlier]] | None = None
        self._alternatives: dict[int, list[Expected]] | None = None
        self._replies: dict[int, list[tuple[Expected, Expected]]] | None = None
        self._last_move: chess.Move | None = None
        if board.actions:
            action = board.peek_action()
            if action.kind == ActionKind.MOVE and action.move:
                self._last_move = action.move

    @property
    def can_flip(self) -> bool:
        if self._can_flip is None:
            self._can_flip = self._game.can_flip()
        return self._can_flip

    @property
    def last_move(self) -> chess.Move | None:
        """The last action if it was a move or a placement (else ``None``)."""
        return self._last_move

    def targets(self, square: chess.Square) -> chess.SquareSet:
        """Legal destinations of the piece on ``square``."""
        return chess.SquareSet(
            m.to_square for m in self.moves if not m.drop and m.from_square == square)

    def earlier(self) -> dict[int, list[Earlier]]:
        """Boards of earlier positions that look different from this one, most recent first."""
        if self._earlier is None:
            found: dict[int, list[Earlier]] = {}
            board = self.board.copy(stack=TAKEBACK_DEPTH)
            seen = {(self.mask, self.colours)}
            for count in range(1, TAKEBACK_DEPTH + 1):
                if not board.actions:
                    break
                board.pop()
                colours = board_colours(board)
                key = (board.occupied, colours)
                if key in seen:
                    continue
                seen.add(key)
                found.setdefault(board.occupied, []).append(Earlier(count, colours))
            self._earlier = found
        return self._earlier

    def alternatives(self) -> dict[int, list[Expected]]:
        """Boards of the other actions the last mover could have made with the same
        piece (a piece slid further, or moved on), or with the same card on any other
        square (a piece set down where a hover was seen, or moved on)."""
        if self._alternatives is None:
            found: dict[int, list[Expected]] = {}
            last = self._last_move
            if last is not None:
                board = self.board.copy(stack=1)
                board.pop()
                if last.drop:
                    moves = [m for m in board.generate_legal_drops() if m != last]
                else:
                    moves = [m for m in board.generate_legal_moves(
                        chess.BB_SQUARES[last.from_square]) if m != last]
                _index_moves(board, moves, found)
                self._previous = board
            self._alternatives = found
        return self._alternatives

    def replies(self) -> dict[int, list[tuple[Expected, Expected]]]:
        """Boards of a legal action followed at once by a legal chess move of the
        opponent (a fast reply, both set down before the board settled)."""
        if self._replies is None:
            found: dict[int, list[tuple[Expected, Expected]]] = {}
            occupied = self.mask
            for move in self.moves:
                capture = None
                if not move.drop and occupied & chess.BB_SQUARES[move.to_square]:
                    capture = move.to_square
                first = Expected(colours_after(self.board, move), move=move, capture=capture,
                                 turn=self.board.turn)
                after = self.board.copy(stack=False)
                after.push(move)
                index: dict[int, list[Expected]] = {}
                _index_moves(after, list(after.generate_legal_moves()), index)
                for mask, seconds in index.items():
                    found.setdefault(mask, []).extend((first, second) for second in seconds)
            self._replies = found
        return self._replies

    def previous_board(self) -> RaindropBoard:
        """The position before the last move or placement (:attr:`last_move` must
        not be ``None``)."""
        self.alternatives()
        return self._previous
