"""A Raindropchess session: the secret decks, the turn flow, undo/redo, the clock,
draws and resignations, events out (the contract: :class:`Game`'s public methods and
the events of :mod:`companion.events`).

The :class:`~companion.rules.RaindropBoard` is the single source of truth for
the position; the :class:`Game` adds what the board does not hold: the decks'
order, the redo stack, session results (agreement, resignation, time), the
clock, the journal and the listeners. Every committed change is written to
the journal (fsync) before any listener hears of it.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import secrets
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import chess

from companion import events
from companion.cards import DeckError, Decks
from companion.clock import Clock, ClockSettings
from companion.events import GameEvent
from companion.journal import JournalWriter
from companion.rules import (
    Action,
    ActionKind,
    FlipOutcome,
    HouseRules,
    IllegalActionError,
    IllegalFlipError,
    IllegalRemovalError,
    MateVerdict,
    Outcome,
    RaindropBoard,
    Termination,
    mate_verdict,
    parse_card_letter,
)

LOGGER = logging.getLogger(__name__)

JOURNAL_FORMAT = "raindrop-journal"
JOURNAL_VERSION = 2  # 2: the decks' order and seed sealed, takebacks shuffle

Listener = Callable[[GameEvent], None]

_UCI_RE = "abcdefgh"
_MOVE_LIKE = re.compile(
    r"[NBKRQ]?[a-h]?[1-8]?[-x]?[a-h][1-8](?:=?[nbrqkNBRQK])?[+#]?"
    r"|[PNBRQKpnbrqk]?@[a-h][1-8][+#]?|[a-h][1-8][a-h][1-8][nbrqNBRQ]?")


class GameOverError(IllegalActionError):
    """An action after the game has ended."""


@dataclasses.dataclass(frozen=True)
class _Redo:
    kind: ActionKind             # a move or a removal: a flip is never redone
    move: chess.Move | None = None
    square: chess.Square | None = None


_FLIP_WORDS = {
    FlipOutcome.UNPLACEABLE: "unplaceable",
    FlipOutcome.FAILED_RESCUE: "failed rescue",
    FlipOutcome.RETURNED: "returned",
    FlipOutcome.EXTRA_TURN: "extra turn",
    FlipOutcome.NO_EFFECT: "no effect",
}


def _side(color: chess.Color) -> str:
    return "white" if color == chess.WHITE else "black"


def _mask(squares: Iterable[chess.Square]) -> chess.Bitboard:
    mask = chess.BB_EMPTY
    for square in squares:
        mask |= chess.BB_SQUARES[square]
    return mask


def _check_square(square: Any, what: str = "square") -> chess.Square:
    """``square`` as a python-chess square; TypeError/ValueError name the problem."""
    if isinstance(square, bool) or not isinstance(square, int):
        raise TypeError(f"the {what} must be a chess.Square (an int 0-63, e.g. chess.E4), "
                        f"not {type(square).__name__}")
    if not 0 <= square < 64:
        raise ValueError(f"the {what} {square} is not a square (0-63, a1 is 0, h8 is 63)")
    return square


def _check_move(move: Any) -> chess.Move:
    if not isinstance(move, chess.Move):
        raise TypeError(f"expected a chess.Move (e.g. chess.Move.from_uci('e2e3') or "
                        f"Game.parse_move('e3')), not {type(move).__name__}")
    return move


class Game:
    """One game at the table: both decks, the board, the clock, the record."""

    def __init__(self, rules: HouseRules | None = None, *, seed: int | None = None,
                 clock: ClockSettings | None = None, journal: JournalWriter | None = None,
                 now: Callable[[], float] = time.monotonic,
                 decks: Decks | None = None, table: Mapping[str, Any] | None = None) -> None:
        self.rules: HouseRules = rules if rules is not None else HouseRules()
        self.table: dict[str, Any] = dict(table or {})
        """Who sits where and the hint limit, as :mod:`companion.table.seats` writes them
        (empty: two persons); kept in the journal's header."""
        self.hints_used: dict[str, int] = {"white": 0, "black": 0}
        """Hints given to each side so far (journaled, so a resumed game keeps them)."""
        self.seed = seed
        if decks is None:
            decks = Decks.shuffled(self.rules, seed)
        else:
            decks = Decks.from_order(decks.export_order(), self.rules)
        self._decks = decks
        self._initial_order = decks.export_order()
        self._board = RaindropBoard(rules=self.rules)
        self._texts: list[str] = []         # one description per board action
        self._redo: list[_Redo] = []
        self._result: Outcome | None = None  # agreement, resignation, claim, time
        self._draw_offer: chess.Color | None = None
        self._listeners: list[Listener] = []
        self._now = now
        self.clock: Clock | None = Clock(clock, now) if clock is not None else None
        if self.clock is not None:
            self.clock.start(chess.WHITE)
        self._paused = False
        self._replaying = False
        self._journal: JournalWriter | None = None
        self.entries = 0  # committed journal entries
        if journal is not None:
            journal.begin(self.export_header())
            self._journal = journal

    # ------------------------------------------------------------------
    # State

    @property
    def board(self) -> RaindropBoard:
        """A copy of the board (with its history): changing it never changes the game."""
        return self._board.copy()

    def rfen(self) -> str:
        return self._board.rfen()

    @property
    def turn(self) -> chess.Color:
        return self._board.turn

    @property
    def fullmove_number(self) -> int:
        """The move number, as PGN counts it (it goes up after Black's turn)."""
        return self._board.fullmove_number

    @property
    def pending(self) -> str | None:
        """The RFEN letter of the flipped card awaiting placement (or a joker's removal)."""
        return self._board.pending

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended: the board's outcomes plus agreement, resignation, time."""
        if self._result is not None:
            return self._result
        return self._board.outcome()

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def draw_offer(self) -> chess.Color | None:
        """The side whose draw offer stands, if any."""
        return self._draw_offer

    def deck_counts(self, color: chess.Color) -> dict[str, int]:
        """Cards left by kind (public: every flipped card was seen)."""
        return self._decks.counts(color)

    def deck_size(self, color: chess.Color) -> int:
        return self._decks.size(color)

    def export_initial_order(self) -> dict[str, list[str]]:
        """The decks' order at the start (secret: journal, PGN header, replays, tests)."""
        return {side: list(cards) for side, cards in self._initial_order.items()}

    def export_next_card(self) -> str | None:
        """The card the side to move would flip next (secret: replays and tests only)."""
        return self._decks.export_top(self._board.turn)

    def export_deck_order(self) -> dict[str, list[str]]:
        """The decks' order now (secret: journal checks, replays, tests)."""
        return self._decks.export_order()

    def export_played_order(self) -> dict[str, list[str]]:
        """An order of the decks at the start that replays this game's actions as they
        stand (takebacks shuffle cards back, so it can differ from the first shuffle):
        for a record of the finished game, never for players during it."""
        decks = self._decks.copy()
        for action in reversed(self._board.actions):
            if action.kind != ActionKind.FLIP:
                continue
            assert action.card is not None and action.outcome is not None
            _, color = parse_card_letter(action.card)
            if action.outcome.to_bottom:
                decks.take_bottom(color, action.card)
            decks.put_top(color, action.card)
        return decks.export_order()

    def export_header(self) -> dict[str, Any]:
        """What a record needs to rebuild this game. Its ``secret`` (the decks' order
        and the seed) must be stored sealed: the journal does so."""
        return {
            "format": JOURNAL_FORMAT,
            "version": JOURNAL_VERSION,
            "rules": self.rules.to_dict(),
            "secret": {"seed": self.seed, "decks": self.export_initial_order()},
            "clock": self.clock.settings.to_dict() if self.clock is not None else None,
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            **({"table": dict(self.table)} if self.table else {}),
        }

    def actions(self) -> list[Action]:
        """The board's actions since the start, oldest first."""
        return self._board.actions

    def action_texts(self) -> list[str]:
        """One description per action (``flip N``, ``N@e4``, ``Jxe5`` ...)."""
        return list(self._texts)

    def san_history(self) -> list[str]:
        """Every action in order, a flip and its placement written as the drop
        (``N@e4``), flips that placed nothing in words (``flip P (unplaceable)``),
        a joker's removal as ``Jxe5``; a flip still pending as ``flip N``."""
        history: list[str] = []
        actions = self._board.actions
        for index, (action, text) in enumerate(zip(actions, self._texts, strict=True)):
            if action.kind == ActionKind.FLIP and action.outcome in (
                    FlipOutcome.PLACE, FlipOutcome.REMOVE_PIECE) and index + 1 < len(actions):
                continue  # folded into the placement or removal that follows
            history.append(text)
        return history

    # ------------------------------------------------------------------
    # Queries

    def can_flip(self) -> bool:
        return self._result is None and self._board.can_flip()

    def why_cannot_flip(self) -> str | None:
        if self._result is not None:
            return f"the game is over ({self._result.describe()})"
        return self._board.why_cannot_flip()

    def legal_moves(self) -> list[chess.Move]:
        """The drops of the pending card, else the legal chess moves (none when over)."""
        if self.is_over:
            return []
        return list(self._board.legal_moves)

    def targets(self, square: chess.Square) -> chess.SquareSet:
        """Legal destinations of the piece on ``square`` (empty while a card is pending)."""
        _check_square(square)
        if self.is_over or self._board.pending:
            return chess.SquareSet()
        moves = self._board.generate_legal_moves(chess.BB_SQUARES[square])
        return chess.SquareSet(_mask(m.to_square for m in moves))

    def drop_targets(self) -> chess.SquareSet:
        """Where the pending card may go (or which pieces a pending joker may remove)."""
        if self.is_over:
            return chess.SquareSet()
        if self._board.pending and self._board.pending.upper() == "J":
            return self._board.legal_removals()
        return chess.SquareSet(_mask(m.to_square for m in self._board.generate_legal_drops()))

    def promotion_choices(self, from_sq: chess.Square, to_sq: chess.Square,
                          ) -> list[chess.PieceType]:
        """Blue pieces a pawn going ``from_sq``-``to_sq`` may become (empty: no promotion)."""
        _check_square(from_sq, "from square")
        _check_square(to_sq, "to square")
        if self.is_over:
            return []
        return [m.promotion for m in self._board.generate_legal_moves(
            chess.BB_SQUARES[from_sq], chess.BB_SQUARES[to_sq]) if m.promotion]

    def legal_removals(self) -> chess.SquareSet:
        if self.is_over:
            return chess.SquareSet()
        return self._board.legal_removals()

    def mate_verdict(self) -> MateVerdict:
        return mate_verdict(self._board)

    def why_illegal(self, move: chess.Move) -> str | None:
        _check_move(move)
        if self._result is not None:
            return f"the game is over ({self._result.describe()})"
        return self._board.why_illegal(move)

    def can_undo(self) -> bool:
        return self.why_cannot_undo() is None

    def can_redo(self) -> bool:
        return not self.is_over and bool(self._redo)

    # ------------------------------------------------------------------
    # Listeners

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every event from now on; returns the unsubscribe function."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def _emit(self, items: list[GameEvent]) -> None:
        if self._replaying:
            return
        for event in items:
            for listener in list(self._listeners):
                try:
                    listener(event)
                except Exception:
                    LOGGER.exception("a game listener failed on %s", type(event).__name__)

    # ------------------------------------------------------------------
    # Committing

    def _ensure_playable(self) -> None:
        self._check_time()
        outcome = self.outcome
        if outcome is not None:
            raise GameOverError(f"the game is over ({outcome.describe()})")

    @contextmanager
    def _transaction(self) -> Iterator[list[GameEvent]]:
        """Collect events of one change; on any failure restore board and decks."""
        saved_actions = len(self._board.actions)
        saved_top = self._board.peek_action() if saved_actions else None
        saved_decks = self._decks.copy()
        saved_texts = list(self._texts)
        saved_redo = list(self._redo)
        saved_clock = self.clock.state() if self.clock is not None else None
        saved_result, saved_offer, saved_paused = self._result, self._draw_offer, self._paused
        was_over = self.is_over
        items: list[GameEvent] = []
        try:
            yield items
        except BaseException:
            self._restore_board(saved_actions, saved_top)
            self._decks = saved_decks
            self._texts, self._redo = saved_texts, saved_redo
            self._result, self._draw_offer, self._paused = saved_result, saved_offer, \
                saved_paused
            if self.clock is not None and saved_clock is not None:
                self.clock.restore(saved_clock, running=self.clock.running is not None)
            raise
        outcome = self.outcome
        if outcome is not None and not was_over:
            if self.clock is not None:
                self.clock.stop()
            items.append(events.GameOver(outcome))

    def _restore_board(self, count: int, top: Action | None) -> None:
        """Roll the board back to ``count`` actions (only ever forward of it, or one
        undone action to replay)."""
        board = self._board
        while len(board.actions) > count:
            board.pop()
        if len(board.actions) < count and top is not None:
            # An undo failed after popping: replay the popped action.
            if top.kind == ActionKind.FLIP:
                assert top.card is not None
                board.flip(top.card)
            elif top.kind == ActionKind.MOVE:
                assert top.move is not None
                board.push(top.move)
            else:
                assert top.square is not None
                board.push_removal(top.square)

    def _record(self, entry: dict[str, Any]) -> None:
        """Write an entry to the journal (fsync inside) before anyone hears of it."""
        self._check_consistency()
        if self.clock is not None:
            entry["clock"] = self.clock.state()
        if self._journal is not None and not self._replaying:
            self._journal.append(entry)
        self.entries += 1

    def _check_consistency(self) -> None:
        for color in chess.COLORS:
            if self._decks.counts(color) != self._board.deck(color):
                raise AssertionError(
                    f"internal error: the {_side(color)} deck {self._decks.counts(color)} "
                    f"differs from the board's {self._board.deck(color)}")

    def _position_changed(self, items: list[GameEvent]) -> None:
        items.append(events.PositionChanged(self._board.rfen(), self._board.turn,
                                            self._board.pending))

    def _turn_ended(self, before: chess.Color) -> None:
        """Clock and draw offer bookkeeping after an action."""
        if self._board.turn == before:
            return
        if self.clock is not None and self._result is None:
            self.clock.switch(self._board.turn)
        if self._draw_offer is not None and self._draw_offer != before:
            self._draw_offer = None  # the offer lapses once the opponent has played

    # ------------------------------------------------------------------
    # Actions

    def flip(self) -> events.CardFlipped:
        """Draw the top card of the side to move and apply it (R7, R8, R12)."""
        self._ensure_playable()
        reason = self._board.why_cannot_flip()
        if reason is not None:
            raise IllegalFlipError(reason)
        color = self._board.turn
        with self._transaction() as items:
            card = self._decks.draw(color)
            event = self._apply_flip(card, color, items)
            self._redo.clear()
            self._record({"a": "flip", "card": card})
        self._emit(items)
        return event

    def flip_card(self, card: str) -> events.CardFlipped:
        """Flip a named card from wherever it lies in the deck: only for replaying a
        record whose deck order is unknown (a PGN without ``RaindropDecks``)."""
        self._ensure_playable()
        reason = self._board.why_cannot_flip()
        if reason is not None:
            raise IllegalFlipError(reason)
        color = self._board.turn
        with self._transaction() as items:
            try:
                self._decks.take(color, card)
            except DeckError as error:
                raise IllegalFlipError(str(error)) from None
            event = self._apply_flip(card, color, items)
            self._redo.clear()
            self._record({"a": "flip", "card": card})
        self._emit(items)
        return event

    def reshuffle_decks(self) -> None:
        """Shuffle what is left of both decks (after replaying a record without the
        decks' order, so further flips are not predictable)."""
        order = self._decks.export_order()
        rng = secrets.SystemRandom()
        for cards in order.values():
            rng.shuffle(cards)
        self._decks = Decks.from_order(order)

    def _apply_flip(self, card: str, color: chess.Color, items: list[GameEvent],
                    ) -> events.CardFlipped:
        result = self._board.flip(card)
        if result.outcome.to_bottom:
            self._decks.put_bottom(color, card)
        word = _FLIP_WORDS.get(result.outcome)
        self._texts.append(f"flip {card}" + (f" ({word})" if word else ""))
        event = events.CardFlipped(color, card, result.outcome, result.targets,
                                   self._decks.size(color))
        items.append(event)
        if result.outcome in (FlipOutcome.FAILED_RESCUE, FlipOutcome.RETURNED):
            items.append(events.RescueFailed(color, card,
                                             result.outcome == FlipOutcome.FAILED_RESCUE))
        self._turn_ended(color)
        self._position_changed(items)
        LOGGER.info("%s flipped %s: %s", _side(color), card, result.outcome.value)
        return event

    def play(self, move: chess.Move) -> None:
        """Place the pending card (a drop) or make a chess move; raises
        :class:`IllegalActionError` with the reason and changes nothing if illegal."""
        _check_move(move)
        self._ensure_playable()
        if not self._board.is_legal(move):
            raise IllegalActionError(self._board.why_illegal(move) or "not a legal action now")
        with self._transaction() as items:
            self._apply_move(move, items)
            self._redo.clear()
            self._record({"a": "move", "uci": move.uci()})
        self._emit(items)

    def _apply_move(self, move: chess.Move, items: list[GameEvent]) -> None:
        board = self._board
        color = board.turn
        san = board.san(move)
        captured = None if move.drop else board.piece_type_at(move.to_square)
        board.push(move)
        self._texts.append(san)
        if move.drop:
            items.append(events.PiecePlaced(color, move, san))
        else:
            items.append(events.MovePlayed(color, move, san, captured))
            if move.promotion:
                items.append(events.Promoted(color, move.to_square, move.promotion))
        self._check_event(items)
        self._turn_ended(color)
        self._position_changed(items)

    def _check_event(self, items: list[GameEvent]) -> None:
        board = self._board
        if board.is_check():
            king = board.king(board.turn)
            assert king is not None
            items.append(events.Check(board.turn, board.attackers(not board.turn, king)))

    def play_text(self, text: str) -> chess.Move:
        """Play an action written in SAN or UCI (``e3``, ``N@e4``, ``e2e3``, ``a7a8q``),
        or, while a card is pending, just the square to place it on (``e4``)."""
        move = self.parse_move(text)
        self.play(move)
        return move

    def parse_san(self, text: str) -> chess.Move:
        """A legal action written in SAN (``e3``, ``N@e4``, ``exd5``, ``a8=Q``) as it stands in
        a record; ``ValueError`` (python-chess's) when it is not one. For what a player types,
        :meth:`parse_move`."""
        return self._board.parse_san(text)

    def parse_move(self, text: str) -> chess.Move:
        """Read SAN or UCI into a legal move now (a bare square such as ``e4`` places a
        pending card there); :class:`IllegalActionError` says why not, also once the
        game is over."""
        if not isinstance(text, str):
            raise TypeError(f"a move is text such as 'e3' or 'N@e4', not "
                            f"{type(text).__name__}")
        self._ensure_playable()
        board = self._board
        raw = text.strip()
        if not raw:
            raise IllegalActionError("empty input: type a move such as e3, N@e4 or e2e3")
        pending = board.pending_piece
        if pending is not None and raw.lower() in chess.SQUARE_NAMES:
            raw = f"{chess.piece_symbol(pending).upper()}@{raw.lower()}"
        if not _MOVE_LIKE.fullmatch(raw):
            raise IllegalActionError(
                f"cannot read {raw!r} as a move; write SAN (e3, Nf3, N@e4, exd5, a8=Q) or "
                f"UCI (e2e3, a7a8q)")
        if board.pending and "@" not in raw:
            raise IllegalActionError(board.why_illegal(chess.Move.null())
                                     or "the flipped card must be placed first")
        is_uci = (len(raw) in (4, 5) and raw[0] in _UCI_RE and raw[1] in "12345678"
                  and raw[2] in _UCI_RE and raw[3] in "12345678")
        try:
            move = chess.Move.from_uci(raw.lower()) if is_uci else board.parse_san(raw)
        except chess.AmbiguousMoveError:
            raise IllegalActionError(f"{raw!r} is ambiguous: say which piece, e.g. with its "
                                     f"square (Nbd2) or in UCI (b1d2)") from None
        except chess.IllegalMoveError as error:
            message = str(error)
            if "illegal san" in message:
                message = f"{raw!r} is not a legal move here"
                if not board.pending and not any(board.generate_legal_moves()):
                    message += " (" + (board.why_illegal(chess.Move(0, 1)) or "") + ")"
            raise IllegalActionError(message) from None
        except (chess.InvalidMoveError, ValueError) as error:
            raise IllegalActionError(
                f"cannot read {raw!r} as a move ({error}); write SAN (e3, Nf3, N@e4) or UCI "
                f"(e2e3, a7a8q)") from None
        if move.drop and not board.pending:
            raise IllegalActionError("no card is flipped: flip a card first, then place it")
        if not board.is_legal(move):
            raise IllegalActionError(board.why_illegal(move) or f"{raw} is not legal now")
        return move

    def remove(self, square: chess.Square) -> None:
        """Remove an opposing piece for a pending remove-piece joker (R12)."""
        _check_square(square)
        self._ensure_playable()
        if square not in self._board.legal_removals():
            # Let the board name the reason (it raises IllegalRemovalError).
            self._board.copy().push_removal(square)
            raise IllegalRemovalError("this piece cannot be removed")
        with self._transaction() as items:
            self._apply_removal(square, items)
            self._redo.clear()
            self._record({"a": "remove", "square": chess.square_name(square)})
        self._emit(items)

    def _apply_removal(self, square: chess.Square, items: list[GameEvent]) -> None:
        board = self._board
        color = board.turn
        piece = board.piece_at(square)
        assert piece is not None
        board.push_removal(square)
        self._texts.append(f"Jx{chess.square_name(square)}")
        items.append(events.PieceRemoved(color, square, piece))
        self._check_event(items)
        self._turn_ended(color)
        self._position_changed(items)

    # ------------------------------------------------------------------
    # Undo, redo

    def why_cannot_undo(self) -> str | None:
        """Why :meth:`undo` would be refused now (``None``: it would be done)."""
        outcome = self.outcome
        if outcome is not None:
            return (f"the game is over ({outcome.describe()}): a result is final and cannot "
                    f"be taken back")
        if not self._board.actions:
            return "there is nothing to undo"
        return None

    def undo(self, *, place: int | None = None) -> None:
        """Take back the last action. A flip taken back is shuffled into the rest of its
        deck (never put back on top, so no takeback reveals a card) and forgets what
        could be redone. Refused once the game is over, however it ended.

        ``place``: where a flip's card goes back into its deck (replaying a journal, which
        seals it); ``None``, in play: a secure random place."""
        self._check_time()
        reason = self.why_cannot_undo()
        if reason is not None:
            raise (GameOverError if self.is_over else IllegalActionError)(reason)
        with self._transaction() as items:
            text, place = self._undo_one(place)
            entry: dict[str, Any] = {"a": "undo"}
            if place is not None:
                entry["secret"] = {"at": place}
            self._record(entry)
            items.append(events.Undone(text))
            self._position_changed(items)
        self._emit(items)

    def _undo_one(self, at: int | None) -> tuple[str, int | None]:
        """Pop one action; a flip's card goes to place ``at`` of its deck (``None``: a
        secure random place). Returns the action's text and where the card went."""
        board = self._board
        action = board.peek_action()
        before = board.turn
        place = None
        if action.kind == ActionKind.FLIP:
            assert action.card is not None and action.outcome is not None
            _, color = parse_card_letter(action.card)
            probe = self._decks.copy()
            if action.outcome.to_bottom:
                probe.take_bottom(color, action.card)
            places = probe.undraw_places(color)
            if at is None:
                place = secrets.randbelow(places)
            elif isinstance(at, int) and not isinstance(at, bool) and 0 <= at < places:
                place = at
            else:
                raise IllegalActionError(f"the undone flip's card cannot go to place {at!r} "
                                         f"(there are {places})")
        board.pop()
        text = self._texts.pop()
        if action.kind == ActionKind.FLIP:
            assert action.card is not None and action.outcome is not None and place is not None
            if action.outcome.to_bottom:
                self._decks.take_bottom(color, action.card)
            self._decks.undraw(color, action.card, place)
            self._redo.clear()  # nothing beyond a flip can be replayed: its card is hidden
        elif action.kind == ActionKind.MOVE:
            self._redo.append(_Redo(ActionKind.MOVE, move=action.move))
        else:
            self._redo.append(_Redo(ActionKind.REMOVAL, square=action.square))
        self._draw_offer = None
        if board.turn != before and self.clock is not None:
            self.clock.start(board.turn)
        return text, place

    def redo(self) -> None:
        """Play again the last move or removal undone. A flip is never redone: its card
        went back into the deck unseen, so flip again instead."""
        self._ensure_playable()
        if not self._redo:
            raise IllegalActionError("there is nothing to redo (a flip taken back cannot be "
                                     "redone: its card went back into the deck)")
        step = self._redo[-1]
        with self._transaction() as items:
            self._redo.pop()
            if step.kind == ActionKind.MOVE:
                assert step.move is not None
                if not self._board.is_legal(step.move):
                    raise IllegalActionError("the undone move is not legal any more")
                self._apply_move(step.move, items)
            else:
                assert step.square is not None
                self._apply_removal(step.square, items)
            self._record({"a": "redo"})
            items.insert(0, events.Redone(self._texts[-1]))
        self._emit(items)

    # ------------------------------------------------------------------
    # Hints

    def note_hint(self, color: chess.Color) -> None:
        """Count a hint given to ``color`` (journaled; it changes nothing on the board and
        is never taken back)."""
        self._ensure_playable()
        side = _side(color)
        self._record({"a": "hint", "color": side})
        self.hints_used[side] += 1

    # ------------------------------------------------------------------
    # Draws, resignation

    def offer_draw(self, color: chess.Color) -> None:
        self._ensure_playable()
        if self._draw_offer == color:
            raise IllegalActionError(f"{_side(color)} has already offered a draw")
        with self._transaction() as items:
            if self._draw_offer is not None:
                # A counter-offer is an acceptance.
                self._result = Outcome(Termination.AGREEMENT, None)
                self._record({"a": "accept", "color": _side(color)})
            else:
                self._draw_offer = color
                self._record({"a": "offer", "color": _side(color)})
                items.append(events.DrawOffered(color))
        self._emit(items)

    def accept_draw(self, color: chess.Color) -> None:
        self._ensure_playable()
        if self._draw_offer is None or self._draw_offer == color:
            raise IllegalActionError(f"there is no draw offer for {_side(color)} to accept")
        with self._transaction() as items:
            self._result = Outcome(Termination.AGREEMENT, None)
            self._draw_offer = None
            self._record({"a": "accept", "color": _side(color)})
        self._emit(items)

    def decline_draw(self, color: chess.Color) -> None:
        self._ensure_playable()
        if self._draw_offer is None or self._draw_offer == color:
            raise IllegalActionError(f"there is no draw offer for {_side(color)} to decline")
        with self._transaction() as items:
            self._draw_offer = None
            self._record({"a": "decline", "color": _side(color)})
            items.append(events.DrawDeclined(color))
        self._emit(items)

    def can_claim_draw(self) -> bool:
        return not self.is_over and self._board.can_claim_draw()

    def why_cannot_claim_draw(self) -> str | None:
        if self.is_over:
            return "the game is over"
        if self._board.can_claim_draw():
            return None
        if self._board.pending:
            return "a flipped card is pending"
        return (f"no draw can be claimed: the position has not occurred three times and the "
                f"fifty-move count is {self._board.halfmove_clock // 2} moves (R10)")

    def claim_draw(self) -> bool:
        """Claim a draw by threefold repetition or the fifty-move rule (R10)."""
        self._ensure_playable()
        if not self._board.can_claim_draw():
            return False
        with self._transaction() as items:
            self._result = self._board.outcome(claim_draw=True)
            self._record({"a": "claim"})
        self._emit(items)
        return True

    def resign(self, color: chess.Color) -> None:
        self._ensure_playable()
        with self._transaction() as items:
            self._result = Outcome(Termination.RESIGNATION, not color)
            self._record({"a": "resign", "color": _side(color)})
        self._emit(items)

    # ------------------------------------------------------------------
    # Clock

    def _check_time(self) -> None:
        if self.clock is None or self._result is not None or self._replaying:
            return
        if self._board.outcome() is not None:
            return
        flagged = self.clock.flagged()
        if flagged is not None:
            self._flag(flagged)

    def flag(self, color: chess.Color) -> None:
        """``color`` lost on time (the clock here finds that itself; a journal or a PGN
        being replayed says so); :class:`GameOverError` once the game is over."""
        outcome = self.outcome
        if outcome is not None:
            raise GameOverError(f"the game is over ({outcome.describe()})")
        self._flag(color)

    def _flag(self, color: chess.Color) -> None:
        with self._transaction() as items:
            self._result = Outcome(Termination.TIME_FORFEIT, not color)
            assert self.clock is not None
            self._record({"a": "flag", "color": _side(color)})
            items.append(events.Flagged(color))
        self._emit(items)

    def tick(self) -> None:
        """Read the clock: flag a side whose time ran out, else report the times."""
        if self.clock is None or self.is_over:
            return
        self._check_time()
        if self.is_over:
            return
        self._emit([events.ClockTick(self.clock.remaining(chess.WHITE),
                                     self.clock.remaining(chess.BLACK), self.clock.running)])

    def pause(self) -> None:
        """Pause the game (its clock stands still)."""
        if self._paused or self.is_over:
            return
        self._check_time()
        with self._transaction() as items:
            self._paused = True
            if self.clock is not None:
                self.clock.pause()
                items.append(events.ClockTick(self.clock.remaining(chess.WHITE),
                                              self.clock.remaining(chess.BLACK), None))
            self._record({"a": "pause"})
        self._emit(items)

    def resume(self) -> None:
        """Resume a paused game."""
        if not self._paused or self.is_over:
            return
        with self._transaction() as items:
            self._paused = False
            if self.clock is not None:
                self.clock.resume()
            self._record({"a": "resume"})
        self._emit(items)

    # ------------------------------------------------------------------
    # Journal

    def attach_journal(self, journal: JournalWriter | None) -> None:
        """Record further actions to ``journal`` (resuming: its header already exists);
        ``None`` stops recording."""
        self._journal = journal

    @property
    def journal(self) -> JournalWriter | None:
        """Where the game records its actions (``None``: nowhere)."""
        return self._journal

    def close_journal(self) -> None:
        """Stop recording and let go of the journal (its file and its lock), when the
        session playing this game ends."""
        journal, self._journal = self._journal, None
        close = getattr(journal, "close", None)
        if close is not None:
            close()

    @contextmanager
    def replaying(self) -> Iterator[None]:
        """Apply recorded entries without journaling, events or time checks."""
        self._replaying = True
        try:
            yield
        finally:
            self._replaying = False

    def __repr__(self) -> str:
        return f"Game({self._board.rfen()!r}, decks={self._decks!r})"
