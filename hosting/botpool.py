"""Bot decisions off the event loop: a process pool sized to the machine, with a deadline.

An expert's search is pure-Python CPU work of up to a second or more. In a
thread it would share the interpreter (and the event loop's GIL) with every
other table; in a worker process it shares nothing. A decision is sent as
plain, picklable data — (game key, state, seat, policy name, rng seed) — and
comes back as an action.

- The pool is created on the first decision that needs it (a bot that only
  seats Easy bots never starts a process), with ``os.cpu_count()`` workers,
  and shut down when the bot closes (`BotPool.close`).
- Every decision has a deadline (`DEFAULT_DEADLINE`, ``BOT_DEADLINE``). Past it
  the seat plays `FALLBACK` (greedy, cheap) instead, so a table never wedges
  behind a search; the late search is left to finish in its worker.
- A broken pool (a worker died) is replaced, and so is a pool whose every
  worker is still busy with decisions that missed their deadline.
- Policies measured cheaper than a round trip to a worker run in the process
  (`runs_in_process`): a pool round trip costs about 1 ms, ``random`` and most
  ``greedy`` decisions far less (docs/BOTS.md, "Where a decision runs").
- Hints (💡 Suggest, `BotPool.hint`) share the workers with bot seats, but at
  most `hint_slots` of them at a time (a quarter of the workers, at least one),
  and at most `HINTS_WAITING` more wait for a slot: a flood of clicks cannot
  take the cores bot seats need to meet their deadline.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import heapq
import itertools
import logging
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

import engine
from engine.base import Action, State
from engine.bots import LIVE_THINKING, policy, seated, thinking_time
from hosting import counts
from renderers.pool import WorkerPids

#: What plays each seat of a table, by seat (a policy name, None for a person), or None: unknown.
Seats = tuple[str | None, ...] | None

log = logging.getLogger(__name__)

#: Seconds a decision may take before the seat plays `FALLBACK` instead.
DEFAULT_DEADLINE = 4.0
#: A policy told it may think ``t`` seconds (the Master level) gets a deadline of this many times
#: ``t``: its search is sized for this machine's speed, and a busier or slower one takes longer.
THINKING_SLACK = 2.0
#: The cheap policy a late decision falls back to.
FALLBACK = "greedy"
#: A pool that broke this many times in a row rests (decisions play `FALLBACK`) for `REST` seconds.
BREAKS_BEFORE_REST = 3
REST = 60.0
#: A late decision still running after this many seconds counts as stuck; when every worker is
#: stuck, the pool is replaced. (Late but finishing decisions just free their worker.)
STUCK_AFTER = 30.0
#: Seconds a new pool's workers get to start (a fresh interpreter importing the games, slow on a
#: busy machine). A decision's deadline runs from when they are up, or from then at the latest.
STARTUP_ALLOWANCE = 15.0
#: Worker processes run at this lower priority (``os.nice``): a search takes whole cores for
#: seconds, and the event loop, which every table waits on, must get a core at once.
WORKER_NICENESS = 10
#: Policies that run in the process: cheaper than a pool round trip (about 1 ms) in every game...
IN_PROCESS = frozenset({"random", "beginner", "greedy"})
#: ...except these (game, policy): Reef & Ruins' greedy plans a whole round (p95 7 ms, max 108 ms),
#: its beginner too (p95 5 ms, max 82 ms).
POOLED_ANYWAY = frozenset({("reef", "greedy"), ("reef", "beginner")})
#: The share of the workers hints may use at once (bot seats keep the rest), and the least.
HINT_SHARE = 0.25
#: Hints waiting for a slot, past which another is refused (`PoolBusy`) rather than queued.
HINTS_WAITING = 16


class PoolBusy(Exception):
    """Too many hints are being worked out or waiting already: ask again in a moment."""


@dataclass(frozen=True)
class Decision:
    """What a seat's policy chose, which policy it was in the end, and what it cost."""

    action: Action
    policy: str  # the policy asked for, or `FALLBACK` when the deadline passed
    seconds: float  # wall time from asking to the answer
    cpu: float | None  # CPU seconds the worker spent (None: decided in the process)
    late: bool = False  # the deadline passed; `policy` is the fallback's


class WallAlarms:
    """One thread that rings every wall-clock alarm of the process, soonest first.

    A thread per alarm (``threading.Timer``) would block the loop at each decision:
    ``Thread.start`` waits until the new thread runs, and on a busy machine that
    takes milliseconds.
    """

    def __init__(self) -> None:
        self._wake = threading.Condition()
        # [when (perf_counter: SimCord makes time.monotonic virtual), order, ring or None once cancelled]
        self._due: list[list[Any]] = []
        self._order = itertools.count()
        self._thread: threading.Thread | None = None

    def after(self, seconds: float, ring: Callable[[], object]) -> Callable[[], None]:
        """Call ``ring`` (in the alarm thread) after ``seconds``; return what cancels it."""
        entry = [time.perf_counter() + seconds, next(self._order), ring]
        with self._wake:
            heapq.heappush(self._due, entry)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="wall-alarms", daemon=True)
                self._thread.start()  # once per process
            self._wake.notify()

        def cancel() -> None:
            entry[2] = None

        return cancel

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._due or self._due[0][0] > time.perf_counter():
                    self._wake.wait(self._due[0][0] - time.perf_counter() if self._due else None)
                ring = heapq.heappop(self._due)[2]
            if ring is not None:
                try:
                    ring()
                except Exception:  # the loop closed meanwhile: nobody waits for this alarm
                    log.debug("a wall-clock alarm could not ring", exc_info=True)


ALARMS = WallAlarms()


def wall_alarm(seconds: float) -> tuple[asyncio.Future, Callable[[], None]]:
    """A future done after ``seconds`` of wall time, and what cancels the alarm (call it after).

    Timed by a thread, not by the loop's clock: a decision's deadline (and the
    board's thinking note) are about how long the search really takes, and a
    test's loop clock is virtual (SimCord moves it only between steps, so a loop
    timer could not fire while a worker thinks).
    """
    loop = asyncio.get_running_loop()
    alarm = loop.create_future()

    def ring() -> None:
        if not alarm.done():
            alarm.set_result(None)

    cancel = ALARMS.after(seconds, lambda: loop.is_closed() or loop.call_soon_threadsafe(ring))
    return alarm, cancel


async def done_within(task: asyncio.Future, seconds: float) -> bool:
    """Wait until ``task`` is done or ``seconds`` of wall time have passed; whether it is done."""
    alarm, cancel = wall_alarm(seconds)
    try:
        await asyncio.wait({task, alarm}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        cancel()
        alarm.cancel()
    return task.done()


async def within(future: concurrent.futures.Future, seconds: float) -> Any:
    """The future's result if it comes within ``seconds`` of wall time; `TimeoutError` otherwise."""
    waiting = asyncio.wrap_future(future)
    try:
        await done_within(waiting, seconds)
    finally:
        if not waiting.done():
            waiting.cancel()  # drops the decision if it is still queued (a running one goes on)
    if waiting.cancelled():
        raise TimeoutError
    return waiting.result()


def runs_in_process(game_key: str, name: str) -> bool:
    """True for policies cheaper than a round trip to a worker process (measured, see module doc)."""
    return name in IN_PROCESS and (game_key, name) not in POOLED_ANYWAY


def choose(
    game_key: str,
    state: State,
    seat: int,
    name: str,
    seed: str,
    seats: Seats = None,
    thinking: float | None = None,
) -> Action:
    """Run one policy: ``policy(game, state, seat, Random(seed))`` (in a worker or in the process),
    told what plays each seat (``seats``: `engine.bots.seated`), so a search models them as that,
    and how long it may think (``thinking`` seconds: `engine.bots.thinking_time`; None: the default)."""
    with seated(seats), thinking_time(LIVE_THINKING if thinking is None else thinking):
        return policy(game_key, name)(engine.get(game_key), state, seat, random.Random(seed))


def _timed_choice(
    package: str,
    game_key: str,
    state: State,
    seat: int,
    name: str,
    seed: str,
    seats: Seats = None,
    thinking: float | None = None,
) -> tuple[Action, float]:
    """`choose` in a worker, with the CPU seconds it took (``package``: where the game lives)."""
    engine.GAME_PACKAGES.setdefault(game_key, package)  # a game registered after the worker started
    start = time.process_time()
    action = choose(game_key, state, seat, name, seed, seats, thinking)
    return action, time.process_time() - start


def _ready() -> None:
    """Nothing: sent once to each new worker, so they all start at once."""


def _worker_start(packages: dict[str, str], pids: WorkerPids | None = None) -> None:
    """A new worker says its process id (`WorkerPids`), yields to the bot's loop (`WORKER_NICENESS`),
    knows the same games as the bot (tests register their own) and loads them now."""
    if pids is not None:
        pids.report()
    os.nice(WORKER_NICENESS)
    engine.GAME_PACKAGES.update(packages)
    for key in packages:
        try:
            policy(key, FALLBACK)
        except Exception:  # a game without bots: loaded when first asked
            log.debug("worker: could not preload %s", key, exc_info=True)


class Workers:
    """The worker processes of this OS process, shared by every `BotPool` in it.

    One set per process, because the machine has one set of cores: a second bot
    in the same process (tests, an offline run) uses the same workers instead
    of starting as many again. Stopped when the last pool using it closes.
    """

    def __init__(self) -> None:
        self.size = 1
        self.executor: concurrent.futures.ProcessPoolExecutor | None = None
        #: The running workers' process ids, as each reports it (`WorkerPids`).
        self.pids: WorkerPids | None = None
        self.users: set[int] = set()  # id() of the open pools that have used the workers
        # Decisions that missed their deadline and still occupy a worker: since when (monotonic).
        self.overdue: dict[concurrent.futures.Future, float] = {}
        self.breaks = 0  # pools broken in a row
        self.resting_until = 0.0  # time.perf_counter(); no workers are started before it
        self.ready: list[concurrent.futures.Future] = []  # a new pool's start-up calls, one per worker

    def submit(self, *call: Any) -> concurrent.futures.Future:
        """Hand a decision to a worker, starting (or restarting) the processes when needed."""
        self._unstick()
        for attempt in range(2):
            try:
                return self._pool().submit(_timed_choice, engine.GAME_PACKAGES[call[0]], *call)
            except (BrokenProcessPool, RuntimeError):
                if attempt:
                    raise
                self.replace()
        raise AssertionError("unreachable")

    def _pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self.executor is None:
            # "spawn", as the picture pool (renderers.pool): a fresh interpreter per worker, safe
            # beside the bot's threads (a forked copy of a threaded process can inherit a held lock).
            # Not forkserver: its children are polled through a timed wait, which never returns
            # while a test's clock stands still.
            context = multiprocessing.get_context("spawn")
            self.pids = WorkerPids(context)
            self.executor = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.size,
                mp_context=context,
                initializer=_worker_start,
                initargs=(dict(engine.GAME_PACKAGES), self.pids),
            )
            # One empty call per worker starts them all now; decisions wait for them (`started`).
            self.ready = [self.executor.submit(_ready) for _ in range(self.size)]
            log.info("bot worker pool started with %d processes", self.size)
        return self.executor

    async def started(self) -> None:
        """Wait (at most `STARTUP_ALLOWANCE`) until a new pool's workers are up.

        Starting an interpreter is not thinking: a deadline counts from here.
        """
        for call in list(self.ready):
            if not call.done():
                try:
                    await within(call, STARTUP_ALLOWANCE)
                except (TimeoutError, BrokenProcessPool):
                    return  # the decision's own wait says what happens next
        self.ready = []

    def late(self, future: concurrent.futures.Future) -> None:
        """A decision missed its deadline: dropped if still queued, else watched until it ends."""
        if future.cancel():
            return
        self.overdue[future] = time.perf_counter()
        future.add_done_callback(lambda done: self.overdue.pop(done, None))

    def _unstick(self) -> None:
        """Replace the pool when every worker runs a late decision that has been going for too long."""
        now = time.perf_counter()
        stuck = [f for f, since in list(self.overdue.items()) if now - since > STUCK_AFTER and not f.done()]
        if len(stuck) >= self.size:
            log.warning("every bot worker is stuck in a late decision; the pool is started again")
            self.replace()

    def broken(self) -> None:
        """A worker died: start new ones, unless they keep breaking (then rest a while)."""
        self.replace()
        self.breaks += 1
        if self.breaks < BREAKS_BEFORE_REST:
            log.warning("the bot worker pool broke; it is started again", exc_info=True)
            return
        self.resting_until = time.perf_counter() + REST
        self.breaks = 0
        log.error(
            "the bot worker pool broke %d times in a row; bots play %s for %.0f s",
            BREAKS_BEFORE_REST,
            FALLBACK,
            REST,
            exc_info=True,
        )

    def replace(self) -> None:
        """Stop the current processes (killed); the next decision starts new ones."""
        executor, self.executor = self.executor, None
        pids, self.pids = self.pids, None
        self.overdue.clear()
        if executor is not None:
            _stop(executor, pids)

    def worker_pids(self) -> set[int]:
        """The process ids of the running workers (those that have started so far)."""
        return set() if self.pids is None or self.executor is None else self.pids.pids()


#: This process's workers.
WORKERS = Workers()


class BotPool:
    """Decides bot moves in worker processes with a deadline; see the module docstring."""

    def __init__(
        self, *, workers: int | None = None, deadline: float = DEFAULT_DEADLINE, shared: Workers = WORKERS
    ) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.deadline = deadline
        self._shared = shared
        self.closed = False
        #: CPU seconds the workers spent on this bot's decisions (for the benchmarks).
        self.cpu = 0.0
        #: Decisions this bot handed to the worker processes (searches), and how many were hints.
        self.searches = 0
        self.hint_searches = 0
        #: How many hints may search at once: `HINT_SHARE` of the workers, at least one.
        self.hint_slots = max(1, int(self.workers * HINT_SHARE))
        self._hints_running = 0
        self._hints_waiting = 0
        self._hint_turn: asyncio.Condition | None = None

    @property
    def started(self) -> bool:
        """Whether worker processes are running now."""
        return self._shared.executor is not None

    async def decide(
        self,
        game_key: str,
        state: State,
        seat: int,
        name: str,
        seed: str,
        *,
        hint: bool = False,
        seats: Seats = None,
        thinking: float | None = None,
    ) -> Decision:
        """The action ``name`` picks for ``seat``: in a worker within the deadline, else `FALLBACK`.

        ``hint``: for a player's 💡 Suggest (counted apart; call `hint`, which bounds them).
        ``seats``: what plays each seat of the table (a policy name, None for a person), which
        a search uses to model the other seats (`engine.bots.seated`).
        ``thinking``: seconds the policy may think (the Master level: `engine.bots.thinking_time`);
        its deadline is then `THINKING_SLACK` times that, if longer than the bot deadline."""
        began = time.perf_counter()
        shared = self._shared
        deadline = self.deadline if thinking is None else max(self.deadline, thinking * THINKING_SLACK)
        if runs_in_process(game_key, name) or self.closed:
            action = choose(game_key, state, seat, name, seed, seats, thinking)
            counts.bot_decided("in_process")
            return Decision(action, name, time.perf_counter() - began, None)
        if time.perf_counter() >= shared.resting_until:
            shared.users.add(id(self))
            shared.size = max(shared.size, self.workers)
            try:
                future = shared.submit(game_key, state, seat, name, seed, seats, thinking)
                self.searches += 1
                self.hint_searches += hint
                await shared.started()
                action, cpu = await within(future, deadline)
                shared.breaks = 0
                self.cpu += cpu or 0.0
                counts.bot_decided("worker")
                return Decision(action, name, time.perf_counter() - began, cpu)
            except TimeoutError:
                shared.late(future)
                log.warning(
                    "%s %s decision for seat %d passed its %.1f s deadline; playing %s instead",
                    game_key,
                    name,
                    seat,
                    deadline,
                    FALLBACK,
                )
            except BrokenProcessPool:
                shared.broken()
        action = await asyncio.to_thread(choose, game_key, state, seat, FALLBACK, seed, seats)
        # In a thread: Reef & Ruins' greedy can take 0.1 s, and the loop keeps running meanwhile.
        counts.bot_decided("fallback", late=True)
        return Decision(action, FALLBACK, time.perf_counter() - began, None, late=True)

    async def hint(
        self, game_key: str, state: State, seat: int, name: str, seed: str, seats: Seats = None
    ) -> Decision:
        """`decide` for a hint: at most `hint_slots` hints search at once; `PoolBusy` past the queue.

        A hint waits for a slot (bot seats never do), so however many players press
        Suggest, the other workers stay free for the bot seats of every table.
        """
        if self._hint_turn is None:
            self._hint_turn = asyncio.Condition()
        turn = self._hint_turn
        async with turn:
            if self._hints_running >= self.hint_slots and self._hints_waiting >= HINTS_WAITING:
                raise PoolBusy
            self._hints_waiting += 1
            try:
                await turn.wait_for(lambda: self._hints_running < self.hint_slots)
            finally:
                self._hints_waiting -= 1
            self._hints_running += 1
        try:
            return await self.decide(game_key, state, seat, name, seed, hint=True, seats=seats)
        finally:
            async with turn:
                self._hints_running -= 1
                turn.notify()

    async def start(self) -> None:
        """Start the worker processes now and wait until they are up (a benchmark's warm-up;
        a bot starts them at the first decision that needs one)."""
        shared = self._shared
        shared.users.add(id(self))
        shared.size = max(shared.size, self.workers)
        shared._pool()
        await shared.started()

    def close(self) -> None:
        """This bot is closing: the workers stop when no other open pool uses them."""
        self.closed = True
        self._shared.users.discard(id(self))
        if not self._shared.users:
            self._shared.replace()


def _stop(executor: concurrent.futures.ProcessPoolExecutor, pids: WorkerPids | None) -> None:
    """Shut a pool down now: queued decisions dropped, running ones killed, every worker reaped.

    The workers are known by the ids they reported (`WorkerPids`), not by the executor's private
    ``_processes``; one still starting has not reported and ends by itself at the shutdown."""
    processes = pids.processes() if pids is not None else []
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)
