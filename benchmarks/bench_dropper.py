"""Benchmark Dropper's successor generation ("next") against the plain implementation.

Positions come from seeded uniformly random 8 x 8 games (every position of each
game, the final ones included). For each position both sides do what
``raindrop games next`` does: read the position text and list every successor
as a sorted list of canonical position texts. The engine and
``plain_dropper`` are timed in the same run, round by round, alternating
which goes first so load on a shared machine hits both alike; the results are
checked equal first.

Prints the ratio plain / engine (above 1.0: the engine is faster) and the
successors per second of each. Run from the repository root:
``python benchmarks/bench_dropper.py [--games N] [--rounds R] [--size N]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
for path in (str(HERE), str(HERE.parent)):
    if path not in sys.path:
        sys.path.insert(0, path)

import plain_dropper  # noqa: E402

from companion.games.dropper import RULES  # noqa: E402


def random_positions(games: int, size: int, seed: int) -> list[str]:
    """The position texts of ``games`` random games on a size x size board."""
    rng = random.Random(seed)
    texts: list[str] = []
    for _ in range(games):
        pos = RULES.start(size=str(size))
        while True:
            texts.append(pos.text())
            after = sorted(p.text() for p in RULES.successors(pos))
            if not after:
                break
            pos = RULES.parse(rng.choice(after))
    return texts


def engine_next(text: str) -> list[str]:
    return sorted(p.text() for p in RULES.successors(RULES.parse(text)))


def plain_next(text: str) -> list[str]:
    return sorted(plain_dropper.successors(text))


def time_pair(texts: Sequence[str], rounds: int) -> tuple[float, float]:
    """Median seconds over ``rounds`` for the engine and the plain code to do every text."""
    mine: list[float] = []
    theirs: list[float] = []
    order: tuple[tuple[Callable[[str], list[str]], list[float]], ...] = (
        (engine_next, mine), (plain_next, theirs))
    for number in range(rounds):
        for generate, times in order if number % 2 == 0 else order[::-1]:
            start = time.perf_counter()
            for text in texts:
                generate(text)
            times.append(time.perf_counter() - start)
    return statistics.median(mine), statistics.median(theirs)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--size", type=int, default=8)
    parser.add_argument("--seed", type=int, default=20261123)
    args = parser.parse_args(argv)

    texts = random_positions(args.games, args.size, args.seed)
    total = 0
    for text in texts:
        mine = engine_next(text)
        assert mine == plain_next(text), text
        total += len(mine)
    print(f"{len(texts)} positions from {args.games} random {args.size} x {args.size} games, "
          f"{total} successors ({total / len(texts):.1f} a position, "
          f"most {max(len(engine_next(t)) for t in texts)})")
    t_engine, t_plain = time_pair(texts, args.rounds)
    print(f"next, engine: {t_engine / len(texts) * 1e6:8.1f} us a position, "
          f"{total / t_engine:10.0f} successors/s")
    print(f"next, plain : {t_plain / len(texts) * 1e6:8.1f} us a position, "
          f"{total / t_plain:10.0f} successors/s")
    print(f"ratio (plain / engine) {t_plain / t_engine:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
