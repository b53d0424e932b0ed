"""The occupancy score of a square: small networks over its features.

Both read the features of :func:`vision.features.square_features` and are
fitted on synthetic scenes by ``python -m lab.fit_occupancy``; both ship in
``vision/models`` (:mod:`vision.models`).

- Against the empty-board reference (``occupancy_reference.json``): one tanh
  layer over the disc features and those only a reference gives
  (:func:`vision.features.reference_features`: colour moved, grain hidden,
  a round outline, change no shadow explains), plus the base-ring features
  on top with weights never below 0. The ring (a piece's contact shadow and outline) may
  only add evidence for a piece: real sets often have narrower bases and
  fainter contact shadows than the synthetic pieces.
- Without a reference (``occupancy_board.json``, the board itself is the
  baseline): a monotone network, every weight of both layers at least 0, so
  more evidence of a piece never lowers the score. A free fit learned that
  sharp edges or very dark pixels argue against a piece (synthetic pictures
  are soft) and missed real pieces that are photographed sharply.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
from typing import Any

import numpy as np
import numpy.typing as npt

from vision import models

LOGGER = logging.getLogger(__name__)

FloatArray = npt.NDArray[np.float32]
MODEL_FILE = "occupancy_reference.json"
BOARD_MODEL_FILE = "occupancy_board.json"


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
    monotone: bool = False  # w1 and w2 at least 0: the score never falls as a feature rises

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
        if self.monotone and ((self.w1 < 0).any() or (self.w2 < 0).any()):
            raise OccupancyModelError("a monotone model has a negative weight")

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
                "extra_w": r(self.extra_w), "monotone": self.monotone}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> OccupancyNet:
        try:
            def a(name: str) -> FloatArray:
                return np.asarray(data[name], np.float32)
            return cls(tuple(int(i) for i in data["inputs"]), a("mean"), a("scale"), a("w1"),
                       a("b1"), a("w2"), float(data["b2"]),
                       tuple(int(i) for i in data["extra"]), a("extra_w"),
                       bool(data.get("monotone", False)))
        except OccupancyModelError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise OccupancyModelError(f"bad occupancy model: {exc!r}") from exc


@functools.cache
def load_model(name: str) -> OccupancyNet:
    """A shipped model by file name (loaded once)."""
    try:
        text = models.read_text(name)
    except models.ModelFileError as error:
        raise OccupancyModelError(str(error)) from error
    return OccupancyNet.from_json(json.loads(text))


def reference_model() -> OccupancyNet:
    """The model for reading against an empty-board reference."""
    return load_model(MODEL_FILE)


def board_model() -> OccupancyNet:
    """The model for reading without a reference (monotone)."""
    return load_model(BOARD_MODEL_FILE)
