"""Fit the Raindropchess evaluation's weights to game results (logistic regression).

    python benchmarks/fit_raindrop_eval.py --games 150 --seed 100 --nodes 3000 --out fit.jsonl
    python benchmarks/fit_raindrop_eval.py --data fit.jsonl        # refit saved positions

Plays engine self-play games under the referee (seeds ``--seed`` onwards, never
the seeds the strength tables report), keeps every position with nothing
pending and the side to move not in check, and fits the expected score of the
side to move as ``sigmoid(sum(beta_i * term_i))`` over the evaluation's terms
(:data:`companion.engine.raindropchess.evaluation.TERMS`). It prints the betas,
the scale (centipawns per unit of log-odds, ``1 / beta_board_material``) and
each term's weight in centipawns, which is what ``evaluation.py`` holds, and
the fit's log-loss against the evaluation as it stands.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from raindrop_players import EnginePlayer  # noqa: E402
from raindrop_referee import Referee, RefereeRules  # noqa: E402

from companion.engine.raindropchess import evaluation  # noqa: E402
from companion.engine.raindropchess.position import Position  # noqa: E402
from companion.rules import HouseRules, RaindropBoard  # noqa: E402


def play(seed: int, nodes: int, rules: HouseRules) -> list[tuple[str, float]]:
    """One self-play game: its quiet positions with the mover's final score."""
    referee = Referee(RefereeRules(), seed)
    players = {True: EnginePlayer(rules, 3, nodes=nodes, seed=seed),
               False: EnginePlayer(rules, 3, nodes=nodes, seed=seed + 1)}
    seen: list[tuple[str, bool]] = []
    while referee.ending is None:
        rfen = referee.rfen()
        board = RaindropBoard(rfen, rules=rules)
        if not board.pending and not board.is_check():
            seen.append((rfen, board.turn))
        referee.play(players[referee.white_to_move].choose(rfen))
    winner = referee.ending.winner
    return [(rfen, 0.5 if winner is None else float(winner == turn)) for rfen, turn in seen]


def fit(rows: list[tuple[str, float]], rules: HouseRules, drop: tuple[str, ...] = ()) -> None:
    """Fit and print the weights; terms in ``drop`` are held at 0."""
    x = np.array([evaluation.terms(Position.from_rfen(rfen, rules)) for rfen, _ in rows])
    for name in drop:
        x[:, evaluation.TERMS.index(name)] = 0.0
    y = np.array([score for _, score in rows])
    scale = np.abs(x).mean(axis=0) + 1e-9
    z = x / scale
    beta = np.zeros(x.shape[1])
    for _ in range(50):  # Newton's method, a little ridge for stability
        p = 1 / (1 + np.exp(-(z @ beta)))
        grad = z.T @ (p - y) + 1e-3 * beta
        hess = (z.T * (p * (1 - p))) @ z + 1e-3 * np.eye(len(beta))
        beta -= np.linalg.solve(hess, grad)
    beta = beta / scale
    p = np.clip(1 / (1 + np.exp(-(x @ beta))), 1e-9, 1 - 1e-9)
    loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    current = np.array([evaluation.win_chance(evaluation.evaluate(
        Position.from_rfen(rfen, rules))) for rfen, _ in rows])
    current = np.clip(current, 1e-9, 1 - 1e-9)
    before = -np.mean(y * np.log(current) + (1 - y) * np.log(1 - current))
    print(f"{len(rows)} positions; log-loss: fitted {loss:.4f}, evaluation now {before:.4f}, "
          f"coin {math.log(2):.4f}")
    unit = beta[0]
    print(f"scale: {1 / unit:.0f} centipawns per unit of log-odds")
    for name, value in zip(evaluation.TERMS, beta, strict=True):
        print(f"  {name:<18} beta {value: .6f}   weight {value / unit: .3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--nodes", type=int, default=3000)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--data", type=Path, action="append")
    parser.add_argument("--drop", action="append", default=[], choices=evaluation.TERMS,
                        help="hold a term's weight at 0")
    args = parser.parse_args()
    rules = HouseRules()
    rows: list[tuple[str, float]] = []
    for path in args.data or []:
        for line in path.read_text().splitlines():
            item = json.loads(line)
            rows.append((item[0], float(item[-1])))
    if not args.data:
        for seed in range(args.seed, args.seed + args.games):
            game = play(seed, args.nodes, rules)
            rows += game
            if args.out is not None:
                with args.out.open("a") as handle:
                    for rfen, score in game:
                        handle.write(json.dumps([rfen, score]) + "\n")
            print(f"game {seed}: {len(game)} positions", flush=True)
    fit(rows, rules, tuple(args.drop))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
