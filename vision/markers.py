"""The four ArUco corner markers and the printable sheet of them.

Each marker is printed on a white card whose quiet zone is one marker cell
wide. A card is laid diagonally outside one corner of the 8x8 squares with
its inner corner touching that corner: marker 0 at a8, 1 at h8, 2 at h1, 3 at
a1, so the markers fix the orientation too.
"""

from __future__ import annotations

import logging
import zlib
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import VisionError

LOGGER = logging.getLogger(__name__)

DICTIONARY = cv2.aruco.DICT_4X4_50
CELLS = 6  # a 4x4 marker with its one-cell black border
CORNER_NAMES = ("a8", "h8", "h1", "a1")
MM_PER_INCH = 25.4


def marker_image(marker_id: int, side_px: int) -> npt.NDArray[np.uint8]:
    """Marker ``marker_id`` as a square grey image ``side_px`` wide (no quiet zone)."""
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    return np.asarray(cv2.aruco.generateImageMarker(dictionary, marker_id, max(side_px, CELLS)),
                      dtype=np.uint8)


def marker_bits(marker_id: int) -> npt.NDArray[np.bool_]:
    """The 6x6 cells of a marker, True where black."""
    return marker_image(marker_id, CELLS * 10)[5::10, 5::10] < 128


def _layout(marker_mm: float) -> list[tuple[int, float, float]]:
    """(id, x, y) of each card's top-left on an A4 page, in millimetres."""
    card = marker_mm * (CELLS + 2) / CELLS
    gap = 15.0
    x0, y0 = 20.0, 40.0
    return [(i, x0 + (i % 2) * (card + gap), y0 + (i // 2) * (card + gap + 10)) for i in range(4)]


PAGE_MM = (210.0, 297.0)


def sheet_png(marker_mm: float, dpi: int = 300) -> npt.NDArray[np.uint8]:
    """The A4 sheet as a grey image at ``dpi`` (print at 100% scale)."""
    scale = dpi / MM_PER_INCH
    page = np.full((round(PAGE_MM[1] * scale), round(PAGE_MM[0] * scale)), 255, np.uint8)
    cell = marker_mm / CELLS
    for marker_id, x, y in _layout(marker_mm):
        card = marker_mm + 2 * cell
        cv2.rectangle(page, (round(x * scale), round(y * scale)),
                      (round((x + card) * scale), round((y + card) * scale)), 160, 1)
        side = round(marker_mm * scale)
        image = marker_image(marker_id, side)
        mx, my = round((x + cell) * scale), round((y + cell) * scale)
        page[my:my + side, mx:mx + side] = image
        cv2.putText(page, f"{marker_id}: {CORNER_NAMES[marker_id]}",
                    (round(x * scale), round((y + card + 6) * scale)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.12 * scale, 0, max(1, round(scale / 4)))
    cv2.putText(page, f"Raindropchess corner markers: cut along the grey lines; marker side "
                f"{marker_mm:g} mm", (round(20 * scale), round(20 * scale)),
                cv2.FONT_HERSHEY_SIMPLEX, 0.1 * scale, 0, max(1, round(scale / 5)))
    return page


def sheet_pdf(marker_mm: float) -> bytes:
    """The A4 sheet as a one-page vector PDF (markers as filled rectangles, true size)."""
    pt = 72.0 / MM_PER_INCH
    width, height = PAGE_MM[0] * pt, PAGE_MM[1] * pt
    cell = marker_mm / CELLS
    ops: list[str] = []
    for marker_id, x, y in _layout(marker_mm):
        card = marker_mm + 2 * cell
        ops.append("0.6 G 0.3 w")
        ops.append(f"{x * pt:.3f} {height - (y + card) * pt:.3f} {card * pt:.3f} "
                   f"{card * pt:.3f} re S")
        ops.append("0 g")
        bits = marker_bits(marker_id)
        for r in range(CELLS):
            for c in range(CELLS):
                if bits[r, c]:
                    cx = (x + cell + c * cell) * pt
                    cy = height - (y + cell + (r + 1) * cell) * pt
                    ops.append(f"{cx:.3f} {cy:.3f} {cell * pt:.3f} {cell * pt:.3f} re f")
        label = f"{marker_id}: {CORNER_NAMES[marker_id]}"
        ops.append(f"BT /F1 10 Tf {x * pt:.3f} {height - (y + card + 6) * pt:.3f} Td "
                   f"({label}) Tj ET")
    title = (f"Raindropchess corner markers: cut along the grey lines; marker side "
             f"{marker_mm:g} mm. Print at 100% (no fit to page).")
    ops.append(f"BT /F1 9 Tf {20 * pt:.3f} {height - 20 * pt:.3f} Td ({title}) Tj ET")
    content = zlib.compress("\n".join(ops).encode("ascii"))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width:.3f} {height:.3f}] "
         f"/Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>").encode("ascii"),
        f"<< /Length {len(content)} /Filter /FlateDecode >>\nstream\n".encode("ascii")
        + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode("ascii") + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode("ascii")
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode("ascii")
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
            ).encode("ascii")
    return bytes(out)


def write_sheet(path: Path, marker_mm: float = 30.0) -> None:
    """Write the marker sheet to ``path`` (.pdf or .png, true size at 300 dpi)."""
    if not 10 <= marker_mm <= 60:
        raise VisionError(f"marker side must be 10..60 mm to fit the page, got {marker_mm:g}")
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        path.write_bytes(sheet_pdf(marker_mm))
    elif suffix == ".png":
        ok, data = cv2.imencode(".png", sheet_png(marker_mm), )
        if not ok:
            raise VisionError(f"could not encode {path}")
        path.write_bytes(_with_dpi(data.tobytes(), 300))
    else:
        raise VisionError(f"marker sheet must be .pdf or .png, not {path.name!r}")
    LOGGER.info("wrote marker sheet %s", path)


def _with_dpi(png: bytes, dpi: int) -> bytes:
    """Insert a pHYs chunk so printers know the true size."""
    ppm = round(dpi / 0.0254)
    body = b"pHYs" + ppm.to_bytes(4, "big") * 2 + b"\x01"
    chunk = (9).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")
    ihdr_end = 8 + 4 + 4 + 13 + 4
    return png[:ihdr_end] + chunk + png[ihdr_end:]
