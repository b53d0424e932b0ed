"""The Raindropchess game screen's controller, without Kivy: what a tap means.

:class:`Table` turns taps and button presses into calls on the game
(:class:`companion.game.Game`) and keeps the little state that belongs to the
screen only: the selected piece, a promotion waiting for its piece, the last
flipped card and the announcement to show. :meth:`Table.view` renders all of
it as one frozen :class:`~ui.table_view.TableView` the Kivy layer only displays; the
view types live in :mod:`ui.table_view`, the words in :mod:`ui.table_words`. Rules are
never decided here: legality, targets and verdicts come from the game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

import chess

from companion import events
from companion.rules import (
    ActionKind,
    MateVerdict,
    Outcome,
    Termination,
    card_name,
    parse_card_letter,
)
from companion.rules.letters import JOKER, WRITE_ORDER, card_piece
from ui.table_view import (
    AlertLevel,
    CardPicture,
    DeckEntry,
    Ending,
    PiecePicture,
    PlayerView,
    Promotion,
    TableView,
    TargetKind,
    captured_pieces,
    material,
)
from ui.table_words import (
    card_done,
    event_alert,
    flip_caption,
    format_clock,
    moves_text,
    plain,
    side_name,
    status_line,
    why_no_moves,
)

LOGGER = logging.getLogger(__name__)



class GameLike(Protocol):
    """The parts of :class:`companion.game.Game` the table uses (the Game API contract)."""

    @property
    def board(self) -> Any: ...
    @property
    def turn(self) -> chess.Color: ...
    @property
    def pending(self) -> str | None: ...
    @property
    def outcome(self) -> Outcome | None: ...
    @property
    def is_over(self) -> bool: ...
    clock: Any

    def can_flip(self) -> bool: ...
    def why_cannot_flip(self) -> str | None: ...
    def flip(self) -> events.CardFlipped: ...
    def targets(self, square: chess.Square) -> chess.SquareSet: ...
    def promotion_choices(self, from_sq: chess.Square,
                          to_sq: chess.Square) -> list[chess.PieceType]: ...
    def play(self, move: chess.Move) -> None: ...
    def why_illegal(self, move: chess.Move) -> str | None: ...
    def remove(self, square: chess.Square) -> None: ...
    def legal_removals(self) -> chess.SquareSet: ...
    def undo(self) -> None: ...
    def redo(self) -> None: ...
    def can_undo(self) -> bool: ...
    def can_redo(self) -> bool: ...
    def offer_draw(self, color: chess.Color) -> None: ...
    def accept_draw(self, color: chess.Color) -> None: ...
    def decline_draw(self, color: chess.Color) -> None: ...
    def claim_draw(self) -> bool: ...
    def resign(self, color: chess.Color) -> None: ...
    def mate_verdict(self) -> MateVerdict: ...
    def deck_counts(self, color: chess.Color) -> dict[str, int]: ...
    def deck_size(self, color: chess.Color) -> int: ...
    def san_history(self) -> list[str]: ...
    def subscribe(self, listener: Callable[[Any], None]) -> Callable[[], None]: ...


class Hands(Protocol):
    """A simulated physical board's hands: taps act on that board instead of the game
    (the board sync then commits what the board shows). Each returns False when the
    board cannot do it, and the table plays the action on the game itself."""

    def physical_board(self, move: chess.Move) -> bool: ...
    def physical_removal(self, square: chess.Square) -> bool: ...


class Table:
    """The game screen's controller: taps in, game calls out, a :class:`TableView` back.

    ``on_change`` is called (on the thread of the game call) whenever the view
    may have changed; the Kivy layer hops to its own thread before redrawing.
    """

    def __init__(self, game: GameLike, on_change: Callable[[], None] | None = None,
                 *, names: tuple[str, str] = ("White", "Black"),
                 hands: Hands | None = None) -> None:
        self.game = game
        self.hands = hands
        self._on_change = on_change or (lambda: None)
        self._names = {chess.WHITE: names[0], chess.BLACK: names[1]}
        self.selected: chess.Square | None = None
        self.promotion: Promotion | None = None
        self._card: events.CardFlipped | None = None
        self._card_done = ""
        self._alert = ""
        self._alert_level: AlertLevel = "info"
        self._hint = ""
        self._draw_offer: chess.Color | None = None
        self._last_move: tuple[chess.Square, ...] = ()
        self._unsubscribe = game.subscribe(self._on_event)

    def close(self) -> None:
        self._unsubscribe()

    @property
    def refused(self) -> str:
        """Why the last tap or flip was refused ('' when it was not)."""
        return self._hint

    # ------------------------------------------------------------------
    # Input

    def tap(self, square: chess.Square) -> None:
        """A tap on a board square: place, select, move or remove, as the moment asks."""
        game = self.game
        self._hint = ""
        if game.is_over:
            return
        if self.promotion is not None:
            self._hint = "Choose the blue piece for the promotion first"
            self._changed()
            return
        pending = game.pending
        if pending is not None:
            kind, _ = parse_card_letter(pending)
            if kind == JOKER:
                self._remove(square)
            else:
                self._place(square, kind)
            return
        board = game.board
        piece = board.piece_at(square)
        if self.selected is not None and square != self.selected \
                and square in game.targets(self.selected):
            self._move(self.selected, square)
            return
        if piece is not None and piece.color == game.turn:
            if self.selected == square:
                self.selected = None
            else:
                targets = game.targets(square)
                if targets:
                    self.selected = square
                else:
                    self.selected = None
                    self._hint = why_no_moves(board, square)
        elif self.selected is not None:
            self.selected = None
        elif piece is not None:
            self._hint = f"That is {side_name(piece.color)}'s piece: {side_name(game.turn)} to play"
        self._changed()

    def flip(self, color: chess.Color) -> None:
        """The Flip button of ``color``'s side."""
        game = self.game
        self._hint = ""
        if color != game.turn:
            self._hint = f"It is {side_name(game.turn)}'s turn"
            self._changed()
            return
        if not game.can_flip():
            self._hint = f"No flip: {game.why_cannot_flip()}"
            self._changed()
            return
        self.selected = None
        game.flip()

    def choose_promotion(self, piece_type: chess.PieceType) -> None:
        """The promotion picker's answer."""
        promotion = self.promotion
        if promotion is None or piece_type not in promotion.choices:
            return
        self.promotion = None
        self._play(chess.Move(promotion.from_square, promotion.to_square, piece_type))

    def cancel_promotion(self) -> None:
        self.promotion = None
        self.selected = None
        self._changed()

    def undo(self) -> None:
        """Take back the last action; a finished game is reviewed, never taken back."""
        if self.game.is_over:
            self.say("The game is over: step through it with Review; it cannot be taken back")
            return
        if not self.game.can_undo():
            return
        self._reset_selection()
        self._card = None
        try:
            self.game.undo()
        except ValueError as error:
            self.say(str(error))

    def redo(self) -> None:
        if self.game.can_redo():
            self._reset_selection()
            self.game.redo()

    def offer_draw(self, color: chess.Color) -> None:
        self.game.offer_draw(color)

    def answer_draw(self, color: chess.Color, accept: bool) -> None:
        if accept:
            self.game.accept_draw(color)
        else:
            self.game.decline_draw(color)
        self._draw_offer = None
        self._changed()

    def claim_draw(self) -> bool:
        claimed = self.game.claim_draw()
        if not claimed:
            self._hint = "No draw to claim: neither threefold repetition nor the fifty-move rule"
            self._changed()
        return claimed

    def resign(self, color: chess.Color) -> None:
        self.game.resign(color)

    def say(self, text: str) -> None:
        """Show a one-off message (e.g. a refused action) in the status line."""
        self._hint = text
        self._changed()

    def verdict(self) -> MateVerdict:
        return self.game.mate_verdict()

    # ------------------------------------------------------------------
    # Actions

    def _place(self, square: chess.Square, kind: int) -> None:
        piece_type = card_piece(kind)
        assert piece_type is not None
        self._play(chess.Move(square, square, drop=piece_type))

    def _move(self, from_square: chess.Square, to_square: chess.Square) -> None:
        choices = self.game.promotion_choices(from_square, to_square)
        if choices:
            self.promotion = Promotion(self.game.turn, from_square, to_square, tuple(choices))
            self._changed()
            return
        self._play(chess.Move(from_square, to_square))

    def _play(self, move: chess.Move) -> None:
        self.selected = None
        if self.hands is not None and self.game.why_illegal(move) is None \
                and self.hands.physical_board(move):
            self._changed()
            return
        try:
            self.game.play(move)
        except ValueError as error:
            self._hint = str(error)
            self._changed()

    def _remove(self, square: chess.Square) -> None:
        if self.hands is not None and square in self.game.legal_removals() \
                and self.hands.physical_removal(square):
            self._changed()
            return
        try:
            self.game.remove(square)
        except ValueError as error:
            self._hint = str(error)
            self._changed()

    def _reset_selection(self) -> None:
        self.selected = None
        self.promotion = None
        self._hint = ""

    # ------------------------------------------------------------------
    # Events from the game

    def _on_event(self, event: object) -> None:
        if isinstance(event, events.CardFlipped):
            self._card = event
            self._card_done = ""
        elif isinstance(event, events.PiecePlaced | events.PieceRemoved):
            self._card_done = card_done(event)
            self._last_move = ((event.move.to_square,) if isinstance(event, events.PiecePlaced)
                               else (event.square,))
        elif isinstance(event, events.MovePlayed):
            self._last_move = (event.move.from_square, event.move.to_square)
            self._card = None
        elif isinstance(event, events.DrawOffered):
            self._draw_offer = event.color
        elif isinstance(event, events.DrawDeclined | events.GameOver):
            self._draw_offer = None
        elif isinstance(event, events.Undone | events.Redone):
            self._last_move = ()
        elif isinstance(event, events.PositionChanged):
            self._hint = ""  # an old "why not" no longer applies to the new position
        alert = event_alert(event)
        if alert is not None:
            self._set_alert(*alert)
        self._changed()

    def _set_alert(self, text: str, level: AlertLevel) -> None:
        self._alert = plain(text)
        self._alert_level = level

    def _changed(self) -> None:
        self._on_change()

    # ------------------------------------------------------------------
    # The view

    def view(self) -> TableView:
        """The whole screen's content now (call on the UI thread)."""
        game = self.game
        board = game.board
        turn = game.turn
        pending = game.pending
        over = game.is_over
        outcome = game.outcome
        pieces = tuple(
            PiecePicture(square, piece.piece_type, piece.color, board.is_blue(square))
            for square, piece in board.piece_map().items())
        targets: tuple[chess.Square, ...] = ()
        target_kind: TargetKind = "none"
        if not over and pending is not None:
            kind, _ = parse_card_letter(pending)
            if kind == JOKER:
                targets = tuple(game.legal_removals())
                target_kind = "remove"
            else:
                targets = tuple(sorted({m.to_square for m in board.legal_moves if m.drop}))
                target_kind = "drop"
        elif not over and self.selected is not None:
            targets = tuple(game.targets(self.selected))
            target_kind = "move"
        king = board.king(turn)
        check_square = king if king is not None and board.is_check() else None
        san = tuple(game.san_history())
        taken = captured_pieces(board)
        return TableView(
            pieces=pieces,
            turn=turn,
            selected=self.selected if not over else None,
            targets=targets,
            target_kind=target_kind,
            last_move=self._last_move,
            check_square=check_square,
            status=self._status(board, over, outcome),
            alert=self._alert,
            alert_level=self._alert_level,
            card=self._card_picture(pending),
            white=self._player(chess.WHITE, over, taken[chess.WHITE]),
            black=self._player(chess.BLACK, over, taken[chess.BLACK]),
            moves_text=moves_text(san),
            san=san,
            can_undo=game.can_undo() and not over,
            can_redo=game.can_redo(),
            can_claim_draw=not over and board.can_claim_draw(),
            promotion=self.promotion,
            over=over,
            outcome_text=outcome.describe() if outcome is not None else "",
            result=outcome.result() if outcome is not None else "*",
            ending=self._ending(outcome, san) if over and outcome is not None else None,
        )

    def _ending(self, outcome: Outcome, san: tuple[str, ...]) -> Ending:
        """What decided the game: the failed rescue's card, the mating move, or the
        resignation, flag or draw; with the mate verdict's reasons where the board decided."""
        game = self.game
        actions = game.board.actions
        last = actions[-1] if actions else None
        card = None
        move = ""
        decider = ""
        termination = outcome.termination
        loser = side_name(not outcome.winner) if outcome.winner is not None else ""
        if termination == Termination.FAILED_RESCUE and last is not None \
                and last.kind == ActionKind.FLIP and last.card is not None:
            kind, color = parse_card_letter(last.card)
            name = "joker" if kind == JOKER else card_name(kind)
            card = CardPicture(last.card, color, card_piece(kind),
                               "Joker" if kind == JOKER else name.capitalize(),
                               "Cannot block the check", False)
            decider = f"{side_name(color)} flipped the {name}: it cannot lift the check"
        elif san:
            move = san[-1]
            decider = f"The last move: {move}"
            if last is not None and last.kind == ActionKind.MOVE:
                decider += f" by {side_name(not game.turn)}"
        if termination == Termination.RESIGNATION and loser:
            decider = f"{loser} resigned"
        summary = ""
        reasons: tuple[tuple[bool, str], ...] = ()
        if termination in (Termination.CHECKMATE, Termination.FAILED_RESCUE):
            try:
                verdict = game.mate_verdict()
            except ValueError as error:
                LOGGER.warning("no verdict for the final position: %s", error)
            else:
                summary = plain(verdict.summary)
                reasons = tuple(
                    (c.holds, f"{c.name[:1].upper()}{c.name[1:]}: {plain(c.reason)}")
                    for c in verdict.conditions)
        return Ending(headline=outcome.describe(), result=outcome.result(), decider=decider,
                      card=card, move=move, summary=summary, reasons=reasons)

    def _status(self, board: Any, over: bool, outcome: Outcome | None) -> str:
        return status_line(board, self._names[board.turn], hint=self._hint,
                           outcome=outcome if over else None,
                           promoting=self.promotion is not None, selected=self.selected)

    def _card_picture(self, pending: str | None) -> CardPicture | None:
        event = self._card
        if pending is not None and (event is None or event.card != pending):
            # The card waits (e.g. after an undo took back its placement): show it again.
            kind, color = parse_card_letter(pending)
            if kind == JOKER:
                return CardPicture(pending, color, None, "Joker",
                                   "Joker! Tap an opposing piece to remove it", True)
            return CardPicture(pending, color, card_piece(kind), card_name(kind).capitalize(),
                               "Place it on a highlighted square", True)
        if event is None:
            return None
        kind, color = parse_card_letter(event.card)
        piece_type = card_piece(kind)
        title = "Joker" if kind == JOKER else card_name(kind).capitalize()
        caption, live = flip_caption(event)
        live = live and pending == event.card
        if not live and self._card_done:
            caption = self._card_done
        return CardPicture(event.card, color, piece_type, title, caption, live)

    def _player(self, color: chess.Color, over: bool,
                taken: list[tuple[chess.PieceType, bool]]) -> PlayerView:
        game = self.game
        counts = game.deck_counts(color)
        entries = []
        for kind in WRITE_ORDER:
            letter = "kqrbldnpj"[WRITE_ORDER.index(kind)]
            letter = letter.upper() if color == chess.WHITE else letter
            count = counts.get(letter, 0)
            if not count:
                continue
            piece_type = card_piece(kind)
            label = "Joker" if kind == JOKER else card_name(kind).capitalize()
            entries.append(DeckEntry(letter, piece_type, count, label))
        to_move = game.turn == color and not over
        can_flip = to_move and game.can_flip()
        if over:
            hint = ""
        elif not to_move:
            hint = "waiting"
        elif can_flip:
            hint = "flip the top card"
        else:
            hint = game.why_cannot_flip() or ""
        clock = game.clock
        clock_text = ""
        running = False
        if clock is not None:
            clock_text = format_clock(clock.remaining(color))
            running = clock.running == color
        return PlayerView(
            color=color, name=self._names[color], to_move=to_move, deck=tuple(entries),
            deck_size=game.deck_size(color), can_flip=can_flip, flip_hint=hint,
            clock_text=clock_text, clock_running=running,
            draw_offer_to_answer=self._draw_offer is not None and self._draw_offer != color
            and not over,
            draw_offered=self._draw_offer == color and not over,
            can_act=not over,
            can_claim_draw=to_move and game.board.can_claim_draw(),
            captured=tuple(taken),
            material=max(0, material(game.board, color) - material(game.board, not color)))
