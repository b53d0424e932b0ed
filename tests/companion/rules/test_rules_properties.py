"""Property tests over random games (hypothesis).

Games are played as at the table: each side has a shuffled deck (a list),
a flip takes its top card and a card that goes back (R7, R8) goes to the
bottom. CI runs a reduced number of examples; ``RAINDROP_FULL=1`` runs more
and longer games.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import dataclass, field

import chess
import simple_generator as simple
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion.rules import HouseRules, RaindropBoard, mate_verdict

FULL = os.environ.get("RAINDROP_FULL") == "1"
GAME_EXAMPLES = 400 if FULL else 30
GAME_LENGTH = 220 if FULL else 90
ORDER_EXAMPLES = 300 if FULL else 25
SETTINGS = settings(deadline=None, derandomize=not FULL, database=None,
                    suppress_health_check=[HealthCheck.too_slow])

rules_strategy = st.builds(
    HouseRules,
    jokers_per_deck=st.integers(0, 2),
    blue_pieces=st.sampled_from(["QRBN", "QN", "R", ""]),
    blue_returns_when_captured=st.booleans(),
    failed_rescue=st.sampled_from(["lose", "return"]),
    joker_effect=st.sampled_from(["extra_turn", "remove_piece"]),
    coloured_bishop_cards=st.booleans(),
)

PIECE_CARD = {"p": chess.PAWN, "n": chess.KNIGHT, "b": chess.BISHOP, "l": chess.BISHOP,
              "d": chess.BISHOP, "r": chess.ROOK, "q": chess.QUEEN, "k": chess.KING}


@dataclass
class Table:
    """A game at the table: the board, the secret deck order, the captured pieces."""

    board: RaindropBoard
    decks: dict[bool, list[str]]
    captured: Counter[bool] = field(default_factory=Counter)
    jokers_flipped: Counter[bool] = field(default_factory=Counter)


def new_table(rules: HouseRules, rng: random.Random) -> Table:
    decks = {color: list(rules.deck_letters(color)) for color in chess.COLORS}
    for deck in decks.values():
        rng.shuffle(deck)
    return Table(RaindropBoard(rules=rules), decks)


def step(table: Table, rng: random.Random) -> bool:
    """Play one random action; False when the game is over or stuck."""
    board = table.board
    if board.outcome() is not None:
        return False
    if board.pending in ("J", "j"):
        square = rng.choice(list(board.legal_removals()))
        table.captured[not board.turn] += 1
        board.push_removal(square)
        return True
    moves = list(board.legal_moves)
    if board.pending:
        board.push(rng.choice(moves))
        return True
    flip = board.can_flip() and (not moves or rng.random() < 0.45)
    if flip:
        color = board.turn
        card = table.decks[color].pop(0)
        result = board.flip(card)
        if result.outcome.to_bottom:
            table.decks[color].append(card)
        if card in "Jj":
            table.jokers_flipped[color] += 1
        return True
    if not moves:
        return False
    move = rng.choice(moves)
    if board.is_capture(move):
        table.captured[not board.turn] += 1
    board.push(move)
    return True


def check_cards_conserved(table: Table) -> None:
    board = table.board
    rules = board.rules
    for color in chess.COLORS:
        deck = board.deck(color)
        assert Counter(table.decks[color]) == Counter(deck)
        on_board = chess.popcount(board.occupied_co[color])
        pending = board.pending if board.turn == color else None
        piece_cards = sum(n for letter, n in deck.items() if letter not in "Jj")
        pending_piece = 1 if pending and pending not in "Jj" else 0
        assert on_board + table.captured[color] + piece_cards + pending_piece == 16
        jokers = deck.get("J" if color else "j", 0) + table.jokers_flipped[color]
        assert jokers == rules.jokers_per_deck
        # Pieces per kind, blue pieces counted as the pawns they replaced.
        for letter, piece_type in PIECE_CARD.items():
            if letter in "ld":
                continue
            plain = board.pieces_mask(piece_type, color) & ~board.promoted
            if piece_type == chess.PAWN:
                plain |= board.occupied_co[color] & board.promoted
            cards = sum(deck.get(x.upper() if color else x, 0) for x, t in PIECE_CARD.items()
                        if t == piece_type)
            if pending and PIECE_CARD.get(pending.lower()) == piece_type:
                cards += 1
            limit = {chess.PAWN: 8, chess.KING: 1, chess.QUEEN: 1}.get(piece_type, 2)
            assert chess.popcount(plain) + cards <= limit


def check_membership(board: RaindropBoard) -> None:
    """``legal_moves`` iteration agrees with ``move in legal_moves``."""
    generated = set(board.legal_moves)
    assert len(generated) == board.legal_moves.count()
    for move in generated:
        assert board.is_legal(move)
    plain = chess.Board(None)
    plain.set_board_fen(board.board_fen(promoted=False))
    plain.turn = board.turn
    candidates = set(plain.generate_pseudo_legal_moves())
    for move in list(candidates):
        if move.promotion:
            for piece_type in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING):
                candidates.add(chess.Move(move.from_square, move.to_square, piece_type))
    for square in range(0, 64, 3):
        for piece_type in chess.PIECE_TYPES:
            candidates.add(chess.Move(square, square, drop=piece_type))
    candidates.add(chess.Move.null())
    for move in candidates | generated:
        assert (move in board.legal_moves) == (move in generated), move
    # The square masks python-chess's helpers pass (captures, moves of a piece kind).
    for from_mask, to_mask in ((chess.BB_ALL, board.occupied_co[not board.turn]),
                               (board.pawns | board.kings, chess.BB_ALL),
                               (chess.BB_LIGHT_SQUARES, chess.BB_DARK_SQUARES | chess.BB_RANK_4)):
        masked = set(board.generate_legal_moves(from_mask, to_mask))
        assert masked == {m for m in generated if chess.BB_SQUARES[m.from_square] & from_mask
                          and chess.BB_SQUARES[m.to_square] & to_mask}


def check_against_simple_generator(board: RaindropBoard) -> None:
    pos = simple.parse(board.rfen())
    rules = simple.Rules(board.rules.failed_rescue, board.rules.joker_effect,
                         board.rules.blue_returns_when_captured)
    try:
        expected = {name: simple.write(child) for name, child in simple.children(pos, rules)}
    except NotImplementedError:
        return
    names = [m.uci() for m in board.legal_moves]
    if board.pending in ("J", "j"):
        names += [f"remove:{chess.square_name(sq)}" for sq in board.legal_removals()]
    elif board.can_flip():
        names += [f"flip:{card}" for card in board.deck(board.turn)]
    assert sorted(names) == sorted(expected)


@settings(SETTINGS, max_examples=GAME_EXAMPLES)
@given(rules=rules_strategy, seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant(rules: HouseRules, seed: int) -> None:
    rng = random.Random(seed)
    table = new_table(rules, rng)
    board = table.board
    for _ in range(GAME_LENGTH):
        before = board.rfen()
        if not step(table, rng):
            break
        after = board.rfen()
        # push/pop (and flip/pop, removal/pop) restores the exact RFEN.
        snapshot = board.copy()
        board.pop()
        assert board.rfen() == before
        board = table.board = snapshot
        assert board.rfen() == after
        # The side not to move is never in check.
        assert not board.was_into_check()
        # RFEN round-trips, and the verdict depends on nothing but the RFEN.
        fresh = RaindropBoard(after, rules=rules)
        assert fresh.rfen() == after
        verdict = mate_verdict(board)
        assert verdict == mate_verdict(fresh)
        assert verdict.checkmate == board.is_checkmate()
        assert board.outcome() == fresh.outcome()
        check_cards_conserved(table)
        check_membership(board)
        check_against_simple_generator(board)
    outcome = board.outcome()
    event(f"game: {outcome.termination.name if outcome else 'still running'}")
    event(f"game: {len(board.actions) // 20 * 20}+ actions")
    if board.promoted:
        event("game: a blue piece on the board")
    if any(a.outcome is not None and a.outcome.name != "PLACE" for a in board.actions):
        event("game: a flip that did not lead to a placement")


@settings(SETTINGS, max_examples=ORDER_EXAMPLES)
@given(rules=rules_strategy, seed=st.integers(0, 2**32 - 1),
       placements=st.integers(4, 24))
def test_the_flip_order_never_changes_the_verdict(rules: HouseRules, seed: int,
                                                  placements: int) -> None:
    """Two tables whose decks were shuffled differently and whose placements came in a
    different order reach the same RFEN; the verdicts are then equal."""
    rng = random.Random(seed)
    first = RaindropBoard(rules=rules)
    drops: dict[bool, list[tuple[str, chess.Move]]] = {chess.WHITE: [], chess.BLACK: []}
    for _ in range(placements):
        color = first.turn
        deck = [c for c, n in first.deck(color).items() for _ in range(n) if c not in "Jj"]
        if not deck or not first.can_flip():
            break
        card = rng.choice(deck)
        result = first.flip(card)
        if result.outcome.to_bottom or not first.pending or not any(first.legal_moves):
            first.pop()  # unplaceable, or a failed rescue: keep the placements so far
            break
        move = rng.choice(list(first.legal_moves))
        first.push(move)
        drops[color].append((card, move))
    # Replay with each side's placements in another order.
    for order in range(3):
        second = RaindropBoard(rules=rules)
        shuffled = {color: rng.sample(items, len(items)) for color, items in drops.items()}
        ok = True
        for i in range(len(drops[chess.WHITE]) + len(drops[chess.BLACK])):
            card, move = shuffled[second.turn][i // 2]
            if not second.can_flip():
                ok = False
                break
            second.flip(card)
            if move not in second.legal_moves:
                ok = False
                break
            second.push(move)
        if not ok or second.board_fen() != first.board_fen():
            continue
        assert second.rfen() == first.rfen(), order
        event("order: the same RFEN by another flip order")
        assert mate_verdict(second) == mate_verdict(first)
        assert second.outcome() == first.outcome()
