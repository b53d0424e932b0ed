"""Benchmark the rules engine against python-chess, measured in the same run.

Legal-action generation over positions from random Raindropchess games,
against python-chess generating the same kind of move set: ``chess.Board``
on the same placement (no castling, no en passant) when no card is pending,
``chess.variant.CrazyhouseBoard`` with only the pending piece in its pocket
when one is (its drops only). Positions where the side to move has no king
and no card is pending are left out (Raindropchess has no moves there at
all), and so are pending king cards (crazyhouse cannot drop a king). Also times
``mate_verdict()`` per position.

Prints the ratio python-chess time / ours (above 1.0: we are faster) and the
verdict median. Run: ``python benchmarks/bench_rules.py [--positions N] [--rounds R]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence

import chess
import chess.variant

from companion.rules import HouseRules, RaindropBoard, mate_verdict

RULES = (
    HouseRules(),
    HouseRules(jokers_per_deck=2, joker_effect="remove_piece", failed_rescue="return"),
    HouseRules(jokers_per_deck=1, coloured_bishop_cards=True, blue_returns_when_captured=True),
)


def random_positions(count: int, seed: int) -> list[RaindropBoard]:
    """Positions along random games (a flip is the top card of a shuffled deck)."""
    rng = random.Random(seed)
    boards: list[RaindropBoard] = []
    while len(boards) < count:
        rules = rng.choice(RULES)
        board = RaindropBoard(rules=rules)
        decks = {color: list(rules.deck_letters(color)) for color in chess.COLORS}
        for deck in decks.values():
            rng.shuffle(deck)
        for _ in range(rng.randrange(20, 160)):
            if board.outcome() is not None:
                break
            if board.pending in ("J", "j"):
                board.push_removal(rng.choice(list(board.legal_removals())))
                continue
            moves = list(board.legal_moves)
            if not board.pending and board.can_flip() and (not moves or rng.random() < 0.4):
                color = board.turn
                card = decks[color].pop(0)
                if board.flip(card).outcome.to_bottom:
                    decks[color].append(card)
            elif moves:
                board.push(rng.choice(moves))
            else:
                break
            # Crazyhouse has no king drops: pending king cards are left out.
            if board.pending not in ("J", "j", "K", "k") and (
                    board.pending or board.king(board.turn) is not None):
                boards.append(board.copy(stack=False))
    return boards[:count]


def peer_board(board: RaindropBoard) -> chess.Board:
    """The python-chess board generating the same kind of move set."""
    turn = "w" if board.turn == chess.WHITE else "b"
    if board.pending:
        piece = board.pending_piece
        assert piece is not None
        letter = chess.piece_symbol(piece)
        pocket = letter.upper() if board.turn == chess.WHITE else letter
        return chess.variant.CrazyhouseBoard(
            f"{board.board_fen(promoted=True)}[{pocket}] {turn} - - 0 1")
    return chess.Board(f"{board.board_fen(promoted=False)} {turn} - - 0 1")


def peer_moves(board: chess.Board) -> list[chess.Move]:
    if isinstance(board, chess.variant.CrazyhouseBoard):
        return list(board.generate_legal_drops())
    return list(board.legal_moves)


def our_moves(board: chess.Board) -> list[chess.Move]:
    return list(board.legal_moves)


def time_pair(ours: Sequence[chess.Board], peers: Sequence[chess.Board],
              rounds: int) -> tuple[float, float]:
    """Median times over rounds to list every board's moves, ours and the peer's,
    interleaved round by round (alternating which goes first) so that load on a
    shared machine hits both alike."""
    mine: list[float] = []
    theirs: list[float] = []
    for round_number in range(rounds):
        order = ((our_moves, ours, mine), (peer_moves, peers, theirs))
        for generate, boards, times in order if round_number % 2 == 0 else order[::-1]:
            start = time.perf_counter()
            for board in boards:
                generate(board)
            times.append(time.perf_counter() - start)
    return statistics.median(mine), statistics.median(theirs)


def time_each(boards: Sequence[RaindropBoard], call: Callable[[RaindropBoard], object],
              rounds: int) -> list[float]:
    """Per-position times (the best of ``rounds`` for each)."""
    out = []
    for board in boards:
        best = float("inf")
        for _ in range(rounds):
            start = time.perf_counter()
            call(board)
            best = min(best, time.perf_counter() - start)
        out.append(best)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--seed", type=int, default=20261122)
    args = parser.parse_args(argv)

    ours = random_positions(args.positions, args.seed)
    peers = [peer_board(board) for board in ours]
    pending = [i for i, board in enumerate(ours) if board.pending]
    plain = [i for i, board in enumerate(ours) if not board.pending]
    in_check = sum(1 for board in ours if board.is_check())
    print(f"{len(ours)} positions from random games: {len(plain)} with no card pending, "
          f"{len(pending)} with a card pending, {in_check} in check")

    # The peer's move set is the same kind: our drops are a subset of the crazyhouse
    # drops (pawn ranks differ), our moves a subset of the chess moves.
    same = 0
    for board, peer in zip(ours, peers, strict=True):
        mine, theirs = set(our_moves(board)), set(peer_moves(peer))
        assert all(m in theirs or m.promotion for m in mine)
        same += mine == theirs
    print(f"identical move sets in {same} of {len(ours)} positions")

    for label, index in (("all", range(len(ours))), ("no card pending", plain),
                         ("card pending (drops)", pending)):
        our_boards = [ours[i] for i in index]
        peer_boards = [peers[i] for i in index]
        t_ours, t_peer = time_pair(our_boards, peer_boards, args.rounds)
        print(f"legal actions, {label:22s}: ours {t_ours / len(our_boards) * 1e6:7.2f} us, "
              f"python-chess {t_peer / len(peer_boards) * 1e6:7.2f} us per position, "
              f"ratio (python-chess / ours) {t_peer / t_ours:.2f}")

    verdicts = time_each(ours, mate_verdict, 3)
    checked = [t for board, t in zip(ours, verdicts, strict=True) if board.is_check()]
    print(f"mate_verdict(): median {statistics.median(verdicts) * 1e3:.3f} ms, "
          f"in check median {statistics.median(checked) * 1e3:.3f} ms, "
          f"max {max(verdicts) * 1e3:.3f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
