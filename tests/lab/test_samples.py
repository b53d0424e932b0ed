"""The labelled photos live in the repository, so a fresh clone tests on its own."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from lab.samples import ENV_VAR, load_photos, samples_dir

ROOT = Path(__file__).resolve().parents[2]


def test_the_photos_and_their_licence_are_inside_the_repository(monkeypatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    folder = samples_dir().resolve()
    assert folder.is_relative_to(ROOT), folder
    assert (folder / "LICENSE-Apache-2.0.txt").is_file()
    photos = load_photos(folder)
    assert len(photos) == 13
    assert all(photo.path.is_file() for photo in photos)


def _tracked(*patterns: str) -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", *patterns],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [ROOT / name for name in listed.split()]


def test_no_committed_file_reaches_outside_the_repository() -> None:
    """No code reads the shared folder beside the repository, and no file names a
    path on one machine."""
    outside = re.compile(r"\.\./shared|/work/|/home/[a-z]")
    offenders = []
    for path in _tracked("*.py", "*.md", "*.toml", "*.spec", "*.kv"):
        if path.resolve() == Path(__file__).resolve():
            continue  # the pattern itself
        if path.is_file() and outside.search(path.read_text(encoding="utf-8")):
            offenders.append(path.relative_to(ROOT).as_posix())
    assert offenders == []
