"""Moving to PostgreSQL: copy every table of a SQLite database into an empty PostgreSQL one.

``python bot.py copy-to-postgres`` (with the bot stopped): the SQLite file at
``DATABASE_PATH`` is brought to the current schema, then every row of every
table (tables, seats, the action logs, players' choices) is copied into the
database at ``DATABASE_URL`` in one transaction, ids included, so running games
carry on where they were and their buttons keep working.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import asyncpg

from hosting.pg_store import DERIVED, TABLES, PostgresStore, redact
from hosting.store import Store


class CopyRefused(Exception):
    """The copy cannot be made; the message says why and what to do."""


async def copy_sqlite_to_postgres(path: Path, url: str) -> dict[str, int]:
    """Copy every row from the SQLite file ``path`` into the empty PostgreSQL database ``url``.

    Returns the number of rows copied per table. Raises `CopyRefused` when there
    is no SQLite file or the PostgreSQL database already holds tables.
    """
    if not path.is_file():
        raise CopyRefused(f"There is no SQLite database at {path} (DATABASE_PATH) to copy.")
    await (await Store.open(path)).close()  # the file at the current schema, like the target's
    target = await PostgresStore.open(url)  # creates the schema when the database is empty
    await target.close()
    copied: dict[str, int] = {}
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            if await conn.fetchval("SELECT count(*) FROM game_tables"):
                raise CopyRefused(
                    f"The PostgreSQL database at {redact(url)} already holds tables; "
                    "copy only into an empty database."
                )
            with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as src:
                # Every table of the schema, in its order (seats and actions refer to game_tables).
                # The stats and boards are copied as they are: they are the same rows either way.
                for table in TABLES:
                    if table not in DERIVED:  # the triggers fill these from the rows copied
                        copied[table] = await _copy_table(src, conn, table)
            # New tables continue after the copied ids.
            await conn.execute(
                "SELECT setval(pg_get_serial_sequence('game_tables', 'id'), max(id)) FROM game_tables "
                "HAVING max(id) IS NOT NULL"
            )
            await conn.execute(  # leagues (issue #38) likewise
                "SELECT setval(pg_get_serial_sequence('leagues', 'id'), max(id)) FROM leagues "
                "HAVING max(id) IS NOT NULL"
            )
    finally:
        await conn.close()
    return copied


#: The Python type PostgreSQL's binary copy needs per column type: SQLite may hand back an int for
#: a REAL column and vice versa, and keeps booleans as 0 and 1.
_PG_TYPES = {"double precision": float, "boolean": bool, "bigint": int, "integer": int, "smallint": int}


async def _copy_table(src: sqlite3.Connection, conn: asyncpg.Connection, table: str) -> int:
    types = dict(
        await conn.fetch(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = $1",
            table,
        )
    )
    columns = [row[1] for row in src.execute(f"PRAGMA table_info({table})") if row[1] in types]
    rows = src.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()
    convert = [_PG_TYPES.get(types[c]) for c in columns]
    records = [
        tuple(v if v is None or f is None else f(v) for v, f in zip(row, convert, strict=True))
        for row in rows
    ]
    if records:
        await conn.copy_records_to_table(table, records=records, columns=columns)
    return len(records)
