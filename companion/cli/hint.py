"""``hint`` in terminal play: the engine's suggestion for the side to move, and its chance.

The engine thinks on its own thread (:func:`~companion.engine.thinker.think`)
while the terminal keeps reading commands; the answer is handed back to the
terminal's thread and said only if the position is still the one it was asked
about. The engine sees the game's public RFEN and house rules, nothing else.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import chess

from companion.engine.contract import Analysis, Budget
from companion.engine.levels import DEFAULT_LEVEL, LevelError, level
from companion.engine.raindropchess import RaindropchessEngine
from companion.engine.thinker import Thinking, think
from companion.engine.words import chance_words
from companion.game import Game
from companion.rules import RaindropBoard

LOGGER = logging.getLogger(__name__)


def describe_turn(board: RaindropBoard, turn: str) -> str:
    """A turn text in words: ``flip a card``, ``place the knight on e4``, ``play Nf3``."""
    if turn == "flip":
        return "flip a card"
    if turn.startswith("Jx"):
        square = chess.parse_square(turn[2:])
        piece = board.piece_at(square)
        name = chess.piece_name(piece.piece_type) if piece is not None else "piece"
        return f"remove the {name} on {turn[2:]} ({turn})"
    move = chess.Move.from_uci(turn)
    if move.drop:
        return f"place the {chess.piece_name(move.drop)} on {chess.square_name(move.to_square)}"
    return f"play {board.san(move)} ({turn})"


def hint_text(game_board: RaindropBoard, analysis: Analysis) -> str:
    """The hint said to the players."""
    mover = analysis.mover
    other = analysis.notes.get("opponent", "the opponent")
    words = chance_words(analysis.chosen.value, mover, other, proof=analysis.chosen.proof)
    return f"Hint for {mover.capitalize()}: {describe_turn(game_board, analysis.chosen.turn)}. " \
           f"{words}."


class Hinter:
    """Asks the engine for hints and hands its answers to the terminal's thread."""

    def __init__(self, deliver: Callable[[Callable[[], None]], None],
                 say: Callable[[str], None]) -> None:
        self._deliver = deliver
        self._say = say
        self._thinking: Thinking | None = None
        self._position = ""

    def ask(self, game: Game, args: list[str]) -> None:
        """Start a hint at level ``args[0]`` (1-5; default the default level)."""
        if game.is_over:
            self._say("The game is over: no hint.")
            return
        try:
            chosen = level(args[0] if args else DEFAULT_LEVEL)
        except LevelError as error:
            self._say(f"Not understood: {error}")
            return
        if self._thinking is not None and not self._thinking.done():
            self._thinking.stop()
        self._position = game.rfen()
        engine = RaindropchessEngine(game.rules)
        self._say(f"Thinking about a hint ({chosen})...")
        self._thinking = think(engine, self._position, level=chosen,
                               budget=Budget.for_level(chosen),
                               on_done=lambda thinking: self._deliver(
                                   lambda: self._show(game, thinking)))

    def _show(self, game: Game, thinking: Thinking) -> None:
        if thinking is not self._thinking:
            return  # a newer hint was asked for
        self._thinking = None
        if game.rfen() != self._position:
            self._say("(The hint was for an earlier position: type hint again.)")
            return
        try:
            analysis = thinking.result(timeout=0)
        except (ValueError, TimeoutError) as error:
            self._say(f"No hint: {error}")
            return
        self._say(hint_text(game.board, analysis))

    def finish(self, game: Game) -> None:
        """At the end of input: wait for a hint still being thought and say it."""
        thinking = self._thinking
        if thinking is not None:
            thinking.wait()
            self._show(game, thinking)
