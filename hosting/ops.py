"""The operations behind ``python bot.py <command>`` (`cli` dispatches them) and the running
bot's heartbeat.

- ``invite-url``: the OAuth2 URL that adds the bot with exactly the permissions it needs.
- ``check``: configuration, database and data files, without connecting to Discord.
- ``sync``: send the slash commands to Discord now, even when they look unchanged.
- ``backup PATH``: a consistent copy of the database, safe while the bot runs.
- ``health [--ready]``: exit 0 while the running bot's heartbeat file is fresh (the container
  health check); with ``--ready``, only while it is also connected to Discord.
- ``copy-to-postgres``: every table of the SQLite file into an empty PostgreSQL database.
- ``restore FILE``: put a backup in place of the SQLite database (the bot stopped).
- ``status``: the running bot's figures once (`hosting.metrics`), or what the database says.

The configuration is handed in, so this module imports nothing above ``hosting``:
neither ``bot``, ``cli`` nor discord.py or the renderers. What needs those (the invite
URL's permissions, the fonts `check` reads, the slash commands' payload) is in ``cli``
and ``gamebot``.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import hashlib
import json
import logging
import math
import os
import sqlite3
import tempfile
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TextIO

from hosting.migrations import SCHEMA_VERSION
from hosting.private import private_database

log = logging.getLogger(__name__)

#: How often the running bot touches its heartbeat file, and how old it may get before unhealthy.
HEARTBEAT_SECONDS = 30.0
HEARTBEAT_STALE = 120.0
#: How often the heartbeat looks for a change of state (connected, waiting) to write at once.
HEARTBEAT_LOOK = 1.0

PG_BACKUP_HELP = """\
The database is PostgreSQL (DATABASE_URL), so back it up with PostgreSQL's own tool,
which is safe while the bot runs (one consistent snapshot):
    pg_dump --format=custom --file=seagames-$(date +%F).dump "$DATABASE_URL"
Restore into an empty database, with every bot process stopped:
    pg_restore --dbname="$DATABASE_URL" seagames-YYYY-MM-DD.dump
(docs/HOSTING.md, "Backups", says how to empty the database first.)"""


class OpsError(Exception):
    """An operation cannot be done; the message says why."""


# ----------------------------------------------------------------- invite-url


def application_id_from_token(token: str) -> int | None:
    """The bot's user id (= its application id) encoded in a token's first part, or None."""
    first = token.split(".", 1)[0]
    if not first:
        return None
    try:
        decoded = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return int(decoded) if decoded.isdigit() else None


# ---------------------------------------------------------------------- check


def _nearest_existing(path: Path) -> Path:
    """The closest of ``path``'s folders that exists (``.`` at worst)."""
    return next((p for p in (path.parent, *path.parent.parents) if p.exists()), Path("."))


def database_path_problem(path: Path, *, create: bool = False) -> str | None:
    """Why the SQLite file at ``path`` (``DATABASE_PATH``) cannot work, or None when it can.

    Everything is tried for real, as the user the bot runs as (so a read-only
    volume fails even where the permission bits look fine): the path must not
    be a folder or lie under a file, its folder must take new files (SQLite keeps
    ``-wal`` and ``-shm`` files beside the database) and an existing file must be
    writable. Without ``create`` (``check``) nothing is left behind. With
    ``create`` (at start, before logging in to Discord) the folder is made and
    SQLite opens the file in WAL mode, as the store will.
    """
    if str(path) == ":memory:":
        return None
    where = f"DATABASE_PATH is {path}"
    if path.is_dir():
        return (
            f"{where}, which is a folder, not a file. Point it at a file inside it, "
            f"e.g. DATABASE_PATH={path / 'seagames.sqlite3'}"
        )
    existing = _nearest_existing(path)
    if not existing.is_dir():
        return f"{where}, but {existing} is a file, not a folder, so the database cannot be made inside it"
    if create:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            return f"{where}, but its folder {path.parent} cannot be created: {error.strerror or error}"
        existing = path.parent
    folder = path.parent if path.parent.is_dir() else existing
    try:  # an unnamed file where the OS allows it: nothing is left behind either way
        with tempfile.TemporaryFile(dir=folder, prefix=".seagames-probe-"):
            pass
    except OSError as error:
        return (
            f"{where}, but the bot cannot write in its folder {folder} ({error.strerror or error}). "
            f"SQLite keeps {path.name}-wal and {path.name}-shm beside the database, so the folder must be "
            "writable by the user the bot runs as (with Docker: the volume mounted read-write at /data)"
        )
    if path.is_file():
        try:
            with path.open("r+b"):
                pass
        except OSError as error:
            return f"{where}, but the file cannot be written ({error.strerror or error}): check its owner"
    if not create:
        return None
    try:
        with contextlib.closing(sqlite3.connect(path, timeout=1.0)) as db:
            mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()  # opens the -wal and -shm files
    except sqlite3.Error as error:
        return (
            f"{where}, but SQLite cannot use it: {error}. SQLite writes {path.name}-wal, -shm and -journal "
            f"files beside the database in {folder}: check that they can be created there, and that the "
            "file is a database of this bot"
        )
    if str(mode).lower() != "wal":
        return f"{where}, but SQLite cannot keep it in WAL mode there (it stays in {mode!r} mode)"
    return None


def database_report(path: Path, schema_version: int) -> tuple[bool, str]:
    """(good, what was found) for the database file, opened read-only; nothing is changed."""
    if str(path) == ":memory:":
        return True, "database: in memory (nothing is kept across restarts)"
    problem = database_path_problem(path)
    if problem:
        return False, f"database: {problem}"
    if not path.exists():
        folder = _nearest_existing(path)
        return True, f"database: {path} does not exist yet; it is created at start ({folder} is writable)"
    try:
        with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
            tables = db.execute("SELECT count(*) FROM game_tables").fetchone()[0] if version >= 1 else 0
    except sqlite3.Error as error:
        return False, f"database: {path} cannot be read as SQLite: {error}"
    if version > schema_version:
        return False, f"database: {too_new(str(path), version, schema_version, 'DATABASE_PATH')}"
    if integrity != "ok":
        return False, f"database: {path} failed SQLite's integrity check: {integrity}"
    migrate = "" if version == schema_version else f"; migrates to {schema_version} at start"
    return True, (
        f"database: {path}, schema version {version}{migrate}, {tables} tables, integrity ok; "
        f"its folder {path.parent} is writable"
    )


def too_new(where: str, version: int, schema_version: int, setting: str) -> str:
    """The one line for a database written by a newer bot (``check`` and the start say the same)."""
    other = "file" if setting == "DATABASE_PATH" else "database"
    return (
        f"{where} has schema version {version}, newer than this bot's {schema_version}; "
        f"upgrade the bot or point {setting} at another {other}"
    )


def sqlite_schema_version(path: Path) -> int | None:
    """The schema version (``user_version``) of the SQLite file at ``path``, read-only; None when
    there is no file yet. Raises `sqlite3.Error` for a file SQLite cannot read."""
    if str(path) == ":memory:" or not path.is_file():
        return None
    with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


def health_file_problem(path: Path | None) -> str | None:
    """Why the bot could not keep its heartbeat at ``HEALTH_FILE``, or None (also None when unset).

    Tried for real, as for the database: the folder must exist (the bot does not create it:
    a missing folder is usually a typo or a volume that was not mounted) and take a new file.
    """
    if path is None:
        return None
    where = f"HEALTH_FILE is {path}"
    if path.is_dir():
        return f"{where}, which is a folder; point it at a file, e.g. HEALTH_FILE={path / 'seagames.alive'}"
    if not path.parent.is_dir():
        return (
            f"{where}, but its folder {path.parent} does not exist; create it or point HEALTH_FILE "
            "into an existing folder (the image uses /tmp/seagames.alive)"
        )
    try:
        with tempfile.TemporaryFile(dir=path.parent, prefix=".seagames-probe-"):
            pass
    except OSError as error:
        return f"{where}, but the bot cannot write in its folder {path.parent} ({error.strerror or error})"
    return None


def folder_problem(setting: str, folder: Path) -> str | None:
    """Why the bot could not write files into ``folder`` (made if missing), or None."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder, prefix=".seagames-probe-"):
            pass
    except OSError as error:
        return f"{setting} is {folder}, but the bot cannot write there ({error.strerror or error})"
    return None


def backup_report(folder: Path, hours: float, keep: int) -> tuple[bool, str]:
    """(good, what) for the scheduled backups' folder, tried without making anything."""
    existing = folder if folder.is_dir() else _nearest_existing(folder / "backup")
    try:
        with tempfile.TemporaryFile(dir=existing, prefix=".seagames-probe-"):
            pass
    except OSError as error:
        return False, f"BACKUP_DIR is {folder}, but the bot cannot write there ({error.strerror or error})"
    return True, f"backups: every {hours:g} h into {folder}, keeping {keep}"


def startup_problems(config: Any) -> list[str]:
    """Every reason the configuration cannot run, found before connecting to Discord.

    The same one-line messages as `check`: the database (made and opened for real for
    SQLite; connected to and read for PostgreSQL), a database from a newer bot, the
    heartbeat file's folder and the backups' folder. An empty list: start.
    """
    from hosting import pg_store

    health_problem = health_file_problem(getattr(config, "health_file", None))
    problems = [health_problem] if health_problem else []
    url = getattr(config, "database_url", None)
    if url:
        good, line = postgres_report(url, pg_store.SCHEMA_VERSION)
        if not good:
            problems.append(line.removeprefix("database: "))
        return problems
    path = Path(config.database)
    problem = database_path_problem(path, create=True)
    if problem:
        return [*problems, problem]
    try:
        version = sqlite_schema_version(path)
    except sqlite3.Error as error:
        return [*problems, f"DATABASE_PATH is {path}, but SQLite cannot read it: {error}"]
    if version is not None and version > SCHEMA_VERSION:
        problems.append(too_new(str(path), version, SCHEMA_VERSION, "DATABASE_PATH"))
    backup_dir = getattr(config, "backup_folder", None)
    if backup_dir is not None and getattr(config, "backup_hours", 0):
        problem = folder_problem("BACKUP_DIR", Path(backup_dir))
        if problem:
            problems.append(problem)
    return problems


#: The schema that brought ratings and leaderboards (hosting/store.py: MIGRATIONS[3]).
RATINGS_SCHEMA = 4


def upgrade_note(version: int | None) -> str | None:
    """What an upgrade from schema ``version`` leaves out, said at start (CHANGELOG.md, upgrade notes)."""
    if version is None or not 1 <= version < RATINGS_SCHEMA:
        return None
    return (
        f"this database is from schema {version}, before ratings (schema {RATINGS_SCHEMA}): games finished "
        "before this upgrade stay in the history but are never rated, and the leaderboards start empty "
        "(CHANGELOG.md, upgrade notes)"
    )


def database_version(config: Any) -> int | None:
    """The configured database's schema version before the bot migrates it (None: new, or unreadable)."""
    url = getattr(config, "database_url", None)
    try:
        if url:
            from hosting.pg_store import inspect

            return asyncio.run(inspect(url))[0]
        return sqlite_schema_version(Path(config.database))
    except Exception:  # the start-up checks said what is wrong; this note is only a courtesy
        return None


def postgres_report(url: str, schema_version: int) -> tuple[bool, str]:
    """(good, what was found) for the PostgreSQL database at ``url``, read-only: nothing is changed."""
    import asyncpg

    from hosting.pg_store import DatabaseUnavailable, inspect, redact

    where = f"PostgreSQL at {redact(url)}"
    try:
        version, tables = asyncio.run(inspect(url))
    except DatabaseUnavailable as error:
        return False, f"database: {error}"
    except asyncpg.PostgresError as error:
        return False, f"database: {where} cannot be read: {error}"
    if version > schema_version:
        return False, f"database: {too_new(where, version, schema_version, 'DATABASE_URL')}"
    migrate = "" if version == schema_version else f"; migrates to {schema_version} at start"
    return True, f"database: {where}, schema version {version}{migrate}, {tables} tables"


def check(config: Any, out: TextIO, more: Iterable[tuple[bool, str]] = ()) -> int:
    """Print one line per check, then those of ``more`` (the game data and fonts: `cli.check` hands
    them in, as reading fonts is the renderers' business); 0 when everything is good, 2 otherwise."""
    from hosting import pg_store

    results: list[tuple[bool, str]] = [(True, "configuration: DISCORD_TOKEN has a bot token's shape")]
    app_id = config.application_id or application_id_from_token(config.token)
    results.append(
        (True, f"application id: {app_id}")
        if app_id
        else (False, "application id: not in the token; set DISCORD_APPLICATION_ID")
    )
    import engine

    offered = getattr(config, "games", None) or tuple(engine.GAME_PACKAGES)
    results.append((True, f"games offered by /play and /rules: {', '.join(offered)}"))
    url = getattr(config, "database_url", None)
    if url:
        results.append(postgres_report(url, pg_store.SCHEMA_VERSION))
    else:
        results.append(database_report(Path(config.database), SCHEMA_VERSION))
    shard_count = getattr(config, "shard_count", None)
    if shard_count is not None:
        shard_ids = getattr(config, "shard_ids", None) or tuple(range(shard_count))
        results.append((True, f"sharding: shards {', '.join(map(str, shard_ids))} of {shard_count} here"))
        if not url and len(shard_ids) < shard_count:
            # Not wrong (a server's tables stay with its shard), but worth knowing.
            results.append(
                (
                    True,
                    "sharding: on SQLite each process keeps only its own servers' tables; "
                    "set DATABASE_URL to share one PostgreSQL database",
                )
            )
    hours = getattr(config, "backup_hours", 0)
    if not url and hours and str(config.database) != ":memory:":
        results.append(backup_report(Path(config.backup_folder), hours, getattr(config, "backup_keep", 0)))
    health_file = getattr(config, "health_file", None)
    if health_file is not None:
        problem = health_file_problem(Path(health_file))
        found = f"health file: {health_file}, its folder is writable"
        results.append((False, problem) if problem else (True, found))
    results.extend(more)
    for good, line in results:
        print(f"{'ok  ' if good else 'FAIL'} {line}", file=out)
    failed = sum(not good for good, _ in results)
    if failed:
        print(f"{failed} problem(s) found; the bot would not run well.", file=out)
        return 2
    print("All good.", file=out)
    return 0


# --------------------------------------------------------------------- backup


def backup(source: Path, target: Path) -> int:
    """Copy the live database to ``target`` with SQLite's online backup API; return its table count.

    The copy is one consistent snapshot even while the bot writes (in WAL mode
    the bot's writes go on during the copy). It is written next to ``target``
    and renamed into place, so ``target`` is never a half-written file. The file is made readable
    by its owner only (0600): it holds every player's games.
    """
    if not source.is_file():
        raise OpsError(f"There is no database at {source} to back up (DATABASE_PATH).")
    if target.resolve() == source.resolve():
        raise OpsError("The backup must go to another file than the database itself.")
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    private_database(partial)  # a backup holds every secret the database does (issue #35)
    try:
        with (
            contextlib.closing(sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)) as src,
            contextlib.closing(sqlite3.connect(partial)) as dst,
        ):
            src.execute("PRAGMA busy_timeout = 5000")
            src.backup(dst)  # all pages in one step: a single read transaction, one consistent snapshot
            if dst.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                raise OpsError("The copy failed SQLite's integrity check; the database was not backed up.")
            tables = dst.execute("SELECT count(*) FROM game_tables").fetchone()[0]
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    os.replace(partial, target)
    return int(tables)


# ---------------------------------------------------------------------- sync

#: The file beside the database that remembers what was last synced, per application and scope.
SYNC_RECORD = "synced-commands.json"


def sync_record_path(database: Path) -> Path | None:
    """Where the last sync is remembered: beside the SQLite file (None for an in-memory database)."""
    return None if str(database) == ":memory:" else Path(database).parent / SYNC_RECORD


def sync_key(application_id: int | None, guild_id: int | None) -> str:
    """The record's key for one application's global commands, or its commands in one server."""
    return f"{application_id}:{'global' if guild_id is None else f'guild {guild_id}'}"


def tree_digest(payload: list[dict]) -> str:
    """A stable hash of a `tree_payload` (what `CommandTree.sync` would send)."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def command_names(payload: list[dict]) -> set:
    """(name, type) of each command of a `tree_payload`, to compare with what Discord has."""
    return {(command["name"], command.get("type", 1)) for command in payload}


class SyncRecord:
    """The digest of the command tree last synced, per `sync_key`, in a small JSON file.

    Only one process syncs (the one running shard 0), so one writer; the file is
    replaced whole, never half-written. A file that cannot be read counts as
    empty: the commands are then synced again, which is harmless.
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path

    def _read(self) -> dict[str, str]:
        if self.path is None:
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}

    def get(self, key: str) -> str | None:
        """The digest last recorded for ``key``, or None."""
        return self._read().get(key)

    def put(self, key: str, digest: str) -> None:
        """Record ``digest`` for ``key``; raises `OSError` when the file cannot be written."""
        if self.path is None:
            return
        data = {**self._read(), key: digest}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_name(self.path.name + ".partial")
        partial.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(partial, self.path)


# --------------------------------------------------------------------- health


class GatewayWatch:
    """Whether the bot's gateway connection is up, as discord.py's events tell it.

    When the connection drops discord.py dispatches ``disconnect`` and reconnects
    on its own, dispatching ``connect`` (a new session) or ``resumed``; meanwhile
    `Client.is_ready` stays true. `attach` listens to those three events.
    """

    def __init__(self) -> None:
        self.connected = False

    def attach(self, bot: Any) -> GatewayWatch:
        """Listen to ``bot``'s connection events; return self."""
        bot.add_listener(self._up, "on_connect")
        bot.add_listener(self._up, "on_resumed")
        bot.add_listener(self._down, "on_disconnect")
        return self

    async def _up(self) -> None:
        self.connected = True

    async def _down(self) -> None:
        self.connected = False


def is_connected(bot: Any) -> bool:
    """True while the bot is ready and its gateway connection (every shard of it) is up.

    Asks only discord.py's public API: `Client.is_closed`, `Client.is_ready`,
    `Client.latency` (NaN without a connection, infinite while one is closed or
    has not answered a heartbeat yet), each shard's `ShardInfo.is_closed` for an
    `AutoShardedClient`, and the `GatewayWatch` the bot keeps as ``bot.gateway``.
    """
    if bot.is_closed() or not bot.is_ready():
        return False
    latency = bot.latency
    if math.isnan(latency) or math.isinf(latency):
        return False
    shards = getattr(bot, "shards", None)
    if isinstance(shards, Mapping) and any(shard.is_closed() for shard in shards.values()):
        return False
    watch = getattr(bot, "gateway", None)
    return watch is None or bool(watch.connected)


def readiness(bot: Any) -> tuple[bool, str]:
    """(ready, what the bot is doing) for the heartbeat file: connected, or what it waits for.

    ``bot.waiting_for_discord`` is set by the start-up's login retries (`bot.login_with_retry`):
    the last reason Discord could not be reached.
    """
    if is_connected(bot):
        return True, "connected to Discord"
    waiting = getattr(bot, "waiting_for_discord", None)
    if waiting:
        return False, waiting
    if not bot.is_ready():
        return False, "connecting to Discord"
    return False, "reconnecting to Discord (the gateway connection dropped; discord.py retries)"


def write_heartbeat(path: Path, ready: bool, state: str, refused: int | None = None) -> None:
    """Replace the heartbeat file whole (never half-written) with what the bot is doing now.

    ``refused``: Discord's refusals (401/403/429) of the bot's requests in the last 10 minutes.
    """
    from hosting.version import VERSION

    entry = {"ready": ready, "state": state, "version": VERSION, "pid": os.getpid()}
    if refused is not None:
        entry["refused_10min"] = refused
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(entry) + "\n", encoding="utf-8")
    os.replace(partial, path)


def refused_recently(bot: Any) -> int | None:
    """The bot's refused Discord requests in the last 10 minutes (None before its runner exists)."""
    runner = getattr(bot, "runner", None)
    return None if runner is None else runner.budget.recent()


async def heartbeat(bot: Any, path: Path, every: float = HEARTBEAT_SECONDS) -> None:
    """Rewrite ``path`` every ``every`` seconds while the bot runs (run as a task from the start).

    It says whether the bot is connected (ready) or what it is waiting for: a bot that
    cannot reach Discord yet, or whose gateway connection dropped, is alive and retrying,
    which a restart would not mend, so `health` counts it healthy and ``health --ready``
    does not. A stuck event loop stops rewriting it, and the file grows stale.
    """
    written: tuple[bool, str] | None = None
    due = 0.0
    while not bot.is_closed():
        now = asyncio.get_running_loop().time()
        found = readiness(bot)
        if found != written or now >= due:  # a change is written at once, else every ``every``
            try:
                write_heartbeat(path, *found, refused=refused_recently(bot))
                written, due = found, now + every
            except OSError as error:
                log.warning("could not write the heartbeat file %s: %s", path, error)
                due = now + every
        await asyncio.sleep(min(every, HEARTBEAT_LOOK))


def health(path: Path | None, now: float | None = None, *, ready: bool = False) -> tuple[bool, str]:
    """(good, one line) from the heartbeat file: fresh means the bot runs; ``ready`` asks for
    a connection to Discord as well."""
    if path is None:
        return False, "HEALTH_FILE is not set, so the bot keeps no heartbeat."
    try:
        age = (time.time() if now is None else now) - path.stat().st_mtime
    except FileNotFoundError:
        return False, f"no heartbeat at {path}: the bot is not running, or not connected yet"
    if age > HEARTBEAT_STALE:
        return False, f"the heartbeat at {path} is {age:.0f} s old: the bot is not running (or is stuck)"
    try:
        entry = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError):
        entry = {}
    if not isinstance(entry, dict):
        entry = {}
    connected = bool(entry.get("ready", True))  # an empty file: touched by hand, or an older bot
    state = str(entry.get("state") or "connected to Discord")
    version = f"version {entry['version']}, " if entry.get("version") else ""
    if isinstance(entry.get("refused_10min"), int):
        version += f"{entry['refused_10min']} refused Discord requests in 10 minutes, "
    if connected:
        return True, f"ready: {state} ({version}heartbeat {age:.0f} s ago)"
    return not ready, f"alive, not ready: {state} ({version}heartbeat {age:.0f} s ago)"


# ----------------------------------------------------------- copy-to-postgres


def copy_to_postgres(config: Any, out: TextIO) -> int:
    """Copy the SQLite tables into the PostgreSQL database of ``DATABASE_URL``; print what was copied."""
    from hosting.copy_store import CopyRefused, copy_sqlite_to_postgres
    from hosting.errors import SchemaTooNew
    from hosting.pg_store import DatabaseUnavailable, redact

    url = getattr(config, "database_url", None)
    if not url:
        raise OpsError(
            "Set DATABASE_URL to the (empty) PostgreSQL database to copy into; "
            "DATABASE_PATH names the SQLite file to copy from."
        )
    try:
        copied = asyncio.run(copy_sqlite_to_postgres(Path(config.database), url))
    except (CopyRefused, DatabaseUnavailable, SchemaTooNew) as error:
        raise OpsError(str(error)) from error
    counts = ", ".join(f"{rows} {table}" for table, rows in copied.items())
    print(f"Copied {config.database} into PostgreSQL at {redact(url)}: {counts}.", file=out)
    return 0
