"""``hint`` in ``raindrop play``: the action and its chance in words, thought off the input."""

from __future__ import annotations

import io
import threading

from companion.cli.hint import describe_turn
from companion.cli.play import TerminalSession
from companion.game import Game
from companion.rules import RaindropBoard


def _session(game: Game) -> tuple[TerminalSession, io.StringIO]:
    out = io.StringIO()
    return TerminalSession(game, None, color=False, out=out), out


def _answer(session: TerminalSession) -> None:
    kind, call = session.inbox.get(timeout=10)
    assert kind == "call"
    assert threading.current_thread() is threading.main_thread()
    call()


def test_hint_names_the_action_and_the_chance_in_words() -> None:
    game = Game(seed=3)
    session, out = _session(game)
    session.handle("hint 1")
    assert "Thinking about a hint" in out.getvalue()  # the command returned at once
    _answer(session)
    assert "Hint for White: flip a card. The game is even (about" in out.getvalue()
    game.flip()
    session.handle("hint 1")
    _answer(session)
    last = out.getvalue().splitlines()[-1]
    assert last.startswith("Hint for White: place the ") and "% for White)" in last


def test_a_hint_for_a_position_since_left_is_not_given() -> None:
    game = Game(seed=3)
    session, out = _session(game)
    session.handle("hint 1")
    game.flip()
    _answer(session)
    assert "earlier position" in out.getvalue()
    session.handle("hint 9")
    assert "Not understood: a level is a number from 1 to 5" in out.getvalue()


def test_turns_in_words() -> None:
    board = RaindropBoard("7k/8/8/8/8/8/PP6/K6r[NPq] w QRBNqrbn - 0 20")
    assert describe_turn(board, "flip") == "flip a card"
    assert describe_turn(board, "a2a3") == "play a3 (a2a3)"
    assert describe_turn(board, "N@b1") == "place the knight on b1"
    assert describe_turn(board, "Jxh1") == "remove the rook on h1 (Jxh1)"
