"""The board mirror BoardSync keeps: always the game's board, rarely copied."""

from __future__ import annotations

import random

from companion.game import Game
from companion.rules import HouseRules
from companion.sync.mirror import BoardMirror


def test_mirror_follows_every_change_and_copies_only_when_it_must() -> None:
    # A flip taken back is shuffled back with ``secrets``, so a game's course is not
    # fixed by its seed: several games make sure redos happen.
    total_redos = 0
    for seed in range(4, 12):
        total_redos += _follow_one_game(seed)
        if total_redos >= 3:
            break
    assert total_redos > 0


def _follow_one_game(seed: int) -> int:
    rng = random.Random(seed)
    game = Game(HouseRules(jokers_per_deck=2, joker_effect="remove_piece"), seed=seed)
    mirror = BoardMirror(game)
    game.subscribe(mirror.on_event)
    assert mirror.board().rfen() == game.rfen() and mirror.copies == 1
    redos = 0
    for step in range(300):
        if game.is_over:
            break
        roll = rng.random()
        if roll < 0.1 and game.can_undo():
            game.undo()
        elif roll < 0.16 and game.can_redo():
            game.redo()
            redos += 1
        elif game.pending is not None and game.pending.upper() == "J":
            game.remove(rng.choice(list(game.legal_removals())))
        elif game.can_flip() and (not game.legal_moves() or rng.random() < 0.3):
            game.flip()
        elif game.legal_moves():
            game.play(rng.choice(game.legal_moves()))
        if step % 3 == 0:   # several changes may pile up between two looks
            board = mirror.board()
            assert board.rfen() == game.rfen()
            assert board.actions == game.board.actions
    # A redo cannot be replayed (its event names no action): those are copied.
    assert 1 <= mirror.copies <= 1 + redos
    assert (mirror.copies > 1) == (redos > 0)
    return redos


def test_mirror_copies_again_when_it_cannot_follow() -> None:
    game = Game(seed=1)
    mirror = BoardMirror(game)
    game.subscribe(mirror.on_event)
    board = mirror.board()
    board.flip(board.deck(game.turn).popitem()[0])  # someone changed the copy: detected
    game.flip()
    assert mirror.board().rfen() == game.rfen() and mirror.copies == 2
