"""Where a benchmark's CPU goes, by layer: the bot's own (engine, bots, render, store, hosting,
cogs, discord.py) apart from the simulator's (SimCord) and the rest (asyncio, stdlib).

`LayerSampler` is a statistical profiler: a thread wakes every ``interval`` seconds,
reads every other thread's CPU clock (`time.pthread_getcpuclockid`) and current
stack (`sys._current_frames`), and charges the CPU the thread used since the last
sample to the layer of the innermost frame that belongs to a known package. A
thread that waits (in a selector, a queue, a sleep) uses no CPU and is charged
nothing, so the figures are CPU time in this process, all threads included (the
aiosqlite thread's SQL counts as ``store``). Work done in worker
processes (pictures, bot decisions) is not sampled here: the pools report their
own CPU seconds, which a benchmark adds as separate rows.

Sampling costs a few per cent of a core at the default interval and, unlike
`cProfile`, does not slow the code it measures. Linux (thread CPU clocks).
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
    ("/aiosqlite/", "store"),
    ("/sqlite3/", "store"),
    ("/hosting/", "hosting"),
    ("/cogs/", "cogs"),
    ("/discord/", "discord.py"),
    ("/aiohttp/", "discord.py"),
    ("/PIL/", "render"),
)


#: Layers that are not the bot's own code.
NOT_THE_BOT = ("SimCord", "other (asyncio, stdlib)")


def layer_of(frame: FrameType | None) -> str:
    """The layer a stack is working in: that of its innermost frame in a known package."""
    while frame is not None:
        name = frame.f_code.co_filename
        for fragment, layer in LAYERS:
            if fragment in name:
                return layer
        frame = frame.f_back
    return "other (asyncio, stdlib)"


class LayerSampler:
    """Samples every thread while running; ``cpu`` holds CPU seconds per layer."""

    def __init__(self, interval: float = 0.001) -> None:
        self.interval = interval
        self.cpu: Counter[str] = Counter()
        self._last: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> LayerSampler:
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    def start(self) -> None:
        """Begin sampling in a daemon thread."""
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="layer-sampler", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop sampling (the counts stay)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

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
                if spent > 0:
                    self.cpu[layer_of(frame)] += spent

    def seconds(self) -> dict[str, float]:
        """CPU seconds per layer, largest first."""
        return dict(self.cpu.most_common())


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
