"""Database figures on PostgreSQL: the accepted-move transaction, as `bench.db` measures it on SQLite.

Run ``python -m bench.pg [--url URL] [--moves N] [--processes P]``. It plays random
legal moves through `TableService.submit_action` and times `PostgresStore.append_action`
(the one transaction that logs the move, stores the snapshot and bumps the version),
in a scratch database it creates on the server and drops afterwards. ``--processes``
runs that many services, each with its own connection pool, side by side on the
same database (a cluster's processes); each plays its own tables.

The server: ``--url``, else ``TEST_POSTGRES_URL`` or ``DATABASE_URL``, else a
throwaway server started like the tests' (``simtools/pg_server.py``). The role needs
``CREATEDB``. Figures only: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import time
import uuid
from collections.abc import Callable
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bench.db import play
from bench.stats import percentile
from hosting.pg_store import PostgresStore
from hosting.service import TableService


def seeds(n: int) -> Callable[[], int]:
    """A seeded source of game seeds, one per process, so runs repeat."""
    rng = random.Random(n)
    return lambda: rng.randrange(2**62)


async def measure(url: str, moves: int, processes: int = 1) -> dict[str, float]:
    """Time ``moves`` accepted moves per process; return p50 / p99 / max in ms and moves per second."""
    name = f"seagames_bench_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(url)
    await admin.execute(f"CREATE DATABASE {name}")
    bench_url = urlunsplit(urlsplit(url)._replace(path="/" + name))
    try:
        stores = [await PostgresStore.open(bench_url) for _ in range(processes)]
        timings: list[float] = []
        started = time.perf_counter()
        services = [TableService(store, new_seed=seeds(n)) for n, store in enumerate(stores)]
        await asyncio.gather(
            *(play(service, random.Random(n), moves, timings) for n, service in enumerate(services))
        )
        elapsed = time.perf_counter() - started
        for store in stores:
            await store.close()
    finally:
        await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        await admin.close()
    return {
        "moves": len(timings),
        "processes": processes,
        "p50_ms": statistics.median(timings),
        "p99_ms": percentile(timings, 0.99),
        "max_ms": max(timings),
        "moves_per_s": len(timings) / elapsed,
    }


def server_url(given: str | None) -> str:
    """The server to measure on (see the module docstring)."""
    url = given or os.environ.get("TEST_POSTGRES_URL") or os.environ.get("DATABASE_URL")
    if url:
        return url
    from simtools import pg_server

    return pg_server.server_url()


def main(argv: list[str] | None = None) -> list[dict[str, float]]:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", help="a postgresql:// URL whose role may create databases")
    parser.add_argument("--moves", type=int, default=3000, help="moves per process")
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args(argv)
    url = server_url(args.url)
    results = []
    for processes in args.processes:
        figures = asyncio.run(measure(url, args.moves, processes))
        results.append(figures)
        print(
            f"PostgreSQL accepted-move transaction, {processes} process(es), {figures['moves']} moves: "
            f"p50 {figures['p50_ms']:.2f} ms, p99 {figures['p99_ms']:.2f} ms, "
            f"max {figures['max_ms']:.2f} ms; {figures['moves_per_s']:.0f} moves/s in all "
            "(including the engine's work)"
        )
    return results


if __name__ == "__main__":
    main()
