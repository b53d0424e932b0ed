"""The Raindropchess engine's strength and speed, in whole games judged by a referee.

    python benchmarks/bench_engine_raindropchess.py --pairing L3:material --games 30 --seed 20000
    python benchmarks/bench_engine_raindropchess.py --pairing L1:random --games 40 --seed 21000
    python benchmarks/bench_engine_raindropchess.py --pairing L3:hobby --games 40 --seed 23000
    python benchmarks/bench_engine_raindropchess.py --pairing L2:L1 --games 30 --seed 22000
    python benchmarks/bench_engine_raindropchess.py --turn-times 3
    python benchmarks/bench_engine_raindropchess.py --timed --games 4
    python benchmarks/bench_engine_raindropchess.py --smoke        # every house rule
    python benchmarks/bench_engine_raindropchess.py --calibrate
    python benchmarks/bench_engine_raindropchess.py --depths 12    # depth each level completes
    python benchmarks/bench_engine_raindropchess.py --judge 34 --jobs 2   # L4, L5 by a deeper look
    python benchmarks/bench_engine_raindropchess.py --report a.jsonl --pairing L5:L4  # logged games

Each game is played by :class:`~raindrop_referee.Referee`, which holds both
secret decks (shuffled from the game's recorded seed), deals the cards and
checks every turn with its own rules; the players see only the RFEN. Games
come in pairs on the same decks with the colours swapped. The score is the
first player's, with a 95% interval: the wider of the one from the spread of
the pairs' scores and Wilson's on the games.

Strength runs use node budgets (``--budget nodes``, the default): each level
searches as many nodes as its time cap gives on an idle core of the machine
the calibration was made on (:data:`LEVEL_NODES`), so a busy machine changes
how long a game takes but not how it is played, and every game replays from
its seed. ``--turn-times N`` has every level think at its real time cap on ``N``
positions from engine games and reports the longest turn against the cap plus 10%
(wall-clock time, as a player waits). ``--timed`` plays whole games at the real
time caps and reports each level's longest turn against its cap plus 10%.
``--budget time`` plays the pairing at the real caps instead. ``--log FILE`` appends
one JSON line per game.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import multiprocessing
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from raindrop_mcts import MctsPlayer  # noqa: E402
from raindrop_players import (  # noqa: E402
    EnginePlayer,
    HobbyPlayer,
    MaterialPlayer,
    Player,
    RandomPlayer,
)
from raindrop_referee import IllegalTurn, Referee, RefereeRules  # noqa: E402

from companion.engine.contract import Budget  # noqa: E402
from companion.engine.levels import LEVELS  # noqa: E402
from companion.engine.raindropchess.engine import RaindropchessEngine  # noqa: E402
from companion.rules import HouseRules  # noqa: E402

LEVEL_NODES = {1: 6900, 2: 34500, 3: 138000, 4: 345000, 5: 1036000}
"""Nodes a turn per level: each level's time cap times the engine's node rate on an idle
core here (``--calibrate``; see docs/engine.md)."""

HOBBY_NODES = 86_000
"""The hobby engine's nodes for level 3's time (2 s), by ``--calibrate``."""

MCTS_NODES = 4_900
"""MCTS leaves for level 3's time (2 s), by ``--calibrate``."""

SECONDS: float | None = None
"""``--seconds``: every player's time a turn with ``--budget time`` or ``cpu``."""

SMOKE_RULES = (
    "",
    "jokers_per_deck=1,joker_effect=extra_turn",
    "jokers_per_deck=2,joker_effect=extra_turn",
    "jokers_per_deck=1,joker_effect=remove_piece",
    "jokers_per_deck=2,joker_effect=remove_piece,failed_rescue=return",
    "failed_rescue=return",
    "coloured_bishop_cards=true",
    "blue_returns_when_captured=true,blue_pieces=QN",
)


@dataclass
class GameRecord:
    """One game as the log keeps it."""

    seed: int
    white: str
    black: str
    rules: str
    result: float | None  # White's score
    reason: str
    turns: int
    flips: str
    times: dict[str, list[float]] = field(default_factory=dict)
    nodes: dict[str, int] = field(default_factory=dict)
    illegal: str = ""
    final: str = ""
    """The last position (RFEN), as the referee writes it."""


def make_player(spec: str, rules: HouseRules, seed: int, budget: str) -> Player:
    """A player from its name: ``random``, ``material``, ``hobby``, ``mcts`` or ``L1``..``L5``
    (``hobby`` and ``mcts`` get level 3's budget); ``L3+lmr`` or ``L3-lmr``: a level with
    late-move reductions forced on or off."""
    clock = time.process_time if budget == "cpu" else time.monotonic
    seconds = (SECONDS or LEVELS[2].seconds) if budget in ("time", "cpu") else None
    if spec == "random":
        return RandomPlayer(rules, seed)
    if spec == "material":
        return MaterialPlayer(rules, seed)
    if spec == "hobby":
        return HobbyPlayer(rules, seconds=seconds, clock=clock,
                           nodes=None if seconds else HOBBY_NODES)
    if spec == "mcts":
        return MctsPlayer(rules, seconds=seconds, clock=clock, seed=seed,
                          nodes=None if seconds else MCTS_NODES)  # type: ignore[return-value]
    reductions = {"+lmr": True, "-lmr": False}.get(spec[2:])
    digits = spec[1:2] if reductions is not None else spec[1:]
    if spec.startswith("L") and digits.isdigit() and 1 <= int(digits) <= len(LEVELS):
        number = int(digits)
        if seconds is not None:
            return EnginePlayer(rules, number, seconds=SECONDS or LEVELS[number - 1].seconds,
                                seed=seed, name=spec, clock=clock, reductions=reductions)
        return EnginePlayer(rules, number, nodes=LEVEL_NODES[number], seed=seed, name=spec,
                            reductions=reductions)
    raise SystemExit(f"unknown player {spec!r}: random, material, hobby, mcts or L1..L5 "
                     "(L3+lmr, L3-lmr: a level with late-move reductions forced on or off)")


def play_game(white: Player, black: Player, rules_text: str, seed: int) -> GameRecord:
    """One game under the referee; an illegal turn loses it (and is recorded)."""
    referee = Referee(RefereeRules.parse(rules_text), seed)
    players = {True: white, False: black}
    times: dict[str, list[float]] = {white.name + ":w": [], black.name + ":b": []}
    nodes: dict[str, int] = {white.name + ":w": 0, black.name + ":b": 0}
    illegal = ""
    while referee.ending is None:
        side = referee.white_to_move
        player = players[side]
        tag = player.name + (":w" if side else ":b")
        rfen = referee.rfen()
        started = time.monotonic()
        turn = player.choose(rfen)
        times[tag].append(time.monotonic() - started)
        nodes[tag] += player.nodes()
        try:
            referee.play(turn)
        except IllegalTurn as error:
            illegal = f"{tag}: {error}"
            result: float | None = 0.0 if side else 1.0
            return GameRecord(seed, white.name, black.name, rules_text, result,
                              "illegal turn", len(referee.turns), "".join(referee.flips),
                              times, nodes, illegal, referee.rfen())
    ending = referee.ending
    score = 0.5 if ending.winner is None else (1.0 if ending.winner else 0.0)
    return GameRecord(seed, white.name, black.name, rules_text, score, ending.reason,
                      len(referee.turns), "".join(referee.flips), times, nodes, illegal,
                      referee.rfen())


def _one(job: tuple[str, str, str, int, str]) -> GameRecord:
    white, black, rules_text, seed, budget = job
    rules = HouseRules.parse(rules_text)
    return play_game(make_player(white, rules, seed, budget),
                     make_player(black, rules, seed + 7919, budget), rules_text, seed)


@dataclass
class MatchScore:
    """A pairing's score for its first player."""

    first: str
    second: str
    games: int
    score: float
    low: float
    high: float
    wins: int
    draws: int
    losses: int
    illegal: int


def score_of(records: list[GameRecord], first: str) -> MatchScore:
    """The first player's score over paired games, with a 95% interval from the pairs."""
    by_seed: dict[int, list[float]] = {}
    wins = draws = losses = illegal = 0
    second = ""
    for record in records:
        assert record.result is not None
        mine = record.result if record.white == first else 1.0 - record.result
        second = record.black if record.white == first else record.white
        by_seed.setdefault(record.seed, []).append(mine)
        wins += mine == 1.0
        draws += mine == 0.5
        losses += mine == 0.0
        illegal += bool(record.illegal)
    pairs = [sum(scores) / len(scores) for scores in by_seed.values()]
    mean = sum(pairs) / len(pairs)
    spread = statistics.stdev(pairs) if len(pairs) > 1 else 0.5
    half = 1.96 * spread / math.sqrt(len(pairs))
    low, high = wilson(mean, len(records))
    return MatchScore(first, second, len(records), mean, max(0.0, min(mean - half, low)),
                      min(1.0, max(mean + half, high)), wins, draws, losses, illegal)


def wilson(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's 95% interval for a share ``score`` of ``games`` (draws count half).

    The reported interval is the wider of this and the pairs' normal interval: the
    pairs' spread can be zero in a short, one-sided match, Wilson's never is."""
    if not games:
        return 0.0, 1.0
    centre = (score + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(score * (1 - score) / games + z * z / (4 * games * games)) \
        / (1 + z * z / games)
    return centre - half, centre + half


def run_match(first: str, second: str, games: int, seed: int, rules_text: str, budget: str,
              jobs: int, log: Path | None,
              on_game: Callable[[GameRecord], None] | None = None) -> list[GameRecord]:
    """``games`` games (in colour-swapped pairs on the same decks) between two players."""
    work = []
    for index in range(games):
        deck_seed = seed + index // 2
        if index % 2 == 0:
            work.append((first, second, rules_text, deck_seed, budget))
        else:
            work.append((second, first, rules_text, deck_seed, budget))
    records = []
    pool = multiprocessing.Pool(jobs) if jobs > 1 else None
    try:
        # Unordered: each game is logged as it ends (a long game does not hold back the
        # ones after it, which a match cut short would lose).
        results = pool.imap_unordered(_one, work) if pool is not None else map(_one, work)
        for record in results:
            records.append(record)
            if log is not None:
                with log.open("a") as handle:
                    handle.write(json.dumps(asdict(record)) + "\n")
            if on_game is not None:
                on_game(record)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return records


def print_score(score: MatchScore, budget: str) -> None:
    print(f"{score.first:>8} vs {score.second:<8} {score.games:4d} games  "
          f"score {score.score:5.1%}  95% [{score.low:5.1%}, {score.high:5.1%}]  "
          f"+{score.wins} ={score.draws} -{score.losses}  illegal {score.illegal}  "
          f"({budget} budgets)", flush=True)


def timing_report(records: list[GameRecord]) -> None:
    """Each engine level's turn times against its cap plus 10% (``--timed``)."""
    times: dict[str, list[float]] = {}
    for record in records:
        for tag, values in record.times.items():
            times.setdefault(tag.split(":")[0], []).extend(values)
    print("player   turns   mean s   p99 s    max s    cap s   max/cap   within cap+10%")
    for name, values in sorted(times.items()):
        if not name.startswith("L"):
            continue
        cap = LEVELS[int(name[1:]) - 1].seconds
        values.sort()
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
        print(f"{name:<8} {len(values):5d}  {statistics.mean(values):7.3f}  {p99:7.3f}  "
              f"{values[-1]:7.3f}  {cap:7.2f}  {values[-1] / cap:7.2f}   "
              f"{'yes' if values[-1] <= cap * 1.1 else 'NO'}")


def turn_times(count: int) -> bool:
    """Every level at its real time cap (wall clock) on ``count`` positions from engine
    games: each turn's time against the cap plus 10%. True when every turn is within."""
    rules = HouseRules()
    positions = sample_positions(rules, count)
    engine = RaindropchessEngine(rules)
    print("level   cap s  positions   mean s    max s   max/cap   within cap+10%")
    within = True
    for item in LEVELS:
        seconds = []
        for rfen in positions:
            start = time.monotonic()
            engine.analyse(rfen, level=item, budget=Budget.for_level(item))
            seconds.append(time.monotonic() - start)
        worst = max(seconds)
        ok = worst <= item.seconds * 1.1
        within = within and ok
        print(f"L{item.number:<5} {item.seconds:6.2f}  {len(seconds):9d}  "
              f"{statistics.mean(seconds):7.3f}  {worst:7.3f}  {worst / item.seconds:7.2f}   "
              f"{'yes' if ok else 'NO'}", flush=True)
    return within


def calibrate() -> None:
    """Nodes a second (of CPU time, so that other load does not count) of the engine and
    the hobby engine, each searching level 3's 2 s on positions from engine games."""
    rules = HouseRules()
    positions = sample_positions(rules, 12)
    engine = RaindropchessEngine(rules, clock=time.process_time)
    level3 = LEVELS[2]
    total_nodes = 0
    total_time = 0.0
    for rfen in positions:
        start = time.process_time()
        analysis = engine.analyse(rfen, level=level3, budget=Budget(seconds=level3.seconds))
        total_time += time.process_time() - start
        total_nodes += analysis.playouts
    rate = total_nodes / total_time
    print(f"engine: {rate:,.0f} nodes/s (CPU time) over {len(positions)} positions")
    for item in LEVELS:
        print(f"  level {item.number}: {item.seconds:g} s -> "
              f"{int(rate * item.seconds * 0.9):,} nodes")
    hobby = HobbyPlayer(rules, seconds=level3.seconds, clock=time.process_time)
    hobby_nodes = 0
    hobby_time = 0.0
    for rfen in positions:
        start = time.process_time()
        hobby.choose(rfen)
        hobby_time += time.process_time() - start
        hobby_nodes += hobby.nodes()
    hobby_rate = hobby_nodes / hobby_time
    print(f"hobby:  {hobby_rate:,.0f} nodes/s -> {int(hobby_rate * 2 * 0.9):,} nodes for 2 s; "
          f"engine/hobby node rate {rate / hobby_rate:.2f}")


def star_table(count: int, depth: int) -> None:
    """Nodes and CPU time to finish each depth with and without Star1/Star2 pruning, on
    positions from engine games; the three must agree on every answer."""
    from companion.engine.raindropchess.position import Position
    from companion.engine.raindropchess.search import Limits, Search
    from companion.engine.raindropchess.turns import legal_actions
    from companion.rules import RaindropBoard

    rules = HouseRules()
    variants = {"alpha-beta only": (False, False), "+ Star1": (True, False),
                "+ Star1 + Star2": (True, True)}
    nodes = {name: [0] * (depth + 1) for name in variants}
    seconds = dict.fromkeys(variants, 0.0)
    disagreements = 0
    for rfen in sample_positions(rules, count):
        board = RaindropBoard(rfen, rules=rules)
        actions = legal_actions(board)
        root = Position.from_board(board)
        answers = set()
        for name, (star1, star2) in variants.items():
            search = Search(Limits(max_depth=depth), star1=star1, star2=star2)
            started = time.process_time()

            def seen(result: object, name: str = name) -> None:
                nodes[name][result.depth] += result.nodes  # type: ignore[attr-defined]

            outcome = search.run(root, actions, on_iteration=seen)
            seconds[name] += time.process_time() - started
            answers.add((outcome.lines[0].action, round(outcome.lines[0].value, 9)))
        disagreements += len(answers) > 1
    print(f"{count} positions, depths 1-{depth}; answers differing between the searches: "
          f"{disagreements}")
    print("| search | " + " | ".join(f"nodes to depth {d}" for d in range(1, depth + 1))
          + " | CPU s |")
    for name in variants:
        print(f"| {name} | " + " | ".join(f"{nodes[name][d]:,}" for d in range(1, depth + 1))
              + f" | {seconds[name]:.1f} |")


def sample_positions(rules: HouseRules, count: int) -> list[str]:
    """Positions with a choice (a placement, or a king on the board) met in games between
    two level-1 engines (fixed seeds)."""
    from companion.engine.raindropchess.turns import legal_actions
    from companion.rules import RaindropBoard

    seen: list[str] = []
    for seed in range(424242, 424262):
        referee = Referee(RefereeRules(), seed)
        players = {True: EnginePlayer(rules, 1, nodes=LEVEL_NODES[1]),
                   False: EnginePlayer(rules, 1, nodes=LEVEL_NODES[1], seed=1)}
        while referee.ending is None:
            rfen = referee.rfen()
            if len(legal_actions(RaindropBoard(rfen, rules=rules))) > 1 and \
                    len(referee.turns) % 7 == 3:
                seen.append(rfen)
            referee.play(players[referee.white_to_move].choose(rfen))
        if len(seen) >= count:
            break
    return seen[:count]


def report(paths: list[Path], first: str | None = None) -> None:
    """The score of the games logged in ``paths`` (one pairing; ``--log`` files), whole
    pairs only, for ``first`` (``--pairing``'s first player; else the first game's White:
    games are logged as they end)."""
    records = []
    for path in paths:
        for line in path.read_text().splitlines():
            if line.strip():
                records.append(GameRecord(**json.loads(line)))
    if not records:
        raise SystemExit("no games in the logs")
    per_seed = collections.Counter(record.seed for record in records)
    if max(per_seed.values()) > 1:  # a match cut short: only whole colour-swapped pairs
        records = [record for record in records if per_seed[record.seed] > 1]
    score = score_of(records, first or records[0].white)
    seeds = sorted({record.seed for record in records})
    print_score(score, "logged")
    print(f"  seeds {seeds[0]}-{seeds[-1]}; endings: " + ", ".join(
        f"{reason} {count}" for reason, count in sorted(
            collections.Counter(record.reason for record in records).items())))


def depths(count: int) -> None:
    """Each level's node budget on ``count`` positions from engine games: the depth its
    search completes and the action it chooses, to see whether two levels differ at all."""
    from companion.engine.contract import Budget
    from companion.engine.levels import level
    from companion.engine.raindropchess.engine import RaindropchessEngine

    rules = HouseRules()
    engine = RaindropchessEngine(rules)
    numbers = (3, 4, 5)
    same_depth = dict.fromkeys(numbers[1:], 0)
    same_action = dict.fromkeys(numbers[1:], 0)
    positions = sample_positions(rules, count)
    print("position | " + " | ".join(f"L{n}: depth, action, value" for n in numbers))
    for index, rfen in enumerate(positions):
        row = []
        for number in numbers:
            analysis = engine.analyse(rfen, level=level(number),
                                      budget=Budget(playouts=LEVEL_NODES[number]))
            row.append((analysis.notes["depth"], analysis.chosen.turn, analysis.chosen.value))
        for offset, number in enumerate(numbers[1:]):
            same_depth[number] += row[offset][0] == row[offset + 1][0]
            same_action[number] += row[offset][1] == row[offset + 1][1]
        print(f"{index:8d} | " + " | ".join(f"{depth}, {turn}, {value:.3f}"
                                            for depth, turn, value in row), flush=True)
    for offset, number in enumerate(numbers[1:]):
        print(f"L{number} against L{numbers[offset]}: the same completed depth on "
              f"{same_depth[number]} of {len(positions)} positions, the same action on "
              f"{same_action[number]}")


REFERENCE_NODES = 4_000_000
"""The judge's search: about four times level 5's budget, over two actions only."""


def _judged(job: tuple[str, tuple[int, int], int]) -> dict[str, object]:
    """One position for :func:`judge`: each level's action, and where they differ, both
    searched by the reference (every node on those two actions, both values exact)."""
    from companion.engine.contract import Budget
    from companion.engine.levels import level
    from companion.engine.raindropchess.engine import RaindropchessEngine
    from companion.engine.raindropchess.position import Position
    from companion.engine.raindropchess.search import Limits, Search
    from companion.engine.raindropchess.turns import legal_actions, turn_text
    from companion.rules import RaindropBoard

    rfen, numbers, reference = job
    rules = HouseRules()
    engine = RaindropchessEngine(rules)
    board = RaindropBoard(rfen, rules=rules)
    by_text = {turn_text(board, action): action for action in legal_actions(board)}
    row: dict[str, object] = {"rfen": rfen}
    chosen = []
    for number in numbers:
        analysis = engine.analyse(rfen, level=level(number),
                                  budget=Budget(playouts=LEVEL_NODES[number]))
        chosen.append(analysis.chosen.turn)
        row[f"L{number}"] = analysis.chosen.turn
        row[f"L{number} depth"] = int(analysis.notes["depth"])
    if chosen[0] != chosen[1]:
        search = Search(Limits(nodes=reference), reductions=True)
        search.root_margin = 1.0  # both values exact
        result = search.run(Position.from_board(board), [by_text[turn] for turn in chosen])
        values = {line.action: line.value for line in result.lines}
        row["reference depth"] = result.depth
        for number, turn in zip(numbers, chosen, strict=True):
            row[f"L{number} value"] = values[by_text[turn]]
    return row


def judge(count: int, numbers: tuple[int, int], reference: int, jobs: int) -> None:
    """Two levels' actions on ``count`` positions from engine games, and where they
    differ, which one a deeper search prefers (cheaper than a match, and it shows
    whether more nodes choose better at all)."""
    low, high = numbers
    positions = sample_positions(HouseRules(), count)
    tasks = [(rfen, numbers, reference) for rfen in positions]
    rows: list[dict[str, object]] = []
    print(f"position | L{low} | L{high} | reference depth | L{low} value | L{high} value")
    with multiprocessing.Pool(jobs) as pool:
        for index, row in enumerate(pool.imap(_judged, tasks)):
            rows.append(row)
            values = (f"{row['reference depth']} | {row[f'L{low} value']:.3f} | "
                      f"{row[f'L{high} value']:.3f}" if "reference depth" in row else "- | - | -")
            print(f"{index:8d} | {row[f'L{low}']} (depth {row[f'L{low} depth']}) | "
                  f"{row[f'L{high}']} (depth {row[f'L{high} depth']}) | {values}", flush=True)
    differ = [row for row in rows if "reference depth" in row]
    gains = [float(row[f"L{high} value"]) - float(row[f"L{low} value"])  # type: ignore[arg-type]
             for row in differ]
    better = sum(gain > 0.002 for gain in gains)
    worse = sum(gain < -0.002 for gain in gains)
    mean = statistics.fmean(gains) if gains else 0.0
    print(f"L{high} against L{low}: a different action on {len(differ)} of {len(rows)} "
          f"positions; the reference prefers L{high}'s on {better}, L{low}'s on {worse} "
          f"(the rest within 0.002); mean gain {mean:+.4f} expected score a differing turn")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairing", metavar="A:B",
                        help="the match (default L3:material); with --report, whose score")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--rules", default="", metavar="KEY=VALUE,...")
    parser.add_argument("--budget", choices=("nodes", "time", "cpu"), default="nodes",
                        help="nodes (calibrated, the default), time (the real caps), or cpu "
                             "(the caps counted in the process's CPU time: robust to load)")
    parser.add_argument("--seconds", type=float,
                        help="with --budget time or cpu: every player's seconds a turn "
                             "(default: each level's cap; 2 s for hobby and mcts)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--log", type=Path)
    parser.add_argument("--timed", action="store_true",
                        help="levels 1-5 against the material player at their real time caps")
    parser.add_argument("--turn-times", type=int, metavar="N",
                        help="each level at its real time cap on N positions: the time a turn "
                             "against the cap plus 10%%")
    parser.add_argument("--smoke", action="store_true",
                        help="one pair of games of level 1 against random under every house rule")
    parser.add_argument("--calibrate", action="store_true")
    parser.add_argument("--report", type=Path, nargs="+", metavar="LOG",
                        help="score the games of one pairing's --log files")
    parser.add_argument("--star-table", action="store_true",
                        help="nodes to each depth with and without Star1/Star2 (10 positions)")
    parser.add_argument("--depths", type=int, metavar="N",
                        help="levels 3-5 by their node budgets on N positions: the depth each "
                             "completes and the action it chooses")
    parser.add_argument("--judge", type=int, metavar="N",
                        help="levels 4 and 5 (or --levels) on N positions; where their actions "
                             "differ, a deeper search scores both")
    parser.add_argument("--levels", default="4:5", metavar="A:B",
                        help="the two levels --judge compares")
    parser.add_argument("--reference-nodes", type=int, default=REFERENCE_NODES)
    args = parser.parse_args(argv)
    global SECONDS
    SECONDS = args.seconds
    if args.calibrate:
        calibrate()
        return 0
    if args.report:
        report(args.report, args.pairing.partition(":")[0] if args.pairing else None)
        return 0
    if args.star_table:
        star_table(10, 3)
        return 0
    if args.depths:
        depths(args.depths)
        return 0
    if args.judge:
        low, _, high = args.levels.partition(":")
        judge(args.judge, (int(low), int(high)), args.reference_nodes, args.jobs)
        return 0
    if args.turn_times:
        return 0 if turn_times(args.turn_times) else 1
    if args.smoke:
        bad = 0
        for rules_text in SMOKE_RULES:
            records = run_match("L1", "random", 2, args.seed, rules_text, "nodes", args.jobs,
                                args.log)
            for record in records:
                bad += bool(record.illegal)
                print(f"{rules_text or 'default':<62} {record.white:>6}-{record.black:<6} "
                      f"{record.result} {record.reason:<24} {record.turns:3d} turns "
                      f"{record.illegal}", flush=True)
        print(f"illegal turns: {bad}")
        return 1 if bad else 0
    if args.timed:
        records: list[GameRecord] = []
        for item in LEVELS:
            records += run_match(f"L{item.number}", "material", args.games, args.seed,
                                 args.rules, "time", 1, args.log)
        timing_report(records)
        return 0
    first, _, second = (args.pairing or "L3:material").partition(":")
    records = run_match(first, second, args.games, args.seed, args.rules, args.budget,
                        args.jobs, args.log,
                        on_game=lambda r: print(f"  seed {r.seed} {r.white}-{r.black} "
                                                f"{r.result} {r.reason} ({r.turns} turns) "
                                                f"{r.illegal}", flush=True))
    print_score(score_of(records, first), args.budget)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
