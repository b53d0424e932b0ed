"""The reader apart from its lab: what vision/ imports, and what imports it.

Every module of vision/ is reached from what a user runs (the reader, the ``raindrop
vision`` commands, the app's camera, the entry points); nothing in vision/ imports the
lab, the tests or the benchmarks, or reads the tests' data; vision/ and lab/ have no
import circle. Imports are read from the source (every ``import`` statement, at module
level or inside a function)."""

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


@functools.cache
def _graph() -> dict[str, set[str]]:
    """What each module of vision/, lab/ and ui/ imports (among every module here)."""
    known = {name for package in ("vision", "lab", "ui", "companion", "tests", "benchmarks")
             for name in _modules(package)}
    read = {**_modules("vision"), **_modules("lab"), **_modules("ui")}
    return {name: _imports(name, path, known) for name, path in read.items()}


def test_vision_imports_neither_the_lab_nor_the_tests_nor_the_benchmarks() -> None:
    graph = _graph()
    wrong = {(name, target) for name, targets in graph.items() if name.startswith("vision")
             for target in targets if target.split(".")[0] in ("lab", "tests", "benchmarks")}
    assert wrong == set()
    for path in _modules("vision").values():  # nor does it name the tests' folders
        assert '"tests"' not in path.read_text(encoding="utf-8"), path


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
            stack += [t for t in graph.get(name, ()) if t.split(".")[0] in ("vision", "ui")]
    unreached = sorted(name for name in graph if name.startswith("vision.") and name not in seen)
    assert unreached == []


def test_vision_and_the_lab_have_no_import_circle() -> None:
    graph = _graph()
    inside = {name: {t for t in targets if t.split(".")[0] in ("vision", "lab")}
              for name, targets in graph.items() if name.split(".")[0] in ("vision", "lab")}
    assert [circle for circle in _strongly_connected(inside) if len(circle) > 1] == []


def _strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = set()
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.add(top)
                if top == node:
                    break
            out.append(component)

    for node in graph:
        if node not in index:
            visit(node)
    return out
