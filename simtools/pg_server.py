"""A PostgreSQL server for the tests: the one CI started, or a throwaway one of our own.

`server_url()` returns the URL of a server the tests may create databases on:

1. ``TEST_POSTGRES_URL`` when set (``.ci/run`` starts Debian's packaged server and
   sets it; the role needs ``CREATEDB``);
2. otherwise, when PostgreSQL's programs are installed (``apt-get install
   postgresql``), a throwaway server in a temporary folder: ``initdb`` with trust
   login, listening only on a Unix socket in that folder, fsync off, stopped and
   deleted when the test run ends. As root it runs as the ``postgres`` user
   (PostgreSQL refuses to run as root).

When neither works, `server_url()` raises `Unavailable` with the reason, and the
tests skip the PostgreSQL half with it. Nothing here touches the network.
"""

from __future__ import annotations

import asyncio
import atexit
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

ENV_URL = "TEST_POSTGRES_URL"
PORT = 5432  # only names the socket file inside our private folder; no TCP port is opened

_url: str | None = None
_failure: str | None = None
#: Stops the throwaway server and deletes its folder (None: no throwaway server is running).
_stop_throwaway: Callable[[], None] | None = None


class Unavailable(Exception):
    """No PostgreSQL server can be used; ``str(error)`` says why (the skip reason)."""


def _bindir() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: Debian's versioned folder, or the PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[4]))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


def _start_throwaway() -> str:
    bindir = _bindir()
    if bindir is None:
        raise Unavailable(
            f"no PostgreSQL server: {ENV_URL} is not set and PostgreSQL's programs are not installed "
            "(apt-get install postgresql, or run .ci/run)"
        )
    prefix: list[str] = []
    owner: pwd.struct_passwd | None = None
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root: run it as its own user
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError as error:
            raise Unavailable(
                "running as root and there is no 'postgres' user to run PostgreSQL as"
            ) from error
        runuser = shutil.which("runuser")
        if runuser is None:
            raise Unavailable("running as root and there is no runuser to start PostgreSQL as 'postgres'")
        prefix = [runuser, "-u", "postgres", "--"]
    folder = Path(tempfile.mkdtemp(prefix="seagames-pg-"))
    data = folder / "data"
    if owner is not None:
        os.chown(folder, owner.pw_uid, owner.pw_gid)

    def run(*args: str) -> None:
        done = subprocess.run([*prefix, *args], capture_output=True, text=True, timeout=120, cwd=folder)
        if done.returncode != 0:
            log = folder / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise Unavailable(
                f"{Path(args[0]).name} failed: {done.stderr.strip() or done.stdout.strip()}{tail}"
            )

    def stop() -> None:
        global _stop_throwaway
        _stop_throwaway = None
        atexit.unregister(stop)
        subprocess.run(
            [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(folder, ignore_errors=True)

    global _stop_throwaway
    try:
        run(str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8",
            "--locale=C", "--no-sync")  # fmt: skip
        # Stopped by `stop_server` when the test run ends (conftest), or at exit as a fallback.
        _stop_throwaway = stop
        atexit.register(stop)
        settings = f"-F -k {folder} -p {PORT} -c listen_addresses= -c max_connections=200"
        run(str(bindir / "pg_ctl"), "-D", str(data), "-o", settings, "-l", str(folder / "server.log"),
            "-w", "-t", "60", "start")  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as error:
        shutil.rmtree(folder, ignore_errors=True)
        raise Unavailable(f"the throwaway PostgreSQL server did not start: {error}") from error
    except Unavailable:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return f"postgresql://postgres@/postgres?host={folder}&port={PORT}"


def server_url() -> str:
    """The URL of a server to create test databases on (started once per test run)."""
    global _url, _failure
    if _url is None and _failure is None:
        try:
            _url = os.environ.get(ENV_URL) or _start_throwaway()
        except Unavailable as error:
            _failure = str(error)
    if _url is None:
        raise Unavailable(_failure)
    return _url


def stop_server() -> None:
    """Stop the throwaway server, if this process started one (the end of a test run).

    Each test process (each pytest-xdist worker) starts its own, in its own folder and
    socket, so workers never share one; the databases on it are named by uuid either way.
    """
    global _url, _failure
    if _stop_throwaway is not None:
        _stop_throwaway()
        _url = _failure = None


def with_database(url: str, name: str) -> str:
    """``url`` pointing at database ``name`` instead."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


async def create_database() -> tuple[str, str]:
    """A new empty database on the test server: (its name, its URL)."""
    import asyncpg

    url = server_url()
    name = f"seagames_test_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    return name, with_database(url, name)


async def drop_database(name: str, tries: int = 5) -> None:
    """Drop a test database, ending any connection still open to it.

    ``FORCE`` may not end a server process of another role, such as an autovacuum
    worker that just started on the database ("must be a member of the role whose
    process is being terminated"); it finishes within moments, so the drop is tried again.
    """
    import asyncpg

    conn = await asyncpg.connect(server_url())
    try:
        for attempt in range(tries):
            try:
                await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
                return
            except asyncpg.InsufficientPrivilegeError:
                if attempt == tries - 1:
                    raise
                await asyncio.sleep(0.5)
    finally:
        await conn.close()


@asynccontextmanager
async def scratch_database() -> AsyncIterator[str]:
    """A fresh database's URL for one test, dropped afterwards.

    The test is skipped, with the reason, where no PostgreSQL server can be had.
    """
    try:
        name, url = await create_database()
    except Unavailable as error:
        pytest.skip(f"PostgreSQL half skipped: {error}")
    try:
        yield url
    finally:
        await drop_database(name)
