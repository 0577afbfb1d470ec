"""The database's files are the bot's alone (issue #35).

A SQLite database holds every running game's seed and state: every hidden
card, the deck's order, the dice still to come. So its folder is made 0700 and
the file and its ``-wal``, ``-shm`` and ``-journal`` files 0600, whatever the
process's umask. The file is created here, 0600, before SQLite opens it: SQLite
then creates the ``-wal`` and ``-shm`` files with the database file's own
permissions (its unix VFS copies them), so they are private from their first
byte. Files left readable by an older bot are narrowed at start.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

#: The database's folder and its files.
FOLDER_MODE = 0o700
FILE_MODE = 0o600
#: The files SQLite keeps beside a database (WAL mode's two, and a rollback journal).
SIDE_FILES = ("-wal", "-shm", "-journal")


def private_folder(folder: Path) -> None:
    """Create ``folder`` (and its parents) if missing, and make it 0700 when this user owns it."""
    folder.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):  # a folder of another owner (a mount point): the files still are 0600
        if folder.stat().st_uid == os.getuid() and folder.stat().st_mode & 0o777 != FOLDER_MODE:
            folder.chmod(FOLDER_MODE)


def private_file(path: Path) -> None:
    """Create ``path`` empty with mode 0600 if missing (an empty file is an empty SQLite database),
    or narrow it to 0600."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, FILE_MODE)  # the umask can only narrow 0600
    try:
        os.fchmod(fd, FILE_MODE)
    finally:
        os.close(fd)


def private_database(path: str | Path) -> None:
    """Before SQLite opens the database at ``path``: its folder 0700, the file and its side files 0600.

    ``:memory:`` has no files.
    """
    if str(path) == ":memory:":
        return
    path = Path(path)
    private_folder(path.parent)
    private_file(path)
    for suffix in SIDE_FILES:
        side = path.with_name(path.name + suffix)
        with contextlib.suppress(FileNotFoundError):
            side.chmod(FILE_MODE)
