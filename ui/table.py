"""What the table shows and what a tap means, without Kivy.

:class:`Table` turns taps and button presses into calls on the game
(:class:`companion.game.Game`) and keeps the little state that belongs to the
screen only: the selected piece, a promotion waiting for its piece, the last
flipped card and the announcement to show. :meth:`Table.view` renders all of
it as one frozen :class:`TableView` the Kivy layer only displays. Rules are
never decided here: legality, targets and verdicts come from the game.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Callable
from typing import Any, Literal, Protocol

import chess

from companion import events
from companion.rules import (
    ActionKind,
    FlipOutcome,
    MateVerdict,
    Outcome,
    Termination,
    card_name,
    parse_card_letter,
)
from companion.rules.letters import JOKER, WRITE_ORDER, card_piece

LOGGER = logging.getLogger(__name__)

TargetKind = Literal["move", "drop", "remove", "none"]
AlertLevel = Literal["info", "warn", "danger", "good"]


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
    def pgn(self) -> str: ...


@dataclasses.dataclass(frozen=True)
class PiecePicture:
    """One piece as drawn: where, what, whose, and whether it is blue (promoted)."""

    square: chess.Square
    piece_type: chess.PieceType
    color: chess.Color
    blue: bool


@dataclasses.dataclass(frozen=True)
class DeckEntry:
    """One kind of card left in a deck: its letter, piece (None: joker) and count."""

    letter: str
    piece_type: chess.PieceType | None
    count: int
    label: str  # e.g. "Knight"


@dataclasses.dataclass(frozen=True)
class CardPicture:
    """The card shown large: its letter, piece (None: joker), title and what it led to."""

    letter: str
    color: chess.Color
    piece_type: chess.PieceType | None
    title: str
    caption: str
    live: bool  # still to be dealt with (placed, or a joker's removal)


@dataclasses.dataclass(frozen=True)
class PlayerView:
    """One side of the table: deck, flip button, clock, draw offers."""

    color: chess.Color
    name: str
    to_move: bool
    deck: tuple[DeckEntry, ...]
    deck_size: int
    can_flip: bool
    flip_hint: str
    clock_text: str
    clock_running: bool
    draw_offer_to_answer: bool   # the opponent offered a draw: accept or decline
    draw_offered: bool           # this side's offer is open
    can_act: bool                # game running: draw offer and resignation allowed
    can_claim_draw: bool = False  # to move, and threefold repetition or fifty moves allow it
    captured: tuple[tuple[chess.PieceType, bool], ...] = ()  # opposing pieces taken (type, blue)
    material: int = 0            # material ahead of the opponent (pawns), 0 when not ahead


@dataclasses.dataclass(frozen=True)
class Promotion:
    """A pawn move waiting for its blue piece."""

    color: chess.Color
    from_square: chess.Square
    to_square: chess.Square
    choices: tuple[chess.PieceType, ...]


@dataclasses.dataclass(frozen=True)
class Ending:
    """How the game ended, for the game-over screen: what decided it and why."""

    headline: str                  # "White wins by checkmate"
    result: str                    # "1-0"
    decider: str                   # the deciding card or move in words
    card: CardPicture | None       # the deciding card (a failed rescue), else None
    move: str                      # the deciding move in SAN ("" for none)
    summary: str                   # the verdict's summary ("" without a verdict)
    reasons: tuple[tuple[bool, str], ...]  # the verdict's conditions: (holds, text)


@dataclasses.dataclass(frozen=True)
class ReviewFrame:
    """One position of the game, for stepping through it (review never changes the game)."""

    index: int                     # 0: the start; n: after the n-th entry of the move list
    label: str                     # "Start" or "3. N@f7+"
    pieces: tuple[PiecePicture, ...]
    last_move: tuple[chess.Square, ...]


@dataclasses.dataclass(frozen=True)
class TableView:
    """Everything the game screen shows, at one moment."""

    pieces: tuple[PiecePicture, ...]
    turn: chess.Color
    selected: chess.Square | None
    targets: tuple[chess.Square, ...]
    target_kind: TargetKind
    last_move: tuple[chess.Square, ...]
    check_square: chess.Square | None
    status: str
    alert: str
    alert_level: AlertLevel
    card: CardPicture | None
    white: PlayerView
    black: PlayerView
    moves_text: str
    san: tuple[str, ...]
    can_undo: bool
    can_redo: bool
    can_claim_draw: bool
    promotion: Promotion | None
    over: bool
    outcome_text: str
    result: str
    ending: Ending | None = None

    @property
    def message(self) -> str:
        """The players' message: the announcement (if any) over what to do now."""
        if self.alert and self.alert != self.status:
            return f"{self.alert}\n{self.status}"
        return self.status

    @property
    def message_level(self) -> AlertLevel:
        return self.alert_level if self.alert else "info"

    def player(self, color: chess.Color) -> PlayerView:
        return self.white if color == chess.WHITE else self.black


PIECE_TITLES = {chess.KING: "King", chess.QUEEN: "Queen", chess.ROOK: "Rook",
                chess.BISHOP: "Bishop", chess.KNIGHT: "Knight", chess.PAWN: "Pawn"}


def side_name(color: chess.Color) -> str:
    return "White" if color == chess.WHITE else "Black"


def format_clock(seconds: float) -> str:
    """``m:ss`` (``h:mm:ss`` from an hour; tenths under ten seconds)."""
    seconds = max(0.0, seconds)
    if seconds < 10:
        return f"0:{seconds:04.1f}"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def moves_text(san: list[str] | tuple[str, ...]) -> str:
    """The SAN list as numbered pairs: ``1. N@e4 p@e5  2. ...``.

    Each entry is one action of one side, so numbering follows the entries.
    """
    nbsp = "\u00a0"  # a pair never breaks across lines
    pairs = []
    for index in range(0, len(san), 2):
        pairs.append(f"{index // 2 + 1}.{nbsp}" + nbsp.join(san[index:index + 2]))
    return "   ".join(pairs)


_RULE_CODE = re.compile(r"\s*\((?:[^()]*?,\s*)?R\d+[a-z]?\)|,\s*R\d+[a-z]?(?=\))")


_PLURAL = re.compile(r"\b(\d+)( [A-Za-z-]+)\(s\)")


def plain(text: str) -> str:
    """A message without the rule book's codes (``"(failed rescue, R7)"`` -> ``"(failed
    rescue)"``, ``"... (R7)"`` -> ``"..."``) and with plurals that agree (``"2 move(s)"``
    -> ``"2 moves"``, ``"1 card(s)"`` -> ``"1 card"``)."""
    def keep_words(match: re.Match[str]) -> str:
        inner = match.group(0)
        if inner.lstrip().startswith("(") and "," in inner:
            words = inner.strip()[1:].rsplit(",", 1)[0]
            return f" ({words})"
        return ""
    text = _RULE_CODE.sub(keep_words, text)
    return _PLURAL.sub(lambda m: m.group(1) + m.group(2) + ("" if m.group(1) == "1" else "s"),
                       text)


_CARD_ON = re.compile(r"(?<![A-Za-z@])([KQRBNPJkqrbnpj]) on ([a-h][1-8])\b")


def verdict_words(text: str) -> str:
    """A verdict's reason in plain words: ``"n on f8"`` -> ``"a knight on f8"``, no rule
    codes, plurals that agree."""
    def name(match: re.Match[str]) -> str:
        try:
            kind, _ = parse_card_letter(match.group(1))
        except ValueError:
            return match.group(0)
        return f"a {card_name(kind)} on {match.group(2)}"

    return plain(_CARD_ON.sub(name, text))


def _entry_counts(actions: list[Any]) -> list[int]:
    """For each entry of ``Game.san_history``, how many actions it covers from the start
    (a flip and its placement are one entry)."""
    counts = []
    for index, action in enumerate(actions):
        if action.kind == ActionKind.FLIP and action.outcome in (
                FlipOutcome.PLACE, FlipOutcome.REMOVE_PIECE) and index + 1 < len(actions):
            continue
        counts.append(index + 1)
    return counts


def _pictures(board: Any) -> tuple[PiecePicture, ...]:
    return tuple(PiecePicture(square, piece.piece_type, piece.color, board.is_blue(square))
                 for square, piece in board.piece_map().items())


def _squares_of(action: Any) -> tuple[chess.Square, ...]:
    if action.kind == ActionKind.MOVE and action.move is not None:
        move = action.move
        return (move.to_square,) if move.drop else (move.from_square, move.to_square)
    if action.kind == ActionKind.REMOVAL and action.square is not None:
        return (action.square,)
    return ()


PIECE_VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5,
                chess.QUEEN: 9, chess.KING: 0}


def captured_pieces(board: Any) -> dict[chess.Color, list[tuple[chess.PieceType, bool]]]:
    """The pieces each side has taken (by capture or a joker's removal), in the order
    taken, as (piece type, was blue). Replays the board's history on a copy."""
    taken: dict[chess.Color, list[tuple[chess.PieceType, bool]]] = {chess.WHITE: [],
                                                                     chess.BLACK: []}
    work = board.copy()
    for action in reversed(list(work.actions)):
        work.pop()
        if action.kind == ActionKind.MOVE and action.move is not None and not action.move.drop:
            move = action.move
            square = move.to_square
            if work.is_en_passant(move):
                square = chess.square(chess.square_file(move.to_square),
                                      chess.square_rank(move.from_square))
            piece = work.piece_at(square)
            if piece is not None and piece.color != work.turn:
                taken[work.turn].append((piece.piece_type, work.is_blue(square)))
        elif action.kind == ActionKind.REMOVAL and action.square is not None:
            piece = work.piece_at(action.square)
            if piece is not None:
                taken[not piece.color].append((piece.piece_type, work.is_blue(action.square)))
    for pieces in taken.values():
        pieces.reverse()
    return taken


def material(board: Any, color: chess.Color) -> int:
    """The material of ``color``'s pieces on the board, in pawns."""
    return sum(PIECE_VALUES[p.piece_type] for p in board.piece_map().values()
               if p.color == color)


def review_frames(game: GameLike) -> tuple[ReviewFrame, ...]:
    """Every position of the game, the start first, one after each move-list entry.

    Works on a copy of the board: the game itself is never changed."""
    board = game.board.copy()
    actions = list(board.actions)
    counts = _entry_counts(actions)
    san = list(game.san_history())
    positions: dict[int, tuple[PiecePicture, ...]] = {}
    wanted = set(counts) | {0}
    for count in range(len(actions), -1, -1):
        if count in wanted:
            positions[count] = _pictures(board)
        if count:
            board.pop()
    frames = [ReviewFrame(0, "Start", positions[0], ())]
    for index, count in enumerate(counts):
        text = san[index] if index < len(san) else ""
        number = f"{index // 2 + 1}{'.' if index % 2 == 0 else '...'}"
        frames.append(ReviewFrame(index + 1, f"{number} {text}", positions[count],
                                  _squares_of(actions[count - 1])))
    return tuple(frames)


def _flip_caption(event: events.CardFlipped) -> tuple[str, bool]:
    who = side_name(event.color)
    outcome = event.outcome
    if outcome == FlipOutcome.PLACE:
        return "Place it on a highlighted square", True
    if outcome == FlipOutcome.UNPLACEABLE:
        return "No square for it: back under the deck, turn over", False
    if outcome == FlipOutcome.FAILED_RESCUE:
        return f"Cannot block the check: {who} loses (failed rescue)", False
    if outcome == FlipOutcome.RETURNED:
        return "Cannot block: back under the deck. A move must lift the check", False
    if outcome == FlipOutcome.EXTRA_TURN:
        return f"Joker! {who} takes another turn", False
    if outcome == FlipOutcome.REMOVE_PIECE:
        return "Joker! Tap an opposing piece to remove it", True
    return "Joker: no piece can be removed, turn over", False


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
                    self._hint = self._why_no_moves(board, square)
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

    @staticmethod
    def _why_no_moves(board: Any, square: chess.Square) -> str:
        piece = board.piece_at(square)
        name = chess.piece_name(piece.piece_type) if piece else "piece"
        if board.king(board.turn) is None:
            return "Moves need your king on the board: flip a card"
        return f"The {name} on {chess.square_name(square)} has no legal move"

    # ------------------------------------------------------------------
    # Events from the game

    def _on_event(self, event: object) -> None:
        if isinstance(event, events.CardFlipped):
            self._card = event
            self._card_done = ""
            self._set_alert("", "info")
            if event.outcome == FlipOutcome.EXTRA_TURN:
                self._set_alert(f"Joker! {side_name(event.color)} takes another turn", "good")
            elif event.outcome == FlipOutcome.UNPLACEABLE:
                self._set_alert(f"The {card_name(parse_card_letter(event.card)[0])} has no "
                                "square: it goes under the deck", "warn")
        elif isinstance(event, events.RescueFailed):
            if event.lost:
                self._set_alert(f"Failed rescue! The {card_name(parse_card_letter(event.card)[0])}"
                                f" cannot block the check: {side_name(event.color)} loses",
                                "danger")
            else:
                self._set_alert("Failed rescue: the card goes under the deck. "
                                f"{side_name(event.color)} must lift the check with a move",
                                "danger")
        elif isinstance(event, events.PiecePlaced):
            self._last_move = (event.move.to_square,)
            self._card_done = f"Placed: {event.san}"
            self._set_alert("", "info")
        elif isinstance(event, events.MovePlayed):
            self._last_move = (event.move.from_square, event.move.to_square)
            self._card = None
            self._set_alert("", "info")
        elif isinstance(event, events.PieceRemoved):
            self._last_move = (event.square,)
            self._card_done = f"Removed the piece on {chess.square_name(event.square)}"
            self._set_alert("", "info")
        elif isinstance(event, events.Promoted):
            self._set_alert(f"{side_name(event.color)} promotes to a blue "
                            f"{chess.piece_name(event.piece_type)}", "good")
        elif isinstance(event, events.Check):
            self._set_alert(f"Check! {side_name(event.color)}'s king is attacked", "danger")
        elif isinstance(event, events.DrawOffered):
            self._draw_offer = event.color
            self._set_alert(f"{side_name(event.color)} offers a draw", "info")
        elif isinstance(event, events.DrawDeclined):
            self._draw_offer = None
            self._set_alert(f"{side_name(event.color)} declines the draw", "info")
        elif isinstance(event, events.GameOver):
            self._draw_offer = None
            self._set_alert(event.outcome.describe(), "danger" if event.outcome.termination
                            .name in ("CHECKMATE", "FAILED_RESCUE") else "info")
        elif isinstance(event, events.Flagged):
            self._set_alert(f"{side_name(event.color)}'s time is up", "danger")
        elif isinstance(event, events.Undone | events.Redone):
            self._last_move = ()
            self._set_alert(f"{'Undone' if isinstance(event, events.Undone) else 'Redone'}: "
                            f"{event.description}", "info")
        elif isinstance(event, events.PositionChanged):
            self._hint = ""  # an old "why not" no longer applies to the new position
        elif isinstance(event, events.ClockTick):
            pass
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
        if self._hint:
            return plain(self._hint[:1].upper() + self._hint[1:])
        if over and outcome is not None:
            return outcome.describe()
        turn = board.turn
        who = self._names[turn]
        pending = board.pending
        if self.promotion is not None:
            return f"{who}: choose a blue piece for the promotion"
        if pending is not None:
            kind, _ = parse_card_letter(pending)
            if kind == JOKER:
                return f"{who}: tap an opposing piece to remove it"
            if board.is_check():
                return f"{who} is in check: block it with the {card_name(kind)}"
            return f"{who}: place the {card_name(kind)} on a highlighted square"
        if board.must_move:
            return f"{who}: lift the check with a chess move"
        if self.selected is not None:
            piece = board.piece_at(self.selected)
            name = chess.piece_name(piece.piece_type) if piece else "piece"
            return f"{who}: move the {name} to a marked square"
        has_king = board.king(turn) is not None
        deck = board.deck_size(turn)
        if not has_king:
            return f"{who} to play: flip a card"
        if deck:
            return f"{who} to play: flip a card or make a move"
        return f"{who} to play: make a move (deck empty)"

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
        caption, live = _flip_caption(event)
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
