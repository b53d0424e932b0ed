"""The app stays responsive while the companion thinks: the longest UI-thread frame during
the companion's level-3 searches (by time, as players get them), against the frames of the
same screen with no search, measured in the same run.

One process, one headless window drawn on every frame (software GL). A game of Dropper
(size 8; with ``--game raindropchess`` where its engine is installed) against the
companion at level 3 (2 s a turn): the person's turns are played at once through the
session, the companion's are searched off the UI thread as in the app. Frame times are
the intervals between two frames on the UI thread (Kivy's clock, at most 60 a second).

    python benchmarks/bench_app_frames.py [--turns 3] [--size 1280x800] [--game dropper]

Prints, for frames with no search (the peer: the same screen, its thinking bar moved as
often as a search moves it) and frames during the searches, the count, median, 99th
percentile and longest, and the ratios; the target is a longest frame under 100 ms during
a search. The machine's load average is printed with them. ``--thread`` searches on a
thread of the app instead of the search process.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from typing import Any

TARGET_MS = 100.0
IDLE_SECONDS = 3.0
BAR_EVERY = 0.25
"""Seconds between two moves of the thinking bar (a search's progress reports)."""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=3, help="companion turns measured")
    parser.add_argument("--size", default="1280x800")
    parser.add_argument("--game", default="dropper", choices=("dropper", "raindropchess"))
    parser.add_argument("--verbose", action="store_true", help="print every long frame")
    parser.add_argument("--thread", action="store_true",
                        help="search on a thread of the app (as before ui.search_process)")
    args = parser.parse_args()
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    width, height = (int(v) for v in args.size.lower().split("x"))
    os.environ.setdefault("RAINDROP_DATA_DIR", tempfile.mkdtemp(prefix="raindrop-bench-"))
    os.environ.setdefault("RAINDROP_CONFIG_DIR", tempfile.mkdtemp(prefix="raindrop-bench-"))
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path.insert(0, root)
    from ui.launch import configure

    configure((width, height), quiet=True)
    from kivy.clock import Clock

    from companion.table.seats import HintPolicy, Seat, TableSettings
    from ui.app import RaindropApp

    app = RaindropApp(board="screen")
    app.settings.sound = False
    if args.thread:
        app.search_in_process = False
    where = "searching in a process" if app.search_in_process else "searching on a thread"
    frames: dict[str, list[float]] = {"idle": [], "search": []}
    state: dict[str, Any] = {"last": None, "phase": "start", "idle_from": 0.0,
                             "searches": 0, "was_thinking": False, "problem": ""}

    def start() -> Any:
        if args.game == "dropper":
            from ui.games import control

            settings = TableSettings((Seat("white"), Seat("black", True, 3)), HintPolicy(0))
            model = control.start_game(app, "dropper", {"size": "8"},
                                       table=settings.to_dict())
            return model.companion, lambda: person_dropper(model)
        from companion.game import Game
        from ui import resume
        from ui.options import NewGame

        settings = TableSettings((Seat("white"), Seat("black", True, 3)), HintPolicy(0))
        game = Game(seed=3, journal=resume.new_journal(), table=settings.to_dict())
        app.start_game(NewGame(board="screen", table=settings.to_dict()), game=game)
        return app.session.companion, lambda: person_chess(game)

    def person_dropper(model: Any) -> None:
        turns = sorted(model.rules.turns(model.session.position))
        model.play_turn(turns[len(turns) // 2])

    def person_chess(game: Any) -> None:
        import random

        rng = random.Random(len(game.san_history()))
        if game.pending is None and game.can_flip():
            game.flip()
            return
        board = game.board
        if game.pending is not None:
            square = rng.choice(sorted(game.drop_targets()))
            from companion.table.chess_table import parse_turn

            game.play(parse_turn(board, f"{game.pending.upper()}@"
                                 f"{__import__('chess').square_name(square)}"))
            return
        game.play(rng.choice(sorted(board.legal_moves, key=lambda m: m.uci())))

    def frame(_dt: float) -> None:
        now = time.perf_counter()
        last, state["last"] = state["last"], now
        link = state.get("link")
        if state["phase"] == "start":
            state["link"], state["person"] = start()
            state["phase"] = "idle"
            state["idle_from"] = now + 0.5   # after the new game's first frames
            return
        if last is None or link is None:
            return
        thinking = bool(link.thinking) and state["phase"] != "idle"
        if args.verbose and now - last > 0.08:
            print(f"long frame {1000 * (now - last):.0f} ms in {state['phase']}, thinking "
                  f"{thinking}, searches {state['searches']}, at {now:.2f}")
        if state["phase"] == "idle":
            if link.runner.thinking or not link.runner.persons_turn():
                return
            if now >= state["idle_from"]:
                frames["idle"].append(now - last)
            # The peer draws what a search draws (the thinking bar, moved as often as a
            # search reports), with no search.
            shown = int((now - state["idle_from"]) / BAR_EVERY)
            if shown != state.get("shown"):
                state["shown"] = shown
                link.thinking = True
                link.progress = (shown % 8) / 8
            if now >= state["idle_from"] + IDLE_SECONDS:
                link.thinking = False
                link.progress = 0.0
                state["phase"] = "search"
                state["person"]()
            return
        if thinking:
            if state["was_thinking"]:
                frames["search"].append(now - last)
            state["was_thinking"] = True
            return
        if state["was_thinking"]:
            state["was_thinking"] = False
            state["searches"] += 1
            if state["searches"] >= args.turns or link.table.is_over():
                app.stop()
                return
        if link.runner.persons_turn():
            state["person"]()
        elif link.runner.table.is_over():
            app.stop()

    app.bind(on_start=lambda *_: Clock.schedule_interval(frame, 0))
    app.run()
    if not frames["idle"] or not frames["search"]:
        print("not measured: no frames of one kind (is the engine installed?)")
        return 1
    print(f"{args.game}, window {width}x{height}, the companion at level 3 "
          f"({state['searches']} searches, {where})")
    load_after = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average (1 min) of the machine: {load_before:.2f} at the start, "
          f"{load_after:.2f} at the end (other processes slow software GL)")
    peer_median = statistics.median(frames["idle"])
    peer_longest = max(frames["idle"])
    for label, key in (("no search (peer)", "idle"), ("during the searches", "search")):
        values = frames[key]
        print(f"{label:22s} {len(values):5d} frames  median {statistics.median(values) * 1000:6.1f}"
              f" ms  p99 {percentile(values, 0.99) * 1000:6.1f} ms  longest "
              f"{max(values) * 1000:6.1f} ms")
    longest = max(frames["search"])
    print(f"ratios to the peer: median {statistics.median(frames['search']) / peer_median:.2f}"
          f", longest {longest / peer_longest:.2f}")
    verdict = "met" if longest * 1000 < TARGET_MS else "MISSED"
    print(f"target: longest frame during a search under {TARGET_MS:g} ms: {verdict} "
          f"({longest * 1000:.1f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
