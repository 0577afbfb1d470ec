"""Backups an admin does not have to remember, and putting one back.

`BackupSchedule` copies the SQLite file every ``BACKUP_HOURS`` into
``BACKUP_DIR`` (``backups`` beside the database by default) with SQLite's online
backup API (`hosting.ops.backup`: one consistent snapshot, the bot writing on
meanwhile, checked with ``PRAGMA integrity_check``), files readable by their
owner only (0600), and keeps the newest ``BACKUP_KEEP``. The schedule runs from
the newest backup already there, so a bot restarted every night still backs up
once a day; the first one comes a minute after a start that finds none.

`restore` puts a backup in place of the database: it checks the file (SQLite's
integrity check, a schema this bot knows), refuses while a bot holds the
database's lock (`hosting.dblock`), keeps the database it replaces, and copies
the backup in with the same API, so the result is never half a file.

PostgreSQL has its own tools (``pg_dump`` / ``pg_restore``; docs/HOSTING.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import sqlite3
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from hosting import ops
from hosting.dblock import DatabaseLock
from hosting.private import private_file

log = logging.getLogger(__name__)

#: A start that finds no backup makes its first one this long after starting (seconds).
FIRST_BACKUP_AFTER = 60.0
#: After a failed backup, the next try comes this long later (seconds), not a whole interval.
RETRY_AFTER = 15 * 60.0


def backup_name(database: Path, when: datetime) -> str:
    """``seagames-20261203-101500.sqlite3``: the database's name and the moment, in UTC."""
    return f"{database.stem}-{when.astimezone(UTC):%Y%m%d-%H%M%S}{database.suffix or '.sqlite3'}"


def backups_in(folder: Path, database: Path) -> list[Path]:
    """The scheduled backups of ``database`` in ``folder``, oldest first (their names sort by time)."""
    if not folder.is_dir():
        return []
    suffix = database.suffix or ".sqlite3"
    return sorted(
        path
        for path in folder.glob(f"{database.stem}-*{suffix}")
        if path.is_file()
        and path.name[len(database.stem) + 1 :].removesuffix(suffix).replace("-", "").isdigit()
    )


class BackupSchedule:
    """Backs the SQLite file up every ``hours`` into ``folder``, keeping the newest ``keep``."""

    def __init__(
        self,
        database: Path,
        folder: Path,
        *,
        hours: float,
        keep: int,
        now: Callable[[], datetime] | None = None,
        first_after: float = FIRST_BACKUP_AFTER,
    ) -> None:
        self.database = Path(database)
        self.folder = Path(folder)
        self.every = hours * 3600.0
        self.keep = keep
        self.first_after = first_after
        self._now = now or (lambda: datetime.now(UTC))
        self._task: asyncio.Task | None = None
        #: The last backup made: (path, tables), for `status`; None before the first.
        self.last: tuple[Path, int] | None = None

    def wait_before_next(self) -> float:
        """Seconds until the next backup is due: an interval after the newest one in the folder."""
        found = backups_in(self.folder, self.database)
        if not found:
            return self.first_after
        age = time.time() - found[-1].stat().st_mtime
        return max(self.first_after, self.every - age)

    def start(self) -> asyncio.Task:
        """Run the schedule as a task on the running loop (`stop` ends it)."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="backups")
        return self._task

    async def stop(self) -> None:
        """End the schedule. A backup being written is not cut short: its thread finishes it
        (``asyncio.run`` waits for that thread before the process exits) and renames it into place."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        wait = self.wait_before_next()
        log.info(
            "backups: every %g h into %s, keeping %d; next in %.0f s",
            self.every / 3600,
            self.folder,
            self.keep,
            wait,
        )
        while True:
            await asyncio.sleep(wait)
            try:
                await self.back_up_now()
                wait = self.every
            except (OSError, sqlite3.Error, ops.OpsError) as error:
                log.error(
                    "backup of %s into %s failed: %s; trying again in %.0f min",
                    self.database,
                    self.folder,
                    error,
                    RETRY_AFTER / 60,
                )
                wait = RETRY_AFTER

    async def back_up_now(self) -> Path:
        """Make one backup now (in a thread: the loop keeps serving), then drop the oldest past ``keep``."""
        target = self.folder / backup_name(self.database, self._now())
        began = time.perf_counter()
        tables = await asyncio.to_thread(self._copy, target)
        self.last = (target, tables)
        dropped = await asyncio.to_thread(self.prune)
        log.info(
            "backed up %d tables to %s in %.1f s%s",
            tables,
            target,
            time.perf_counter() - began,
            f"; removed {len(dropped)} old backup(s)" if dropped else "",
        )
        return target

    def _copy(self, target: Path) -> int:
        self.folder.mkdir(parents=True, exist_ok=True)
        return ops.backup(self.database, target)

    def prune(self) -> list[Path]:
        """Remove all but the newest ``keep`` backups; return the removed ones."""
        found = backups_in(self.folder, self.database)
        dropped = found[: max(0, len(found) - self.keep)]
        for path in dropped:
            path.unlink(missing_ok=True)
        return dropped


# -------------------------------------------------------------------- restore


def inspect_backup(path: Path) -> tuple[int, int]:
    """(schema version, tables) of a backup file, after SQLite's integrity check; `OpsError` if unfit."""
    from hosting.migrations import SCHEMA_VERSION

    if not path.is_file():
        raise ops.OpsError(f"There is no backup at {path}.")
    try:
        with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
            integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
            version = int(db.execute("PRAGMA user_version").fetchone()[0])
            tables = db.execute("SELECT count(*) FROM game_tables").fetchone()[0] if version >= 1 else 0
    except sqlite3.Error as error:
        raise ops.OpsError(f"{path} is not a database of this bot ({error}); nothing was changed.") from error
    if integrity != "ok":
        raise ops.OpsError(f"{path} failed SQLite's integrity check ({integrity}); nothing was changed.")
    if version < 1:
        raise ops.OpsError(f"{path} holds no tables of this bot (schema version 0); nothing was changed.")
    if version > SCHEMA_VERSION:
        raise ops.OpsError(
            ops.too_new(str(path), version, SCHEMA_VERSION, "DATABASE_PATH") + "; nothing was changed"
        )
    return version, int(tables)


def restore(backup: Path, database: Path) -> str:
    """Put ``backup`` in place of the SQLite file ``database``; return what was done, in one line.

    Refused (`OpsError`, `DatabaseInUse`) for a file that fails the checks and while a bot
    runs on ``database``, which holds its lock; the lock is held meanwhile, so none starts.
    The database replaced is kept beside it as ``<name>.before-restore-<time>``.
    """
    from hosting.migrations import SCHEMA_VERSION

    backup, database = Path(backup), Path(database)
    if backup.resolve() == database.resolve():
        raise ops.OpsError("The backup to restore is the database itself; name another file.")
    version, tables = inspect_backup(backup)
    with DatabaseLock(database).acquire(doing="restore a backup over it"):
        kept = ""
        if database.exists():
            stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
            previous = database.with_name(f"{database.name}.before-restore-{stamp}")
            try:
                ops.backup(database, previous)  # its -wal included: the copy is what the bot last wrote
            except (ops.OpsError, sqlite3.Error):
                # A damaged database (often why one restores) cannot be copied page by page: keep its bytes.
                for name in (database.name, f"{database.name}-wal"):
                    if database.with_name(name).exists():
                        shutil.copy2(
                            database.with_name(name),
                            previous.with_name(previous.name + name[len(database.name) :]),
                        )
            kept = f"; the database it replaced is kept at {previous}"
        partial = database.with_name(database.name + ".restoring")
        private_file(partial)
        try:
            with (
                contextlib.closing(sqlite3.connect(f"{backup.resolve().as_uri()}?mode=ro", uri=True)) as src,
                contextlib.closing(sqlite3.connect(partial)) as dst,
            ):
                src.backup(dst)
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
        # The old file's -wal and -shm belong to it: left beside the new file they would be replayed.
        for leftover in (f"{database.name}-wal", f"{database.name}-shm", f"{database.name}-journal"):
            database.with_name(leftover).unlink(missing_ok=True)
        os.replace(partial, database)
    migrate = "" if version == SCHEMA_VERSION else f"; the bot migrates it to {SCHEMA_VERSION} at start"
    return f"Restored {backup} to {database} ({tables} tables, schema version {version}{migrate}){kept}."
