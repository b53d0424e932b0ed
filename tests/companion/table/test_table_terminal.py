"""The companion in the terminal: ``raindrop play --companion`` for both kinds of game.

Companion against companion runs to its end with no input on ``--board none`` and
``--board sim``, exits 0, prints the result and its reason, and saves a record that
``raindrop replay`` replays; a person makes the companion's turns on the simulated
board, a wrong one first, guided and corrected; undo, hints and resume keep the seats.
(Raindropchess plays with a fake engine here; ``tests/companion/engine`` plays the real
one through the same contract.)"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from chess import parse_square as chess_square
from table_helpers import ScriptedChessEngine, chess_engine, run_main

from companion.cards import Decks
from companion.cli.play import TerminalSession
from companion.cli.play_games import GamesTerminal, start_session
from companion.cli.play_stones import simulate
from companion.game import Game
from companion.games.resume import session_from_contents
from companion.journal import latest_journal, read_entries
from companion.table.seats import parse_companions

GAMES = [("raindropchess", []), ("dropper", ["size=4"]), ("rumbo", ["size=3"]),
         ("raindrops", ["size=4"]), ("crumble", ["width=3", "height=3"])]


@pytest.mark.parametrize("board", ["none", "sim"])
@pytest.mark.parametrize("game, options", GAMES)
def test_companion_against_companion_runs_to_its_end(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, options: list[str],
        board: str) -> None:
    argv = ["play", "--game", game, *options, "--companion", "both:1",
            "--companion-playouts", "20", "--board", board, "--data-dir", str(tmp_path),
            "--no-color", "--seed", "3"]
    with chess_engine():
        code, out = run_main(capsys, *argv)
    assert code == 0, out[-2000:]
    over = [line for line in out.splitlines() if line.startswith("GAME OVER: ")]
    assert len(over) == 1 and len(over[0]) > len("GAME OVER: x (y)."), out[-1500:]
    assert "is thinking (level 1)..." in out
    saved = [line for line in out.splitlines() if line.startswith("Saved the ")]
    assert len(saved) == 1
    record = saved[0].rsplit(": ", 1)[-1] if game == "raindropchess" else \
        saved[0].removeprefix("Saved the record as ").rstrip(".")
    code, replayed = run_main(capsys, "replay", "--all", "--no-color", record)
    assert code == 0 and "Result: " in replayed, replayed[-800:]
    text = Path(record).read_text(encoding="utf-8")
    assert ("RaindropSeats" if game == "raindropchess" else "Seats") in text
    assert "companion:1:20" in text


def _pump(inbox: object, done: Callable[[], bool], timeout: float = 30.0) -> None:
    """Run the terminal's posted calls until ``done`` (the loop of ``run``, in a test)."""
    import queue
    import time

    inbox = getattr(inbox, "queue", None)   # the terminal's TerminalInbox
    assert isinstance(inbox, queue.Queue)
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the companion did not get there in time"
        try:
            kind, value = inbox.get(timeout=0.2)
        except queue.Empty:
            continue
        if kind == "call":
            value()


def _settle(inbox: object, quiet: float = 0.5) -> None:
    """Run posted calls until none came for ``quiet`` seconds (the board has caught up)."""
    import queue

    inbox = getattr(inbox, "queue", None)   # the terminal's TerminalInbox
    assert isinstance(inbox, queue.Queue)
    while True:
        try:
            kind, value = inbox.get(timeout=quiet)
        except queue.Empty:
            return
        if kind == "call":
            value()


def test_raindropchess_player_makes_the_companions_turns_on_the_simulated_board() -> None:
    script = ["flip", "K@e8", "flip", "N@g8", "g8f6"]
    with chess_engine(ScriptedChessEngine(script)):
        game = Game(decks=Decks.stacked("KN", "kn"),
                    table=parse_companions(["black"], ("white", "black")).to_dict())
        out = io.StringIO()
        session = TerminalSession(game, None, color=False, out=out)
        session.open_board("sim")
        runner = session.companion.runner
        assert session.handle("flip") and session.handle("e1")       # White: K@e1
        _pump(session.inbox, lambda: len(game.actions()) == 4 and not runner.thinking)
        text = out.getvalue()
        assert "Black is thinking (level 3)..." in text
        assert "Black flips: a king.\n" in text and "Black: place the king on e8.\n" in text
        assert "Board: Black flips: a king. Black: place the king on e8. On the board: put " \
               "the black king on e8." in text
        assert session.handle("flip")                     # White may not go on yet
        assert out.getvalue().endswith("Not now: make the companion's turn on the board "
                                       "first (or type make: the simulated hand makes it).\n")
        assert session.handle("place d8 black k")         # the wrong square first
        assert "Board: Black flips: a king. Black: place the king on e8. On the board: put " \
               "the black king on e8; d8 should be empty." in out.getvalue()
        assert session.handle("lift d8") and session.handle("place e8")
        assert out.getvalue().rstrip().endswith("Board: The board shows it. White to play: "
                                                "a move on the board, or flip a card.")
        assert session.handle("flip") and session.handle("b1")       # White: N@b1
        _pump(session.inbox, lambda: len(game.actions()) == 8 and not runner.thinking)
        assert session.handle("make")                      # the simulated hand makes it
        assert session.handle("b1c3")
        _pump(session.inbox, lambda: game.san_history()[-1] == "Nf6")
        assert session.handle("move g8 h6")                # a wrong move first
        assert "put the black knight on f6; h6 should be empty" in out.getvalue()
        assert session.handle("move h6 f6")
        assert out.getvalue().rstrip().endswith("Board: The board shows it. White to play: "
                                                "a move on the board, or flip a card.")
        # Undo takes back White's move and the companion's reply together.
        assert session.handle("undo")
        assert game.san_history()[-1] == "N@g8" and "Taken back: White's last turn and the " \
            "companion's reply (2 actions)." in out.getvalue()
        session.companion.close()
        session.board_session.stop()


def test_stone_game_player_makes_the_companions_turns_on_the_simulated_board(
        tmp_path: Path) -> None:
    session, journal = start_session(
        "dropper", ["size=4"], clock_text=None, directory=str(tmp_path), now=lambda: 0.0,
        seats=lambda names: parse_companions(["black:1"], names, playouts=30))
    out = io.StringIO()
    terminal = GamesTerminal(session, out=out, journal_path=journal.path)
    stop = simulate(terminal)
    runner = terminal.companion.runner
    assert terminal.handle("b2")                                    # typed: the hand makes it
    assert terminal.sim.cells["b2"] == "w"
    _pump(terminal.inbox, lambda: len(session.turns) == 2 and not runner.thinking)
    said = out.getvalue()
    assert "Black is thinking (level 1)..." in said
    words = next(line for line in said.splitlines() if line.startswith("Black: "))
    assert f"Board: {words} On the board: " in said
    assert terminal.handle("c3")
    assert out.getvalue().endswith("Not now: make the companion's turn on the board first "
                                   "(or type make: the simulated hand makes it).\n")
    sim = terminal.sim
    empty = next(c for c, v in sim.cells.items() if v == "."
                 and session.position.cells()[c] == ".")
    assert terminal.handle(f"put {empty} b")                       # a wrong stone first
    assert f"the black stone on {empty} should be on" in out.getvalue().splitlines()[-1]
    assert terminal.handle(f"take {empty}")
    want = session.position.cells()
    for cell, value in sorted(sim.cells.items()):                   # take what must go
        if value != "." and want[cell] != value:
            assert terminal.handle(f"take {cell}")
    for cell, value in sorted(want.items()):                        # put what must come
        if value != "." and sim.cells[cell] != value:
            assert terminal.handle(f"put {cell} {value}")
    assert out.getvalue().rstrip().endswith("Board: The board shows it.")
    turn = next(iter(session.rules.turns(session.position)))
    assert terminal.handle(turn) and len(session.turns) == 3       # the game goes on
    terminal.companion.close()
    stop()
    journal.close()


def test_resume_keeps_the_seats_and_the_companion_plays_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_main(capsys, "play", "--game", "dropper", "size=4", "--companion", "black:1",
                      "--companion-playouts", "20", "--hints", "1", "--board", "none",
                      "--data-dir", str(tmp_path), stdin="hint\nb2\nquit\n")
    assert code == 0 and "At the table: white: a person; black: the companion (level 1, " \
        "beginner, 20 playouts a turn); hints: 1 a game for each person." in out
    assert "Hint for White: " in out and "Hints left: 0." in out
    path = latest_journal(tmp_path)
    played = session_from_contents(read_entries(path))
    turn = next(iter(played.rules.turns(played.position)))     # a legal turn for White
    code, out = run_main(capsys, "resume", str(path), "--data-dir", str(tmp_path),
                      stdin=f"hint\n{turn}\nundo\nsave {tmp_path / 'game.txt'}\nquit\n")
    assert code == 0, out
    assert "Resumed the game of Dropper after 2 action(s)." in out
    assert "black: the companion (level 1" in out and "Black is thinking" in out
    assert "No hint: no hints left: 1 a game, all used." in out
    assert "Taken back: White's last turn and the companion's reply (2 actions)." in out
    record = (tmp_path / "game.txt").read_text(encoding="utf-8")   # the limit, noted
    assert "[Hints \"1\"]" in record and "[HintsUsed \"white=1 black=0\"]" in record
    assert "black=companion:1:20" in record


def test_resign_on_the_companions_turn_resigns_the_person(tmp_path: Path) -> None:
    session, journal = start_session(
        "dropper", ["size=4"], clock_text=None, directory=str(tmp_path), now=lambda: 0.0,
        seats=lambda names: parse_companions(["black:1"], names, playouts=20))
    terminal = GamesTerminal(session, out=io.StringIO(), journal_path=journal.path)
    assert terminal.handle("b2") and session.to_move == "black"
    assert terminal.handle("resign")          # while the companion is to move
    assert session.result is not None and session.result.winner == "black"
    assert session.result.reason == "white resigned"
    terminal.companion.close()
    journal.close()


def test_the_reed_board_lights_the_companions_turn_and_waits_for_it() -> None:
    """``--board serial``: the real firmware (simulated) lights the companion's square in
    cyan, nothing is played until the board shows its turn, a wrong square is guided."""
    from companion.sensors.firmware_sim import SimulatedBoard as FirmwareBoard

    e1, d8, e8 = (1 << chess_square(name) for name in ("e1", "d8", "e8"))
    e8_at = chess_square("e8")   # the board's LED pattern: one letter a square, a1 first
    with chess_engine(ScriptedChessEngine(["flip", "K@e8"])), FirmwareBoard() as board:
        game = Game(decks=Decks.stacked("K", "k"),
                    table=parse_companions(["black"], ("white", "black")).to_dict())
        out = io.StringIO()
        session = TerminalSession(game, None, color=False, out=out)
        session.open_board(f"serial:{board.port}")
        try:
            _pump(session.inbox, lambda: "board SIM" in out.getvalue())
            _settle(session.inbox)
            assert session.handle("flip")
            _settle(session.inbox)
            board.set_magnets(e1)                              # White's king, on the board
            _pump(session.inbox, lambda: game.san_history()[-1:] == ["K@e8"])
            _pump(session.inbox, lambda: board.leds()[e8_at:e8_at + 1] == "C")
            board.set_magnets(e1 | d8)                         # the wrong square first
            _pump(session.inbox, lambda: "e8; d8 should be empty" in out.getvalue())
            assert game.san_history() == ["K@e1", "K@e8"]       # nothing else was played
            board.set_magnets(e1 | e8)
            _pump(session.inbox, lambda: "Board: The board shows it." in out.getvalue())
            _pump(session.inbox, lambda: board.leds()[e8_at:e8_at + 1] not in ("C", ""))
        finally:
            session.companion.close()
            session.board_session.stop()


def test_raindropchess_resume_keeps_the_seats(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    with chess_engine():
        code, out = run_main(capsys, "play", "--companion", "black:2", "--hints", "off",
                          "--board", "none", "--data-dir", str(tmp_path), "--seed", "4",
                          "--no-color", stdin="flip\ne4\nquit\n")
        assert code == 0 and "Black is thinking (level 2)..." in out, out[-1500:]
        code, out = run_main(capsys, "resume", str(latest_journal(tmp_path)), "--board", "none",
                          "--data-dir", str(tmp_path), "--no-color",
                          stdin="hint\nundo\nquit\n")
    assert code == 0, out[-1500:]
    assert "At the table: white: a person; black: the companion (level 2, casual); hints: " \
           "off." in out
    assert "No hint: hints are off in this game." in out
    assert "Taken back: White's last turn and the companion's reply" in out


@pytest.mark.parametrize("game, options", [("raindropchess", []), ("dropper", ["size=4"])])
def test_voice_speaks_the_sentences_the_terminal_shows(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        game: str, options: list[str]) -> None:
    from companion.cli import companion_terminal
    from companion.table.speech import FakeSpeaker

    speaker = FakeSpeaker()
    monkeypatch.setattr(companion_terminal, "desktop_speaker", lambda: speaker)
    with chess_engine():
        code, out = run_main(capsys, "play", "--game", game, *options, "--companion", "both:1",
                          "--companion-playouts", "10", "--board", "none", "--voice",
                          "--data-dir", str(tmp_path), "--no-color", "--seed", "2")
    assert code == 0, out[-1500:]
    shown = set(out.splitlines())
    assert speaker.said and all(text in shown for text in speaker.said), (
        [text for text in speaker.said if text not in shown])
    assert any(text.startswith(("White: ", "Black: ")) for text in speaker.said)
    assert speaker.said[-1].startswith("Game over: ")   # the verdict and its reason, last
    if game == "raindropchess":
        assert any(" flips: a" in text for text in speaker.said)
