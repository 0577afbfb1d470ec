"""The one list of migrations gives both stores the same schema.

An empty SQLite file and an empty PostgreSQL database, each migrated by its own
store to `SCHEMA_VERSION` from `hosting.migrations`, have the same tables with the
same columns (by name; the types are each database's own), but for the few
`SQLITE_ONLY_COLUMNS` the migrations list with their reasons.
"""

from __future__ import annotations

import sqlite3

import asyncpg

from hosting import pg_store
from hosting.migrations import MIGRATIONS, SCHEMA_VERSION, SQLITE_ONLY_COLUMNS
from hosting.pg_store import PostgresStore
from hosting.store import Store
from simtools import pg_server

#: The columns only SQLite has, each with its reason (hosting/migrations.py).
SQLITE_ONLY = set(SQLITE_ONLY_COLUMNS)


async def sqlite_schema(path) -> dict[str, set[str]]:
    store = await Store.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
    finally:
        await store.close()
    with sqlite3.connect(path) as raw:
        tables = [
            row[0]
            for row in raw.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        return {table: {row[1] for row in raw.execute(f"PRAGMA table_info({table})")} for table in tables}


async def postgres_schema(url: str) -> dict[str, set[str]]:
    store = await PostgresStore.open(url, max_size=2)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
    finally:
        await store.close()
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' AND table_name <> $1",
            pg_store.VERSION_TABLE,  # where PostgreSQL keeps the version SQLite keeps in user_version
        )
    finally:
        await conn.close()
    schema: dict[str, set[str]] = {}
    for row in rows:
        schema.setdefault(row["table_name"], set()).add(row["column_name"])
    return schema


async def test_both_stores_migrate_an_empty_database_to_the_same_tables_and_columns(tmp_path):
    """Every table and every column of one store's schema is in the other's (see `SQLITE_ONLY`)."""
    sqlite = await sqlite_schema(tmp_path / "empty.sqlite3")
    async with pg_server.scratch_database() as url:
        postgres = await postgres_schema(url)
    assert sorted(sqlite) == sorted(postgres)
    assert set(pg_store.TABLES) == set(postgres), "hosting.pg_store.TABLES lists every table"
    for table in sorted(sqlite):
        only_sqlite = {c for c in sqlite[table] - postgres[table] if (table, c) not in SQLITE_ONLY}
        assert not only_sqlite, f"{table}: columns only SQLite has: {sorted(only_sqlite)}"
        only_postgres = postgres[table] - sqlite[table]
        assert not only_postgres, f"{table}: columns only PostgreSQL has: {sorted(only_postgres)}"
    for table, column in SQLITE_ONLY:  # each exception is still needed
        assert column in sqlite[table] and column not in postgres[table], (table, column)


def test_every_schema_version_has_both_texts():
    """Versions run 1, 2, 3 ... and each has its SQLite and its PostgreSQL statements."""
    assert [m.version for m in MIGRATIONS] == list(range(1, SCHEMA_VERSION + 1))
    for migration in MIGRATIONS:
        assert migration.sqlite and migration.postgres, migration.version
        assert all(isinstance(s, str) and s.strip() for s in migration.sqlite + migration.postgres)
