"""Reef & Ruins solo: expert searches of different sizes side by side on the same seeds.

``python -m bench.reef_tune --first-seed 100 --games 40 --configs NAME ...`` plays each named
`SEARCHES` entry on the seeds (Bewitching Barrier, Sunrise) and prints its mean with a 95 %
interval, the share at 175+, decision CPU p50/p95/max and its paired difference with the first.
For tuning on seeds apart from the measuring ones (0-99). A name may also be ``reference``
(`bench.ref_reef`) or any policy; the games go seed by seed, so every prefix is paired."""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bench.ref_reef import GAME, OPTIONS
from bench.stats import half_interval, percentile
from engine.reef.ai import expert
from engine.reef.ai.expert import EXPERT, Search, searching

#: The expert of sessions 16-17: two rounds ahead, greedy's lucky order, no late or last-round widening.
SESSION16 = Search(candidates=10, samples=16, deeper=1, boon=16, firsts=3, paths=True, boon_deeper=1)

SEARCHES: dict[str, Search] = {
    "expert": EXPERT,
    "old": Search(candidates=8, samples=6, deeper=3, boon=8, firsts=3),
    "paths16": Search(candidates=10, samples=16, deeper=1, boon=8, firsts=3, paths=True, boon_deeper=1),
    "paths16b": SESSION16,
    "paths24": Search(candidates=10, samples=24, deeper=1, boon=16, firsts=3, paths=True, boon_deeper=1),
    "paths12x2": Search(candidates=10, samples=12, deeper=2, boon=16, firsts=3, paths=True, boon_deeper=1),
    "paths32": Search(candidates=12, samples=32, deeper=1, boon=16, firsts=3, paths=True, boon_deeper=1),
    # session 18's steps from the session-16 expert (two rounds ahead, greedy's lucky order)
    "session16": SESSION16,
    "book": SESSION16._replace(lucky_book=True),
    "late": SESSION16._replace(lucky_book=True, late=True, last_firsts=12),
    "ahead3": SESSION16._replace(lucky_book=True, late=True, last_firsts=12, ahead=3),
    "ahead4": SESSION16._replace(lucky_book=True, late=True, last_firsts=12, ahead=4),
}


def play(search: Search, seed: int) -> tuple[int, list[float]]:
    """One seeded solo game with ``search``: its score and each decision's CPU seconds."""
    state = GAME.new(1, seed, OPTIONS)
    cpu = []
    while GAME.to_act(state):
        started = time.process_time()
        action = searching(GAME, state, 0, search)
        cpu.append(time.process_time() - started)
        state, _ = GAME.apply(state, 0, action)
    return GAME.result(state).scores[0], cpu


def player(name: str):
    """A named player: a `SEARCHES` entry, or ``reference`` (`bench.ref_reef`) or any policy."""
    if name in SEARCHES:
        return lambda seed: play(SEARCHES[name], seed)
    from bench.ref_reef import chooser
    from bench.ref_reef import play as play_policy

    return lambda seed: play_policy(chooser(name), seed)


def summary(name: str, got: list[int], cpu: list[float], seeds: list[int]) -> str:
    """One player's figures as a line."""
    return (
        f"{name}: {len(got)} games (seeds {seeds[0]}-{seeds[-1]}), mean {statistics.fmean(got):.1f} "
        f"± {half_interval(got):.1f}, {sum(s >= 175 for s in got)}/{len(got)} at 175+, CPU p50 "
        f"{1000 * percentile(cpu, 0.5):.0f} ms p95 {1000 * percentile(cpu, 0.95):.0f} ms "
        f"max {1000 * max(cpu):.0f} ms, total {sum(cpu):.0f} s"
    )


def lucky_book(games: int) -> None:
    """Each reef and tracker side's lucky numbers, best first, by `expert.lucky_scores` (greedy
    games on sampled dice, the same dice for every number): the lines of `values.LUCKY_BOOK`."""
    from engine.reef.components import TRACKER
    from engine.reef.state import ATOLL_KEY, BARRIER_KEY

    for reef in (BARRIER_KEY, ATOLL_KEY):
        for side in TRACKER:
            scores = expert.lucky_scores(reef, side, games)
            order = tuple(sorted(range(1, 7), key=lambda v: (-round(scores[v], 6), v)))
            means = " ".join(f"{scores[v]:.1f}" for v in range(1, 7))
            print(f"    ({reef!r}, {side!r}): {order},  # {means}", flush=True)


def main() -> None:
    """Play the players seed by seed (so any prefix of seeds is paired) and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first-seed", type=int, default=100)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--configs", nargs="+", default=["expert"])
    parser.add_argument("--every", type=int, default=10, help="print the figures every N seeds")
    parser.add_argument("--cpu-log", help="append each game's decision CPU seconds to this file")
    parser.add_argument(
        "--lucky", type=int, metavar="GAMES", help="print `values.LUCKY_BOOK` (GAMES games a number)"
    )
    args = parser.parse_args()
    if args.lucky:
        lucky_book(args.lucky)
        return
    names = args.configs
    players = {name: player(name) for name in names}
    scores: dict[str, list[int]] = {name: [] for name in names}
    cpus: dict[str, list[float]] = {name: [] for name in names}
    seeds: list[int] = []
    for seed in range(args.first_seed, args.first_seed + args.games):
        seeds.append(seed)
        line = [f"seed {seed}:"]
        for name in names:
            expert.forget()
            score, spent = players[name](seed)
            scores[name].append(score)
            cpus[name].extend(spent)
            line.append(f"{name} {score} ({sum(spent):.1f} s, max {max(spent):.2f})")
            if args.cpu_log:
                with open(args.cpu_log, "a", encoding="utf-8") as log:
                    log.write(f"{name} {seed} {' '.join(f'{t:.4f}' for t in spent)}\n")
        print(" ".join(line), flush=True)
        if len(seeds) % args.every == 0 or seed == args.first_seed + args.games - 1:
            for name in names:
                text = summary(name, scores[name], cpus[name], seeds)
                if name != names[0]:
                    diff = [a - b for a, b in zip(scores[name], scores[names[0]], strict=True)]
                    paired = f"{statistics.fmean(diff):+.1f} ± {half_interval(diff):.1f}"
                    text += f"; - {names[0]} (paired): {paired}"
                print(text, flush=True)


if __name__ == "__main__":
    random.seed(0)
    main()
