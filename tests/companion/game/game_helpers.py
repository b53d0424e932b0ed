"""Shared helpers for the session tests: seeded random playouts, fixed decks."""

from __future__ import annotations

import random

import chess

from companion.cards import Decks
from companion.game import Game
from companion.rules import HouseRules

FULL = "KQRRBBNNPPPPPPPP"


def fixed_decks(white_top: str, black_top: str, rules: HouseRules | None = None) -> Decks:
    """Full decks whose top cards are ``white_top``/``black_top`` (see Decks.stacked)."""
    return Decks.stacked(white_top, black_top, rules)


def random_step(game: Game, rng: random.Random) -> str:
    """Take one random legal action; returns it as text."""
    if game.pending is not None and game.pending.upper() == "J":
        square = rng.choice(list(game.legal_removals()))
        game.remove(square)
        return f"remove {chess.square_name(square)}"
    options = []
    if game.can_flip():
        options.append("flip")
    moves = game.legal_moves()
    if moves:
        options.append("move")
    choice = rng.choice(options)
    if choice == "flip":
        game.flip()
        return "flip"
    move = rng.choice(moves)
    game.play(move)
    return move.uci()


def playout(game: Game, rng: random.Random, limit: int = 600) -> list[str]:
    """Random legal actions until the game ends (or ``limit``)."""
    steps = []
    while not game.is_over and len(steps) < limit:
        steps.append(random_step(game, rng))
    return steps
