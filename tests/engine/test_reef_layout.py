"""Reef & Ruins' modules import one way (issue #37): no import circle, none hidden inside a function.

The graph is read from the source with `ast`: every ``import`` and ``from … import``
of an ``engine.reef`` module, at any depth of the file. A name imported from a
package counts as its submodule when there is one (``from engine.reef import rules``).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "engine.reef"


def modules() -> dict[str, Path]:
    """Every module of the package, by dotted name."""
    found = {}
    for path in sorted((ROOT / "engine" / "reef").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(path: Path, known: dict[str, Path]) -> list[tuple[str, ast.stmt, bool]]:
    """(module imported, the statement, whether it sits inside a function) for each package import."""
    out: list[tuple[str, ast.stmt, bool]] = []

    def visit(node: ast.AST, local: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = local or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            if isinstance(child, ast.Import):
                out.extend((a.name, child, inner) for a in child.names if a.name.startswith(PACKAGE))
            elif isinstance(child, ast.ImportFrom) and child.module and child.module.startswith(PACKAGE):
                for alias in child.names:
                    sub = f"{child.module}.{alias.name}"
                    out.append((sub if sub in known else child.module, child, inner))
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return out


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: {target for target, _, _ in imports(path, known)} - {name} for name, path in known.items()}


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import circle, as the modules around it, or None."""
    state: dict[str, int] = {}
    trail: list[str] = []

    def walk(name: str) -> list[str] | None:
        state[name] = 1
        trail.append(name)
        for target in sorted(edges.get(name, ())):
            if state.get(target) == 1:
                return [*trail[trail.index(target) :], target]
            if target not in state and (found := walk(target)):
                return found
        state[name] = 2
        trail.pop()
        return None

    for name in sorted(edges):
        if name not in state and (found := walk(name)):
            return found
    return None


def test_the_check_finds_a_circle():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_reef_has_no_import_circle():
    edges = graph()
    assert {"engine.reef.ai", "engine.reef.ai.values", "engine.reef.state", "engine.reef.rules"} <= set(edges)
    assert cycle(edges) is None, " -> ".join(cycle(edges) or [])


def test_no_reef_module_imports_another_inside_a_function():
    known = modules()
    hidden = [
        f"{path.relative_to(ROOT)}:{node.lineno} imports {target}"
        for path in known.values()
        for target, node, local in imports(path, known)
        if local
    ]
    assert hidden == []


def test_the_bots_import_only_downward():
    """values <- greedy <- expert; hints counts with the values; the registry on top."""
    edges = graph()
    ai = {name for name in edges if name.startswith("engine.reef.ai.")}
    assert not edges["engine.reef.ai.values"] & ai
    assert edges["engine.reef.ai.greedy"] & ai == {"engine.reef.ai.values"}
    assert edges["engine.reef.ai.expert"] & ai == {"engine.reef.ai.values", "engine.reef.ai.greedy"}
    assert edges["engine.reef.ai.hints"] & ai == {"engine.reef.ai.values"}
    below = {name for name in edges if not name.startswith("engine.reef.ai")}
    assert all(not edges[name] & (ai | {"engine.reef.ai"}) for name in below), "the rules import the bots"
