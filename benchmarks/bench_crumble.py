"""Benchmark Crumble successor generation against the plain peer, measured in the same run.

Positions come from seeded random 6x6 games (a uniform action, then a random swap walk that
stops with probability 0.35 before each step, as in the rules file, section 11). For each
position both the engine (``RULES.successors``) and ``plain_crumble.successors`` list every
successor; the sets must agree. Prints per-ply-band times, the ratio plain / engine (above
1.0: the engine is faster) and successors per second; then times the step builder on
positions of about 200 pieces (listing the first steps, taking the action, listing swap
steps, taking a swap step).

Run: ``python benchmarks/bench_crumble.py [--games N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import plain_crumble

from companion.games.crumble import RULES, CrumblePosition

STOP = 0.35


def random_turn(pos: CrumblePosition, rng: random.Random) -> CrumblePosition:
    """One random turn through the step builder: an action, then a random swap walk."""
    builder = RULES.builder(pos)
    builder = builder.add(rng.choice(builder.next_steps()))
    while rng.random() >= STOP:
        steps = builder.next_steps()
        if not steps:
            break
        builder = builder.add(rng.choice(steps))
    return builder.position


def random_game(seed: int, plies: int, **options: str) -> list[CrumblePosition]:
    """The positions of a seeded random game, start first, until it ends or ``plies``."""
    rng = random.Random(seed)
    pos = RULES.start(**options)
    out = [pos]
    for _ in range(plies):
        if RULES.outcome(pos) is not None:
            break
        pos = random_turn(pos, rng)
        out.append(pos)
    return out


def timed(call: object, arg: object) -> tuple[float, object]:
    start = time.perf_counter()
    result = call(arg)  # type: ignore[operator]
    return time.perf_counter() - start, result


def bench_successors(games: int, seed: int, plies: Sequence[int]) -> None:
    print(f"successors on positions from {games} random 6x6 games, plies {list(plies)}")
    print(f"{'ply':>5} {'pieces':>7} {'succ':>6} {'engine ms':>10} {'plain ms':>10} {'ratio':>6}")
    ours_total = theirs_total = 0.0
    count = 0
    ratios = []
    for g in range(games):
        line = random_game(seed + g, max(plies))
        for ply in plies:
            if ply >= len(line):
                continue
            pos = line[ply]
            fresh = CrumblePosition(pos.text())  # nothing cached from the game
            t_plain, theirs = timed(plain_crumble.successors, pos.text())
            t_ours, ours = timed(RULES.successors, fresh)
            assert isinstance(ours, frozenset) and isinstance(theirs, set)
            if {p.text() for p in ours} != theirs:
                raise SystemExit(f"MISMATCH at game {g} ply {ply}: {pos.text()}")
            ours_total += t_ours
            theirs_total += t_plain
            count += len(ours)
            ratios.append(t_plain / t_ours)
            print(f"{ply:>5} {len(pos.state.rects):>7} {len(ours):>6} {t_ours * 1e3:>10.1f} "
                  f"{t_plain * 1e3:>10.1f} {t_plain / t_ours:>6.1f}")
    print(f"total: engine {ours_total:.2f} s, plain {theirs_total:.2f} s, "
          f"ratio {theirs_total / ours_total:.1f}x (median per position "
          f"{statistics.median(ratios):.1f}x); engine {count / ours_total:,.0f} successors/s, "
          f"plain {count / theirs_total:,.0f} successors/s")


def bench_builder(seed: int, target: int) -> None:
    """Step builder timings on positions with about ``target`` pieces."""
    rng = random.Random(seed)
    g = 0
    picked: list[CrumblePosition] = []
    while len(picked) < 3 and g < 40:
        for pos in random_game(seed + 1000 + g, 400):
            if len(pos.state.rects) >= target and RULES.outcome(pos) is None:
                picked.append(pos)
                break
        g += 1
    if not picked:
        print(f"builder: no random game reached {target} pieces")
        return
    times: dict[str, list[float]] = {"read position": [], "first steps": [], "action": [],
                                     "swap steps": [], "swap step": []}
    for pos in picked:
        start = time.perf_counter()
        fresh = RULES.parse(pos.text())
        times["read position"].append(time.perf_counter() - start)
        start = time.perf_counter()
        builder = RULES.builder(fresh)
        steps = builder.next_steps()
        times["first steps"].append(time.perf_counter() - start)
        for _ in range(20):
            step = rng.choice(steps)
            start = time.perf_counter()
            after = builder.add(step)
            times["action"].append(time.perf_counter() - start)
            start = time.perf_counter()
            swaps = after.next_steps()
            times["swap steps"].append(time.perf_counter() - start)
            while swaps:
                start = time.perf_counter()
                after = after.add(rng.choice(swaps))
                times["swap step"].append(time.perf_counter() - start)
                swaps = after.next_steps()
                if rng.random() < STOP:
                    break
    pieces = [len(p.state.rects) for p in picked]
    print(f"step builder on {len(picked)} positions of {pieces} pieces (median / max ms):")
    for name, values in times.items():
        if values:
            print(f"  {name:>13}: {statistics.median(values) * 1e3:6.2f} / "
                  f"{max(values) * 1e3:6.2f} ms  ({len(values)} timed)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=20261123)
    parser.add_argument("--plies", type=int, nargs="*", default=[0, 20, 40, 80])
    parser.add_argument("--pieces", type=int, default=200, help="builder position size")
    args = parser.parse_args(argv)
    bench_successors(args.games, args.seed, args.plies)
    bench_builder(args.seed, args.pieces)
    bench_playouts(args.seed)
    return 0


def bench_playouts(seed: int, games: int = 2, plies: int = 16) -> None:
    """Random games (a random successor each turn) from the start, engine and plain."""
    start = RULES.start()

    def mine() -> None:
        rng = random.Random(seed)
        for _ in range(games):
            pos = start
            for _ in range(plies):
                kids = sorted(RULES.successors(pos), key=lambda p: p.text())
                if not kids:
                    break
                pos = rng.choice(kids)

    def theirs() -> None:
        rng = random.Random(seed)
        for _ in range(games):
            plain_crumble.playout(start.text(), rng, plies)

    t0 = time.perf_counter()
    mine()
    t1 = time.perf_counter()
    theirs()
    t2 = time.perf_counter()
    print(f"random games of {plies} turns from the start: engine {games / (t1 - t0):.2f}/s, "
          f"plain {games / (t2 - t1):.2f}/s, ratio {(t2 - t1) / (t1 - t0):.1f}x")


if __name__ == "__main__":
    raise SystemExit(main())
