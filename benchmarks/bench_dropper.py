"""Benchmark Dropper's successor generation and playouts against the plain implementation.

Positions come from seeded uniformly random 8 x 8 games (every position of each
game, the final ones included). Timed, in the same run, round by round,
alternating which goes first so load on a shared machine hits both alike (the
answers are checked equal first):

- successors in process: the engine lists the successor positions of a
  position (its own form: masks, text written on demand) against the plain
  implementation listing the successor texts of a text (its own form);
- ``raindrop games next``: both read a text and write the sorted successor texts;
- playouts: random games to the end from the start, the engine's search
  playout against the plain one drawing turns the same way.

Prints each ratio plain / engine (above 1.0: the engine is faster). Run from the
repository root: ``python benchmarks/bench_dropper.py [--games N] [--rounds R] [--size N]``.
"""

from __future__ import annotations

import argparse
import random
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


def engine_successors(pos: object) -> int:
    return len(RULES.successors(pos))  # type: ignore[arg-type]


def plain_successors(text: str) -> int:
    return len(plain_dropper.successors(text))


def engine_next(text: str) -> list[str]:
    return sorted(p.text() for p in RULES.successors(RULES.parse(text)))


def plain_next(text: str) -> list[str]:
    return sorted(plain_dropper.successors(text))


def time_pair(mine_work: Callable[[], object], plain_work: Callable[[], object],
              rounds: int) -> tuple[float, float]:
    """The best (least) seconds over ``rounds`` of the engine's and the plain code's work:
    the run least disturbed by other load on a shared machine."""
    mine: list[float] = []
    theirs: list[float] = []
    order = ((mine_work, mine), (plain_work, theirs))
    for number in range(rounds):
        for work, times in order if number % 2 == 0 else order[::-1]:
            start = time.perf_counter()
            work()
            times.append(time.perf_counter() - start)
    return min(mine), min(theirs)


def playouts(size: int, count: int, seed: int) -> tuple[float, float]:
    """Seconds for ``count`` playouts from the start: the engine's, the plain one's."""
    from companion.games.dropper.bot import DropperDomain, Playout, state_of, tables

    start = RULES.start(size=str(size))
    playout = Playout(DropperDomain(tables(start.grid)))
    state = state_of(start)
    text = start.text()

    def mine() -> None:
        rng = random.Random(seed)
        for _ in range(count):
            playout.evaluate(state, rng)

    def plain() -> None:
        rng = random.Random(seed)
        for _ in range(count):
            plain_dropper.playout(text, rng)

    return time_pair(mine, plain, 3)


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
    positions = [RULES.parse(text) for text in texts]
    t_engine, t_plain = time_pair(lambda: [engine_successors(p) for p in positions],
                                  lambda: [plain_successors(t) for t in texts], args.rounds)
    print(f"successors, engine: {t_engine / len(texts) * 1e6:8.1f} us a position, "
          f"{total / t_engine:10.0f} successors/s")
    print(f"successors, plain : {t_plain / len(texts) * 1e6:8.1f} us a position, "
          f"{total / t_plain:10.0f} successors/s")
    print(f"successors ratio (plain / engine) {t_plain / t_engine:.1f}")
    t_engine, t_plain = time_pair(lambda: [engine_next(t) for t in texts],
                                  lambda: [plain_next(t) for t in texts], args.rounds)
    print(f"next (text in, sorted texts out) ratio (plain / engine) {t_plain / t_engine:.1f}")
    count = 200
    t_engine, t_plain = playouts(args.size, count, args.seed)
    print(f"playouts from the start: engine {count / t_engine:.0f}/s, plain "
          f"{count / t_plain:.0f}/s, ratio (plain / engine) {t_plain / t_engine:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
