"""Where a benchmark's CPU goes, by layer: the bot's own (engine, bots, render, store, hosting,
cogs, discord.py) apart from the simulator's (SimCord) and the rest (asyncio, stdlib).

`LayerSampler` is a statistical profiler: a thread wakes every ``interval`` seconds,
looks at every other thread's current stack (`sys._current_frames`) and charges
the sample to the layer of the innermost frame that belongs to a known package.
A thread that is waiting (in a selector, a lock, a queue, a sleep) is idle and
not charged, so the figures approximate CPU time in this process, all threads
included (the aiosqlite thread's SQL counts as ``store``). Work done in worker
processes (pictures, bot decisions) is not sampled here: the pools report their
own CPU seconds, which a benchmark adds as separate rows.

Sampling costs ~2 % of a core at the default interval, and, unlike `cProfile`,
does not slow the code it measures.
"""

from __future__ import annotations

import sys
import threading
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
#: Standard-library modules a thread sits in while it waits: a sample there is idle, not CPU.
WAITING = ("selectors.py", "threading.py", "queue.py", "socket.py", "connection.py", "ssl.py")


def layer_of(frame: FrameType | None) -> str | None:
    """The layer a stack is working in (its innermost known frame), or None when it is waiting."""
    if frame is not None and frame.f_code.co_filename.endswith(WAITING):
        return None
    while frame is not None:
        name = frame.f_code.co_filename
        for fragment, layer in LAYERS:
            if fragment in name:
                return layer
        frame = frame.f_back
    return "other"


class LayerSampler:
    """Samples every thread's stack while running; ``counts`` holds samples per layer."""

    def __init__(self, interval: float = 0.001) -> None:
        self.interval = interval
        self.counts: Counter[str] = Counter()
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
        while not self._stop.wait(self.interval):
            for ident, frame in sys._current_frames().items():
                if ident != me and (layer := layer_of(frame)) is not None:
                    self.counts[layer] += 1

    def seconds(self) -> dict[str, float]:
        """Estimated CPU seconds per layer (samples × interval), largest first."""
        return {layer: count * self.interval for layer, count in self.counts.most_common()}


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
    own = sum(v for k, v in rows.items() if k not in ("SimCord", "other"))
    lines.append(f"  {'the bot (all but SimCord, other)':<28} {1000 * own / clicks:7.1f} ms per click")
    return lines
