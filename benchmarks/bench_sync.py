"""Snapshot-to-decision time of BoardSync against the plain picochess method.

Peer (plain baseline, same run): for every snapshot, compute the board each legal
action would leave (copy the position, push the action) and compare it with the
snapshot, committing when exactly one matches; this is what picochess does with
an e-board's FEN. BoardSync indexes the resulting boards once per position (a
dict keyed by the occupancy bitboard) and keeps the order of events.

Both replay the same snapshot streams (random legal games: pieces lifted, pieces
set down, captures in both orders; occupancy-only and colour snapshots) on their
own game, and the time of each ``decide(snapshot)`` call is measured: the decision
alone (the time spent inside ``game.play``/``undo``/``remove`` taken out: the same
Game code for both), and with the game's commit included. Prints the median and
the 90th percentile per snapshot, the ratio, and the wrong actions each committed
(the plain method takes a piece held over a square it could capture for the
capture on an occupancy-only board).

    python benchmarks/bench_sync.py [--games 40] [--actions 60] [--seed 7]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import chess

from companion.game import Game
from companion.sensors.snapshot import BoardSnapshot
from companion.sync import BoardSync
from companion.sync.position import board_colours, snapshot_colours

Step = tuple[str, object]  # ("flip", None) | ("snap", BoardSnapshot) | ("end", chess.Move)


def _snap(board: chess.Board, colors: bool, lifted: int = 0) -> BoardSnapshot:
    snapshot = BoardSnapshot.of_board(board, with_colors=colors)
    if not lifted:
        return snapshot
    occupied = snapshot.mask & ~lifted
    cols = None
    if snapshot.colors is not None:
        cols = {sq: c for sq, c in snapshot.colors.items() if chess.BB_SQUARES[sq] & occupied}
    return BoardSnapshot(chess.SquareSet(occupied), cols)


def make_stream(seed: int, actions: int, colors: bool) -> list[Step]:
    """One random game as a stream of flips (done on the screen) and snapshots."""
    rng = random.Random(seed)
    game = Game(seed=seed)
    steps: list[Step] = [("snap", _snap(game.board, colors))]
    done = 0
    while not game.is_over and done < actions:
        if game.pending is not None and game.pending.upper() == "J":
            break
        moves = game.legal_moves()
        if game.can_flip() and (not moves or rng.random() < 0.3):
            game.flip()
            steps.append(("flip", None))
            continue
        if not moves:
            break
        move = rng.choice(moves)
        board = game.board
        if not move.drop:
            origin = chess.BB_SQUARES[move.from_square]
            target = chess.BB_SQUARES[move.to_square]
            if board.occupied & target and rng.random() < 0.5:
                steps.append(("snap", _snap(board, colors, target)))
            else:
                steps.append(("snap", _snap(board, colors, origin)))
            if board.occupied & target:
                steps.append(("snap", _snap(board, colors, origin | target)))
        game.play(move)
        steps.append(("snap", _snap(game.board, colors)))
        steps.append(("end", move))
        done += 1
    return steps


class Picochess:
    """The plain method: every legal resulting board computed for every snapshot."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def decide(self, snapshot: BoardSnapshot) -> None:
        board = self.game.board
        colours = snapshot_colours(snapshot)
        matches = []
        for move in self.game.legal_moves():
            after = board.copy(stack=False)
            after.push(move)
            if after.occupied != snapshot.mask:
                continue
            if colours is not None and board_colours(after) != colours:
                continue
            matches.append(move)
        if len(matches) == 1:
            self.game.play(matches[0])


def _time_commits(game: Game) -> list[int]:
    """Wrap the game's play/undo/remove so the time spent inside them is known."""
    spent = [0]
    for name in ("play", "undo", "remove"):
        method = getattr(game, name)

        def timed(*args: object, _method: Callable[..., None] = method) -> None:
            start = time.perf_counter_ns()
            try:
                _method(*args)
            finally:
                spent[0] += time.perf_counter_ns() - start

        setattr(game, name, timed)
    return spent


def replay(streams: list[list[Step]], seeds: list[int],
           make: Callable[[Game], Callable[[BoardSnapshot], object]], *,
           with_commit: bool) -> tuple[list[float], int]:
    """Times of every decision (with or without the game's own commit inside it),
    and how many wrong actions were committed."""
    times: list[float] = []
    wrong = 0
    for stream, seed in zip(streams, seeds, strict=True):
        game = Game(seed=seed)
        spent = _time_commits(game)
        decide = make(game)
        start_count = 0
        for kind, item in stream:
            if kind == "flip":
                game.flip()
                start_count = len(game.board.actions)
            elif kind == "end":
                assert isinstance(item, chess.Move)
                actions = game.board.actions
                if len(actions) == start_count + 1 and actions[-1].move == item:
                    pass
                else:
                    if len(actions) > start_count:
                        wrong += 1
                    while len(game.board.actions) > start_count:
                        game.undo()
                    game.play(item)  # not committed (a held piece, a question) or wrong
                start_count = len(game.board.actions)
            else:
                assert isinstance(item, BoardSnapshot)
                spent[0] = 0
                start = time.perf_counter_ns()
                decide(item)
                elapsed = time.perf_counter_ns() - start
                times.append(elapsed / 1e6 if with_commit else (elapsed - spent[0]) / 1e6)
    return times, wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--actions", type=int, default=60)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print(f"board sync: {args.games} random games per mode, up to {args.actions} actions each")
    for colors in (False, True):
        seeds = [args.seed * 1000 + i for i in range(args.games)]
        streams = [make_stream(seed, args.actions, colors) for seed in seeds]
        for with_commit in (False, True):
            plain, plain_wrong = replay(streams, seeds, lambda game: Picochess(game).decide,
                                        with_commit=with_commit)
            ours, our_wrong = replay(streams, seeds, lambda game: BoardSync(game).update,
                                     with_commit=with_commit)
            mode = "colour" if colors else "occupancy"
            what = "game's commit included" if with_commit else "decision only"
            p_med, o_med = statistics.median(plain), statistics.median(ours)
            p90 = statistics.quantiles(plain, n=10)[-1]
            o90 = statistics.quantiles(ours, n=10)[-1]
            print(f"  {mode}, {what}: {len(ours)} snapshots")
            print(f"    picochess method (peer) median {p_med:.3f} ms  p90 {p90:.3f} ms  "
                  f"wrong commits {plain_wrong}")
            print(f"    BoardSync               median {o_med:.3f} ms  p90 {o90:.3f} ms  "
                  f"wrong commits {our_wrong}")
            print(f"    ratio (peer / BoardSync, median) {p_med / o_med:.1f}x")


if __name__ == "__main__":
    main()
