"""The abstract games' engine against fixed players, in whole games, each side in turn.

Players: the engine at a level (``L1`` .. ``L5``), ``random`` (a uniformly random
successor), ``greedy`` (the successor best by the game's obvious evaluation,
one ply) and ``ab2`` (a two-ply alpha-beta over the same evaluation). The
evaluations: Dropper the sorted group sizes (largest first), Rumbo the claimed
stones plus the komi, Raindrops the units (fewer own, more enemy), Crumble the
share of the board a colour covers. Baselines list successors with the game's
interface; every turn any player chooses is checked against the independent
plain implementation of the rules (``plain_<game>.py``): the position it
reaches must be one of the plain successors, and a finished game's result must
be the plain result.

The engine's levels play at fixed playout budgets, the playouts its time cap
gives on an idle core (``CALIBRATION``, measured with ``--calibrate``), so the
tables do not depend on the load of a shared machine; ``--timed`` plays by the
real time caps instead and reports the time per turn against each cap + 10%.

    python benchmarks/bench_engine.py --game dropper --pair L3:ab2 --games 20
    python benchmarks/bench_engine.py --game rumbo --pair L1:random --games 20 --timed
    python benchmarks/bench_engine.py --quick          # a smoke run of every game
    python benchmarks/bench_engine.py --calibrate      # playouts per CPU second
    python benchmarks/bench_engine.py --time-check 3   # every level's time a turn vs its cap
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
for path in (str(HERE), str(HERE.parent)):
    if path not in sys.path:
        sys.path.insert(0, path)

import plain_crumble  # noqa: E402
import plain_dropper  # noqa: E402
import plain_raindrops  # noqa: E402
import plain_rumbo  # noqa: E402

from companion import games  # noqa: E402
from companion.engine.abstract import make_engine  # noqa: E402
from companion.engine.contract import Budget  # noqa: E402
from companion.engine.levels import level  # noqa: E402

CALIBRATION: dict[str, float] = {
    "dropper": 5000.0,
    "rumbo": 3200.0,
    "raindrops": 900.0,
    "crumble": 40.0,
}
"""Playouts per CPU second on one idle core of the reference machine (``--calibrate``)."""

START: dict[str, dict[str, str]] = {
    "dropper": {"size": "8"},
    "rumbo": {"size": "9", "komi": "0"},
    "raindrops": {"size": "8"},
    "crumble": {"width": "6", "height": "6"},
}
"""The reported board of each game (Rumbo at an agreed komi of 0, sides alternated)."""

PLY_LIMIT: dict[str, int] = {"dropper": 1000, "rumbo": 1000, "raindrops": 400, "crumble": 160}
"""A game still going after this many turns is adjudicated a draw (only Crumble can be)."""

WIN = 1e6


def _commit() -> str:
    """The checkout's commit, marked ``+`` when it has uncommitted changes."""
    import subprocess

    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, cwd=HERE, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, cwd=HERE, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+" if dirty.strip() else "")


COMMIT = _commit()


# ---- the obvious evaluations (the mover's view) -----------------------------------------

def eval_dropper(pos: Any, mover: str) -> float:
    groups = games.get("dropper").groups(pos)  # type: ignore[attr-defined]
    mine = groups[mover]
    theirs = groups["black" if mover == "white" else "white"]
    score = 0.0
    for i in range(max(len(mine), len(theirs), 1)):
        a = mine[i] if i < len(mine) else 0
        b = theirs[i] if i < len(theirs) else 0
        score += (a - b) * 0.1 ** i
    return score


def eval_rumbo(pos: Any, mover: str) -> float:
    lead = pos.claims.count("v") - pos.claims.count("h") - (pos.komi or 0)
    return lead if mover == "vertical" else -lead


def eval_raindrops(pos: Any, mover: str) -> float:
    from companion.games.raindrops.units import unit_count

    me = "b" if mover == "black" else "w"
    them = "w" if me == "b" else "b"
    return unit_count(pos, them) - unit_count(pos, me)


def eval_crumble(pos: Any, mover: str) -> float:
    state = pos.state
    area = [0, 0]
    for (_, _, w, h), c in zip(state.rects, state.colours, strict=True):
        area[c] += w * h
    me = 0 if mover == "black" else 1
    return (area[me] - area[1 - me]) / (area[0] + area[1])


EVALS: dict[str, Callable[[Any, str], float]] = {
    "dropper": eval_dropper, "rumbo": eval_rumbo, "raindrops": eval_raindrops,
    "crumble": eval_crumble,
}


# ---- the independent check ---------------------------------------------------------------

def plain_successors(game: str, text: str) -> set[str]:
    module = {"dropper": plain_dropper, "rumbo": plain_rumbo, "raindrops": plain_raindrops,
              "crumble": plain_crumble}[game]
    result: set[str] = module.successors(text)
    return result


def plain_outcome(game: str, text: str) -> str | None:
    """The result by the plain implementation: a side's name, ``draw``, or None."""
    if game == "dropper":
        result = plain_dropper.outcome(text)
        return None if result is None else {"w": "white", "b": "black"}.get(result, result)
    if game == "rumbo":
        return plain_rumbo.outcome(text)
    if game == "raindrops":
        winner = plain_raindrops.winner(text)
        return None if winner is None else {"b": "black", "w": "white"}[winner]
    return plain_crumble_outcome(text)


def plain_crumble_outcome(text: str) -> str | None:
    state = plain_crumble.parse(text)
    pieces = state["pieces"]
    assert isinstance(pieces, list)
    winner = plain_crumble.any_winner(pieces, state["W"], state["H"])  # type: ignore[arg-type]
    if winner is not None:
        return {"b": "black", "w": "white"}[winner]
    if state["draw"] in ("3", "="):
        return "draw"
    return None


# ---- players -------------------------------------------------------------------------------

@dataclass
class Choice:
    turn: str
    after: Any
    seconds: float
    """Wall-clock seconds the choice took."""
    info: str = ""
    cpu: float = 0.0
    """CPU seconds of this process the choice took (a load-free measure of one core's time)."""


class Player:
    name = "player"

    def choose(self, game: str, pos: Any, rng: random.Random, seed: int) -> Choice:
        raise NotImplementedError


def _turn_to(rules: Any, pos: Any, after: Any) -> str:
    turns = rules.turns_to(pos, after)
    if not turns:
        raise AssertionError(f"no turn reaches {after.text()}")
    return str(turns[0])


def _sorted_successors(rules: Any, pos: Any) -> list[Any]:
    return sorted(rules.successors(pos), key=lambda p: p.text())


class RandomPlayer(Player):
    name = "random"

    def choose(self, game: str, pos: Any, rng: random.Random, seed: int) -> Choice:
        start = time.monotonic()
        rules = games.get(game)
        after = rng.choice(_sorted_successors(rules, pos))
        return Choice(_turn_to(rules, pos, after), after, time.monotonic() - start)


def _value(game: str, rules: Any, pos: Any, mover: str) -> float:
    outcome = rules.outcome(pos)
    if outcome is not None:
        if outcome.winner is None:
            return 0.0
        return WIN if outcome.winner == mover else -WIN
    return EVALS[game](pos, mover)


class GreedyPlayer(Player):
    name = "greedy"

    def choose(self, game: str, pos: Any, rng: random.Random, seed: int) -> Choice:
        start = time.monotonic()
        rules = games.get(game)
        mover = pos.to_move
        kids = _sorted_successors(rules, pos)
        scored = [(_value(game, rules, kid, mover), rng.random(), k) for k, kid in enumerate(kids)]
        best = max(scored)
        after = kids[best[2]]
        return Choice(_turn_to(rules, pos, after), after, time.monotonic() - start)


class AlphaBetaPlayer(Player):
    """Two plies: the mover's turn, then the opponent's best reply, by the evaluation."""

    name = "ab2"

    def choose(self, game: str, pos: Any, rng: random.Random, seed: int) -> Choice:
        start = time.monotonic()
        rules = games.get(game)
        mover = pos.to_move
        kids = _sorted_successors(rules, pos)
        ordered = sorted(((_value(game, rules, kid, mover), rng.random(), k)
                          for k, kid in enumerate(kids)), reverse=True)
        alpha = -math.inf
        best_k = ordered[0][2]
        for one_ply, _, k in ordered:
            kid = kids[k]
            if rules.outcome(kid) is not None:
                value = one_ply
            else:
                value = math.inf
                for reply in rules.successors(kid):
                    value = min(value, _value(game, rules, reply, mover))
                    if value <= alpha:
                        break  # no better than the best so far: cut
            if value > alpha:
                alpha, best_k = value, k
        after = kids[best_k]
        return Choice(_turn_to(rules, pos, after), after, time.monotonic() - start,
                      f"{alpha:.2f}")


class EnginePlayer(Player):
    def __init__(self, number: int, timed: bool) -> None:
        self.level = level(number)
        self.timed = timed
        self.name = f"L{number}"

    def budget(self, game: str) -> Budget:
        if self.timed:
            return Budget(seconds=self.level.seconds)
        return Budget(playouts=max(1, round(CALIBRATION[game] * self.level.seconds)))

    def choose(self, game: str, pos: Any, rng: random.Random, seed: int) -> Choice:
        engine = make_engine(game, {})
        start = time.monotonic()
        cpu = time.process_time()
        analysis = engine.analyse(pos.text(), level=self.level, budget=self.budget(game),
                                  seed=seed)
        seconds = time.monotonic() - start
        cpu = time.process_time() - cpu
        rules = games.get(game)
        after = rules.play(pos, analysis.chosen.turn)
        return Choice(analysis.chosen.turn, after, seconds,
                      f"{analysis.chosen.value:.2f}/{analysis.playouts}", cpu)


def make_player(name: str, timed: bool) -> Player:
    if name == "random":
        return RandomPlayer()
    if name == "greedy":
        return GreedyPlayer()
    if name == "ab2":
        return AlphaBetaPlayer()
    if name.upper().startswith("L") and name[1:].isdigit():
        return EnginePlayer(int(name[1:]), timed)
    raise SystemExit(f"unknown player {name!r} (L1..L5, random, greedy, ab2)")


# ---- games and tables ----------------------------------------------------------------------

@dataclass
class GameRecord:
    first: str
    second: str
    seed: int
    result: str
    """The winner's side name or ``draw``."""
    turns: list[str] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)


def play_game(game: str, first: Player, second: Player, seed: int, check: bool) -> GameRecord:
    """One game: ``first`` takes the side that moves first."""
    rules = games.get(game)
    pos = rules.start(**START[game])
    rng = random.Random(seed)
    players = {rules.players[0]: first, rules.players[1]: second}
    record = GameRecord(first.name, second.name, seed, "")
    record.times = {first.name: [], second.name: []}
    ply = 0
    while rules.outcome(pos) is None:
        if ply >= PLY_LIMIT[game]:
            record.result = "draw"
            return record
        player = players[pos.to_move]
        choice = player.choose(game, pos, rng, seed * 1000 + ply)
        if check:
            text = pos.text()
            if choice.after.text() not in plain_successors(game, text):
                raise AssertionError(f"{player.name} played an illegal turn {choice.turn!r} "
                                     f"in {text}")
        if rules.play(pos, choice.turn) != choice.after:
            raise AssertionError(f"turn {choice.turn!r} does not reach the chosen position")
        record.turns.append(choice.turn)
        record.times.setdefault(player.name, []).append(choice.seconds)
        record.cpu.setdefault(player.name, []).append(choice.cpu)
        pos = choice.after
        ply += 1
    outcome = rules.outcome(pos)
    assert outcome is not None
    record.result = outcome.result
    if check:
        plain = plain_outcome(game, pos.text())
        if plain != record.result:
            raise AssertionError(f"the result {record.result} is {plain} by the plain rules: "
                                 f"{pos.text()}")
    return record


def points(record: GameRecord, name: str, rules: Any) -> float:
    """Points of the player ``name`` (1 a win, 0.5 a draw)."""
    if record.result == "draw":
        return 0.5
    side_of_first = rules.players[0]
    winner_is_first = record.result == side_of_first
    return 1.0 if (record.first == name) == winner_is_first else 0.0


def interval(scores: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval."""
    n = len(scores)
    mean = sum(scores) / n
    if n < 2:
        return mean, 1.0
    sd = statistics.stdev(scores)
    if sd == 0:  # all alike: the rule of three's bound instead of a zero-width bar
        return mean, min(1.0, 3.0 / n)
    return mean, 1.96 * sd / math.sqrt(n)


def run_pair(game: str, a: str, b: str, count: int, seed: int, timed: bool, check: bool,
             log: Any) -> dict[str, Any]:
    rules = games.get(game)
    pa, pb = make_player(a, timed), make_player(b, timed)
    if pa.name == pb.name:
        pb.name = pb.name + "'"
    scores: list[float] = []
    times: dict[str, list[float]] = {pa.name: [], pb.name: []}
    cpus: dict[str, list[float]] = {pa.name: [], pb.name: []}
    started = time.monotonic()
    for number in range(count):
        first, second = (pa, pb) if number % 2 == 0 else (pb, pa)
        record = play_game(game, first, second, seed + number, check)
        score = points(record, pa.name, rules)
        scores.append(score)
        for name, values in record.times.items():
            times[name].extend(values)
        for name, values in record.cpu.items():
            cpus[name].extend(values)
        line = {"game": game, "a": pa.name, "b": pb.name, "first": first.name,
                "seed": seed + number, "result": record.result, "a_points": score,
                "turns": len(record.turns)}
        if log is not None:
            log.write(json.dumps(line) + "\n")
            log.flush()
        print(f"  game {number + 1}/{count} seed {seed + number}: {first.name} first, "
              f"{record.result}, {len(record.turns)} turns; {pa.name} {sum(scores):g}/"
              f"{len(scores)}", flush=True)
    mean, half = interval(scores)
    summary = {"game": game, "a": pa.name, "b": pb.name, "games": count, "points": sum(scores),
               "score": mean, "half95": half, "seconds": time.monotonic() - started,
               "timed": timed, "commit": COMMIT}
    for name, values in times.items():
        if values:
            summary[f"{name}_turn_mean"] = statistics.mean(values)
            summary[f"{name}_turn_max"] = max(values)
            summary[f"{name}_cpu_mean"] = statistics.mean(cpus[name])
            summary[f"{name}_cpu_max"] = max(cpus[name])
    print(f"{game}: {pa.name} vs {pb.name}: {sum(scores):g}/{count} = {100 * mean:.0f}% "
          f"± {100 * half:.0f} (95%)", flush=True)
    for player in (pa, pb):
        values = times[player.name] if timed else cpus[player.name]
        if values and isinstance(player, EnginePlayer):
            cap = player.level.seconds
            over = sum(1 for v in values if v > cap * 1.1)
            what = "wall-clock time" if timed else "CPU time"
            print(f"  {player.name} {what} a turn: mean {statistics.mean(values):.3f} s, "
                  f"max {max(values):.3f} s (cap {cap:g} s + 10%: {over} of {len(values)} over)",
                  flush=True)
    if log is not None:
        log.write(json.dumps({"summary": summary}) + "\n")
        log.flush()
    return summary


def calibrate(game: str, seconds: float) -> float:
    """Playouts per CPU second of a level-3 search over positions of random games."""
    rules = games.get(game)
    rng = random.Random(7)
    engine = make_engine(game, {})
    positions = []
    for _ in range(2):
        pos = rules.start(**START[game])
        ply = 0
        while rules.outcome(pos) is None and ply < 60:
            if ply % 6 == 0:
                positions.append(pos)
            pos = rng.choice(_sorted_successors(rules, pos))
            ply += 1
    total = 0
    cpu = 0.0
    for pos in positions[:8]:
        start = time.process_time()
        analysis = engine.analyse(pos.text(), level=level(3), budget=Budget(seconds=seconds))
        cpu += time.process_time() - start
        total += analysis.playouts
    return total / cpu


def time_check(game: str, count: int, seed: int) -> bool:
    """Each level's wall-clock time a turn, by its time cap, on ``count`` positions of
    random games: True when every turn kept within the cap + 10%."""
    rules = games.get(game)
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        pos = rules.start(**START[game])
        ply = 0
        line = []
        while rules.outcome(pos) is None and ply < 40:
            line.append(pos)
            pos = rng.choice(_sorted_successors(rules, pos))
            ply += 1
        positions.append(rng.choice(line))
    engine = make_engine(game, {})
    kept = True
    for number in range(1, 6):
        chosen = level(number)
        times = []
        for k, pos in enumerate(positions):
            start = time.monotonic()
            engine.analyse(pos.text(), level=chosen, budget=Budget.for_level(chosen), seed=k)
            times.append(time.monotonic() - start)
        over = sum(1 for t in times if t > chosen.seconds * 1.1)
        kept = kept and not over
        print(f"{game} L{number}: cap {chosen.seconds:g} s, wall-clock time a turn mean "
              f"{statistics.mean(times):.3f} s, max {max(times):.3f} s, "
              f"{over} of {len(times)} over the cap + 10%", flush=True)
    return kept


def report(paths: Sequence[str]) -> None:
    """The summaries of ``--log`` files as a markdown table (the last run of each pairing)."""
    rows: dict[tuple[str, str, str], dict[str, Any]] = {}
    for path in paths:
        with open(path, encoding="utf-8") as stream:
            for line in stream:
                record = json.loads(line)
                summary = record.get("summary")
                if summary:
                    rows[(summary["game"], summary["a"], summary["b"])] = summary
    print("| Game | Pairing | Games | Points | Score (95% interval) | CPU s a turn, mean / max "
          "| Commit |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for (game, a, b), row in rows.items():
        low = max(0.0, row["score"] - row["half95"])
        high = min(1.0, row["score"] + row["half95"])
        times = []
        for name in (a, b):
            if f"{name}_cpu_mean" in row and name.startswith("L"):
                times.append(f"{name} {row[f'{name}_cpu_mean']:.2f} / {row[f'{name}_cpu_max']:.2f}")
        print(f"| {game} | {a} vs {b} | {row['games']} | {row['points']:g} | "
              f"{100 * row['score']:.0f}% ({100 * low:.0f}-{100 * high:.0f}%) | "
              f"{'; '.join(times)} | {row.get('commit', '')} |")


def quick(seed: int, check: bool) -> None:
    """A smoke run: one short game of each game, the engine at level 1 against random."""
    for game in ("dropper", "rumbo", "raindrops", "crumble"):
        START_SMALL = {"dropper": {"size": "5"}, "rumbo": {"size": "5", "komi": "0"},
                       "raindrops": {"size": "4"}, "crumble": {"width": "3", "height": "3"}}
        saved = START[game]
        START[game] = START_SMALL[game]
        try:
            run_pair(game, "L1", "random", 2, seed, False, check, None)
        finally:
            START[game] = saved


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(START), default="dropper")
    parser.add_argument("--pair", action="append", default=[],
                        help="A:B, e.g. L3:ab2 (repeatable)")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--timed", action="store_true", help="play by the levels' time caps")
    parser.add_argument("--no-check", action="store_true",
                        help="skip the check against the plain rules (faster)")
    parser.add_argument("--log", help="append one JSON line a game here")
    parser.add_argument("--quick", action="store_true", help="a smoke run of every game")
    parser.add_argument("--calibrate", action="store_true",
                        help="measure playouts per CPU second (level 3 search)")
    parser.add_argument("--size", help="override the board size option")
    parser.add_argument("--report", nargs="+", metavar="LOG",
                        help="print the summaries of --log files as a markdown table")
    parser.add_argument("--time-check", type=int, metavar="N",
                        help="time every level on N positions of random games (by its cap)")
    args = parser.parse_args(argv)
    if args.size:
        key = "width" if args.game == "crumble" else "size"
        START[args.game] = {**START[args.game], key: args.size}
        if args.game == "crumble":
            START[args.game]["height"] = args.size
    if args.quick:
        quick(args.seed, not args.no_check)
        return 0
    if args.report:
        report(args.report)
        return 0
    if args.time_check:
        names = [args.game] if "--game" in (argv or sys.argv) else sorted(START)
        kept = [time_check(game, args.time_check, args.seed) for game in names]
        return 0 if all(kept) else 1
    if args.calibrate:
        for game in ([args.game] if "--game" in (argv or sys.argv) else sorted(START)):
            print(f"{game}: {calibrate(game, 1.0):.0f} playouts per CPU second", flush=True)
        return 0
    log = open(args.log, "a") if args.log else None  # noqa: SIM115
    try:
        for pair in args.pair or ["L1:random"]:
            a, _, b = pair.partition(":")
            run_pair(args.game, a, b, args.games, args.seed, args.timed, not args.no_check, log)
    finally:
        if log is not None:
            log.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
