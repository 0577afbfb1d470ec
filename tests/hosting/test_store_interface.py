"""Both stores satisfy the one store interface, as a type checker sees it.

`hosting.store_api.TableStore` is what the service, the cogs and the tools are
typed with. Here mypy checks a tiny module that hands each store to something
expecting a `TableStore`: a store that lost a method, or whose method's
parameters or result drifted from the interface, fails this test. The same
module hands over a deliberately drifted store, which mypy must report, so the
check is seen to fail when it should. And the layers keep to the interface: no
cog imports a store module, and the PostgreSQL store nothing of the SQLite one.
"""

from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api", reason="mypy is in the test extra (pip install -e '.[test]')")

ROOT = Path(__file__).resolve().parents[2]

#: Each line that must type-check ends in "# ok"; the one that must not, in "# drifted".
CHECKED = textwrap.dedent(
    """
    from hosting.pg_store import PostgresStore
    from hosting.service import TableService
    from hosting.store import Store
    from hosting.store_api import TableStore
    from hosting.stores import open_store


    class Drifted(Store):
        # A store whose reminder claim forgot the caller's next wake-up time.
        async def claim_reminder(  # type: ignore[override]
            self, table_id: int, version: int, *, sent: int
        ) -> bool:
            return True


    def sqlite(store: Store) -> TableStore:
        return store  # ok


    def postgres(store: PostgresStore) -> TableStore:
        return store  # ok


    def service(store: PostgresStore) -> TableService:
        return TableService(store)  # ok


    async def opened() -> TableStore:
        return await open_store(None)  # ok


    def drifted(store: Drifted) -> TableStore:
        return store  # drifted
    """
)


def test_both_stores_satisfy_the_store_interface(tmp_path, monkeypatch):
    """mypy finds no error handing either store over as a `TableStore`, and one for a drifted store."""
    checked = tmp_path / "store_interface_check.py"
    checked.write_text(CHECKED)
    monkeypatch.setenv("MYPYPATH", str(ROOT))
    monkeypatch.chdir(ROOT)
    out, err, status = api.run(
        [
            str(checked),
            # The stores' own modules are read for their types, their own errors not reported:
            # this checks the interface, not every line of the stores.
            "--follow-imports=silent",
            "--cache-dir",
            str(tmp_path / "mypy-cache"),
            "--no-error-summary",
            "--show-error-codes",
            "--hide-error-context",
        ]
    )
    lines = CHECKED.splitlines()
    reported = {
        int(m.group(1)): m.group(2)
        for m in re.finditer(rf"^{re.escape(str(checked))}:(\d+): error: (.*)$", out, re.M)
    }
    for number, line in enumerate(lines, start=1):
        if line.endswith("# ok"):
            assert number not in reported, f"line {number} ({line.strip()}): {reported[number]}\n{out}{err}"
    drifted = [n for n, line in enumerate(lines, start=1) if line.endswith("# drifted")]
    assert drifted and all(n in reported for n in drifted), f"mypy missed the drifted store:\n{out}{err}"
    assert "claim_reminder" in out, out
    assert set(reported) == set(drifted), f"unexpected errors:\n{out}{err}"
    assert status == 1 and not err, (status, err)


def imports_of(path: Path) -> set[str]:
    """The modules a file imports (``from a.b import c`` gives a.b and a.b.c)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_the_cogs_import_no_store_module():
    """The cogs see records (`hosting.records`) and the service, never a database adapter."""
    stores = {"hosting.store", "hosting.pg_store", "hosting.stores"}
    offenders = {
        path.name: sorted(imports_of(path) & stores) for path in sorted((ROOT / "cogs").glob("*.py"))
    }
    assert not {name: found for name, found in offenders.items() if found}


def test_the_postgres_store_imports_nothing_from_the_sqlite_store():
    """What both stores share lives in `hosting.records`, `hosting.rows` and `hosting.migrations`."""
    imported = imports_of(ROOT / "hosting" / "pg_store.py")
    assert not {name for name in imported if name == "hosting.store" or name.startswith("hosting.store.")}
