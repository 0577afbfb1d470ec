"""What the bot is doing, for monitoring: Prometheus' text format via ``prometheus-client``.

Off by default. ``METRICS_PORT`` turns on an HTTP endpoint (``/metrics``) bound to
``METRICS_ADDRESS`` (127.0.0.1 unless configured); ``python bot.py status`` prints
the same figures once for an admin at a terminal.

The figures (every name starts ``seagames_``):

- ``tables{status}``: tables by status. Counted every `REFRESH_SECONDS` by
  `Monitor.refresh` (one pass over the status index: ~20 ms at 100,000 tables, on
  SQLite on a read-only connection in a thread, so neither the loop nor the store's
  thread waits), never per scrape: a scrape costs the same at 100,000 tables as at ten.
- ``moves_total{game}``: moves applied (players' and bots'); ``rate()`` gives moves per minute.
- ``boards_posted_total``, ``click_to_board_seconds``: boards posted and the time
  from a click to its new board (`board_posted`, called by the code that posts boards).
- ``discord_refused_total{status}``: requests Discord refused, by HTTP status
  (`discord_refused`, called by the code that delivers to Discord).
- ``bot_decisions_total{ran}`` and ``bot_deadline_fallbacks_total``: bot seats'
  decisions (in the bot's process, in a worker, or the fallback after ``BOT_DEADLINE``).
- ``picture_queue``: pictures being drawn or waiting for a drawing process.
- ``event_loop_lag_seconds{stat}``: how late the event loop wakes (`hosting.looplag`).
- ``database_seconds_total``, ``database_calls_total``: time in database calls.
- ``connected``: 1 while connected to Discord; ``build_info{version}``.

The counters live at module level, so any part of the bot process can count
(`discord_refused`, `board_posted`) without holding the bot; the service and the bot
pool count through `hosting.counts`, which does not import ``prometheus_client`` (their
modules are imported by worker processes too). The gauges are set by the bot's
`Monitor`, on the event loop, from what the bot already keeps.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import sys
import time
import urllib.error
import urllib.request
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, Info, generate_latest
from prometheus_client.exposition import start_http_server
from prometheus_client.parser import text_string_to_metric_families

from hosting import counts
from hosting.version import VERSION

log = logging.getLogger(__name__)

#: Seconds between two countings of the tables and readings of the loop and pools.
REFRESH_SECONDS = 15.0

#: The bot's own registry: only its figures (and the process's), nothing another library registers.
REGISTRY = CollectorRegistry(auto_describe=True)

TABLES = Gauge("seagames_tables", "Tables by status (counted every 15 s)", ["status"], registry=REGISTRY)
MOVES = Counter("seagames_moves", "Moves applied, players' and bots'", ["game"], registry=REGISTRY)
BOARDS = Counter("seagames_boards_posted", "Boards posted (or edited) on Discord", registry=REGISTRY)
CLICK_TO_BOARD = Histogram(
    "seagames_click_to_board_seconds",
    "From a player's click to its new board on Discord",
    buckets=(0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0),
    registry=REGISTRY,
)
DISCORD_REFUSED = Counter(
    "seagames_discord_refused",
    "Requests Discord refused, by HTTP status (429: rate limited)",
    ["status"],
    registry=REGISTRY,
)
BOT_DECISIONS = Counter(
    "seagames_bot_decisions",
    "Bot seats' decisions, by where they ran: in_process, worker, or fallback (after BOT_DEADLINE)",
    ["ran"],
    registry=REGISTRY,
)
BOT_FALLBACKS = Counter(
    "seagames_bot_deadline_fallbacks",
    "Bot decisions that passed BOT_DEADLINE (the greedy bot played instead)",
    registry=REGISTRY,
)
PICTURE_QUEUE = Gauge("seagames_picture_queue", "Pictures being drawn or waiting to be", registry=REGISTRY)
LOOP_LAG = Gauge(
    "seagames_event_loop_lag_seconds",
    "How late the event loop wakes: p99 of the last ~3 minutes, and the longest stall since start",
    ["stat"],
    registry=REGISTRY,
)
DB_SECONDS = Counter("seagames_database_seconds", "Seconds spent in database calls", registry=REGISTRY)
DB_CALLS = Counter("seagames_database_calls", "Database calls", registry=REGISTRY)
CONNECTED = Gauge("seagames_connected", "1 while connected to Discord's gateway", registry=REGISTRY)
BUILD = Info("seagames_build", "The bot's version", registry=REGISTRY)
BUILD.info({"version": VERSION})


def board_posted(clicked_at: datetime | float | None = None) -> None:
    """Count a board posted; with the click's time (the interaction's ``created_at`` or seconds
    since the epoch), also observe the click-to-board latency."""
    BOARDS.inc()
    if clicked_at is not None:
        began = clicked_at.timestamp() if isinstance(clicked_at, datetime) else float(clicked_at)
        CLICK_TO_BOARD.observe(max(0.0, time.time() - began))


def discord_refused(status: int | str) -> None:
    """Count one request Discord refused with HTTP ``status`` (429, 403, 500...)."""
    DISCORD_REFUSED.labels(status=str(status)).inc()


def bot_decided(ran: str, *, late: bool = False) -> None:
    """Count a bot seat's decision: ``ran`` is ``in_process``, ``worker`` or ``fallback``."""
    BOT_DECISIONS.labels(ran=ran).inc()
    if late:
        BOT_FALLBACKS.inc()


# The service and the bot pool count through `hosting.counts`, which forwards here from now on.
counts.attach(sys.modules[__name__])


def render() -> bytes:
    """The figures in Prometheus' text format, as the endpoint serves them."""
    return generate_latest(REGISTRY)


def count_statuses(database: Path) -> dict[str, int]:
    """Tables by status in the SQLite file, read on a read-only connection of its own (WAL:
    it neither waits for nor holds up the bot's writes)."""
    with contextlib.closing(sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)) as db:
        db.execute("PRAGMA busy_timeout = 1000")
        rows = db.execute("SELECT status, count(*) FROM game_tables GROUP BY status").fetchall()
    return {str(status): int(count) for status, count in rows}


def serve(port: int, address: str = "127.0.0.1") -> Any:
    """Serve ``/metrics`` on ``address:port`` from a thread (port 0: any free port); return the server
    (``server.server_port``, ``server.shutdown()``).

    Raises `OSError` when the port cannot be bound: the start-up says so before logging in.
    """
    server, _thread = start_http_server(port, addr=address, registry=REGISTRY)
    return server


def stop_serving(server: Any) -> None:
    """Stop a server `serve` started."""
    server.shutdown()
    server.server_close()


class Monitor:
    """Keeps the gauges of one running bot current (`serve` serves them).

    `refresh` reads what the bot already keeps (the store's counts and call times,
    the loop-lag probe, the picture pool), on the event loop; the HTTP server's
    thread only serialises the registry.
    """

    def __init__(self, bot: Any, *, every: float = REFRESH_SECONDS, database: Path | None = None) -> None:
        self.bot = bot
        self.every = every
        #: The SQLite file, counted on a connection of its own in a thread (see `refresh`); None:
        #: ask the store (PostgreSQL, or an in-memory database).
        self.database = None if database is None or str(database) == ":memory:" else Path(database)
        self._task: asyncio.Task | None = None
        self._db_seen: tuple[float, int] = (0.0, 0)
        self._db_store: Any = None
        self.statuses: set[str] = set()

    def start(self) -> asyncio.Task:
        """Refresh the gauges every ``every`` seconds from now on (a task on the running loop)."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="metrics")
        return self._task

    async def _run(self) -> None:
        while True:
            try:
                await self.refresh()
            except Exception as error:  # a closed store at shutdown, a query that failed once
                log.debug("metrics refresh failed: %s", error)
            await asyncio.sleep(self.every)

    async def refresh(self) -> None:
        """Read the bot's figures into the gauges now."""
        from hosting import ops

        bot = self.bot
        store = getattr(bot, "store", None)
        if store is not None:
            # The count walks the status index: ~20 ms at 100,000 tables. On SQLite it runs on a
            # read-only connection in a thread, so the store's own thread (every move) never waits.
            if self.database is not None:
                counts = await asyncio.to_thread(count_statuses, self.database)
            else:
                counts = await store.status_counts()
            for status in self.statuses - set(counts):
                TABLES.labels(status=status).set(0)
            for status, count in counts.items():
                TABLES.labels(status=status).set(count)
            self.statuses |= set(counts)
            self._count_db(store)
        lag = getattr(bot, "loop_lag", None)
        if lag is not None:
            figures = lag.figures()
            LOOP_LAG.labels(stat="p99").set(figures.p99)
            LOOP_LAG.labels(stat="longest").set(figures.longest)
        import renderers

        PICTURE_QUEUE.set(getattr(renderers.PICTURES, "waiting", 0))
        CONNECTED.set(1 if ops.is_connected(bot) else 0)

    def _count_db(self, store: Any) -> None:
        """Add the store's call times since the last refresh to the counters."""
        if store is not self._db_store:
            self._db_store, self._db_seen = store, (0.0, 0)
        seconds, calls = getattr(store, "db_seconds", 0.0), getattr(store, "db_calls", 0)
        DB_SECONDS.inc(max(0.0, seconds - self._db_seen[0]))
        DB_CALLS.inc(max(0, calls - self._db_seen[1]))
        self._db_seen = (seconds, calls)

    async def stop(self) -> None:
        """Stop refreshing the gauges."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None


# --------------------------------------------------------------------- status


def figures(text: str) -> dict[str, list[tuple[dict[str, str], float]]]:
    """The ``seagames_`` samples of a scrape: name → [(labels, value)]."""
    found: dict[str, list[tuple[dict[str, str], float]]] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name.startswith("seagames_") and not sample.name.endswith("_created"):
                found.setdefault(sample.name, []).append((dict(sample.labels), float(sample.value)))
    return found


def describe(found: dict[str, list[tuple[dict[str, str], float]]]) -> list[str]:
    """The figures as lines an admin reads."""

    def total(name: str) -> float:
        return sum(value for _, value in found.get(name, []))

    def by(name: str, label: str) -> str:
        parts = [f"{labels.get(label, '?')} {value:g}" for labels, value in found.get(name, []) if value]
        return ", ".join(parts) or "none"

    lines = [f"tables: {by('seagames_tables', 'status')}"]
    lines.append(
        f"moves since start: {total('seagames_moves_total'):g} ({by('seagames_moves_total', 'game')})"
    )
    boards, clicks = total("seagames_boards_posted_total"), total("seagames_click_to_board_seconds_count")
    latency = total("seagames_click_to_board_seconds_sum") / clicks if clicks else 0.0
    lines.append(f"boards posted since start: {boards:g}; click to board: {latency * 1000:.0f} ms on average")
    lines.append(f"Discord refused: {by('seagames_discord_refused_total', 'status')}")
    lines.append(
        f"bot decisions: {by('seagames_bot_decisions_total', 'ran')}; "
        f"deadline fallbacks {total('seagames_bot_deadline_fallbacks_total'):g}"
    )
    lines.append(f"pictures queued: {total('seagames_picture_queue'):g}")
    lag = {labels.get("stat"): value for labels, value in found.get("seagames_event_loop_lag_seconds", [])}
    p99, longest = lag.get("p99", 0.0) * 1000, lag.get("longest", 0.0) * 1000
    lines.append(f"event loop lag: p99 {p99:.1f} ms, longest {longest:.1f} ms")
    calls = total("seagames_database_calls_total")
    per_call = total("seagames_database_seconds_total") / calls if calls else 0.0
    lines.append(f"database: {calls:g} calls, {per_call * 1000:.2f} ms each on average")
    lines.append(f"connected to Discord: {'yes' if total('seagames_connected') else 'no'}")
    return lines


def status(config: Any, out: TextIO) -> int:
    """``bot.py status``: the running bot's figures once (from its endpoint), else what the database says."""
    port = getattr(config, "metrics_port", None)
    address = getattr(config, "metrics_address", "127.0.0.1")
    print(f"Sea Games bot {VERSION}", file=out)
    if port:
        host = "127.0.0.1" if address in ("0.0.0.0", "::", "") else address
        url = f"http://{host}:{port}/metrics"
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                text = answer.read().decode("utf-8")
        except (urllib.error.URLError, OSError) as error:
            print(
                f"no bot answers at {url} ({getattr(error, 'reason', error)}); from the database:", file=out
            )
        else:
            print(f"from the running bot ({url}):", file=out)
            for line in describe(figures(text)):
                print(f"  {line}", file=out)
            return 0
    else:
        print(
            "METRICS_PORT is not set, so the running bot's live figures are not served; from the database:",
            file=out,
        )
    for line in database_figures(config):
        print(f"  {line}", file=out)
    return 0


def database_figures(config: Any) -> list[str]:
    """The heartbeat, tables by status and the newest backup, read from the files (read-only),
    or the number of tables in PostgreSQL."""
    lines = []
    health_file = getattr(config, "health_file", None)
    if health_file is not None:
        from hosting import ops

        lines.append(f"health: {ops.health(Path(health_file))[1]}")
    url = getattr(config, "database_url", None)
    if url:
        from hosting.pg_store import DatabaseUnavailable, inspect, redact

        try:
            version, tables = asyncio.run(inspect(url))
        except DatabaseUnavailable as error:
            return [*lines, f"tables: {error}"]
        return [*lines, f"tables: {tables} in PostgreSQL at {redact(url)} (schema version {version})"]
    path = Path(config.database)
    if not path.is_file():
        return [*lines, f"tables: none yet ({path} does not exist)"]
    try:
        tally = count_statuses(path)
    except sqlite3.Error as error:
        return [*lines, f"tables: {path} cannot be read ({error})"]
    lines.append(f"tables: {', '.join(f'{status} {n}' for status, n in sorted(tally.items())) or 'none'}")
    from hosting import backups

    folder = getattr(config, "backup_folder", None)
    if folder is not None:
        found = backups.backups_in(Path(folder), path)
        if found:
            age = (time.time() - found[-1].stat().st_mtime) / 3600
            lines.append(f"newest backup: {found[-1]} ({age:.1f} h ago; {len(found)} kept)")
        else:
            lines.append(f"newest backup: none in {folder}")
    return lines
