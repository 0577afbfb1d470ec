"""The event loop's steps, timed one by one and told apart: the bot's own from the simulator's.

The bot's loop-lag monitor (`hosting.looplag`) sees how late the loop wakes, whatever
held it. In a benchmark the same loop also runs SimCord's Discord and the
benchmark's simulated players, which a real deployment does not have. `LoopSteps`
patches asyncio's ``Handle._run`` (every callback and task step the loop runs goes
through it) and times each step, charged to its owner:

* **the simulator**: steps of tasks whose coroutine was started by SimCord, the
  stricter layer (``simtools``) or the benchmark itself (its players clicking), and
  SimCord's own callbacks;
* **the bot**: everything else: the tasks discord.py starts for events and
  interactions (where the cogs run), the bot's own tasks (clock, scheduler, posts),
  and the callbacks that hand back the database thread's and the worker pools'
  results.

A step's time is wall time, so a thread holding the GIL during a step (the
database thread decoding a row) is charged to that step. Each step's CPU time (the
loop thread's own clock, `time.thread_time`) is added up per owner too
(`bot_cpu`, `simulator_cpu`); what the loop thread spends between steps (asyncio
picking the next step, waiting in its selector) is `StepFigures.loop_cpu`. `aside` leaves the
benchmark's own work done inside a step (sampling memory, clearing SimCord) out
of it, and so is the time SimCord's Discord spends handling a request the bot
makes inside a step (``simcord.http.client.router.dispatch``: its checks, its
storage, the events it sends back), which on real Discord passes on another
machine while the bot's loop goes on. For the same reason every request the bot
makes suspends its task once, as a request on a socket does: SimCord answers at
once, so without it a click's whole chain of requests (defer, edit, post) would be
timed as one step, where against Discord each answer resumes a step of its own.
A full (generation 2) collection of the cyclic garbage collector runs
inside whichever step allocates when it falls due; its time is counted in that
step and also on its own (``full_collections``), because its cost grows with
everything the process holds, SimCord's storage included.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from dataclasses import dataclass, field

from simcord.http import client as simcord_http

#: A coroutine or callback defined in a file under one of these belongs to the simulator.
SIMULATOR_PATHS = ("/simcord/", "/simtools/", "/bench/")
#: Bot steps longer than this are kept (with what ran) for the report.
KEEP_ABOVE = 0.005
KEPT = 20


def _callback(handle: asyncio.Handle):
    """What a loop step calls (SimCord wraps callbacks; the original is kept on the wrapper)."""
    callback = getattr(handle, "_callback", None)
    return getattr(callback, "__simcord_original_callback__", callback)


def _path(handle: asyncio.Handle) -> str:
    """The file that defines what a loop step runs: the task's outermost coroutine, or the callback."""
    callback = _callback(handle)
    task = getattr(callback, "__self__", None)
    if isinstance(task, asyncio.Task):
        code = getattr(task.get_coro(), "cr_code", None)
    else:
        code = getattr(getattr(callback, "__func__", callback), "__code__", None)
    return code.co_filename if code else ""


def _describe(handle: asyncio.Handle) -> str:
    """What a loop step ran: the task's coroutine (where it stands now), or the callback."""
    callback = _callback(handle)
    task = getattr(callback, "__self__", None)
    if not isinstance(task, asyncio.Task):
        return f"callback {getattr(callback, '__qualname__', callback)}"
    coro = task.get_coro()
    inner, frame = coro, getattr(coro, "cr_frame", None)
    while getattr(inner, "cr_await", None) is not None and hasattr(inner.cr_await, "cr_frame"):
        inner = inner.cr_await  # where the task stands now: its innermost coroutine
        frame = inner.cr_frame or frame
    where = f" at {frame.f_code.co_filename.split('/')[-1]}:{frame.f_lineno}" if frame else ""
    return f"task {getattr(coro, '__qualname__', coro)}{where}"


def is_simulator(path: str) -> bool:
    """Whether code defined in ``path`` is the simulator's (SimCord, simtools, the benchmark)."""
    return any(fragment in path for fragment in SIMULATOR_PATHS)


@dataclass
class StepFigures:
    """The bot's and the simulator's loop steps: count, longest (seconds) and p99."""

    bot_steps: int
    bot_longest: float
    bot_p99: float
    simulator_longest: float
    longest: list[tuple[float, str]] = field(default_factory=list)  # the bot's longest steps, what ran
    bot_longest_without_full_collection: float = 0.0
    full_collections: list[float] = field(default_factory=list)  # each full collection's seconds
    bot_cpu: float = 0.0  # CPU seconds of the loop thread in the bot's steps
    simulator_cpu: float = 0.0  # ... in the simulator's steps
    loop_cpu: float = 0.0  # ... between steps: asyncio's own bookkeeping


def _suspending(request):
    """SimCord's ``request``, suspending its caller once first, as waiting on a socket does."""

    async def request_over_the_wire(self, *args, **kwargs):
        await asyncio.sleep(0)
        return await request(self, *args, **kwargs)

    return request_over_the_wire


class LoopSteps:
    """Times every loop step while installed (`install`/`uninstall`, or as a context manager)."""

    def __init__(self) -> None:
        self.reset()
        self._aside = 0.0
        self._aside_cpu = 0.0
        self._original = None
        self._requests: dict = {}  # SimCord's HTTP clients and their own request methods, while installed
        self._collecting = 0.0  # when the running full collection began (perf_counter), or 0
        self._collected_in_step = 0.0  # full-collection seconds inside the running step

    def reset(self) -> None:
        """Forget the steps so far (a benchmark measures one phase)."""
        self._bot: list[float] = []
        self._bot_longest = 0.0
        self._simulator_longest = 0.0
        self._kept: list[tuple[float, str]] = []
        self._longest_clean = 0.0
        self._full: list[float] = []
        self.bot_cpu = 0.0  # CPU seconds of the loop thread in the bot's steps, so far
        self.simulator_cpu = 0.0
        self._aside_cpu_at_reset = getattr(self, "_aside_cpu", 0.0)
        self._thread_cpu_at_reset = time.thread_time()  # reset runs on the loop's thread

    def _on_gc(self, phase: str, info: dict) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self._collecting = time.perf_counter()
        elif self._collecting:
            took = time.perf_counter() - self._collecting
            self._collecting = 0.0
            self._collected_in_step += took
            self._full.append(took)

    @contextlib.contextmanager
    def aside(self):
        """The benchmark's own work inside a step: left out of that step's time."""
        started, cpu = time.perf_counter(), time.thread_time()
        try:
            yield
        finally:
            self._aside += time.perf_counter() - started
            self._aside_cpu += time.thread_time() - cpu

    def install(self) -> LoopSteps:
        steps = self
        original = self._original = asyncio.events.Handle._run
        dispatch = self._dispatch = simcord_http.router.dispatch

        def timed_dispatch(*args, **kwargs):
            with steps.aside():  # SimCord's Discord at work, not the bot
                return dispatch(*args, **kwargs)

        simcord_http.router.dispatch = timed_dispatch

        def timed_run(handle):
            started, cpu = time.perf_counter(), time.thread_time()
            aside, aside_cpu = steps._aside, steps._aside_cpu
            steps._collected_in_step = 0.0
            try:
                return original(handle)
            finally:
                took = time.perf_counter() - started - (steps._aside - aside)
                used = time.thread_time() - cpu - (steps._aside_cpu - aside_cpu)
                steps._record(handle, took, used, collected=steps._collected_in_step > 0)

        asyncio.events.Handle._run = timed_run
        clients = (simcord_http.FakeHTTPClient, simcord_http.FakeWebhookAdapter)
        self._requests = {client: client.request for client in clients}
        for client, request in self._requests.items():
            client.request = _suspending(request)
        gc.callbacks.append(self._on_gc)
        return self

    def uninstall(self) -> None:
        if self._original is not None:
            asyncio.events.Handle._run = self._original
            self._original = None
            simcord_http.router.dispatch = self._dispatch
            for client, request in self._requests.items():
                client.request = request
            gc.callbacks.remove(self._on_gc)

    def __enter__(self) -> LoopSteps:
        return self.install()

    def __exit__(self, *exc: object) -> None:
        self.uninstall()

    def _record(self, handle: asyncio.Handle, took: float, used: float, *, collected: bool) -> None:
        if is_simulator(_path(handle)):
            self._simulator_longest = max(self._simulator_longest, took)
            self.simulator_cpu += used
            return
        self.bot_cpu += used
        self._bot.append(took)
        self._bot_longest = max(self._bot_longest, took)
        if not collected:
            self._longest_clean = max(self._longest_clean, took)
        if took > KEEP_ABOVE:
            # Described only when kept: most steps are short, and this runs after every one.
            what = _describe(handle) + (" (a full collection ran in it)" if collected else "")
            self._kept.append((took, what))
            if len(self._kept) > 4 * KEPT:
                self._kept = sorted(self._kept, reverse=True)[:KEPT]

    def figures(self) -> StepFigures:
        """The figures since the start (or `reset`); on the loop's thread."""
        thread_cpu = time.thread_time() - self._thread_cpu_at_reset
        aside_cpu = self._aside_cpu - self._aside_cpu_at_reset
        ordered = sorted(self._bot)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] if ordered else 0.0
        return StepFigures(
            bot_steps=len(ordered),
            bot_longest=self._bot_longest,
            bot_p99=p99,
            simulator_longest=self._simulator_longest,
            longest=sorted(self._kept, reverse=True)[:KEPT],
            bot_longest_without_full_collection=self._longest_clean,
            full_collections=list(self._full),
            bot_cpu=self.bot_cpu,
            simulator_cpu=self.simulator_cpu,
            loop_cpu=max(0.0, thread_cpu - aside_cpu - self.bot_cpu - self.simulator_cpu),
        )
