"""The labelled real chessboard photos (tests/vision/data/real_boards, README.md there)."""

from __future__ import annotations

import json
from collections import Counter

import cv2
import pytest

from lab.real_boards import (
    is_later_walnut,
    load_real_boards,
    read_board,
    real_boards_dir,
    wrong_squares,
)
from vision import models
from vision.config import VisionConfig


def test_the_photos_their_labels_and_licences_are_in_the_repository() -> None:
    folder = real_boards_dir()
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert "Public Domain" in readme
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))["images"]
    photos = load_real_boards()
    assert len(photos) == len(labels) >= 100
    for photo in photos:
        image = cv2.imread(str(photo.path))
        assert image is not None, photo.path
        assert max(image.shape[:2]) <= 1024
        assert len(photo.grid) == 8 and all(len(row) == 8 for row in photo.grid)
    splits = Counter(photo.split for photo in photos)
    assert set(splits) == {"dev", "held_out"}
    assert 0.3 <= splits["held_out"] / len(photos) <= 0.5
    # whole boards stay on one side: the empty wooden board is never in dev
    boards = {(photo.board, photo.split) for photo in photos}
    assert ("wood", "dev") not in boards and ("wood", "held_out") in boards
    # the walnut board's later photos (its source's train part, thirteenth session) are
    # split by whole sessions, and no session gives photos to both sides
    walnut = [item for item in labels if item["board"] == "walnut"]
    assert {item["split"] for item in walnut} == {"dev", "held_out"}
    sessions: dict[str, set[str]] = {}
    for item in walnut:
        session = item["source_file"].split("/")[-1][:13]
        sessions.setdefault(session, set()).add(item["split"])
    assert all(len(sides) == 1 for sides in sessions.values()), sessions
    later = [photo for photo in photos if is_later_walnut(photo)]
    assert Counter(photo.split for photo in later) == {"dev": 23, "held_out": 26}
    assert {photo.path.name for photo in later} == {f"walnut_{n}.jpg" for n in range(20, 69)}
    # the boards added later (three with pieces: by the README's rule the one with the
    # fewest photos is held out, the others are in dev; the next batch, two boards with
    # pieces and four empty ones, all in dev; then one board with pieces, in dev; the
    # last, two boards with pieces, in dev)
    for board in ("folding", "mahogany", "hinge", "printed", "greenline", "curled",
                  "ledboard", "sapele", "bwmat", "greywood", "amber"):
        assert (board, "held_out") not in boards and (board, "dev") in boards
    assert ("tournament", "dev") not in boards and ("tournament", "held_out") in boards


def test_the_benchmark_reports_the_later_walnut_photos_apart(
        monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    from benchmarks import bench_real_boards

    photos = load_real_boards(split="held_out")
    two = [next(p for p in photos if p.board == "mat"),
           next(p for p in photos if is_later_walnut(p))]
    monkeypatch.setattr(bench_real_boards, "load_real_boards", lambda: two)
    # how it reports, read by one photo network (the shipped three take most of the time)
    monkeypatch.setattr(bench_real_boards, "VisionConfig", lambda: VisionConfig().replace(
        photo_nets=("occupancy_photo.onnx",)))
    assert bench_real_boards.main(["--split", "held_out"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for key in ("held_out, photos before", "held_out, later walnut", "held_out mat",
                "held_out walnut"):
        assert any(line.startswith(key + " ") and "  1 photos:" in line for line in lines), key
    assert any(line.startswith("held_out ") and "  2 photos:" in line for line in lines)
    assert any(line.strip().startswith("colours unsure:") and "pieces read in the wrong colour"
               in line for line in lines)


def test_the_benchmark_reads_one_board_by_other_networks(
        monkeypatch, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # How a fit trained without a board is judged by the whole reader on that board.
    from benchmarks import bench_real_boards

    dev = load_real_boards(split="dev")
    two = [next(p for p in dev if p.board == "mat"), next(p for p in dev if p.board == "bwmat")]
    monkeypatch.setattr(bench_real_boards, "load_real_boards", lambda: two)
    fit = tmp_path / "fit.onnx"
    fit.write_bytes(models.read_bytes("occupancy.onnx"))
    seen = []
    real_read = bench_real_boards.read_photo

    def read_photo(config, photo, empty):  # type: ignore[no-untyped-def]
        seen.append((config.nets.photo_nets, photo.board))
        return real_read(config, photo, empty)

    monkeypatch.setattr(bench_real_boards, "read_photo", read_photo)
    assert bench_real_boards.main(["--board", "bwmat", "--photo-nets", str(fit)]) == 0
    assert seen == [((str(fit),), "bwmat")]
    lines = capsys.readouterr().out.splitlines()
    config = VisionConfig().replace(photo_nets=("occupancy.onnx",))
    wrong = len(wrong_squares(two[1].grid, read_board(config, two[1])))
    assert any(line.startswith("dev bwmat ") and f", {wrong} wrong;" in line for line in lines)
    assert not any(line.startswith("dev mat ") for line in lines)
    assert not any(line.split()[1:2] == [two[0].path.name] for line in lines if line)
    for bad in (["--board", "nope"], ["--photo-nets", str(tmp_path / "missing.onnx")],
                ["--photo-nets", str(fit), "--photo-weights", "1", "2"]):
        with pytest.raises(SystemExit):
            bench_real_boards.main(bad)
        assert "error:" in capsys.readouterr().err
