"""The terminal's ``hint``: the engine's best turns with their chances, in words."""

from __future__ import annotations

import io
from pathlib import Path

from companion.cli.hints import hint_lines, show_hint
from companion.cli.play_games import GamesTerminal, start_session
from companion.engine.contract import Budget
from companion.engine.levels import level


def terminal(tmp_path: Path, game: str, *options: str) -> tuple[GamesTerminal, io.StringIO]:
    session, _ = start_session(game, list(options), clock_text=None, directory=str(tmp_path),
                               now=lambda: 0.0)
    out = io.StringIO()
    return GamesTerminal(session, out=out, hint_budget=Budget(playouts=40)), out


def test_hint_lists_legal_turns_with_their_chances_in_words(tmp_path: Path) -> None:
    term, out = terminal(tmp_path, "dropper", "size=4")
    assert term.run(io.StringIO("b2\nhint 2\n")) == 0   # the hint is searched off the loop
    lines = out.getvalue().splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("Hint for Black: "))
    assert lines[head + 1].startswith("Or ")
    assert "%" in lines[head] or "with best play" in lines[head]
    typed = next(line for line in lines[head:] if line.startswith("  (as typed: "))
    turns = typed.removeprefix("  (as typed: ").rstrip(")").split(", ")
    rules, pos = term.rules, term.session.position
    assert len(turns) == 2 and all(rules.canonical_turn(pos, turn) == turn for turn in turns)
    assert len(term.session.turns) == 1  # a hint plays nothing
    assert term.session.hints_used == {"black": 1}


def test_hint_after_the_game_is_over_is_not_taken_for_a_turn(tmp_path: Path) -> None:
    term, out = terminal(tmp_path, "dropper", "width=1", "height=1")
    term.handle("a1")
    term.handle("hint")
    assert "Best turns" not in out.getvalue()
    assert "The game is over" in out.getvalue()


def test_show_hint_says_why_when_no_engine_plays_the_position() -> None:
    said: list[str] = []
    # Not an abstract game's name, so read as a Raindropchess RFEN: a malformed one.
    assert show_hint("nosuchgame x y", said.append, budget=Budget(playouts=5)) is None
    assert said and said[-1].startswith("No hint:") and "RFEN" in said[-1]


def test_hint_lines_speak_for_the_mover() -> None:
    said: list[str] = []
    analysis = show_hint("rumbo bb./wwb/bwb h 4 .../vv./.v.", said.append,
                         chosen_level=level(1), budget=Budget(playouts=20))
    assert analysis is not None
    lines = hint_lines(analysis, 1)
    assert lines[0].startswith("Best turns for horizontal")
    assert lines[1] == "  1. w@c3: Horizontal wins with best play"
