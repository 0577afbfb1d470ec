"""One bot process per SQLite file: an exclusive lock on a file beside the database.

Two processes on one SQLite file keep moves safe (SQLite serialises the writes),
but each process's clock would then handle every server's tables: reminders and
deadlines twice. So the running bot holds an exclusive `fcntl.flock` on
``<database>.lock`` for as long as it runs, and a second bot (or ``bot.py
restore``) is refused with a message naming the process that holds it. The
operating system drops the lock when the process ends, however it ends (a crash,
``kill -9``), so a stale lock file never blocks a start. PostgreSQL needs none:
shard ranges split the work between processes there.

flock works on local file systems and Docker volumes; on a network file system
(NFS) it may not lock across machines, and SQLite itself is not safe there either.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path


class DatabaseInUse(Exception):
    """Another process holds the database's lock; the message names it and says what to do."""


def lock_path(database: Path) -> Path:
    """The lock file beside the SQLite file: ``seagames.sqlite3.lock``."""
    return database.with_name(database.name + ".lock")


class DatabaseLock:
    """An exclusive lock on one SQLite file for this process: `acquire`, then `release` (or exit)."""

    def __init__(self, database: Path) -> None:
        self.database = Path(database)
        self.path = lock_path(self.database)
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        """Whether this object holds the lock now."""
        return self._fd is not None

    def acquire(self, *, doing: str = "run the bot") -> DatabaseLock:
        """Take the lock without waiting; raise `DatabaseInUse` when another process has it.

        ``doing`` completes the refusal's sentence ("cannot <doing>").
        """
        if self._fd is not None:
            return self
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            who = f"process {holder}" if holder else "another process"
            raise DatabaseInUse(
                f"DATABASE_PATH is {self.database}, but a bot ({who}) is already using it, so this one "
                f"cannot {doing}: one process per SQLite file (its clock handles every server's tables). "
                "Stop the other bot first, or point DATABASE_PATH at another file; several processes "
                "share tables through PostgreSQL (DATABASE_URL)."
            ) from None
        except OSError:
            os.close(fd)
            raise
        # Who holds it, for the next process's message (the lock, not this text, is what counts).
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return self

    def release(self) -> None:
        """Let go of the lock (the file stays; an unlocked file means nothing)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> DatabaseLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _holder(fd: int) -> int | None:
    """The process id the lock's holder wrote into the file, when it can be read."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
