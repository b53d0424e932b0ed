"""A whole Raindropchess game played on the simulated reed-switch board.

The real firmware runs under the MicroPython unix port with a simulated switch
matrix; the host reader talks to it through a pty. A seeded game of the rules
engine (flips, placements, moves, captures, to the end) is replayed as hands
on the board: pieces are lifted, slid, hovered and put down scan by scan. The
host must report exactly the settled occupancy after each action, nothing in
between. A second game is followed by the game itself, through BoardSync.
By default one short game of each (every kind of step, captures, the end);
``RAINDROP_FULL=1`` adds several long ones.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass

import chess
import pytest
from board_test_helpers import Recorder, eventually

from companion.cards import Decks
from companion.game import Game
from companion.rules import HouseRules, RaindropBoard
from companion.sensors.board_frames import led_pattern
from companion.sensors.serial_board import ReaderConfig, SerialBoardReader
from companion.sync import PhysicalBoardSession, SyncKind, SyncResult

FULL = os.environ.get("RAINDROP_FULL") == "1"
SEEDS = [1116, 9, 54, 13, 51, 0, 3] if FULL else [1116]
"""1116: 15 actions, 5 captures, a failed rescue; 9: 46 actions, 9 captures, mate."""
HAND = 8  # scans a lifted piece stays in the air: past debounce (5), far inside settling


@dataclass(frozen=True)
class Step:
    """One physical action: the states the hands pass through, and the settled result."""

    text: str
    states: list[tuple[int, int]]  # (mask, scans held)
    result: int


def play_game(seed: int, cap: int = 200) -> tuple[list[Step], RaindropBoard]:
    """A greedy seeded game (mate > capture > check > chance), as physical steps."""
    rng = random.Random(seed)
    board = RaindropBoard()
    steps: list[Step] = []
    while len(board.move_stack) < cap and not board.is_game_over():
        if board.pending is None and board.can_flip() and (
                not any(True for _ in board.legal_moves) or rng.random() < 0.35):
            deck = board.deck(board.turn)
            board.flip(rng.choice([card for card, count in deck.items() for _ in range(count)]))
            continue  # a flipped card changes nothing on the board
        moves = list(board.legal_moves)
        assert moves, board.rfen()

        def score(move: chess.Move) -> tuple[bool, bool, bool, float]:
            capture = move.drop is None and board.is_capture(move)
            board.push(move)
            mate, check = board.is_checkmate(), board.is_check()
            board.pop()
            return mate, capture, check, rng.random()

        move = max(moves, key=score)
        before = board.occupied
        text = board.san(move)
        board.push(move)
        steps.append(Step(text, hand_states(rng, before, move), board.occupied))
    return steps, board


def hand_states(rng: random.Random, before: int, move: chess.Move) -> list[tuple[int, int]]:
    to = chess.BB_SQUARES[move.to_square]
    if move.drop is not None:
        # The piece brushes a neighbouring empty square (too briefly to register) on its way.
        near = chess.BB_KING_ATTACKS[move.to_square] & ~before
        brush = [(before | (near & -near), 3)] if near else []
        return [*brush, (before | to, 1)]
    frm = chess.BB_SQUARES[move.from_square]
    if before & to:  # a capture: one piece off the board, the other lifted, then put down
        first, second = (to, frm) if rng.random() < 0.5 else (frm, to)
        return [(before & ~first, HAND), (before & ~first & ~second, HAND),
                (before & ~frm | to, 1)]
    return [(before & ~frm, HAND), (before & ~frm | to, 1)]


def test_seeded_games_end() -> None:
    games = [play_game(seed) for seed in SEEDS]
    for seed, (steps, board) in zip(SEEDS, games, strict=True):
        assert board.outcome() is not None, seed
        assert len(steps) >= 10, seed
    captures = [step for steps, _ in games for step in steps if "x" in step.text]
    assert len(captures) >= 5


@pytest.mark.parametrize("seed", SEEDS)
def test_whole_game_on_the_simulated_board(seed: int, sim_board, reader_for,
                                           recorder: Recorder) -> None:
    steps, final = play_game(seed)
    board = sim_board()
    reader = reader_for(board.port, recorder, settle_s=0.35)
    assert recorder.wait_snapshot(0)
    expected = [0]
    for number, step in enumerate(steps, 1):
        board.play(step.states)
        expected.append(step.result)
        assert recorder.wait_snapshot(step.result), (number, step.text, recorder.masks())
        assert recorder.masks() == expected, (number, step.text)
    assert recorder.snapshots[-1].occupied == chess.SquareSet(final.occupied)
    assert all(snapshot.colors is None for snapshot in recorder.snapshots)
    stats = reader.stats()
    assert stats.bad_crc == stats.malformed == stats.lost == 0
    assert stats.snapshots == len(steps) + 1
    # The board did report the hands (lifted pieces): the reader's settling held them back.
    in_the_air = sum(1 for step in steps for _, scans in step.states if scans >= HAND)
    assert stats.snap_frames >= stats.snapshots + in_the_air


# --- the same, with the game following through BoardSync -------------------------------

SYNC_SEEDS = [662, 26, 16, 70] if FULL else [662]
"""662: 13 moves, 2 captures, a failed rescue; 26: 32 actions, 8 captures, mate."""
SLOW = 240  # scans (0.6 s): a captured piece taken off and put aside, seen settled


def decks_for(seed: int) -> Decks:
    """Both decks shuffled from ``seed`` here, so the game does not depend on the shuffler."""
    rng = random.Random(seed)
    rules = HouseRules()
    piles = []
    for color in (chess.WHITE, chess.BLACK):
        pile = list(rules.deck_letters(color))
        rng.shuffle(pile)
        piles.append(pile)
    return Decks(piles[0], piles[1])


def sync_policy_move(game: Game, rng: random.Random) -> chess.Move | None:
    """Flip (the game draws the card) or pick a move: mate > capture > check > chance."""
    board = game.board
    moves = game.legal_moves()
    if board.pending is None and game.can_flip() and (not moves or rng.random() < 0.35):
        game.flip()
        return None
    assert moves, game.rfen()

    def score(move: chess.Move) -> tuple[bool, bool, bool, float]:
        capture = move.drop is None and board.is_capture(move)
        after = board.copy()
        after.push(move)
        return after.is_checkmate(), capture, after.is_check(), rng.random()

    return max(moves, key=score)


def sync_hand_states(before: int, move: chess.Move, rng: random.Random) -> list[tuple[int, int]]:
    to = chess.BB_SQUARES[move.to_square]
    if move.drop is not None:
        return [(before | to, 1)]
    frm = chess.BB_SQUARES[move.from_square]
    if before & to:  # a capture, done at a player's pace: each half is seen by the game
        first, second = (to, frm) if rng.random() < 0.5 else (frm, to)
        return [(before & ~first, SLOW), (before & ~first & ~second, SLOW),
                (before & ~frm | to, 1)]
    return [(before & ~frm, HAND), (before & ~frm | to, 1)]


@pytest.mark.parametrize("seed", SYNC_SEEDS)
def test_whole_game_followed_by_board_sync(seed: int, sim_board, recorder: Recorder) -> None:
    """The game follows the board through BoardSync, across an unplug mid-game."""
    game = Game(decks=decks_for(seed))
    rng = random.Random(seed)
    board = sim_board()
    results: list[SyncResult] = []
    reader = SerialBoardReader(board.port, ReaderConfig(settle_s=0.25))
    session = PhysicalBoardSession(game, reader, results.append, on_status=recorder.on_status)
    session.start()
    try:
        assert eventually(lambda: bool(results) and results[-1].kind is SyncKind.IN_SYNC)
        played = unplugs = 0
        while not game.is_over:
            move = sync_policy_move(game, rng)
            if move is None:
                continue
            expected = game.board.copy()
            expected.push(move)
            quiet = move.drop is not None or not game.board.is_capture(move)
            if unplugs == 0 and played >= 10 and quiet:
                # The cable is pulled, this action is made blind, the cable goes back in.
                statuses = len(recorder.statuses)
                board.unplug()
                assert recorder.wait_status(False, after=statuses)
                board.magnets = expected.occupied
                board.start()
                unplugs += 1
            else:
                board.play(sync_hand_states(game.board.occupied, move, rng))

            def followed(move: chess.Move = move, expected: RaindropBoard = expected) -> bool:
                last = results[-1] if results else None
                if last is not None and last.kind is SyncKind.ASK:  # a promotion: pick it
                    index = next(i for i, c in enumerate(last.choices) if c.move == move)
                    session.choose(index)
                return game.rfen() == expected.rfen()

            assert eventually(followed), (played, move, game.rfen(), [r.kind for r in results])
            played += 1
        assert game.outcome is not None and played >= 10
        assert unplugs == 1 and reader.stats().connects == 2
        kinds = {r.kind for r in results}
        assert SyncKind.COMMITTED in kinds and SyncKind.WAITING in kinds  # half-done captures
        assert not kinds & {SyncKind.MISMATCH, SyncKind.ILLEGAL, SyncKind.TAKEBACK}
        assert board.wait_leds(led_pattern(results[-1].led), timeout=15)  # the board lights it
    finally:
        session.stop()
