"""Reef & Ruins bot figures: mean score with a 95 % interval, the rating bands, CPU per decision.

Usage: ``python -m bench.bots_reef [--policy expert] [--games 50] [--seats 1] [--reef bewitching-barrier]
[--tracker sunrise] [--first-seed 0]``. Seeds are ``first_seed .. first_seed + games - 1``; every
seat plays the chosen policy. CPU time is ``time.process_time`` around each call of the policy.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import engine
from bench.stats import half_interval, percentile
from engine.reef.ai import POLICIES
from engine.reef.components import RATINGS, rating


def run(policy: str, games: int, seats: int, options: dict, first_seed: int = 0) -> dict:
    """Play ``games`` seeded games; scores, game lengths (actions) and CPU seconds per decision."""
    game = engine.get("reef")
    choose = POLICIES[policy]
    scores: list[int] = []
    lengths: list[int] = []
    cpu: list[float] = []
    for seed in range(first_seed, first_seed + games):
        state = game.new(seats, seed, options)
        rng = random.Random(seed)
        steps = 0
        while to_act := game.to_act(state):
            seat = min(to_act)
            start = time.process_time()
            action = choose(game, state, seat, rng)
            cpu.append(time.process_time() - start)
            state, _ = game.apply(state, seat, action)
            steps += 1
        result = game.result(state)
        scores.extend(result.scores)
        lengths.append(steps)
    return {"scores": scores, "lengths": lengths, "cpu": cpu}


def report(policy: str, figures: dict) -> str:
    """The figures as text: mean ± 95 % interval, the rating bands, CPU per decision."""
    scores = figures["scores"]
    mean = statistics.fmean(scores)
    half = half_interval(scores)
    lines = [
        f"{policy}: mean score {mean:.1f} ± {half:.1f} (95 % interval), sd "
        f"{statistics.pstdev(scores):.1f}, min {min(scores)}, max {max(scores)}, {len(scores)} scores; "
        f"{sum(s >= 175 for s in scores)} of {len(scores)} at 175 or more",
        f"mean game length {statistics.fmean(figures['lengths']):.1f} actions",
    ]
    for band in RATINGS:
        count = sum(1 for s in scores if rating(s) is band)
        top = "+" if band.high is None else f"-{band.high}"
        lines.append(f"  {band.low}{top:>5} {band.title:<16} {count:4d}  {100 * count / len(scores):5.1f} %")
    cpu = figures["cpu"]
    lines.append(
        f"CPU per decision: p50 {1000 * percentile(cpu, 0.5):.1f} ms, "
        f"p95 {1000 * percentile(cpu, 0.95):.1f} ms, max {1000 * max(cpu):.1f} ms over {len(cpu)} decisions"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policy", default="expert", choices=sorted(POLICIES))
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seats", type=int, default=1)
    parser.add_argument("--reef", default="bewitching-barrier")
    parser.add_argument("--tracker", default="sunrise")
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()
    options = {"reef": args.reef, "tracker": args.tracker}
    figures = run(args.policy, args.games, args.seats, options, args.first_seed)
    print(
        f"Reef & Ruins, {args.seats} seat(s), {args.reef}, {args.tracker}, seeds {args.first_seed}-"
        f"{args.first_seed + args.games - 1}"
    )
    print(report(args.policy, figures))


if __name__ == "__main__":
    main()
