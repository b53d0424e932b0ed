"""Benchmark the session layer against the bare rules engine, measured in the same run.

Replays the same random games three ways and times each action:

- peer: ``RaindropBoard`` alone (``flip(card)``, ``push``, ``push_removal``);
- ``Game`` without a journal (decks, events, undo bookkeeping, deck checks);
- ``Game`` with its journal (each action appended and ``fsync``-ed to disk).

Prints the median time per action of each and the ratios to the peer (above
1.0: slower than the bare board). Run:
``python benchmarks/bench_game.py [--games N] [--rounds R]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

import chess

from companion.game import Game
from companion.journal import Journal
from companion.rules import ActionKind, HouseRules, RaindropBoard

RULES = (HouseRules(), HouseRules(jokers_per_deck=2, joker_effect="remove_piece"))


def record_games(count: int) -> list[tuple[HouseRules, int, list[str]]]:
    """Random games as (rules, seed, actions as text: flip / UCI / remove SQ)."""
    games = []
    for index in range(count):
        rules = RULES[index % len(RULES)]
        game = Game(rules, seed=index)
        rng = random.Random(index)
        lines: list[str] = []
        while not game.is_over and len(lines) < 300:
            if game.pending is not None and game.pending.upper() == "J":
                square = rng.choice(list(game.legal_removals()))
                game.remove(square)
                lines.append(f"remove {chess.square_name(square)}")
            elif game.can_flip() and (not game.legal_moves() or rng.random() < 0.6):
                game.flip()
                lines.append("flip")
            else:
                move = rng.choice(game.legal_moves())
                game.play(move)
                lines.append(move.uci())
        games.append((rules, index, lines))
    return games


def time_board(rules: HouseRules, seed: int, lines: list[str]) -> list[float]:
    reference = Game(rules, seed=seed)
    for line in lines:
        _apply(reference, line)
    board = RaindropBoard(rules=rules)
    times = []
    for action in reference.actions():
        start = time.perf_counter()
        if action.kind == ActionKind.FLIP:
            assert action.card is not None
            board.flip(action.card)
        elif action.kind == ActionKind.MOVE:
            assert action.move is not None
            board.push(action.move)
        else:
            assert action.square is not None
            board.push_removal(action.square)
        times.append(time.perf_counter() - start)
    return times


def _apply(game: Game, line: str) -> None:
    if line == "flip":
        game.flip()
    elif line.startswith("remove "):
        game.remove(chess.parse_square(line.split()[1]))
    else:
        game.play(chess.Move.from_uci(line))


def time_game(rules: HouseRules, seed: int, lines: list[str], folder: Path | None,
              ) -> list[float]:
    journal = Journal.create(folder) if folder is not None else None
    game = Game(rules, seed=seed, journal=journal)
    times = []
    for line in lines:
        start = time.perf_counter()
        _apply(game, line)
        times.append(time.perf_counter() - start)
    if journal is not None:
        journal.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    games = record_games(args.games)
    board_t: list[float] = []
    game_t: list[float] = []
    journal_t: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.rounds):
            for rules, seed, lines in games:
                board_t += time_board(rules, seed, lines)
                game_t += time_game(rules, seed, lines, None)
                journal_t += time_game(rules, seed, lines, Path(tmp))
    board_m = statistics.median(board_t)
    game_m = statistics.median(game_t)
    journal_m = statistics.median(journal_t)
    actions = sum(len(lines) for _, _, lines in games)
    print(f"{actions} actions x {args.rounds} rounds")
    print(f"peer RaindropBoard   median {board_m * 1e6:8.1f} us/action")
    print(f"Game, no journal     median {game_m * 1e6:8.1f} us/action  "
          f"ratio to peer {game_m / board_m:.1f}")
    print(f"Game + fsync journal median {journal_m * 1e6:8.1f} us/action  "
          f"ratio to peer {journal_m / board_m:.1f}")


if __name__ == "__main__":
    main()
