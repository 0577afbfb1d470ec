"""Which store a configuration asks for: PostgreSQL when ``DATABASE_URL`` is set, else SQLite.

One process on one machine: the SQLite file at ``DATABASE_PATH`` (the default).
Several processes (shards) sharing the tables: PostgreSQL at ``DATABASE_URL``.
Both stores satisfy one interface (`hosting.store_api.TableStore`) and return
the same records (`hosting.records`), so nothing above this module knows which
one it has.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeAlias

from hosting.pg_store import DatabaseUnavailable, PostgresStore, redact
from hosting.store import Store
from hosting.store_api import TableStore

__all__ = ["AnyStore", "DatabaseUnavailable", "TableStore", "describe", "is_postgres_url", "open_store"]

#: Either store: the interface both satisfy (tests/hosting/test_store_interface.py checks that they do;
#: tests/hosting/test_store.py runs its suite on both). An alias for older imports.
AnyStore: TypeAlias = TableStore

#: URL schemes that select PostgreSQL (libpq accepts both spellings).
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(url: str) -> bool:
    """True for a ``postgresql://`` (or ``postgres://``) URL."""
    return url.strip().lower().startswith(POSTGRES_SCHEMES)


def database_url(config: Any) -> str | None:
    """The configuration's PostgreSQL URL, or None when it uses SQLite."""
    return getattr(config, "database_url", None) or None


async def open_store(config: Any) -> TableStore:
    """Open (and migrate) the store the configuration names.

    Raises `SchemaTooNew` for a database from a newer bot, and `DatabaseUnavailable`
    when PostgreSQL cannot be reached.
    """
    url = database_url(config)
    if url:
        count, ids = getattr(config, "shard_count", None), getattr(config, "shard_ids", None)
        # Only when other processes run the other shards: this one schedules its own servers' tables.
        shards = (count, ids) if count is not None and ids is not None else None
        return await PostgresStore.open(url, shards=shards)
    return await Store.open(Path(config.database))


def describe(config: Any) -> str:
    """Where the tables live, for logs and messages (no password)."""
    url = database_url(config)
    return f"PostgreSQL at {redact(url)}" if url else f"SQLite file {config.database}"
