"""The grid reader: per-point error on held-out synthetic scenes, and time a frame.

Run: ``python -m benchmarks.bench_stone_grid`` (a few scenes; ``RAINDROP_FULL=1``
for 40 of each grid). The peer, measured in the same run on the same frames,
is a plain reader: the mean grey of a disc at each point against the board's
median grey between the points (darker than 0.5x: black, lighter than 1.15x:
white). Timing: warp + read of a 19 x 19 board at 1280 x 720 on one core.

Then full boards: synthetic 19 x 19 scenes 90 to 100% covered (held-out
seeds), and the real photos: ``go_photos`` (mostly empty boards) and
``go_crowded`` (68 to 83% covered), each board with its fullness and its
points read wrong, the dev and held-out parts apart.
"""

from __future__ import annotations

import os
import time
from collections import Counter

import cv2
import numpy as np

from lab.stone_scenes import empty_of, random_stone_scene, render_stones
from vision.grid import (
    GridConfig,
    GridSpec,
    classify_grid,
    make_grid_sampler,
    read_grid,
    warp_grid,
)

FULL = os.environ.get("RAINDROP_FULL") == "1"
SCENES = 40 if FULL else 4
HELD_OUT = 20_000


def plain_read(config: GridConfig, image: np.ndarray, geometry) -> tuple[str, ...]:  # type: ignore[no-untyped-def]
    sampler = make_grid_sampler(config, geometry)
    grey = cv2.cvtColor(warp_grid(config, image, geometry), cv2.COLOR_BGR2GRAY).ravel()
    grey = grey.astype(np.float32)
    board = float(np.median(grey[sampler.between[sampler.between >= 0]]))
    means = np.array([grey[row[row >= 0]].mean() for row in sampler.disc])
    labels = np.where(means < 0.5 * board, "b", np.where(means > 1.15 * board, "w", "."))
    cols = sampler.spec.cols
    return tuple("".join(labels[r * cols:(r + 1) * cols]) for r in range(sampler.spec.rows))


def error_kinds(misread: list[str], spec: GridSpec) -> list[str]:
    """Each wrong point's kind, ``truth->read``, with ``edge`` for the grid's outer lines
    (``wrong_points``' ``row,col truth->read``)."""
    kinds = []
    for item in misread:
        place, kind = item.split()
        row, col = (int(v) for v in place.split(","))
        edge = row in (0, spec.rows - 1) or col in (0, spec.cols - 1)
        kinds.append(kind + (" edge" if edge else ""))
    return kinds


def wrong(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    return sum(x != y for ra, rb in zip(a, b, strict=True) for x, y in zip(ra, rb, strict=True))


def main() -> None:
    cv2.setNumThreads(1)
    config = GridConfig()
    print(f"held-out scenes from seed {HELD_OUT}, {SCENES} per grid")
    for spec_text in ("points:9", "points:13", "points:19", "cells:8"):
        spec = GridSpec.parse(spec_text)
        totals = [0, 0, 0, 0]
        for seed in range(HELD_OUT, HELD_OUT + SCENES):
            scene = random_stone_scene(np.random.default_rng(seed), spec)
            image = render_stones(scene, seed)
            reference = render_stones(empty_of(scene), seed + 1)
            truth = scene.grid()
            totals[0] += wrong(classify_grid(config, image, scene.geometry(), reference).grid,
                               truth)
            totals[1] += wrong(classify_grid(config, image, scene.geometry()).grid, truth)
            totals[2] += wrong(plain_read(config, image, scene.geometry()), truth)
            totals[3] += spec.cols * spec.rows
        n = totals[3]
        print(f"{spec_text:10s} points {n:6d}  wrong with reference {totals[0]:4d} "
              f"({100 * totals[0] / n:.3f}%)  without {totals[1]:4d} ({100 * totals[1] / n:.3f}%)"
              f"  plain peer {totals[2]:4d} ({100 * totals[2] / n:.3f}%)")
    # Full boards: 90 to 100% of the points hold stones.
    spec = GridSpec.parse("points:19")
    totals = [0, 0, 0, 0]
    for seed in range(HELD_OUT, HELD_OUT + SCENES):
        rng = np.random.default_rng(seed)
        scene = random_stone_scene(rng, spec, fraction=float(rng.uniform(0.9, 1.0)))
        image = render_stones(scene, seed)
        reference = render_stones(empty_of(scene), seed + 1)
        truth = scene.grid()
        totals[0] += wrong(classify_grid(config, image, scene.geometry(), reference).grid, truth)
        totals[1] += wrong(classify_grid(config, image, scene.geometry()).grid, truth)
        totals[2] += wrong(plain_read(config, image, scene.geometry()), truth)
        totals[3] += spec.cols * spec.rows
    n = totals[3]
    print(f"full 19x19 points {n:6d}  wrong with reference {totals[0]:4d} "
          f"({100 * totals[0] / n:.3f}%)  without {totals[1]:4d} ({100 * totals[1] / n:.3f}%)"
          f"  plain peer {totals[2]:4d} ({100 * totals[2] / n:.3f}%)")
    # The real photos: every point read wrong.
    from lab.grid_samples import load_grid_photos, photos_dir, wrong_points

    every: dict[str, list[int]] = {"dev": [0, 0], "held-out": [0, 0]}
    for folder in ("go_photos", "go_crowded"):
        photos = load_grid_photos(photos_dir().parent / folder)
        for part in ("dev", "held-out"):
            count = points = 0
            kinds: Counter[str] = Counter()
            for photo in photos:
                if photo.part != part:
                    continue
                image = cv2.imread(str(photo.path))
                misread = wrong_points(photo.rows,
                                       classify_grid(config, image, photo.geometry).grid)
                peer = wrong_points(photo.rows, plain_read(config, image, photo.geometry))
                size = photo.geometry.spec.cols * photo.geometry.spec.rows
                full = sum(len(row) - row.count(".") for row in photo.rows) / size
                count += len(misread)
                points += size
                kinds.update(error_kinds(misread, photo.geometry.spec))
                print(f"real {part:8s} {photo.path.name}: {full:4.0%} full, {len(misread)} wrong "
                      f"(plain peer {len(peer)}) {' '.join(misread)}")
            print(f"real {folder} {part}: {count} of {points} points wrong "
                  f"({100 * count / points:.2f}%); by kind (truth->read): "
                  f"{', '.join(f'{k} {n}' for k, n in kinds.most_common())}")
            every[part][0] += count
            every[part][1] += points
    for part, (count, points) in every.items():
        print(f"real Go photos {part}, all: {count} of {points} points wrong "
              f"({100 - 100 * count / points:.2f}% right)")
    # Time a frame: 19 x 19 at 1280 x 720.
    spec = GridSpec.parse("points:19")
    scene = random_stone_scene(np.random.default_rng(HELD_OUT), spec, size=(1280, 720))
    image = render_stones(scene, 1)
    geometry = scene.geometry()
    sampler = make_grid_sampler(config, geometry)
    runs = 50

    def ours() -> None:
        read_grid(config, sampler, warp_grid(config, image, geometry))

    def peer() -> None:
        plain_read(config, image, geometry)

    results = {}
    for name, func in (("grid reader", ours), ("plain peer", peer)):
        func()
        start = time.perf_counter()
        for _ in range(runs):
            func()
        results[name] = (time.perf_counter() - start) / runs
        print(f"{name:12s} {1000 * results[name]:.2f} ms a frame (19x19, 1280x720, one core)")
    print(f"ratio grid reader / plain peer: {results['grid reader'] / results['plain peer']:.2f}")


if __name__ == "__main__":
    main()
