"""How late the event loop wakes: a watch on stalls that would delay every table at once.

Every `INTERVAL` a small thread hands the loop a callback
(``call_soon_threadsafe``) and records how long the loop took to run it: an
idle loop runs it within microseconds, and anything that holds the loop (a
search in the loop's thread, a slow picture drawn in place, a blocking call, a
thread holding the GIL) shows up as a late wake-up. A thread, not a task
that sleeps, because a sleeping task would be timed by the loop it measures
(and SimCord's virtual clock moves a test's loop timers). `LoopLag.figures`
gives the longest stall and the 99th percentile over the recent wake-ups; a
stall over `WARN_ABOVE` is logged as a warning. The bot starts one at
start-up (`bot.GameBot.setup_hook`); ``bench.e2e`` reads it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import deque
from dataclasses import dataclass

log = logging.getLogger(__name__)

#: Seconds between wake-ups (10–50 ms: fine enough for a 10 ms target, cheap enough to run always).
INTERVAL = 0.02
#: A stall longer than this (seconds) is logged as a warning.
WARN_ABOVE = 0.1
#: Wake-ups kept for the percentile (about 3 minutes at `INTERVAL`).
KEPT = 8192


@dataclass(frozen=True)
class LagFigures:
    """The loop's lateness so far: wake-ups seen, the longest and the 99th percentile (seconds)."""

    wakeups: int
    longest: float
    p99: float

    def text(self) -> str:
        """``"longest stall 3.1 ms, p99 0.8 ms over 1200 wake-ups"``."""
        return (
            f"longest stall {self.longest * 1000:.1f} ms, p99 {self.p99 * 1000:.1f} ms "
            f"over {self.wakeups} wake-ups"
        )


class LoopLag:
    """The loop-lag monitor: `start` it on the running loop, read `figures`, `stop` it."""

    def __init__(self, interval: float = INTERVAL, warn_above: float = WARN_ABOVE) -> None:
        self.interval = interval
        self.warn_above = warn_above
        self._lags: deque[float] = deque(maxlen=KEPT)
        self._wakeups = 0
        self._longest = 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        """Whether the probe thread runs now."""
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        """Start watching the running loop (once; again after `stop`)."""
        if self.running:
            return
        loop = asyncio.get_running_loop()
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._probe, args=(loop, self._stop), name="loop-lag", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        """Stop watching (the figures stay readable)."""
        self._stop.set()
        self._thread = None

    def reset(self) -> None:
        """Forget the figures so far (a benchmark measures one phase)."""
        self._lags.clear()
        self._wakeups = 0
        self._longest = 0.0

    def _probe(self, loop: asyncio.AbstractEventLoop, stop: threading.Event) -> None:
        """The thread: every interval, time how long the loop takes to run a callback."""
        arrived = threading.Event()
        while not stop.wait(self.interval):
            arrived.clear()
            sent = time.perf_counter()
            try:
                loop.call_soon_threadsafe(self._arrived, sent, arrived)
            except RuntimeError:  # the loop is closed
                return
            while not arrived.wait(1.0):
                if stop.is_set() or loop.is_closed():
                    return

    def _arrived(self, sent: float, arrived: threading.Event) -> None:
        self.record(time.perf_counter() - sent)
        arrived.set()

    def record(self, late: float) -> None:
        """Count one wake-up that came ``late`` seconds after it was due (on the loop's thread)."""
        late = max(0.0, late)
        self._lags.append(late)
        self._wakeups += 1
        if late > self._longest:
            self._longest = late
        if late > self.warn_above:
            log.warning("the event loop stalled for %.0f ms", late * 1000)

    def figures(self) -> LagFigures:
        """The longest stall since the start (or `reset`) and the p99 of the recent wake-ups."""
        lags = sorted(self._lags)
        p99 = lags[min(len(lags) - 1, int(0.99 * len(lags)))] if lags else 0.0
        return LagFigures(self._wakeups, self._longest, p99)
