"""The plain (straightforward) game implementations live in benchmarks/ as
``plain_<game>.py``: the benchmarks time the engines against them, and these
tests cross-check the engines against them."""

from __future__ import annotations

import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[3] / "benchmarks"
if str(BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(BENCHMARKS))
