"""What fitting either square network needs (``lab.train_occupancy``'s dense
one and ``lab.tile_conv``'s convolutional one): the Adam loop and the ONNX
model around a graph of the square network's input and output.

Writing the model needs the ``onnx`` package (the ``lab`` extra).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.square_net import CLASSES, INPUTS

FloatArray = npt.NDArray[np.float32]


def adam_step(params: list[FloatArray], grads: list[FloatArray], first: list[FloatArray],
              second: list[FloatArray], step: int, rate: float, decay: float) -> None:
    """One Adam update of ``params`` in place (moments ``first`` and ``second``
    updated too; ``step`` counts from 1), with weight decay ``decay``."""
    for k, (param, raw) in enumerate(zip(params, grads, strict=True)):
        g = np.asarray(raw + decay * param, np.float32)
        first[k] = 0.9 * first[k] + 0.1 * g
        second[k] = 0.999 * second[k] + 0.001 * g * g
        m_hat = first[k] / (1 - 0.9 ** step)
        v_hat = second[k] / (1 - 0.999 ** step)
        param -= (rate * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)


IntArray = npt.NDArray[np.intp]
BatchLoss = Callable[[IntArray], tuple[float, list[FloatArray]]]


def adam_fit(params: list[FloatArray], count: int, batch_loss: BatchLoss,
             rng: np.random.Generator, epochs: int, rate: float, batch: int, decay: float,
             log: Callable[[int, float], None]) -> None:
    """Fit ``params`` in place: every epoch the ``count`` rows in a new random
    order, ``batch`` at a time; ``batch_loss(rows)`` gives the weighted loss of
    those rows and its gradients (one per parameter), each followed by an Adam
    step, the rate on a cosine schedule from ``rate``. ``log(epoch, loss summed
    over the epoch)``."""
    first = [np.zeros_like(q) for q in params]
    second = [np.zeros_like(q) for q in params]
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(count)
        total = 0.0
        lr = rate * (0.5 * (1 + np.cos(np.pi * epoch / epochs)))
        for start in range(0, count, batch):
            loss, grads = batch_loss(order[start:start + batch])
            total += loss
            step += 1
            adam_step(params, grads, first, second, step, lr, decay)
        log(epoch, total)


Shape = list[int | str]


def model_bytes(nodes: list[Any], inits: list[Any], name: str, *,
                source: tuple[str, Shape] = ("tiles", ["n", INPUTS]),
                result: tuple[str, Shape] = ("logits", ["n", len(CLASSES)])) -> bytes:
    """An ONNX model (opset 13) of ``nodes`` over the initialisers ``inits``,
    from the input rows ``tiles`` (n, INPUTS) to the four ``logits`` (or from the
    input ``source`` to the output ``result``, each a name and a shape)."""
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info(source[0], TensorProto.FLOAT, source[1])],
        [helper.make_tensor_value_info(result[0], TensorProto.FLOAT, result[1])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="lab.train_occupancy")
    model.ir_version = 8
    return bytes(model.SerializeToString())
