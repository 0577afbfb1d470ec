"""How late the event loop wakes: a watch on stalls that would delay every table at once.

Every `INTERVAL` a small thread hands the loop a callback
(``call_soon_threadsafe``) and records how long the loop took to run it: an
idle loop runs it within microseconds, and anything that holds the loop (a
search in the loop's thread, a slow picture drawn in place, a blocking call, a
thread holding the GIL) shows up as a late wake-up. A thread, not a task
that sleeps, because a sleeping task would be timed by the loop it measures
(and SimCord's virtual clock moves a test's loop timers). `LoopLag.figures`
gives the longest stall and the 99th percentile over the recent wake-ups. The
bot starts one at start-up (`bot.GameBot.setup_hook`); ``bench.e2e`` reads it.

What it logs: each stall over `STALL_ABOVE` at DEBUG, and at most one line a
`SUMMARY_EVERY` (a minute) with how many stalls there were and the worst. That
line is a WARNING only when an operator should act (a stall of `WARN_ABOVE`, a
second of every table's clicks held, or the loop stalled `BUSY_SHARE` of the
minute); otherwise it is INFO. A busy evening on a small machine stalls the
loop for a few hundred milliseconds now and then (a big picture, a garbage
collection, a slow disk), which players barely notice: one line a minute, not
one per stall.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

#: Seconds between wake-ups (10–50 ms: fine enough for a 10 ms target, cheap enough to run always).
INTERVAL = 0.02
#: A wake-up later than this (seconds) counts as a stall (logged at DEBUG, summed up each minute).
STALL_ABOVE = 0.1
#: A minute whose worst stall reached this (seconds) is summed up at WARNING: every table waited that long.
WARN_ABOVE = 1.0
#: ...and so is a minute when the loop was stalled at least this share of the time.
BUSY_SHARE = 0.1
#: Seconds between summary lines (at most one line per this).
SUMMARY_EVERY = 60.0
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

    def __init__(
        self,
        interval: float = INTERVAL,
        warn_above: float = WARN_ABOVE,
        *,
        stall_above: float = STALL_ABOVE,
        summary_every: float = SUMMARY_EVERY,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        """``clock``: wall time in seconds for the summary's minute (perf_counter: SimCord makes
        ``time.monotonic`` virtual; a test may pass its own)."""
        self.interval = interval
        self.warn_above = warn_above
        self.stall_above = stall_above
        self.summary_every = summary_every
        self._clock = clock
        self._lags: deque[float] = deque(maxlen=KEPT)
        self._wakeups = 0
        self._longest = 0.0
        # The stalls since the last summary line: since when, how many, the worst, their sum.
        self._since: float | None = None
        self._stalls = 0
        self._worst = 0.0
        self._stalled = 0.0
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
        """Stop watching (the figures stay readable); the stalls not yet summed up are, now."""
        self._stop.set()
        self._thread = None
        self._summarise(self._clock())

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
        now = self._clock()
        if late > self.stall_above:
            log.debug("the event loop stalled for %.0f ms", late * 1000)
            if self._since is None:
                self._since = now - late  # the minute starts when this stall began
            self._stalls += 1
            self._worst = max(self._worst, late)
            self._stalled += late
        if self._since is not None and now - self._since >= self.summary_every:
            self._summarise(now)

    def _summarise(self, now: float) -> None:
        """Log one line for the stalls since the last one (WARNING only when an operator should act)."""
        if self._since is None:
            return
        span = max(now - self._since, self.summary_every)
        urgent = self._worst >= self.warn_above or self._stalled >= BUSY_SHARE * span
        log.log(
            logging.WARNING if urgent else logging.INFO,
            "the event loop stalled %d time%s over %.0f s (worst %.0f ms, %.1f s in all)%s",
            self._stalls,
            "" if self._stalls == 1 else "s",
            span,
            self._worst * 1000,
            self._stalled,
            (
                ": every table's clicks waited that long; see README, 'Logs'"
                if urgent
                else " (harmless at this size; see README, 'Logs')"
            ),
        )
        self._since, self._stalls, self._worst, self._stalled = None, 0, 0.0, 0.0

    def figures(self) -> LagFigures:
        """The longest stall since the start (or `reset`) and the p99 of the recent wake-ups."""
        lags = sorted(self._lags)
        p99 = lags[min(len(lags) - 1, int(0.99 * len(lags)))] if lags else 0.0
        return LagFigures(self._wakeups, self._longest, p99)
