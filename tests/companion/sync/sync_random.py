"""Random legal games played by simulated hands with realistic noise, for the
randomized board-sync suite (tests) and the benchmark."""

from __future__ import annotations

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

    def add(self, other: Tally) -> None:
        for field in ("sequences", "committed", "corrected", "asked", "flagged", "wrong",
                      "snapshots"):
            setattr(self, field, getattr(self, field) + getattr(other, field))
        self.failures.extend(other.failures)


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
        expected = game.board
        if isinstance(action, chess.Move):
            expected.push(action)
        else:
            expected.push_removal(action)
        before = len(table.results)
        if isinstance(action, chess.Move):
            note = perform_noisy(table, action, rng)
        else:
            note = "removal"
            table.board.remove(action, bounce=rng.choice((0, 2)))
        tally.sequences += 1
        results = table.since(before)
        last = results[-1] if results else table.last
        if game.rfen() == expected.rfen():
            tally.committed += 1
            if any(r.kind == SyncKind.CORRECTED for r in results):
                tally.corrected += 1
            continue
        if game.board.actions != expected.actions[:-1]:
            # The game moved on, but not to the intended position.
            tally.wrong += 1
            tally.failures.append(f"seed {seed}: {note} {action}: game has "
                                  f"{game.san_history()[-2:]}, "
                                  f"results {[r.message for r in results][-4:]}")
            break
        if last.kind == SyncKind.ASK:
            labels = [c for c in last.choices
                      if c.move == action or c.remove == action]
            if len(labels) != 1 or any(c.undo_count for c in labels):
                tally.wrong += 1
                tally.failures.append(f"seed {seed}: {note} {action}: asked without it: "
                                      f"{last.message}")
                break
            table.session.choose(last.choices.index(labels[0]))
            tally.asked += 1
        else:
            tally.flagged += 1
            if isinstance(action, chess.Move) and not action.drop and \
                    "fast" in note and last.kind == SyncKind.WAITING:
                # The players follow the hint: set the capturing piece down again.
                table.board.lift(action.to_square)
                table.board.place(action.to_square)
            else:
                if isinstance(action, chess.Move):
                    game.play(action)
                else:
                    game.remove(action)
        if game.rfen() != expected.rfen() or table.last.kind not in (
                SyncKind.IN_SYNC, SyncKind.COMMITTED, SyncKind.CORRECTED):
            tally.wrong += 1
            tally.failures.append(f"seed {seed}: {note} {action}: not recovered: "
                                  f"{table.last.message}")
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
