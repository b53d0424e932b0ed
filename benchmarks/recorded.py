"""The camera's accuracy figures as recorded in vision/models/manifest.json, for the
benchmarks to print beside what they measure (a figure that moved is said so)."""

from __future__ import annotations

from vision import models


def recorded() -> dict[str, tuple[int, int]]:
    """Every recorded figure by its id: (wrong squares, squares)."""
    out: dict[str, tuple[int, int]] = {}
    for entry in models.manifest()["models"].values():
        if isinstance(entry["accuracy"], list):
            for figure in entry["accuracy"]:
                out[figure["id"]] = (figure["wrong"], figure["squares"])
    return out


def compare(figure_id: str, wrong: int, squares: int) -> str:
    """A line saying how ``wrong`` of ``squares`` compares with the recorded figure."""
    was = recorded().get(figure_id)
    if was is None:
        return f"recorded {figure_id}: none"
    if was == (wrong, squares):
        return f"recorded {figure_id}: {wrong} of {squares}, the same"
    return (f"recorded {figure_id}: {was[0]} of {was[1]}; measured {wrong} of {squares}: "
            "CHANGED (measure every figure again and write them in vision/models/"
            "manifest.json and docs/PERFORMANCE.md)")
