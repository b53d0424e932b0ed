"""No import circles in the core, the app, the camera reader, its lab, the tests or the
benchmarks.

Every import counts, at the top of a module, inside a function or under
``TYPE_CHECKING``: an import tucked into a function to dodge a circle is still a circle
(a sign that a function lives in the wrong room). Pure ``ast``: nothing is imported.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("companion", "ui", "vision", "lab", "tests", "benchmarks")


def _modules(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imported(module: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """The known modules ``module`` imports (``from pkg import name`` counts ``pkg.name``
    when that is a module, else ``pkg``); importing a submodule imports its packages."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            targets = [f"{base}.{alias.name}" for alias in node.names]
        for target in targets:
            found = resolve(target)
            if found is None or found == module:
                continue
            yield found
            parts = found.split(".")
            for cut in range(1, len(parts)):
                parent = ".".join(parts[:cut])
                if parent in known and not module.startswith(parent + "."):
                    yield parent


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


def _graph(known: dict[str, Path]) -> dict[str, set[str]]:
    return {name: set(_imported(name, path, known)) for name, path in known.items()}


def test_the_finder_sees_a_circle_hidden_in_a_function(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "game.py").write_text("from pkg import rules\n")
    (package / "rules.py").write_text("def f():\n    from .notation import g\n")
    (package / "notation.py").write_text("import typing\nif typing.TYPE_CHECKING:\n"
                                         "    from pkg.game import Game\n")
    (package / "other.py").write_text("from pkg.game import x\n")
    circles = _circles(_graph(_modules(tmp_path, ("pkg",))))
    assert circles == [["pkg.game", "pkg.notation", "pkg.rules"]]
    (package / "notation.py").write_text("")
    assert _circles(_graph(_modules(tmp_path, ("pkg",)))) == []


def test_no_import_circle_anywhere() -> None:
    known = _modules()
    assert {"companion.game", "ui.app", "vision.reader", "lab.scenes", "benchmarks.bench_vision",
            "tests.vision.test_layout"} <= known.keys()
    graph = _graph(known)
    circles = _circles(graph)
    described = ["; ".join(f"{a} -> {b}" for a in group for b in sorted(graph[a]) if b in group)
                 for group in circles]
    assert not circles, "import circles: " + " | ".join(described)
