"""Statistics the benchmarks print: one definition each, shared by every bench file."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate or share (95 % at the default ``z``)."""
    if not games:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], share: float) -> float:
    """The ``share`` (0-1) percentile of ``values`` by nearest rank (NaN when there are none)."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def half_interval(values: Sequence[float], z: float = 1.96) -> float:
    """Half the width of the 95 % interval of the mean of ``values`` (normal approximation; 0 for
    fewer than two values)."""
    return z * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0


def mean_interval(values: Sequence[float]) -> str:
    """The mean with the half-width of its 95 % interval: ``"180.0 ± 4.1"``."""
    return f"{statistics.fmean(values):.1f} ± {half_interval(values):.1f}"
