"""Haenyeo self-play tuning (issue #39): all-expert 4-seat tables against all-greedy ones, paired by seed.

Run ``nice python -m bench.haenyeo_tune [--games N] [--start S] [--set NAME=V ...] [--try "NAME=V ..." ...]``.

For every seed ``g`` of ``--start`` … ``--start + --games - 1`` it plays one 4-seat table of
``greedy`` bots and one of ``expert`` bots told that experts sit there (`engine.bots.seated`),
both with game seed ``g``, and prints the mean score per seat of each table and the paired
difference (expert minus greedy, per seed) with its 95 % interval (t-free: 1.96 × sd / √n).
Each ``--try`` is a candidate: a space-separated list of ``NAME=VALUE`` overrides of the expert's
hand-set values (``values.TABLE_RIVALRY``, ``values.GROWTH``, ``expert.EXPERT_DEPTH`` …), applied
for that candidate only (``--set`` overrides apply to every candidate); the greedy tables are
played once and shared. ``--beginner N`` instead plays N 2-seat games beginner against greedy
(seats alternated, seed ``g``) and prints the beginner's win rate with its Wilson interval.
Figures only: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
from collections.abc import Sequence

from bench.bots import cpu_text, duel, play
from bench.stats import mean_interval, percentile, wilson

GAME_KEY = "haenyeo"
#: Module short names an override may name.
MODULES = {
    "values": "engine.haenyeo.ai.values",
    "expert": "engine.haenyeo.ai.expert",
    "beginner": "engine.haenyeo.ai.beginner",
    "master": "engine.haenyeo.ai.master",
}


def apply(overrides: Sequence[str]) -> dict[tuple[object, str], object]:
    """Set every ``module.NAME=VALUE``; return the old values (for `restore`)."""
    old: dict[tuple[object, str], object] = {}
    for item in overrides:
        name, value = item.split("=", 1)
        short, attr = name.split(".", 1)
        module = importlib.import_module(MODULES[short])
        old[(module, attr)] = getattr(module, attr)
        setattr(module, attr, type(getattr(module, attr))(float(value)))
        if short == "values" and attr == "EGG_KEEP":  # the expert imports it by name
            expert = importlib.import_module(MODULES["expert"])
            old[(expert, attr)] = expert.EGG_KEEP
            expert.EGG_KEEP = float(value)
    _forget()
    return old


def restore(old: dict[tuple[object, str], object]) -> None:
    for (module, attr), value in old.items():
        setattr(module, attr, value)
    _forget()


def _forget() -> None:
    """Drop the memos of earlier decisions (their keys do not name the values)."""
    importlib.import_module(MODULES["expert"])._MEMO.clear()
    importlib.import_module(MODULES["master"])._MEMO.clear()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="seeds per candidate (default 20)")
    parser.add_argument("--start", type=int, default=5000, help="first seed (default 5000)")
    parser.add_argument("--set", nargs="*", default=(), help="NAME=VALUE for every candidate")
    parser.add_argument("--try", dest="tries", action="append", default=None, help="a candidate")
    parser.add_argument("--beginner", type=int, default=0, help="2-seat beginner-greedy games instead")
    parser.add_argument("--hero", default="beginner", help="the hero of --beginner (default beginner)")
    parser.add_argument("--other", default="greedy", help="its opponent (default greedy)")
    parser.add_argument("--verbose", action="store_true", help="print every seed's pair")
    args = parser.parse_args(argv)
    seeds = range(args.start, args.start + args.games)
    tries = args.tries or [""]
    if args.beginner:
        for candidate in tries:
            old = apply([*args.set, *candidate.split()])
            wins, mine, theirs, cpu = duel(GAME_KEY, 2, args.hero, args.other, args.beginner, args.start)
            low, high = wilson(wins, args.beginner)
            print(
                f"[{candidate or 'as shipped'}] {args.hero} vs {args.other}, 2 seats, seeds {args.start}–"
                f"{args.start + args.beginner - 1}: {wins:g} of {args.beginner} ({wins / args.beginner:.0%}; "
                f"{low:.0%}–{high:.0%}); scores {mean_interval(mine)} / {mean_interval(theirs)}; "
                f"{args.hero} CPU per decision p50 {percentile(cpu, 0.5) * 1000:.2f} ms "
                f"p95 {percentile(cpu, 0.95) * 1000:.2f} ms",
                flush=True,
            )
            restore(old)
        return
    greedy = [statistics.fmean(play(GAME_KEY, ["greedy"] * 4, g, {})[0]) for g in seeds]
    first, last = seeds.start, seeds.stop - 1
    print(f"greedy tables, seeds {first}–{last}: per seat {mean_interval(greedy)}", flush=True)
    for candidate in tries:
        old = apply([*args.set, *candidate.split()])
        cpu: dict[str, list[float]] = {}
        experts = [statistics.fmean(play(GAME_KEY, ["expert"] * 4, g, cpu)[0]) for g in seeds]
        diffs = [e - g for e, g in zip(experts, greedy, strict=True)]
        print(
            f"[{candidate or 'as shipped'}] experts per seat {mean_interval(experts)}; "
            f"paired expert − greedy {mean_interval(diffs)} (n={len(diffs)}); expert "
            f"{cpu_text(cpu['expert'])}, max {max(cpu['expert']) * 1000:.0f} ms",
            flush=True,
        )
        if args.verbose:
            pairs = [(round(e), round(g)) for e, g in zip(experts, greedy, strict=True)]
            print("  per seed (expert, greedy):", pairs, flush=True)
        restore(old)


if __name__ == "__main__":
    main()
