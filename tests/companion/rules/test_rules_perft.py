"""Perft: the engine's action counts proven against a second, simple generator.

The action tree: at a node with a pending card, its placements (a pending
remove-piece joker: its removals); otherwise the legal chess moves plus one
child per distinct card kind the side may flip, applied with ``board.flip``.
``simple_generator`` shares no code with the engine. CI runs depth 2-3;
``RAINDROP_FULL=1`` adds a level.
"""

from __future__ import annotations

import os

import pytest
import simple_generator as simple

from companion.rules import HouseRules, RaindropBoard

FULL = os.environ.get("RAINDROP_FULL") == "1"

# (name, RFEN, house rules, CI depth)
POSITIONS = [
    ("start", "8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w QRBNqrbn - 0 1",
     HouseRules(), 3),
    ("knight pending", "8/8/8/8/8/8/8/8[KQRRBBNPPPPPPPPkqrrbbnnpppppppp] w QRBNqrbn N 0 1",
     HouseRules(), 3),
    ("middlegame", "r3k3/pp3ppp/2n5/8/3P4/2N2B2/PP3PPP/R3K3[QRBNPPqrbbnp] w QRBNqrbn - 0 12",
     HouseRules(), 2),
    ("rook check, rescue flips", "k3r3/8/8/8/8/8/8/4K3[QRBNPqrbn] w QRBNqrbn - 0 10",
     HouseRules(), 3),
    ("failed rescue returned (+)", "k3r3/8/8/8/8/8/8/4K3[QRBNPqrbn] w QRBNqrbn + 0 10",
     HouseRules(failed_rescue="return"), 3),
    ("coloured bishop cards", "8/8/8/3k4/8/8/8/4K3[QLDNPPqldnpp] w QRBNqrbn - 0 5",
     HouseRules(coloured_bishop_cards=True), 3),
    ("extra-turn jokers", "4k3/8/8/8/8/8/8/4K3[QRNJJqrnj] w QRBNqrbn - 0 5",
     HouseRules(jokers_per_deck=2), 3),
    ("remove-piece joker in check", "4k3/8/8/8/4r3/8/3n4/4K2R[QNJqnj] w QRBNqrbn - 0 9",
     HouseRules(jokers_per_deck=1, joker_effect="remove_piece"), 3),
    ("promotions, blue returns", "8/1P2k1P1/8/8/8/8/4K1p1/7R[NNn] w QRn - 0 30",
     HouseRules(blue_returns_when_captured=True), 3),
    ("double check, full deck",
     "4k3/8/8/8/8/5n2/8/4K2r[QRRBBNNPPPPPPPPqrbbnpppppppp] w QRBNqrbn - 0 6",
     HouseRules(), 2),
    ("king pending among attackers", "8/8/8/3q4/8/8/8/r7[RBNPPPkrbnpp] w QRBNqrbn K 0 8",
     HouseRules(), 3),
    ("failed rescue loses", "k3r3/8/8/8/8/8/8/4K3[NPqrbn] w QRBNqrbn - 0 10",
     HouseRules(), 3),
]


def engine_children(board: RaindropBoard) -> list[str]:
    """The names of a node's children, in the simple generator's naming."""
    names = [move.uci() for move in board.legal_moves]
    if board.pending in ("J", "j"):
        names += [f"remove:{square}" for square in
                  (simple.square_name(sq) for sq in board.legal_removals())]
    elif board.can_flip():
        names += [f"flip:{card}" for card in board.deck(board.turn)]
    return names


def engine_perft(board: RaindropBoard, depth: int) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return len(engine_children(board))
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += engine_perft(board, depth - 1)
        board.pop()
    if board.pending in ("J", "j"):
        for square in list(board.legal_removals()):
            board.push_removal(square)
            total += engine_perft(board, depth - 1)
            board.pop()
    elif board.can_flip():
        for card in list(board.deck(board.turn)):
            board.flip(card)
            total += engine_perft(board, depth - 1)
            board.pop()
    return total


def simple_rules(rules: HouseRules) -> simple.Rules:
    return simple.Rules(failed_rescue=rules.failed_rescue, joker_effect=rules.joker_effect,
                        blue_returns_when_captured=rules.blue_returns_when_captured)


def apply_named(board: RaindropBoard, name: str) -> None:
    if name.startswith("flip:"):
        board.flip(name[5:])
    elif name.startswith("remove:"):
        import chess

        board.push_removal(chess.parse_square(name[7:]))
    else:
        board.push_uci(name)


@pytest.mark.parametrize(("name", "rfen", "rules", "depth"), POSITIONS,
                         ids=[p[0] for p in POSITIONS])
def test_children_agree_action_by_action(name: str, rfen: str, rules: HouseRules,
                                         depth: int) -> None:
    """Depth 1 in full: the same actions, each leading to the same RFEN."""
    board = RaindropBoard(rfen, rules=rules)
    pos = simple.parse(rfen)
    assert simple.write(pos) == board.rfen()
    expected = {action: simple.write(child)
                for action, child in simple.children(pos, simple_rules(rules))}
    got = engine_children(board)
    assert sorted(got) == sorted(expected)
    for action in got:
        apply_named(board, action)
        assert board.rfen() == expected[action], action
        board.pop()
        assert board.rfen() == rfen


@pytest.mark.parametrize(("name", "rfen", "rules", "depth"), POSITIONS,
                         ids=[p[0] for p in POSITIONS])
def test_perft_counts_agree(name: str, rfen: str, rules: HouseRules, depth: int) -> None:
    depth += FULL
    board = RaindropBoard(rfen, rules=rules)
    ours = engine_perft(board, depth)
    assert board.rfen() == rfen  # every push and flip was undone
    theirs = simple.perft(simple.parse(rfen), simple_rules(rules), depth)
    assert ours == theirs, f"{name}: engine {ours}, simple generator {theirs} at depth {depth}"
    assert ours > 0


def test_the_start_counts_by_hand() -> None:
    """Six card kinds to flip; the pawn lands on 40 squares, the others on 64."""
    rules = HouseRules()
    start = POSITIONS[0][1]
    board = RaindropBoard(start)
    assert engine_perft(board, 1) == 6
    assert engine_perft(board, 2) == 5 * 64 + 40
    assert simple.perft(simple.parse(start), simple_rules(rules), 2) == 360
