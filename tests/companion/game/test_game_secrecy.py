"""The decks' order is secret on disk and on screen (issue 14, point 3): sealed in the
journal with a key kept apart, owner-only files, no path printed during play, and the
order written into a record only by an explicit export of a finished game."""

from __future__ import annotations

import json
import logging
import random
import stat
from pathlib import Path

import chess
import pytest
from cli_scripts import run_cli, scripted_game
from game_helpers import random_step

from companion import events
from companion import game as game_module
from companion.cli.play import TerminalSession
from companion.game import Game
from companion.journal import KEY_DIR
from companion.notation import read_pgn, write_pgn
from companion.resume import new_game, read_journal, resume
from companion.sealing import SealError, new_key, seal, unseal

CANONICAL = "KQRRBBNNPPPPPPPP"


def _order_fragments(order: dict[str, list[str]], width: int = 8) -> set[str]:
    """Every run of ``width`` cards of the order, as letters and as JSON, that could
    not be read off public information (the RFEN lists the cards in a fixed order)."""
    found = set()
    for cards in order.values():
        for start in range(len(cards) - width + 1):
            window = cards[start:start + width]
            letters = "".join(window)
            if letters in CANONICAL or letters.lower() in CANONICAL.lower():
                continue
            found.add(letters)
            found.add(json.dumps(window)[1:-1])
            found.add(json.dumps(window, separators=(",", ":"))[1:-1])
    return found


def test_the_order_appears_nowhere_a_player_can_look(tmp_path: Path,
                                                     caplog: pytest.LogCaptureFixture,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    caplog.set_level(logging.DEBUG)
    # A flip taken back goes to a secret random place in the deck; seed that place here
    # so the game's course is fixed and it is still running after 70 steps.
    monkeypatch.setattr(game_module.secrets, "randbelow", random.Random(5).randrange)
    seen: list[events.GameEvent] = []
    game, journal = new_game(seed=20261123, directory=tmp_path)
    game.subscribe(seen.append)
    secret = _order_fragments(game.export_initial_order())
    assert len(secret) > 20
    rng = random.Random(3)
    saves = []
    for step in range(70):
        if game.is_over:
            break
        random_step(game, rng)
        if rng.random() < 0.2 and game.can_undo():
            game.undo()
        secret |= _order_fragments(game.export_deck_order())
        if step % 10 == 0:
            saves.append(write_pgn(game))
            session = TerminalSession(game, journal, color=False, out=__import__("io").StringIO())
            session.save(str(tmp_path / f"mid{step}.pgn"))
            saves.append((tmp_path / f"mid{step}.pgn").read_text())
    assert not game.is_over
    journal.close()
    places = {
        "journal": journal.path.read_text(encoding="utf-8"),
        "logs": caplog.text,
        "events": "\n".join(repr(event) for event in seen),
        "saves": "\n".join(saves),
        "repr": repr(game) + repr(game._decks),
    }
    for where, text in places.items():
        leaked = sorted(fragment for fragment in secret if fragment in text)
        assert leaked == [], f"the order shows in the {where}: {leaked[:3]}"
    raw = places["journal"]
    assert '"decks"' not in raw and '"seed"' not in raw and "20261123" not in raw
    assert "RaindropDecks" not in places["saves"]
    # Yet the journal, with its key, rebuilds the exact game.
    resumed = resume(journal.path)
    assert resumed.game.export_deck_order() == game.export_deck_order()
    assert resumed.game.export_initial_order() == game.export_initial_order()
    resumed.journal.close()


def test_journal_key_and_folders_are_owner_only(tmp_path: Path) -> None:
    game, journal = new_game(seed=1, directory=tmp_path / "data")
    game.flip()
    journal.close()
    keys = journal.path.parent / KEY_DIR
    key_files = list(keys.iterdir())
    assert len(key_files) == 1
    for path, mode in ((journal.path, 0o600), (key_files[0], 0o600), (keys, 0o700),
                       (journal.path.parent, 0o700)):
        assert stat.S_IMODE(path.stat().st_mode) == mode, path
    header = read_journal(journal.path).header
    assert header["secret"]["decks"] == game.export_initial_order()  # opened with the key


def test_a_journal_without_its_key_is_refused_and_left_alone(tmp_path: Path) -> None:
    game, journal = new_game(seed=1, directory=tmp_path)
    game.flip()
    journal.close()
    data = journal.path.read_bytes()
    for key in (journal.path.parent / KEY_DIR).iterdir():
        key.rename(tmp_path / key.name)
    from companion.journal import JournalError

    with pytest.raises(JournalError, match=r"key file .* is missing"):
        resume(journal.path)
    assert journal.path.read_bytes() == data


def test_sealing_round_trip_and_refusals() -> None:
    key = new_key()
    sealed = seal(key, b"KQRRBBNN", "0")
    assert unseal(key, sealed, "0") == b"KQRRBBNN"
    assert seal(key, b"KQRRBBNN", "0") != sealed          # a fresh nonce each time
    with pytest.raises(SealError):
        unseal(key, sealed, "1")                          # moved to another entry
    with pytest.raises(SealError):
        unseal(new_key(), sealed, "0")                    # another key
    raw = bytearray(__import__("base64").b64decode(sealed))
    raw[20] ^= 1
    with pytest.raises(SealError):
        unseal(key, __import__("base64").b64encode(bytes(raw)).decode(), "0")
    with pytest.raises(SealError):
        unseal(key, "not base64!", "0")


def test_the_order_is_exported_only_after_the_end(tmp_path: Path) -> None:
    game = Game(seed=8)
    game.flip()
    with pytest.raises(ValueError, match="only once the game is over"):
        write_pgn(game, include_decks=True)
    with pytest.raises(ValueError, match="only once the game is over"):
        write_pgn(game, include_decks=True)
    game.resign(chess.WHITE)
    assert "RaindropDecks" not in write_pgn(game)             # save: never the order
    exported = write_pgn(game, include_decks=True)
    assert "RaindropDecks" in exported
    assert read_pgn(exported).exact


def test_raindrop_play_prints_no_path_and_saves_no_order(tmp_path: Path) -> None:
    lines, _game = scripted_game(31, limit=12)
    data = tmp_path / "data"
    result = run_cli(["play", "--seed", "31", "--no-color", "--board", "none"],
                     [*lines, "save", f"save {tmp_path / 'mid.pgn'}",
                      f"export {tmp_path / 'early.pgn'}", "resign",
                      f"export {tmp_path / 'end.pgn'}", "quit"], data)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    journal = next((data / "games").glob("*.rdj"))
    assert str(journal) not in out and ".rdj" not in out
    assert str(data) not in out.split("Saved the game as PGN")[0]  # only a save says where
    assert "export writes the decks' order" in out
    assert not (tmp_path / "early.pgn").exists()
    assert "RaindropDecks" not in (tmp_path / "mid.pgn").read_text()
    assert "RaindropDecks" in (tmp_path / "end.pgn").read_text()
    for path in (tmp_path / "mid.pgn", tmp_path / "end.pgn", journal):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    resumed = run_cli(["resume", "--no-color", "--board", "none"], ["quit"], data)
    assert resumed.returncode == 0, resumed.stderr
    assert "Resumed the game" in resumed.stdout and str(data) not in resumed.stdout
