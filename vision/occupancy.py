"""The occupancy score of a square read against the empty-board reference.

A small network (one tanh layer) over the disc features of
:func:`vision.squares.square_features`, plus the base-ring features added on
top with weights that are never negative: the ring (a piece's contact shadow
and outline) may only add evidence for a piece, because real sets often have
narrower bases and fainter contact shadows than the synthetic pieces the
network is fitted on (``python -m vision.fit``). The fitted model ships as
``occupancy_reference.json`` beside this module.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

LOGGER = logging.getLogger(__name__)

FloatArray = npt.NDArray[np.float32]
MODEL_FILE = "occupancy_reference.json"


class OccupancyModelError(ValueError):
    """The occupancy model file is missing a field or does not fit the features."""


@dataclasses.dataclass(frozen=True, eq=False)
class OccupancyNet:
    """``logit = tanh(((x[inputs] - mean) / scale) @ w1 + b1) @ w2 + b2 + x[extra] @ extra_w``.

    ``x`` is a square's feature vector; a logit above 0 means occupied.
    """

    inputs: tuple[int, ...]
    mean: FloatArray  # (len(inputs),)
    scale: FloatArray  # (len(inputs),)
    w1: FloatArray  # (len(inputs), hidden)
    b1: FloatArray  # (hidden,)
    w2: FloatArray  # (hidden,)
    b2: float
    extra: tuple[int, ...]
    extra_w: FloatArray  # (len(extra),), each >= 0

    def __post_init__(self) -> None:
        n, hidden = len(self.inputs), len(self.b1)
        shapes = {"mean": (self.mean.shape, (n,)), "scale": (self.scale.shape, (n,)),
                  "w1": (self.w1.shape, (n, hidden)), "w2": (self.w2.shape, (hidden,)),
                  "extra_w": (self.extra_w.shape, (len(self.extra),))}
        for name, (shape, want) in shapes.items():
            if shape != want:
                raise OccupancyModelError(f"{name} has shape {shape}, expected {want}")
        if (self.extra_w < 0).any():
            raise OccupancyModelError("the base-ring weights must not be negative")

    def width(self) -> int:
        """The shortest feature vector this model can read."""
        return max(self.inputs + self.extra) + 1

    def logit(self, features: FloatArray) -> FloatArray:
        """Occupancy logits (n,) of feature rows (n, width or more)."""
        z = (features[:, self.inputs] - self.mean) / self.scale
        hidden = np.tanh(z @ self.w1 + self.b1)
        out = hidden @ self.w2 + self.b2 + features[:, self.extra] @ self.extra_w
        return np.asarray(out, np.float32)

    def to_json(self) -> dict[str, Any]:
        def r(a: FloatArray) -> Any:
            return np.round(a.astype(np.float64), 5).tolist()
        return {"inputs": list(self.inputs), "mean": r(self.mean), "scale": r(self.scale),
                "w1": r(self.w1), "b1": r(self.b1), "w2": r(self.w2),
                "b2": round(float(self.b2), 5), "extra": list(self.extra),
                "extra_w": r(self.extra_w)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> OccupancyNet:
        try:
            def a(name: str) -> FloatArray:
                return np.asarray(data[name], np.float32)
            return cls(tuple(int(i) for i in data["inputs"]), a("mean"), a("scale"), a("w1"),
                       a("b1"), a("w2"), float(data["b2"]),
                       tuple(int(i) for i in data["extra"]), a("extra_w"))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, OccupancyModelError):
                raise
            raise OccupancyModelError(f"bad occupancy model: {exc!r}") from exc


@functools.cache
def reference_model() -> OccupancyNet:
    """The shipped model for reading against an empty-board reference (loaded once)."""
    text = resources.files("vision").joinpath(MODEL_FILE).read_text(encoding="utf-8")
    return OccupancyNet.from_json(json.loads(text))
