"""Draw hardware/schematic.svg: the Pico, the 8x8 reed/diode matrix and the LED chain.

    python hardware/make_schematic.py      (rewrites hardware/schematic.svg)

The pin map comes from firmware/hw_rp2040.py's constants, so the drawing and the
firmware agree.
"""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parent / "firmware" / "hw_rp2040.py"


def pin_map() -> dict[str, object]:
    source = FIRMWARE.read_text()
    rows = tuple(int(n) for n in re.search(r"ROW_PINS = \(([^)]*)\)", source)[1].split(","))
    first = int(re.search(r"COLUMN_FIRST_PIN = (\d+)", source)[1])
    led = int(re.search(r"LED_PIN = (\d+)", source)[1])
    jumper = int(re.search(r"MAINTENANCE_PIN = (\d+)", source)[1])
    return {"rows": rows, "columns": tuple(range(first, first + 8)), "led": led,
            "jumper": jumper}


def svg() -> str:
    pins = pin_map()
    cell, left, top = 90, 340, 90
    out: list[str] = []
    add = out.append
    width, height = left + 8 * cell + 80, top + 8 * cell + 330
    add(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">')
    add(f'<rect width="{width}" height="{height}" fill="white"/>')
    add('<text x="20" y="30" font-size="18" font-weight="bold">Raindropchess reed-switch '
        'board: 8x8 matrix, one diode per switch</text>')
    add('<text x="20" y="52">Rows (ranks) are driven low one at a time, idle rows high; columns '
        '(files) are read with 10 kOhm pull-ups to 3V3. Diode band (cathode) toward the row.'
        '</text>')
    # The Pico.
    px, py, ph = 30, top - 20, 8 * cell + 200
    add(f'<rect x="{px}" y="{py}" width="150" height="{ph}" fill="#e8f4e8" stroke="black"/>')
    add(f'<text x="{px + 10}" y="{py + 20}" font-weight="bold">Raspberry Pi Pico</text>')
    add(f'<text x="{px + 10}" y="{py + 36}">(RP2040)</text>')
    for r, gp in enumerate(pins["rows"]):  # rank 8 at the top
        y = top + (7 - r) * cell + cell // 2
        add(f'<text x="{px + 100}" y="{y + 4}">GP{gp}</text>')
        add(f'<line x1="{px + 150}" y1="{y}" x2="{left + 8 * cell}" y2="{y}" stroke="#b00000" '
            'stroke-width="2"/>')
        add(f'<text x="{px + 160}" y="{y - 6}" fill="#b00000">row {r + 1} (rank {r + 1})</text>')
    bottom = top + 8 * cell + 30
    for f, gp in enumerate(pins["columns"]):
        x = left + f * cell + cell // 2 + 20
        add(f'<line x1="{x}" y1="{top - 10}" x2="{x}" y2="{bottom + 40}" stroke="#0030b0" '
            'stroke-width="2"/>')
        add(f'<text x="{x - 6}" y="{top - 16}" fill="#0030b0">{"abcdefgh"[f]}</text>')
        wire_y = bottom + 50 + f * 12
        add(f'<polyline points="{x},{bottom + 40} {x},{wire_y} {px + 150},{wire_y}" '
            'fill="none" stroke="#0030b0" stroke-width="1" stroke-dasharray="4 2"/>')
        add(f'<text x="{px + 80}" y="{wire_y + 4}" font-size="10" fill="#0030b0">GP{gp} '
            f'({"abcdefgh"[f]})</text>')
        add(f'<text x="{x + 4}" y="{bottom + 30}" fill="#0030b0">GP{gp}</text>')
    add(f'<text x="{px + 10}" y="{bottom + 10}">columns, each with</text>')
    add(f'<text x="{px + 10}" y="{bottom + 24}">10 kOhm to 3V3 (pin 36):</text>')
    # One switch + diode at every crossing.
    for r in range(8):
        for f in range(8):
            x = left + f * cell + cell // 2 + 20
            y = top + (7 - r) * cell + cell // 2
            sq = "abcdefgh"[f] + str(r + 1)
            # reed switch: from the column down-left to a node, then the diode to the row
            add(f'<circle cx="{x}" cy="{y - 30}" r="3" fill="#0030b0"/>')
            add(f'<line x1="{x}" y1="{y - 30}" x2="{x - 20}" y2="{y - 30}" stroke="black"/>')
            add(f'<rect x="{x - 48}" y="{y - 36}" width="28" height="12" rx="6" fill="none" '
                'stroke="black"/>')  # the glass
            add(f'<line x1="{x - 46}" y1="{y - 30}" x2="{x - 36}" y2="{y - 32}" stroke="black"/>')
            add(f'<line x1="{x - 32}" y1="{y - 30}" x2="{x - 22}" y2="{y - 30}" stroke="black"/>')
            add(f'<line x1="{x - 48}" y1="{y - 30}" x2="{x - 58}" y2="{y - 30}" stroke="black"/>')
            add(f'<line x1="{x - 58}" y1="{y - 30}" x2="{x - 58}" y2="{y - 20}" stroke="black"/>')
            # diode pointing down to the row (anode up, cathode bar at the row side)
            add(f'<polygon points="{x - 64},{y - 20} {x - 52},{y - 20} {x - 58},{y - 10}" '
                'fill="black"/>')
            add(f'<line x1="{x - 64}" y1="{y - 9}" x2="{x - 52}" y2="{y - 9}" stroke="black" '
                'stroke-width="2"/>')
            add(f'<line x1="{x - 58}" y1="{y - 9}" x2="{x - 58}" y2="{y}" stroke="black"/>')
            add(f'<circle cx="{x - 58}" cy="{y}" r="3" fill="#b00000"/>')
            add(f'<text x="{x - 44}" y="{y - 40}" font-size="10">{sq}</text>')
    # LEDs and the jumper.
    ly = bottom + 180
    add(f'<text x="20" y="{ly}" font-weight="bold">Optional LEDs</text>')
    add(f'<text x="20" y="{ly + 18}">GP{pins["led"]} -> 330 ohm -> 74AHCT125 (VCC 5 V from '
        'VBUS, /OE to GND) -> DIN of WS2812B #0 (under a1) -> ... -> #63 (under a8), '
        'serpentine: rank 1 a->h, rank 2 h->a, ...</text>')
    add(f'<text x="20" y="{ly + 36}">LED 5 V and GND from VBUS (pin 40) and GND; 1000 uF across '
        'the strip supply; 100 nF at the level shifter.</text>')
    add(f'<text x="20" y="{ly + 50}">74AHCT125 unused buffers: inputs 2A, 3A, 4A (pins 5, 9, 12) '
        'to GND, /OE2-/OE4 (pins 4, 10, 13) to 5 V, outputs 6, 8, 11 open.</text>')
    add(f'<text x="20" y="{ly + 62}" font-weight="bold">Maintenance jumper</text>')
    add(f'<text x="20" y="{ly + 80}">GP{pins["jumper"]} (pin 29) to GND at power-up: the '
        'firmware does not start (see firmware/README.md).</text>')
    add("</svg>")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    (HERE / "schematic.svg").write_text(svg())
