"""Fit Raindrops' leaf value (``VALUE_WEIGHTS`` in ``companion/games/raindrops/bot.py``)
to the results of self-play games (logistic regression, no intercept).

    python benchmarks/fit_raindrops_value.py --level 1 --games 40 --seed 500 --out g.jsonl
    python benchmarks/fit_raindrops_value.py --level 2 --games 25 --seed 600 --out g.jsonl
    python benchmarks/fit_raindrops_value.py --data g.jsonl         # refit saved games

Plays the engine against itself on 8x8 at a level's fixed playout budget (the
benchmark's calibration, as ``bench_engine.py`` plays the levels), game k with
seed ``--seed`` + k, and keeps every position of a game with the game's result.
Use seeds the strength tables never report (they use 1000-1600 and 3000 up).
Every fourth game is held out of the fit; the script prints the fitted weights
and the held-out log-loss of the fit, of the value as it stands (``heuristic``),
of the priors' race (``race``) and of a coin.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
for path in (str(HERE), str(HERE.parent)):
    if path not in sys.path:
        sys.path.insert(0, path)

from bench_engine import CALIBRATION  # noqa: E402  (the levels' playouts a second)

from companion import games  # noqa: E402
from companion.engine.abstract import make_engine  # noqa: E402
from companion.engine.contract import Budget  # noqa: E402
from companion.engine.levels import level  # noqa: E402
from companion.games.raindrops import bot  # noqa: E402
from companion.games.raindrops.position import parse_position  # noqa: E402


def play(number: int, seed: int) -> dict[str, object]:
    """One self-play game at level ``number``: its positions and the winner."""
    rules = games.get("raindrops")
    engine = make_engine("raindrops", {})
    chosen = level(number)
    budget = Budget(playouts=round(CALIBRATION["raindrops"] * chosen.seconds))
    pos = rules.start(size="8")
    texts: list[str] = []
    while rules.outcome(pos) is None:
        analysis = engine.analyse(pos.text(), level=chosen, budget=budget,
                                  seed=seed * 1000 + len(texts))
        texts.append(pos.text())
        pos = rules.play(pos, analysis.chosen.turn)
    outcome = rules.outcome(pos)
    assert outcome is not None
    return {"seed": seed, "level": number, "result": outcome.result, "positions": texts}


def rows_of(items: list[dict[str, object]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Terms, Black's result and the game's seed, one row a position."""
    x, y, seeds = [], [], []
    for item in items:
        black_won = 1.0 if item["result"] == "black" else 0.0
        positions = item["positions"]
        assert isinstance(positions, list)
        for text in positions:
            x.append(bot.value_terms(parse_position(text)))
            y.append(black_won)
            seeds.append(item["seed"])
    return np.array(x), np.array(y), np.array(seeds)


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1.0) -> np.ndarray:
    """Logistic regression by Newton's method, a little ridge for stability."""
    beta = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ beta)))
        grad = x.T @ (p - y) + ridge * beta
        hess = (x.T * (p * (1 - p))) @ x + ridge * np.eye(len(beta))
        beta -= np.linalg.solve(hess, grad)
    return beta


def report(items: list[dict[str, object]]) -> None:
    x, y, seeds = rows_of(items)
    held = np.isin(seeds, sorted(set(seeds.tolist()))[::4])
    beta = fit(x[~held], y[~held])
    texts = [text for item in items for text in item["positions"]]  # type: ignore[attr-defined]
    now = np.array([bot.heuristic(parse_position(t)) for t in texts])
    race = np.array([bot.race(parse_position(t)) for t in texts])
    fitted = 1 / (1 + np.exp(-(x @ beta)))
    print(f"{len(y)} positions of {len(items)} games, {int(held.sum())} held out")
    print("weights: " + ", ".join(f"{name} {value:.3f}"
                                  for name, value in zip(bot.VALUE_TERMS, beta, strict=True)))
    print(f"held-out log-loss: fit {log_loss(fitted[held], y[held]):.4f}, "
          f"value now {log_loss(now[held], y[held]):.4f}, race {log_loss(race[held], y[held]):.4f}"
          f", coin {math.log(2):.4f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", type=int, default=1)
    parser.add_argument("--games", type=int, default=0)
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--out", type=Path, help="append the games here (JSON lines)")
    parser.add_argument("--data", type=Path, action="append", default=[],
                        help="saved games to fit on as well (repeatable)")
    args = parser.parse_args()
    items: list[dict[str, object]] = []
    for path in args.data:
        items += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    for k in range(args.games):
        item = play(args.level, args.seed + k)
        items.append(item)
        if args.out is not None:
            with args.out.open("a") as handle:
                handle.write(json.dumps(item) + "\n")
        print(f"game {args.seed + k}: {item['result']}, {len(item['positions'])} turns",  # type: ignore[arg-type]
              flush=True)
    if not items:
        parser.error("no games: give --games or --data")
    report(items)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
