"""Shared fixtures: the real bot on a temporary database, against SimCord made strict.

``simcord_env`` is SimCord's environment on the stricter Discord of
`simtools.strict` (threads archive, permissions and limits are enforced
as Discord documents them). Every test that uses it also has every JSON body
the bot sent validated against Discord's OpenAPI description (see `openapi_check`).

The suite runs in parallel (``pytest -n auto``: one pytest-xdist worker process per
core). Nothing here is shared between workers: each test has its own temporary
folder and database file, each PostgreSQL test its own database (named by uuid,
`simtools.pg_server`; a throwaway server is one per worker), each worker its own
picture and bot worker pools. Limits that real time decides (settling, a bot's
decision deadline) are set so a busy machine does not change an outcome, and at
the end of each test file the check below fails if a thread or a process was left
running.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest
import pytest_asyncio

import engine
import renderers
from bot import Config, create_bot
from hosting.botpool import WORKERS
from hosting.stores import open_store
from simtools import pg_server
from simtools.strict import StrictEnv
from tests.openapi_check import SPEC_PATH, OpenAPIChecker

# The tiny test game is offered next to the real ones, so the lobby and the
# service can be exercised on a game whose rules a test can predict.
engine.GAME_PACKAGES.setdefault("takeaway", "tests.tinygame")


def pytest_addoption(parser):
    """``--slow``: the thorough setting of the long reliability checks (more kills, more cases)."""
    parser.addoption("--slow", action="store_true", help="run the long checks in their thorough setting")


def pytest_collection_modifyitems(config, items):
    """Tests marked ``slow`` run only with ``--slow``; the others have a quick default setting."""
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="a thorough check: run with --slow")
    for item in items:
        if item.get_closest_marker("slow"):
            item.add_marker(skip)


TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"


@pytest.fixture
def db_path(tmp_path):
    """A fresh database file for one test."""
    return tmp_path / "tables.sqlite3"


#: The test bots' deadline for a bot decision (``BOT_DEADLINE``; the bot's own default is 4 s).
#: A decision past its deadline is played by greedy, and a hint says "the expert took too long":
#: on a busy machine an expert in a worker process at lowered priority can take that long, and a
#: test's game (or the hint it reads) must not depend on how busy the machine is. The deadline
#: itself is tested with its own settings (tests/discord/test_bot_levels.py).
BOT_DEADLINE = 60.0


@pytest.fixture
async def make_bot(db_path):
    """Build a new bot on the test's database (``env.restart_bot(make_bot())`` restarts it).

    As ``bot.run`` does, the store is opened before the bot and handed to it: here once for
    the test, and every bot built gets it with its own table service, runner and caches, as
    a restarted process has. SimCord detaches a bot without closing it, so the database
    connection is closed here: an open aiosqlite thread would keep pytest from exiting.
    """
    config = Config(token=TOKEN, database=db_path, bot_delay=0.0, bot_deadline=BOT_DEADLINE)
    store = await open_store(config)

    def build():
        return create_bot(config, store)

    yield build
    await store.close()


@pytest.fixture
def simcord_bot(make_bot):
    """The bot SimCord runs."""
    return make_bot()


#: How long (real seconds) one step may take to settle when a test's ``simcord`` marker does not say.
#: SimCord's own default, 5 s, is too short on a busy two-core machine: a click's pictures are drawn
#: in worker processes at a lowered priority, and a new bot worker pool starts interpreters. A step
#: that settles returns at once, so this costs nothing when the machine is quiet. It stays below the
#: bot's shortest periodic sleep (the clock's 30 s retry, the 30 s heartbeat): SimCord waits in real
#: time for a sleep that ends before the settle deadline, and those must stay on the virtual clock.
SETTLE_TIMEOUT = 20.0


class _SuiteEnv(StrictEnv):
    """`StrictEnv` whose bot start and restart settle within the env's ``settle_timeout`` too.

    SimCord settles a bot's start (``start``, ``restart_bot``) within a fixed 5 s of real time, not
    the env's ``settle_timeout``. A restarted bot resumes the work it owes (a bot seat's decision in
    a freshly started worker pool), and on a busy machine that takes longer.
    """

    _attaching = False

    async def start(self) -> None:
        self._attaching = True
        try:
            await super().start()
        finally:
            self._attaching = False

    async def restart_bot(self, bot=None) -> None:
        self._attaching = True
        try:
            await super().restart_bot(bot)
        finally:
            self._attaching = False

    async def _settle_internal(self, *, timeout=None, **options):
        # SimCord has no public setting for the start's settle limit: this overrides its private
        # step (pinned: simcord==3.2.*; tests/app/test_library_privates.py fails if it is renamed).
        if self._attaching and timeout is not None:
            timeout = max(timeout, self.settle_timeout)
        return await super()._settle_internal(timeout=timeout, **options)

    #: How many of the bot's captured errors the test has read (`errors`) or raised (`raise_errors`):
    #: the fixture's teardown raises those after them, as SimCord's own fixture does.
    acknowledged = 0

    @property
    def errors(self) -> list[BaseException]:
        self.acknowledged = self.error_cursor
        return super().errors

    def raise_errors(self) -> None:
        self.acknowledged = self.error_cursor
        super().raise_errors()

    def raise_unread_errors(self) -> None:
        """Raise, as a group, the bot's errors the test has not read (public API only)."""
        captured = self.errors_since(self.acknowledged)
        self.acknowledged = self.error_cursor
        if captured:
            raise BaseExceptionGroup(f"bot raised {len(captured)} error(s) during the test", captured)


@pytest_asyncio.fixture
async def simcord_env(simcord_bot, request):
    """SimCord's running environment (as its own fixture builds it) on the stricter Discord.

    Options come from the ``simcord`` marker, as with SimCord's fixture; ``settle_timeout``
    defaults to `SETTLE_TIMEOUT`, and a bot's start and restart get it too (`_SuiteEnv`).
    """
    marker = request.node.get_closest_marker("simcord")
    env = _SuiteEnv(simcord_bot, **{"settle_timeout": SETTLE_TIMEOUT, **(marker.kwargs if marker else {})})
    await env.start()
    # The picture workers of this process start with its first bot and warm up (a few seconds of
    # CPU at lowered priority): that is the process starting, not the bot answering a step, so
    # it is waited for here rather than counted against the first step's settle limit.
    await renderers.PICTURES.ready()
    try:
        yield env
    finally:
        await env.shutdown()
        if env.check_errors:
            env.raise_unread_errors()


@pytest.fixture(scope="session")
def openapi_checker():
    """Discord's OpenAPI description, loaded once."""
    if not SPEC_PATH.is_file():
        return None
    return OpenAPIChecker()


@pytest.fixture(autouse=True)
def _validate_requests(request, openapi_checker):
    """After each SimCord test, check every request body against Discord's schema."""
    if "simcord_env" not in request.fixturenames:
        yield
        return
    env = request.getfixturevalue("simcord_env")
    yield
    if openapi_checker is None:
        pytest.skip(f"Discord's OpenAPI description is not at {SPEC_PATH}; request bodies were not validated")
    problems = [
        problem
        for entry in env.http_requests
        for problem in openapi_checker.validate(entry.method, entry.path, entry.json)
    ]
    assert not problems, "requests that do not match Discord's API:\n" + "\n".join(problems)


# ----------------------------------------------------------- nothing left behind
#
# Every test file must exit on its own: what a test opens (stores, pools, threads, servers, child
# processes) its fixture or the test closes. After the last test of each file (in this process: each
# pytest-xdist worker checks the files it ran) the threads and processes started since the file began
# must be gone; at the end of the run the process-wide pools (pictures, bot workers) and the
# throwaway PostgreSQL server are closed and the same is checked for the whole run. A non-daemon
# thread left running keeps the interpreter from exiting (an aiosqlite store never closed); a child
# process outlives the run. Either fails the last test of that file, at teardown, naming them.

#: How long a check waits for threads and processes that are already ending (seconds; the
#: environment's ``LEAK_GRACE`` overrides it, as tests/app/test_suite_hygiene.py does to fail fast).
LEAK_GRACE = float(os.environ.get("LEAK_GRACE") or 10.0)


def _child_processes() -> dict[int, str]:
    """This process's live (not zombie) child processes: pid → command line."""
    me = os.getpid()
    children = {}
    try:
        entries = list(Path("/proc").iterdir())
    except OSError:  # no /proc here: processes are not checked
        return {}
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            state, ppid = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:2]
            if int(ppid) != me or state == "Z":
                continue
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, ValueError, IndexError):  # it ended meanwhile
            continue
        children[int(entry.name)] = command.strip()[:200]
    return children


def _non_daemon_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if not t.daemon and t.is_alive()} - {threading.main_thread()}


def _shared_pools() -> tuple[set[threading.Thread], set[int]]:
    """The threads and processes of the process-wide pools, which outlive a test file on purpose
    (here once, not per bot; `_close_shared` closes them at the end of the run).

    Only public names: each pool's workers report their process ids (`WorkerPids`); the thread
    that `concurrent.futures` runs beside a process pool is known by its class's module, one per
    running pool; multiprocessing's resource tracker (one per process, started with the first
    spawned worker, ending by itself when this process does) by its command line."""
    threads: set[threading.Thread] = set()
    running = int(renderers.PICTURES.running) + int(WORKERS.executor is not None)
    managers = [t for t in threading.enumerate() if type(t).__module__ == "concurrent.futures.process"]
    if len(managers) <= running:
        threads.update(managers)
    pids = renderers.PICTURES.worker_pids() | WORKERS.worker_pids()
    tracker = "multiprocessing.resource_tracker"
    pids.update(pid for pid, command in _child_processes().items() if tracker in command)
    return threads, pids


class _Snapshot:
    """Threads and child processes at a moment; `left_since` waits for the new ones to end."""

    def __init__(self) -> None:
        self.threads = _non_daemon_threads()
        self.pids = set(_child_processes())

    def left_since(self) -> tuple[list[threading.Thread], dict[int, str]]:
        deadline = time.monotonic() + LEAK_GRACE
        while True:
            pool_threads, pool_pids = _shared_pools()
            threads = sorted(_non_daemon_threads() - self.threads - pool_threads, key=lambda t: t.name)
            children = {
                pid: command
                for pid, command in _child_processes().items()
                if pid not in self.pids and pid not in pool_pids
            }
            if (not threads and not children) or time.monotonic() >= deadline:
                return threads, children
            for thread in threads:
                thread.join(timeout=0.1)
            time.sleep(0.05)


_run_start: _Snapshot | None = None
_file_start: _Snapshot | None = None


def _close_shared() -> None:
    """Close what lives for the whole run in this process: the pools and the throwaway server."""
    renderers.PICTURES.close()
    WORKERS.replace()
    pg_server.stop_server()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Note what runs when a test file (or the run) begins here."""
    global _run_start, _file_start
    if _file_start is None:
        _file_start = _Snapshot()
        if _run_start is None:
            _run_start = _file_start


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After the last test of a file here (its module fixtures closed too), check it left nothing."""
    global _file_start
    result = yield
    if nextitem is not None and nextitem.path == item.path:
        return result
    since, _file_start = _file_start, None
    if nextitem is None:  # the end of the run here: the shared pools too
        _close_shared()
        since = _run_start
    if since is None:
        return result
    threads, children = since.left_since()
    if threads or children:
        for pid in children:  # ours: stop them, so they do not outlive the run
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        if threads:
            item.config._left_threads = True
        lines = [f"thread {t.name!r} ({getattr(t, '_target', None) or type(t)})" for t in threads]
        lines += [f"child process {pid}: {command}" for pid, command in children.items()]
        where = "this run" if nextitem is None else f"the tests of {item.path.name}"
        pytest.fail(
            f"{where} left behind (close them in the fixture or test that opened them):\n  "
            + "\n  ".join(lines),
            pytrace=False,
        )
    return result


def pytest_sessionfinish(session):
    """A run stopped early (``-x``, interrupted) still closes the shared pools and the server."""
    _close_shared()


def pytest_unconfigure(config):
    """A run that left a non-daemon thread behind has failed (above); it would then never exit,
    as the interpreter waits for that thread, so it ends here, with a failing status."""
    if getattr(config, "_left_threads", False):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(1)
