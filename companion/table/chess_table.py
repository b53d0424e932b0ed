"""The companion's view of a Raindropchess :class:`~companion.game.Game`.

The engine gets the public RFEN and the house rules, nothing else. Its turns are played
through the game's public API as a person's would be: ``flip`` flips the top card of the
side's own virtual deck (:meth:`Game.flip`), the next search then decides where the card
goes (``N@e4``), a joker's removal is ``Jxe5``, a chess move is UCI (``e7e8q`` promotes to
a blue queen).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

import chess

from companion import events
from companion.engine.contract import Analysis, Engine, EngineError
from companion.engine.levels import Level
from companion.engine.registry import RAINDROPCHESS, engine_for_game
from companion.game import Game
from companion.rules import RaindropBoard
from companion.table import words
from companion.table.budget import ClockView
from companion.table.hints import HintTurn
from companion.table.seats import CHESS_SEATS, TableSettings
from companion.table.tables import Played, Situation

LOGGER = logging.getLogger(__name__)

SEATS = CHESS_SEATS


def color_of(seat: str) -> chess.Color:
    if seat == "white":
        return chess.WHITE
    if seat == "black":
        return chess.BLACK
    raise ValueError(f"a Raindropchess seat is white or black, not {seat!r}")


def turn_squares(board: RaindropBoard, turn: str) -> tuple[str, ...]:
    """The squares an engine turn acts on: a move's from and to, a placement's or a
    removal's square; none for a flip."""
    text = turn.strip()
    if text == "flip":
        return ()
    if text[:2].lower() == "jx":
        return (text[2:].lower(),)
    try:
        move = chess.Move.from_uci(text)
    except ValueError:
        return ()
    if move.drop:
        return (chess.square_name(move.to_square),)
    return (chess.square_name(move.from_square), chess.square_name(move.to_square))


def parse_turn(board: RaindropBoard, turn: str) -> chess.Move:
    """A placement or move turn text as a legal move of ``board``; ``ValueError``."""
    text = turn.strip()
    if "@" in text:
        text = text[0].upper() + text[1:]
    move = chess.Move.from_uci(text)
    if not board.is_legal(move):
        raise ValueError(f"{turn!r} is not legal at {board.rfen()}")
    return move


class ChessTable:
    """A :class:`~companion.table.tables.TableGame` over a Raindropchess game."""

    game = RAINDROPCHESS

    def __init__(self, session: Game, settings: TableSettings | None = None) -> None:
        self.session = session
        self._settings = settings or TableSettings.from_dict(session.table, SEATS)

    @property
    def settings(self) -> TableSettings:
        return self._settings

    @property
    def engine_options(self) -> Mapping[str, str]:
        return {key: str(value) for key, value in self.session.rules.differences().items()}

    def engine(self) -> Engine:
        return engine_for_game(RAINDROPCHESS, self.engine_options)

    def key(self) -> tuple[int, str]:
        game = self.session
        offer = "" if game.draw_offer is None else chess.COLOR_NAMES[game.draw_offer]
        return len(game.actions()), f"{game.rfen()} {offer} {game.is_over}"

    def is_over(self) -> bool:
        return self.session.is_over

    def seat_to_move(self) -> str | None:
        return None if self.session.is_over else chess.COLOR_NAMES[self.session.turn]

    def situation(self) -> Situation | None:
        game = self.session
        if game.is_over or game.paused:
            return None
        offer = game.draw_offer
        if offer is not None:
            return Situation(chess.COLOR_NAMES[not offer], game.rfen(), self.key(),
                             answer_draw=True)
        claims = ("draw",) if game.can_claim_draw() else ()
        return Situation(chess.COLOR_NAMES[game.turn], game.rfen(), self.key(), claims=claims)

    def claim_choice(self, engine: Engine, situation: Situation, level: Level,
                     seed: int) -> str | None:
        if "draw" in situation.claims and engine.accepts_draw(situation.position, level=level,
                                                               seed=seed):
            return "draw"
        return None

    def offer_choice(self, engine: Engine, situation: Situation, level: Level,
                     seed: int) -> bool:
        return False  # the companion claims a draw it wants; it does not offer one

    def play(self, seat: str, turn: str, analysis: Analysis | None) -> Played:
        game = self.session
        color = color_of(seat)
        if game.is_over or game.turn != color:
            raise ValueError(f"it is not {seat}'s turn")
        board = game.board
        text = turn.strip()
        if text == "flip":
            event = game.flip()
            said = words.flip_sentence(color, event.card, event.outcome)
        elif text[:2].lower() == "jx":
            description = words.chess_description(board, text)
            game.remove(chess.parse_square(text[2:].lower()))
            said = words.sentence(seat, description)
        else:
            move = parse_turn(board, text)
            description = words.move_description(board, move)
            game.play(move)
            said = words.sentence(seat, description)
        after = game.board
        if after.is_check() and not game.is_over:
            said += " " + words.check_sentence(after.turn)
        return Played(said, turn_squares(board, text))

    def answer_draw(self, seat: str, accept: bool) -> str:
        color = color_of(seat)
        if accept:
            self.session.accept_draw(color)
        else:
            self.session.decline_draw(color)
        return words.draw_answer_sentence(seat, accept)

    def claim(self, seat: str, claim: str) -> str:
        if claim != "draw" or not self.session.claim_draw():
            raise ValueError(self.session.why_cannot_claim_draw() or f"cannot claim {claim}")
        outcome = self.session.outcome
        reason = outcome.describe() if outcome is not None else "a draw"
        return f"{words.side_words(seat)} claims a draw: {reason}."

    def offer_draw(self, seat: str) -> str:
        self.session.offer_draw(color_of(seat))
        return words.offer_sentence(seat)

    def actors(self) -> list[str]:
        board = self.session.board
        actors: list[str] = []
        while board.actions:
            board.pop()
            actors.append(chess.COLOR_NAMES[board.turn])
        actors.reverse()
        return actors

    def can_undo(self) -> bool:
        return self.session.can_undo()

    def undo_one(self) -> None:
        self.session.undo()

    def clock(self, seat: str) -> ClockView | None:
        clock = self.session.clock
        if clock is None:
            return None
        settings = clock.settings
        return ClockView(clock.remaining(color_of(seat)), settings.increment + settings.delay)

    def hints_used(self, seat: str) -> int:
        return self.session.hints_used.get(seat, 0)

    def note_hint(self, seat: str) -> None:
        self.session.note_hint(color_of(seat))

    def hint_turns(self, analysis: Analysis, count: int
                   ) -> tuple[tuple[HintTurn, ...], tuple[str, ...]]:
        try:
            board = RaindropBoard(analysis.position, rules=self.session.rules)
        except ValueError as error:
            raise EngineError(str(error)) from None
        mover = analysis.mover
        other = analysis.notes.get("opponent", "the opponent")
        turns = tuple(HintTurn(c.turn, words.chess_description(board, c.turn),
                               words.estimate(c, mover, other), c.value)
                      for c in analysis.candidates[:count])
        squares = turn_squares(board, turns[0].turn) if turns else ()
        return turns, squares

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        def on_event(event: events.GameEvent) -> None:
            if not isinstance(event, events.ClockTick):
                listener()

        return self.session.subscribe(on_event)
