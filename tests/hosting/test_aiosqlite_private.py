"""The two private names of aiosqlite the SQLite store relies on still do what it needs.

`hosting.store.Store._call` runs a whole transaction as one function on the
connection's thread: one hop between the event loop and the database per call
(issue #17; it was 13 with aiosqlite's public per-statement methods). aiosqlite has
no public way to run a function there, so `_call` uses `Connection._execute` (which
every public method of aiosqlite is built on) and `Connection._conn` (the
`sqlite3.Connection` its thread owns). pyproject.toml pins aiosqlite to the releases
checked here; a release that changes either name or its behaviour fails these
tests before it can fail a move.
"""

from __future__ import annotations

import asyncio
import inspect
import sqlite3
import threading
import time

import aiosqlite
import pytest

from hosting.store import Store


def test_the_private_names_exist_with_the_shapes_used():
    """`_execute(fn, *args, **kwargs)` is a coroutine; `_conn` a property."""
    assert inspect.iscoroutinefunction(aiosqlite.Connection._execute)
    parameters = inspect.signature(aiosqlite.Connection._execute).parameters
    assert [p.kind for p in parameters.values()] == [
        inspect.Parameter.POSITIONAL_OR_KEYWORD,  # self
        inspect.Parameter.POSITIONAL_OR_KEYWORD,  # fn
        inspect.Parameter.VAR_POSITIONAL,
        inspect.Parameter.VAR_KEYWORD,
    ]
    assert isinstance(inspect.getattr_static(aiosqlite.Connection, "_conn"), property)


async def test_execute_runs_a_function_on_the_connections_own_thread_one_call_at_a_time():
    """What `Store._call` relies on: the function gets the arguments, runs on one thread other than
    the loop's (the one that owns `_conn`), returns or raises to the caller, and calls queued together
    run one after another, in order (so two transactions never interleave)."""
    db = await aiosqlite.connect(":memory:", isolation_level=None)
    try:
        conn = db._conn
        assert isinstance(conn, sqlite3.Connection)

        def where(raw: sqlite3.Connection, a: int, *, b: int) -> tuple[int, int]:
            assert raw is conn
            raw.execute("SELECT 1").fetchone()  # sqlite3 refuses a thread that does not own it
            return threading.get_ident(), a + b

        first, total = await db._execute(where, conn, 2, b=3)
        second, _ = await db._execute(where, conn, 0, b=0)
        assert total == 5 and first == second != threading.get_ident()

        def boom(raw: sqlite3.Connection) -> None:
            raise sqlite3.IntegrityError("refused")

        with pytest.raises(sqlite3.IntegrityError, match="refused"):
            await db._execute(boom, conn)

        log: list[tuple[str, int]] = []

        def step(raw: sqlite3.Connection, n: int) -> int:
            log.append(("begin", n))
            time.sleep(0.005)  # a slow transaction: the next call must wait for it
            log.append(("end", n))
            return n

        done = await asyncio.gather(*(db._execute(step, conn, n) for n in range(5)))
        assert done == list(range(5))
        assert log == [(edge, n) for n in range(5) for edge in ("begin", "end")]
    finally:
        await db.close()


async def test_the_store_runs_its_calls_on_the_connections_thread(tmp_path):
    """`Store._call` is exactly that: its function gets the connection aiosqlite's thread owns."""
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        ident, version = await store._call(
            lambda conn: (threading.get_ident(), conn.execute("PRAGMA user_version").fetchone()[0])
        )
        assert ident != threading.get_ident() and version == await store.schema_version() > 0
    finally:
        await store.close()
