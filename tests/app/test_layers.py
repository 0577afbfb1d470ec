"""The house's shape, checked: layers run one way and nothing imports in a circle (issue #37).

The contracts live in pyproject.toml's ``[tool.importlinter]`` and are checked with
import-linter, which counts every import, those inside functions too. It takes packages
only, so the program's five top-level modules (``bot``, ``cli``, ``config``, ``gamebot``,
``offline``) are checked here: no package module imports them (a contract), and among
themselves their imports run one way (below).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]
TOP_MODULES = ("bot", "cli", "config", "gamebot", "offline")
#: The product's packages (the tests, benchmarks and simulator tools import them, not the other way).
PACKAGES = ("cogs", "hosting", "engine", "renderers", "i18n")


def test_the_import_contracts_hold():
    """Layers one way, no circle inside any package, cogs away from the stores, bench away from tests."""
    # In a process of its own, as `lint-imports` runs: import-linter configures logging with
    # `dictConfig`, which would switch off every logger already made in this one.
    code = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(no_cache=True))"
    run = [sys.executable, "-c", code]
    done = subprocess.run(run, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr  # the broken contracts and why


def imported_by(module: str) -> set[str]:
    """The top-level modules ``module``.py imports, anywhere in it (inside functions too)."""
    tree = ast.parse((ROOT / f"{module}.py").read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names & set(TOP_MODULES)


def circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle in ``graph`` (module -> modules it imports), or None."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        for other in sorted(graph[module]):
            if found := visit(other, [*path, module]):
                return found
        done.add(module)
        return None

    return next((found for module in sorted(graph) if (found := visit(module, []))), None)


def test_no_module_of_the_product_imports_itself_in_a_circle():
    """No circle at all, a package and its own modules included (import-linter's contract looks
    between siblings only; grimp, which it is built on, gives the whole graph). Imports under
    ``if TYPE_CHECKING:`` never run and are left out."""
    graph = grimp.build_graph(*PACKAGES, cache_dir=None, exclude_type_checking_imports=True)
    edges = {module: set(graph.find_modules_directly_imported_by(module)) for module in graph.modules}
    assert circle(edges) is None, " -> ".join(circle(edges) or [])


def test_the_entry_modules_import_one_way():
    """bot.py -> cli.py -> gamebot.py -> config.py, offline.py beside them: no circle among them."""
    graph = {module: imported_by(module) for module in TOP_MODULES}
    assert circle(graph) is None, " -> ".join(circle(graph) or [])
    # The check can fail: a circle is found when there is one.
    assert circle({**graph, "config": graph["config"] | {"bot"}}) is not None
