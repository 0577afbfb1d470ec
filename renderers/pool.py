"""Pictures drawn in worker processes, in parallel, each version once.

Drawing is pure CPU work in Python and Pillow: in a thread it holds the GIL and
stalls the event loop, and one click's board and private picture would wait for
each other. `PicturePool` draws in a process pool with one worker per core, so
the pictures of one click are drawn side by side and the event loop keeps
serving other tables. Views and names are plain JSON-like data and pictures are
bytes, so they cross the process boundary cheaply (well under a millisecond).

A small LRU keeps the last pictures by the content they were drawn from (game,
kind, view, names), so the same version for the same audience is never drawn
twice (a board reposted, a panel reopened). The content is the key, not the
table's version number: a cached picture can never be stale.

If the pool cannot start or breaks (a worker killed), it is made anew once;
if that fails too, pictures are drawn in a thread as before. Nothing is lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import multiprocessing
import os
import pickle
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from renderers import memo
from renderers.common import Picture

log = logging.getLogger(__name__)

#: Picture workers run at this lower priority (``os.nice``), so that the event loop gets a core at
#: once; less lowered than the bots' search workers, because a player waits for a picture.
WORKER_NICENESS = 5
#: Pictures kept by content; a board and a few private pictures per active table fit.
CACHE_PICTURES = 256


def _digest(game_key: str, kind: str, view: dict, names: Sequence[object] | None, lang: str) -> str:
    """A key for what a picture is drawn from: equal content, equal key.

    Pickled, not JSON-encoded: five times faster on the loop, and as exact (the same
    content built the same way pickles the same; anything else is only a cache miss).
    """
    data = pickle.dumps((game_key, kind, view, names, lang), protocol=pickle.HIGHEST_PROTOCOL)
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _timed(function: Callable[..., Picture], *args: object) -> tuple[Picture, float]:
    """Run in a worker: the picture, and the CPU seconds it took (for the benchmarks' figures)."""
    start = time.thread_time()  # this thread's CPU: right in a worker process and in the thread fallback
    picture = function(*args)
    return picture, time.thread_time() - start


class WorkerPids:
    """The process ids of a process pool's workers, each reported by the worker as it starts.

    `concurrent.futures.ProcessPoolExecutor` keeps its processes in a private attribute
    (``_processes``); a pool that must know or kill its workers learns them this way instead:
    its initializer calls `report` in each worker, `pids` reads what came in, and `processes`
    finds them among `multiprocessing.active_children`. A worker still starting has not
    reported yet (it ends by itself at the pool's shutdown). The picture pool and the bot
    seats' pool (`hosting.botpool`, above the renderers) both use it.
    """

    def __init__(self, context: Any) -> None:
        self._queue = context.SimpleQueue()  # handed to each worker as it is made (its initargs)
        self._pids: set[int] = set()

    def report(self) -> None:
        """In a worker: say its process id."""
        self._queue.put(os.getpid())

    def pids(self) -> set[int]:
        """The ids of the workers that have started so far."""
        while not self._queue.empty():
            self._pids.add(self._queue.get())
        return set(self._pids)

    def processes(self) -> list[multiprocessing.process.BaseProcess]:
        """The live process of each worker that has reported."""
        pids = self.pids()
        return [process for process in multiprocessing.active_children() if process.pid in pids]


def _start_worker(niceness: int, cache_bytes: int, pids: WorkerPids | None = None) -> None:
    """Run in each worker as it starts: its priority, and its cached parts' budget (`renderers.memo`)."""
    if pids is not None:
        pids.report()
    os.nice(niceness)
    memo.set_budget(cache_bytes)


class PicturePool:
    """Draws pictures in worker processes (``workers`` of them) and remembers the last ones."""

    def __init__(
        self,
        workers: int | None = None,
        cache_size: int = CACHE_PICTURES,
        warm: Callable[[], object] | None = None,
    ) -> None:
        """``warm``: run once in each worker by `start` (a module-level function, so it pickles), to
        draw what makes the first real picture slow; the package hands in `renderers.warm_up`."""
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.warm = warm
        self.cache_size = cache_size
        #: The budget of each drawing process's cached parts, in bytes (`start` sets it).
        self.parts_budget = memo.budget()
        self._cache: OrderedDict[str, Picture] = OrderedDict()
        self._executor: ProcessPoolExecutor | None = None
        self._pids: WorkerPids | None = None  # the running workers' ids (`worker_pids`)
        self._warming: list = []  # `start`'s warm-up calls, until `ready` has waited for them
        self._broken = 0
        #: Figures for the benchmarks: pictures drawn, served from the cache, drawn in a thread,
        #: and the CPU seconds the drawing took wherever it ran.
        self.drawn = self.cached = self.in_thread = 0
        self.cpu = 0.0
        #: Pictures being drawn or waiting for a drawing process now (the metrics' picture queue).
        self.waiting = 0

    def _pool(self) -> ProcessPoolExecutor | None:
        if self._executor is None and self._broken < 2:
            # "spawn": a fresh interpreter per worker, safe beside the bot's threads (fork is not).
            context = multiprocessing.get_context("spawn")
            self._pids = WorkerPids(context)
            self._executor = ProcessPoolExecutor(
                self.workers,
                mp_context=context,
                initializer=_start_worker,
                initargs=(WORKER_NICENESS, self.parts_budget, self._pids),
            )
        return self._executor

    def start(self, parts_mb: int = memo.DEFAULT_BUDGET_MB) -> None:
        """Start the workers now (at bot start) and warm them, so the first pictures do not wait;
        a pool already running (another bot of this process started it) is left as it is.

        ``parts_mb`` is the budget of each drawing process's cached parts (``PICTURE_CACHE_MB``),
        this process's own too (it draws when the workers cannot)."""
        if self._executor is not None:
            return
        self.parts_budget = parts_mb * 1024 * 1024
        memo.set_budget(self.parts_budget)
        pool = self._pool()
        if pool is not None and self.warm is not None:
            self._warming = [pool.submit(self.warm) for _ in range(self.workers)]

    @property
    def running(self) -> bool:
        """Whether the worker processes are running (started, not closed)."""
        return self._executor is not None

    def worker_pids(self) -> set[int]:
        """The process ids of the running workers (those that have started so far)."""
        return set() if self._pids is None or self._executor is None else self._pids.pids()

    async def ready(self) -> None:
        """Wait until the workers `start` started are warm (a test's or a benchmark's warm-up:
        the first pictures then take their own time, not the workers' start-up)."""
        warming, self._warming = self._warming, []
        for future in warming:
            with contextlib.suppress(Exception):  # a broken pool is made anew at the next picture
                await asyncio.wrap_future(future)

    async def draw(
        self,
        function: Callable[..., Picture],
        game_key: str,
        kind: str,
        view: dict,
        names: list | None,
        lang: str = "en",
    ) -> Picture:
        """``function(game_key, view, names, lang)`` in a worker, or the cached picture of that content."""
        key = _digest(game_key, kind, view, names, lang)
        if (picture := self._cache.get(key)) is not None:
            self._cache.move_to_end(key)
            self.cached += 1
            return picture
        self.waiting += 1
        try:
            picture, cpu = await self._run(function, game_key, view, names, lang)
        finally:
            self.waiting -= 1
        self.cpu += cpu
        self._cache[key] = picture
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        self.drawn += 1
        return picture

    async def _run(self, function: Callable[..., Picture], *args: object) -> tuple[Picture, float]:
        loop = asyncio.get_running_loop()
        pool = self._pool()
        if pool is not None:
            try:
                return await loop.run_in_executor(pool, _timed, function, *args)
            except (BrokenProcessPool, OSError, RuntimeError) as error:
                # RuntimeError: the pool was shut down (interpreter exit, or `close` from another task).
                log.warning("picture pool failed (%s); starting a new one", error)
                self._discard()
        self.in_thread += 1
        executor: Executor | None = None  # the loop's default thread pool
        return await loop.run_in_executor(executor, _timed, function, *args)

    def close(self) -> None:
        """Stop the worker processes and wait for them to exit (the cache is kept).

        A later `draw` or `start` starts new ones: the bot's pool is process-wide, so
        this is for the end of a process that wants no child left (a test run, a benchmark).
        """
        executor, self._executor = self._executor, None
        self._warming = []
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)

    def _discard(self) -> None:
        self._broken += 1
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = None
