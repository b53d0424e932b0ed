"""A small convolutional square network in numpy: fitting, forward pass, ONNX.

The input row is :func:`vision.square_net.square_inputs`' flat row: the tile
(``TILE_H`` x ``TILE_W`` x 3 Lab values, row-major, channels last) and then the
square's own empty colour (3 values). A 3x3 convolution with stride 2 and a
ReLU (30 x 18 -> 14 x 8), then a 3x3 convolution, a ReLU and a 2x2 max-pool
(-> 6 x 3), all without padding, turn the tile into 6 x 3 x ``channels[1]``
features; with the own colour they feed one hidden dense ReLU layer and the
four logits. The filters are the same wherever a piece's outline falls in the
tile, where a dense first layer learns each place apart.

Everything here is numpy (the forward and backward passes by im2col and
matrix products) except :func:`to_onnx`, which needs the ``onnx`` package
(the ``lab`` extra); the ONNX graph (Slice, Reshape, Transpose, Conv, Relu,
MaxPool, Concat, Gemm) runs in OpenCV's dnn module.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from lab.net_fitting import adam_fit, model_bytes
from vision.square_net import CLASSES, INPUTS, TILE_H, TILE_VALUES, TILE_W

FloatArray = npt.NDArray[np.float32]
KERNEL = 3


@dataclasses.dataclass
class ConvLayers:
    """The network's parameters: two convolutions (weights (k*k*c_in, c_out), rows
    ordered as ONNX's (c_in, kh, kw)), a hidden dense layer (its rows: the pooled
    features channels first, then the own colour) and the output layer."""

    params: list[FloatArray]  # conv1 w, b, conv2 w, b, dense w, b, out w, b

    @property
    def channels(self) -> tuple[int, int]:
        return self.params[0].shape[1], self.params[2].shape[1]


def feature_shape(channels: tuple[int, int]) -> tuple[int, int, int]:
    """(height, width, channels) after the second pool."""
    h, w = (TILE_H - KERNEL) // 2 + 1, (TILE_W - KERNEL) // 2 + 1  # the strided conv
    h, w = (h - KERNEL + 1) // 2, (w - KERNEL + 1) // 2  # the second conv and its pool
    return h, w, channels[1]


def init(rng: np.random.Generator, channels: tuple[int, int], hidden: int) -> ConvLayers:
    """He-initialised parameters."""
    fh, fw, fc = feature_shape(channels)
    sizes = [(KERNEL * KERNEL * 3, channels[0]), (KERNEL * KERNEL * channels[0], channels[1]),
             (fh * fw * fc + 3, hidden), (hidden, len(CLASSES))]
    params: list[FloatArray] = []
    for a, b in sizes:
        params += [np.asarray(rng.normal(0, np.sqrt(2.0 / a), (a, b)), np.float32),
                   np.zeros(b, np.float32)]
    return ConvLayers(params)


def _cols(x: FloatArray, stride: int = 1) -> FloatArray:
    """im2col of an NHWC batch: (n, oh, ow, c * 9), each row ordered (c, kh, kw)."""
    view = np.lib.stride_tricks.sliding_window_view(x, (KERNEL, KERNEL), axis=(1, 2))
    view = view[:, ::stride, ::stride]
    n, oh, ow = view.shape[:3]
    return np.ascontiguousarray(view).reshape(n, oh, ow, -1)


def _col2im(dcols: FloatArray, shape: tuple[int, ...]) -> FloatArray:
    """The gradient of the input of :func:`_cols` (stride 1) from that of its output."""
    n, h, w, c = shape
    oh, ow = h - KERNEL + 1, w - KERNEL + 1
    d = dcols.reshape(n, oh, ow, c, KERNEL, KERNEL)
    out = np.zeros(shape, np.float32)
    for kh in range(KERNEL):
        for kw in range(KERNEL):
            out[:, kh:kh + oh, kw:kw + ow, :] += d[..., kh, kw]
    return out


def _pool(a: FloatArray) -> tuple[FloatArray, FloatArray]:
    """2x2 max-pool (NHWC, even sides) and the blocks it pooled."""
    n, h, w, c = a.shape
    blocks = a.reshape(n, h // 2, 2, w // 2, 2, c)
    return blocks.max(axis=(2, 4)), blocks


def _forward(layers: ConvLayers, rows: FloatArray) -> tuple[FloatArray, list[FloatArray]]:
    p = layers.params
    n = len(rows)
    x = rows[:, :TILE_VALUES].reshape(n, TILE_H, TILE_W, 3)
    c1 = _cols(x, 2)
    a1 = np.maximum(c1 @ p[0] + p[1], 0)
    c2 = _cols(a1)
    z2 = np.maximum(c2 @ p[2] + p[3], 0)
    a2, b2 = _pool(z2)
    flat = np.concatenate([a2.transpose(0, 3, 1, 2).reshape(n, -1), rows[:, TILE_VALUES:]],
                          axis=1)  # channels first, as ONNX flattens
    h = np.maximum(flat @ p[4] + p[5], 0)
    logits = np.asarray(h @ p[6] + p[7], np.float32)
    return logits, [c1, a1, c2, z2, a2, b2, flat, h]


def forward(layers: ConvLayers, rows: FloatArray, batch: int = 4096) -> FloatArray:
    """The logits (n, 4) in numpy (what the ONNX file computes)."""
    out = [_forward(layers, rows[i:i + batch])[0] for i in range(0, len(rows), batch)]
    return np.concatenate(out) if out else np.zeros((0, len(CLASSES)), np.float32)


def _pool_back(grad: FloatArray, blocks: FloatArray, pooled: FloatArray) -> FloatArray:
    mask = blocks == pooled[:, :, None, :, None, :]
    n, h2, _, w2, _, c = blocks.shape
    back = mask * grad[:, :, None, :, None, :]
    return np.asarray(back, np.float32).reshape(n, h2 * 2, w2 * 2, c)


def loss_and_grads(layers: ConvLayers, rows: FloatArray, labels: npt.NDArray[np.int64],
                   weights: FloatArray) -> tuple[float, list[FloatArray]]:
    """Weighted cross-entropy of a batch (summed) and the gradients of its mean."""
    p = layers.params
    n = len(rows)
    logits, (c1, a1, c2, z2, a2, b2, flat, h) = _forward(layers, rows)
    prob = np.exp(logits - logits.max(axis=1, keepdims=True))
    prob /= prob.sum(axis=1, keepdims=True)
    loss = float(-(weights * np.log(prob[np.arange(n), labels] + 1e-9)).sum())
    g = prob
    g[np.arange(n), labels] -= 1
    g *= (weights / weights.sum())[:, None]
    grads: list[FloatArray] = [np.zeros(0, np.float32)] * 8
    grads[6], grads[7] = h.T @ g, g.sum(axis=0)
    g = (g @ p[6].T) * (h > 0)
    grads[4], grads[5] = flat.T @ g, g.sum(axis=0)
    g = g @ p[4].T
    fh, fw, fc = a2.shape[1:]
    g2 = g[:, :fh * fw * fc].reshape(n, fc, fh, fw).transpose(0, 2, 3, 1)
    g2 = _pool_back(g2, b2, a2) * (z2 > 0)
    cols2 = c2.reshape(-1, c2.shape[-1])
    flat_g2 = g2.reshape(-1, g2.shape[-1])
    grads[2], grads[3] = cols2.T @ flat_g2, flat_g2.sum(axis=0)
    g1 = _col2im(flat_g2 @ p[2].T, a1.shape) * (a1 > 0)
    flat_g1 = g1.reshape(-1, g1.shape[-1])
    grads[0], grads[1] = c1.reshape(-1, c1.shape[-1]).T @ flat_g1, flat_g1.sum(axis=0)
    return loss, [np.asarray(x, np.float32) for x in grads]


def to_onnx(layers: ConvLayers) -> bytes:
    """The network as an ONNX model (opset 13) taking the flat input rows."""
    from onnx import helper, numpy_helper

    p = layers.params
    c1 = layers.channels[0]
    fh, fw, fc = feature_shape(layers.channels)

    def conv_weight(w: FloatArray, c_in: int) -> FloatArray:
        return np.ascontiguousarray(w.T.reshape(w.shape[1], c_in, KERNEL, KERNEL))

    def ints(name: str, values: list[int]) -> Any:
        return numpy_helper.from_array(np.array(values, np.int64), name)

    inits = [
        ints("pix_start", [0]), ints("pix_end", [TILE_VALUES]), ints("own_end", [INPUTS]),
        ints("axis1", [1]), ints("tile_shape", [-1, TILE_H, TILE_W, 3]),
        ints("flat_shape", [-1, fh * fw * fc]),
        numpy_helper.from_array(conv_weight(p[0], 3), "cw1"),
        numpy_helper.from_array(p[1], "cb1"),
        numpy_helper.from_array(conv_weight(p[2], c1), "cw2"),
        numpy_helper.from_array(p[3], "cb2"),
        numpy_helper.from_array(p[4], "w1"), numpy_helper.from_array(p[5], "b1"),
        numpy_helper.from_array(p[6], "w2"), numpy_helper.from_array(p[7], "b2"),
    ]
    node = helper.make_node
    nodes = [
        node("Slice", ["tiles", "pix_start", "pix_end", "axis1"], ["pix"]),
        node("Slice", ["tiles", "pix_end", "own_end", "axis1"], ["own"]),
        node("Reshape", ["pix", "tile_shape"], ["nhwc"]),
        node("Transpose", ["nhwc"], ["nchw"], perm=[0, 3, 1, 2]),
        node("Conv", ["nchw", "cw1", "cb1"], ["z1"], kernel_shape=[KERNEL, KERNEL],
             strides=[2, 2]),
        node("Relu", ["z1"], ["p1"]),
        node("Conv", ["p1", "cw2", "cb2"], ["z2"], kernel_shape=[KERNEL, KERNEL]),
        node("Relu", ["z2"], ["r2"]),
        node("MaxPool", ["r2"], ["p2"], kernel_shape=[2, 2], strides=[2, 2]),
        node("Reshape", ["p2", "flat_shape"], ["flat"]),
        node("Concat", ["flat", "own"], ["features"], axis=1),
        node("Gemm", ["features", "w1", "b1"], ["z3"]),
        node("Relu", ["z3"], ["h"]),
        node("Gemm", ["h", "w2", "b2"], ["logits"]),
    ]
    return model_bytes(nodes, inits, "raindrop_squares_conv")


def fit(rows: FloatArray, labels: npt.NDArray[np.int64], weights: FloatArray,
        rng: np.random.Generator, epochs: int, *, channels: tuple[int, int], hidden: int,
        rate: float = 2e-3, batch: int = 256, decay: float = 1e-4,
        prepare: Callable[[FloatArray, np.random.Generator], FloatArray] | None = None,
        log: Callable[[int, float], None] | None = None) -> ConvLayers:
    """Adam on weighted cross-entropy with weight decay ``decay`` and a cosine
    schedule (as the dense network's fit); ``prepare`` changes every batch
    (augmentation) before it is seen."""
    layers = init(rng, channels, hidden)

    def batch_loss(pick: npt.NDArray[np.intp]) -> tuple[float, list[FloatArray]]:
        x = rows[pick] if prepare is None else prepare(rows[pick], rng)
        return loss_and_grads(layers, np.asarray(x, np.float32), labels[pick], weights[pick])

    total_weight = float(weights.sum())
    adam_fit(layers.params, len(rows), batch_loss, rng, epochs, rate, batch, decay,
             lambda epoch, total: None if log is None else log(epoch, total / total_weight))
    return layers
