"""Raindropchess against the companion by touch, at a phone's size and a tablet's (every
touch at a widget's place at that size, on the window): the new-game screen's seats and
hints, the thinking line while it searches (touches refused with the reason, the screen
responsive), its turn drawn on the board, undo of a pair, a hint under the limit, the
voice (a fake speaker: the sentences spoken are the ones shown), checkmate, the end screen
and the companion's review with its graph; the new-game, thinking, game, hint, end and
review screens walked by the layout check on the way (tests/ui/layout_check.py)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import chess
import pytest
from companion_driver import (
    SIZES,
    SidedChessEngine,
    chess_engine,
    size_id,
    touches_on_screen,
    wait_companion,
    wait_for,
)
from test_app_sizes import check

from companion.cards import Decks
from companion.game import Game
from companion.journal import Journal
from companion.rules import HouseRules, Termination
from companion.table.seats import HintPolicy, Seat, TableSettings
from companion.table.speech import FakeSpeaker
from ui.options import NewGame

if TYPE_CHECKING:
    from app_driver import Driver

BLACK_PLAYS = ["flip", "K@h8", "h8g8", "g8h8", "g8h8", "h8h7"]
"""The companion's turns (Black): the pair g8h8 is taken back once and played again."""

def start(driver: Driver, settings: TableSettings) -> Game:
    from app_driver import full_deck

    rules = HouseRules()
    order = {"white": full_deck("KPQ", chess.WHITE, rules),
             "black": full_deck("k", chess.BLACK, rules)}
    game = Game(rules, decks=Decks.from_order(order, rules), journal=Journal.create(),
                table=settings.to_dict())
    driver.app.start_game(NewGame(rules=rules, board="screen", table=settings.to_dict()),
                          game=game)
    driver.pump()
    return game


@pytest.mark.parametrize("sized", SIZES, indirect=True, ids=size_id)
def test_a_whole_game_against_the_companion_by_touch(
        sized: Driver, monkeypatch: pytest.MonkeyPatch) -> None:
    driver = sized
    app = driver.app
    touches_on_screen(monkeypatch)
    monkeypatch.setattr(app, "search_in_process", False)   # fake engines: in this process
    monkeypatch.setattr(app, "companion_playouts", 8)
    monkeypatch.setattr(app, "review_playouts", 4)
    speaker = FakeSpeaker()
    monkeypatch.setattr(app, "speaker_factory", lambda: speaker)
    app.settings.voice = True
    app.apply_settings()
    driver.tap(app.screen("home").ids.new_game)
    new_game = app.screen("new_game")
    driver.tap_button(new_game.ids.black_seat, "Companion 1")
    assert new_game.black_seat == "1"
    check(driver, new_game, "new game with the companion")
    gate = threading.Event()
    engine = SidedChessEngine(list(BLACK_PLAYS), gate=gate)
    settings = TableSettings((Seat("white"), Seat("black", True, 1, playouts=8)),
                             HintPolicy.parse("3"))
    with chess_engine(engine):
        game = start(driver, settings)
        screen = driver.game_screen
        link = app.session.companion
        over = lambda: game.is_over  # noqa: E731
        assert screen.ids.hint.text == "Hint (3 left)" and screen.ids.redo.disabled is not False
        driver.play(["flip", "K@f6"])
        # Black thinks (its search waits on the gate): shown; a touch is refused with the
        # reason; the screen goes on drawing frames.
        wait_for(driver, lambda: link.thinking, "the companion to think")
        assert driver.message().startswith("Black is thinking (level 1)")
        check(driver, screen, "the companion thinking")
        driver.tap_square("e4")
        assert "It is Black's turn: the companion is thinking" in driver.message()
        assert game.board.piece_at(chess.E4) is None
        gate.set()
        wait_companion(driver, link, over)
        assert driver.shown_pieces() == {"f6": "K", "h8": "k"}
        assert driver.message().startswith("Black: place the king on h8.")
        assert screen.ids.board.guide == [chess.H8] and screen.ids.board.guide_kind == "turn"

        driver.play(["flip", "P@b6"])
        wait_companion(driver, link, over)
        driver.play(["b6b7"])
        wait_companion(driver, link, over)
        assert driver.shown_pieces() == {"f6": "K", "h8": "k", "b7": "P"}
        assert screen.ids.board.guide == [chess.G8, chess.H8]   # the arrow g8 -> h8
        # Undo takes back the companion's reply and White's move together; no redo.
        driver.tap(screen.ids.undo)
        assert driver.shown_pieces() == {"f6": "K", "g8": "k", "b6": "P"}
        assert driver.message().startswith("Taken back: White's last turn and the "
                                           "companion's reply (2 actions).")
        assert screen.ids.redo.disabled
        check(driver, screen, "the game after an undo")
        # A hint: the best turns and the chance, the best drawn on the board, one used.
        driver.tap(screen.ids.hint)
        wait_for(driver, lambda: link.hint_lines, "the hint")
        assert driver.message().startswith("Hint for White:")
        assert screen.ids.board.guide_kind == "hint" and screen.ids.board.guide
        assert screen.ids.hint.text == "Hint (2 left)" and game.hints_used["white"] == 1
        check(driver, screen, "a hint")

        driver.play(["b6b7"])
        wait_companion(driver, link, over)
        driver.move("b7", "b8")
        driver.pick_promotion(chess.QUEEN)
        wait_companion(driver, link, over)
        assert driver.shown_pieces()["h7"] == "k"
        driver.play(["flip", "Q@g7"])
        assert game.outcome is not None and game.outcome.termination == Termination.CHECKMATE
        driver.pump(4)
        assert app.root.current == "game_over"
        check(driver, app.screen("game_over"), "the end screen")
        # The voice said what the screen showed, in order: the companion's turns, the
        # flips, the takeback, the hint, check and the verdict.
        assert "Black: place the king on h8." in speaker.said
        assert any(text.startswith("Hint for White:") for text in speaker.said)
        assert speaker.said[-1] == "Game over: White wins by checkmate."
        assert link.spoken == speaker.said

        # The companion's review: a graph point per turn and the start, every turn marked.
        driver.tap(app.screen("game_over").ids.analyse)
        analysis = app.screen("analysis")
        assert app.root.current == "analysis"
        wait_for(driver, lambda: analysis.review is not None, "the review")
        review = analysis.review
        flips = 4   # the review judges each flip too
        assert len(analysis.ids.graph.values) == len(review.turns) + 1 == \
            len(game.san_history()) + flips + 1
        assert {turn.mark for turn in review.turns} <= {"good", "inaccuracy", "mistake",
                                                        "blunder"}
        assert len(analysis.ids.turns.children) == len(review.turns)
        assert "White:" in analysis.summary and "Black:" in analysis.summary
        check(driver, analysis, "the review")
        driver.tap(analysis.ids.header.ids.back)
        assert app.root.current == "game_over"


def test_the_new_game_screen_seats_the_companion_and_resume_keeps_it(
        driver: Driver, monkeypatch: pytest.MonkeyPatch) -> None:
    app = driver.app
    monkeypatch.setattr(app, "search_in_process", False)   # fake engines: in this process
    monkeypatch.setattr(app, "companion_playouts", 4)
    with chess_engine(SidedChessEngine(["flip", "K@e8"])):
        driver.tap(app.screen("home").ids.new_game)
        screen = app.screen("new_game")
        driver.tap_button(screen.ids.black_seat, "Companion 2")
        driver.tap_button(screen.ids.hints, "Unlimited")
        assert "level 2 (casual" in "\n".join(driver.texts(screen))
        driver.tap_button(screen.ids.board, "On-screen board")
        driver.tap(screen.ids.header.ids.action)
        assert app.root.current == "game"
        game = app.session.game
        assert game.table["seats"] == {"white": "person", "black": "companion:2:4"}
        assert game.table["hints"] == "unlimited"
        assert driver.game_screen.ids.hint.text == "Hint"
        app.end_session()
        app.show("home")
        driver.pump()
        driver.tap(app.screen("home").ids.resume)
        assert app.root.current == "game"
        link = app.session.companion
        assert link is not None and link.settings.is_companion("black")
        assert link.settings.seat("black").level == 2


def test_the_voice_is_off_by_default_and_says_why_it_is_silent(
        driver: Driver, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.table.speech import NullSpeaker

    app = driver.app
    assert not app.settings.voice and app.voice() is None
    monkeypatch.setattr(app, "speaker_factory", lambda: NullSpeaker("no speech engine"))
    app.show("settings")
    settings = app.screen("settings")
    driver.tap_button(settings.ids.voice, "On")
    settings.save("White", "Black")
    assert app.settings.voice and isinstance(app.voice(), NullSpeaker)
    assert "The voice is silent here: no speech engine" in settings.saved_text
