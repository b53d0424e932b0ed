"""The reader apart from its lab: what vision/ imports, and what imports it.

Every module of vision/ is reached from what a user runs (the reader, the ``raindrop
vision`` commands, the app's camera, the entry points); no runtime module (companion/,
vision/, ui/) imports the lab, the tests or the benchmarks, or names their folders in a
path. Imports are read from the source (every ``import`` statement, at module level or
inside a function). Import circles, lab and tests included: tests/companion/
test_import_circles.py."""

from __future__ import annotations

import ast
import functools
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What a user runs besides the entry points: the camera reader, the app's camera screens.
RUNTIME_ROOTS = ("vision.reader", "vision.cli", "ui.camera_feed", "ui.screenshots")


def _modules(package: str) -> dict[str, Path]:
    out = {}
    for path in (ROOT / package).rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``name`` imports, anywhere in it."""
    found = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([node.module] if node.module else [])])
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


RUNTIME = ("companion", "vision", "ui")
NOT_RUNTIME = ("lab", "tests", "benchmarks")


@functools.cache
def _graph() -> dict[str, set[str]]:
    """What each runtime module imports (among every module here)."""
    known = {name for package in (*RUNTIME, *NOT_RUNTIME) for name in _modules(package)}
    read = {name: path for package in RUNTIME for name, path in _modules(package).items()}
    return {name: _imports(name, path, known) for name, path in read.items()}


def _names_a_folder_outside_the_runtime(path: Path) -> list[str]:
    """The string constants of ``path`` that are a path into lab/, tests/ or benchmarks/
    (``"tests"``, ``"lab/scenes.py"``...); prose that mentions a folder is not a path."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            head = node.value.replace("\\", "/").split("/")[0]
            if head in NOT_RUNTIME:
                found.append(node.value)
    return found


def test_no_runtime_module_imports_the_lab_the_tests_or_the_benchmarks() -> None:
    graph = _graph()
    wrong = {(name, target) for name, targets in graph.items()
             for target in targets if target.split(".")[0] in NOT_RUNTIME}
    assert wrong == set()


def test_no_runtime_module_names_a_path_into_the_lab_the_tests_or_the_benchmarks() -> None:
    wrong = {name: found for package in RUNTIME for name, path in _modules(package).items()
             if (found := _names_a_folder_outside_the_runtime(path))}
    assert wrong == {}


def test_the_path_check_sees_a_path_into_the_tests(tmp_path: Path) -> None:
    module = tmp_path / "reads.py"
    module.write_text('from pathlib import Path\nA = Path("tests") / "vision"\n'
                      'B = "tests/vision/data/real_boards/labels.json"\n'
                      'C = "the format of tests/vision/data/real_boards/labels.json"\n')
    assert sorted(_names_a_folder_outside_the_runtime(module)) == [
        "tests", "tests/vision/data/real_boards/labels.json"]


def test_every_module_of_vision_is_reached_from_what_a_user_runs() -> None:
    graph = _graph()
    entry_points = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["entry-points"]
    roots = {value.split(":")[0] for group in entry_points.values() for value in group.values()}
    seen: set[str] = set()
    stack = [*RUNTIME_ROOTS, *roots]
    while stack:
        name = stack.pop()
        if name not in seen:
            seen.add(name)
            stack += graph.get(name, ())
    unreached = sorted(name for name in graph if name.startswith("vision.") and name not in seen)
    assert unreached == []
