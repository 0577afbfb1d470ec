"""The loop-lag monitor's log: quiet on a busy evening, one line a minute, WARNING only when it matters."""

from __future__ import annotations

import asyncio
import logging
import time

from hosting.looplag import LoopLag


class Clock:
    """A wall clock the test moves (the monitor reads it for its minute)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def stalled_for(lag: LoopLag, clock: Clock, seconds: float, stall: float, gap: float = 0.02) -> None:
    """The probe's wake-ups over ``seconds`` of a loop that stalls ``stall`` seconds at each wake-up."""
    end = clock.now + seconds
    while clock.now < end:
        clock.now += stall + gap
        lag.record(stall)


def lines(caplog, level: int) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "hosting.looplag" and r.levelno == level]


def test_a_loop_stalled_for_ten_minutes_writes_at_most_a_warning_a_minute(caplog):
    caplog.set_level(logging.DEBUG, logger="hosting.looplag")
    clock = Clock()
    lag = LoopLag(clock=clock)
    stalled_for(lag, clock, 600, stall=1.5)  # 1.5 s stalls, back to back, for ten minutes
    lag.stop()
    warnings = lines(caplog, logging.WARNING)
    assert 1 <= len(warnings) <= 11  # ten minutes, plus the part-minute summed up at stop
    assert all("worst 1500 ms" in r.getMessage() for r in warnings)
    counted = sum(int(r.getMessage().split(" stalled ")[1].split()[0]) for r in warnings)
    assert counted == lag.figures().wakeups
    assert len(lines(caplog, logging.DEBUG)) == lag.figures().wakeups  # each stall, in detail, at DEBUG
    assert not lines(caplog, logging.INFO)


def test_one_stall_of_ten_minutes_is_one_warning(caplog):
    caplog.set_level(logging.DEBUG, logger="hosting.looplag")
    clock = Clock()
    lag = LoopLag(clock=clock)
    clock.now += 600
    lag.record(600)
    stalled_for(lag, clock, 120, stall=0.0)  # then the loop runs freely for two minutes
    lag.stop()
    [warning] = lines(caplog, logging.WARNING)
    assert "stalled 1 time " in warning.getMessage()


def test_the_usual_small_stalls_of_a_busy_evening_never_warn(caplog):
    caplog.set_level(logging.DEBUG, logger="hosting.looplag")
    clock = Clock()
    lag = LoopLag(clock=clock)
    # 65 minutes with a 200 ms stall every 10 s (the evening of issue #41 logged 1,323 warnings).
    for _ in range(65 * 6):
        stalled_for(lag, clock, 10, stall=0.0)
        clock.now += 0.2
        lag.record(0.2)
    lag.stop()
    assert not lines(caplog, logging.WARNING)
    summaries = lines(caplog, logging.INFO)
    assert 60 <= len(summaries) <= 66
    assert all("harmless" in r.getMessage() for r in summaries)


async def test_a_real_stall_is_seen_and_summed_up_at_stop(caplog):
    """The probe thread against a loop that really blocks (time.sleep in a callback)."""
    caplog.set_level(logging.DEBUG, logger="hosting.looplag")
    lag = LoopLag()
    lag.start()
    try:
        for _ in range(3):
            await asyncio.sleep(0)  # let the probe's callbacks run
            for _ in range(20):
                if lag.figures().wakeups:
                    break
                await asyncio.to_thread(time.sleep, 0.02)
            time.sleep(0.3)  # the stall under test
            await asyncio.to_thread(time.sleep, 0.05)
    finally:
        lag.stop()
    stalls = lines(caplog, logging.DEBUG)
    assert len(stalls) >= 3
    [summary] = lines(caplog, logging.INFO) or lines(caplog, logging.WARNING)
    assert f"stalled {len(stalls)} times" in summary.getMessage()
