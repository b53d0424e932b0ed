"""Garbage in: random boards (pieces appearing, vanishing, wrong colours) never
crash BoardSync, never change the game unless the sensed board is exactly the
result, and every complaint names only squares that really differ."""

from __future__ import annotations

import random

import chess
import pytest

from companion.game import Game
from companion.sensors import BoardSnapshot
from companion.sensors.snapshot import PieceColor
from companion.sync import BoardSync, SyncKind
from companion.sync.position import board_colours, snapshot_colours

COLOURS: tuple[PieceColor, ...] = ("white", "black", "blue")


def _random_game(rng: random.Random) -> Game:
    game = Game(seed=rng.randrange(1 << 30))
    for _ in range(rng.randrange(4, 40)):
        if game.is_over:
            break
        moves = game.legal_moves()
        if game.pending is not None and game.pending.upper() == "J":
            game.remove(rng.choice(list(game.legal_removals())))
        elif game.can_flip() and (not moves or rng.random() < 0.3):
            game.flip()
        elif moves:
            game.play(rng.choice(moves))
    return game


def _noisy(board: chess.Board, rng: random.Random, colors: bool) -> BoardSnapshot:
    snapshot = BoardSnapshot.of_board(board, with_colors=colors)
    mask = snapshot.mask
    for _ in range(rng.randrange(1, 5)):
        mask ^= chess.BB_SQUARES[rng.randrange(64)]
    if not colors:
        return BoardSnapshot(chess.SquareSet(mask))
    old = dict(snapshot.colors or {})
    seen = {sq: old.get(sq, rng.choice(COLOURS)) for sq in chess.SquareSet(mask)}
    if seen and rng.random() < 0.3:
        seen[rng.choice(list(seen))] = rng.choice(COLOURS)
    return BoardSnapshot(chess.SquareSet(mask), seen)


@pytest.mark.parametrize("colors", [False, True], ids=["occupancy", "colour"])
def test_random_boards_never_crash_or_commit_what_was_not_seen(colors: bool) -> None:
    rng = random.Random(99 + colors)
    kinds = set()
    commits = 0
    for _ in range(60):
        game = _random_game(rng)
        sync = BoardSync(game)
        sync.update(BoardSnapshot.of_board(game.board, with_colors=colors))
        for _ in range(8):
            before = game.board
            moves = game.legal_moves()
            if moves and rng.random() < 0.3:
                result_board = before.copy()
                result_board.push(rng.choice(moves))
                snapshot = BoardSnapshot.of_board(result_board, with_colors=colors)
            else:
                snapshot = _noisy(before, rng, colors)
            result = sync.update(snapshot)
            kinds.add(result.kind)
            assert result.message
            after = game.board
            if not result.committed:
                assert after.rfen() == before.rfen()
            else:
                commits += 1
                assert after.occupied == snapshot.mask
                seen = snapshot_colours(snapshot)
                if seen is not None:
                    differ = 0
                    for got, want in zip(seen, board_colours(after), strict=True):
                        differ |= got ^ want
                    # Only a pawn seen where its blue piece now stands (a promotion).
                    assert differ == 0 or (chess.popcount(differ) == 1
                                           and differ & after.promoted & chess.BB_BACKRANKS)
            if result.kind in (SyncKind.MISMATCH, SyncKind.ILLEGAL):
                differ = before.occupied ^ snapshot.mask
                seen = snapshot_colours(snapshot)
                if seen is not None:
                    for got, want in zip(seen, board_colours(before), strict=True):
                        differ |= got ^ want
                assert result.fixes and int(result.led.fix) & ~differ == 0
    assert {SyncKind.MISMATCH, SyncKind.ILLEGAL, SyncKind.COMMITTED} <= kinds
    assert commits > 20
