"""PGN import reads what python-chess reads (issue 14, point 8): a byte-order mark,
several games in one file, Latin-1 files, and the real reason for an illegal drop."""

from __future__ import annotations

import random
from pathlib import Path

import chess
import chess.pgn
import pytest
from cli_scripts import run_cli
from game_helpers import playout

from companion.game import Game
from companion.notation import PgnError, decode_pgn, read_pgn, split_games, write_pgn


def _finished(seed: int) -> Game:
    game = Game(seed=seed)
    playout(game, random.Random(seed))
    assert game.is_over
    return game


def test_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    game = _finished(5)
    text = "\ufeff" + write_pgn(game)
    assert read_pgn(text).game.rfen() == game.rfen()
    path = tmp_path / "bom.pgn"
    path.write_bytes(text.encode("utf-8"))
    assert read_pgn(decode_pgn(path.read_bytes())).game.rfen() == game.rfen()
    result = run_cli(["replay", str(path), "--all", "--no-color"], [], tmp_path)
    assert result.returncode == 0, result.stderr
    assert game.rfen() in result.stdout


def test_several_games_in_one_file(tmp_path: Path) -> None:
    games = [_finished(seed) for seed in (1, 5, 7)]
    text = "\n".join(write_pgn(game, headers={"Event": f"Round {n}"}, include_decks=True)
                     for n, game in enumerate(games, 1))
    assert len(split_games(text)) == 3
    for number, game in enumerate(games, 1):
        imported = read_pgn(text, number=number)
        assert (imported.number, imported.games) == (number, 3)
        assert imported.headers["Event"] == f"Round {number}"
        assert imported.exact and imported.game.rfen() == game.rfen()
    assert read_pgn(text).headers["Event"] == "Round 1"  # the first by default
    with pytest.raises(PgnError, match="there is no game 4: the PGN holds 3 game"):
        read_pgn(text, number=4)
    path = tmp_path / "three.pgn"
    path.write_text(text, encoding="utf-8")
    result = run_cli(["replay", str(path), "--game", "2", "--all", "--no-color"], [],
                     tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Game 2 of 3 in the file" in result.stdout
    assert games[1].rfen() in result.stdout
    wrong = run_cli(["replay", str(path), "--game", "9"], [], tmp_path)
    assert wrong.returncode == 2 and "there is no game 9" in wrong.stderr


def test_a_comment_line_starting_with_a_bracket_is_no_new_game() -> None:
    text = ('[Variant "Raindropchess"]\n\n1. K@e1 {a long comment\n[%remove e5] and so on}\n'
            '1... K@e8 *\n')
    assert len(split_games(text)) == 1


def test_latin1_files_are_read(tmp_path: Path) -> None:
    game = _finished(5)
    text = write_pgn(game, headers={"Event": "Café Olé", "Site": "Zürich"})
    path = tmp_path / "latin1.pgn"
    path.write_bytes(text.encode("latin-1"))
    imported = read_pgn(decode_pgn(path.read_bytes()))
    assert imported.headers["Event"] == "Café Olé"
    result = run_cli(["replay", str(path), "--no-color", "--all"], [], tmp_path)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(("moves", "reason"), [
    ("1. K@e1 p@e2", "black pawns may only be placed on ranks 3 to 7"),
    ("1. P@e1", "white pawns may only be placed on ranks 2 to 6"),
    ("1. K@e1 K@e2", "the king may not be placed on an attacked square"),
    ("1. K@e1 K@e8 2. K@d1", "white has no king card left in the deck"),
    ("1. K@e1 K@e8 2. N@e1", "e1 is not empty"),
])
def test_an_illegal_drop_gets_its_real_reason(moves: str, reason: str) -> None:
    with pytest.raises(PgnError, match=reason) as error:
        read_pgn(f'[Variant "Raindropchess"]\n\n{moves} *\n')
    assert "no card is flipped" not in str(error.value)


def test_plain_python_chess_opens_our_files_as_docs_pgn_says(tmp_path: Path) -> None:
    games = [_finished(seed) for seed in (1, 5)]
    path = tmp_path / "two.pgn"
    text = "\n".join(write_pgn(g, include_decks=True) for g in games)
    path.write_bytes(("\ufeff" + text).encode("utf-8"))
    import companion.rules  # noqa: F401  (registers the variant, see docs/pgn.md)

    with open(path, encoding="utf-8-sig") as handle:
        first = chess.pgn.read_game(handle)
        second = chess.pgn.read_game(handle)
        assert chess.pgn.read_game(handle) is None
    for parsed, game in ((first, games[0]), (second, games[1])):
        assert parsed is not None and parsed.errors == []
        assert parsed.headers["Variant"] == "Raindropchess"
        assert parsed.end().board().board_fen() == game.board.board_fen()
