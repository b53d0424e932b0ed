"""The entry point on Android (buildozer runs ``main.py`` from the source root;
docs/android.md copies this file there before a build)."""

from __future__ import annotations

import sys

from ui.launch import launch

if __name__ == "__main__":
    sys.exit(launch(board="screen"))
