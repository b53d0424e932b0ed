"""Random legal games played by simulated hands with realistic noise, for the
randomized board-sync suite (tests) and the benchmark."""

from __future__ import annotations

import collections
import dataclasses
import random

import chess
from sync_helpers import Table

from companion.game import Game
from companion.rules import HouseRules
from companion.sensors.simulated import SimPiece
from companion.sync import SyncKind

SLIDERS = (chess.BISHOP, chess.ROOK, chess.QUEEN)


@dataclasses.dataclass
class Tally:
    """What happened to each physical action."""

    sequences: int = 0
    committed: int = 0    # played by BoardSync without help
    corrected: int = 0    # of those, after a piece rested on the way (undo + replay)
    asked: int = 0        # BoardSync asked the players, the right action was offered
    flagged: int = 0      # BoardSync waited or flagged the board; the players fixed it
    wrong: int = 0        # a wrong action was committed, or the right one not offered
    snapshots: int = 0
    failures: list[str] = dataclasses.field(default_factory=list)
    fast_replies: int = 0  # of the committed: a move and its reply seen at once
    flagged_why: collections.Counter[str] = dataclasses.field(
        default_factory=collections.Counter)

    def add(self, other: Tally) -> None:
        for field in ("sequences", "committed", "corrected", "asked", "flagged", "wrong",
                      "snapshots"):
            setattr(self, field, getattr(self, field) + getattr(other, field))
        self.failures.extend(other.failures)
        self.fast_replies += other.fast_replies
        self.flagged_why.update(other.flagged_why)


def _empty_neighbours(table: Table, square: chess.Square) -> list[chess.Square]:
    return [sq for sq in chess.SquareSet(chess.BB_KING_ATTACKS[square])
            if sq not in table.board.squares]


def _hover_noise(table: Table, target: chess.Square, rng: random.Random) -> None:
    """The hand wanders: short hovers anywhere, sometimes a long one next to the target."""
    board = table.board
    empty = [sq for sq in chess.SQUARES if sq not in board.squares]
    for _ in range(rng.randrange(3)):
        board.hover(rng.choice(empty), rng.uniform(0.02, 0.2))
    if rng.random() < 0.15:
        near = _empty_neighbours(table, target)
        if near:
            board.hover(rng.choice(near), rng.uniform(0.3, 0.8))


def perform_noisy(table: Table, move: chess.Move, rng: random.Random) -> str:
    """Do ``move`` (a drop, a move, or a removal as a null move from the square) with
    random human noise; returns a note of what was done."""
    board = table.board
    game = table.game
    turn = game.turn
    bounce = rng.choice((0, 0, 1, 3))
    if rng.random() < 0.3 and board.colors:
        squares = rng.sample(chess.SQUARES, 5)
        board.occlude(squares, rng.uniform(0.05, 0.6))
    if move.drop:
        board.hand.append((SimPiece.of(chess.Piece(move.drop, turn)), None))
        _hover_noise(table, move.to_square, rng)
        board.place(move.to_square, bounce=bounce)
        return "drop"
    origin, target = move.from_square, move.to_square
    piece = game.board.piece_at(origin)
    assert piece is not None
    if rng.random() < 0.1:
        board.lift(origin, hold=rng.choice((0.1, 0.5)))
        board.put_back()
        note = "touched, "
    else:
        note = ""
    capture = target in board.squares
    if capture:
        fast = rng.random() < 0.03
        hold = 0.05 if fast else None
        if rng.random() < 0.5:
            board.remove(target, bounce=bounce, hold=hold)
            board.lift(origin, hold=hold)
            note += "capture victim-first"
        else:
            board.lift(origin, hold=hold)
            board.remove(target, bounce=bounce, hold=hold)
            note += "capture mover-first"
        if fast:
            note += " fast"
    else:
        path = list(chess.SquareSet(chess.between(origin, target)))
        if piece.piece_type in SLIDERS and not move.promotion and rng.random() < 0.3:
            if origin > target:
                path.reverse()
            pause = rng.choice(path) if path and rng.random() < 0.4 else None
            board.slide(origin, target, path, pause_at=pause)
            return note + ("slide, rested" if pause is not None else "slide")
        board.lift(origin, bounce=bounce)
        note += "move"
    _hover_noise(table, target, rng)
    if move.promotion:
        board.swap_hand(SimPiece.of(chess.Piece(move.promotion, turn), blue=True))
    board.place(target, bounce=bounce)
    return note


def _choose_action(game: Game, rng: random.Random) -> chess.Move | chess.Square | None:
    """A random legal action: a move or drop, a square for a joker's removal, or None
    for a flip (done on the screen)."""
    if game.pending is not None and game.pending.upper() == "J":
        return rng.choice(list(game.legal_removals()))
    moves = game.legal_moves()
    if game.can_flip() and (not moves or rng.random() < 0.3):
        return None
    return rng.choice(moves) if moves else None


def _fast_reply(table: Table, first: chess.Move, reply: chess.Move, rng: random.Random) -> str:
    """``first`` then the opponent's ``reply``, the reply begun before the board is still."""
    board = table.board
    turn = table.game.turn
    fast = 0.05
    note = "fast reply"
    if not first.drop and first.to_square in board.squares:
        note += ", the move captures"
    if first.drop:
        board.place(first.to_square, SimPiece.of(chess.Piece(first.drop, turn)), hold=fast)
    else:
        if first.to_square in board.squares:
            board.remove(first.to_square)
        board.lift(first.from_square, hold=rng.choice((fast, None)))
        if first.promotion:
            board.swap_hand(SimPiece.of(chess.Piece(first.promotion, turn), blue=True))
        board.place(first.to_square, hold=fast)
    if reply.to_square in board.squares:
        note += ", the reply recaptures" if reply.to_square == first.to_square \
            else ", the reply captures"
        board.remove(reply.to_square, hold=fast)
    board.lift(reply.from_square, hold=fast)
    if reply.promotion:
        board.swap_hand(SimPiece.of(chess.Piece(reply.promotion, not turn), blue=True))
    board.place(reply.to_square)
    return note


def _apply(game: Game, action: chess.Move | chess.Square) -> None:
    if isinstance(action, chess.Move):
        game.play(action)
    else:
        game.remove(action)


def play_random_game(seed: int, *, sequences: int, colors: bool) -> Tally:
    """Play one random game (up to ``sequences`` physical actions) and tally."""
    rng = random.Random(seed)
    rules = HouseRules(
        jokers_per_deck=rng.choice((0, 0, 1, 2)),
        joker_effect=rng.choice(("extra_turn", "remove_piece")),
        blue_pieces=rng.choice(("QRBN", "QRBN", "Q", "QN")))
    game = Game(rules, seed=rng.randrange(1 << 30))
    table = Table(game, colors=colors)
    tally = Tally()
    while not game.is_over and tally.sequences < sequences:
        action = _choose_action(game, rng)
        if action is None:
            if not game.can_flip():
                break
            game.flip()
            continue
        start = game.board
        expected = start.copy()
        intended: list[chess.Move | chess.Square] = [action]
        if isinstance(action, chess.Move):
            expected.push(action)
        else:
            expected.push_removal(action)
        before = len(table.results)
        replies = [] if expected.is_game_over() else list(expected.legal_moves)
        if isinstance(action, chess.Move) and replies and rng.random() < 0.05:
            reply = rng.choice(replies)
            note = _fast_reply(table, action, reply, rng)
            expected.push(reply)
            intended.append(reply)
        elif isinstance(action, chess.Move):
            note = perform_noisy(table, action, rng)
        else:
            note = "removal"
            table.board.remove(action, bounce=rng.choice((0, 2)))
        tally.sequences += 1
        results = table.since(before)
        last = results[-1] if results else table.last
        what = f"seed {seed}: {note} {[str(a) for a in intended]}"
        if game.board.actions == expected.actions:
            tally.committed += 1
            if any(r.kind == SyncKind.CORRECTED for r in results):
                tally.corrected += 1
            if len(intended) == 2:
                tally.fast_replies += 1
            continue
        if game.board.actions != start.actions:
            # The game moved on, but not to the intended position.
            tally.wrong += 1
            tally.failures.append(f"{what}: game has {game.san_history()[-2:]}, "
                                  f"results {[r.message for r in results][-4:]}")
            break
        if last.kind == SyncKind.ASK:
            reply_move = intended[1] if len(intended) == 2 else None
            offered = [c for c in last.choices
                       if (c.move == action or c.remove == action) and c.reply == reply_move]
            if len(offered) != 1 or offered[0].undo_count:
                tally.wrong += 1
                tally.failures.append(f"{what}: asked without it: {last.message}")
                break
            table.session.choose(last.choices.index(offered[0]))
            tally.asked += 1
        else:
            tally.flagged += 1
            tally.flagged_why[note] += 1
            if isinstance(action, chess.Move) and not action.drop and \
                    note.endswith("fast") and last.kind == SyncKind.WAITING:
                # The players follow the hint: set the capturing piece down again.
                table.board.lift(action.to_square)
                table.board.place(action.to_square)
                if table.last.kind == SyncKind.ASK:   # which blue piece
                    table.session.choose([c.move for c in table.last.choices].index(action))
            else:
                for step in intended:   # the players play it on the screen
                    _apply(game, step)
        if game.board.actions != expected.actions or table.last.kind not in (
                SyncKind.IN_SYNC, SyncKind.COMMITTED, SyncKind.CORRECTED):
            tally.wrong += 1
            tally.failures.append(f"{what}: not recovered: {table.last.message}")
            break
    tally.snapshots += table.board.sent
    table.session.stop()
    return tally


def run_suite(total: int, *, seed: int = 2026, per_game: int = 60) -> tuple[Tally, Tally]:
    """``total`` sequences, half on an occupancy-only board and half with colours."""
    results = []
    for colors in (False, True):
        tally = Tally()
        game_index = 0
        while tally.sequences < total // 2:
            tally.add(play_random_game(seed * 1000 + game_index * 2 + int(colors),
                                       sequences=min(per_game, total // 2 - tally.sequences),
                                       colors=colors))
            game_index += 1
        results.append(tally)
    return results[0], results[1]
