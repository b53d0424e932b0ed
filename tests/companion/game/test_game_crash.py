"""Crash test: ``kill -9`` of ``raindrop play`` at random moments of scripted games, then
resume. Every time: the same RFEN, history and decks as the scripted game after the
journaled actions, and no action the terminal had acknowledged is lost.

8 trials by default (the three rule sets, one kill before the game starts); RAINDROP_FULL=1
runs 120.
"""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess
import pytest
from cli_scripts import scripted_game

from companion.game import Game
from companion.journal import JournalError, journals
from companion.resume import resume
from companion.rules import HouseRules

TRIALS = 120 if os.environ.get("RAINDROP_FULL") else 8

RULES = [HouseRules(), HouseRules(jokers_per_deck=2),
         HouseRules(jokers_per_deck=1, joker_effect="remove_piece", failed_rescue="return")]


def apply_line(game: Game, line: str) -> None:
    if line == "flip":
        game.flip()
    elif line.startswith("remove "):
        game.remove(chess.parse_square(line.split()[1]))
    else:
        game.play_text(line)


def _rules_args(rules: HouseRules) -> list[str]:
    return ["--jokers", str(rules.jokers_per_deck), "--joker-effect", rules.joker_effect,
            "--failed-rescue", rules.failed_rescue]


def crash_trial(tmp_path: Path, trial: int) -> dict[str, int]:
    rng = random.Random(trial)
    seed = 1000 + trial
    rules = RULES[trial % len(RULES)]
    lines, _ = scripted_game(seed, rules, limit=rng.randint(30, 300))
    data = tmp_path / f"t{trial}"
    env = dict(os.environ, RAINDROP_DATA_DIR=str(data), PYTHONUNBUFFERED="1")
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "play", "--seed", str(seed), "--no-color",
         *_rules_args(rules)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(("\n".join(lines) + "\n").encode())
    process.stdin.flush()
    early = b""
    if rng.random() < 0.1:
        time.sleep(rng.uniform(0.0, 0.6))  # maybe before the game has started
    else:
        # Wait for the first prompt (the game is running), then a random moment.
        deadline = time.monotonic() + 60
        while b"> " not in early and time.monotonic() < deadline:
            ready, _, _ = select.select([process.stdout], [], [], 1.0)
            if ready:
                chunk = os.read(process.stdout.fileno(), 65536)
                if not chunk:
                    break
                early += chunk
        time.sleep(rng.uniform(0.0, 0.5))
    os.kill(process.pid, signal.SIGKILL)
    out = (early + process.stdout.read()).decode(errors="replace")
    process.wait()
    process.stdin.close()
    process.stdout.close()
    prompts = out.count("white> ") + out.count("black> ")
    acknowledged = max(0, prompts - 1)  # a prompt follows every command fully done

    found = journals(data)
    if not found:
        assert acknowledged == 0
        return {"entries": 0, "acknowledged": 0, "torn": 0, "empty": 1, "mid_game": 0}
    assert len(found) == 1
    try:
        resumed = resume(found[0])
    except JournalError as error:
        # Killed while the header was being written: nothing was acknowledged.
        assert "no complete header" in str(error)
        assert acknowledged == 0
        return {"entries": 0, "acknowledged": 0, "torn": 0, "empty": 1, "mid_game": 0}
    entries = resumed.game.entries
    assert acknowledged <= entries <= len(lines), (acknowledged, entries)
    reference = Game(rules, seed=seed)
    for line in lines[:entries]:
        apply_line(reference, line)
    game = resumed.game
    assert game.rfen() == reference.rfen()
    assert game.san_history() == reference.san_history()
    assert game.export_deck_order() == reference.export_deck_order()
    # The resumed game plays on to the same end.
    game.attach_journal(None)
    for line in lines[entries:]:
        apply_line(game, line)
        apply_line(reference, line)
    assert game.rfen() == reference.rfen()
    assert game.export_deck_order() == reference.export_deck_order()
    resumed.journal.close()
    return {"entries": entries, "acknowledged": acknowledged,
            "torn": int(bool(resumed.warnings)), "empty": 0,
            "mid_game": int(0 < entries < len(lines))}


@pytest.mark.slow
def test_kill_9_at_random_moments_then_resume(tmp_path: Path) -> None:
    totals = {"entries": 0, "acknowledged": 0, "torn": 0, "empty": 0, "mid_game": 0}
    for trial in range(TRIALS):
        result = crash_trial(tmp_path, trial)
        for key, value in result.items():
            totals[key] += value
    print(f"crash trials: {TRIALS}, all resumed exactly; {totals}")
    assert totals["entries"] > 0
