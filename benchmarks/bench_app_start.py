"""App start to the first interactive frame, against a bare Kivy app, measured in the same run.

Each run is a fresh process (Kivy keeps one window per process), started with the
same headless environment. The clock starts before Kivy is imported and stops at
the first frame drawn after ``on_start`` (Clock.schedule_once(..., 0) fires on
the next frame, once the window shows the built widget tree and takes input):

- ours: ``ui.app.RaindropApp`` (home built and shown; every other screen is built when
  first shown);
- ours, game: the same, then a new game on the simulated sensing board, to its
  first frame of the game screen;
- peer: a bare ``kivy.app.App`` whose root is one Label.

    python benchmarks/bench_app_start.py [--runs 5] [--size 1280x800]

Prints the median of each and the ratios to the peer.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

CHILD = r"""
import os, sys, time, json
t0 = time.perf_counter()
from ui.launch import configure
configure(({w}, {h}), quiet=True)
from kivy.clock import Clock
which = {which!r}
if which == "peer":
    from kivy.app import App
    from kivy.uix.label import Label

    class Peer(App):
        def build(self):
            return Label(text="Raindropchess")
    app = Peer()
else:
    from ui.app import RaindropApp
    app = RaindropApp(board="sim")
result = {{}}

def first_frame(_dt):
    result["start_to_first_frame"] = time.perf_counter() - t0
    if which == "game":
        from ui.options import NewGame
        t1 = time.perf_counter()
        app.start_game(NewGame(board="sim"))
        def game_frame(_dt):
            result["new_game_to_frame"] = time.perf_counter() - t1
            result["start_to_game_frame"] = time.perf_counter() - t0
            app.stop()
        Clock.schedule_once(game_frame, 0)
    else:
        app.stop()

app.bind(on_start=lambda *_: Clock.schedule_once(first_frame, 0))
app.run()
import ui
print("FROM " + os.path.dirname(os.path.dirname(os.path.abspath(ui.__file__))))
print("RESULT " + json.dumps(result))
"""


def measure(which: str, size: tuple[int, int]) -> dict[str, float]:
    env = dict(os.environ)
    # The child runs from a temporary script: put this checkout first on its path, or an
    # installed copy of the project would be measured instead.
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH", "")]))
    env["RAINDROP_DATA_DIR"] = tempfile.mkdtemp(prefix="raindrop-bench-")
    env["RAINDROP_CONFIG_DIR"] = tempfile.mkdtemp(prefix="raindrop-bench-")
    code = CHILD.format(w=size[0], h=size[1], which=which)
    # A script file, not ``-c``: Kivy's App looks for its module's file.
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as handle:
        handle.write(code)
    try:
        done = subprocess.run([sys.executable, handle.name], env=env, capture_output=True,
                              text=True, timeout=120, check=False)
    finally:
        os.unlink(handle.name)
    if done.returncode:
        raise RuntimeError(f"{which} run failed:\n{done.stderr[-2000:]}")
    out = done.stdout
    line = next(line for line in out.splitlines() if line.startswith("RESULT "))
    where = next((x for x in out.splitlines() if x.startswith("FROM ")), "")
    if which != "peer" and where and not where.endswith(root):
        raise RuntimeError(f"measured the wrong copy of the app: {where}")
    result: dict[str, float] = json.loads(line.removeprefix("RESULT "))
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--size", default="1280x800")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.lower().split("x"))
    samples: dict[str, list[float]] = {"peer": [], "ours": [], "game": [], "new_game": []}
    for _ in range(args.runs):  # interleaved, so machine load hits all alike
        samples["peer"].append(measure("peer", (width, height))["start_to_first_frame"])
        samples["ours"].append(measure("ours", (width, height))["start_to_first_frame"])
        game = measure("game", (width, height))
        samples["game"].append(game["start_to_game_frame"])
        samples["new_game"].append(game["new_game_to_frame"])
    peer = statistics.median(samples["peer"])
    rows = [
        ("bare Kivy App, one Label (peer)", "peer"),
        ("RaindropApp: start to first interactive frame (home)", "ours"),
        ("RaindropApp: start, then a new game on the simulated board, to its frame",
         "game"),
        ("  of which: New game to the game screen's first frame", "new_game"),
    ]
    print(f"window {width}x{height}, {args.runs} runs each, medians")
    for label, key in rows:
        median = statistics.median(samples[key])
        print(f"{label:78s} {median * 1000:8.0f} ms   ratio to peer {median / peer:5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
