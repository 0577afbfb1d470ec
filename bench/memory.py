"""Memory figures the benchmarks share: a process's resident memory, a least-squares growth."""

from __future__ import annotations

import os
import statistics

PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_mb(pid: int | str = "self") -> float:
    """A process's resident memory (MB), from /proc/<pid>/statm (0 if it has gone)."""
    try:
        with open(f"/proc/{pid}/statm") as statm:
            return int(statm.read().split()[1]) * PAGE / 2**20
    except OSError:
        return 0.0


def slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of ys against xs (`statistics.linear_regression`; nan for fewer than two
    distinct xs)."""
    if len(set(xs)) < 2:
        return float("nan")
    return statistics.linear_regression(xs, ys).slope
