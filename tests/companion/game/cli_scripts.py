"""Scripted games for the CLI tests: the same seeded game played in-process gives
the lines to type, and the expected end state."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import chess

from companion.game import Game
from companion.rules import HouseRules


def scripted_game(seed: int, rules: HouseRules | None = None, *,
                  stop: Callable[[Game], bool] | None = None, flip_bias: float = 0.7,
                  limit: int = 900) -> tuple[list[str], Game]:
    """Random legal actions (as typed text: flip, SAN or UCI, remove SQ) until ``stop``
    or the end of the game."""
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    lines: list[str] = []
    while not game.is_over and len(lines) < limit:
        if stop is not None and stop(game):
            break
        if game.pending is not None and game.pending.upper() == "J":
            square = rng.choice(list(game.legal_removals()))
            game.remove(square)
            lines.append(f"remove {chess.square_name(square)}")
            continue
        moves = game.legal_moves()
        if game.can_flip() and (not moves or rng.random() < flip_bias):
            game.flip()
            lines.append("flip")
            continue
        move = rng.choice(moves)
        board = game.board
        lines.append(board.san(move) if rng.random() < 0.5 else move.uci())
        game.play(move)
    return lines, game


def find_game(predicate: Callable[[Game], bool], *, start: int = 0, tries: int = 400,
              rules: HouseRules | None = None, stop: Callable[[Game], bool] | None = None,
              flip_bias: float = 0.7) -> tuple[int, list[str], Game]:
    for seed in range(start, start + tries):
        lines, game = scripted_game(seed, rules, stop=stop, flip_bias=flip_bias)
        if predicate(game):
            return seed, lines, game
    raise AssertionError("no seed gave the wanted game")


def run_cli(args: list[str], lines: list[str], data_dir: Path, *,
            env: dict[str, str] | None = None, timeout: float = 240,
            ) -> subprocess.CompletedProcess[str]:
    full_env = dict(os.environ, RAINDROP_DATA_DIR=str(data_dir), PYTHONUNBUFFERED="1")
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "companion", *args],
                          input="\n".join(lines) + "\n", capture_output=True, text=True,
                          env=full_env, timeout=timeout, check=False)
