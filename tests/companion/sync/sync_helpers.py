"""Shared helpers for the board-sync tests: games set up by scripted actions, a
simulated board wired to a session, and a record of every decision."""

from __future__ import annotations

import chess

from companion.cards import Decks
from companion.game import Game
from companion.rules import HouseRules
from companion.sensors.simulated import SimulatedBoard
from companion.sync import PhysicalBoardSession, SyncKind, SyncResult


def decks_with(white_top: str, black_top: str, rules: HouseRules | None = None) -> Decks:
    """Full decks whose top cards are ``white_top``/``black_top`` (see Decks.stacked)."""
    return Decks.stacked(white_top, black_top, rules)


def game_after(actions: str, *, rules: HouseRules | None = None, white_next: str = "",
               black_next: str = "") -> Game:
    """A game after ``actions`` (space separated): ``N@e4`` flips the top card and
    places it (the decks are stacked so the right card comes up), ``flip:N`` flips
    a stacked N, else a move in SAN/UCI. ``white_next``/``black_next``: cards stacked
    after those."""
    tokens = actions.split()
    white, black = [], []
    turn = chess.WHITE
    for token in tokens:
        card = token.split("@")[0] if "@" in token else \
            token.split(":")[1] if token.startswith("flip:") else None
        if card is not None:
            (white if card.isupper() else black).append(card)
        turn = not turn
    rules = rules or HouseRules()
    game = Game(rules, decks=decks_with("".join(white) + white_next,
                                        "".join(black) + black_next, rules))
    for token in tokens:
        if "@" in token:
            event = game.flip()
            assert event.card == token.split("@")[0], (event.card, token)
            game.play_text(token)
        elif token.startswith("flip:"):
            game.flip()
        else:
            game.play_text(token)
    return game


class Table:
    """A game, a simulated board showing its position, and a session between them."""

    def __init__(self, game: Game, *, colors: bool = False, touch_move: str | None = None,
                 settle: float = 0.25) -> None:
        self.game = game
        self.board = SimulatedBoard(colors=colors, settle=settle)
        self.board.set_position(game.board)
        self.results: list[SyncResult] = []
        self.session = PhysicalBoardSession(game, self.board, self.results.append,
                                            touch_move=touch_move)
        self.session.start()

    @property
    def last(self) -> SyncResult:
        return self.results[-1]

    def kinds(self) -> list[SyncKind]:
        return [r.kind for r in self.results]

    def since(self, count: int) -> list[SyncResult]:
        return self.results[count:]

    def sq(self, name: str) -> chess.Square:
        return chess.parse_square(name)

    def do(self, *commands: str) -> SyncResult:
        """Type physical commands; returns the last decision."""
        for command in commands:
            assert self.board.handle_command(command), self.board.last_message
        return self.last
