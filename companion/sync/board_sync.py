"""BoardSync: from what a sensor saw to a game action, or to exact instructions.

Sensors report what they see, never moves. :class:`BoardSync` compares each
settled snapshot with the game's position, with the board each legal action
would leave (the picochess method, indexed once per position), with earlier
positions (a takeback) and with the alternatives to the last move (a piece
slid further), and keeps the order of lifts and placements (a
:class:`~companion.sync.trail.Trail`) where occupancy alone cannot tell two
actions apart. It calls the game only when one action is certain; otherwise
it waits, asks, or says what to put right. It never guesses.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Sequence
from typing import Protocol

import chess

from companion import events
from companion.events import GameEvent
from companion.rules import HouseRules, Outcome, card_name, parse_card_letter
from companion.rules.house import TOUCH_MOVE_CHOICES
from companion.sensors.snapshot import BoardSnapshot
from companion.sensors.source import LedHint
from companion.sync.mirror import BoardMirror
from companion.sync.position import (
    Colours,
    Expected,
    GameView,
    Position,
    board_colours,
    snapshot_colours,
)
from companion.sync.result import Choice, Fix, SyncKind, SyncResult
from companion.sync.trail import Trail
from companion.sync.words import (
    COLOUR_WORDS,
    colour_at,
    describe_action,
    fixes_towards,
    piece_words,
    sentence,
)

LOGGER = logging.getLogger(__name__)

_PROMOTION_ORDER = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)


class SyncError(ValueError):
    """A request to :class:`BoardSync` that cannot be honoured (e.g. no open question)."""


@dataclasses.dataclass(frozen=True)
class Lead:
    """The game leads the board (the companion's turn): nothing on the board is played;
    the board is only compared with the game's position and guided towards it."""

    note: str
    """What the players are told (``"Black: knight g8 to f6."``, ``"Black is thinking"``)."""
    squares: chess.SquareSet = dataclasses.field(default_factory=chess.SquareSet)
    """Squares of the turn to make, lit in the companion's colour."""
    until_in_sync: bool = True
    """``True``: the game is ahead and the lead ends once the board shows it (a turn to
    make). ``False``: a hold (the companion is thinking): the board should stay as the
    game is, until :meth:`BoardSync.release`."""


class SyncGame(GameView, Protocol):
    """The parts of :class:`companion.game.Game` that :class:`BoardSync` uses."""

    @property
    def rules(self) -> HouseRules: ...

    @property
    def outcome(self) -> Outcome | None: ...

    def can_flip(self) -> bool: ...

    def can_undo(self) -> bool: ...

    def play(self, move: chess.Move) -> None: ...

    def remove(self, square: chess.Square) -> None: ...

    def undo(self) -> None: ...

    def subscribe(self, listener: Callable[[GameEvent], None]) -> Callable[[], None]: ...


def _side(color: chess.Color) -> str:
    return "White" if color == chess.WHITE else "Black"


def _squares(*squares: chess.Square | None) -> chess.SquareSet:
    mask = 0
    for square in squares:
        if square is not None:
            mask |= chess.BB_SQUARES[square]
    return chess.SquareSet(mask)


def _move_squares(move: chess.Move | None) -> chess.SquareSet:
    if move is None:
        return chess.SquareSet()
    return _squares(move.from_square, move.to_square)


class BoardSync:
    """Keeps a physical board and a game in step (see the module docstring).

    ``update(snapshot)`` takes every settled snapshot (settling is the sensor
    adapter's job) and returns a :class:`SyncResult`; it calls ``game.play``,
    ``game.remove`` or (for a correction) ``game.undo`` then ``game.play`` only
    when one action is certain. ``touch_move`` overrides the house rule
    (``off``, ``warn`` or ``enforce``, R11). Not thread-safe: serialise calls
    (see :class:`~companion.sync.session.PhysicalBoardSession`).
    """

    def __init__(self, game: SyncGame, *, touch_move: str | None = None) -> None:
        mode = game.rules.touch_move if touch_move is None else touch_move
        if mode not in TOUCH_MOVE_CHOICES:
            raise SyncError(f"touch_move must be one of {', '.join(TOUCH_MOVE_CHOICES)}, "
                            f"not {mode!r}")
        self.touch_move = mode
        self._game = game
        self._position: Position | None = None
        self._reset_pending = True
        self._trail = Trail()
        self._snapshot: BoardSnapshot | None = None
        self._mask = 0
        self._colours: Colours | None = None
        self._unsure = 0
        # square -> (colour read, game's colour), as indices into Colours: a piece the
        # players confirmed that the sensor reads in another colour
        self._recoloured: dict[chess.Square, tuple[int, int]] = {}
        self._decided: tuple[int, Colours | None, int, int] | None = None
        self._generation = 0
        self._result = SyncResult(SyncKind.WAITING, "No board seen yet.")
        self._choices: tuple[Choice, ...] = ()
        self._choices_generation = -1
        self._committing = False
        self._lead: Lead | None = None
        self._mirror = BoardMirror(game)
        self._unsubscribe = game.subscribe(self._on_event)

    # ------------------------------------------------------------------
    # Public

    @property
    def committing(self) -> bool:
        """True while this object is changing the game (its own events are arriving)."""
        return self._committing

    @property
    def last_result(self) -> SyncResult:
        return self._result

    @property
    def snapshot(self) -> BoardSnapshot | None:
        """The last snapshot seen."""
        return self._snapshot

    def close(self) -> None:
        """Stop listening to the game."""
        self._unsubscribe()

    @property
    def leading(self) -> Lead | None:
        """The lead in force, if any (see :meth:`lead`)."""
        return self._lead

    def lead(self, lead: Lead) -> None:
        """Let the game lead the board: until the board shows the game's position (or,
        for a hold, until :meth:`release`), nothing seen on it is played, taken back or
        asked about; every board is compared with the game's and guided towards it, the
        lead's note first. Decide again (:meth:`refresh`) to hear the guidance now."""
        self._lead = lead
        self._generation += 1

    def release(self) -> None:
        """End the lead: the board is followed as usual again."""
        if self._lead is not None:
            self._lead = None
            self._generation += 1

    def update(self, snapshot: BoardSnapshot) -> SyncResult:
        """Decide what a settled snapshot means; commit the action if it is certain.

        A square the sensor is unsure of (``snapshot.unsure``: read empty, with some
        sign of a piece) where the game has a piece counts as holding that piece: a
        pale piece on a pale square the players confirmed is not taken for lifted
        every time the sensor reads it weakly. Likewise a piece the players confirmed
        that the sensor reads in another colour (a white knight read blue) counts as
        the game's piece while the sensor reads it so."""
        colours = snapshot_colours(snapshot)
        position = self._current()
        held = int(snapshot.unsure) & position.mask
        mask = snapshot.mask | held
        if colours is not None and held:
            (white, black, blue), (game_white, game_black, game_blue) = colours, position.colours
            colours = (white | (game_white & held), black | (game_black & held),
                       blue | (game_blue & held))
        if colours is not None:
            colours = self._as_confirmed(position, colours)
        key = (mask, colours, int(snapshot.unsure), self._generation)
        first = self._snapshot is None
        self._snapshot = snapshot
        if key == self._decided and not snapshot.trail:
            return self._result
        self._mask = mask
        self._colours = colours
        self._unsure = int(snapshot.unsure) & ~held
        glimpses = [dataclasses.replace(g, mask=g.mask | held) for g in snapshot.trail]
        if first:
            # What the board showed before anyone was watching is not an action.
            self._trail.reset(mask, own=position.board.occupied_co[position.turn])
        else:
            self._trail.observe(mask, snapshot.timestamp, glimpses)
        return self._finish(self._decide(position, mask, colours))

    def refresh(self) -> SyncResult:
        """Decide again on the last snapshot (call after the game changed elsewhere:
        a flip, an undo, a move typed on the screen)."""
        if self._snapshot is None:
            return self._result
        position = self._current()
        return self._finish(self._decide(position, self._mask, self._colours))

    def choose(self, index: int) -> SyncResult:
        """Answer the open ASK with ``choices[index]`` (undo, then play or remove)."""
        choices = self._choices
        if not choices or self._choices_generation != self._generation:
            raise SyncError("there is no open question to answer")
        if not 0 <= index < len(choices):
            raise SyncError(f"choose a number from 0 to {len(choices) - 1}, not {index}")
        choice = choices[index]
        label = choice.label[0].upper() + choice.label[1:]
        seen = self._colours
        try:
            self._apply(choice)
        except ValueError as error:
            return self._finish(SyncResult(SyncKind.ILLEGAL, f"{label} failed: {error}.",
                                           reason=str(error)))
        if seen is not None:
            self._confirm_colours(choice.recolour, seen)
        if choice.move is None and choice.remove is None:
            after = self.refresh()
            return self._finish(dataclasses.replace(
                after, message=f"{label}: done. {after.message}", undo_count=choice.undo_count,
                committed=True))
        kind = SyncKind.CORRECTED if choice.undo_count else SyncKind.COMMITTED
        return self._finish(SyncResult(kind, f"{label}: done.{self._game_over_note()}",
                                       move=choice.move, removed=choice.remove,
                                       undo_count=choice.undo_count, committed=True,
                                       led=LedHint(last_move=_move_squares(choice.move))))

    def accept_takeback(self) -> SyncResult:
        """Undo as the last TAKEBACK offered, then decide again on the board."""
        result = self._result
        if result.kind != SyncKind.TAKEBACK or self._choices_generation != self._generation:
            raise SyncError("no takeback is on offer")
        return self.choose(0)

    # ------------------------------------------------------------------
    # State

    def _confirm_colours(self, squares: Sequence[chess.Square], seen: Colours) -> None:
        """The players confirmed the game's pieces on ``squares``, which the sensor
        reads as ``seen`` shows: take that reading there as the game's piece."""
        game = board_colours(self._game.board)
        for square in squares:
            read, want = colour_at(seen, square), colour_at(game, square)
            if read is not None and want is not None and read != want:
                self._recoloured[square] = (COLOUR_WORDS.index(read), COLOUR_WORDS.index(want))
                LOGGER.info("sync: %s read %s is taken as the game's %s piece",
                            chess.square_name(square), read, want)

    def _as_confirmed(self, position: Position, colours: Colours) -> Colours:
        """``colours`` with each confirmed piece read in another colour taken as the
        game's, while the game still has a piece of that colour there and the sensor
        still reads it so; a confirmation whose piece has gone from the game is dropped."""
        result = list(colours)
        for square, (read, want) in list(self._recoloured.items()):
            bit = chess.BB_SQUARES[square]
            if not position.colours[want] & bit:
                del self._recoloured[square]   # the piece left, or another stands there
            elif result[read] & bit:
                result[read] &= ~bit
                result[want] |= bit
        return (result[0], result[1], result[2])

    def _on_event(self, event: GameEvent) -> None:
        self._mirror.on_event(event)
        if isinstance(event, events.PositionChanged | events.GameOver | events.Flagged):
            self._position = None
            self._reset_pending = True
            self._generation += 1

    def _current(self) -> Position:
        if self._position is None:
            self._position = Position(self._game, self._mirror.board())
        position = self._position
        if self._reset_pending:
            self._reset_pending = False
            self._trail.reset(self._mask, own=position.board.occupied_co[position.turn])
        return position

    def _finish(self, result: SyncResult) -> SyncResult:
        if result.choices:
            self._choices = result.choices
            self._choices_generation = self._generation
        else:
            self._choices = ()
        self._result = result
        # A repeated snapshot gets the same answer, but not a commit twice: after a
        # commit the same board is decided again (in sync).
        self._decided = None if result.committed else (self._mask, self._colours,
                                                       self._unsure, self._generation)
        if result.kind not in (SyncKind.IN_SYNC, SyncKind.WAITING):
            LOGGER.info("sync: %s: %s", result.kind.value, result.message)
        return result

    def _apply(self, choice: Choice) -> None:
        self._committing = True
        try:
            for _ in range(choice.undo_count):
                self._game.undo()
            if choice.move is not None:
                self._game.play(choice.move)
                if choice.reply is not None:
                    self._game.play(choice.reply)
            elif choice.remove is not None:
                self._game.remove(choice.remove)
        finally:
            self._committing = False

    # ------------------------------------------------------------------
    # Deciding

    def _decide(self, pos: Position, mask: int, colours: Colours | None) -> SyncResult:
        if self._lead is not None:
            return self._led(pos, mask, colours, self._lead)
        if mask == pos.mask and (colours is None or colours == pos.colours):
            if colours is None and self._trail.changed and pos.last_move is not None:
                question = self._captured_elsewhere(pos, mask)
                if question is not None:
                    return question
            unseen = self._unsure_placement(pos)
            if unseen is not None:
                return unseen
            return self._in_sync(pos)
        trail = self._trail
        fits = [e for e in pos.index.get(mask, ()) if self._fits(e, colours)]
        if fits:
            # A new action that fits wins over an earlier position with the same board
            # (as picochess): the physical events are the action's; undo is on the screen.
            if not trail.changed:
                return self._stale(pos, fits, mask, colours)
            return self._commit_forward(pos, fits)
        if trail.changed and pos.last_move is not None:
            relocated = self._relocation(pos, mask, colours)
            if relocated is not None:
                return relocated
            again = self._lifted_again(pos, mask, colours)
            if again is not None:
                return again
        if colours is not None and trail.changed:
            doubt = self._colour_doubt(pos, mask, colours)
            if doubt is not None:
                return doubt
        partial = self._partial(pos, mask, colours)
        if partial is not None and partial.kind != SyncKind.ILLEGAL:
            return partial   # an action under way
        pairs: list[tuple[Expected, Expected]] = []
        if not pos.over and trail.step >= 2:
            # A move and its reply, every step of both seen (an illegal capture by
            # occupancy may be a capture and its recapture).
            pairs = [(a, b) for a, b in pos.replies().get(mask, ())
                     if self._pair_fits(pos, a, b, colours)]
        undo_count = self._earlier(pos, mask, colours)
        if undo_count is not None and pairs:
            # A takeback wins over a fast reply that leaves the same board: it
            # changes nothing until confirmed.
            return self._takeback(pos, undo_count, pairs=pairs)
        if pairs:
            return self._commit_pair(pos, pairs)
        if partial is not None:
            return partial
        if not trail.changed:
            return self._catch_up(pos, mask, colours)
        if undo_count is not None:
            return self._takeback(pos, undo_count)
        illegal = self._illegal(pos, mask, colours)
        if illegal is not None:
            return illegal
        return self._mismatch(pos, mask, colours)

    def _led(self, pos: Position, mask: int, colours: Colours | None, lead: Lead
             ) -> SyncResult:
        """The game leads (:meth:`lead`): the board shows the game's position, or is
        guided towards it."""
        last = _move_squares(pos.last_move)
        if mask == pos.mask and (colours is None or colours == pos.colours):
            if not lead.until_in_sync:
                return SyncResult(SyncKind.IN_SYNC, lead.note,
                                  led=LedHint(turn=lead.squares, last_move=last))
            self._lead = None
            self._reset_pending = True   # the next action starts from this board
            self._generation += 1
            after = self._in_sync(pos)
            return dataclasses.replace(after, message=f"The board shows it. {after.message}")
        fixes = fixes_towards(pos.board, pos.colours, mask, colours,
                              back=not lead.until_in_sync)
        what = "On the board" if lead.until_in_sync else "Put the board back as it was"
        message = f"{lead.note} " + sentence([f"{what}: " + "; ".join(f.text for f in fixes)])
        return SyncResult(SyncKind.MISMATCH, message.strip(),
                          led=LedHint(turn=lead.squares, fix=_fix_squares(fixes),
                                      last_move=last),
                          fixes=fixes)

    def _pair_fits(self, pos: Position, first: Expected, second: Expected,
                   colours: Colours | None) -> bool:
        """Whether a snapshot is a move and its reply seen at once: the final colours
        match, and what was seen backs both: every square either move emptied or
        filled (a capture: both) was seen so, in order (even with colours: the board
        between the two moves was never seen)."""
        if colours is not None and colours != second.colours:
            return False
        if first.move is None or second.move is None:
            return False
        return self._trail.backs(pos.board, (first.move, second.move))

    def _earlier(self, pos: Position, mask: int, colours: Colours | None) -> int | None:
        """How many undos bring the game back to a position this board shows, if the
        game can undo and something was done on the board."""
        if not self._trail.changed or not self._game.can_undo():
            return None
        earlier = [e for e in pos.earlier().get(mask, ())
                   if colours is None or e.colours == colours]
        return earlier[0].undo_count if earlier else None

    def _captured_elsewhere(self, pos: Position, mask: int) -> SyncResult | None:
        """The board shows the game, but a square the last mover could have captured
        on instead was emptied and filled since: the last capture may have been read
        from a piece knocked over and stood up while the capturing piece was held
        (occupancy alone cannot tell). Ask; carrying on answers no."""
        last = pos.last_move
        assert last is not None
        if last.drop:
            return None
        candidates = [e for e in pos.alternatives().get(mask, ())
                      if e.capture is not None and e.capture != last.to_square
                      and e.move is not None and self._trail.refilled(e.capture)]
        previous = pos.previous_board()
        if not candidates or previous.piece_at(last.to_square) is None:
            return None
        old = previous.san(last)
        choices = [Choice(f"{previous.san(e.move)} instead of {old}", move=e.move,
                          undo_count=1) for e in candidates if e.move is not None]
        return self._ask(pos, choices, "Was a piece only knocked over and stood up, or "
                                       "was the last move changed (carry on if not)")

    def _lifted_again(self, pos: Position, mask: int, colours: Colours | None,
                      ) -> SyncResult | None:
        """The piece just moved is in the hand again (its square empty, the board
        otherwise as before the move): it is being moved on, or was set down on a
        capture whose captured square was never seen empty."""
        last = pos.last_move
        assert last is not None
        if last.drop or self._trail.touched is not None:
            return None
        previous = pos.previous_board()
        if mask != previous.occupied & ~chess.BB_SQUARES[last.from_square]:
            return None
        if colours is not None and colours != tuple(
                c & ~chess.BB_SQUARES[last.from_square] for c in board_colours(previous)):
            return None
        name = piece_words(previous, last.from_square)
        old = previous.san(last)
        targets = chess.SquareSet(m.to_square for m in previous.generate_legal_moves(
            chess.BB_SQUARES[last.from_square]))
        where = chess.square_name(last.to_square)
        moved_on = (f"{old} is corrected when it is set down (back on "
                    f"{chess.square_name(last.from_square)}: a takeback)")
        hint = ""
        if any(previous.piece_at(t) for t in targets) and colours is None:
            hint = " To capture, lift the captured piece off its square first or after."
        if pos.capture_targets & chess.BB_SQUARES[last.to_square]:
            attackers = chess.SquareSet(a for a, v in pos.captures if v == last.to_square)
            return SyncResult(SyncKind.WAITING,
                              f"The {name} on {where} is lifted: capturing it? If "
                              f"{_side(previous.turn)} is moving it on, {moved_on}.{hint}",
                              led=LedHint(targets=attackers | _squares(last.to_square),
                                          last_move=_move_squares(last)))
        return SyncResult(SyncKind.WAITING,
                          f"The {name} is lifted again from {where}: {moved_on}.{hint}",
                          led=LedHint(targets=targets, last_move=_move_squares(last)))

    def _relocation(self, pos: Position, mask: int, colours: Colours | None,
                    ) -> SyncResult | None:
        """The piece just placed or moved, moved on by the same player before the
        opponent touched anything (a hover seen, a slide that rested, a piece set
        on the wrong square): the last action corrected, if legal."""
        last = pos.last_move
        assert last is not None
        mover = last.to_square
        touched = self._trail.touched
        alternatives = [e for e in pos.alternatives().get(mask, ())
                        if self._fits(e, colours, mover=mover)
                        and (touched is None or touched == e.capture)]
        if not alternatives:
            return None
        captures = [e for e in alternatives if e.capture is not None]
        if captures and (pos.capture_targets & chess.BB_SQUARES[mover] or (
                colours is None and self._trail.squares() & pos.mask
                & ~int(_squares(mover, *(e.capture for e in captures))))):
            # The opponent may be capturing the piece just moved and have put his own
            # piece back, or have begun a capture elsewhere (another piece was lifted
            # and set down meanwhile): only the players can tell.
            previous = pos.previous_board()
            old = previous.san(last)
            choices = [Choice(f"{previous.san(e.move)} instead of {old}", move=e.move,
                              undo_count=1) for e in alternatives if e.move is not None]
            return self._ask(pos, choices, f"Was the last move changed, or is "
                                           f"{_side(pos.turn)} playing")
        return self._correct(pos, alternatives)

    def _fits(self, expected: Expected, colours: Colours | None, *,
              mover: chess.Square | None = None) -> bool:
        """Whether a snapshot showing ``colours`` (occupancy already equal) is this action."""
        move = expected.move
        if colours is not None:
            if colours == expected.colours:
                return True
            if move is None or not move.promotion:
                return False
            # A pawn set on the last rank instead of its blue piece: still the promotion
            # (the mover's own pawn: an opposing piece still there is no capture).
            to_bb = chess.BB_SQUARES[move.to_square]
            white, black, blue = expected.colours
            if expected.turn == chess.WHITE:
                return colours == (white | to_bb, black, blue & ~to_bb)
            return colours == (white, black | to_bb, blue & ~to_bb)
        if expected.capture is not None and move is not None:
            origin = move.from_square if mover is None else mover
            return self._trail.captured(origin, expected.capture)
        return True

    def _unsure_placement(self, pos: Position) -> SyncResult | None:
        """A card's piece is to be placed, the board shows what it showed, and the
        sensor saw some sign of a piece on squares where it may go (a pale piece on
        a pale square, a piece behind a nearer one): ask whether it stands there,
        never assume."""
        if not self._unsure or pos.pending is None or pos.removals or pos.over:
            return None
        drops = [e.move for square in chess.scan_forward(self._unsure)
                 for e in pos.index.get(pos.mask | chess.BB_SQUARES[square], ())
                 if e.move is not None and e.move.drop]
        if not drops:
            return None
        kind, _ = parse_card_letter(pos.pending)
        name, side = card_name(kind), _side(pos.turn)
        where = [chess.square_name(move.to_square) for move in drops]
        choices = tuple(Choice(f"the {name} on {square}", move=move)
                        for square, move in zip(where, drops, strict=True))
        question = (f"Is {side}'s {name} on {where[0]}?" if len(drops) == 1
                    else f"Where is {side}'s {name}: {', or '.join(where)}?")
        return SyncResult(SyncKind.ASK, f"{question} The camera cannot tell for sure.",
                          led=LedHint(targets=chess.SquareSet(m.to_square for m in drops)),
                          choices=choices)

    def _colour_doubt(self, pos: Position, mask: int, colours: Colours) -> SyncResult | None:
        """The board shows a legal drop or move (no capture, no promotion) by occupancy,
        with every colour as it would leave them except the piece it sets down, which
        the sensor reads in another colour (a white piece read blue or black in poor
        light): ask whether it is that action, never assume."""
        doubts: list[tuple[chess.Move, str]] = []
        for expected in pos.index.get(mask, ()):
            move = expected.move
            if move is None or move.promotion or expected.capture is not None:
                continue
            differs = 0
            for want, seen in zip(expected.colours, colours, strict=True):
                differs |= want ^ seen
            read = colour_at(colours, move.to_square)
            if differs == chess.BB_SQUARES[move.to_square] and read is not None:
                doubts.append((move, read))
        if not doubts:
            return None
        board = pos.board
        choices, questions = [], []
        for move, _ in doubts:
            where = chess.square_name(move.to_square)
            if move.drop:
                name = chess.piece_name(move.drop) if pos.pending is None else \
                    card_name(parse_card_letter(pos.pending)[0])
                choices.append(Choice(f"the {name} on {where}", move=move,
                                      recolour=(move.to_square,)))
                questions.append(f"Is {_side(pos.turn)}'s {name} on {where}?")
            else:
                choices.append(Choice(f"play {board.san(move)}", move=move,
                                      recolour=(move.to_square,)))
                questions.append(f"Did the {piece_words(board, move.from_square)} go from "
                                 f"{chess.square_name(move.from_square)} to {where}?")
        reads = "; ".join(dict.fromkeys(f"the piece on {chess.square_name(m.to_square)} "
                                        f"looks {read}" for m, read in doubts))
        question = questions[0] if len(questions) == 1 else \
            "Which action is it: " + ", or ".join(c.label for c in choices) + "?"
        return SyncResult(SyncKind.ASK, f"{question} The camera cannot tell its colour for "
                                        f"sure: {reads}.",
                          led=LedHint(targets=chess.SquareSet(m.to_square for m, _ in doubts)),
                          choices=tuple(choices))

    def _unsure_move(self, pos: Position, mover: chess.Square) -> SyncResult | None:
        """A piece of the side to move is gone from ``mover``, nothing else changed,
        and the sensor saw some sign of a piece on squares it may move to (a pale
        piece set on a pale square): ask whether it went there, never assume. Not
        asked when touch-move is enforced and another piece was lifted first (the
        lifted-piece message says so)."""
        touched = self._trail.touched
        if self.touch_move == "enforce" and touched is not None and touched != mover \
                and pos.targets(touched):
            return None
        unsure = self._unsure & int(pos.targets(mover))
        if not unsure:
            return None
        rest = pos.mask & ~chess.BB_SQUARES[mover]
        moves = [e.move for square in chess.scan_forward(unsure)
                 for e in pos.index.get(rest | chess.BB_SQUARES[square], ())
                 if e.move is not None and not e.move.drop and e.move.from_square == mover
                 and e.capture is None]
        if not moves:
            return None
        board = pos.board
        name = piece_words(board, mover)
        where = list(dict.fromkeys(chess.square_name(move.to_square) for move in moves))
        choices = tuple(Choice(f"play {board.san(move)}", move=move) for move in moves)
        question = (f"Did the {name} go from {chess.square_name(mover)} to {where[0]}?"
                    if len(where) == 1 else
                    f"Where did the {name} from {chess.square_name(mover)} go: "
                    f"{', or '.join(where)}?")
        return SyncResult(SyncKind.ASK, f"{question} The camera cannot tell for sure.",
                          led=LedHint(targets=chess.SquareSet(m.to_square for m in moves)),
                          choices=choices)

    def _in_sync(self, pos: Position) -> SyncResult:
        side = _side(pos.turn)
        last = _move_squares(pos.last_move)
        if pos.over:
            outcome = self._game.outcome
            text = outcome.describe() if outcome is not None else "the game is over"
            return SyncResult(SyncKind.IN_SYNC, f"Game over: {text}.",
                              led=LedHint(last_move=last))
        if pos.pending is not None:
            kind, _ = parse_card_letter(pos.pending)
            if pos.removals:
                return SyncResult(SyncKind.IN_SYNC,
                                  f"{side}'s joker: take one of the lit pieces off the board.",
                                  led=LedHint(targets=pos.removals, last_move=last))
            return SyncResult(SyncKind.IN_SYNC,
                              f"{side} to place the {card_name(kind)} on a lit square.",
                              led=LedHint(targets=pos.drop_targets, last_move=last))
        if not pos.moves:
            message = f"{side} to flip a card."
        elif pos.can_flip:
            message = f"{side} to play: a move on the board, or flip a card."
        else:
            message = f"{side} to play a move."
        touched = self._trail.touched
        if touched is not None and self.touch_move != "off" and pos.targets(touched):
            message += (f" Touch-move: the {piece_words(pos.board, touched)} from "
                        f"{chess.square_name(touched)} was lifted and must move (R11).")
            return SyncResult(SyncKind.IN_SYNC, message,
                              led=LedHint(targets=pos.targets(touched), last_move=last))
        return SyncResult(SyncKind.IN_SYNC, message, led=LedHint(last_move=last))

    # Forward actions -------------------------------------------------

    def _forward_choices(self, pos: Position, fits: Sequence[Expected]) -> list[Choice]:
        choices: list[Choice] = []
        for expected in fits:
            if expected.remove is not None:
                name = piece_words(pos.board, expected.remove)
                choices.append(Choice(f"remove the {name} from "
                                      f"{chess.square_name(expected.remove)}",
                                      remove=expected.remove))
            elif expected.move is not None:
                choices.append(Choice(f"play {pos.board.san(expected.move)}",
                                      move=expected.move))
        return choices

    def _takeback_choice(self, pos: Position, undo_count: int) -> Choice:
        texts = []
        board = pos.board.copy()
        for _ in range(undo_count):
            action = board.peek_action()
            move = board.pop()
            if action.move:
                texts.append(board.san(move))
            elif action.card:
                texts.append(f"flip {action.card}")
            elif action.square is not None:
                texts.append(f"removal on {chess.square_name(action.square)}")
        label = "take back " + ", ".join(reversed(texts))
        return Choice(label, undo_count=undo_count)

    def _commit_forward(self, pos: Position, fits: Sequence[Expected]) -> SyncResult:
        first = fits[0]
        if first.remove is not None and len(fits) == 1:
            return self._commit_removal(pos, first.remove)
        moves = [e.move for e in fits if e.move is not None]
        if len(moves) != len(fits):
            return self._ask(pos, self._forward_choices(pos, fits),
                             "More than one action fits the board")
        refusal, warned = self._touch_check(pos, moves[0])
        if refusal is not None:
            return refusal
        if len(moves) == 1:
            return self._commit(pos, moves[0], warned)
        if all(m.from_square == moves[0].from_square and m.to_square == moves[0].to_square
               for m in moves):
            return self._ask_promotion(pos, moves)
        return self._ask(pos, self._forward_choices(pos, fits),
                         "More than one action fits the board (the order of lifts did "
                         "not tell them apart)")

    def _commit_pair(self, pos: Position,
                     pairs: Sequence[tuple[Expected, Expected]]) -> SyncResult:
        """A move and the opponent's reply, both made before the board settled."""
        board = pos.board
        texts = []
        for first, second in pairs:
            assert first.move is not None and second.move is not None
            after = board.copy(stack=False)
            after.push(first.move)
            texts.append((board.san(first.move), after.san(second.move)))
        if len(pairs) > 1:
            choices = [Choice(f"{a} then {b}", move=first.move, reply=second.move)
                       for (a, b), (first, second) in zip(texts, pairs, strict=True)]
            return self._ask(pos, choices, "Two moves were made at once")
        first, second = pairs[0]
        assert first.move is not None and second.move is not None
        refusal, warned = self._touch_check(pos, first.move)
        if refusal is not None:
            return refusal
        san, reply = texts[0]
        result = self._commit(pos, first.move, warned)
        if not result.committed:
            return result
        self._committing = True
        try:
            self._game.play(second.move)
        except ValueError as error:
            return dataclasses.replace(result, message=f"{result.message} The reply {reply} "
                                                       f"was refused: {error}.")
        finally:
            self._committing = False
        return dataclasses.replace(
            result, message=f"{_side(pos.turn)} played {san} and {_side(not pos.turn)} "
                            f"replied {reply} at once.{self._game_over_note()}",
            reply=second.move,
            led=LedHint(last_move=_move_squares(second.move)))

    def _ask_promotion(self, pos: Position, moves: list[chess.Move]) -> SyncResult:
        moves = sorted(moves, key=lambda m: _PROMOTION_ORDER.index(m.promotion or chess.QUEEN))
        square = chess.square_name(moves[0].to_square)
        choices = tuple(Choice(f"blue {chess.piece_name(m.promotion or chess.QUEEN)}",
                               move=m) for m in moves)
        names = ", ".join(c.label for c in choices)
        return SyncResult(SyncKind.ASK,
                          f"Promotion on {square}: which blue piece? ({names})",
                          led=LedHint(targets=_squares(moves[0].to_square)), choices=choices)

    def _ask(self, pos: Position, choices: list[Choice], why: str) -> SyncResult:
        squares = 0
        for choice in choices:
            squares |= int(_move_squares(choice.move))
            if choice.remove is not None:
                squares |= chess.BB_SQUARES[choice.remove]
        options = ", or ".join(c.label for c in choices)
        return SyncResult(SyncKind.ASK, f"{why}: which one? {options}?",
                          led=LedHint(targets=chess.SquareSet(squares)),
                          choices=tuple(choices))

    def _stale(self, pos: Position, fits: Sequence[Expected], mask: int,
               colours: Colours | None) -> SyncResult:
        """The board already showed this when the game reached its position (a piece
        set down before its card was flipped, a move undone on the screen but not on
        the board): confirm it, or put the board right; never assume."""
        choices = self._forward_choices(pos, fits)
        fixes = fixes_towards(pos.board, pos.colours, mask, colours)
        message = sentence([
            "The board shows an action the game has not played: confirm "
            + " or ".join(c.label for c in choices) + " on the screen, or put the board "
            "right: " + "; ".join(f.text for f in fixes)])
        return SyncResult(SyncKind.ASK, message,
                          led=LedHint(targets=chess.SquareSet(
                              int(_move_squares(choices[0].move))),
                              fix=_fix_squares(fixes)),
                          choices=tuple(choices), fixes=fixes)

    def _touch_check(self, pos: Position, move: chess.Move,
                     ) -> tuple[SyncResult | None, chess.Square | None]:
        touched = self._trail.touched
        if self.touch_move == "off" or move.drop or touched is None \
                or touched == move.from_square or not pos.targets(touched):
            return None, None
        if self.touch_move == "warn":
            return None, touched
        board = pos.board
        name = piece_words(board, touched)
        fixes = fixes_towards(board, pos.colours, self._mask, self._colours)
        message = sentence([f"Touch-move (R11): the {name} on {chess.square_name(touched)} "
                            f"was lifted first, so it must move; "
                            f"{describe_action(board, move)} is refused"]) + " " \
            + sentence([f.text for f in fixes])
        return SyncResult(SyncKind.TOUCH_MOVE, message,
                          led=LedHint(targets=pos.targets(touched),
                                      fix=_fix_squares(fixes)),
                          move=move, fixes=fixes, reason="touch-move (R11)"), None

    def _commit(self, pos: Position, move: chess.Move,
                warned: chess.Square | None = None) -> SyncResult:
        san = pos.board.san(move)
        side = _side(pos.turn)
        self._committing = True
        try:
            self._game.play(move)
        except ValueError as error:
            return SyncResult(SyncKind.ILLEGAL, f"{san} was refused: {error}.", move=move,
                              reason=str(error))
        finally:
            self._committing = False
        message = f"{side} played {san}."
        kind = SyncKind.COMMITTED
        if warned is not None:
            kind = SyncKind.TOUCH_MOVE
            message += (f" Touch-move warning (R11): the "
                        f"{piece_words(pos.board, warned)} on {chess.square_name(warned)} "
                        f"was lifted first.")
        message += self._game_over_note()
        return SyncResult(kind, message, led=LedHint(last_move=_move_squares(move)),
                          move=move, committed=True)

    def _commit_removal(self, pos: Position, square: chess.Square) -> SyncResult:
        name = piece_words(pos.board, square)
        self._committing = True
        try:
            self._game.remove(square)
        except ValueError as error:
            return SyncResult(SyncKind.ILLEGAL, f"Removing the {name} was refused: {error}.",
                              reason=str(error))
        finally:
            self._committing = False
        message = (f"{_side(pos.turn)}'s joker removed the {name} from "
                   f"{chess.square_name(square)}." + self._game_over_note())
        return SyncResult(SyncKind.COMMITTED, message, led=LedHint(last_move=_squares(square)),
                          removed=square, committed=True)

    def _game_over_note(self) -> str:
        outcome = self._game.outcome
        return f" Game over: {outcome.describe()}." if outcome is not None else ""

    # Corrections and takebacks -----------------------------------------

    def _correct(self, pos: Position, alternatives: Sequence[Expected]) -> SyncResult:
        last = pos.last_move
        assert last is not None
        previous = pos.previous_board()
        old = previous.san(last)
        moves = [e.move for e in alternatives if e.move is not None]
        if len(moves) != 1:
            choices = [Choice(f"{previous.san(m)} instead of {old}", move=m, undo_count=1)
                       for m in moves]
            return self._ask(pos, choices, "The last move was changed")
        move = moves[0]
        new = previous.san(move)
        self._committing = True
        try:
            self._game.undo()
            try:
                self._game.play(move)
            except ValueError:
                self._game.play(last)
                raise
        except ValueError as error:
            return SyncResult(SyncKind.ILLEGAL, f"Correcting {old} to {new} failed: {error}.",
                              reason=str(error))
        finally:
            self._committing = False
        why = (f"the piece was moved on to {chess.square_name(move.to_square)}" if last.drop
               else f"the piece went on past {chess.square_name(last.to_square)}")
        return SyncResult(SyncKind.CORRECTED,
                          f"Corrected: {_side(previous.turn)} played {new}, not {old} "
                          f"({why})." + self._game_over_note(),
                          led=LedHint(last_move=_move_squares(move)), move=move,
                          undo_count=1, committed=True)

    def _takeback(self, pos: Position, undo_count: int, *,
                  pairs: Sequence[tuple[Expected, Expected]] = (),
                  victim: chess.Square | None = None) -> SyncResult:
        """Offer to undo ``undo_count`` actions (``choices[0]``); ``pairs``: a move and
        its reply that leave the same board, offered after it; ``victim``: the
        opponent may instead be capturing the piece on it."""
        choice = self._takeback_choice(pos, undo_count)
        choices = [choice]
        board = pos.board
        for first, second in pairs:
            assert first.move is not None and second.move is not None
            after = board.copy(stack=False)
            after.push(first.move)
            choices.append(Choice(f"{board.san(first.move)} then {after.san(second.move)}",
                                  move=first.move, reply=second.move))
        message = (f"The board shows an earlier position: {choice.label}? "
                   f"Confirm the undo, or put the pieces back.")
        targets = chess.SquareSet()
        if victim is not None:
            targets = chess.SquareSet(a for a, v in pos.captures if v == victim) \
                | _squares(victim)
            message = (f"The {piece_words(board, victim)} on {chess.square_name(victim)} "
                       f"is lifted: capturing it, or {choice.label}? Capture, or confirm "
                       f"the undo, or put it back.")
        elif len(choices) > 1:
            message += " Or were two moves made at once: " + ", or ".join(
                c.label for c in choices[1:]) + "?"
        return SyncResult(SyncKind.TAKEBACK, message,
                          led=LedHint(targets=targets,
                                      last_move=_move_squares(pos.last_move)),
                          choices=tuple(choices), undo_count=undo_count)

    # Actions under way, illegal actions, mismatches ---------------------

    def _partial(self, pos: Position, mask: int, colours: Colours | None,
                 ) -> SyncResult | None:
        """A legal action under way (WAITING), or a capture that is not legal."""
        lifted = pos.mask & ~mask
        if mask & ~pos.mask or not lifted or pos.pending is not None or pos.over:
            return None
        board = pos.board
        own = lifted & board.occupied_co[pos.turn]
        opp = lifted & board.occupied_co[not pos.turn]
        if chess.popcount(own) > 1 or chess.popcount(opp) > 1:
            return None
        recoloured = 0
        if colours is not None:
            for seen, want in zip(colours, pos.colours, strict=True):
                recoloured |= (seen ^ want) & mask
        if own and not opp:
            mover = chess.lsb(own)
            victim = self._capture_attempt(pos, mover, mask, colours, recoloured)
            if victim is not None:
                return self._illegal_result(pos, _with_promotion(board, chess.Move(
                    mover, victim)), mask, colours)
            if recoloured:
                return None
            return self._unsure_move(pos, mover) or self._lifted(pos, mover)
        if recoloured:
            return None
        if opp and not own:
            victim = chess.lsb(opp)
            if not pos.capture_targets & opp:
                return None
            undo_count = self._earlier(pos, mask, colours)
            if undo_count is not None:
                # The piece just placed, lifted: a takeback, or the start of a capture.
                return self._takeback(pos, undo_count, victim=victim)
            attackers = chess.SquareSet(a for a, v in pos.captures if v == victim)
            return SyncResult(SyncKind.WAITING,
                              f"The {piece_words(board, victim)} on "
                              f"{chess.square_name(victim)} is lifted: capturing it?",
                              led=LedHint(targets=attackers | _squares(victim)))
        mover, victim = chess.lsb(own), chess.lsb(opp)
        if (mover, victim) in pos.captures:
            return SyncResult(SyncKind.WAITING,
                              f"{_side(pos.turn)} is capturing on {chess.square_name(victim)} "
                              f"with the {piece_words(board, mover)}.",
                              led=LedHint(targets=_squares(victim)))
        return self._illegal_result(pos, _with_promotion(board, chess.Move(mover, victim)),
                                    mask, colours)

    def _capture_attempt(self, pos: Position, mover: chess.Square, mask: int,
                         colours: Colours | None, recoloured: int) -> chess.Square | None:
        """The square of an opposing piece the lifted ``mover`` was just set on, if seen."""
        opp = pos.board.occupied_co[not pos.turn]
        if colours is not None:
            mover_colour = colour_at(pos.colours, mover)
            if chess.popcount(recoloured) == 1 and recoloured & opp:
                victim = chess.lsb(recoloured)
                if colour_at(colours, victim) in (mover_colour, "blue"):
                    return victim
            return None
        candidates = [sq for sq in chess.scan_forward(opp & mask)
                      if self._trail.captured(mover, sq)]
        return candidates[-1] if len(candidates) == 1 else None

    def _lifted(self, pos: Position, square: chess.Square) -> SyncResult:
        board = pos.board
        name = piece_words(board, square)
        where = chess.square_name(square)
        targets = pos.targets(square)
        if not targets:
            return SyncResult(SyncKind.WAITING,
                              f"The {name} lifted from {where} has no legal move: put it back "
                              f"on {where}.",
                              led=LedHint(fix=_squares(square)))
        message = f"The {name} is lifted from {where}."
        touched = self._trail.touched
        if touched is not None and touched != square and self.touch_move != "off" \
                and pos.targets(touched):
            message += (f" Touch-move (R11): the {piece_words(board, touched)} from "
                        f"{chess.square_name(touched)} was lifted first and must move.")
        captures = [v for a, v in pos.captures if a == square]
        if captures and self._colours is None:
            message += " To capture, lift the captured piece off its square first or after."
        return SyncResult(SyncKind.WAITING, message, led=LedHint(targets=targets))

    def _illegal(self, pos: Position, mask: int, colours: Colours | None) -> SyncResult | None:
        """A complete physical action that is not legal: say why."""
        board = pos.board
        lifted = pos.mask & ~mask
        added = mask & ~pos.mask
        if chess.popcount(added) != 1 or chess.popcount(lifted) > 1:
            if pos.pending is not None and pos.pending.upper() == "J" and not added \
                    and chess.popcount(lifted) == 1:
                return self._illegal_removal(pos, chess.lsb(lifted), mask, colours)
            return None
        target = chess.lsb(added)
        if not lifted:
            piece = board.pending_piece
            what = None if piece else f"a piece set down on {chess.square_name(target)}"
            return self._illegal_result(pos, chess.Move(target, target,
                                                        drop=piece or chess.PAWN),
                                        mask, colours, what=what)
        origin = chess.lsb(lifted)
        if not board.occupied_co[pos.turn] & chess.BB_SQUARES[origin]:
            return None
        return self._illegal_result(pos, _with_promotion(board, chess.Move(origin, target)),
                                    mask, colours)

    def _illegal_removal(self, pos: Position, square: chess.Square, mask: int,
                         colours: Colours | None) -> SyncResult:
        board = pos.board
        piece = board.piece_at(square)
        if piece is not None and piece.color == pos.turn:
            reason = "the joker removes an opposing piece, not one's own"
        elif piece is not None and piece.piece_type == chess.KING:
            reason = "the king cannot be removed"
        else:
            reason = "removing it would not lift the check"
        fixes = fixes_towards(board, pos.colours, mask, colours)
        return SyncResult(SyncKind.ILLEGAL,
                          sentence([f"Removing the {piece_words(board, square)} is not "
                                    f"allowed: {reason}"]) + " "
                          + sentence([f.text for f in fixes]),
                          led=LedHint(targets=pos.removals, fix=_fix_squares(fixes)),
                          fixes=fixes, reason=reason)

    def _illegal_result(self, pos: Position, move: chess.Move, mask: int,
                        colours: Colours | None, *, what: str | None = None,
                        ) -> SyncResult | None:
        board = pos.board
        outcome = self._game.outcome
        if outcome is not None:
            reason: str | None = f"the game is over ({outcome.describe()})"
        else:
            reason = board.why_illegal(move)
        if reason is None:
            return None  # legal by occupancy: the colours are what is wrong
        fixes = fixes_towards(board, pos.colours, mask, colours)
        if move.drop and pos.pending is not None and len(fixes) == 1:
            name = chess.square_name(move.to_square)
            fixes = (Fix(move.to_square, f"take the {chess.piece_name(move.drop)} off {name} "
                                         f"and place it on a lit square"),)
        what = what or describe_action(board, move)
        message = sentence([f"{what[0].upper()}{what[1:]} is not legal: {reason}"]) + " " \
            + sentence([f.text for f in fixes])
        return SyncResult(SyncKind.ILLEGAL, message,
                          led=LedHint(fix=_fix_squares(fixes), targets=pos.drop_targets),
                          move=move, fixes=fixes, reason=reason)

    def _catch_up(self, pos: Position, mask: int, colours: Colours | None) -> SyncResult:
        """The game changed elsewhere (a move typed in, an undo) and nothing has been
        done on the board since: say how to make the board follow."""
        fixes = fixes_towards(pos.board, pos.colours, mask, colours, back=False)
        message = sentence(["The board has not followed the game yet: "
                            + "; ".join(f.text for f in fixes)])
        return SyncResult(SyncKind.MISMATCH, message,
                          led=LedHint(fix=_fix_squares(fixes), targets=pos.drop_targets,
                                      last_move=_move_squares(pos.last_move)),
                          fixes=fixes)

    def _mismatch(self, pos: Position, mask: int, colours: Colours | None) -> SyncResult:
        fixes = fixes_towards(pos.board, pos.colours, mask, colours)
        outcome = self._game.outcome
        head = "The board does not match the game: "
        if outcome is not None:
            head = (f"The game is over ({outcome.describe()}); the board does not match "
                    f"its final position: ")
        message = sentence([head + "; ".join(f.text for f in fixes)])
        return SyncResult(SyncKind.MISMATCH, message,
                          led=LedHint(fix=_fix_squares(fixes), targets=pos.drop_targets,
                                      last_move=_move_squares(pos.last_move)),
                          fixes=fixes)


def _fix_squares(fixes: Sequence[Fix]) -> chess.SquareSet:
    return _squares(*(f.square for f in fixes))


def _with_promotion(board: chess.Board, move: chess.Move) -> chess.Move:
    """A pawn move to the last rank with a promotion piece, so the reason given is
    the real one (and not "must promote")."""
    piece = board.piece_at(move.from_square)
    if piece is not None and piece.piece_type == chess.PAWN \
            and chess.BB_SQUARES[move.to_square] & chess.BB_BACKRANKS:
        available = getattr(board, "blue_available", None)
        if available is not None:
            kinds = available(piece.color)
            if kinds:
                return chess.Move(move.from_square, move.to_square, kinds[0])
    return move
