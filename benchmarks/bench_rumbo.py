"""Benchmark Rumbo successor generation ("next") against the plain implementation, same run.

Positions are taken from seeded random games on N x N (default 9x9, komi 0,
every placement of the play phase until the board is full). For each position
both sides do what ``raindrop games next`` does: read the position text and
produce the canonical text of every successor. The engine is also timed
from an already-parsed position to positions (what the app's hints and
sensing call). Both answers are compared first, so the timing is of equal work.

Prints the ratio plain time / engine time (above 1.0: the engine is faster)
and successors per second. Run:
``python benchmarks/bench_rumbo.py [--games G] [--size N] [--rounds R]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
for path in (HERE, HERE.parent):  # this checkout's engine and plain implementation
    if str(path) not in sys.path[:2]:
        sys.path.insert(0, str(path))

import plain_rumbo  # noqa: E402

from companion.games.rumbo import RULES, RumboPosition  # noqa: E402
from companion.games.rumbo.bot import Playout, RumboDomain, state_of  # noqa: E402
from companion.games.rumbo.fast import masks  # noqa: E402


def random_positions(games: int, size: int, seed: int) -> list[str]:
    """Every play-phase position, before each placement, of ``games`` random games."""
    rng = random.Random(seed)
    texts: list[str] = []
    for _ in range(games):
        options = {"size": str(size), "komi": "0"}
        pos = RULES.start(**options)
        while not pos.full:
            texts.append(pos.text())
            pos = RULES.play(pos, rng.choice(list(RULES.turns(pos))))
    return texts


def best_of(rounds: int, work: Callable[[], int]) -> tuple[float, int]:
    """The fastest of ``rounds`` runs of ``work`` (seconds) and what it counted."""
    best = float("inf")
    count = 0
    for _ in range(rounds):
        start = time.perf_counter()
        count = work()
        best = min(best, time.perf_counter() - start)
    return best, count


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2016)
    args = parser.parse_args(argv)
    texts = random_positions(args.games, args.size, args.seed)
    for text in texts:
        mine = {p.text() for p in RULES.successors(RULES.parse(text))}
        if mine != plain_rumbo.successors(text):
            raise SystemExit(f"engine and plain implementation disagree on {text}")
    parsed: list[RumboPosition] = [RULES.parse(text) for text in texts]
    fields = [{k: v for k, v in vars(pos).items() if k not in ("stones", "groups")}
              for pos in parsed]

    def engine_texts() -> int:
        return sum(len({p.text() for p in RULES.successors(RULES.parse(t))}) for t in texts)

    def engine_positions() -> int:
        # fresh positions each round: the group tables are worked out in the timing too
        fresh = [RumboPosition.fast(f, pos.stones) for f, pos in zip(fields, parsed, strict=True)]
        return sum(len(RULES.successors(pos)) for pos in fresh)

    def plain() -> int:
        return sum(len(plain_rumbo.successors(text)) for text in texts)

    plain_s, plain_n = best_of(args.rounds, plain)
    text_s, text_n = best_of(args.rounds, engine_texts)
    pos_s, pos_n = best_of(args.rounds, engine_positions)
    assert plain_n == text_n == pos_n
    n = args.size
    print(f"Rumbo {n}x{n}: {len(texts)} positions from {args.games} random games, "
          f"{plain_n} successors; best of {args.rounds}")
    print(f"  plain   text -> successor texts     {plain_s * 1e3:8.1f} ms  "
          f"{plain_n / plain_s:10,.0f} successors/s")
    print(f"  engine  text -> successor texts     {text_s * 1e3:8.1f} ms  "
          f"{text_n / text_s:10,.0f} successors/s  ratio {plain_s / text_s:.1f}x")
    print(f"  engine  position -> positions       {pos_s * 1e3:8.1f} ms  "
          f"{pos_n / pos_s:10,.0f} successors/s  ratio {plain_s / pos_s:.1f}x")
    count = 100
    start_pos = RULES.start(size=str(n), komi="0")
    domain = RumboDomain(masks(n), 0)
    playout = Playout(domain)
    state = state_of(start_pos)
    start_text = start_pos.text()

    def mine() -> int:
        rng = random.Random(args.seed)
        return sum(1 for _ in range(count) if playout.evaluate(state, rng) >= 0)

    def theirs() -> int:
        rng = random.Random(args.seed)
        return sum(1 for _ in range(count) if plain_rumbo.playout(start_text, rng))

    mine_s, _ = best_of(args.rounds, mine)
    theirs_s, _ = best_of(args.rounds, theirs)
    print(f"  playouts from the empty board: engine {count / mine_s:,.0f}/s, plain "
          f"{count / theirs_s:,.0f}/s, ratio {theirs_s / mine_s:.1f}x")


if __name__ == "__main__":
    main()
