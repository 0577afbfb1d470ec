"""Haenyeo's modules import one way (issue #37, item 2): no circle, and no import hidden in a function.

The import graph is read from the sources with `ast`: an edge for every ``import`` and
``from … import`` of a module of the project (``from package import name`` counts as an
import of ``package.name`` when that is a module). A function-local import is how a circle
hides from the module's head, so there are none in ``engine/haenyeo``; and the AI reads
downward only: ``values`` ← ``greedy`` ← ``expert``, ``hints`` from ``values``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "engine" / "haenyeo"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules() -> dict[str, Path]:
    """Every module of the game's package (and the engine modules it may import), by name."""
    return {module_name(p): p for p in [*(ROOT / "engine").glob("*.py"), *PACKAGE.rglob("*.py")]}


def imports(path: Path, known: set[str]) -> tuple[set[str], list[int]]:
    """(project modules ``path`` imports, lines of imports inside functions)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    local: list[int] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            local.extend(n.lineno for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom))
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                inner = f"{node.module}.{alias.name}"
                if inner in known:
                    found.add(inner)
                elif node.module in known:
                    found.add(node.module)
    return found, local


def graph() -> dict[str, set[str]]:
    modules = project_modules()
    return {name: imports(path, set(modules))[0] for name, path in modules.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (or a module importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in edges.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1 or node in edges.get(node, ()):
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_import_circle_in_the_game():
    assert circles(graph()) == []


def test_the_check_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"a"}}) == [["a"]]


def test_no_import_hides_in_a_function():
    modules = project_modules()
    for name, path in modules.items():
        if name.startswith("engine.haenyeo"):
            assert imports(path, set(modules))[1] == [], name


def test_the_ai_imports_downward_only():
    edges = graph()
    ai = "engine.haenyeo.ai"
    allowed = {
        f"{ai}.values": set(),
        f"{ai}.random": set(),
        f"{ai}.greedy": {f"{ai}.values"},
        f"{ai}.expert": {f"{ai}.values", f"{ai}.greedy"},
        f"{ai}.hints": {f"{ai}.values", f"{ai}.greedy", f"{ai}.expert"},
    }
    for module, may in allowed.items():
        assert {m for m in edges[module] if m.startswith(ai)} <= may, module
    # Nothing of the rules engine reads its bots.
    for module, targets in edges.items():
        if not module.startswith(ai) and module.startswith("engine.haenyeo"):
            assert not any(t.startswith(ai) for t in targets), module
