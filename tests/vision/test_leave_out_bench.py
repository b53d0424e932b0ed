"""benchmarks/bench_leave_out.py: two readers on development boards left out of their fits."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchmarks import bench_leave_out
from benchmarks.bench_leave_out import beyond_chance, clusters, verdict
from lab.real_boards import load_real_boards, read_board, wrong_squares
from vision.config import VisionConfig

MODELS = Path(__file__).parents[2] / "vision" / "models"


def test_the_verdict_is_the_sign_tests_two_standard_deviations() -> None:
    # 5 against 0: 5 > 2 sqrt(5) = 4.47; 4 against 0: 4 > 4 is not
    assert beyond_chance(5, 0) and not beyond_chance(4, 0)
    assert verdict(5, 0) == "worse beyond chance"
    assert verdict(0, 5) == "better beyond chance"
    assert verdict(4, 0) == verdict(0, 4) == verdict(0, 0) == "within chance"
    # the twenty-first candidate's development photos: new 8, fixed 2 (6 < 6.32)
    assert verdict(8, 2) == "within chance"
    # the same candidate on the four boards left out: new 8, fixed 21 (13 > 10.77)
    assert verdict(8, 21) == "better beyond chance"


def test_frames_of_one_position_count_once_as_clusters() -> None:
    misses = {("a_01.jpg", "a", 0, "b"), ("a_02.jpg", "a", 0, "b"),
              ("a_02.jpg", "a", 0, "w"), ("b_01.jpg", "b", 0, "b")}
    assert clusters(misses) == {("a", 0, "b"), ("a", 0, "w"), ("b", 0, "b")}


@pytest.fixture()
def two_boards(monkeypatch):  # type: ignore[no-untyped-def]
    dev = load_real_boards(split="dev")
    # mat_44: the game network reads c1 wrong, the first photo network reads it right
    two = [next(p for p in dev if p.path.name == "mat_44.jpg"),
           next(p for p in dev if p.board == "bwmat")]
    monkeypatch.setattr(bench_leave_out, "load_real_boards", lambda split: two)
    return two


def test_each_board_is_read_by_its_own_fits_and_compared_square_by_square(
        two_boards, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    # a fit "without mat" for each reader; none for bwmat, which is then not read
    shutil.copy(MODELS / "occupancy_photo.onnx", tmp_path / "mat_new.onnx")
    shutil.copy(MODELS / "occupancy.onnx", tmp_path / "mat_old.onnx")
    assert bench_leave_out.main(["--nets", str(tmp_path / "{board}_new.onnx"),
                                 "--peer-nets", str(tmp_path / "{board}_old.onnx")]) == 0
    out = capsys.readouterr().out.splitlines()
    photo = two_boards[0]

    def wrong(name: str) -> set[str]:
        config = VisionConfig().replace(photo_nets=(str(tmp_path / name),))
        return {w.split()[0] for w in wrong_squares(photo.grid, read_board(config, photo))}

    mine, theirs = wrong("mat_new.onnx"), wrong("mat_old.onnx")
    assert mine != theirs  # the two networks read this photo differently
    new, fixed = len(mine - theirs), len(theirs - mine)
    expected = (f"candidate {len(mine):4d} wrong, peer {len(theirs):4d}: new {new}, "
                f"fixed {fixed}: {verdict(new, fixed)}")
    assert any(line.startswith("mat ") and line.endswith(expected) for line in out), out
    assert any(line.startswith("together ") and line.endswith(expected) for line in out)
    assert not any(line.startswith("bwmat ") for line in out)
    listed = {line.split()[1]: line.split()[-1] for line in out
              if line.startswith(photo.path.name)}
    assert listed == {**{s: "both" for s in mine & theirs}, **{s: "new" for s in mine - theirs},
                      **{s: "fixed" for s in theirs - mine}}
    assert any(line.startswith("ratio peer / candidate") for line in out)


def test_moved_reads_and_weights_reach_the_reader(
        two_boards, tmp_path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    shutil.copy(MODELS / "occupancy_photo.onnx", tmp_path / "bwmat_a.onnx")
    shutil.copy(MODELS / "occupancy_photo_seed1.onnx", tmp_path / "bwmat_b.onnx")
    seen = []
    real = bench_leave_out.read_board

    def read(config, photo):  # type: ignore[no-untyped-def]
        seen.append((config.nets.photo_nets, config.nets.photo_net_weights, config.nets.photo_shift,
                     config.nets.photo_shifted_nets))
        return real(config, photo)

    monkeypatch.setattr(bench_leave_out, "read_board", read)
    a, b = str(tmp_path / "{board}_a.onnx"), str(tmp_path / "{board}_b.onnx")
    assert bench_leave_out.main(["--nets", a, b, "--weights", "1", "3", "--shift", "0.1",
                                 "--shifted", "1", "--boards", "bwmat"]) == 0
    files = (str(tmp_path / "bwmat_a.onnx"), str(tmp_path / "bwmat_b.onnx"))
    # the candidate, then its peer: the same networks and weights, read as they are
    assert seen == [(files, (1.0, 3.0), 0.1, files[1:]), (files, (1.0, 3.0), 0.0, ())]
    assert "within chance" in capsys.readouterr().out


def test_bad_options_are_named(two_boards, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    shutil.copy(MODELS / "occupancy_photo.onnx", tmp_path / "bwmat_a.onnx")
    fit = str(tmp_path / "{board}_a.onnx")
    for bad, says in (
            (["--nets", str(tmp_path / "bwmat_a.onnx")], "holding {board}"),
            (["--nets", fit, "--boards", "nope"], "no development photos of ['nope']"),
            (["--nets", fit, "--boards", "mat"], "no such network file"),
            (["--nets", str(tmp_path / "{board}_z.onnx")], "no development board has all"),
            (["--nets", fit, "--shifted", "1"], "--shifted [1]"),
            (["--nets", fit, "--shift", "0.7"], "--shift 0.7"),
            (["--nets", fit, "--weights", "1", "2"], "--weights")):
        with pytest.raises(SystemExit):
            bench_leave_out.main(bad)
        assert says in capsys.readouterr().err, bad
