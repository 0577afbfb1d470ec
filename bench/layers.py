"""Where a benchmark's CPU goes, by layer: the bot's own (engine, bots, render, store, hosting,
cogs, discord.py, the worker pools' hand-over) apart from the simulator's (SimCord, the
benchmark's players) and the rest (asyncio, stdlib).

`LayerSampler` is a statistical profiler: a thread wakes every ``interval`` seconds
and reads every other thread's CPU clock (`time.pthread_getcpuclockid`) and current
stack (`sys._current_frames`); a stack's layer is that of its innermost frame in a
known package.

* A thread other than the event loop's does one kind of work (the database
  thread, the pools' feeder and result threads), so the CPU it used since the
  last sample is charged to its layer now.
* The event loop's thread runs everything in short steps and waits in its
  selector in between, and the sampler can only read it when it lets go of the
  GIL: charged that way, a step's CPU would mostly land on the selector it
  returned to. So a sample of the loop thread counts once for the layer it is
  *running* (a sample in the selector counts nothing), the GIL's switch interval
  is shortened while sampling so that a running step is read within 0.1 ms, and
  the thread's CPU is shared out over its layers by those counts.

The figures are CPU time in this process, all threads included. Work done in
worker processes (pictures, bot decisions) is not sampled here: the pools report
their own CPU seconds, which a benchmark adds as separate rows. Sampling costs a
few per cent of a core at the default interval and, unlike `cProfile`, does not
slow the code it measures. Linux (thread CPU clocks).
"""

from __future__ import annotations

import sys
import threading
import time
from collections import Counter
from types import FrameType

#: (path fragment, layer), checked in order against each frame's file name.
LAYERS: tuple[tuple[str, str], ...] = (
    ("/simcord/", "SimCord"),
    ("/simtools/", "SimCord"),
    ("/engine/", "engine"),
    ("/renderers/", "render"),
    ("/hosting/store.py", "store"),
    ("/hosting/pg_store.py", "store"),
    ("/hosting/rows.py", "store"),  # the row conversions both stores share
    ("/aiosqlite/", "store"),
    ("/sqlite3/", "store"),
    ("/hosting/", "hosting"),
    ("/cogs/", "cogs"),
    ("/discord/", "discord.py"),
    ("/aiohttp/", "discord.py"),
    ("/PIL/", "render"),
    ("/concurrent/futures/", "worker pools (hand-over)"),
    ("/multiprocessing/", "worker pools (hand-over)"),
    ("/bench/", "the benchmark's players"),
)


#: Layers that are not the bot's own code.
NOT_THE_BOT = ("SimCord", "the benchmark's players", "other (asyncio, stdlib)")
#: The GIL's switch interval while sampling (seconds): how soon a running loop step is read.
SWITCH_INTERVAL = 0.0001


def idle(frame: FrameType) -> bool:
    """Whether a stack is waiting in a selector (the event loop between steps)."""
    return frame.f_code.co_name == "select" and frame.f_code.co_filename.endswith("selectors.py")


#: (file name ending, function): the event loop running a step. A stack's walk stops there,
#: so the code below the loop (``asyncio.run`` called from a benchmark) owns nothing.
LOOP_FRAMES = (
    ("asyncio/events.py", "_run"),
    ("asyncio/base_events.py", "_run_once"),
    ("bench/steps.py", "timed_run"),  # bench.steps' timed stand-in for ``Handle._run``
)


def layer_of(frame: FrameType | None) -> str:
    """The layer a stack is working in: that of its innermost frame in a known package, above
    the event loop's own frames."""
    while frame is not None:
        name = frame.f_code.co_filename
        if any(name.endswith(end) and frame.f_code.co_name == function for end, function in LOOP_FRAMES):
            break
        for fragment, layer in LAYERS:
            if fragment in name:
                return layer
        frame = frame.f_back
    return "other (asyncio, stdlib)"


class LayerSampler:
    """Samples every thread while running; ``cpu`` holds CPU seconds per layer.

    It reads the other threads' frames (``sys._current_frames``), which CPython 3.11 does not
    make safe: in a long run it can crash the process (python/cpython#111363; seen here once
    in a 12-minute run of 1,000 tables). ``enabled=False`` samples nothing, for such runs.
    """

    def __init__(self, interval: float = 0.001, *, enabled: bool = True) -> None:
        self.interval = interval
        self.enabled = enabled
        self.cpu: Counter[str] = Counter()  # CPU seconds per layer of the other threads
        self.loop_samples: Counter[str] = Counter()  # the loop thread's running samples per layer
        self.loop_cpu = 0.0  # the loop thread's CPU seconds while sampled
        self._loop = 0  # the loop thread's ident (the one that starts the sampler)
        self._switch = sys.getswitchinterval()
        self._last: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> LayerSampler:
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    @property
    def ident(self) -> int | None:
        """The sampling thread's ident while it runs."""
        return self._thread.ident if self._thread is not None else None

    def start(self) -> None:
        """Begin sampling in a daemon thread (from the event loop's thread)."""
        if not self.enabled:
            return
        self._loop = threading.get_ident()
        self._switch = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_INTERVAL)
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="layer-sampler", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop sampling (the counts stay)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
            sys.setswitchinterval(self._switch)

    def _run(self) -> None:
        me = threading.get_ident()
        self._last = {}
        while not self._stop.wait(self.interval):
            for ident, frame in sys._current_frames().items():
                if ident == me:
                    continue
                try:
                    used = time.clock_gettime(time.pthread_getcpuclockid(ident))
                except (OSError, OverflowError):  # the thread ended between the two calls
                    continue
                spent = used - self._last.get(ident, used)
                self._last[ident] = used
                if ident != self._loop:
                    if spent > 0:
                        self.cpu[layer_of(frame)] += spent
                    continue
                self.loop_cpu += max(0.0, spent)
                if not idle(frame):
                    self.loop_samples[layer_of(frame)] += 1

    def seconds(self) -> dict[str, float]:
        """CPU seconds per layer, largest first: the other threads' and the loop thread's shared out."""
        total = Counter(self.cpu)
        samples = sum(self.loop_samples.values())
        for layer, count in self.loop_samples.items():
            total[layer] += self.loop_cpu * count / samples
        if not samples and self.loop_cpu:
            total["other (asyncio, stdlib)"] += self.loop_cpu
        return dict(total.most_common())


def report(seconds: dict[str, float], clicks: int, extra: dict[str, float] | None = None) -> list[str]:
    """Lines: per layer, ms of CPU per click and share; the bot's own total apart from SimCord's."""
    rows = dict(seconds)
    for name, value in (extra or {}).items():
        rows[name] = rows.get(name, 0.0) + value
    total = sum(rows.values()) or 1.0
    clicks = max(1, clicks)
    lines = [f"CPU by layer over {clicks} clicks (sampled; worker processes as reported by their pools):"]
    for name, value in sorted(rows.items(), key=lambda item: -item[1]):
        lines.append(f"  {name:<28} {1000 * value / clicks:7.1f} ms per click  {100 * value / total:5.1f} %")
    own = sum(v for k, v in rows.items() if k not in NOT_THE_BOT)
    lines.append(
        f"  {'the bot (every layer but SimCord and other)':<28} {1000 * own / clicks:7.1f} ms per click"
    )
    return lines
