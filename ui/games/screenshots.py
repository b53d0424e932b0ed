"""Screenshots of every abstract game mid-play at every supported window size, for the
docs: ``python -m ui.games.screenshots docs/screenshots [--games dropper rumbo]``.

Each picture is one ``raindrop app --demo GAME --screenshot FILE --size WxH`` run (a
fresh process: Kivy keeps one window per process), named ``games-GAME-WxH.png``.
"""

from __future__ import annotations

import argparse
import logging
import subprocess
import sys
from pathlib import Path

LOGGER = logging.getLogger(__name__)

SIZES = ("412x800", "800x412", "1024x600", "1280x800", "1920x1200")


def main(argv: list[str] | None = None) -> int:
    from companion import games

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path, help="folder for the PNGs")
    parser.add_argument("--games", nargs="*", default=None,
                        help="games to show (default: every game that loads)")
    parser.add_argument("--sizes", nargs="*", default=list(SIZES))
    args = parser.parse_args(argv)
    names = args.games
    if names is None:
        names = []
        for name in games.BUILTIN:
            try:
                games.get(name)
                names.append(name)
            except ImportError:
                print(f"{name}: not installed, skipped")
    args.out.mkdir(parents=True, exist_ok=True)
    status = 0
    extras = [("games-shelf.png", ["--demo", "games", "--size", "1280x800"])]
    if "rumbo" in names:
        extras.append(("games-rumbo-komi.png",
                       ["--demo", "rumbo", "--demo-turns", "0", "--size", "1280x800"]))
    for file, words in extras:
        path = args.out / file
        done = subprocess.run([sys.executable, "-m", "companion", "app", *words,
                               "--screenshot", str(path)],
                              capture_output=True, text=True, check=False)
        print(f"wrote {path}" if done.returncode == 0 else f"{path}: failed")
        status |= done.returncode
    for name in names:
        for size in args.sizes:
            path = args.out / f"games-{name}-{size}.png"
            done = subprocess.run([sys.executable, "-m", "companion", "app", "--demo", name,
                                   "--screenshot", str(path), "--size", size],
                                  capture_output=True, text=True, check=False)
            if done.returncode != 0 or not path.exists():
                print(f"{path}: failed\n{done.stderr[-2000:]}", file=sys.stderr)
                status = 1
            else:
                print(f"wrote {path}")
    return status


if __name__ == "__main__":
    sys.exit(main())
