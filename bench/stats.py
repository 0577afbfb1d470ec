"""Statistics the benchmarks print: one definition each, shared by every bench file."""

from __future__ import annotations

import argparse
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


def _binomial(games: int, p: float) -> list[float]:
    """The chance of each number of wins, 0..games, at a true rate ``p``."""
    return [math.comb(games, k) * p**k * (1 - p) ** (games - k) for k in range(games + 1)]


def sequential_plan(looks: Sequence[int], bar: float, z: float) -> tuple[list[int], float]:
    """A group-sequential test that a win rate is at least ``bar``, looked at after ``looks`` games
    in all (e.g. 100, 300, 500): shown at the first look whose Wilson interval at ``z`` has its low
    end at ``bar`` or more. Returns the wins each look needs and the exact chance of ever showing
    it when the true rate is ``bar`` (binomial, ties counted as whole games)."""
    needs: list[int] = []
    alive = [1.0]  # the chance of each win count so far, among runs not yet shown
    shown, before = 0.0, 0
    for games in looks:
        step = _binomial(games - before, bar)
        counts = [0.0] * (games + 1)
        for wins, chance in enumerate(alive):
            for more, other in enumerate(step):
                counts[wins + more] += chance * other
        need = next((k for k in range(games + 1) if wilson(k, games, z)[0] >= bar), games + 1)
        needs.append(need)
        shown += sum(counts[need:])
        alive = counts[:need]
        before = games
    return needs, shown


def sequential_z(looks: Sequence[int], bar: float, alpha: float = 0.025) -> float:
    """The smallest ``z`` (to 0.01) whose `sequential_plan` shows a true ``bar`` at most ``alpha``
    of the time: the looks' common boundary (Pocock's, computed exactly for these looks)."""
    z = 1.96
    while sequential_plan(looks, bar, z)[1] > alpha:
        z = round(z + 0.01, 2)
    return z


def main(argv: list[str] | None = None) -> int:
    """Print a group-sequential plan: ``python -m bench.stats --looks 100 300 500 --bar 0.40``."""
    parser = argparse.ArgumentParser(description="The wins each look of a group-sequential test needs.")
    parser.add_argument("--looks", type=int, nargs="+", required=True, help="games in all at each look")
    parser.add_argument("--bar", type=float, required=True, help="the win rate to show")
    parser.add_argument("--alpha", type=float, default=0.025, help="one-sided chance of a false showing")
    args = parser.parse_args(argv)
    z = sequential_z(args.looks, args.bar, args.alpha)
    needs, shown = sequential_plan(args.looks, args.bar, z)
    for games, need in zip(args.looks, needs, strict=True):
        print(f"after {games} games: {need} wins ({need / games:.1%})")
    print(f"z = {z}; chance of showing at a true {args.bar:.0%}: {shown:.2%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
