"""Benchmark the Raindrops engine against the plain peer, measured in the same run.

Positions come from random 8x8 and 12x12 games (turns built at random through
the step builder, fixed seed). Times, per board size:

- successor generation ("next"): ``RULES.successors`` against
  ``plain_raindrops.successors``; prints the ratio plain / ours and successors
  per second;
- the target check ("does B follow from A", what sensing asks): ``RULES.turns_to``
  against ``plain_raindrops.follows`` (which lists every successor), on a
  successor of A and on a position two turns away (not a successor); prints
  the ratio and the slowest check;
- what play needs at the table, in milliseconds (median and slowest): the step
  builder's first steps, its next steps after each step of a random turn,
  checking a typed turn (``canonical_turn`` then ``play``), and ``turns_to``.

Run from the repository root: ``python -m benchmarks.bench_raindrops [--games G]
[--positions N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import plain_raindrops as plain

from companion.games.raindrops import RULES, RaindropsPosition


def random_turn(pos: RaindropsPosition, rng: random.Random) -> str:
    builder = RULES.builder(pos)
    while True:
        steps = builder.next_steps()
        if not steps or (builder.complete and rng.random() < 0.35):
            return builder.turn()
        builder = builder.add(rng.choice(steps))


def positions(size: int, games: int, count: int, seed: int) -> list[RaindropsPosition]:
    rng = random.Random(seed)
    seen: list[RaindropsPosition] = []
    for game in range(games):
        pos = RULES.start(size=str(size), layout="sparse" if game % 3 == 2 else "full")
        while RULES.outcome(pos) is None:
            seen.append(pos)
            pos = RULES.play(pos, random_turn(pos, rng))
    rng.shuffle(seen)
    return seen[:count]


def pairs(sample: list[RaindropsPosition], seed: int) -> list[tuple[RaindropsPosition, str, bool]]:
    """(position, target text, is a successor): one successor and one two turns away each."""
    rng = random.Random(seed)
    out = []
    for pos in sample:
        succ = sorted(RULES.successors(pos), key=RaindropsPosition.text)
        one = rng.choice(succ)
        out.append((pos, one.text(), True))
        if RULES.outcome(one) is None:
            two = RULES.play(one, random_turn(one, rng))
            far = RaindropsPosition(two.size, two.board, one.side)
            out.append((pos, far.text(), far in succ))
    return out


def bench(size: int, games: int, count: int, seed: int) -> None:
    sample = positions(size, games, count, seed)
    texts = [p.text() for p in sample]
    ours = [RULES.successors(p) for p in sample]
    theirs = [plain.successors(t) for t in texts]
    assert all({p.text() for p in a} == b for a, b in zip(ours, theirs, strict=True))
    mine_times, plain_times = [], []
    for number in range(3):  # the best of three rounds, alternating who goes first
        for work, times in ((lambda: [RULES.successors(p) for p in sample], mine_times),
                            (lambda: [plain.successors(t) for t in texts], plain_times)
                            )[:: 1 if number % 2 == 0 else -1]:
            start = time.perf_counter()
            work()
            times.append(time.perf_counter() - start)
    t0, t1, t2 = 0.0, min(mine_times), min(mine_times) + min(plain_times)
    total = sum(len(s) for s in ours)
    sizes = sorted(len(s) for s in ours)
    print(f"{size}x{size}: {len(sample)} positions, successors mean {total / len(sample):.0f}, "
          f"median {statistics.median(sizes):.0f}, max {sizes[-1]}")
    print(f"  successors: engine {t1 - t0:.3f} s ({total / (t1 - t0):,.0f}/s), "
          f"plain {t2 - t1:.3f} s ({total / (t2 - t1):,.0f}/s), ratio {(t2 - t1) / (t1 - t0):.1f}x")
    checks = pairs(sample, seed + 1)
    worst = 0.0
    t3 = time.perf_counter()
    for pos, target, _ in checks:
        s = time.perf_counter()
        RULES.turns_to(pos, RULES.parse(target))
        worst = max(worst, time.perf_counter() - s)
    t4 = time.perf_counter()
    answers = [plain.follows(pos.text(), target) for pos, target, _ in checks]
    t5 = time.perf_counter()
    ours_answers = [bool(RULES.turns_to(pos, RULES.parse(t))) for pos, t, _ in checks]
    assert answers == ours_answers == [is_next for _, _, is_next in checks]
    print(f"  target check ({len(checks)} pairs): engine {1e3 * (t4 - t3) / len(checks):.2f} ms "
          f"each (slowest {1e3 * worst:.2f} ms), plain {1e3 * (t5 - t4) / len(checks):.1f} ms "
          f"each, ratio {(t5 - t4) / (t4 - t3):.0f}x")
    latency(sample, seed + 2)


def latency(sample: list[RaindropsPosition], seed: int) -> None:
    rng = random.Random(seed)
    times: dict[str, list[float]] = {"first steps": [], "next steps": [], "check a turn": [],
                                     "turns_to": []}
    for pos in sample:
        s = time.perf_counter()
        builder = RULES.builder(pos)
        steps = builder.next_steps()
        times["first steps"].append(time.perf_counter() - s)
        while steps and not (builder.complete and rng.random() < 0.35):
            builder = builder.add(rng.choice(steps))
            s = time.perf_counter()
            steps = builder.next_steps()
            times["next steps"].append(time.perf_counter() - s)
        turn = builder.turn()
        s = time.perf_counter()
        RULES.play(pos, RULES.canonical_turn(pos, turn))
        times["check a turn"].append(time.perf_counter() - s)
        s = time.perf_counter()
        RULES.turns_to(pos, builder.position)
        times["turns_to"].append(time.perf_counter() - s)
    print("  at the table: " + ", ".join(
        f"{name} {1e3 * statistics.median(v):.2f} ms (slowest {1e3 * max(v):.2f})"
        for name, v in times.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="random games per board size")
    parser.add_argument("--positions", type=int, default=40, help="positions per board size")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for size in (8, 12):
        bench(size, args.games, args.positions, args.seed)
    playouts(8, 20, args.seed)


def playouts(size: int, count: int, seed: int) -> None:
    """Random games to the end from the start (a random successor each turn), both ways."""
    start = RULES.start(size=str(size))

    def mine() -> None:
        rng = random.Random(seed)
        for _ in range(count):
            pos = start
            while True:
                kids = sorted(RULES.successors(pos), key=lambda p: p.board)
                if not kids:
                    break
                pos = rng.choice(kids)

    def theirs() -> None:
        rng = random.Random(seed)
        for _ in range(count):
            plain.playout(start.text(), rng)

    t0 = time.perf_counter()
    mine()
    t1 = time.perf_counter()
    theirs()
    t2 = time.perf_counter()
    print(f"{size}x{size} random games to the end: engine {count / (t1 - t0):.1f}/s, plain "
          f"{count / (t2 - t1):.1f}/s, ratio {(t2 - t1) / (t1 - t0):.1f}x")


if __name__ == "__main__":
    main()
