"""The table's pure parts: move list, clock text, the camera grid through four corners."""

from __future__ import annotations

import pytest

from ui.table_words import format_clock, moves_text


def test_moves_text_numbers_pairs_and_keeps_each_pair_on_one_line() -> None:
    text = moves_text(["K@e1", "K@e8", "P@g6", "flip p (unplaceable)", "g7"])
    assert text.replace("\u00a0", " ") == \
        "1. K@e1 K@e8   2. P@g6 flip p (unplaceable)   3. g7"
    assert "1.\u00a0K@e1\u00a0K@e8" in text
    assert moves_text([]) == ""


@pytest.mark.parametrize(("seconds", "text"), [
    (300, "5:00"), (61.9, "1:01"), (9.94, "0:09.9"), (0, "0:00.0"), (-3, "0:00.0"),
    (3725, "1:02:05"),
])
def test_format_clock(seconds: float, text: str) -> None:
    assert format_clock(seconds) == text


def test_grid_lines_pass_through_the_corners_and_split_the_edges() -> None:
    from ui.camera_feed import grid_lines

    square = ((0.0, 0.0), (80.0, 0.0), (80.0, 80.0), (0.0, 80.0))
    lines = grid_lines(square)
    assert len(lines) == 18
    starts = sorted({round(a[0], 6) for a, b in lines if a[1] == 0.0 and b[1] == 80.0})
    assert starts == [float(x) for x in range(0, 81, 10)]
    # A perspective quad: the lines still end on its edges and corners.
    quad = ((10.0, 5.0), (90.0, 12.0), (120.0, 100.0), (0.0, 90.0))
    for (ax, ay), (bx, by) in grid_lines(quad):
        assert all(abs(v) < 1e6 for v in (ax, ay, bx, by))
    ends = {(round(x, 6), round(y, 6)) for line in grid_lines(quad) for x, y in line}
    for corner in quad:
        assert corner in ends


def _game(white: str, black: str) -> object:
    import chess

    from companion.cards import Decks
    from companion.game import Game
    from companion.rules import HouseRules

    rules = HouseRules()

    def deck(top: str, color: bool) -> list[str]:
        rest = list(rules.deck_letters(color))
        for card in top:
            rest.remove(card)
        return list(top) + rest

    return Game(rules, decks=Decks.from_order(
        {"white": deck(white, chess.WHITE), "black": deck(black, chess.BLACK)}, rules))


def test_plain_words_drop_rule_codes_and_make_plurals_agree() -> None:
    from ui.table_words import plain

    assert plain("Black has lost (failed rescue, R7).") == "Black has lost (failed rescue)."
    assert plain("Take the pawn back (R12) now") == "Take the pawn back now"
    assert plain("2 move(s) and 1 card(s); 0 joker(s)") == "2 moves and 1 card; 0 jokers"
    assert plain("Nothing to change") == "Nothing to change"


def test_an_undone_placement_keeps_its_card_on_show() -> None:
    import chess

    from ui.table import Table

    game = _game("KN", "k")
    table = Table(game)
    for step in ("flip", "K@e1", "flip", "k@e8", "flip"):
        if step == "flip":
            table.flip(game.turn)
        else:
            table.tap(chess.parse_square(step[-2:]))
    table.tap(chess.D4)
    assert game.pending is None and game.san_history()[-1] == "N@d4"
    table.undo()
    assert game.pending == "N"
    card = table.view().card
    assert card is not None and card.letter == "N" and card.live
    assert card.caption == "Place it on a highlighted square"


def test_review_frames_step_through_the_game_without_changing_it() -> None:
    import chess

    from ui.table_view import review_frames

    game = _game("KN", "kq")
    for text in ("K@e1", "k@h8", "N@f7"):
        game.flip()
        game.play_text(text)
    game.flip()  # the queen cannot block the knight: Black loses
    before = game.rfen()
    frames = review_frames(game)
    assert game.rfen() == before
    assert [f.label for f in frames] == ["Start", "1. K@e1", "1... K@h8", "2. N@f7+",
                                         "2... flip q (failed rescue)"]
    assert frames[0].pieces == ()
    assert {chess.square_name(p.square) for p in frames[2].pieces} == {"e1", "h8"}
    assert frames[3].last_move == (chess.F7,)


def test_the_ending_names_the_deciding_card_and_the_verdicts_reasons() -> None:
    from ui.table import Table

    game = _game("KN", "kq")
    for text in ("K@e1", "k@h8", "N@f7"):
        game.flip()
        game.play_text(text)
    game.flip()
    ending = Table(game).view().ending
    assert ending is not None and ending.result == "1-0"
    assert ending.card is not None and ending.card.letter == "q"
    assert ending.decider == "Black flipped the queen: it cannot lift the check"
    assert len(ending.reasons) == 4 and all(holds for holds, _ in ending.reasons)
    assert "R7" not in ending.summary


def test_captured_pieces_and_material_follow_the_board_through_undo() -> None:
    import chess

    from ui.table import Table
    from ui.table_view import captured_pieces

    game = _game("KQ", "kn")
    for text in ("K@e1", "k@h8"):
        game.flip()
        game.play_text(text)
    game.flip()
    game.play_text("Q@d5")
    game.flip()
    game.play_text("n@c3")   # the knight attacks e2 and d5...
    game.play_text("Qd5d8")  # ...and White's queen goes to check instead
    assert captured_pieces(game.board) == {chess.WHITE: [], chess.BLACK: []}
    game.play_text("h8h7")
    game.play_text("Qd8d3")
    game.play_text("Nc3e4")
    game.play_text("Qd3e4")  # the queen takes the knight
    view = Table(game).view()
    assert view.white.captured == ((chess.KNIGHT, False),) and view.black.captured == ()
    assert view.white.material == 9 and view.black.material == 0
    game.undo()
    assert Table(game).view().white.captured == ()
    assert Table(game).view().white.material == 6


def test_captured_pieces_agree_with_the_games_capture_events() -> None:
    """Replayed backwards from the board, the captures match what the game announced as
    it went (a second, plain count), over random games with jokers that remove pieces."""
    import os
    import random

    import chess

    from companion import events
    from companion.game import Game
    from companion.rules import HouseRules
    from ui.table_view import captured_pieces

    games = 40 if os.environ.get("RAINDROP_FULL") else 8
    rules = HouseRules(jokers_per_deck=2, joker_effect="remove_piece")
    captures = removals_seen = 0
    for seed in range(games):
        game = Game(rules, seed=seed)
        announced: dict[bool, list[int]] = {chess.WHITE: [], chess.BLACK: []}

        def note(event: object, announced: dict[bool, list[int]] = announced) -> None:
            nonlocal captures, removals_seen
            if isinstance(event, events.MovePlayed) and event.captured:
                announced[event.color].append(event.captured)
                captures += 1
            elif isinstance(event, events.PieceRemoved):
                announced[event.color].append(event.piece.piece_type)
                removals_seen += 1

        game.subscribe(note)
        rng = random.Random(seed)
        for _ in range(160):
            if game.is_over:
                break
            if game.pending is not None:
                removals = list(game.legal_removals())
                if removals:
                    game.remove(rng.choice(removals))
                else:
                    game.play(rng.choice(game.legal_moves()))
            elif game.can_flip() and (rng.random() < 0.35 or not game.legal_moves()):
                game.flip()
            elif game.legal_moves():
                game.play(rng.choice(game.legal_moves()))
            else:
                break
        taken = captured_pieces(game.board)
        for color in (chess.WHITE, chess.BLACK):
            assert [piece for piece, _ in taken[color]] == announced[color], seed
    assert captures > games and removals_seen > 0  # the games did capture and remove
