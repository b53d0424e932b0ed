"""VisionConfig: settings grouped by stage; files written before the groups still load."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from vision.calibration import load_calibration
from vision.config import ConfigError, LeanConfig, VisionConfig, group_of

DATA = Path(__file__).parent / "data"


def test_every_setting_is_in_one_group_under_its_own_name() -> None:
    config = VisionConfig()
    names = [setting.name for group in dataclasses.fields(config)
             for setting in dataclasses.fields(getattr(config, group.name))]
    assert len(names) == len(set(names)) == 93
    assert group_of("foot_unlike") == "lean" and isinstance(config.lean, LeanConfig)
    assert config.lean.foot_unlike == 8.0 and config.warp.square_px == 32


def test_replace_changes_a_setting_in_its_group_and_nothing_else() -> None:
    config = VisionConfig()
    changed = config.replace(foot_unlike=3.0, photo_nets=("a.onnx",))
    assert changed.lean.foot_unlike == 3.0 and changed.nets.photo_nets == ("a.onnx",)
    assert changed.lean == dataclasses.replace(config.lean, foot_unlike=3.0)
    assert changed.warp is config.warp
    with pytest.raises(ConfigError, match="foot_unlik"):
        config.replace(foot_unlik=3.0)


def test_a_flat_settings_file_written_before_the_groups_still_loads() -> None:
    # data/vision_config_flat.json is json.dumps(dataclasses.asdict(VisionConfig())) as the
    # flat VisionConfig of 93 settings wrote it, before they were grouped by stage.
    flat = json.loads((DATA / "vision_config_flat.json").read_text(encoding="utf-8"))
    assert len(flat) == 93 and "foot_unlike" in flat
    assert VisionConfig.from_dict(flat) == VisionConfig()
    flat["photo_top_bias"], flat["marker_ids"] = 1.5, [4, 5, 6, 7]
    loaded = VisionConfig.from_dict(flat)
    assert loaded.photo.photo_top_bias == 1.5 and loaded.locate.marker_ids == (4, 5, 6, 7)


def test_the_grouped_form_goes_through_json_and_back() -> None:
    config = VisionConfig().replace(settle_frames=6, outline_lit_ratio=(1.1, 1.5))
    text = json.dumps(config.to_dict())
    assert VisionConfig.from_dict(json.loads(text)) == config
    assert VisionConfig.from_dict({"settle": {"settle_frames": 6}}).settle.settle_frames == 6


@pytest.mark.parametrize(("data", "named"), [
    ({"no_such_setting": 1}, "no_such_setting"),
    ({"lean": {"settle_frames": 3}}, "settle_frames"),
    ({"lean": 3}, "lean"),
    ({"marker_ids": 3}, "marker_ids"),
    ({"settle_frames": "four"}, "settle_frames"),
    ({"photo_split": 1}, "photo_split"),
])
def test_a_bad_key_or_value_is_named(data: dict[str, object], named: str) -> None:
    with pytest.raises(ConfigError, match=named):
        VisionConfig.from_dict(data)


def test_a_calibration_file_written_before_still_loads() -> None:
    calibration = load_calibration(DATA / "camera_calibration.json")
    assert calibration is not None and calibration.method == "markers"
    assert calibration.geometry.corners[0] == (412.0, 80.0)
    assert calibration.geometry.image_size == (1280, 720)
