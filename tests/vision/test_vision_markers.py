"""The printable marker sheet: true size, detectable, and a valid PDF."""

from __future__ import annotations

import re

import cv2
import numpy as np
import pytest

from vision.config import VisionConfig
from vision.errors import VisionError
from vision.markers import sheet_pdf, sheet_png, write_sheet


def test_png_sheet_is_a4_at_300_dpi_with_four_detectable_markers_of_true_size() -> None:
    page = sheet_png(30.0, dpi=300)
    assert page.shape == (3508, 2480)
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50),
        cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(page)
    assert sorted(ids.ravel().tolist()) == list(VisionConfig().locate.marker_ids)
    for quad in corners:
        side_px = np.linalg.norm(quad[0][0] - quad[0][1])
        assert side_px / 300 * 25.4 == pytest.approx(30.0, abs=0.3)


def test_pdf_sheet_is_well_formed_and_true_size() -> None:
    data = sheet_pdf(30.0)
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    xref = int(re.search(rb"startxref\n(\d+)", data).group(1))  # type: ignore[union-attr]
    assert data[xref:xref + 4] == b"xref"
    # Every object offset in the table points at that object.
    offsets = [int(m) for m in re.findall(rb"(\d{10}) 00000 n", data)]
    for number, offset in enumerate(offsets, start=1):
        assert data[offset:].startswith(f"{number} 0 obj".encode())
    assert b"/MediaBox [0 0 595.276 841.890]" in data


def test_write_sheet_refuses_other_formats_and_sizes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(VisionError, match=r"\.pdf or \.png"):
        write_sheet(tmp_path / "m.jpg")
    with pytest.raises(VisionError, match=r"10\.\.60 mm"):
        write_sheet(tmp_path / "m.pdf", 200)
    write_sheet(tmp_path / "m.png", 25)
    assert cv2.imread(str(tmp_path / "m.png")) is not None
