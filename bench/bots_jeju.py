"""Jeju Island bots: the expert against greedy, win rates and CPU time per decision.

Run ``nice python -m bench.bots_jeju [--games2 N] [--games4 N]``.

- 2 seats: expert against greedy, the expert's seat alternating with the seed
  (so each bot moves first in half the games);
- 4 seats: one expert against three greedy seats, the expert's seat going round.

Game ``g`` uses seed ``g`` and ``random.Random(g)``. It prints the expert's win
rate (a shared win counts 1/k) with the game count and a 95 % Wilson interval,
the mean scores, and the CPU time (``time.process_time``) of each expert decision:
p50, p95 and max.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import engine
from bench.jeju_plans import wilson
from bench.stats import percentile
from engine.jeju.ai.expert import expert_policy
from engine.jeju.ai.greedy import greedy_policy

GAME = engine.get("jeju")


def match(seats: int, games: int) -> dict:
    """``games`` games of one expert seat (rotating) against greedy seats."""
    wins = 0.0
    cpu: list[float] = []
    mine, theirs = [], []
    for seed in range(games):
        me = seed % seats
        state, rng = GAME.new(seats, seed), random.Random(seed)
        while actors := GAME.to_act(state):
            seat = min(actors)
            if seat == me:
                started = time.process_time()
                action = expert_policy(GAME, state, seat, rng)
                cpu.append(time.process_time() - started)
            else:
                action = greedy_policy(GAME, state, seat, rng)
            state, _ = GAME.apply(state, seat, action)
        result = GAME.result(state)
        if me in result.winners:
            wins += 1 / len(result.winners)
        mine.append(result.scores[me])
        theirs.append(statistics.mean(s for i, s in enumerate(result.scores) if i != me))
    low, high = wilson(wins, games)
    return {
        "seats": seats,
        "games": games,
        "win_rate": wins / games,
        "low": low,
        "high": high,
        "expert_score": statistics.mean(mine),
        "greedy_score": statistics.mean(theirs),
        "decisions": len(cpu),
        "p50": percentile(cpu, 0.5),
        "p95": percentile(cpu, 0.95),
        "max": max(cpu, default=0.0),
    }


def main(argv: list[str] | None = None) -> int:
    """Print the expert's record at 2 and 4 seats."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games2", type=int, default=40, help="games at 2 seats")
    parser.add_argument("--games4", type=int, default=24, help="games at 4 seats")
    args = parser.parse_args(argv)
    for seats, games in ((2, args.games2), (4, args.games4)):
        if games <= 0:
            continue
        row = match(seats, games)
        print(
            f"{seats} seats, expert vs greedy: win {row['win_rate']:.1%} "
            f"[{row['low']:.0%}-{row['high']:.0%}] of {row['games']} games; "
            f"score {row['expert_score']:.1f} vs greedy mean {row['greedy_score']:.1f}; "
            f"CPU per decision ({row['decisions']}) p50 {row['p50'] * 1000:.0f} ms, "
            f"p95 {row['p95'] * 1000:.0f} ms, max {row['max'] * 1000:.0f} ms",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
