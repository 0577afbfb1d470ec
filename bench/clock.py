"""Idle tables with pending deadlines: what one process holds, and how fast it restores them.

Run ``python -m bench.clock [--tables 10000]``. It builds a database of
``--tables`` running games (the three games in turn, two players each, a
24-hour pace, every deadline in the future): a few dozen are opened and started
through the table service, then cloned row by row, so every table is a real
game state. Then it starts the real bot on that file under SimCord and prints:

- the start-up time until the scheduler has made its first pass over the
  database (every clock restored: nothing is loaded per table; the scheduler
  reads the earliest ``wake_at`` through an index),
- the asyncio tasks the bot runs (one scheduler, no timer per table),
- memory: the process's peak resident size before and after the start,
- the time to handle a batch of tables whose deadlines fall due together
  (each a real timeout: bot moves and a board post). They fall due a minute
  after the restart, not while the bot was down: SimCord gives a bot a fixed
  five seconds to settle when it attaches, and 50 timeouts take longer, so the
  batch is timed through ``env.advance_time`` (which waits as long as the work
  takes) instead. The scheduler handles both the same way: one pass over the
  due tables (`hosting.store` ``due_tables``).

Targets (issue #8): 10,000 tables with pending deadlines restored in under 5 s,
one scheduler.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import sqlite3
import tempfile
import time
from pathlib import Path

from simcord import run

from bot import Config, create_bot
from hosting.service import TableService
from hosting.store import Store
from hosting.stores import open_store
from hosting.timing import PACES

TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"
GAMES = ("haenyeo", "jeju", "reef")
TEMPLATES = 30
#: SimCord's clock starts at 2026-01-01T00:00:00Z; deadlines are counted from there.
SIM_EPOCH = 1767225600.0


async def make_templates(path: Path, guild_id: int, channel_id: int, now: float) -> None:
    """A few real running tables, opened and started through the service."""
    store = await Store.open(path)
    service = TableService(store, clock=lambda: now)
    for n in range(TEMPLATES):
        table = await service.create_table(
            game_key=GAMES[n % 3],
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=1000 + 2 * n,
            host_name=f"player{2 * n}",
            pace=PACES["24 hours"],
        )
        await service.join(table.id, 1001 + 2 * n, f"player{2 * n + 1}")
        await service.start(table.id, 1000 + 2 * n)
    await store.close()


#: When the batch falls due, in simulated seconds after the restart.
DUE_AFTER = 60.0


def clone(path: Path, tables: int, overdue: int, now: float) -> None:
    """Copy the templates until there are ``tables``; the first ``overdue`` copies fall due
    `DUE_AFTER` seconds after ``now`` (the others over the next day)."""
    db = sqlite3.connect(path)
    columns = [row[1] for row in db.execute("PRAGMA table_info(game_tables)") if row[1] != "id"]
    seat_columns = [row[1] for row in db.execute("PRAGMA table_info(seats)") if row[1] != "table_id"]
    names = ", ".join(columns)
    with db:
        for n in range(TEMPLATES, tables):
            source = n % TEMPLATES + 1
            cursor = db.execute(
                f"INSERT INTO game_tables ({names}) SELECT {names} FROM game_tables WHERE id = ?", (source,)
            )
            new_id = cursor.lastrowid
            # Spread the deadlines over the next day; the batch falls due together in a minute.
            deadline = now + DUE_AFTER if n - TEMPLATES < overdue else now + 3600 + (n * 7.3) % 80000
            db.execute(
                "UPDATE game_tables SET deadline = ?, wake_at = ?, reminders = 2 WHERE id = ?",
                (deadline, deadline, new_id),
            )
            seat_names = ", ".join(seat_columns)
            db.execute(
                f"INSERT INTO seats (table_id, {seat_names}) "
                f"SELECT ?, {seat_names} FROM seats WHERE table_id = ?",
                (new_id, source),
            )
    db.close()


async def restart_on(folder: Path, label: str, tables: int, overdue: int) -> dict[str, float]:
    """Fill a database for a running SimCord server, then restart the bot on it and time the start."""
    first = Config(token=TOKEN, database=folder / f"{label}-empty.sqlite3", bot_delay=0.0)
    empty = create_bot(first, await open_store(first))
    async with run(empty, settle_timeout=600) as env:
        guild = env.create_guild("Bench")
        channel = guild.create_text_channel("games")
        path = folder / f"{label}.sqlite3"
        await make_templates(path, guild.id, channel.id, SIM_EPOCH)
        clone(path, tables, overdue, SIM_EPOCH)
        # A running bot has its worker processes up: start them before timing the restart
        # (the pool is shared by the bots of one process), so the figure is the clock's work.
        await empty.bot_pool.start()
        rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        config = Config(token=TOKEN, database=path, bot_delay=0.0)
        started = time.perf_counter()  # from opening the database, as the bot's start did
        bot = create_bot(config, await open_store(config))
        await env.restart_bot(bot)  # returns once the bot is ready and its first pass has settled
        elapsed = time.perf_counter() - started
        await empty.store.close()  # SimCord detaches the old bot without closing it
        rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        schedulers = [task for task in asyncio.all_tasks() if "Clock._run" in repr(task.get_coro())]
        # Every clock is restored: the scheduler sleeps until exactly the earliest pending deadline.
        earliest = await bot.store.next_wake()
        asleep_until = bot.clock._sleeping_until
        assert asleep_until is not None and abs(asleep_until - earliest) < 1, (asleep_until, earliest)
        due_s = 0.0
        if overdue:
            started = time.perf_counter()
            await env.advance_time(DUE_AFTER + 1)  # the batch falls due; returns once all is handled
            due_s = time.perf_counter() - started
            assert not await bot.store.due_tables(SIM_EPOCH + DUE_AFTER + 1, 1), "a due table was left"
        await bot.store.close()
        return {
            "start_s": elapsed,
            "schedulers": len(schedulers),
            "rss_mib": (rss_after - rss_before) / 1024,
            "due_s": due_s,
        }


def main(argv: list[str] | None = None) -> dict[str, float]:
    """Build the databases, restart the bot on them, print and return the figures."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--overdue", type=int, default=50)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        pending = asyncio.run(restart_on(Path(folder), "pending", args.tables, 0))
        late = asyncio.run(restart_on(Path(folder), "overdue", args.overdue + TEMPLATES, args.overdue))
    print(f"{args.tables} running tables with pending 24-hour deadlines, SQLite WAL, one process")
    print(
        f"start-up until the scheduler's first pass: {pending['start_s']:.2f} s (target < 5 s); "
        f"scheduler tasks: {pending['schedulers']} (no timer per table)"
    )
    print(f"peak memory growth while starting on them: {pending['rss_mib']:.1f} MiB")
    print(
        f"{args.overdue} tables whose deadlines fall due together: handled in "
        f"{late['due_s']:.2f} s ({late['due_s'] / args.overdue * 1000:.0f} ms each, "
        "bot moves and a board post included)"
    )
    return {
        "tables": args.tables,
        "start_s": pending["start_s"],
        "schedulers": pending["schedulers"],
        "rss_mib": pending["rss_mib"],
        "overdue": args.overdue,
        "overdue_s": late["due_s"],
    }


if __name__ == "__main__":
    main()
