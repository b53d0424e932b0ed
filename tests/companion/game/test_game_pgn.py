"""PGN export and import: chess.pgn reads our files, our reader replays them exactly."""

from __future__ import annotations

import io
import random
from pathlib import Path

import chess
import chess.pgn
import pytest
from game_helpers import fixed_decks, playout

from companion.cards import Decks
from companion.game import Game
from companion.notation import PgnError, board_from_rfen, read_pgn, write_pgn
from companion.rules import FlipOutcome, HouseRules, RfenError, Termination

RULE_SETS = [
    HouseRules(),
    HouseRules(jokers_per_deck=2),
    HouseRules(jokers_per_deck=1, failed_rescue="return"),
    HouseRules(coloured_bishop_cards=True, jokers_per_deck=1),
    HouseRules(jokers_per_deck=2, joker_effect="remove_piece"),
    HouseRules(blue_pieces="QN", blue_returns_when_captured=True),
    HouseRules(blue_pieces="QN", failed_rescue="return"),
]


def _games(count: int) -> list[Game]:
    games = []
    for seed in range(count):
        rules = RULE_SETS[seed % len(RULE_SETS)]
        game = Game(rules, seed=seed)
        playout(game, random.Random(seed), limit=random.Random(seed).randint(1, 500))
        games.append(game)
    return games


def test_round_trip_replays_action_for_action() -> None:
    outcomes = set()
    for game in _games(24):
        text = write_pgn(game, include_decks=True) if game.is_over else write_pgn(game)
        assert '[Variant "Raindropchess"]' in text
        assert "[RaindropRules " in text
        imported = read_pgn(text)
        assert imported.exact == game.is_over  # the order is exported once the game is over
        assert imported.game.rfen() == game.rfen()
        assert imported.game.san_history() == game.san_history()
        assert imported.game.outcome == game.outcome
        assert len(imported.steps) == len(game.actions())
        assert imported.steps[-1].rfen == game.rfen()
        if game.is_over:
            assert imported.game.export_initial_order() == game.export_initial_order()
            assert imported.game.export_deck_order() == game.export_deck_order()
            assert game.outcome is not None
            outcomes.add(game.outcome.termination)
    assert Termination.CHECKMATE in outcomes
    assert Termination.FAILED_RESCUE in outcomes


def test_chess_pgn_reads_the_files_without_errors() -> None:
    for game in _games(28):
        if game.rules.joker_effect == "remove_piece" or game.rules.blue_returns_when_captured:
            continue  # see docs/pgn.md: chess.pgn's board knows only the default rules
        parsed = chess.pgn.read_game(io.StringIO(write_pgn(game)))
        assert parsed is not None
        assert parsed.errors == []
        drops_and_moves = [a for a in game.actions() if a.move is not None]
        assert len([n for n in parsed.mainline() if n.move]) == len(drops_and_moves)


def test_flips_that_place_nothing_are_written_as_comments_and_nulls() -> None:
    rules = HouseRules(jokers_per_deck=1, failed_rescue="return")
    game = Game(rules, decks=fixed_decks("JKP", "nk", rules))
    game.flip()            # extra turn
    game.flip()
    game.play_text("K@e1")
    game.flip()
    game.play_text("N@d3")
    event = game.flip()    # pawn cannot block a knight: returned, a move must follow
    assert event.outcome == FlipOutcome.RETURNED
    game.play_text("Kd2")
    game.resign(chess.BLACK)
    text = write_pgn(game)
    assert "{[%flip J extra_turn]}" in text
    assert "{[%flip P returned]} 2. Kd2" in text
    assert '[RaindropEnd "resignation"]' in text
    imported = read_pgn(text)
    assert imported.game.san_history() == game.san_history()
    assert imported.game.outcome == game.outcome


def test_removal_and_null_moves() -> None:
    rules = HouseRules(jokers_per_deck=1, joker_effect="remove_piece")
    game = Game(rules, decks=fixed_decks("KJ", "nj", rules))
    game.flip()
    game.play_text("K@a1")
    game.flip()
    game.play_text("N@h5")
    game.flip()
    game.remove(chess.H5)
    game.flip()            # Black's joker: no king on the board, no effect, turn over
    text = write_pgn(game)
    flat = " ".join(text.split())
    assert "N@h5 {[%flip J remove_piece] [%remove h5]} 2. -- {[%flip j no_effect]} 2... -- *" \
        in flat
    imported = read_pgn(text)
    assert imported.game.rfen() == game.rfen()
    parsed = chess.pgn.read_game(io.StringIO(text))
    assert parsed is not None and parsed.errors == []


def test_claims_agreement_and_time_round_trip() -> None:
    game = Game(decks=fixed_decks("K", "k"))
    for text in ("K@a1", "k@h8"):
        game.flip()
        game.play_text(text)
    for _ in range(2):
        for text in ("Ka2", "Kh7", "Ka1", "Kh8"):
            game.play_text(text)
    game.claim_draw()
    imported = read_pgn(write_pgn(game))
    assert imported.game.outcome == game.outcome

    agreed = Game(seed=1)
    agreed.offer_draw(chess.WHITE)
    agreed.accept_draw(chess.BLACK)
    assert read_pgn(write_pgn(agreed)).game.outcome == agreed.outcome

    now = [0.0]
    from companion.clock import ClockSettings

    timed = Game(seed=1, clock=ClockSettings(60, increment=2), now=lambda: now[0])
    now[0] = 61
    timed.tick()
    text = write_pgn(timed)
    assert '[TimeControl "60+2"]' in text
    assert '[Termination "time forfeit"]' in text
    assert read_pgn(text).game.outcome == timed.outcome


def test_without_the_deck_order_a_game_still_replays() -> None:
    game = _games(3)[2]
    text = write_pgn(game, include_decks=True) if game.is_over else write_pgn(game)
    stripped = "\n".join(line for line in text.splitlines()
                         if not line.startswith("[RaindropDecks"))
    imported = read_pgn(stripped)
    assert not imported.exact
    assert imported.game.rfen() == game.rfen()
    assert imported.game.san_history() == game.san_history()


def _valid_pgn() -> str:
    game = Game(seed=5)
    playout(game, random.Random(5))
    assert game.is_over
    return write_pgn(game, include_decks=True)


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda t: "", "empty"),
    (lambda t: "this is not a pgn", "no game found|not a Raindropchess game"),
    (lambda t: t.replace('[Variant "Raindropchess"]\n', ""), "Variant.*missing"),
    (lambda t: t.replace('"Raindropchess"', '"Crazyhouse"'), "not a Raindropchess game"),
    (lambda t: t.replace("joker_effect=extra_turn", "joker_effect=banana"), "RaindropRules"),
    (lambda t: t.replace("[RaindropDecks \"", "[RaindropDecks \"KK"), "RaindropDecks"),
    (lambda t: t.replace("\n1. ", "\n1. Qh9 ", 1), "Qh9|error"),
    (lambda t: t.replace("\n1. ", "\n1. e4 ", 1), "e4"),
    (lambda t: t.replace("\n1. ", "\n1. -- ", 1), "null move"),
    (lambda t: t.replace("\n1. ", "\n1. {[%flip X wobble]} ", 1), "malformed"),
    (lambda t: t.replace("\n1. ", "\n1. {[%remove z9]} ", 1), "remove"),
])
def test_malformed_pgn_gives_a_clear_error_and_leaves_the_file(
        tmp_path: Path, mutate: object, message: str) -> None:
    text = mutate(_valid_pgn())  # type: ignore[operator]
    path = tmp_path / "game.pgn"
    path.write_text(text)
    before = path.read_bytes()
    with pytest.raises(PgnError, match=message):
        read_pgn(path.read_text())
    assert path.read_bytes() == before


def test_a_flip_that_contradicts_the_recorded_deck_order_is_refused() -> None:
    text = _valid_pgn()
    start = text.index('[RaindropDecks "') + len('[RaindropDecks "')
    white_top = text[start]
    swapped = next(c for c in "KQRBNP" if c != white_top)
    order = text[start:text.index('"', start)]
    white, black = order.split("/")
    index = white.index(swapped)
    new_white = swapped + white[1:index] + white_top + white[index + 1:]
    with pytest.raises(PgnError, match="deck order"):
        read_pgn(text.replace(order, new_white + "/" + black))


def test_result_header_must_fit_the_moves() -> None:
    text = _valid_pgn()
    game_result = next(line for line in text.splitlines() if line.startswith("[Result"))
    other = '[Result "1/2-1/2"]' if "1/2" not in game_result else '[Result "1-0"]'
    with pytest.raises(PgnError, match="Result"):
        read_pgn(text.replace(game_result, other))


def test_rfen_helpers() -> None:
    board = board_from_rfen(" " + HouseRules().start_rfen() + " ")
    assert board.deck_size(chess.WHITE) == 16
    with pytest.raises(RfenError, match="turn"):
        board_from_rfen("8/8/8/8/8/8/8/8[] x - - 0 1")


# A game whose last flip is a king with no safe empty square (R8): found by a greedy
# search (Black covers the empty squares, White fills the rest), kept as a fixture.
UNPLACEABLE_DECKS = ("RPPNPRBPPBQPPNPK", "kbppnnqpppprpbrp")
UNPLACEABLE_SCRIPT = " ".join([
    "flip R@g6 flip K@f3 flip P@a5 flip B@d4 flip P@c2 flip P@e6 flip N@b3 flip P@b7",
    "flip P@h3 flip N@d6 flip R@c7 flip N@d3 flip B@d7 flip Q@h8 flip P@h2 flip P@a4",
    "flip P@d2 flip P@b4 flip B@e7 flip P@g5 flip Q@b1 flip P@c6 flip P@a2 flip R@d1",
    "flip P@a3 flip P@h5 flip N@g7 flip B@e5 flip P@e3 flip R@d5 flip"]).split()


def unplaceable_game() -> Game:
    white, black = UNPLACEABLE_DECKS
    game = Game(decks=Decks(list(white), list(black)))
    for word in UNPLACEABLE_SCRIPT:
        if word == "flip":
            event = game.flip()
        else:
            game.play_text(word)
    assert event.outcome == FlipOutcome.UNPLACEABLE
    return game


def test_an_unplaceable_card_goes_under_the_deck_and_ends_the_turn() -> None:
    game = unplaceable_game()
    assert game.turn == chess.BLACK
    assert game.export_deck_order()["white"] == ["K"]
    assert game.san_history()[-1] == "flip K (unplaceable)"
    text = write_pgn(game)
    flat = " ".join(text.split())
    assert "{[%flip K unplaceable]} 16. --" in flat
    parsed = chess.pgn.read_game(io.StringIO(text))
    assert parsed is not None and parsed.errors == []
    imported = read_pgn(text)
    assert imported.game.rfen() == game.rfen()
    assert imported.steps[-1].text == "flip K (unplaceable)"
    game.undo()
    assert game.turn == chess.WHITE
    assert game.export_deck_order()["white"] == ["K"]
    assert not game.can_redo()  # a flip taken back is never redone
    game.flip()
    assert game.turn == chess.BLACK


def test_the_terminal_announces_an_unplaceable_card() -> None:
    from companion.cli.play import TerminalSession

    white, black = UNPLACEABLE_DECKS
    game = Game(decks=Decks(list(white), list(black)))
    out = io.StringIO()
    session = TerminalSession(game, None, color=False, out=out)
    words = UNPLACEABLE_SCRIPT
    for word in words:
        assert session.handle(word)
    text = out.getvalue()
    assert "*** White flips: KING (K) ***" in text
    assert "The king cannot be placed anywhere: it goes to the bottom of the deck" in text
    assert "Illegal" not in text
