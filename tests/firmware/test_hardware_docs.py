"""The hardware guide agrees with the firmware: pin map table and schematic."""

from __future__ import annotations

import re
import runpy
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PICO_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
            12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 22: 29}  # GPIO -> Pico pin number


def firmware_pins() -> dict[str, int]:
    source = (ROOT / "firmware" / "hw_rp2040.py").read_text()
    rows = [int(n) for n in re.search(r"ROW_PINS = \(([^)]*)\)", source)[1].split(",")]
    first = int(re.search(r"COLUMN_FIRST_PIN = (\d+)", source)[1])
    pins = {f"row {r + 1} (rank {r + 1})": gp for r, gp in enumerate(rows)}
    pins.update({f"column {f} (file {f})": first + i for i, f in enumerate("abcdefgh")})
    pins["LED data"] = int(re.search(r"LED_PIN = (\d+)", source)[1])
    pins["maintenance jumper"] = int(re.search(r"MAINTENANCE_PIN = (\d+)", source)[1])
    return pins


def test_wiring_table_matches_the_firmware_pin_map() -> None:
    table = {}
    for line in (ROOT / "hardware" / "wiring.md").read_text().splitlines():
        match = re.match(r"\| ([^|]+?) \| GP(\d+) \| (\d+) \|", line)
        if match:
            table[match[1]] = (int(match[2]), int(match[3]))
    for signal, gpio in firmware_pins().items():
        assert table[signal] == (gpio, PICO_PIN[gpio]), signal


def test_schematic_is_drawn_from_the_firmware_pins() -> None:
    module = runpy.run_path(str(ROOT / "hardware" / "make_schematic.py"))
    drawn = module["svg"]()
    assert drawn == (ROOT / "hardware" / "schematic.svg").read_text(), \
        "run python hardware/make_schematic.py"
    texts = [el.text for el in ET.fromstring(drawn).iter() if el.text]
    for gpio in firmware_pins().values():
        assert any(f"GP{gpio}" in text for text in texts), gpio
    squares = {text for text in texts if re.fullmatch(r"[a-h][1-8]", text)}
    assert len(squares) == 64


def test_bom_names_orderable_reeds_and_standard_pull_ups() -> None:
    readme = (ROOT / "hardware" / "README.md").read_text()
    reed = next(line for line in readme.splitlines() if line.startswith("| 2 | Reed switch"))
    assert re.findall(r"MDSR-7-\d\d-\d\d", reed) == ["MDSR-7-15-20", "MDSR-7-10-15",
                                                    "MDSR-7-20-25"]
    pull_ups = next(line for line in readme.splitlines() if line.startswith("| 10 |"))
    assert "standard" in pull_ups and "10 kOhm" in pull_ups and pull_ups.endswith("| 8 |")
    wiring = (ROOT / "hardware" / "wiring.md").read_text()
    assert "drives the\n  others **high** (never floating)" in wiring
    assert "10 kOhm pull-up to 3.3 V" in wiring


def test_unused_level_shifter_inputs_are_tied_in_every_document() -> None:
    for name in ("README.md", "wiring.md", "build-guide.md", "schematic.svg"):
        text = " ".join((ROOT / "hardware" / name).read_text().split())
        assert "5, 9, 12" in text and "4, 10, 13" in text, name


def test_rotation_is_documented_where_the_builder_looks() -> None:
    for path in ("hardware/README.md", "hardware/build-guide.md", "docs/protocol.md"):
        assert "raindrop board rotation 180" in (ROOT / path).read_text(), path
