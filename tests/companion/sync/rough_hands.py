"""A rough model of real hands at a sensing board (issue 15), for the randomized
board-sync suite and the benchmark.

Random legal games are played on the simulated board by hands that hover over
squares long enough to close a reed, slide pieces and rest on the way, capture
victim first, mover first or by pushing the victim off, knock pieces over and
stand them up (their own and the opponent's, while holding a piece or not),
adjust pieces (j'adoube), play habitual chess moves that Raindropchess forbids
and put them right, take back their last action, and move a piece they just
placed or moved on to another square. The players answer the companion's
questions when the right answer is offered, confirm takebacks they made, and
play on the screen what the companion missed. The parameters are in
:class:`HandModel` (documented in docs/sync.md).

Every physical action ends in one of: committed (the companion played it alone,
maybe after correcting a wrong commit of the same player: *transient*), asked
(a question answered), missed (played on the screen), or a failure: *wrong* (an
action nobody made left in the game), *stuck* (board and game disagree after
the players did everything right) or an exception.
"""

from __future__ import annotations

import collections
import dataclasses
import random

import chess
from sync_helpers import Table

from companion.game import Game
from companion.rules import HouseRules
from companion.sensors.simulated import SimPiece
from companion.sync import SyncKind, SyncResult

SLIDERS = (chess.BISHOP, chess.ROOK, chess.QUEEN)
Range = tuple[float, float]


@dataclasses.dataclass(frozen=True)
class HandModel:
    """How rough the hands are: probabilities per physical action, times in seconds
    (the simulated board: a step of the hand takes 0.4 s, the board settles in
    0.25 s, a change joins the trail after 0.03 s)."""

    hover: float = 0.5                 # a piece is hovered before it is set down
    hover_squares: tuple[int, int] = (1, 3)
    hover_seconds: Range = (0.1, 0.9)
    hover_closes: float = 0.5          # a hover closes the reed (camera: hides squares)
    slide: float = 0.3                 # a rook, bishop or queen is slid, not lifted
    dwell: Range = (0.03, 0.6)         # on each square a slide passes
    push: float = 0.2                  # a capture pushes the victim off ...
    push_gap: Range = (0.0, 0.1)       # ... its square seen empty this long
    victim_first: float = 0.5          # of the other captures
    fast: float = 0.15                 # a lift or removal held below the settling time
    fast_hold: Range = (0.04, 0.2)
    knock: float = 0.1                 # a piece is knocked over, then stood up
    knock_holding: float = 0.5         # ... while the hand holds the piece to move
    knock_own: float = 0.5             # ... one's own piece (else the opponent's)
    knock_seconds: Range = (0.1, 1.2)
    jadoube: float = 0.05              # a piece adjusted before the action
    jadoube_seconds: Range = (0.1, 0.6)
    illegal: float = 0.05              # a habitual chess move (pawn two steps, king
                                       # two squares), then put right
    takeback: float = 0.05             # the last action taken back on the board
    relocate: float = 0.05             # the piece just placed or moved moved on
    fast_reply: float = 0.03           # the opponent answers before the board settles
    bounce: tuple[int, ...] = (0, 0, 1, 3)


@dataclasses.dataclass
class Tally:
    """What became of each physical action."""

    actions: int = 0
    committed: int = 0     # played by the companion alone
    transient: int = 0     # of those: a wrong commit on the way, corrected
    asked: int = 0         # a question answered (a takeback confirmed, a choice)
    missed: int = 0        # played on the screen by the players
    illegal: int = 0       # illegal habits reported and put right
    wrong: int = 0         # an action nobody made left in the game
    stuck: int = 0         # board and game disagree after the players did it right
    exceptions: int = 0
    snapshots: int = 0
    kinds: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    missed_why: collections.Counter[str] = dataclasses.field(
        default_factory=collections.Counter)
    transient_why: collections.Counter[str] = dataclasses.field(
        default_factory=collections.Counter)
    asked_why: collections.Counter[str] = dataclasses.field(
        default_factory=collections.Counter)
    ignored: int = 0       # a question left open at the end, the game right: ignored
    failures: list[str] = dataclasses.field(default_factory=list)

    def add(self, other: Tally) -> None:
        for field in ("actions", "committed", "transient", "asked", "missed", "illegal",
                      "wrong", "stuck", "exceptions", "snapshots", "ignored"):
            setattr(self, field, getattr(self, field) + getattr(other, field))
        self.kinds.update(other.kinds)
        self.missed_why.update(other.missed_why)
        self.transient_why.update(other.transient_why)
        self.asked_why.update(other.asked_why)
        self.failures.extend(other.failures)

    def line(self, name: str) -> str:
        return (f"{name}: {self.actions} physical actions: {self.committed} committed, "
                f"{self.asked} asked, {self.missed} missed, {self.illegal} illegal put "
                f"right, {self.ignored} needless questions ignored; {self.transient} with a "
                f"transient wrong commit put right; {self.wrong} wrong, "
                f"{self.stuck} stuck, {self.exceptions} exceptions; {self.snapshots} "
                f"snapshots; missed: {dict(self.missed_why)}; transient: "
                f"{dict(self.transient_why.most_common(8))}; asked: "
                f"{dict(self.asked_why.most_common(8))}")


class Hands:
    """The players' hands at one table (see the module docstring)."""

    def __init__(self, table: Table, rng: random.Random, model: HandModel) -> None:
        self.table = table
        self.board = table.board
        self.game = table.game
        self.rng = rng
        self.model = model

    def _chance(self, p: float) -> bool:
        return self.rng.random() < p

    def _seconds(self, span: Range) -> float:
        return self.rng.uniform(*span)

    def _hold(self) -> float | None:
        return self._seconds(self.model.fast_hold) if self._chance(self.model.fast) else None

    # Noise ------------------------------------------------------------

    def hovers(self, target: chess.Square) -> str:
        if not self._chance(self.model.hover):
            return ""
        empty = [sq for sq in chess.SQUARES if sq not in self.board.squares and sq != target]
        low, high = self.model.hover_squares
        closed = 0
        for square in self.rng.sample(empty, min(len(empty), self.rng.randint(low, high))):
            closes = self._chance(self.model.hover_closes)
            closed += closes
            self.board.hover(square, self._seconds(self.model.hover_seconds), closes=closes)
        return f", hovered ({closed} closing)"

    def knock(self, avoid: set[chess.Square], holding: bool) -> str:
        model = self.model
        if not self._chance(model.knock) or self._chance(model.knock_holding) != holding:
            return ""
        own = self._chance(model.knock_own)
        colour = self.game.turn if own else not self.game.turn
        squares = [sq for sq in chess.SquareSet(self.game.board.occupied_co[colour])
                   if sq in self.board.squares and sq not in avoid]
        if not squares:
            return ""
        square = self.rng.choice(squares)
        self.board.knock(square, self._seconds(model.knock_seconds), hold=self._hold())
        return f", knocked {'own' if own else 'opposing'} {chess.square_name(square)}" \
            + (" holding" if holding else "")

    def jadoube(self, avoid: set[chess.Square]) -> str:
        if not self._chance(self.model.jadoube):
            return ""
        own = [sq for sq in chess.SquareSet(self.game.board.occupied_co[self.game.turn])
               if sq not in avoid and sq in self.board.squares]
        if not own:
            return ""
        square = self.rng.choice(own)
        self.board.knock(square, self._seconds(self.model.jadoube_seconds))
        return f", j'adoube {chess.square_name(square)}"

    # Actions ----------------------------------------------------------

    def perform(self, move: chess.Move) -> str:
        """Do ``move`` (a move or a drop) roughly; returns a note of what was done."""
        board = self.board
        turn = self.game.turn
        bounce = self.rng.choice(self.model.bounce)
        avoid = {move.from_square, move.to_square}
        note = self.jadoube(avoid) + self.knock(avoid, holding=False)
        if move.drop:
            board.hand.append((SimPiece.of(chess.Piece(move.drop, turn)), None))
            note += self.knock(avoid, holding=True) + self.hovers(move.to_square)
            board.place(move.to_square, bounce=bounce)
            return "drop" + note
        origin, target = move.from_square, move.to_square
        piece = self.game.board.piece_at(origin)
        assert piece is not None
        if target in board.squares:
            note = self._capture(move, bounce) + note
            if note.startswith("capture push"):
                # The victim pushed off as the piece arrives: nothing in between.
                if move.promotion:
                    board.swap_hand(SimPiece.of(chess.Piece(move.promotion, turn),
                                                blue=True))
                board.place(target, bounce=bounce)
                return note
        else:
            path = list(chess.SquareSet(chess.between(origin, target)))
            if piece.piece_type in SLIDERS and not move.promotion and path \
                    and self._chance(self.model.slide):
                if origin > target:
                    path.reverse()
                self._slide(origin, target, path)
                return "slide" + note
            board.lift(origin, bounce=bounce, hold=self._hold())
            note = "move" + note + self.knock(avoid, holding=True)
        note += self.hovers(target)
        if move.promotion:
            board.swap_hand(SimPiece.of(chess.Piece(move.promotion, turn), blue=True))
        board.place(target, bounce=bounce)
        return note

    def _capture(self, move: chess.Move, bounce: int) -> str:
        board = self.board
        origin, target = move.from_square, move.to_square
        avoid = {origin, target}
        if self._chance(self.model.push):
            board.lift(origin, hold=self._hold())
            knocked = self.knock(avoid, holding=True) + self.hovers(target)
            board.remove(target, hold=self._seconds(self.model.push_gap))
            return "capture push" + knocked
        if self._chance(self.model.victim_first):
            board.remove(target, bounce=bounce, hold=self._hold())
            board.lift(origin, hold=self._hold())
            return "capture victim-first" + self.knock(avoid, holding=True)
        board.lift(origin, hold=self._hold())
        knocked = self.knock(avoid, holding=True)
        board.remove(target, bounce=bounce, hold=self._hold())
        return "capture mover-first" + knocked

    def _slide(self, origin: chess.Square, target: chess.Square,
               path: list[chess.Square]) -> None:
        board = self.board
        piece = board.squares[origin]
        here = origin
        for square in [*path, target]:
            del board.squares[here]
            board.squares[square] = piece
            here = square
            board._touch()
            if square != target:
                board.advance(self._seconds(self.model.dwell))
        board.advance(board.step)

    def illegal_habit(self) -> str | None:
        """A chess habit Raindropchess forbids (a pawn two steps, a king two squares
        sideways), done and put right; ``None`` if no such move is at hand."""
        game = self.game
        board = game.board
        turn = game.turn
        forward = 8 if turn == chess.WHITE else -8
        candidates: list[tuple[chess.Square, chess.Square, str]] = []
        for square in board.pieces(chess.PAWN, turn):
            one, two = square + forward, square + 2 * forward
            if 0 <= two < 64 and one not in self.board.squares \
                    and two not in self.board.squares and square in self.board.squares:
                candidates.append((square, two, "pawn two steps"))
        king = board.king(turn)
        if king is not None and king in self.board.squares:
            for step in (-1, 1):
                one, two = king + step, king + 2 * step
                if 0 <= two < 64 and chess.square_rank(two) == chess.square_rank(king) \
                        and one not in self.board.squares and two not in self.board.squares:
                    candidates.append((king, two, "king two squares"))
        if not candidates:
            return None
        origin, target, what = self.rng.choice(candidates)
        if chess.Move(origin, target) in game.legal_moves():
            return None
        self.board.lift(origin)
        self.board.place(target)
        self.board.lift(target)
        self.board.place(origin)
        return what


def _undo_on_board(hands: Hands, last: chess.Move, captured: chess.Piece | None,
                   was_blue: bool) -> None:
    """Put the board back as before ``last`` (a takeback by its player)."""
    board = hands.board
    if last.drop:
        board.remove(last.to_square, hold=hands._hold())
        return
    board.lift(last.to_square, hold=hands._hold())
    if last.promotion:
        piece = board.hand[-1][0]
        pawn = SimPiece("white" if piece.symbol.isupper() else "black",
                        "P" if piece.symbol.isupper() else "p")
        board.swap_hand(pawn)
    if captured is not None and hands._chance(0.5):
        board.place(last.to_square, SimPiece.of(captured, blue=was_blue))
        board.place(last.from_square)
    else:
        board.place(last.from_square)
        if captured is not None:
            board.place(last.to_square, SimPiece.of(captured, blue=was_blue))


def _choose(game: Game, rng: random.Random) -> chess.Move | chess.Square | None:
    if game.pending is not None and game.pending.upper() == "J":
        return rng.choice(list(game.legal_removals()))
    moves = game.legal_moves()
    if game.can_flip() and (not moves or rng.random() < 0.3):
        return None
    return rng.choice(moves) if moves else None


def _question(kind: str, note: str, results: list[SyncResult]) -> str:
    """What kind of question the players answered."""
    asked = [r for r in results if r.choices]
    last = asked[-1] if asked else None
    if last is None:
        return kind
    if last.kind == SyncKind.TAKEBACK:
        return "takeback confirmed" if kind == "takeback" else f"takeback offered ({kind})"
    if last.message.startswith("Promotion"):
        return "which blue piece"
    return f"{last.message.split(':')[0]} ({_cause(note)})"


def _cause(note: str) -> str:
    """The likeliest cause of a transient wrong commit, from an action's note."""
    note = note.replace("(0 closing)", "")
    for word, cause in (("knocked opposing", "knocked opposing piece"),
                        ("closing)", "hover closing a reed"), ("slide", "slide resting")):
        if word in note:
            return cause
    return note.split(",")[0]


def _wrong_commits(results: list[SyncResult], intended: list[chess.Move]) -> bool:
    """Whether any decision committed an action the players did not mean (it was
    put right later, or the action would not have ended right)."""
    return any(result.committed and ((result.move is not None and result.move not in intended)
                                     or (result.reply is not None
                                         and result.reply not in intended))
               for result in results)


def play_rough_game(seed: int, *, actions: int, colors: bool,
                    model: HandModel = HandModel()) -> Tally:
    """Play one random game of up to ``actions`` physical actions and tally them."""
    rng = random.Random(seed)
    rules = HouseRules(
        jokers_per_deck=rng.choice((0, 0, 1, 2)),
        joker_effect=rng.choice(("extra_turn", "remove_piece")),
        blue_pieces=rng.choice(("QRBN", "QRBN", "Q", "QN")),
        touch_move=rng.choice(("warn", "enforce")))
    game = Game(rules, seed=rng.randrange(1 << 30))
    table = Table(game, colors=colors)
    hands = Hands(table, rng, model)
    tally = Tally()
    just_played: tuple[chess.Move, chess.Piece | None, bool] | None = None
    while not game.is_over and tally.actions < actions:
        start = game.board
        expected = start.copy()
        before = len(table.results)
        intended: list[chess.Move] = []
        try:
            kind, note = _one_action(hands, game, expected, intended, just_played, rng)
            table.board.advance(1.0)   # the players look at the screen
        except Exception as error:
            tally.exceptions += 1
            tally.failures.append(f"seed {seed}: exception {error!r}")
            break
        if kind == "flip":
            just_played = None
            continue
        tally.actions += 1
        tally.kinds[kind] += 1
        results = table.since(before)
        what = f"seed {seed} #{tally.actions}: {kind} {note} {[str(m) for m in intended]}"
        outcome = _settle_action(table, game, start, expected, intended, results, kind)
        if outcome.endswith("; ignored"):
            tally.ignored += 1
            outcome = outcome.removesuffix("; ignored")
        if outcome == "wrong":
            tally.wrong += 1
            tally.failures.append(f"{what}: wrong: game has {game.san_history()[-3:]}, "
                                  f"results {[r.message for r in results][-4:]}")
            break
        if outcome == "stuck":
            tally.stuck += 1
            tally.failures.append(f"{what}: stuck: {table.last.message}")
            break
        if _wrong_commits(results, intended):
            tally.transient += 1
            tally.transient_why[_cause(note)] += 1
        if outcome == "missed":
            tally.missed += 1
            tally.missed_why[f"{kind} {note.split(',')[0]}".strip()] += 1
        elif outcome == "asked":
            tally.asked += 1
            tally.asked_why[_question(kind, note, table.since(before))] += 1
        elif outcome == "illegal":
            tally.illegal += 1
        else:
            tally.committed += 1
        just_played = None
        if kind in ("action", "relocate") and intended and game.board.actions \
                and game.can_undo():
            last = game.board.peek_action()
            if last.move is not None and last.move == intended[-1]:
                prior = start if kind == "action" else None
                captured = None
                was_blue = False
                if prior is not None and not last.move.drop:
                    captured = prior.piece_at(last.move.to_square)
                    was_blue = bool(prior.promoted & chess.BB_SQUARES[last.move.to_square])
                if kind == "action" or last.move.drop:
                    just_played = (last.move, captured, was_blue)
    tally.snapshots += table.board.sent
    table.session.stop()
    return tally


def _one_action(hands: Hands, game: Game, expected: chess.Board, intended: list[chess.Move],
                just_played: tuple[chess.Move, chess.Piece | None, bool] | None,
                rng: random.Random) -> tuple[str, str]:
    """Do one physical action; ``expected`` and ``intended`` are set to what the
    players meant. Returns its kind and a note."""
    model = hands.model
    table = hands.table
    if just_played is not None:
        last, captured, was_blue = just_played
        if rng.random() < model.takeback:
            expected.pop()
            _undo_on_board(hands, last, captured, was_blue)
            return "takeback", f"of {last}"
        if rng.random() < model.relocate and captured is None and not last.promotion:
            previous = expected.copy()
            previous.pop()
            if last.drop:
                others = [m for m in previous.generate_legal_drops() if m != last]
            else:
                others = [m for m in previous.generate_legal_moves(
                    chess.BB_SQUARES[last.from_square]) if m != last
                    and not previous.piece_at(m.to_square) and not m.promotion]
            if others:
                move = rng.choice(others)
                expected.pop()
                expected.push(move)
                intended.append(move)
                hands.board.lift(last.to_square, hold=hands._hold())
                note = hands.hovers(move.to_square)
                hands.board.place(move.to_square)
                return "relocate", f"{last} to {move}{note}"
    action = _choose(game, rng)
    if action is None:
        if game.can_flip():
            game.flip()
            return "flip", ""
        raise RuntimeError("no action and no flip")
    if isinstance(action, int):
        expected.push_removal(action)
        hands.board.remove(action, bounce=rng.choice((0, 2)))
        return "removal", chess.square_name(action)
    if not action.drop and rng.random() < model.illegal:
        habit = hands.illegal_habit()
        if habit is not None:
            return "illegal", habit
    expected.push(action)
    intended.append(action)
    after = expected
    replies = [] if after.is_game_over() else list(after.legal_moves)
    if replies and rng.random() < model.fast_reply:
        from sync_random import _fast_reply
        reply = rng.choice(replies)
        note = _fast_reply(table, action, reply, rng)
        expected.push(reply)
        intended.append(reply)
        return "fast reply", note
    return "action", hands.perform(action)


def _settle_action(table: Table, game: Game, start: chess.Board, expected: chess.Board,
                   intended: list[chess.Move], results: list[SyncResult], kind: str) -> str:
    """The players look at the screen: follow a hint to set a capturing piece down
    again, answer a question that offers what they did, or play it on the screen.
    Returns what became of the action."""
    if game.board.actions == expected.actions:
        if not table.last.committed and table.last.kind != SyncKind.IN_SYNC \
                and not table.last.choices:
            return "stuck"   # the game is right, but the companion says it is not
        ignored = "; ignored" if table.last.choices and not table.last.committed else ""
        return ("illegal" if kind == "illegal" else "committed") + ignored
    hinted = False
    last = table.last
    if last.kind == SyncKind.WAITING and "lift the captured piece" in last.message \
            and intended and not intended[-1].drop \
            and intended[-1].to_square in table.board.squares:
        # The players follow the hint: the capturing piece lifted and set down again.
        hinted = True
        table.board.lift(intended[-1].to_square)
        table.board.place(intended[-1].to_square)
        table.board.advance(1.0)
        if game.board.actions == expected.actions:
            return "missed" if table.last.committed else "stuck"
    answered = _answer(table, game.board, expected)
    if not answered and game.board.actions != start.actions:
        return "wrong"
    if not answered:
        # The players do it on the screen.
        for _ in range(len(start.actions) - _common(start, expected)):
            game.undo()
        for action in expected.actions[_common(start, expected):]:
            if action.move is not None:
                game.play(action.move)
            elif action.square is not None:
                game.remove(action.square)
    if game.board.actions != expected.actions:
        return "wrong"
    final = table.session.refresh()
    if final.kind not in (SyncKind.IN_SYNC,):
        return "stuck"
    return "asked" if answered and not hinted else "missed"


def _answer(table: Table, now: chess.Board, expected: chess.Board) -> bool:
    """Choose the open question's answer that leads to ``expected``, if offered."""
    for index, choice in enumerate(table.last.choices):
        trial = now.copy()
        try:
            for _ in range(choice.undo_count):
                trial.pop()
            if choice.move is not None:
                trial.push(choice.move)
                if choice.reply is not None:
                    trial.push(choice.reply)
            elif choice.remove is not None:
                trial.push_removal(choice.remove)
        except (IndexError, ValueError):
            continue
        if trial.actions == expected.actions:
            table.session.choose(index)
            return True
    return False


def _common(a: chess.Board, b: chess.Board) -> int:
    count = 0
    for x, y in zip(a.actions, b.actions, strict=False):
        if x != y:
            break
        count += 1
    return count


def run_rough(total: int, *, seed: int = 1515, per_game: int = 80,
              model: HandModel = HandModel()) -> tuple[Tally, Tally]:
    """``total`` physical actions, half on an occupancy-only board, half with colours."""
    results = []
    for colors in (False, True):
        tally = Tally()
        index = 0
        while tally.actions < total // 2:
            tally.add(play_rough_game(seed * 1000 + index * 2 + int(colors),
                                      actions=min(per_game, total // 2 - tally.actions),
                                      colors=colors, model=model))
            index += 1
        results.append(tally)
    return results[0], results[1]
