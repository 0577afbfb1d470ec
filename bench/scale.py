"""Scale figures (issue #17): the store with 100,000 tables, 1,000 of them playing.

Run ``python -m bench.scale [--tables N] [--active N] [--moves N] [--pg]``.

1. **Build** a SQLite database of ``--tables`` tables (default 100,000): finished
   games (most), running games (``--active``, default 1,000, each with a bot seat
   and a 24-hour deadline, a few already due), lobbies and cancelled tables, in one
   big server and 200 small ones, among 20,000 players (some play far more than
   others). Every log is a real seeded game of the engine (random legal moves),
   its snapshot is the engine's state after it, and a finished table's result,
   stats, rating, server board and solo board rows are written by the store's own
   finishing code (`hosting.store._record_finished`, `_record_scored`), in bulk
   transactions: the rows are the bot's, only the path is faster.
2. **Start-up**: open that file with `Store.open` and make the queries the bot
   makes before it serves (the running tables with bots to resume, the clock's
   next wake-up and its first pass of due tables).
3. **A sustained stream** of ``--moves`` moves (default 3,000) on random running
   tables through `TableService` (players' moves, then the bot seats' replies),
   from ``--clicks`` concurrent clicks (default 1), each followed by one of the
   reads the bot makes, in turn: a player's open tables (`/games`), their stats
   (`/stats`), a channel's table (every `/game` command), the clock's due tables,
   a player's history (`/history`), a leaderboard page with the caller's place.
   Each figure is the store call's time as the caller sees it (queueing for the
   database included); the move is `append_action`, the whole transaction.

``--pg`` runs steps 2 and 3 on PostgreSQL: the SQLite file is copied into a
scratch database with the bot's own `copy-to-postgres` (``--url``, else
``TEST_POSTGRES_URL`` or ``DATABASE_URL``, else a throwaway server in a
temporary folder, as `bench.pg` does). ``--keep PATH`` keeps (and reuses) the
SQLite file. Figures only: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import gc
import json
import os
import random
import resource
import shutil
import sqlite3
import statistics
import subprocess
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import engine
from bench.stats import percentile
from cogs.players import HISTORY_SHOWN
from hosting import ratings
from hosting import store as sqlite_store
from hosting.records import ACTIVE, CANCELLED, FINISHED, LOBBY, Seat, TableRecord
from hosting.rows import seat_row, to_json
from hosting.service import BOT_LEVELS, TableService
from hosting.store import Store

TARGET_MOVE_P99_MS = 2.0
TARGET_READ_P99_MS = 1.0
TARGET_PG_MOVE_P99_MS = 5.0
#: The summary's target cell for PostgreSQL's reads: issue #17 gives PostgreSQL a move target only.
PG_READ_NOTE = "— (issue #17 sets PostgreSQL a move target only)"

#: The reads timed, in the order the stream makes them.
READS = ("a player's open tables", "stats", "a channel's table", "due deadlines", "history", "leaderboard")

NOW = 1_780_000_000.0  # the benchmark's "now" (a fixed instant, so runs repeat)
DAY = 86_400.0
PACE = int(DAY)  # the running tables' per-move deadline
USERS = 20_000
BIG_GUILD = 1_100_000_000_000_000_001  # the big community; Discord ids are 64-bit snowflakes
SMALL_GUILDS = [1_200_000_000_000_000_000 + 7919 * n for n in range(200)]
CHANNELS_PER_GUILD = 10
BATCH = 2_000  # tables per bulk transaction


# ----------------------------------------------------------------- real games


@dataclass(frozen=True)
class Template:
    """One real seeded game: its log, the snapshot after every move, and its result."""

    game: str
    seats: int
    seed: int
    options: dict[str, str]
    log: list[tuple[int, str]]  # (seat, action as the store writes it)
    states: list[str]  # states[k]: the snapshot after k moves, as the store writes it
    result: dict[str, Any]


def play_template(game_key: str, seats: int, seed: int) -> Template:
    """A complete game of random legal moves, recorded the way the service stores it."""
    game = engine.get(game_key)
    options = {name: allowed[0] for name, allowed in game.options.items()}
    rng = random.Random(seed)
    state = game.new(seats, seed, options)
    log: list[tuple[int, str]] = []
    states = [to_json(game.dump_state(state))]
    while (result := game.result(state)) is None:
        seat = rng.choice(sorted(game.to_act(state)))
        action = rng.choice(game.legal_actions(state, seat))
        state, _ = game.apply(state, seat, action)
        log.append((seat, to_json(game.dump_action(action))))
        states.append(to_json(game.dump_state(state)))
    return Template(game_key, seats, seed, options, log, states, result.to_dict())


def templates(per_kind: int = 3) -> dict[tuple[str, int], list[Template]]:
    """A few real games of every game and seat count the community plays."""
    kinds = [
        ("haenyeo", 2),
        ("haenyeo", 3),
        ("haenyeo", 4),
        ("jeju", 2),
        ("jeju", 3),
        ("jeju", 4),
        ("reef", 1),
    ]
    return {kind: [play_template(*kind, seed=1000 * i + 17) for i in range(per_kind)] for kind in kinds}


# ----------------------------------------------------------------- the build


@dataclass
class Built:
    """What the build made that the run needs."""

    path: Path
    tables: int
    active: list[int]
    users: list[int]
    threads: list[int]
    channels: list[int]
    seconds: float
    actions: int


def _user(rng: random.Random, users: list[int]) -> int:
    """A player; low indexes play much more (the busiest plays a few hundred games in 100,000)."""
    return users[int(len(users) * rng.random() ** 1.3)]


def _people(rng: random.Random, users: list[int], count: int) -> list[int]:
    chosen: list[int] = []
    while len(chosen) < count:
        user = _user(rng, users)
        if user not in chosen:
            chosen.append(user)
    return chosen


def _place(rng: random.Random) -> tuple[int, int]:
    """(server, channel) of a new table: most in the big community."""
    guild = BIG_GUILD if rng.random() < 0.6 else rng.choice(SMALL_GUILDS)
    return guild, guild + 1 + rng.randrange(CHANNELS_PER_GUILD)


def _status(rng: random.Random, index: int, active: set[int]) -> str:
    if index in active:
        return ACTIVE
    roll = rng.random()
    return LOBBY if roll < 0.005 else CANCELLED if roll < 0.02 else FINISHED


def _seats_for(rng: random.Random, users: list[int], template: Template, status: str) -> list[Seat]:
    """People in seat order; the last seat a bot at a running table and at some finished ones."""
    count = template.seats
    bot_last = count > 1 and (status == ACTIVE or rng.random() < 0.2)
    people = _people(rng, users, count - bot_last)
    seats = [Seat(seat=i, name=f"player {u % 10_000}", kind="human", user_id=u) for i, u in enumerate(people)]
    if bot_last:
        seats.append(Seat(seat=count - 1, name="Bot Dol", kind="bot", policy=BOT_LEVELS["normal"]))
    return seats


def _with_moves(seats: list[Seat], log: list[tuple[int, str]]) -> list[Seat]:
    counts = [0] * len(seats)
    for seat, _ in log:
        counts[seat] += 1
    return [Seat(s.seat, s.name, s.kind, s.user_id, s.policy, counts[s.seat]) for s in seats]


def _table_row(
    table_id: int, template: Template, status: str, guild: int, channel: int, seats: list[Seat], moves: int
) -> dict[str, Any]:
    """One ``game_tables`` row as the service leaves it in that status."""
    created = NOW - random.Random(table_id).uniform(0, 365 * DAY) if status != ACTIVE else NOW - DAY
    row: dict[str, Any] = {
        "id": table_id,
        "game": template.game,
        "guild_id": guild,
        "channel_id": channel,
        "thread_id": 1_900_000_000_000_000_000 + table_id,
        "host_id": seats[0].user_id,
        "status": status,
        "options": to_json(template.options),
        "seed": None if status == LOBBY else template.seed,
        "version": len(seats) + 1 + moves,
        "moves": moves,
        "state": None if status == LOBBY else template.states[moves],
        "result": to_json(template.result) if status == FINISHED else None,
        "lobby_message_id": 1_950_000_000_000_000_000 + table_id,
        "board_message_id": None if status == LOBBY else 1_960_000_000_000_000_000 + table_id,
        "created_at": created,
        "updated_at": created + 3 * DAY if status == FINISHED else created,
        "pace": PACE if status == ACTIVE else 0,
        "deadline": None,
        "wake_at": None,
    }
    if status == ACTIVE:
        row["deadline"] = NOW + random.Random(-table_id).uniform(0.05, 1) * DAY
        row["wake_at"] = row["deadline"] - DAY / 2 if table_id % 20 else NOW - 60  # 1 in 20 due now
    elif status == LOBBY:
        row["wake_at"] = NOW + 3_600
    return row


def _insert_table(
    conn: sqlite3.Connection, row: dict[str, Any], seats: list[Seat], log: list[tuple[int, str]]
) -> None:
    names = ", ".join(row)
    conn.execute(
        f"INSERT INTO game_tables ({names}) VALUES ({', '.join('?' * len(row))})", list(row.values())
    )
    conn.executemany(
        "INSERT INTO seats (table_id, seat, name, kind, user_id, policy, moves, timeouts, former) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [seat_row(row["id"], s) for s in seats],
    )
    start = row["created_at"]
    conn.executemany(
        "INSERT INTO actions (table_id, seq, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
        [(row["id"], seq, seat, action, start + seq) for seq, (seat, action) in enumerate(log, start=1)],
    )


def _finish(conn: sqlite3.Connection, row: dict[str, Any], seats: list[Seat], result: dict[str, Any]) -> None:
    """What the finishing move writes besides the table: stats and history lines, and a rating or a
    solo score."""
    record = TableRecord(
        **{
            **row,
            "options": json.loads(row["options"]),
            "state": None,
            "result": result,
            "seats": tuple(seats),
        }
    )
    sqlite_store._record_finished(conn, record, result)
    scored = ratings.scored_game(record, result)
    if scored is not None:
        sqlite_store._record_scored(conn, scored, row["updated_at"])


def build(path: Path, tables: int, active: int, rng: random.Random) -> Built:
    """Write the database (see the module docstring); returns what the run needs."""
    started = time.perf_counter()
    asyncio.run(_create_schema(path))
    games = templates()
    users = [1_000_000_000_000_000_000 + 7 * n for n in range(USERS)]
    running = set(rng.sample(range(tables), min(active, tables)))
    multi = [kind for kind in games if kind[1] > 1]
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous=OFF")  # the build only; the bot's own settings apply when it opens
    actions = 0
    threads: list[int] = []
    channels: list[int] = []
    active_ids: list[int] = []
    for first in range(0, tables, BATCH):
        conn.execute("BEGIN")
        for index in range(first, min(first + BATCH, tables)):
            status = _status(rng, index, running)
            kind = rng.choice(multi) if status == ACTIVE else rng.choice(list(games))
            template = rng.choice(games[kind])
            seats = _seats_for(rng, users, template, status)
            moves = {
                FINISHED: len(template.log),
                ACTIVE: rng.randrange(1, len(template.log)),
                CANCELLED: rng.randrange(0, len(template.log)),
                LOBBY: 0,
            }[status]
            log = template.log[:moves]
            seats = _with_moves(seats, log)
            guild, channel = _place(rng)
            row = _table_row(index + 1, template, status, guild, channel, seats, moves)
            _insert_table(conn, row, seats, log)
            if status == FINISHED:
                _finish(conn, row, seats, template.result)
            actions += len(log)
            threads.append(row["thread_id"])
            channels.append(channel)
            if status == ACTIVE:
                active_ids.append(index + 1)
        conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return Built(path, tables, active_ids, users, threads, channels, time.perf_counter() - started, actions)


async def _create_schema(path: Path) -> None:
    await (await Store.open(path)).close()


# ----------------------------------------------------------------- the run


def rss_mib() -> float:
    """This process's resident memory now, in MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def start_up(open_store: Callable[[], Any]) -> tuple[Any, float]:
    """Open the store and make the queries the bot makes before it serves; (store, seconds)."""
    started = time.perf_counter()
    store = await open_store()
    await store.table_ids(ACTIVE, with_bots=True)  # the running tables whose bots resume
    await store.next_wake()  # the clock's first sleep
    await store.due_tables(NOW)  # and its first pass
    return store, time.perf_counter() - started


#: The label of the store call being timed, for `time_database_thread`.
_LABEL: contextvars.ContextVar[str | None] = contextvars.ContextVar("label", default=None)


class Timed:
    """The store's calls timed as the caller sees them (and on the database thread), by label."""

    def __init__(self) -> None:
        self.times: dict[str, list[float]] = {}
        self.on_thread: dict[str, list[float]] = {}

    async def call(self, label: str, call: Any) -> Any:
        token = _LABEL.set(label)
        started = time.perf_counter()
        try:
            return await call
        finally:
            self.times.setdefault(label, []).append((time.perf_counter() - started) * 1000)
            _LABEL.reset(token)


def time_database_thread(store: Store, timed: Timed) -> None:
    """SQLite: also time each call's own work on the database thread (the SQL and its rows).

    The difference to the caller's time is the hop between the event loop and that
    thread: waiting for the thread, the GIL and the loop, which a busy machine stretches.
    """
    original = store._call

    async def call(fn: Callable[..., Any], *args: Any) -> Any:
        label = _LABEL.get()
        if label is None:
            return await original(fn, *args)

        def run(conn: sqlite3.Connection, *rest: Any) -> Any:
            started = time.perf_counter()
            try:
                return fn(conn, *rest)
            finally:
                timed.on_thread.setdefault(label, []).append((time.perf_counter() - started) * 1000)

        return await original(run, *args)

    store._call = call  # type: ignore[method-assign]


def time_moves(store: Any, timed: Timed) -> None:
    """Time every `append_action` (the accepted move's one transaction) into ``timed``."""
    original = store.append_action

    async def append_action(*args: Any, **kwargs: Any) -> Any:
        return await timed.call("move", original(*args, **kwargs))

    store.append_action = append_action


async def one_read(store: Any, built: Built, rng: random.Random, timed: Timed, n: int) -> None:
    """The ``n``-th read of the stream (they take turns), for a random player or place."""
    kind = READS[n % len(READS)]
    user = _user(rng, built.users)
    if kind == "a player's open tables":
        await timed.call(kind, store.tables_of_user(user))
    elif kind == "stats":
        await timed.call(kind, store.player_stats(user))
    elif kind == "a channel's table":  # what every /game command asks: the open tables playing here,
        # then (none open) the newest table here; mostly in a table's thread, sometimes in a channel.
        where = rng.choice(built.threads) if rng.random() < 0.8 else rng.choice(built.channels)
        await timed.call(kind, store.open_tables_here(where))
        await timed.call(kind + " (the newest)", store.table_in_channel(where))
    elif kind == "due deadlines":
        await timed.call(kind, store.due_tables(NOW))
    elif kind == "history":
        await timed.call(kind, store.finished_games(user, limit=HISTORY_SHOWN))
    else:
        guild = BIG_GUILD if rng.random() < 0.5 else None
        game = rng.choice(("haenyeo", "jeju"))
        await timed.call(
            kind, store.leaderboard(game, guild_id=guild, min_games=3, offset=rng.randrange(3) * 10)
        )
        await timed.call(kind + " (your place)", store.standing(game, user, guild_id=guild, min_games=3))


async def click(service: TableService, table_id: int, rng: random.Random) -> bool:
    """One move at a running table: a player's, then the bot seats' replies; False when it ended."""
    table = await service.get(table_id)
    if table.status != ACTIVE:
        return False
    game = engine.get(table.game)
    state = service.state_of(table)
    people = [s for s in sorted(game.to_act(state)) if not table.seats[s].is_bot]
    if people:
        seat = rng.choice(people)
        await service.submit_action(
            table_id, seat, rng.choice(game.legal_actions(state, seat)), table.version
        )
    while await service.play_bot(table_id) is not None:
        pass
    return (await service.get(table_id)).status == ACTIVE


async def stream(service: TableService, built: Built, moves: int, clicks: int, timed: Timed) -> float:
    """``moves`` clicks from ``clicks`` concurrent players, each followed by a read; seconds taken."""
    running = list(built.active)
    busy: set[int] = set()
    done = 0

    async def player(number: int) -> None:
        nonlocal done
        rng = random.Random(number)
        while done < moves and running:
            table_id = rng.choice(running)
            if table_id in busy:
                await asyncio.sleep(0)
                continue
            busy.add(table_id)
            try:
                if not await click(service, table_id, rng) and table_id in running:
                    running.remove(table_id)
            finally:
                busy.discard(table_id)
            await one_read(service.store, built, rng, timed, done)
            done += 1

    started = time.perf_counter()
    await asyncio.gather(*(player(n) for n in range(clicks)))
    return time.perf_counter() - started


async def measure(open_store: Callable[[], Any], built: Built, moves: int, clicks: int) -> dict[str, Any]:
    """Start-up, then the stream; the figures."""
    gc.collect()
    before = rss_mib()
    store, startup = await start_up(open_store)
    opened = rss_mib()
    timed = Timed()
    time_moves(store, timed)
    if isinstance(store, Store):
        time_database_thread(store, timed)
    service = TableService(store, clock=lambda: NOW, new_seed=lambda: 1)
    try:
        seconds = await stream(service, built, moves, clicks, timed)
        load = os.getloadavg()[0]
    finally:
        service.bots.close()
        await store.close()
    return {
        "startup_s": startup,
        "rss_open_mib": opened,
        "rss_growth_open_mib": opened - before,
        "rss_end_mib": rss_mib(),
        "seconds": seconds,
        "load": load,
        "cores": os.cpu_count(),
        "clicks": clicks,
        "figures": {
            label: {
                "n": len(values),
                "p50_ms": statistics.median(values),
                "p99_ms": percentile(values, 0.99),
                "max_ms": max(values),
            }
            for label, values in timed.times.items()
        },
        "on_thread": {label: percentile(values, 0.99) for label, values in timed.on_thread.items()},
    }


# ----------------------------------------------------------------- PostgreSQL


@asynccontextmanager
async def postgres(url: str | None, sqlite_path: Path) -> AsyncIterator[str]:
    """A scratch PostgreSQL database holding a copy of the SQLite file (the bot's own copy)."""
    import asyncpg

    from hosting.copy_store import copy_sqlite_to_postgres

    async with server(url) as admin_url:
        name = f"seagames_scale_{uuid.uuid4().hex[:8]}"
        admin = await asyncpg.connect(admin_url)
        await admin.execute(f"CREATE DATABASE {name}")
        target = urlunsplit(urlsplit(admin_url)._replace(path="/" + name))
        try:
            await copy_sqlite_to_postgres(sqlite_path, target)
            conn = await asyncpg.connect(target)
            await conn.execute("ANALYZE")  # what autovacuum does soon after a bulk load
            await conn.close()
            yield target
        finally:
            await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            await admin.close()


@asynccontextmanager
async def server(url: str | None) -> AsyncIterator[str]:
    """The given server, or one from the environment, or a throwaway one in a temporary folder."""
    given = url or os.environ.get("TEST_POSTGRES_URL") or os.environ.get("DATABASE_URL")
    if given:
        yield given
        return
    folder = Path(tempfile.mkdtemp(prefix="seagames-scale-pg-"))
    bindir = next(iter(sorted(Path("/usr/lib/postgresql").glob("*/bin"))), None)
    if bindir is None:
        raise SystemExit("--pg: no PostgreSQL here (apt-get install postgresql) and no --url")
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if prefix:
        shutil.chown(folder, "postgres", "postgres")
    data = folder / "data"
    run = lambda *args: subprocess.run([*prefix, *args], check=True, capture_output=True, cwd=folder)  # noqa: E731
    run(str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync")
    # fsync on, as a real server; commits do not wait for their WAL flush (synchronous_commit=off):
    # the durability of the SQLite store's synchronous=NORMAL (a crash may lose the last commits,
    # never corrupts). With it on, every move waits for one fdatasync: 4-7 ms on this machine's disk.
    # Only a Unix socket in the folder, no TCP port.
    options = f"-k {folder} -p 5432 -c listen_addresses= -c shared_buffers=512MB -c synchronous_commit=off"
    run(str(bindir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "log"), "-w", "start")
    try:
        yield f"postgresql://postgres@/postgres?host={folder}&port=5432"
    finally:
        run(str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "stop")
        shutil.rmtree(folder, ignore_errors=True)


# ----------------------------------------------------------------- report


def report(built: Built, found: dict[str, Any], backend: str) -> list[str]:
    """The figures as printed lines."""
    move_target = TARGET_PG_MOVE_P99_MS if backend == "PostgreSQL" else TARGET_MOVE_P99_MS
    startup_ms = found["startup_s"] * 1000
    moves = found["figures"]["move"]["n"]
    lines = [
        f"{backend}: {built.tables:,} tables ({len(built.active):,} running with a bot seat and a 24-hour "
        f"deadline), {built.actions:,} logged actions, {USERS:,} players; built in {built.seconds:.0f} s",
        f"start-up (open the store, resume queries, the clock's first pass): {startup_ms:.0f} ms; "
        f"memory: {found['rss_open_mib']:.0f} MiB resident after opening "
        f"(+{found['rss_growth_open_mib']:.1f} MiB), {found['rss_end_mib']:.0f} MiB after the stream",
        f"stream: {moves:,} move transactions from {found['clicks']} concurrent click(s) "
        f"in {found['seconds']:.1f} s, each click followed by a read; the machine's load average "
        f"{found.get('load', 0):.1f} on {found.get('cores')} cores",
    ]
    if "synchronous_commit" in found:
        lines.append(f"server: synchronous_commit={found['synchronous_commit']}")
    for label, figure in found["figures"].items():
        target = move_target if label == "move" else TARGET_READ_P99_MS
        verdict = "ok" if figure["p99_ms"] <= target else "MISSES"
        judged = f"p99 ≤ {target:g} ms: {verdict}"
        if backend == "PostgreSQL" and label != "move":
            judged = "no target on PostgreSQL"
        thread = found.get("on_thread", {}).get(label)
        inside = f"; on the database thread p99 {thread:.3f} ms" if thread is not None else ""
        lines.append(
            f"{label:<31} n={figure['n']:>5}  p50 {figure['p50_ms']:6.3f} ms  "
            f"p99 {figure['p99_ms']:6.3f} ms  max {figure['max_ms']:6.1f} ms  ({judged}{inside})"
        )
    return lines


def summary_rows(found: dict[str, Any]) -> list[str]:
    """Rows of docs/PERFORMANCE.md's summary (what, measured, target, status) for `python -m bench`."""
    rows = []
    for backend, name, move_target in (
        ("sqlite", "SQLite", TARGET_MOVE_P99_MS),
        ("postgres", "PostgreSQL", TARGET_PG_MOVE_P99_MS),
    ):
        if backend not in found:
            continue
        figures = found[backend]["figures"]
        where = f"{name}, {found['tables']:,} tables"
        move = figures["move"]
        met = _verdict(move["p99_ms"] <= move_target)
        rows.append(
            f"| scale: the move transaction ({where}) | p50 {move['p50_ms']:.2f} ms, "
            f"p99 {move['p99_ms']:.2f} ms | p99 ≤ {move_target:g} ms | {met} |"
        )
        for label, figure in figures.items():
            if label == "move":
                continue
            if backend == "postgres":
                judged = f"{PG_READ_NOTE} | — |"
            else:
                judged = (
                    f"p99 ≤ {TARGET_READ_P99_MS:g} ms | {_verdict(figure['p99_ms'] <= TARGET_READ_P99_MS)} |"
                )
            rows.append(
                f"| scale: read — {label} ({where}) | p50 {figure['p50_ms']:.2f} ms, "
                f"p99 {figure['p99_ms']:.2f} ms | {judged}"
            )
        startup = found[backend]["startup_s"] * 1000
        # The store's own memory is the growth: `python -m bench` runs this after the end-to-end
        # runs, whose heap the process keeps (CPython returns little of it to the system).
        rows.append(
            f"| scale: start-up until the bot can serve ({where}) | {startup:.0f} ms, "
            f"+{found[backend]['rss_growth_open_mib']:.1f} MiB resident on opening "
            f"(the process: {found[backend]['rss_open_mib']:.0f} MiB) | — | — |"
        )
    return rows


def _verdict(met: bool) -> str:
    return "met" if met else "**not met**"


def run(
    tables: int, active: int, moves: int, clicks: int, pg: bool, url: str | None, keep: Path | None
) -> dict:
    """Build (or reuse ``keep``) and measure; returns every figure, and prints them."""
    folder = Path(tempfile.mkdtemp(prefix="seagames-scale-"))
    path = keep or folder / "scale.sqlite3"
    try:
        if keep is None or not keep.exists():
            built = build(path, tables, active, random.Random(1))
            if keep is not None:
                keep.with_suffix(".json").write_text(json.dumps(built.__dict__, default=str))
        else:
            built = Built(**{**json.loads(keep.with_suffix(".json").read_text()), "path": keep})
        found: dict[str, Any] = {
            "sqlite": asyncio.run(measure(lambda: Store.open(path), built, moves, clicks))
        }
        found["lines"] = report(built, found["sqlite"], "SQLite")
        print("\n".join(found["lines"]))
        if pg:
            found["postgres"] = asyncio.run(_measure_pg(url, built, moves, clicks))
            lines = report(built, found["postgres"], "PostgreSQL")
            found["lines"] += lines
            print("\n".join(lines))
        found["tables"] = built.tables
        return found
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def _measure_pg(url: str | None, built: Built, moves: int, clicks: int) -> dict[str, Any]:
    import asyncpg

    from hosting.pg_store import PostgresStore

    async with postgres(url, built.path) as target:
        found = await measure(lambda: PostgresStore.open(target), built, moves, clicks)
        conn = await asyncpg.connect(target)
        found["synchronous_commit"] = await conn.fetchval("SHOW synchronous_commit")
        await conn.close()
        return found


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=100_000, help="tables in the database")
    parser.add_argument("--active", type=int, default=1_000, help="of them running, with a bot seat")
    parser.add_argument("--moves", type=int, default=3_000, help="move transactions in the stream")
    parser.add_argument("--clicks", type=int, default=1, help="clicks in flight at once")
    parser.add_argument("--pg", action="store_true", help="also on PostgreSQL (a copy of the same tables)")
    parser.add_argument("--url", help="the PostgreSQL server for --pg (its role may create databases)")
    parser.add_argument("--keep", type=Path, help="keep the SQLite file here (and reuse it if it exists)")
    parser.add_argument("--json", type=Path, help="also write every figure to this JSON file")
    args = parser.parse_args(argv)
    found = run(args.tables, args.active, args.moves, args.clicks, args.pg, args.url, args.keep)
    if args.json:
        args.json.write_text(json.dumps(found, indent=1))
    return found


if __name__ == "__main__":
    main()
