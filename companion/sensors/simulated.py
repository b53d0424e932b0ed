"""A simulated physical board: pieces, hands, switches and a camera, in software.

:class:`SimulatedBoard` is the default board of ``raindrop play`` and of the
app, and the test bed of :mod:`companion.sync`. It holds pieces (white, black
or blue) on squares and a hand, and reports what a sensor would see through
the :class:`~companion.sensors.BoardSource` protocol: occupancy only (a
reed-switch board), or occupancy with colours (a camera, ``sim:color``).

Time is virtual and passes only when a scripted human acts (each step takes
``step`` seconds) or :meth:`SimulatedBoard.advance` is called, so tests run
synchronously, without sleeps, and the same script always gives the same
snapshots. Like every adapter, the board settles: a snapshot is reported only
after what it senses has been still for ``settle`` seconds (default 0.25), so
switch bounce and pieces swept past squares are never reported as boards; what
was seen for at least ``debounce`` seconds in between (a piece lifted and a
victim taken off within the settling time) goes with the next snapshot as its
``trail``, as the reed board's firmware reports every debounced change.

Hand occlusion (colour sensing): while a hand lingers over squares, the
camera cannot see their colours. Such a snapshot is reported with
``colors=None`` (occupancy only, as if from a reed-switch board); BoardSync
then decides by occupancy and the order of events alone. On an occupancy-only
board a piece held over an empty square may close its switch: a "ghost" that
is reported if the hand lingers longer than the settling time.
"""

from __future__ import annotations

import dataclasses
import logging
import shlex
from collections.abc import Callable, Iterable

import chess

from companion.limits import is_digits
from companion.sensors.snapshot import TRAIL_LIMIT, BoardSnapshot, Glimpse, PieceColor
from companion.sensors.source import (
    BoardSourceError,
    LedHint,
    SnapshotCallback,
    SourceStatus,
    StatusCallback,
)

LOGGER = logging.getLogger(__name__)

DEFAULT_SETTLE = 0.25   # seconds a board must be still before it is reported
DEFAULT_STEP = 0.4      # seconds one human step takes (longer than the settling time)
DEFAULT_DEBOUNCE = 0.03  # seconds a change must hold to join the trail (longer than FLICKER)
FLICKER = 0.02          # seconds between two contacts of a bouncing switch
SLIDE_STEP = 0.08       # seconds a slid piece spends on each square it passes


class SimulationError(ValueError):
    """A scripted or typed physical action that cannot be done (e.g. lifting from an
    empty square)."""


@dataclasses.dataclass(frozen=True)
class SimPiece:
    """A physical piece: its colour as a camera sees it, and its letter for display
    (``"N"`` White's knight, ``"p"`` Black's pawn; blue pieces keep their side's case)."""

    color: PieceColor
    symbol: str = "?"

    @classmethod
    def of(cls, piece: chess.Piece, *, blue: bool = False) -> SimPiece:
        color: PieceColor = "blue" if blue else ("white" if piece.color else "black")
        return cls(color, piece.symbol())


HELP = """\
Physical actions on the simulated board (squares like e4):
  lift SQ                  pick up the piece on SQ (it stays in your hand)
  place SQ [COLOR] [P] [faint | seen COLOR]
                           set down the piece in your hand, or a new piece
                           (COLOR white|black|blue, P its letter, e.g. N);
                           faint: the sensor sees it only faintly (a camera:
                           a pale piece on a pale square), so it is asked about;
                           seen COLOR: a colour sensor reads it in that colour
                           (a camera's white piece read blue in poor light)
  remove SQ                take the piece on SQ off the board (a capture victim)
  move FROM TO [faint | seen COLOR]
                           lift FROM, place on TO (faint, seen: as for place)
  capture FROM TO [victim-first]
                           capture: mover lifted first, or the victim first
  slide FROM TO [pause SQ] drag a piece along the board, maybe resting on SQ
  putback                  put every piece in your hand back where it was
  knock SQ [SECONDS]       knock the piece on SQ over, stand it up SECONDS later
  hover SQ [SECONDS]       hold the piece in your hand over SQ
  bounce SQ [N]            a switch on SQ flickers N times
  occlude SQ... [SECONDS]  a hand hides squares from the camera
  wait SECONDS             let time pass
  show                     print the board"""


class SimulatedBoard:
    """A virtual physical board reporting settled snapshots (see the module docstring)."""

    def __init__(self, *, colors: bool = False, settle: float = DEFAULT_SETTLE,
                 step: float = DEFAULT_STEP, name: str = "sim",
                 debounce: float = DEFAULT_DEBOUNCE) -> None:
        if settle < 0 or step <= 0 or not 0 <= debounce <= settle:
            raise SimulationError("settle must be >= 0, step > 0 and debounce between 0 "
                                  "and settle seconds")
        self.name = name
        self.colors = colors
        self.settle = settle
        self.step = step
        self.debounce = debounce
        self.now = 0.0
        self.squares: dict[chess.Square, SimPiece] = {}
        self.hand: list[tuple[SimPiece, chess.Square | None]] = []
        self.hint = LedHint()
        self.last_message = ""
        self.supply: Callable[[], SimPiece | None] | None = None
        self._ghosts = 0
        self._dark = 0
        self._hidden = 0
        self._faint = 0  # pieces the sensor sees only a faint sign of (reported unsure)
        self._seen: dict[chess.Square, PieceColor] = {}  # pieces read in another colour
        self._changed_at: float | None = None
        self._reported: tuple[int, tuple[tuple[int, str], ...] | None, int] | None = None
        self._on_snapshot: SnapshotCallback | None = None
        self._on_status: StatusCallback | None = None
        self._trail: list[Glimpse] = []
        self._held: tuple[int, float] | None = None   # the occupancy sensed now, since when
        self._trailed: int | None = None               # the last occupancy reported or trailed
        self.sent = 0

    # ------------------------------------------------------------------
    # BoardSource

    def start(self, on_snapshot: SnapshotCallback, on_status: StatusCallback) -> None:
        """Start reporting; the board as it stands is reported at once (it is still)."""
        self._on_snapshot = on_snapshot
        self._on_status = on_status
        mode = "occupancy and colours" if self.colors else "occupancy"
        on_status(SourceStatus(self.name, True, f"simulated board ({mode}) ready"))
        self._changed_at = None
        self._reported = None
        self._clear_trail()
        self._emit()

    def show(self, hint: LedHint) -> None:
        self.hint = hint

    def stop(self) -> None:
        if self._on_status is not None:
            self._on_status(SourceStatus(self.name, False, "simulated board stopped"))
        self._on_snapshot = None
        self._on_status = None

    # ------------------------------------------------------------------
    # What a sensor sees

    @property
    def occupied(self) -> int:
        mask = 0
        for square in self.squares:
            mask |= chess.BB_SQUARES[square]
        return mask

    def _sensed_mask(self) -> int:
        return self.occupied & ~self._dark & ~self._faint | self._ghosts

    def sensed(self) -> BoardSnapshot:
        """What the sensor sees right now (settled or not), with the trail since the
        last report."""
        occupied = self._sensed_mask()
        colors: dict[chess.Square, PieceColor] | None = None
        if self.colors and not self._hidden:
            colors = {sq: self._seen.get(sq, piece.color) for sq, piece in self.squares.items()
                      if occupied & chess.BB_SQUARES[sq]}
        unsure = self._faint & self.occupied & ~occupied
        return BoardSnapshot(chess.SquareSet(occupied), colors, self.now, self.name,
                             tuple(self._trail), chess.SquareSet(unsure))

    def _key(self, snapshot: BoardSnapshot
             ) -> tuple[int, tuple[tuple[int, str], ...] | None, int]:
        colors = None if snapshot.colors is None else tuple(sorted(snapshot.colors.items()))
        return (snapshot.mask, colors, int(snapshot.unsure))

    def _emit(self) -> None:
        snapshot = self.sensed()
        key = self._key(snapshot)
        self._clear_trail()
        if key == self._reported and not snapshot.trail:
            return
        self._reported = key
        if self._on_snapshot is not None:
            self.sent += 1
            self._on_snapshot(snapshot)

    def _clear_trail(self) -> None:
        mask = self._sensed_mask()
        self._trail = []
        self._trailed = mask
        self._held = (mask, self.now)

    def _touch(self) -> None:
        """Something the sensor sees may have changed now: the settling timer starts
        again, and what was sensed until now joins the trail if it held long enough
        (``debounce``)."""
        self._changed_at = self.now
        mask = self._sensed_mask()
        held = self._held
        if held is not None and held[0] == mask:
            return
        if held is not None and self.now - held[1] >= self.debounce \
                and held[0] != self._trailed:
            self._trail = [*self._trail[-(TRAIL_LIMIT - 1):], Glimpse(held[0], held[1])]
            self._trailed = held[0]
        self._held = (mask, self.now)

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass; report the board if it settles meanwhile."""
        end = self.now + max(0.0, seconds)
        if self._changed_at is not None and self._changed_at + self.settle <= end:
            self.now = max(self.now, self._changed_at + self.settle)
            self._changed_at = None
            self._emit()
        self.now = end

    # ------------------------------------------------------------------
    # Setting up

    def set_position(self, board: chess.BaseBoard) -> None:
        """Set the pieces as on ``board`` (blue for its promoted pieces); the hand empties."""
        self.squares = {
            square: SimPiece.of(piece, blue=bool(board.promoted & chess.BB_SQUARES[square]))
            for square, piece in board.piece_map().items()}
        self.hand = []
        self._ghosts = self._dark = self._hidden = self._faint = 0
        self._seen = {}
        self._touch()
        self._clear_trail()
        self.advance(self.settle)

    # ------------------------------------------------------------------
    # One human step each (time passes)

    def lift(self, square: chess.Square, *, bounce: int = 0, hold: float | None = None) -> None:
        """Pick up the piece on ``square``; it stays in the hand."""
        piece = self.squares.pop(square, None)
        if piece is None:
            raise SimulationError(f"there is no piece on {chess.square_name(square)} to lift")
        self._faint &= ~chess.BB_SQUARES[square]
        self._seen.pop(square, None)
        self.hand.append((piece, square))
        self._after(square, bounce, hold)

    def remove(self, square: chess.Square, *, bounce: int = 0,
               hold: float | None = None) -> SimPiece:
        """Take the piece on ``square`` off the board (set aside: a captured piece)."""
        piece = self.squares.pop(square, None)
        if piece is None:
            raise SimulationError(f"there is no piece on {chess.square_name(square)} to remove")
        self._faint &= ~chess.BB_SQUARES[square]
        self._seen.pop(square, None)
        self._after(square, bounce, hold)
        return piece

    def place(self, square: chess.Square, piece: SimPiece | None = None, *, bounce: int = 0,
              hold: float | None = None, faint: bool = False,
              seen: PieceColor | None = None) -> None:
        """Set down ``piece`` (a new piece), else the piece last lifted, on ``square``;
        ``faint``: the sensor sees only a faint sign of it and reports the square
        unsure (a camera's pale piece on a pale square), until it is lifted;
        ``seen``: a colour sensor reads it in that colour until it is lifted."""
        if square in self.squares:
            raise SimulationError(f"{chess.square_name(square)} is not empty")
        if piece is None:
            if self.hand:
                piece, _ = self.hand.pop()
            elif self.supply is not None and (supplied := self.supply()) is not None:
                piece = supplied
            else:
                raise SimulationError("there is no piece in the hand: say which piece to "
                                      "place, e.g. 'place e4 white N'")
        self.squares[square] = piece
        self._ghosts &= ~chess.BB_SQUARES[square]
        if faint:
            self._faint |= chess.BB_SQUARES[square]
        if seen is not None:
            self._seen[square] = seen
        self._after(square, bounce, hold)

    def knock(self, square: chess.Square, seconds: float, *,
              hold: float | None = None) -> None:
        """The piece on ``square`` is knocked over (its switch opens, the camera sees
        the square empty) and stood up again on its square ``seconds`` later (an
        adjustment, j'adoube, reads the same); the hand keeps what it holds."""
        piece = self.squares.pop(square, None)
        if piece is None:
            raise SimulationError(f"there is no piece on {chess.square_name(square)} to knock")
        self._touch()
        self.advance(seconds)
        self.squares[square] = piece
        self._touch()
        self.advance(self.step if hold is None else hold)

    def swap_hand(self, piece: SimPiece) -> None:
        """Exchange the piece last lifted for ``piece`` (a pawn for its blue piece)."""
        if not self.hand:
            raise SimulationError("there is no piece in the hand to exchange")
        _, origin = self.hand.pop()
        self.hand.append((piece, origin))

    def put_back(self, *, hold: float | None = None) -> None:
        """Put every piece in the hand back on the square it came from."""
        while self.hand:
            piece, origin = self.hand.pop()
            if origin is None or origin in self.squares:
                raise SimulationError("a piece in the hand has no free square to go back to")
            self.squares[origin] = piece
            self._touch()
        self.advance(self.step if hold is None else hold)

    def hover(self, square: chess.Square, seconds: float, *, closes: bool = True) -> None:
        """Hold the hand (and the piece in it) over ``square`` for ``seconds``.

        Occupancy-only: over an empty square the piece's magnet closes the switch
        (a ghost) if ``closes`` (held low enough). Colour sensing: the hand hides
        the square and its neighbours from the camera.
        """
        bit = chess.BB_SQUARES[square]
        if self.colors:
            self.occlude([square, *chess.SquareSet(chess.BB_KING_ATTACKS[square])], seconds)
            return
        if square in self.squares or not self.hand or not closes:
            self.advance(seconds)
            return
        self._ghosts |= bit
        self._touch()
        self.advance(seconds)
        self._ghosts &= ~bit
        self._touch()

    def occlude(self, squares: Iterable[chess.Square], seconds: float) -> None:
        """A hand hides ``squares`` from a camera for ``seconds`` (no effect on switches)."""
        if not self.colors:
            self.advance(seconds)
            return
        for square in squares:
            self._hidden |= chess.BB_SQUARES[square]
        self._touch()
        self.advance(seconds)
        self._hidden = 0
        self._touch()

    def bounce(self, square: chess.Square, times: int = 2) -> None:
        """The switch on ``square`` flickers ``times`` times, then shows the truth."""
        bit = chess.BB_SQUARES[square]
        for _ in range(times):
            if square in self.squares:
                self._dark |= bit      # a closed switch opens for a moment
            else:
                self._ghosts |= bit    # an open switch closes for a moment
            self._touch()
            self.advance(FLICKER)
            self._dark &= ~bit
            self._ghosts &= ~bit
            self._touch()
            self.advance(FLICKER)

    def slide(self, origin: chess.Square, target: chess.Square,
              over: Iterable[chess.Square] = (), *, pause_at: chess.Square | None = None,
              pause: float | None = None) -> None:
        """Drag the piece on ``origin`` over the squares ``over`` to ``target`` without
        lifting it; it rests on ``pause_at`` (if given) for ``pause`` seconds."""
        piece = self.squares.get(origin)
        if piece is None:
            raise SimulationError(f"there is no piece on {chess.square_name(origin)} to slide")
        path = [*over, target]
        for square in path:
            if square in self.squares:
                raise SimulationError(f"cannot slide over {chess.square_name(square)}: "
                                      f"a piece stands there")
        here = origin
        self._faint &= ~chess.BB_SQUARES[origin]  # seen clearly once it is moved
        self._seen.pop(origin, None)
        for square in path:
            del self.squares[here]
            self.squares[square] = piece
            here = square
            self._touch()
            if square == pause_at:
                self.advance(self.step if pause is None else pause)
            elif square != target:
                self.advance(SLIDE_STEP)
        self.advance(self.step)

    def _after(self, square: chess.Square, bounce: int, hold: float | None) -> None:
        self._touch()
        if bounce:
            self.bounce(square, bounce)
        self.advance(self.step if hold is None else hold)

    # ------------------------------------------------------------------
    # Whole actions

    def move(self, origin: chess.Square, target: chess.Square, *, faint: bool = False,
             seen: PieceColor | None = None) -> None:
        self.lift(origin)
        self.place(target, faint=faint, seen=seen)

    def capture(self, origin: chess.Square, target: chess.Square, *,
                victim_first: bool = False) -> None:
        if victim_first:
            self.remove(target)
            self.lift(origin)
        else:
            self.lift(origin)
            self.remove(target)
        self.place(target)

    def perform(self, move: chess.Move, turn: chess.Color, *, victim_first: bool = False,
                ) -> None:
        """Do a game action physically: a placement of a flipped card (a drop) by
        ``turn``, or a move (a capture in the given order; a promotion sets the blue
        piece in place of the pawn)."""
        if move.drop:
            piece = chess.Piece(move.drop, turn)
            self.place(move.to_square, SimPiece.of(piece))
            return
        origin, target = move.from_square, move.to_square
        if origin not in self.squares:
            raise SimulationError(f"there is no piece on {chess.square_name(origin)} to move")
        capture = target in self.squares
        if capture and victim_first:
            self.remove(target)
        self.lift(origin)
        if capture and not victim_first:
            self.remove(target)
        if move.promotion:
            self.swap_hand(SimPiece.of(chess.Piece(move.promotion, turn), blue=True))
        self.place(target)

    # ------------------------------------------------------------------
    # Typed commands

    def is_command(self, text: str) -> bool:
        """Whether ``text`` starts with one of the physical commands (see :data:`HELP`)."""
        words = text.strip().split()
        return bool(words) and words[0].lower() in _COMMANDS

    def handle_command(self, text: str) -> bool:
        """Do one typed physical action; ``False`` (with :attr:`last_message` saying
        why) when it is malformed or physically impossible. Nothing is changed then."""
        try:
            words = shlex.split(text.strip().lower())
        except ValueError as error:
            self.last_message = f"cannot read {text!r}: {error}"
            return False
        if not words:
            self.last_message = "type a command (help lists them)"
            return False
        handler = _COMMANDS.get(words[0])
        if handler is None:
            self.last_message = f"unknown board command {words[0]!r}; type 'help'"
            return False
        saved = (dict(self.squares), list(self.hand))
        try:
            self.last_message = handler(self, words[1:]) or ""
        except SimulationError as error:
            if saved != (self.squares, self.hand):
                self.squares, self.hand = saved
                self._ghosts = self._dark = self._hidden = 0
                self._faint &= self.occupied
                self._seen = {sq: c for sq, c in self._seen.items() if sq in self.squares}
                self._touch()
                self.advance(self.settle)
            self.last_message = str(error)
            return False
        return True

    def render(self) -> str:
        """The board as text: pieces by letter (``~`` after a blue piece), ``*`` a lit
        target square, ``!`` a square to fix, ``'`` the last move, ``^`` a square of the
        companion's turn to make; then the hand."""
        lines = []
        for rank in range(7, -1, -1):
            cells = []
            for file in range(8):
                square = chess.square(file, rank)
                piece = self.squares.get(square)
                bit = chess.BB_SQUARES[square]
                mark = " "
                if self.hint.turn & bit:
                    mark = "^"
                elif self.hint.fix & bit:
                    mark = "!"
                elif self.hint.targets & bit:
                    mark = "*"
                elif self.hint.last_move & bit:
                    mark = "'"
                if piece is None:
                    cells.append("." + mark)
                else:
                    cells.append(piece.symbol + ("~" if piece.color == "blue" else mark))
            lines.append(f"{rank + 1} " + " ".join(cells))
        lines.append("  " + "  ".join("abcdefgh"))
        if self.hand:
            held = ", ".join(f"{p.symbol} from {chess.square_name(o)}" if o is not None
                             else p.symbol for p, o in self.hand)
            lines.append(f"in hand: {held}")
        return "\n".join(lines)


_COLOURS: dict[str, PieceColor] = {"white": "white", "black": "black", "blue": "blue"}


def _square(word: str) -> chess.Square:
    try:
        return chess.parse_square(word)
    except ValueError:
        raise SimulationError(f"{word!r} is not a square (e.g. e4)") from None


def _seconds(word: str) -> float:
    try:
        value = float(word)
    except ValueError:
        raise SimulationError(f"{word!r} is not a number of seconds") from None
    if not 0 <= value <= 600:
        raise SimulationError("seconds must be between 0 and 600")
    return value


def _need(args: list[str], low: int, high: int, usage: str) -> None:
    if not low <= len(args) <= high:
        raise SimulationError(f"usage: {usage}")


def _cmd_lift(board: SimulatedBoard, args: list[str]) -> str:
    _need(args, 1, 1, "lift SQ")
    board.lift(_square(args[0]))
    return ""


def _sensing_words(args: list[str]) -> tuple[list[str], bool, PieceColor | None]:
    """The command's words without a trailing ``faint`` or ``seen COLOR``, whether
    ``faint`` was there, and the colour seen."""
    if args and args[-1] == "faint":
        return args[:-1], True, None
    if len(args) >= 2 and args[-2] == "seen":
        color = _COLOURS.get(args[-1])
        if color is None:
            raise SimulationError(f"{args[-1]!r} is not a colour: white, black or blue")
        return args[:-2], False, color
    return args, False, None


def _cmd_place(board: SimulatedBoard, args: list[str]) -> str:
    args, faint, seen = _sensing_words(args)
    _need(args, 1, 3, "place SQ [white|black|blue] [PIECE LETTER] [faint | seen COLOR]")
    square = _square(args[0])
    piece: SimPiece | None = None
    if len(args) >= 2:
        color = _COLOURS.get(args[1])
        if color is None:
            raise SimulationError(f"{args[1]!r} is not a colour: white, black or blue")
        letter = args[2] if len(args) == 3 else "?"
        if letter != "?" and (len(letter) != 1 or letter not in "pnbrqk"):
            raise SimulationError(f"{letter!r} is not a piece letter (p n b r q k)")
        symbol = letter.upper() if color == "white" else letter
        piece = SimPiece(color, symbol)
    board.place(square, piece, faint=faint, seen=seen)
    return ""


def _cmd_remove(board: SimulatedBoard, args: list[str]) -> str:
    _need(args, 1, 1, "remove SQ")
    board.remove(_square(args[0]))
    return ""


def _cmd_move(board: SimulatedBoard, args: list[str]) -> str:
    args, faint, seen = _sensing_words(args)
    _need(args, 2, 2, "move FROM TO [faint | seen COLOR]")
    origin, target = _square(args[0]), _square(args[1])
    if target in board.squares:
        raise SimulationError(f"{args[1]} is not empty: use 'capture {args[0]} {args[1]}'")
    board.move(origin, target, faint=faint, seen=seen)
    return ""


def _cmd_capture(board: SimulatedBoard, args: list[str]) -> str:
    _need(args, 2, 3, "capture FROM TO [victim-first]")
    if len(args) == 3 and args[2] not in ("victim-first", "mover-first"):
        raise SimulationError("the order is 'victim-first' or 'mover-first'")
    origin, target = _square(args[0]), _square(args[1])
    if origin not in board.squares or target not in board.squares:
        raise SimulationError("capture needs a piece on both squares")
    board.capture(origin, target, victim_first=len(args) == 3 and args[2] == "victim-first")
    return ""


def _cmd_slide(board: SimulatedBoard, args: list[str]) -> str:
    usage = "slide FROM TO [pause SQ]"
    _need(args, 2, 4, usage)
    origin, target = _square(args[0]), _square(args[1])
    pause_at = None
    if len(args) > 2:
        if len(args) != 4 or args[2] != "pause":
            raise SimulationError(f"usage: {usage}")
        pause_at = _square(args[3])
    over = _line(origin, target)
    if pause_at is not None and pause_at not in over:
        raise SimulationError(f"{args[3]} is not between {args[0]} and {args[1]}")
    board.slide(origin, target, over, pause_at=pause_at)
    return ""


def _line(origin: chess.Square, target: chess.Square) -> list[chess.Square]:
    """Squares between two squares on a line (a knight's path: one corner square)."""
    between = chess.SquareSet(chess.between(origin, target))
    if between or chess.square_distance(origin, target) <= 1:
        squares = list(between)
        return squares if origin < target else squares[::-1]
    corner = chess.square(chess.square_file(target), chess.square_rank(origin))
    return [corner] if corner not in (origin, target) else []


def _cmd_putback(board: SimulatedBoard, args: list[str]) -> str:
    _need(args, 0, 0, "putback")
    board.put_back()
    return ""


def _cmd_knock(board: SimulatedBoard, args: list[str]) -> str:
    _need(args, 1, 2, "knock SQ [SECONDS]")
    board.knock(_square(args[0]), _seconds(args[1]) if len(args) == 2 else board.step)
    return ""


def _cmd_hover(board: SimulatedBoard, args: list[str]) -> str:
    _need(args, 1, 2, "hover SQ [SECONDS]")
    board.hover(_square(args[0]), _seconds(args[1]) if len(args) == 2 else board.step)
    return ""


def _cmd_bounce(board: SimulatedBoard, args: list[str]) -> str:
    _need(args, 1, 2, "bounce SQ [N]")
    times = 2
    if len(args) == 2:
        if not is_digits(args[1]) or not 0 < int(args[1]) <= 20:
            raise SimulationError("N must be a number from 1 to 20")
        times = int(args[1])
    board.bounce(_square(args[0]), times)
    board.advance(board.step)
    return ""


def _cmd_occlude(board: SimulatedBoard, args: list[str]) -> str:
    if not args:
        raise SimulationError("usage: occlude SQ... [SECONDS]")
    seconds = board.step
    if args and not args[-1][0].isalpha():
        seconds = _seconds(args.pop())
    board.occlude([_square(a) for a in args], seconds)
    return ""


def _cmd_wait(board: SimulatedBoard, args: list[str]) -> str:
    _need(args, 1, 1, "wait SECONDS")
    board.advance(_seconds(args[0]))
    return ""


def _cmd_show(board: SimulatedBoard, args: list[str]) -> str:
    return board.render()


def _cmd_help(board: SimulatedBoard, args: list[str]) -> str:
    return HELP


_COMMANDS: dict[str, Callable[[SimulatedBoard, list[str]], str]] = {
    "lift": _cmd_lift,
    "place": _cmd_place,
    "remove": _cmd_remove,
    "move": _cmd_move,
    "capture": _cmd_capture,
    "slide": _cmd_slide,
    "putback": _cmd_putback,
    "put-back": _cmd_putback,
    "knock": _cmd_knock,
    "hover": _cmd_hover,
    "bounce": _cmd_bounce,
    "occlude": _cmd_occlude,
    "wait": _cmd_wait,
    "show": _cmd_show,
    "help": _cmd_help,
}


def open_board(argument: str) -> SimulatedBoard:
    """The ``sim[:OPTIONS]`` board: options separated by commas, ``color`` (a
    colour sensor, as a camera), ``settle=SECONDS``, ``step=SECONDS``,
    ``debounce=SECONDS``."""
    colors = False
    settle = DEFAULT_SETTLE
    step = DEFAULT_STEP
    debounce = DEFAULT_DEBOUNCE
    for option in filter(None, (part.strip().lower() for part in argument.split(","))):
        key, _, value = option.partition("=")
        if key in ("color", "colour", "colors", "colours") and not value:
            colors = True
        elif key in ("settle", "step", "debounce") and value:
            try:
                number = float(value)
            except ValueError:
                raise BoardSourceError(f"sim: {key} must be seconds, not {value!r}") from None
            if key == "settle":
                settle = number
            elif key == "step":
                step = number
            else:
                debounce = number
        else:
            raise BoardSourceError(f"sim: unknown option {option!r}; options: color, "
                                   f"settle=SECONDS, step=SECONDS, debounce=SECONDS")
    try:
        return SimulatedBoard(colors=colors, settle=settle, step=step,
                              debounce=min(debounce, settle))
    except SimulationError as error:
        raise BoardSourceError(f"sim: {error}") from None
