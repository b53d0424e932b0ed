"""RFEN errors, refused actions, copies, PGN and the ``raindrop check`` command."""

from __future__ import annotations

import io
import json
from collections.abc import Callable

import chess
import chess.pgn
import chess.variant
import pytest

from companion.cli import main
from companion.rules import (
    STARTING_RFEN,
    HouseRules,
    IllegalActionError,
    RaindropBoard,
    RfenError,
)

MIDGAME = "r3k3/pp3ppp/2n5/8/3P4/2N2B2/PP3PPP/R3K3[QRBNPPqrbbnp] w QRBNqrbn - 0 12"


# ----------------------------------------------------------------------
# RFEN errors name the field


def test_jokers_are_checked_against_the_house_rule() -> None:
    one = HouseRules(jokers_per_deck=1)
    assert RaindropBoard("8/8/8/8/8/8/8/8[KJkj] w - - 0 1", rules=one).deck_count("J") == 1
    with pytest.raises(RfenError, match="black holds 2 joker"):
        RaindropBoard("8/8/8/8/8/8/8/8[KJkjj] w - - 0 1", rules=one)
    # A pending remove-piece joker counts as held.
    remove = HouseRules(jokers_per_deck=1, joker_effect="remove_piece")
    with pytest.raises(RfenError, match="white holds 2 joker"):
        RaindropBoard("k6r/8/8/8/8/8/8/K7[J] w - J 0 1", rules=remove)
    # Without rules, the board takes jokers_per_deck from the RFEN itself.
    assert RaindropBoard("8/8/8/8/8/8/8/8[KJJk] w - - 0 1").rules.jokers_per_deck == 2


@pytest.mark.parametrize(("rfen", "field", "words"), [
    ("", "string", "empty"),
    ("8/8/8/8/8/8/8/8[Kk] w - -", "string", None),  # four fields are allowed: see below
    ("8/8/8/8/8/8/8/8[] w - - 0", "string", "6 space-separated fields"),
    ("8/8/8/8/8/8/8/8 w - - 0 1", "cards", "brackets"),
    ("8/8/8/8/8/8/8/8[KX] w - - 0 1", "cards", "unknown card letter 'X'"),
    ("8/8/8/8/8/8/8/8[KQQ] w - - 0 1", "cards", "more than 1"),
    ("8/8/8/8/8/8/8[] w - - 0 1", "placement", "8 ranks"),
    ("8/8/8/8/8/8/8/7X[] w - - 0 1", "placement", None),
    ("P7/8/8/8/8/8/8/8[] w - - 0 1", "placement", "first or last rank"),
    ("8/8/8/8/8/8/8/8[] x - - 0 1", "turn", "'w' or 'b'"),
    ("4k3/8/8/8/8/8/8/4R3[K] w - - 0 1", "turn", "black is in check"),
    ("8/8/8/8/8/8/8/8[] w QK - 0 1", "blue", "'K'"),
    ("8/8/8/8/8/8/8/8[Kk] w QQ - 0 1", "blue", "than the rules allow"),
    ("8/8/8/8/8/8/8/8[] w - X 0 1", "pending", "card letter"),
    ("8/8/8/8/8/8/8/8[] w - n 0 1", "pending", "black card"),
    ("8/8/8/8/8/8/8/4K3[k] w - + 0 1", "pending", "only under failed_rescue=return"),
    ("8/8/8/8/8/8/8/4K3[k] w - K 0 1", "pending", "a second king"),
    ("8/8/8/8/8/8/8/K6K[k] w - - 0 1", "cards", "2 king(s) on the board"),
    ("8/8/8/8/8/8/8/4K3[Kk] w - - 0 1", "cards", "king(s) on the board and 1 in cards"),
    ("8/8/8/8/8/8/8/8[Kk] w - J 0 1", "pending", "extra-turn joker is never pending"),
    ("8/8/8/8/8/8/8/4k3[] w - - 0 1", "cards", "white has no king anywhere"),
    ("8/8/8/8/8/8/8/4K3[q] b - - 0 1", "cards", "black has no king anywhere"),
    ("4k3/8/8/3P~4/8/8/8/4K3[] w - - 0 1", "placement", "the pawn on d5 is marked blue"),
    ("4k3/8/8/8/8/8/8/4K~3[] w - - 0 1", "placement", "the king on e1 is marked blue"),
    ("8/8/8/8/8/8/8/8[KLk] w - - 0 1", "cards", "only under coloured_bishop_cards=true"),
    ("8/8/8/8/8/8/8/8[Kk] w - L 0 1", "pending", "only under coloured_bishop_cards=true"),
    ("8/8/8/8/8/8/8/8[KJk] w - - 0 1", "cards", "white holds 1 joker(s), more than "
                                                "jokers_per_deck=0"),
    ("8/8/8/8/8/8/8/8[] w - - -1 1", "halfmove", "at least 0"),
    ("8/8/8/8/8/8/8/8[] w - - x 1", "halfmove", "number"),
    ("8/8/8/8/8/8/8/8[] w - - 0 0", "fullmove", "at least 1"),
])
def test_rfen_errors_name_the_field(rfen: str, field: str, words: str | None) -> None:
    if field == "string" and words is None:
        assert RaindropBoard(rfen).rfen() == "8/8/8/8/8/8/8/8[Kk] w - - 0 1"
        return
    with pytest.raises(RfenError) as error:
        RaindropBoard(rfen, rules=HouseRules())
    assert error.value.field == field
    assert str(error.value).startswith(f"invalid RFEN {field}: ")
    if words:
        assert words in str(error.value)
    assert isinstance(error.value, ValueError)


def test_impossible_positions_under_the_rules_in_force() -> None:
    """Issue 14, point 7: '+' needs failed_rescue=return and a check; L/D cards need
    coloured_bishop_cards (and then no plain B card)."""
    back = HouseRules(failed_rescue="return")
    with pytest.raises(RfenError, match="needs the side to move in check"):
        RaindropBoard("8/8/8/8/8/8/8/4K3[k] w - + 0 1", rules=back)
    assert RaindropBoard("k7/8/8/8/8/8/PP6/K6r[NPq] w QRBNqrbn + 0 20", rules=back).must_move
    with pytest.raises(RfenError, match="only under failed_rescue=return"):
        RaindropBoard("k7/8/8/8/8/8/PP6/K6r[NPq] w QRBNqrbn + 0 20", rules=HouseRules())
    # Without rules (as chess.pgn makes a board from a FEN header) the RFEN's own
    # letters show the rule: defaults otherwise.
    assert RaindropBoard("k7/8/8/8/8/8/PP6/K6r[NPq] w QRBNqrbn + 0 20").rules == back
    coloured = HouseRules(coloured_bishop_cards=True)
    assert RaindropBoard("8/8/8/8/8/8/8/8[KLk] w - - 0 1", rules=coloured).deck_size(
        chess.WHITE) == 2
    with pytest.raises(RfenError, match="plain bishop card") as error:
        RaindropBoard("8/8/8/8/8/8/8/8[Kk] w - B 0 1", rules=coloured)
    assert error.value.field == "pending"
    assert RaindropBoard("8/8/8/8/8/8/8/8[KLk] w - - 0 1").rules == coloured


def test_a_bad_rfen_leaves_the_board_unchanged() -> None:
    board = RaindropBoard(MIDGAME)
    board.push_uci("e1e2")
    with pytest.raises(RfenError):
        board.set_rfen("8/8/8/8/8/8/8/8[] w - - 0 0")
    assert board.rfen() == MIDGAME.replace("R3K3", "R7").replace("PP3PPP", "PP2KPPP")\
        .replace(" w ", " b ").replace(" 0 12", " 1 12")
    assert len(board.actions) == 1


def test_rfen_examples_round_trip() -> None:
    # The default argument stands for the rules' own start position.
    assert RaindropBoard(STARTING_RFEN, rules=HouseRules(jokers_per_deck=1)).rfen() == \
        HouseRules(jokers_per_deck=1).start_rfen()
    for rfen in (
        "8/8/8/8/8/8/8/8[KQRRBBNPPPPPPPPkqrrbbnnpppppppp] w QRBNqrbn N 0 1",
        "8/8/8/8/8/8/8/8[KQRRLDNNPPPPPPPPkqrrldnnpppppppp] w QRBNqrbn - 0 1",
        "k7/8/8/8/8/8/PP6/K6r[NPq] w QRBNqrbn + 0 20",
        "1Q~6/8/4k3/8/8/8/8/4K3[NJj] w RBNqrbn - 3 40",
    ):
        rules = HouseRules(coloured_bishop_cards="L" in rfen, jokers_per_deck=2,
                           failed_rescue="return")
        assert RaindropBoard(rfen, rules=rules).rfen() == rfen


# ----------------------------------------------------------------------
# Refused actions raise and change nothing


def _refusals() -> list[tuple[str, Callable[[RaindropBoard], object]]]:
    return [
        ("move of a pawn two squares", lambda b: b.push_uci("a2a4")),
        ("castling", lambda b: b.push_uci("e1c1")),
        ("move of an opposing piece", lambda b: b.push_uci("a7a6")),
        ("garbage UCI", lambda b: b.push_uci("zz")),
        ("garbage SAN", lambda b: b.push_san("Zz9")),
        ("a placement of a card not in the deck", lambda b: b.push_san("K@e4")),
        ("a placement on an occupied square", lambda b: b.push_san("N@d4")),
        ("a black card", lambda b: b.flip("q")),
        ("an unknown card", lambda b: b.flip("X")),
        ("a card not in the deck", lambda b: b.flip("K")),
        ("a removal without a joker", lambda b: b.push_removal(chess.A8)),
        ("a null move from parse", lambda b: b.push_uci("0000")),
    ]


@pytest.mark.parametrize(("what", "action"), _refusals(), ids=[r[0] for r in _refusals()])
def test_illegal_actions_raise_and_leave_the_board_unchanged(
        what: str, action: Callable[[RaindropBoard], object]) -> None:
    board = RaindropBoard(MIDGAME)
    board.push_uci("e1e2")
    board.push_uci("e8e7")
    before = (board.rfen(), board.actions, list(board.move_stack))
    with pytest.raises(ValueError):  # every refusal is a ValueError subclass
        action(board)
    assert (board.rfen(), board.actions, list(board.move_stack)) == before


def test_a_pending_card_refuses_other_actions() -> None:
    board = RaindropBoard(MIDGAME)
    board.flip("N")
    before = board.rfen()
    for uci in ("e1e2", "Q@e4", "B@e4"):
        with pytest.raises(IllegalActionError):
            board.push_uci(uci)
    with pytest.raises(IllegalActionError, match="must be dealt with first"):
        board.flip("Q")
    reason = board.why_illegal(chess.Move.from_uci("e1e2"))
    assert reason is not None and "must be placed first" in reason
    assert board.rfen() == before


# ----------------------------------------------------------------------
# Copies carry the extra state


def _played() -> RaindropBoard:
    board = RaindropBoard(MIDGAME, rules=HouseRules(jokers_per_deck=1))
    board.push_uci("e1e2")
    board.flip("p")
    board.push_san("P@h6")
    board.flip("Q")
    return board


def test_copy_carries_decks_pending_history_and_rules() -> None:
    board = _played()
    copy = board.copy()
    assert copy == board and copy.rfen() == board.rfen()
    assert copy.rules == board.rules and copy.actions == board.actions
    assert copy.pending == "Q"
    copy.pop()
    assert copy.pending is None and board.pending == "Q"
    short = board.copy(stack=2)
    assert len(short.actions) == 2
    short.pop()
    short.pop()
    reference = RaindropBoard(MIDGAME, rules=board.rules)
    reference.push_uci("e1e2")
    reference.flip("p")
    assert short.rfen() == reference.rfen()
    with pytest.raises(IndexError):
        short.pop()
    bare = board.copy(stack=False)
    assert bare.actions == [] and bare.rfen() == board.rfen()


def test_root_is_the_starting_position_with_its_rules() -> None:
    board = _played()
    root = board.root()
    assert root.rfen() == MIDGAME and root.rules == board.rules and root.actions == []


def test_mirror_swaps_sides_decks_blue_and_pending() -> None:
    board = RaindropBoard("4k3/8/8/8/8/8/8/4K3[QRNqrbj] w QRBNqr N 0 30",
                          rules=HouseRules(jokers_per_deck=1))
    mirrored = board.mirror()
    assert mirrored.rfen() == "4k3/8/8/8/8/8/8/4K3[QRBJqrn] b QRqrbn n 0 30"
    assert mirrored.mirror().rfen() == board.rfen()
    returned = RaindropBoard("k7/8/8/8/8/8/PP6/K6r[NPq] w QRBNqrbn + 0 20",
                             rules=HouseRules(failed_rescue="return"))
    assert returned.mirror().must_move


def test_push_pop_restores_every_action() -> None:
    start = MIDGAME.replace("PPqrbbnp]", "PPJqrbbnpj]")
    board = RaindropBoard(start, rules=HouseRules(jokers_per_deck=1,
                                                   joker_effect="remove_piece"))
    seen = [board.rfen()]
    board.push_uci("e1e2")
    seen.append(board.rfen())
    board.flip("j")
    seen.append(board.rfen())
    board.push_removal(chess.D4)
    seen.append(board.rfen())
    while board.actions:
        assert board.rfen() == seen.pop()
        board.pop()
    assert board.rfen() == seen.pop() == start


# ----------------------------------------------------------------------
# PGN with [Variant "Raindropchess"]


def test_the_variant_is_registered() -> None:
    assert chess.variant.find_variant("Raindropchess") is RaindropBoard


def test_chess_pgn_writes_and_reads_a_game() -> None:
    board = RaindropBoard()
    for card, san in (("N", "N@e4"), ("k", "K@e8"), ("K", "K@e1"), ("p", "P@d5")):
        board.flip(card)
        board.push_san(san)
    board.push_san("Nf6+")
    board.push_uci("e8e7")
    board.push_san("P@d4")  # a flip and its placement, as PGN records them
    game = chess.pgn.Game.from_board(board)
    text = str(game)
    assert '[Variant "Raindropchess"]' in text
    assert "1. N@e4 K@e8 2. K@e1 P@d5 3. Nf6+ Ke7 4. P@d4" in text
    read = chess.pgn.read_game(io.StringIO(text))
    assert read is not None and not read.errors
    assert isinstance(read.board(), RaindropBoard)
    assert read.end().board().rfen() == board.rfen()


def test_pgn_placements_parse_as_drops() -> None:
    board = RaindropBoard()
    assert board.parse_san("@e4") == chess.Move.from_uci("P@e4")
    assert board.parse_san("n@e4") == chess.Move.from_uci("N@e4")
    with pytest.raises(IllegalActionError, match="ranks 2 to 6"):
        board.flip("P")
        board.parse_san("P@e7")
    assert board.parse_san("--") == chess.Move.null()


def test_a_malformed_pgn_move_is_reported_not_applied() -> None:
    text = '[Variant "Raindropchess"]\n\n1. N@e4 K@e8 2. e4e5 *\n'
    read = chess.pgn.read_game(io.StringIO(text))
    assert read is not None and read.errors
    assert read.end().board().rfen() == \
        "4k3/8/8/8/4N3/8/8/8[KQRRBBNPPPPPPPPqrrbbnnpppppppp] w QRBNqrbn - 0 2"


# ----------------------------------------------------------------------
# raindrop check


MATE = "k7/8/8/8/8/8/PP6/K6r[PPq] w QRBNqrbn - 0 20"


def test_check_prints_the_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", MATE]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == MATE
    assert out[1] == "Checkmate: White cannot lift the check."
    assert out[2].startswith("  1. [yes] the king is attacked: the king on a1 is attacked by "
                             "the rook on h1")
    assert out[-1] == "Black wins by checkmate"


def test_check_prints_rescue_cards_and_chance(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", MATE.replace("[PPq]", "[NPq]")]) == 0
    out = capsys.readouterr().out
    assert "Rescuing cards in the deck:" in out
    assert "N x1: a knight placed on b1, c1, d1, e1, f1, g1 blocks" in out
    assert "Chance a flip now lifts the check: 1/2 (50.0%)" in out


def test_check_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", MATE.replace("[PPq]", "[NJq]"), "--json", "--rules",
                 "jokers_per_deck=1,joker_effect=remove_piece"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["checkmate"] is False and data["outcome"] is None
    assert data["rescue_probability"] == "1"
    assert [r["card"] for r in data["rescue_cards"]] == ["N", "J"]
    assert data["checkers"] == ["h1"] and data["king"] == "a1"
    assert main(["check", MATE, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["checkmate"] is True
    assert data["outcome"] == {"result": "0-1", "termination": "checkmate",
                               "description": "Black wins by checkmate"}


def test_check_reports_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "8/8/8/8/8/8/8/8[] w - - 0 0"]) == 2
    assert "invalid RFEN fullmove" in capsys.readouterr().err
    assert main(["check", MATE, "--rules", "failed_rescue=maybe"]) == 2
    assert "failed_rescue" in capsys.readouterr().err
