"""The lab's tests run OpenCV on one thread a worker: the suite runs one worker a core
(``pytest -n 2``), so more threads would only contend for the same cores."""

from __future__ import annotations

import cv2

cv2.setNumThreads(1)
